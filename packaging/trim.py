"""Trimming the Linux bundle: drop Qt plugins Slate never loads, then every shared library that
nothing left in the bundle needs.

PyInstaller collects whole plugin folders of the Qt modules an app imports; some plugins drag in
big libraries (the virtual keyboard brings QtQuick and QtQml, the PDF image plugin QtPdf, the
GTK3 theme the GTK stack). Once those plugins are gone, a library is kept only when something in
the bundle still names it (DT_NEEDED, matched by file name or SONAME) — computed from the ELF
files themselves, so a library still in use can never be dropped by mistake.

Used by ``packaging/slate.spec`` (Linux only) and by the bundle test.
"""

from __future__ import annotations

import fnmatch
import os
import struct
from pathlib import Path
from typing import Iterable

#: Qt plugins Slate never loads (globs on the bundle path).
UNUSED_PLUGINS = (
    "PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
    "PySide6/Qt/plugins/imageformats/libqpdf.so",
    "PySide6/Qt/plugins/imageformats/libqicns.so",
    "PySide6/Qt/plugins/imageformats/libqtga.so",
    "PySide6/Qt/plugins/imageformats/libqtiff.so",
    "PySide6/Qt/plugins/imageformats/libqwbmp.so",
    "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
    "PySide6/Qt/plugins/platforms/libqeglfs.so",
    "PySide6/Qt/plugins/platforms/libqlinuxfb.so",
    "PySide6/Qt/plugins/platforms/libqminimalegl.so",
    "PySide6/Qt/plugins/platforms/libqvkkhrdisplay.so",
    "PySide6/Qt/plugins/platforms/libqvnc.so",
    "PySide6/Qt/plugins/egldeviceintegrations/*",
    "PySide6/Qt/plugins/generic/*",
    "PySide6/Qt/plugins/networkinformation/*",
    "PySide6/Qt/plugins/tls/*",
)
#: Qt's own translations: Slate speaks English and Simplified Chinese.
KEEP_TRANSLATIONS = ("*_zh_CN.qm",)
#: Parts of glibc must come from the system they run on, never from the build machine.
SYSTEM_ONLY = ("libmvec.so.*",)

DT_NEEDED, DT_SONAME = 1, 14
SHT_DYNAMIC = 6


def dynamic(path: Path) -> tuple[list[str], str | None]:
    """(DT_NEEDED names, DT_SONAME) of a 64-bit little-endian ELF file; ([], None) otherwise."""
    try:
        data = path.read_bytes()
    except OSError:
        return [], None
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return [], None
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [
        struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)
    ]
    needed: list[str] = []
    soname: str | None = None
    for sec in sections:
        if sec[1] != SHT_DYNAMIC:
            continue
        strtab = sections[sec[6]]
        str_off = strtab[4]
        offset, size = sec[4], sec[5]
        for pos in range(offset, offset + size, 16):
            tag, val = struct.unpack_from("<qQ", data, pos)
            if tag == 0:
                break
            if tag in (DT_NEEDED, DT_SONAME):
                end = data.index(b"\0", str_off + val)
                name = data[str_off + val : end].decode()
                if tag == DT_NEEDED:
                    needed.append(name)
                else:
                    soname = name
    return needed, soname


def _is_library(dest: str) -> bool:
    """A shared library kept only when needed; extension modules and Qt plugins are roots."""
    name = Path(dest).name
    if "/plugins/" in dest or name.startswith("libpython"):
        return False
    return name.startswith("lib") and ".so" in name


def _matches(dest: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatch(dest, p) or fnmatch.fnmatch(Path(dest).name, p) for p in patterns)


def trim(
    binaries: list[tuple[str, str, str]], datas: list[tuple[str, str, str]]
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]], list[str]]:
    """PyInstaller's TOCs without unused plugins, translations and orphaned libraries."""
    dropped: list[str] = []

    def unwanted(entry: tuple[str, str, str]) -> bool:
        dest = entry[0]
        if _matches(dest, UNUSED_PLUGINS) or _matches(dest, SYSTEM_ONLY):
            return True
        if dest.startswith("PySide6/Qt/translations/") and not _matches(dest, KEEP_TRANSLATIONS):
            return True
        return False

    kept_bins = []
    for entry in binaries:
        (dropped.append(entry[0]) if unwanted(entry) else kept_bins.append(entry))
    kept_datas = []
    for entry in datas:
        (dropped.append(entry[0]) if unwanted(entry) else kept_datas.append(entry))

    # every library by the names it answers to (file name and SONAME)
    info = {dest: dynamic(Path(src)) for dest, src, kind in kept_bins if kind != "SYMLINK"}
    by_name: dict[str, set[str]] = {}
    for dest, (_needed, soname) in info.items():
        for name in {Path(dest).name, soname} - {None}:
            by_name.setdefault(str(name), set()).add(dest)
    roots = [d for d in info if not _is_library(d)]
    reached: set[str] = set()
    todo = list(roots)
    while todo:
        dest = todo.pop()
        if dest in reached:
            continue
        reached.add(dest)
        for name in info.get(dest, ([], None))[0]:
            todo.extend(by_name.get(name, ()))
    orphans = {d for d in info if _is_library(d) and d not in reached}
    dropped += sorted(orphans)
    kept_bins = [e for e in kept_bins if e[0] not in orphans]
    # symlinks whose target went away
    gone = set(dropped)
    alive_bins = []
    for entry in kept_bins:
        if entry[2] == "SYMLINK" and _symlink_target(entry) in gone:
            dropped.append(entry[0])
        else:
            alive_bins.append(entry)
    alive_datas = []
    for entry in kept_datas:
        if entry[2] == "SYMLINK" and _symlink_target(entry) in gone:
            dropped.append(entry[0])
        else:
            alive_datas.append(entry)
    return alive_bins, alive_datas, dropped


def _symlink_target(entry: tuple[str, str, str]) -> str:
    """The bundle path a SYMLINK entry points to (its source is relative to its own folder)."""
    dest, target, _kind = entry
    return os.path.normpath(os.path.join(os.path.dirname(dest), target))
