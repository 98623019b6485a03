"""A smaller ICU data library for the bundle: Qt's ``libicudata`` without the data no part of Qt
can reach.

QtCore links ICU (``libicui18n``, ``libicuuc``, and through them ``libicudata``, one 30 MiB
array of ICU's common data). QtCore calls ICU for exactly four things — collation (``ucol_*``:
QCollator, the file dialog's natural sort), codecs (``ucnv_*``: QStringConverter for encodings
beyond UTF and Latin-1), time zones (``ucal_*``: names and IDs in QTimeZone) and locale-aware
case mapping (``u_strToUpper``/``u_strToLower``: QLocale::toUpper/toLower). None of those reads
the trees this module drops:

* ``brkitr/`` (break iteration and its dictionaries; Qt segments text with its own tables),
* ``translit/`` (transliteration), ``rbnf/`` (spelled-out numbers),
* ``lang/``, ``region/``, ``curr/``, ``unit/`` (display names of languages, regions,
  currencies and units, read by ICU's LocaleDisplayNames and number formatters only),
* ``unames.icu`` (Unicode character names) and ``*.spp`` (StringPrep profiles for IDNA2003;
  Qt does IDNA itself).

Kept whole: every locale's own resources, ``coll/``, ``zone/``, the time-zone tables, every
converter, normalization and the supplemental data. The new library is the same array, only
shorter: same SONAME, same symbol (``icudtNN_dat``), same item names in the same order. The test
(tests/integration/test_bundle_parts.py) checks that every Qt call into ICU answers the same
with both libraries.

    python packaging/icudata.py libicudata.so.73 OUT_DIR   # writes OUT_DIR/libicudata.so.73
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import elf  # noqa: E402

#: Items no Qt call into ICU reads (glob on the item name without the "icudt73l/" prefix).
DROP = (
    "brkitr/*",
    "translit/*",
    "rbnf/*",
    "lang/*",
    "region/*",
    "curr/*",
    "unit/*",
    "unames.icu",
    "*.spp",
)
#: Items that must stay, whatever DROP says (a safety net against a too-wide pattern).
KEEP = (
    "coll/*",
    "zone/*",
    "*.cnv",
    "cnvalias.icu",
    "zoneinfo64.res",
    "metaZones.res",
    "timezoneTypes.res",
    "windowsZones.res",
    "supplementalData.res",
    "likelySubtags.res",
    "*.nrm",
    "root.res",
    "res_index.res",
    "pool.res",
)
SYMBOL = re.compile(r"icudt\d+_dat")
ALIGN = 16
PAD = b"\xaa"  # what ICU's own packager (pkgdata) pads with


class IcuDataError(RuntimeError):
    pass


@dataclass
class CommonData:
    header: bytes  # ICU's DataHeader (MappedData + UDataInfo + copyright), kept as it is
    items: list[tuple[str, bytes]]  # (name, data), in the order of the table of contents

    @property
    def prefix(self) -> str:
        return self.items[0][0].split("/", 1)[0] + "/" if self.items else ""


def locate(lib: Path) -> tuple[str, bytes]:
    """The data symbol's name and bytes in an ICU data library."""
    e = elf.read(lib)
    syms = [s for s in e.symbols if s.defined and SYMBOL.fullmatch(s.name)]
    if len(syms) != 1:
        raise IcuDataError(f"{lib}: expected one icudtNN_dat symbol, found {syms}")
    data = lib.read_bytes()
    value = _symbol_value(data, syms[0].name)
    offset = _file_offset(data, value)
    return syms[0].name, data[offset : offset + syms[0].size]


def _sections(data: bytes) -> list[tuple[int, ...]]:
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    return [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]


