"""Driving the real app on a real X server from outside: launch it with the window probe
(``app/ui/probe.py``), read what the probe wrote, and act only on what the window has shown.

Every wait here is for an event the probe writes (a widget on screen, a button checked, a menu
open), with a generous deadline that only bounds a hang; a click whose effect does not show is
made again at the widget's rectangle as it is then (the layout may still have been settling).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.fixtures import ROOT
from tests.support.xserver import XServer


def launch(xserver: XServer, slate_env, tmp_path: Path, *args: str):
    """The app on the X server with its probe; its output goes to ``app.log``, never to pipes: the
    app's helpers (the demo provider) may outlive it and would hold a pipe open."""
    probe = tmp_path / "probe.jsonl"
    env = xserver.env(slate_env)
    env.update(SLATE_GUI_PROBE=str(probe), XDG_CONFIG_HOME=str(tmp_path / "config"))
    with (tmp_path / "app.log").open("w") as log:
        app = subprocess.Popen(
            [sys.executable, "-m", "app", "gui", "--lang", "en", *args],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    return app, probe


def log_of(app: subprocess.Popen, tmp_path: Path) -> str:
    path = tmp_path / "app.log"
    return path.read_text(errors="replace")[-3000:] if path.exists() else ""


def wait_for(what: str, check: Callable[[], Any], app: subprocess.Popen, timeout: float = 90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if app.poll() is not None:
            raise AssertionError(f"the app ended ({app.returncode}) before {what}: {app.args}")
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def stop(app: subprocess.Popen) -> None:
    if app.poll() is None:
        app.kill()  # the test is over: what the app had to do is in the store already
        app.wait(30)


def read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def event(probe: Path, name: str) -> dict[str, Any] | None:
    """The first event of that name."""
    return next((e for e in read_events(probe) if e["event"] == name), None)


def latest(probe: Path, name: str) -> dict[str, Any] | None:
    found = [e for e in read_events(probe) if e["event"] == name]
    return found[-1] if found else None


def widgets(probe: Path) -> dict[str, list[int]]:
    last = latest(probe, "widgets")
    return last["widgets"] if last else {}


def checked(probe: Path) -> dict[str, bool]:
    last = latest(probe, "checked")
    return last["checked"] if last else {}


def enabled(probe: Path) -> dict[str, bool]:
    """Which of the named buttons on screen can be clicked, as the probe last saw them."""
    last = latest(probe, "enabled")
    return last["enabled"] if last else {}


def fields(probe: Path) -> dict[str, Any]:
    """What the named edits on screen hold (text, a slider's value, a combo box's text), as the
    probe last saw them."""
    last = latest(probe, "fields")
    return last["fields"] if last else {}


def menu(probe: Path) -> list[str] | None:
    last = latest(probe, "menu")
    return last["actions"] if last else None


def settled(probe: Path, app: subprocess.Popen, *names: str, what: str = "") -> dict:
    """The widgets' rectangles once all ``names`` are on screen and the layout has stopped
    moving: the probe wrote no new rectangles over three of its polls."""

    def still():
        before = widgets(probe)
        if not all(before.get(n) for n in names):
            return None
        time.sleep(0.35)
        return before if widgets(probe) == before else None

    return wait_for(what or f"{', '.join(names)} on screen", still, app)


def centre(rect: list[int]) -> tuple[str, str]:
    x, y, w, h = rect
    return str(x + w // 2), str(y + h // 2)


def pointer(x: XServer) -> tuple[str, str]:
    """Where the X server has the pointer now."""
    found = dict(
        line.split("=", 1)
        for line in x.xdotool("getmouselocation", "--shell").splitlines()
        if "=" in line
    )
    return found["X"], found["Y"]


def move_to(x: XServer, at: tuple[str, str]) -> None:
    """The pointer at ``at``, once the X server has it there. ``mousemove --sync`` waits for the
    pointer to leave where it was, so a move to where it already is would wait out xdotool's own
    15 s limit instead: that move is not made."""
    if pointer(x) != at:
        x.xdotool("mousemove", "--sync", *at)


def click(x: XServer, rect: list[int]) -> None:
    move_to(x, centre(rect))
    x.xdotool("click", "1")


def click_until(
    x: XServer,
    probe: Path,
    app: subprocess.Popen,
    name: str,
    done: Callable[[], Any],
    what: str,
    tries: int = 5,
    each: float = 10,
) -> Any:
    """Click the widget ``name`` until ``done()`` shows its effect, at its current rectangle."""
    for _ in range(tries):
        rect = settled(probe, app, name)[name]
        click(x, rect)
        deadline = time.monotonic() + each
        while time.monotonic() < deadline:
            found = done()
            if found:
                return found
            if app.poll() is not None:
                raise AssertionError(f"the app ended ({app.returncode}) before {what}")
            time.sleep(0.1)
    raise AssertionError(f"{tries} clicks on {name} and still not {what}")
