"""A real X11 display for tests: Xvfb started by the test, screenshots of its root window with
``xwd`` (read here, no ImageMagick needed), input with ``xdotool``.

Missing tools fail the test loudly with the Debian package to install; nothing is skipped.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from tests.support.tools import need

SCREEN = (1600, 1000)


@dataclass
class XServer:
    display: str
    proc: subprocess.Popen[bytes]

    def env(self, base: dict[str, str]) -> dict[str, str]:
        env = {k: v for k, v in base.items() if k not in ("WAYLAND_DISPLAY", "XDG_SESSION_TYPE")}
        env.update(DISPLAY=self.display, QT_QPA_PLATFORM="xcb")
        return env

    def run(self, *args: str, timeout: float = 30, check: bool = True) -> str:
        proc = subprocess.run(
            list(args),
            env={**os.environ, "DISPLAY": self.display},
            capture_output=True,
            timeout=timeout,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"{args[0]} failed ({proc.returncode}): {proc.stderr.decode()}")
        return proc.stdout.decode(errors="replace")

    def xdotool(self, *args: str, timeout: float = 30) -> str:
        return self.run(need("xdotool"), *args, timeout=timeout)

    def screenshot(self) -> Image.Image:
        """The whole root window, as the X server has it now."""
        data = subprocess.run(
            [need("xwd"), "-root", "-silent"],
            env={**os.environ, "DISPLAY": self.display},
            capture_output=True,
            timeout=30,
            check=True,
        ).stdout
        return read_xwd(data)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def start_xvfb(tmp: Path) -> XServer:
    """Xvfb on a free display number (it picks one and tells us through ``-displayfd``)."""
    xvfb = need("Xvfb")
    read_fd, write_fd = os.pipe()
    with open(tmp / "xvfb.log", "wb") as log:  # Xvfb keeps its own copy of the descriptor
        proc = _popen_xvfb(xvfb, write_fd, log)
    os.close(write_fd)
    number = b""
    deadline = time.monotonic() + 30
    with os.fdopen(read_fd, "rb") as pipe:
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = pipe.read(1)
            if not chunk:
                break
            number += chunk
    if not number.strip():
        proc.kill()
        raise AssertionError(f"Xvfb did not start: {(tmp / 'xvfb.log').read_text()[-2000:]}")
    return XServer(f":{int(number)}", proc)


def read_xwd(data: bytes) -> Image.Image:
    """An XWD dump (ZPixmap, 24/32 bits per pixel, TrueColor) as an RGB image."""
    fields = struct.unpack(">25I", data[:100])
    header_size, version, fmt = fields[0], fields[1], fields[2]
    width, height, byte_order = fields[4], fields[5], fields[7]
    bpp, bytes_per_line, ncolors = fields[11], fields[12], fields[19]
    step = bytes_per_line // width  # xwd gives the depth as bits per pixel; the rows tell the truth
    if version != 7 or fmt != 2 or step not in (3, 4):
        raise AssertionError(f"unexpected XWD dump: version {version}, format {fmt}, {bpp} bpp")
    start = header_size + 12 * ncolors
    raw = data[start : start + bytes_per_line * height]
    if step == 4:
        mode = "BGRX" if byte_order == 0 else "XRGB"
    else:
        mode = "BGR" if byte_order == 0 else "RGB"
    return Image.frombytes("RGB", (width, height), raw, "raw", mode, bytes_per_line)


def colours(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    """How many distinct colours the image (or a box of it) has."""
    part = image.crop(box) if box else image
    found = part.getcolors(maxcolors=1 << 20)
    return len(found) if found is not None else 1 << 20


def region(rect: list[int]) -> tuple[int, int, int, int]:
    x, y, w, h = rect
    return (max(0, x), max(0, y), min(SCREEN[0], x + w), min(SCREEN[1], y + h))


class _ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _XEvent(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


def close_window(display: str, window_id: int) -> None:
    """Ask a window to close as a window manager's close button does (WM_DELETE_WINDOW)."""
    x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.c_int,
        ctypes.c_long,
        ctypes.POINTER(_XEvent),
    ]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(display.encode())
    assert dpy, f"cannot open display {display}"
    try:
        event = _XEvent()
        event.xclient.type = 33  # ClientMessage
        event.xclient.window = window_id
        event.xclient.message_type = x11.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data[0] = x11.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
        event.xclient.data[1] = 0  # CurrentTime
        assert x11.XSendEvent(dpy, window_id, 0, 0, ctypes.byref(event))
        x11.XFlush(dpy)
    finally:
        x11.XCloseDisplay(dpy)


def _popen_xvfb(xvfb: str, write_fd: int, log) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            xvfb,
            "-displayfd",
            str(write_fd),
            "-screen",
            "0",
            f"{SCREEN[0]}x{SCREEN[1]}x24",
            "-nolisten",
            "tcp",
            "-br",
            "-noreset",
        ],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
