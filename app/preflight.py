"""First-run check of the desktop app: can Qt open a window on this machine?

Qt aborts the whole process (a core dump, exit 134) when its platform plugin cannot be loaded —
a system library missing, or no display to connect to. This check runs before anything imports
Qt's GUI modules, decides the platform plugin the way Qt will, and answers with one sentence
that names the missing pieces, the packages that bring them and the ``QT_QPA_PLATFORM=offscreen``
escape, so ``slate`` exits 2 instead.

How Qt picks its platform on Linux (PySide6 6.11, checked by hand): ``QT_QPA_PLATFORM`` when
set (a ``;``-separated list of fallbacks, each optionally ``name:options``); otherwise
``wayland`` then ``xcb`` when ``WAYLAND_DISPLAY`` is set or ``XDG_SESSION_TYPE`` is
``wayland``, else ``xcb``. The plugin is looked up in ``QT_QPA_PLATFORM_PLUGIN_PATH``, then in
``platforms/`` under each ``QT_PLUGIN_PATH`` entry, then in PySide6's own plugin folder; Qt
moves on to the next library of the same name when one fails to load.
Libraries are checked with ``ldd`` (one process, every library the plugin needs, transitively,
~10 ms), or a ``dlopen`` where ``ldd`` is missing; the display with a real connection attempt
(``xcb_connect`` / ``wl_display_connect``).

Standard library only: it must work when Qt itself cannot be imported.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, TextIO

#: Debian/Ubuntu packages with the system libraries Qt needs here: the xcb and wayland platform
#: plugins, OpenGL/EGL, fonts, and Qt Multimedia's audio and video decoding. README's run command
#: and .ci/run install exactly these (a test checks all three agree).
DEBIAN_PACKAGES = (
    "libegl1",
    "libgl1",
    "libfontconfig1",
    "libglib2.0-0",
    "libdbus-1-3",
    "libxkbcommon-x11-0",
    "libx11-xcb1",
    "libxcb-cursor0",
    "libxcb-icccm4",
    "libxcb-image0",
    "libxcb-keysyms1",
    "libxcb-randr0",
    "libxcb-render-util0",
    "libxcb-shape0",
    "libxcb-sync1",
    "libxcb-xfixes0",
    "libxcb-xkb1",
    "libwayland-cursor0",
    "libwayland-egl1",
    "libpulse0",
    "libpipewire-0.3-0",
    "libva2",
    "libva-drm2",
    "libva-x11-2",
)
#: The same libraries on Fedora.
FEDORA_PACKAGES = (
    "libglvnd-egl",
    "libglvnd-glx",
    "fontconfig",
    "glib2",
    "dbus-libs",
    "libxkbcommon-x11",
    "libX11-xcb",
    "xcb-util-cursor",
    "xcb-util-wm",
    "xcb-util-image",
    "xcb-util-keysyms",
    "xcb-util-renderutil",
    "libxcb",
    "libwayland-cursor",
    "libwayland-egl",
    "pulseaudio-libs",
    "pipewire-libs",
    "libva",
)
#: Platforms that draw into memory: the app runs, but nothing appears on a screen.
NO_WINDOW = frozenset({"offscreen", "minimal", "minimalegl"})
#: Platforms that need a display server to connect to.
NEEDS_DISPLAY = frozenset({"xcb", "wayland", "wayland-egl", "wayland-brcm"})
EXIT_REFUSED = 2

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.M)
_DLOPEN_MISSING = re.compile(r"([^\s:]+): cannot open shared object file")


@dataclass(frozen=True)
class PlatformCheck:
    """What the check found for one platform plugin."""

    platform: str
    plugin: str | None
    missing_libraries: tuple[str, ...] = ()
    display: str | None = None
    display_error: str | None = None

    @property
    def ok(self) -> bool:
        return self.plugin is not None and not self.missing_libraries and self.display_error is None

    @property
    def shows_window(self) -> bool:
        return self.platform not in NO_WINDOW

    def to_json(self) -> dict[str, object]:
        return {
            "platform": self.platform,
            "plugin": self.plugin,
            "plugin_found": self.plugin is not None,
            "libraries_ok": self.plugin is not None and not self.missing_libraries,
            "missing_libraries": list(self.missing_libraries),
            "display": self.display,
            "display_ok": None
            if self.platform not in NEEDS_DISPLAY
            else self.display_error is None,
            "display_error": self.display_error,
        }


@dataclass(frozen=True)
class Preflight:
    """The platforms Qt will try, in order, and what was found for each."""

    source: str  # QT_QPA_PLATFORM, WAYLAND_DISPLAY, XDG_SESSION_TYPE or default
    checks: tuple[PlatformCheck, ...]
    available: tuple[str, ...] = field(default=())

    @property
    def chosen(self) -> PlatformCheck | None:
        """The platform Qt will end up on (the first that works), or None: Qt would abort."""
        return next((c for c in self.checks if c.ok), None)

    @property
    def ok(self) -> bool:
        return self.chosen is not None

    @property
    def culprit(self) -> PlatformCheck:
        """The failed platform to talk about: the first with a display, else the first."""
        for c in self.checks:
            if c.plugin is not None and c.display_error is None:
                return c
        return self.checks[0]

    def sentence(self) -> str | None:
        """One sentence saying what is missing and how to fix it; None when all is well."""
        if self.ok:
            return None
        c = self.culprit
        reasons: list[str] = []
        fixes: list[str] = []
        if c.plugin is None:
            have = ", ".join(self.available) or "none"
            reasons.append(f"Qt has no platform plugin named {c.platform!r} (it has: {have})")
            fixes.append("set QT_QPA_PLATFORM to one of those or unset it")
        if c.missing_libraries:
            reasons.append(
                f"Qt's {c.platform} platform plugin needs "
                f"{', '.join(c.missing_libraries)}, which "
                f"{'is' if len(c.missing_libraries) == 1 else 'are'} not installed"
            )
            fixes.append(
                f"install {'it' if len(c.missing_libraries) == 1 else 'them'} with "
                f"`{debian_install_command()}` (Debian/Ubuntu) or "
                f"`sudo dnf install -y {' '.join(FEDORA_PACKAGES)}` (Fedora)"
            )
        if c.display_error is not None:
            reasons.append(c.display_error)
            fixes.append("start Slate inside a desktop session")
        fixes.append("run it without a window with QT_QPA_PLATFORM=offscreen")
        fix = fixes[0] if len(fixes) == 1 else ", ".join(fixes[:-1]) + ", or " + fixes[-1]
        return f"slate: cannot open a window: {', and '.join(reasons)}; {fix}."

    def to_json(self) -> dict[str, object]:
        chosen = self.chosen
        return {
            "platform": (chosen or self.culprit).platform,
            "candidates": [c.platform for c in self.checks],
            "source": self.source,
            "ok": self.ok,
            "shows_window": bool(chosen and chosen.shows_window),
            "checks": [c.to_json() for c in self.checks],
            "packages": {"debian": list(DEBIAN_PACKAGES), "fedora": list(FEDORA_PACKAGES)},
        }


def debian_install_command() -> str:
    return "sudo apt-get install -y " + " ".join(DEBIAN_PACKAGES)


def platform_candidates(environ: Mapping[str, str]) -> tuple[list[str], str]:
    """The platform plugins Qt will try, in order, and what decided them."""
    forced = environ.get("QT_QPA_PLATFORM", "").strip()
    if forced:
        names = [p.split(":", 1)[0].strip() for p in forced.split(";")]
        return [n for n in names if n] or ["xcb"], "QT_QPA_PLATFORM"
    if environ.get("WAYLAND_DISPLAY"):
        return ["wayland", "xcb"], "WAYLAND_DISPLAY"
    if environ.get("XDG_SESSION_TYPE") == "wayland":
        return ["wayland", "xcb"], "XDG_SESSION_TYPE"
    return ["xcb"], "default"


def qt_root() -> Path | None:
    """PySide6's ``Qt`` folder, found without importing PySide6 (whose import may need Qt)."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen and (Path(frozen) / "PySide6" / "Qt").is_dir():
        return Path(frozen) / "PySide6" / "Qt"
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "Qt").is_dir():
            return Path(location) / "Qt"
    return None


