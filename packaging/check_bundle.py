"""Check a Linux bundle: every ELF file in it finds the libraries it needs (``ldd``), inside the
bundle or on this system, and the dynamic linker can map every one of them. Prints what it relies
on from the system; exits 1 when something is missing (a library the trim dropped by mistake, or
one the build machine lacks) or cannot be loaded (e.g. a file a strip pass corrupted: "ELF load
command address/offset not page-aligned").

    python packaging/check_bundle.py dist/slate
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.M)
LOAD_ERROR = re.compile(r"error while loading shared libraries: ([^:]+): (.*)")
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
    broken: dict[str, str] = {}
    system: set[str] = set()

    def ldd(path: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
        return path, subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env)

    # one ldd per file, as many at a time as there are cores (each is a process start)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = list(pool.map(ldd, elf_files(root)))
    for path, proc in done:
        for name, why in LOAD_ERROR.findall(proc.stdout + proc.stderr):
            broken[name] = why
        for name in NOT_FOUND.findall(proc.stdout):
            missing.setdefault(name, set()).add(str(path.relative_to(root)))
        for _name, where in RESOLVED.findall(proc.stdout):
            if not where.startswith(str(root)):
                system.add(Path(where).name)
    print(f"check_bundle: {len(system)} libraries come from the system: {' '.join(sorted(system))}")
    for name, users in sorted(missing.items()):
        print(
            f"check_bundle: {name} not found (needed by {', '.join(sorted(users)[:3])})",
            file=sys.stderr,
        )
    for name, why in sorted(broken.items()):
        print(f"check_bundle: {name} cannot be loaded: {why}", file=sys.stderr)
    return 1 if missing or broken else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