def _symbol_value(data: bytes, name: str) -> int:
    secs = _sections(data)
    dynsym = next(s for s in secs if s[1] == elf.SHT_DYNSYM)
    strtab = secs[dynsym[6]][4]
    for i in range(dynsym[5] // 24):
        st_name, _info, _other, _shndx, value, _size = struct.unpack_from(
            "<IBBHQQ", data, dynsym[4] + i * 24
        )
        if data[strtab + st_name : data.index(b"\0", strtab + st_name)].decode() == name:
            return int(value)
    raise IcuDataError(f"{name} not in the dynamic symbol table")


def _file_offset(data: bytes, address: int) -> int:
    for sec in _sections(data):
        addr, offset, size = sec[3], sec[4], sec[5]
        if sec[1] != 8 and addr <= address < addr + size:  # not SHT_NOBITS
            return int(offset + address - addr)
    raise IcuDataError(f"address {address:#x} is in no section")


def parse(blob: bytes) -> CommonData:
    """ICU's common data format ("CmnD"): a header, then a table of contents of
    (name offset, data offset) pairs relative to its own start, names, and 16-aligned items."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", blob, 0)
    if (magic1, magic2) != (0xDA, 0x27) or blob[12:16] != b"CmnD":
        raise IcuDataError("not ICU common data (CmnD)")
    if blob[8] != 0:  # UDataInfo.isBigEndian
        raise IcuDataError("big-endian ICU data")
    toc = header_size
    (count,) = struct.unpack_from("<I", blob, toc)
    entries = [struct.unpack_from("<II", blob, toc + 4 + 8 * i) for i in range(count)]
    starts = [toc + d for _n, d in entries] + [len(blob)]
    items = []
    for i, (name_off, _data_off) in enumerate(entries):
        at = toc + name_off
        name = blob[at : blob.index(b"\0", at)].decode("ascii")
        items.append((name, blob[starts[i] : starts[i + 1]]))
    return CommonData(blob[:header_size], items)


def serialize(common: CommonData) -> bytes:
    count = len(common.items)
    names = b"".join(n.encode("ascii") + b"\0" for n, _d in common.items)
    head = 4 + 8 * count
    first = _aligned(len(common.header) + head + len(names)) - len(common.header)
    name_offsets, data_offsets = [], []
    at_name, at_data = head, first
    for name, data in common.items:
        name_offsets.append(at_name)
        data_offsets.append(at_data)
        at_name += len(name) + 1
        at_data = _aligned(at_data + len(data))
    out = bytearray(common.header)
    out += struct.pack("<I", count)
    for n, d in zip(name_offsets, data_offsets):
        out += struct.pack("<II", n, d)
    out += names
    for (_name, data), offset in zip(common.items, data_offsets):
        out += PAD * (len(common.header) + offset - len(out))
        out += data
    out += PAD * (_aligned(len(out)) - len(out))
    return bytes(out)


def _aligned(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def dropped(
    name: str, prefix: str, drop: tuple[str, ...] = DROP, keep: tuple[str, ...] = KEEP
) -> bool:
    short = name[len(prefix) :]
    if any(fnmatch.fnmatch(short, k) for k in keep):
        return False
    return any(fnmatch.fnmatch(short, d) for d in drop)


#: What Qt's calls need at the least (a too-wide DROP is a build error, not a surprise).
REQUIRED = (
    "root.res",
    "coll/root.res",
    "coll/ucadata.icu",
    "cnvalias.icu",
    "zoneinfo64.res",
    "metaZones.res",
    "zone/root.res",
    "supplementalData.res",
)


def reduce(
    common: CommonData,
    drop: tuple[str, ...] = DROP,
    keep: tuple[str, ...] = KEEP,
    required: tuple[str, ...] = REQUIRED,
) -> tuple[CommonData, list[str]]:
    """The data without the dropped items (and the names of those)."""
    prefix = common.prefix
    kept = [(n, d) for n, d in common.items if not dropped(n, prefix, drop, keep)]
    gone = [n for n, _d in common.items if dropped(n, prefix, drop, keep)]
    names = {n[len(prefix) :] for n, _d in kept}
    for need in required:
        if need not in names:
            raise IcuDataError(f"the reduced ICU data lacks {need}")
    for pattern in drop:
        if not any(fnmatch.fnmatch(n[len(prefix) :], pattern) for n in gone):
            raise IcuDataError(f"no ICU item matches {pattern!r} any more: check the ICU version")
    return CommonData(common.header, kept), gone


def build(
    lib: Path, outdir: Path, cc: str | None = None, **reducing: tuple[str, ...]
) -> tuple[Path, list[str]]:
    """Write outdir/<same file name>: the library with the reduced data; returns it and the
    names of the items left out. ``reducing``: reduce()'s drop, keep, required."""
    real = elf.read(lib)
    if real.soname is None:
        raise IcuDataError(f"{lib}: no SONAME")
    symbol, blob = locate(lib)
    small, gone = reduce(parse(blob), **reducing)
    data = serialize(small)
    again = parse(data)
    if [n for n, _d in again.items] != [n for n, _d in small.items] or any(
        a[1][: len(b[1])] != b[1] for a, b in zip(again.items, small.items)
    ):
        raise IcuDataError("the reduced ICU data does not read back as written")
    outdir.mkdir(parents=True, exist_ok=True)
    dat = outdir / "icudata.dat"
    dat.write_bytes(data)
    asm = outdir / "icudata.S"
    asm.write_text(
        "/* Generated by packaging/icudata.py: ICU's common data without the items no Qt call\n"
        "   reads. */\n"
        "\t.section .rodata\n"
        f"\t.globl {symbol}\n"
        f"\t.type {symbol}, @object\n"
        f"\t.balign {ALIGN}\n"
        f"{symbol}:\n"
        f'\t.incbin "{dat.name}"\n'
        f"\t.size {symbol}, . - {symbol}\n"
        '\t.section .note.GNU-stack,"",@progbits\n'
    )
    out = outdir / lib.name
    cc = cc or os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise IcuDataError("no C compiler: apt-get install gcc (it builds the bundle's ICU data)")
    cmd = [
        cc,
        "-shared",
        "-nostdlib",
        "-o",
        str(out),
        str(asm),
        f"-Wl,-soname,{real.soname}",
        "-s",
        f"-Wa,-I{outdir}",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=outdir)
    if proc.returncode != 0:
        raise IcuDataError(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    made = elf.read(out)
    if made.soname != real.soname or not any(
        s.name == symbol and s.defined and s.size == len(data) for s in made.symbols
    ):
        raise IcuDataError(f"{out}: wrong SONAME or data symbol")
    return out, gone


#: Where PyInstaller puts Qt's ICU data library in the bundle.
BUNDLE_PATH = "PySide6/Qt/lib/libicudata.so.*"


def apply(
    binaries: list[tuple[str, str, str]], workdir: Path
) -> tuple[list[tuple[str, str, str]], str]:
    """PyInstaller's binaries with Qt's ICU data library replaced by the reduced one, and a line
    for the build log. Fails when the bundle has no (or several) ICU data libraries."""
    hits = [e for e in binaries if fnmatch.fnmatch(e[0], BUNDLE_PATH) and e[2] != "SYMLINK"]
    if len(hits) != 1:
        raise IcuDataError(f"expected one {BUNDLE_PATH} in the bundle, found {len(hits)}")
    dest, src, _kind = hits[0]
    out, gone = build(Path(src), workdir)
    line = (
        f"{dest}: {Path(src).stat().st_size} -> {out.stat().st_size} bytes "
        f"({len(gone)} ICU items left out)"
    )
    return [(d, str(out) if d == dest else s, k) for d, s, k in binaries], line


def main(argv: list[str]) -> int:
    out, gone = build(Path(argv[0]), Path(argv[1]))
    print(
        f"{out}: {out.stat().st_size} bytes ({Path(argv[0]).stat().st_size} before), "
        f"{len(gone)} items left out"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