def plugin_dirs(environ: Mapping[str, str], qt: Path | None) -> list[Path]:
    """Where Qt looks for platform plugins, in Qt's order."""
    dirs: list[Path] = []
    for var, sub in (("QT_QPA_PLATFORM_PLUGIN_PATH", ""), ("QT_PLUGIN_PATH", "platforms")):
        for entry in environ.get(var, "").split(os.pathsep):
            if entry:
                dirs.append(Path(entry) / sub if sub else Path(entry))
    if qt is not None:
        dirs.append(qt / "plugins" / "platforms")
    return dirs


def find_plugins(name: str, dirs: list[Path]) -> list[Path]:
    """Every library that provides platform ``name``, in the order Qt tries them."""
    found: list[Path] = []
    for d in dirs:
        candidate = d / f"libq{name}.so"
        if candidate.is_file() and candidate not in found:
            found.append(candidate)
    return found


def available_plugins(dirs: list[Path]) -> list[str]:
    names: set[str] = set()
    for d in dirs:
        if d.is_dir():
            names.update(p.name[4:-3] for p in d.glob("libq*.so"))
    return sorted(names)


def missing_libraries(library: Path, environ: Mapping[str, str] | None = None) -> list[str]:
    """The shared libraries ``library`` needs (transitively) that the dynamic loader cannot find.

    First the loader of this process tries it (a few milliseconds; Qt maps most of what it
    needs anyway): loaded, nothing is missing. Only a library that does not load is read with
    ``ldd`` (a process of its own, ~60 ms at every start otherwise), which names every library
    missing, not just the first. An ``environ`` whose library path is not this process's is
    always read with ``ldd``: the loader here would not search what Qt will."""
    env = os.environ if environ is None else environ
    if env.get("LD_LIBRARY_PATH") == os.environ.get("LD_LIBRARY_PATH"):
        try:
            ctypes.CDLL(str(library), mode=os.RTLD_LAZY | os.RTLD_LOCAL)
        except OSError:
            pass  # ldd names them all
        else:
            return []
    ldd = shutil.which("ldd")
    if ldd:
        try:
            proc = subprocess.run(
                [ldd, str(library)],
                capture_output=True,
                text=True,
                timeout=20,
                env=dict(os.environ if environ is None else environ),
            )
        except (OSError, subprocess.TimeoutExpired):
            proc = None
        if proc is not None and (proc.returncode == 0 or _NOT_FOUND.search(proc.stdout)):
            return sorted(dict.fromkeys(_NOT_FOUND.findall(proc.stdout)))
    try:  # no ldd (or it failed): let the loader try, and name the first library it misses
        ctypes.CDLL(str(library), mode=os.RTLD_LAZY | os.RTLD_LOCAL)
    except OSError as exc:
        found = _DLOPEN_MISSING.search(str(exc))
        return [found.group(1) if found else str(exc)]
    return []


