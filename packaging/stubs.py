"""Stand-ins for the libraries PyAV's FFmpeg links but Slate never calls.

PyAV's wheel builds FFmpeg with many external codec libraries (the x265 and SVT-AV1 encoders
alone weigh 28 MiB) and links them as DT_NEEDED: the dynamic linker refuses to load
``libavcodec`` without them, so they cannot simply be left out. Slate encodes only H.264 (x264)
and AAC (FFmpeg's own), and FFmpeg decodes H.264, H.265, VP8/VP9, AAC, MP3, Opus and the rest
with its own decoders, registered ahead of the external ones. So each library listed in
``packaging/stubs.toml`` is replaced in the bundle by a small generated library with the same
SONAME that defines exactly the functions the bundle imports from it, with the same symbol
versions:

* the functions FFmpeg calls while it registers its codecs (listed as ``queries``: capability
  and interface look-ups) return 0 — NULL, "no capability" — as an absent feature would;
* every other function writes one line naming the library to stderr and aborts: a codec left
  out of the bundle can never run on garbage, and the failure says what happened.

The build fails (``StubError``) when a listed library is not in the bundle, when the bundle
imports another set of symbols from it than the list says (a new PyAV wheel: review, then update
``stubs.toml``), when a symbol is data rather than a function, or when a stub would define a name
another library of the bundle also defines. Why this is safe: docs/DECISIONS.md ("Bundle").

Used by ``packaging/slate.spec`` (Linux only) and by the bundle test.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import elf  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("stubs.toml")
#: Symbol types a stub can stand in for (code, not data).
FUNCTION_KINDS = ("FUNC", "IFUNC")


class StubError(RuntimeError):
    """The bundle does not match packaging/stubs.toml: the build must stop."""


@dataclass
class Stub:
    key: str
    why: str
    dest: str  # path inside the bundle
    real: Path  # the library it replaces
    soname: str
    symbols: list[elf.Symbol]  # what the bundle imports from it (name, version)
    versions: list[elf.VersionDef]  # the version nodes the real library defines
    queries: frozenset[str]


def _spelled(sym: elf.Symbol) -> str:
    return f"{sym.name}@{sym.version}" if sym.version else sym.name


def load_manifest(path: Path = MANIFEST) -> dict[str, dict[str, object]]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    libs = data.get("library", {})
    for key, entry in libs.items():
        for field in ("file", "why", "symbols"):
            if field not in entry:
                raise StubError(f"{path.name}: [library.{key}] has no {field}")
        unknown = set(entry.get("queries", [])) - {s.split("@")[0] for s in entry["symbols"]}
        if unknown:
            raise StubError(f"{path.name}: [library.{key}] queries not in symbols: {unknown}")
    return libs


def plan(
    files: dict[str, Path], manifest: dict[str, dict[str, object]] | None = None
) -> list[Stub]:
    """The stubs for a bundle, given as {path inside the bundle: file}; raises StubError when
    the bundle and packaging/stubs.toml disagree."""
    manifest = load_manifest() if manifest is None else manifest
    stubs, problems = survey(files, manifest)
    for stub in stubs:
        listed = sorted(str(s) for s in manifest[stub.key]["symbols"])  # type: ignore[attr-defined]
        found = sorted(_spelled(s) for s in stub.symbols)
        if listed != found:
            gained = sorted(set(found) - set(listed))
            lost = sorted(set(listed) - set(found))
            problems.append(
                f"{stub.key}: the bundle imports other symbols from {Path(stub.dest).name} than "
                f"stubs.toml lists: new {gained or 'none'}, gone {lost or 'none'}"
            )
    if problems:
        raise StubError(_explain(problems))
    return stubs


def survey(
    files: dict[str, Path], manifest: dict[str, dict[str, object]]
) -> tuple[list[Stub], list[str]]:
    """Each listed library found in the bundle with what the bundle imports from it, and the
    problems found on the way (missing libraries, data symbols, clashes)."""
    problems: list[str] = []
    chosen: dict[str, str] = {}
    for key, entry in manifest.items():
        pattern = str(entry["file"])
        hits = sorted(d for d in files if fnmatch.fnmatch(d, pattern))
        if len(hits) != 1:
            what = "is not in the bundle" if not hits else f"matches {len(hits)} files: {hits}"
            problems.append(f"{key}: {pattern} {what}")
            continue
        chosen[key] = hits[0]
    if problems:
        return [], problems

    # the bundle's ELF files, read once: those that link a stubbed library, and their needs
    stubbed = set(chosen.values())
    parsed: dict[str, elf.Elf] = {}
    for dest, src in files.items():
        if ".so" not in Path(dest).name:
            continue
        try:
            parsed[dest] = elf.read(src)
        except (elf.NotElf, OSError):
            continue
    by_name: dict[str, str] = {}
    for dest, e in parsed.items():
        for name in {Path(dest).name, e.soname} - {None}:
            by_name[str(name)] = dest

    stubs: list[Stub] = []
    for key, dest in chosen.items():
        entry = manifest[key]
        real = parsed.get(dest)
        if real is None or real.soname is None:
            problems.append(f"{key}: {dest} is not a shared library with a SONAME")
            continue
        exported = real.defined()
        importers = [d for d, e in parsed.items() if d not in stubbed and real.soname in e.needed]
        if not importers:
            problems.append(f"{key}: nothing in the bundle links {real.soname} any more")
        wanted: dict[str, elf.Symbol] = {}
        for imp in importers:
            for sym in parsed[imp].undefined():
                if sym.name not in exported:
                    continue
                have = exported[sym.name]
                if sym.version is not None and sym.version != have.version:
                    # versioned: it binds here only when the version is this library's
                    if sym.version in {v.name for v in real.versions}:
                        problems.append(
                            f"{key}: {imp} imports {sym.name}@{sym.version}, which is not the "
                            f"default version ({have.version}): stubs do not reproduce that"
                        )
                    continue
                if have.kind not in FUNCTION_KINDS:
                    problems.append(
                        f"{key}: {imp} imports {sym.name}, a {have.kind} (data cannot be stubbed)"
                    )
                    continue
                wanted[sym.name] = have
        # a stub must not shadow a name another library of these importers' trees defines
        neighbours = _closure(importers, parsed, by_name) - stubbed
        for other in sorted(neighbours):
            clash = set(wanted) & set(parsed[other].defined())
            if clash:
                problems.append(f"{key}: {sorted(clash)[:5]} are also defined by {other}")
        stub = Stub(
            key,
            str(entry["why"]),
            dest,
            files[dest],
            real.soname,
            sorted(wanted.values(), key=lambda s: s.name),
            real.versions,
            frozenset(entry.get("queries", [])),  # type: ignore[arg-type]
        )
        stubs.append(stub)
    return stubs, problems


def _closure(roots: list[str], parsed: dict[str, elf.Elf], by_name: dict[str, str]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        dest = todo.pop()
        if dest in seen or dest not in parsed:
            continue
        seen.add(dest)
        todo.extend(by_name[n] for n in parsed[dest].needed if n in by_name)
    return seen


def _explain(problems: list[str]) -> str:
    return (
        "the bundle does not match packaging/stubs.toml (a new PyAV wheel?). Check what FFmpeg "
        'calls from these libraries (docs/DECISIONS.md, "Bundle"), then update the list:\n  '
        + "\n  ".join(problems)
    )


# ------------------------------------------------------------------------------- generating


def source(stub: Stub) -> str:
    """C source of a stub: every query returns 0, every other function aborts loudly."""
    lib = Path(stub.dest).name
    lines = [
        f"/* Generated by packaging/stubs.py: a stand-in for {lib} ({stub.key}).",
        f" * What the real one is: {' '.join(stub.why.split())}",
        " * Queries return 0 (NULL, no capability); every other function aborts. */",
        "#include <stdlib.h>",
        "#include <unistd.h>",
        "#include <string.h>",
        "",
        "__attribute__((noreturn, cold)) static void left_out(const char *name)",
        "{",
        f'    static const char head[] = "slate: {lib} is left out of this bundle "'
        '"(packaging/stubs.toml); ";',
        '    static const char tail[] = " was called\\n";',
        "    (void)!write(2, head, sizeof head - 1);",
        "    (void)!write(2, name, strlen(name));",
        "    (void)!write(2, tail, sizeof tail - 1);",
        "    abort();",
        "}",
        "",
        '#define QUERY(f) __attribute__((visibility("default"))) long f(void) { return 0; }',
        '#define CALL(f) __attribute__((visibility("default"))) long f(void) { left_out(#f); }',
        "",
    ]
    for sym in stub.symbols:
        macro = "QUERY" if sym.name in stub.queries else "CALL"
        lines.append(f"{macro}({sym.name})")
    return "\n".join(lines) + "\n"


def version_script(stub: Stub) -> str:
    """The linker version script: the real library's version nodes, each stubbed symbol in the
    node it is defined with; unversioned libraries get one anonymous node."""
    if not any(s.version for s in stub.symbols):
        names = "".join(f"    {s.name};\n" for s in stub.symbols)
        return "{\n  global:\n" + names + "  local: *;\n};\n"
    out = []
    nodes = [v.name for v in stub.versions]
    for i, ver in enumerate(stub.versions):
        names = [s.name for s in stub.symbols if s.version == ver.name]
        body = "".join(f"    {n};\n" for n in names)
        local = "  local: *;\n" if i == 0 else ""
        parent = f" {ver.parents[0]}" if ver.parents else ""
        out.append(
            f"{ver.name} {{\n" + (f"  global:\n{body}" if body else "") + local + f"}}{parent};\n"
        )
    missing = {s.version for s in stub.symbols} - set(nodes)
    if missing:
        raise StubError(f"{stub.key}: versions {missing} are not defined by {stub.dest}")
    return "".join(out)


def compiler() -> str:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise StubError("no C compiler: apt-get install gcc (it builds the bundle's stubs)")
    return cc


def build(stub: Stub, workdir: Path, cc: str | None = None) -> Path:
    """Compile one stub into workdir; returns the library's path (named like the original)."""
    cc = cc or compiler()
    code, script = source(stub), version_script(stub)
    tag = hashlib.sha256((code + script).encode()).hexdigest()[:12]
    folder = workdir / stub.key
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / Path(stub.dest).name
    stamp = folder / "stamp"
    if out.exists() and stamp.exists() and stamp.read_text() == tag:
        return out
    (folder / "stub.c").write_text(code)
    (folder / "stub.map").write_text(script)
    cmd = [
        cc,
        "-shared",
        "-fPIC",
        "-O2",
        "-fvisibility=hidden",
        "-w",
        "-o",
        str(out),
        str(folder / "stub.c"),
        f"-Wl,-soname,{stub.soname}",
        f"-Wl,--version-script={folder / 'stub.map'}",
        "-Wl,--no-undefined",
        "-Wl,-z,noexecstack",
        "-s",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise StubError(f"{stub.key}: {' '.join(cmd)} failed:\n{proc.stderr}")
    verify(stub, out)
    stamp.write_text(tag)
    return out


def verify(stub: Stub, built: Path) -> None:
    """The stub answers to the same SONAME and defines every symbol with its version."""
    made = elf.read(built)
    if made.soname != stub.soname:
        raise StubError(f"{stub.key}: the stub's SONAME is {made.soname}, not {stub.soname}")
    have = {(s.name, s.version) for s in made.symbols if s.defined and s.kind == "FUNC"}
    want = {(s.name, s.version) for s in stub.symbols}
    if want - have:
        raise StubError(f"{stub.key}: the stub lacks {sorted(want - have)[:5]}")
    extra = {n for n, _v in have} - {s.name for s in stub.symbols}
    if extra:
        raise StubError(f"{stub.key}: the stub exports more than asked: {sorted(extra)[:5]}")


def apply(
    binaries: list[tuple[str, str, str]], workdir: Path
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """PyInstaller's binaries with each listed library replaced by its generated stub; and one
    line per stub for the build log ("dest: old size -> new size")."""
    files = {dest: Path(src) for dest, src, kind in binaries if kind != "SYMLINK"}
    stubs = plan(files)
    cc = compiler()
    replaced: dict[str, str] = {}
    report = []
    # one compiler run per stub, as many at a time as there are cores
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outs = list(pool.map(lambda stub: build(stub, workdir, cc), stubs))
    for stub, out in zip(stubs, outs, strict=True):
        replaced[stub.dest] = str(out)
        report.append(
            f"{stub.dest}: {stub.real.stat().st_size} -> {out.stat().st_size} bytes "
            f"({len(stub.symbols)} symbols)"
        )
    return [(d, replaced.get(d, s), k) for d, s, k in binaries], report


def main(argv: list[str]) -> int:
    """``python packaging/stubs.py BUNDLE/_internal``: what the bundle imports from each listed
    library, spelled as stubs.toml lists it (to review and update the list after a new wheel)."""
    root = Path(argv[0])
    files = {
        str(p.relative_to(root)): p for p in root.rglob("*") if p.is_file() and not p.is_symlink()
    }
    stubs, problems = survey(files, load_manifest())
    for stub in stubs:
        print(f"[library.{stub.key}]  # {Path(stub.dest).name}, {stub.real.stat().st_size} bytes")
        print("symbols = [" + ", ".join(f'"{_spelled(s)}"' for s in stub.symbols) + "]")
    for line in problems:
        print(f"# problem: {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
