"""Reading what the dynamic linker reads from a 64-bit little-endian ELF file: its SONAME and
DT_NEEDED names, its dynamic symbols with their versions, and the versions it defines.

Used by ``packaging/stubs.py`` (which libraries a stub must stand in for, and with which
symbols) and by the bundle test. No binutils needed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

SHT_DYNAMIC, SHT_DYNSYM = 6, 11
SHT_GNU_VERDEF, SHT_GNU_VERNEED, SHT_GNU_VERSYM = 0x6FFFFFFD, 0x6FFFFFFE, 0x6FFFFFFF
DT_NEEDED, DT_SONAME = 1, 14
STT_NAMES = {
    0: "NOTYPE",
    1: "OBJECT",
    2: "FUNC",
    3: "SECTION",
    4: "FILE",
    5: "COMMON",
    6: "TLS",
    10: "IFUNC",
}
STB_LOCAL = 0
SHN_UNDEF = 0
VER_FLG_BASE = 1
VERSYM_HIDDEN = 0x8000


class NotElf(ValueError):
    """The file is not a 64-bit little-endian ELF file."""


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str  # FUNC, OBJECT, IFUNC, ...
    defined: bool
    version: str | None  # the version it is defined with, or required at (None: unversioned)
    default: bool  # defined as the default version (name@@V), or unversioned
    size: int


@dataclass(frozen=True)
class VersionDef:
    name: str
    parents: tuple[str, ...]


@dataclass
class Elf:
    path: Path
    soname: str | None = None
    needed: list[str] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    #: versions this file defines, in order (the BASE entry left out)
    versions: list[VersionDef] = field(default_factory=list)
    #: versions this file requires, by the file (SONAME) that must define them
    requires: dict[str, set[str]] = field(default_factory=dict)

    def defined(self) -> dict[str, Symbol]:
        """Exported symbols by name (the default version when a name has several)."""
        out: dict[str, Symbol] = {}
        for s in self.symbols:
            if s.defined and (s.default or s.name not in out):
                out[s.name] = s
        return out

    def undefined(self) -> list[Symbol]:
        return [s for s in self.symbols if not s.defined and s.name]


def _cstr(data: bytes, at: int) -> str:
    return data[at : data.index(b"\0", at)].decode()


def read(path: Path) -> Elf:
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise NotElf(f"{path}: not a 64-bit little-endian ELF file")
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    # name, type, flags, addr, offset, size, link, info, addralign, entsize
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    elf = Elf(Path(path))

    def first(kind: int) -> tuple[int, ...] | None:
        return next((s for s in secs if s[1] == kind), None)

    dyn = first(SHT_DYNAMIC)
    if dyn is not None:
        strtab = secs[dyn[6]][4]
        for pos in range(dyn[4], dyn[4] + dyn[5], 16):
            tag, val = struct.unpack_from("<qQ", data, pos)
            if tag == 0:
                break
            if tag == DT_NEEDED:
                elf.needed.append(_cstr(data, strtab + val))
            elif tag == DT_SONAME:
                elf.soname = _cstr(data, strtab + val)

    # versions defined: index -> name
    defined_versions: dict[int, str] = {}
    verdef = first(SHT_GNU_VERDEF)
    if verdef is not None:
        strtab = secs[verdef[6]][4]
        pos = verdef[4]
        for _ in range(verdef[7]):
            _ver, flags, ndx, cnt, _hash, aux, nxt = struct.unpack_from("<HHHHIII", data, pos)
            names = []
            apos = pos + aux
            for _i in range(cnt):
                vda_name, vda_next = struct.unpack_from("<II", data, apos)
                names.append(_cstr(data, strtab + vda_name))
                apos += vda_next
            defined_versions[ndx] = names[0]
            if not flags & VER_FLG_BASE:
                elf.versions.append(VersionDef(names[0], tuple(names[1:])))
            if not nxt:
                break
            pos += nxt

    # versions required: index -> name (and by file)
    required_versions: dict[int, str] = {}
    verneed = first(SHT_GNU_VERNEED)
    if verneed is not None:
        strtab = secs[verneed[6]][4]
        pos = verneed[4]
        for _ in range(verneed[7]):
            _ver, cnt, vn_file, aux, nxt = struct.unpack_from("<HHIII", data, pos)
            file = _cstr(data, strtab + vn_file)
            apos = pos + aux
            for _i in range(cnt):
                _hash, _flags, other, vna_name, vna_next = struct.unpack_from("<IHHII", data, apos)
                name = _cstr(data, strtab + vna_name)
                required_versions[other] = name
                elf.requires.setdefault(file, set()).add(name)
                if not vna_next:
                    break
                apos += vna_next
            if not nxt:
                break
            pos += nxt

    dynsym = first(SHT_DYNSYM)
    versym = first(SHT_GNU_VERSYM)
    if dynsym is not None:
        strtab = secs[dynsym[6]][4]
        count = dynsym[5] // 24
        for i in range(1, count):
            st_name, st_info, _other, shndx, _value, size = struct.unpack_from(
                "<IBBHQQ", data, dynsym[4] + i * 24
            )
            if st_info >> 4 == STB_LOCAL:
                continue
            defined = shndx != SHN_UNDEF
            version: str | None = None
            default = True
            if versym is not None:
                (vs,) = struct.unpack_from("<H", data, versym[4] + i * 2)
                index = vs & ~VERSYM_HIDDEN
                if index > 1:
                    table = defined_versions if defined else required_versions
                    version = table.get(index)
                    if version is None and not defined:
                        version = defined_versions.get(index)
                    default = not vs & VERSYM_HIDDEN
            elf.symbols.append(
                Symbol(
                    _cstr(data, strtab + st_name),
                    STT_NAMES.get(st_info & 0xF, str(st_info & 0xF)),
                    defined,
                    version,
                    default,
                    size,
                )
            )
    return elf