def _xcb_display_error(display: str) -> str | None:
    name = ctypes.util.find_library("xcb") or "libxcb.so.1"
    try:
        xcb = ctypes.CDLL(name)
    except OSError:
        return None  # the library check names it
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    conn = xcb.xcb_connect(display.encode(), None)
    try:
        failed = xcb.xcb_connection_has_error(conn)
    finally:
        xcb.xcb_disconnect(conn)
    return f"the X display {display!r} does not answer" if failed else None


def _wayland_display_error(display: str) -> str | None:
    name = ctypes.util.find_library("wayland-client") or "libwayland-client.so.0"
    try:
        wl = ctypes.CDLL(name)
    except OSError:
        return None  # the library check names it
    wl.wl_display_connect.restype = ctypes.c_void_p
    wl.wl_display_connect.argtypes = [ctypes.c_char_p]
    wl.wl_display_disconnect.argtypes = [ctypes.c_void_p]
    conn = wl.wl_display_connect(display.encode())
    if not conn:
        return f"the Wayland display {display!r} does not answer"
    wl.wl_display_disconnect(conn)
    return None


def check_platform(name: str, environ: Mapping[str, str], dirs: list[Path]) -> PlatformCheck:
    plugins = find_plugins(name, dirs)
    if not plugins:
        return PlatformCheck(name, None)
    # Qt falls back to the next library of the same name when one fails to load.
    plugin, missing = plugins[0], tuple(missing_libraries(plugins[0], environ))
    for other in plugins[1:]:
        if not missing:
            break
        if not missing_libraries(other, environ):
            plugin, missing = other, ()
    display: str | None = None
    error: str | None = None
    if name == "xcb":
        display = environ.get("DISPLAY") or None
        if display is None:
            error = "no display is set (DISPLAY is empty)"
            if not environ.get("WAYLAND_DISPLAY"):
                error = "no display is set (DISPLAY and WAYLAND_DISPLAY are empty)"
        elif not missing:
            error = _xcb_display_error(display)
    elif name.startswith("wayland"):
        display = environ.get("WAYLAND_DISPLAY") or "wayland-0"
        if not missing:
            error = _wayland_display_error(display)
    return PlatformCheck(name, str(plugin), missing, display, error)


def check(environ: Mapping[str, str] | None = None, qt: Path | None = None) -> Preflight:
    """Decide the platform plugin as Qt will and check its libraries and display."""
    env = os.environ if environ is None else environ
    names, source = platform_candidates(env)
    if not sys.platform.startswith("linux"):
        # Windows and macOS: Qt's platform plugin has no system libraries to miss.
        return Preflight(source, tuple(PlatformCheck(n, n) for n in names))
    dirs = plugin_dirs(env, qt or qt_root())
    checks = tuple(check_platform(n, env, dirs) for n in names)
    return Preflight(source, checks, tuple(available_plugins(dirs)))


def gate(
    environ: Mapping[str, str] | None = None,
    *,
    stream: TextIO | None = None,
    quiet_no_window: bool = False,
) -> int | None:
    """Before Qt starts: None to go on, or the exit code after saying why Qt cannot start.

    When Qt will draw without a window (``QT_QPA_PLATFORM=offscreen``), say so on ``stream``
    unless ``quiet_no_window`` (a screenshot run, which shows nothing by design)."""
    out = sys.stderr if stream is None else stream
    result = check(environ)
    text = result.sentence()
    if text is not None:
        out.write(text + "\n")
        out.flush()
        return EXIT_REFUSED
    chosen = result.chosen
    if chosen is not None and not chosen.shows_window and not quiet_no_window:
        out.write(
            f"slate: QT_QPA_PLATFORM={chosen.platform}: Slate runs without a window, "
            "nothing will be shown on screen (unset QT_QPA_PLATFORM to see the app).\n"
        )
        out.flush()
    return None


if __name__ == "__main__":  # python -m app.preflight: the check alone, exit 2 when it fails
    raise SystemExit(gate() or 0)
