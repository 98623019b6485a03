"""Check a Linux bundle: every ELF file in it finds the libraries it needs (``ldd``), inside the
bundle or on this system. Prints what it relies on from the system; exits 1 when something is
missing (a library the trim dropped by mistake, or one the build machine lacks).

    python packaging/check_bundle.py dist/slate
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.M)
RESOLVED = re.compile(r"^\s*(\S+)\s+=>\s+(/\S+)", re.M)


def elf_files(root: Path) -> list[Path]:
    out = []
    for path in root.rglob("*"):
        if (
            path.is_file()
            and not path.is_symlink()
            and (".so" in path.name or path.name == "slate")
        ):
            with path.open("rb") as f:
                if f.read(4) == b"\x7fELF":
                    out.append(path)
    return out


def main(bundle: str) -> int:
    root = Path(bundle).resolve()
    internal = root / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal))  # as the bootloader sets it
    missing: dict[str, set[str]] = {}
    system: set[str] = set()
    for path in elf_files(root):
        proc = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env)
        for name in NOT_FOUND.findall(proc.stdout):
            missing.setdefault(name, set()).add(str(path.relative_to(root)))
        for _name, where in RESOLVED.findall(proc.stdout):
            if not where.startswith(str(root)):
                system.add(Path(where).name)
    print(f"check_bundle: {len(system)} libraries come from the system: {' '.join(sorted(system))}")
    if missing:
        for name, users in sorted(missing.items()):
            print(
                f"check_bundle: {name} not found (needed by {', '.join(sorted(users)[:3])})",
                file=sys.stderr,
            )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
