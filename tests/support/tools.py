"""The outside tools some tests run, and the Debian package each comes in."""

from __future__ import annotations

import shutil

import pytest

#: tool → its Debian package (all of them in .ci/install-packages)
PACKAGES = {
    "Xvfb": "xvfb",
    "xwd": "x11-apps",
    "xdotool": "xdotool",
    "pulseaudio": "pulseaudio",
    "pactl": "pulseaudio-utils",
    "parec": "pulseaudio-utils",
    "desktop-file-validate": "desktop-file-utils",
    "appstreamcli": "appstream",
    "strip": "binutils",
    "cc": "gcc",
}


def need(tool: str, package: str | None = None) -> str:
    """The tool's path; a missing tool fails the test loudly, naming its package (never a skip)."""
    path = shutil.which(tool)
    if path is None:
        pytest.fail(
            f"{tool} is not installed: apt-get install {package or PACKAGES[tool]}"
            " (.ci/install-packages installs it)",
            pytrace=False,
        )
    return path
