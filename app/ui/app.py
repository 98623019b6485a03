"""Starting the desktop app: Qt application, translations, saved settings, qasync, clean shutdown.

``run_gui`` runs everything on one qasync loop (``qasync.run``): the window never waits on a
disk or the network, the controller owns the background work, the app stops when its last
window closes (``lastWindowClosed``, not ``aboutToQuit``) and then awaits the cleanup.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

from app import config as config_mod
from app.config import ENV, REGION_URLS, Config
from app.ui.qt import (
    QApplication,
    QLibraryInfo,
    QLocale,
    QMessageBox,
    QSettings,
    QTranslator,
)

log = logging.getLogger(__name__)

TRANSLATIONS = Path(__file__).parent / "translations"
SETTING_KEYS = ("region", "tenant", "user", "quota_video", "quota_image", "poll_interval",
                "data_dir", "store")
#: Config fields set by a flag or an environment variable this run: saved settings don't override.
_fixed: set[str] = set()
_translators: list[QTranslator] = []


# -- settings ------------------------------------------------------------------------------------
def saved_settings(settings: QSettings) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in SETTING_KEYS:
        value = settings.value(f"settings/{key}")
        if value not in (None, ""):
            out[key] = value
    return out


def save_settings(settings: QSettings, values: dict[str, Any]) -> None:
    for key in SETTING_KEYS:
        if key in values:
            value = values[key]
            if value in (None, ""):
                settings.remove(f"settings/{key}")
            else:
                settings.setValue(f"settings/{key}", value)
    settings.sync()


def fixed_fields(config: Config, environ: Any = None) -> set[str]:
    """Fields the user set for this run (flags or environment): they win over saved settings."""
    environ = os.environ if environ is None else environ
    fixed = {name for name, var in ENV.items() if environ.get(var)}
    try:
        plain = config_mod.load({}, environ)
    except Exception:  # noqa: BLE001 - a bad environment already failed in the CLI
        return fixed
    for name in ENV:
        if getattr(plain, name, None) != getattr(config, name, None):
            fixed.add(name)
    return fixed


def config_with_settings(config: Config, settings: QSettings, *, key_source: str = "none",
                         fixed: set[str] | None = None) -> Config:
    """Apply saved settings to ``config`` (validated like flags)."""
    saved = saved_settings(settings)
    if not saved:
        return config
    return config_with_values(config, saved, key_source=key_source, fixed=fixed)


def default_store(data_dir: Any) -> str:
    """The store a data dir gets when no store URL is set (as :func:`app.config.load` makes it)."""
    return f"sqlite:///{(Path(data_dir).expanduser() / 'slate.sqlite3').as_posix()}"


def config_with_values(config: Config, values: dict[str, Any], *, key_source: str = "none",
                       fixed: set[str] | None = None) -> Config:
    """``config`` with the settings in ``values`` (validated like flags).

    A setting that is missing or empty means its default (a quota of "no limit", the provider's
    poll interval, the store in the data dir), not "keep what runs now". Fields fixed for this run
    by a flag or an environment variable keep their value.
    """
    fixed = _fixed if fixed is None else fixed
    merged = {name: getattr(config, name) for name in ENV}
    for key in ("tenant", "user", "quota_video", "quota_image", "poll_interval", "data_dir", "store"):
        if key in fixed:
            continue
        value = values.get(key)
        merged[key] = None if value in (None, "") else value
    if "base_url" not in fixed and "provider" not in fixed:
        region = values.get("region") or "global"
        merged["base_url"] = REGION_URLS.get(region) if key_source != "none" and region != "global" else None
        merged["provider"] = None
    new = config_mod.load({k: v for k, v in merged.items() if v is not None}, environ={})
    return new.with_(demo_stage_seconds=config.demo_stage_seconds, timeout=config.timeout,
                     max_requests_per_second=config.max_requests_per_second,
                     max_concurrent_polls=config.max_concurrent_polls)


def fixed_now() -> set[str]:
    """The config fields a flag or an environment variable set for this run."""
    return set(_fixed)


# -- language --------------------------------------------------------------------------------------
def install_translations(app: QApplication, lang: str | None = None) -> str:
    """Load Slate's and Qt's own translations for ``lang`` (default: the system locale)."""
    for t in _translators:
        app.removeTranslator(t)
    _translators.clear()
    name = lang or QLocale.system().name()
    if name in ("zh", "zh-CN", "zh_Hans", "zh_Hans_CN"):
        name = "zh_CN"
    locale = QLocale(name)
    QLocale.setDefault(locale)
    if not name.startswith("en"):
        ours = QTranslator(app)
        if ours.load(locale, "slate", "_", str(TRANSLATIONS)):
            app.installTranslator(ours)
            _translators.append(ours)
        qt = QTranslator(app)
        if qt.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(qt)
            _translators.append(qt)
    return name


def make_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv or [sys.argv[0] if sys.argv else "slate"])
    assert isinstance(app, QApplication)
    app.setApplicationName("Slate")
    app.setOrganizationName("Slate")
    app.setApplicationDisplayName("Slate")
    app.setDesktopFileName("io.slate.Slate")
    app.setQuitOnLastWindowClosed(False)
    return app


# -- running -----------------------------------------------------------------------------------------
async def _build(config: Config) -> Any:
    from app.bootstrap import build

    return await asyncio.to_thread(build, config)


async def _tell(title: str, text: str) -> None:
    box = QMessageBox(QMessageBox.Icon.Critical, title, text)
    done: asyncio.Future[None] = asyncio.get_event_loop().create_future()
    box.finished.connect(lambda _r: done.done() or done.set_result(None))
    box.open()
    await done


async def amain(app: QApplication, config: Config, settings: QSettings, *, screenshot: str | None = None,
                select: str | None = None) -> int:
    from app.domain.errors import SlateError
    from app.ui.controller import Controller
    from app.ui.window import MainWindow

    try:
        slate = await _build(config)
    except SlateError as exc:
        sys.stderr.write(f"slate: {exc}\n")
        if not screenshot:
            await _tell("Slate", str(exc))
        return 2
    controller = Controller(slate.service, owner=slate, rebuild=_build)
    window = MainWindow(controller, settings)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    window.show()
    if os.environ.get("SLATE_GUI_PROBE"):  # tests that drive the real window from outside
        from app.ui.probe import attach

        attach(window, os.environ["SLATE_GUI_PROBE"])
    controller.start()
    target = select or (None if screenshot else settings.value("window/lastSlot"))
    try:
        if target:
            window.select(str(target))
        if screenshot:
            await controller.runner.settled()
            await asyncio.sleep(0.2)
            await controller.runner.settled()
            app.processEvents()
            ok = window.grab().save(screenshot, "PNG")
            window.close()
            if not ok:
                sys.stderr.write(f"slate: could not write {screenshot}\n")
                return 1
            return 0
        await closed.wait()
        return 0
    finally:
        if window.isVisible():
            window.close()
        await controller.aclose()


def run_gui(config: Config, screenshot: str | None = None, select: str | None = None,
            lang: str | None = None) -> int:
    """The desktop app (``slate``, ``slate gui``). ``screenshot`` renders the window to a PNG and exits."""
    import qasync

    global _fixed
    app = make_app()
    install_translations(app, lang)
    settings = QSettings()
    _fixed = fixed_fields(config)
    try:
        config = config_with_settings(config, settings, key_source=_key_source())
    except Exception as exc:  # noqa: BLE001 - bad saved settings must not lock the user out
        log.warning("ignoring saved settings: %s", exc)
    return int(qasync.run(amain(app, config, settings, screenshot=screenshot, select=select)))


def _key_source() -> str:
    from app.service import secrets

    return secrets.api_key()[1]
