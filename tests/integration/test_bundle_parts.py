"""The bundle's generated parts, against this virtualenv's own PyAV and PySide6, without building
a bundle: the stubs of PyAV's unused codec libraries (packaging/stubs.py, stubs.toml), the
smaller ICU data library (packaging/icudata.py), the strip pass (packaging/trim.py) and the
loader check (packaging/check_bundle.py). The bundle itself: tests/desktop/test_bundle.py.

Everything runs for real: stubs are compiled with the system C compiler and loaded by Python
(RTLD_NOW: every import must resolve), media are encoded with the real libraries and read back
through the stubbed PyAV, Qt answers through each ICU data library in its own process.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.fixtures import ROOT
from tests.support.sim_media import reference_files

sys.path.insert(0, str(ROOT / "packaging"))
import check_bundle  # noqa: E402
import elf  # noqa: E402
import icudata  # noqa: E402
import stubs  # noqa: E402
import trim  # noqa: E402

pytestmark = pytest.mark.timeout(600)

SITE = Path(__import__("av").__file__).resolve().parents[1]
QT_LIB = Path(__import__("PySide6").__file__).resolve().parent / "Qt" / "lib"
MANIFEST = tomllib.loads((ROOT / "packaging" / "stubs.toml").read_text())["library"]


def need_cc() -> str:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler: apt-get install gcc (.ci/run installs it)", pytrace=False)
    return cc


def pyav_files() -> dict[str, Path]:
    return {
        str(p.relative_to(SITE)): p
        for folder in ("av", "av.libs")
        for p in (SITE / folder).rglob("*")
        if p.is_file() and not p.is_symlink()
    }


@pytest.fixture(scope="module")
def stubbed(tmp_path_factory) -> dict[str, object]:
    """A copy of this virtualenv's PyAV with every listed library replaced by its stub."""
    need_cc()
    root = tmp_path_factory.mktemp("stubbed")
    site = root / "site"
    for folder in ("av", "av.libs"):
        shutil.copytree(SITE / folder, site / folder, symlinks=True)
    plan = stubs.plan(pyav_files())
    built = {}
    for stub in plan:
        out = stubs.build(stub, root / "work")
        shutil.copyfile(out, site / stub.dest)
        built[stub.key] = (stub, site / stub.dest)
    return {"site": site, "plan": plan, "built": built}


def run_stubbed(stubbed: dict[str, object], code: str, *args: str, timeout: float = 120):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = f"{stubbed['site']}{os.pathsep}{ROOT}"
    env["QT_QPA_PLATFORM"] = "offscreen"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


# ---------------------------------------------------------------------------- the stub list


def test_the_stub_list_is_exactly_what_this_pyav_imports():
    plan = stubs.plan(pyav_files())
    assert {s.key for s in plan} == set(MANIFEST)
    for stub in plan:
        listed = sorted(MANIFEST[stub.key]["symbols"])
        assert sorted(stubs._spelled(s) for s in stub.symbols) == listed, stub.key
        assert stub.real.stat().st_size > 60_000  # the real library, not an earlier stub


def manifest_with(**changes: dict[str, object]) -> dict[str, dict[str, object]]:
    out = {k: dict(v) for k, v in MANIFEST.items()}
    out.update(changes)
    return out


def test_a_listed_library_missing_from_the_bundle_stops_the_build():
    ghost = {"file": "av.libs/libghost-*.so*", "why": "gone", "symbols": []}
    with pytest.raises(stubs.StubError, match=r"ghost: av.libs/libghost-\*.so\* is not in the"):
        stubs.plan(pyav_files(), manifest_with(ghost=ghost))
    files = {d: p for d, p in pyav_files().items() if "libx265" not in d}
    with pytest.raises(stubs.StubError, match="x265: .* is not in the bundle"):
        stubs.plan(files)


def test_a_symbol_gained_or_gone_stops_the_build():
    vpx = dict(MANIFEST["vpx"])
    vpx["symbols"] = [s for s in vpx["symbols"] if s != "vpx_codec_encode"]
    with pytest.raises(stubs.StubError, match=r"vpx: .*new \['vpx_codec_encode'\], gone none"):
        stubs.plan(pyav_files(), manifest_with(vpx=vpx))
    gnutls = dict(MANIFEST["gnutls"])
    gnutls["symbols"] = [*gnutls["symbols"], "gnutls_imaginary@GNUTLS_3_4"]
    with pytest.raises(stubs.StubError, match=r"new none, gone \['gnutls_imaginary@GNUTLS_3_4'\]"):
        stubs.plan(pyav_files(), manifest_with(gnutls=gnutls))


def test_data_symbols_and_clashing_names_stop_the_build(tmp_path):
    cc = need_cc()
    (tmp_path / "real.c").write_text("int table[4] = {1}; int work(void) { return table[0]; }\n")
    (tmp_path / "other.c").write_text("int work(void) { return 7; }\n")
    (tmp_path / "user.c").write_text(
        "extern int table[4]; int work(void);\nint use(void) { return work() + table[1]; }\n"
    )
    for name in ("real", "other"):
        subprocess.run(
            [
                cc,
                "-shared",
                "-fPIC",
                "-o",
                f"lib{name}.so",
                f"{name}.c",
                f"-Wl,-soname,lib{name}.so",
            ],
            cwd=tmp_path,
            check=True,
        )
    subprocess.run(
        [
            cc,
            "-shared",
            "-fPIC",
            "-o",
            "libuser.so",
            "user.c",
            "-L.",
            "-Wl,--no-as-needed",
            "-lreal",
            "-lother",
        ],
        cwd=tmp_path,
        check=True,
    )
    files = {f"lib/lib{n}.so": tmp_path / f"lib{n}.so" for n in ("real", "other", "user")}
    manifest = {"real": {"file": "lib/libreal.so", "why": "test", "symbols": ["table", "work"]}}
    stubs_found, problems = stubs.survey(files, manifest)
    assert any("imports table, a OBJECT (data cannot be stubbed)" in p for p in problems), problems
    assert any("['work'] are also defined by lib/libother.so" in p for p in problems), problems
    with pytest.raises(stubs.StubError):
        stubs.plan(files, manifest)


def test_the_build_step_fails_when_the_bundle_does_not_match(tmp_path):
    toc = [(d, str(p), "BINARY") for d, p in pyav_files().items() if "libvpx" not in d]
    with pytest.raises(stubs.StubError, match="vpx"):
        stubs.apply(toc, tmp_path)


# ---------------------------------------------------------------------------- the stubs


def test_stubs_keep_soname_versions_and_exactly_the_imported_functions(stubbed):
    for key, (stub, path) in stubbed["built"].items():
        made = elf.read(path)
        real = elf.read(stub.real)
        assert made.soname == real.soname, key
        assert set(made.needed) <= {"libc.so.6"}, (key, made.needed)
        exported = {(s.name, s.version) for s in made.symbols if s.defined and s.kind == "FUNC"}
        listed = {
            (n.split("@")[0], n.split("@")[1] if "@" in n else None)
            for n in MANIFEST[key]["symbols"]
        }
        assert exported == listed, key
        if real.versions:  # versioned libraries: the same version nodes, with the same parents
            assert made.versions == real.versions, key
        assert path.stat().st_size < 64 * 1024, (key, path.stat().st_size)


def test_queries_answer_zero_and_every_other_function_aborts_naming_the_library(stubbed):
    code = r"""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
fn = getattr(lib, sys.argv[2])
fn.restype = ctypes.c_long
print("returned", fn())
"""
    for key, (stub, path) in stubbed["built"].items():
        for sym in stub.symbols[:3] + [s for s in stub.symbols if s.name in stub.queries][:2]:
            res = run_stubbed(stubbed, code, str(path), sym.name)
            if sym.name in stub.queries:
                assert res.returncode == 0 and res.stdout.strip() == "returned 0", (key, res)
            else:
                assert res.returncode == -signal.SIGABRT, (key, sym.name, res)
                assert res.stderr.startswith(
                    f"slate: {Path(stub.dest).name} is left out of this bundle "
                    f"(packaging/stubs.toml); {sym.name} was called"
                ), res.stderr


PROBE_STUBBED = r"""
import io, json, math, sys
from fractions import Fraction
import av
from app.sim import media
from app.sim.probe import probe_av

out = {}
# the stubs are what the loader mapped, not the libraries they stand in for
maps = {line.split()[-1] for line in open("/proc/self/maps") if "av.libs" in line}
out["mapped"] = sorted(maps)
# codec registration runs FFmpeg's static init of every codec: only queries may be called
for name in sorted(av.codecs_available):
    for mode in "rw":
        try:
            c = av.Codec(name, mode)
        except Exception:
            continue
        c.name, c.type, c.capabilities, c.video_formats, c.audio_formats, c.audio_rates
out["codecs"] = len(av.codecs_available)
# what Slate does with PyAV: the demo provider's H3 output (libx264 + FFmpeg's aac), decoded
data = media._encode_mp4_v2(320, 180, 2, "t", "bundle parts", 1)
with av.open(io.BytesIO(data)) as c:
    video = sum(1 for _ in c.decode(video=0))
with av.open(io.BytesIO(data)) as c:
    pcm = [bytes(f.planes[0])[: f.samples * 4] for f in c.decode(audio=0)]
floats = [v for chunk in pcm[2:6] for v in memoryview(chunk).cast("f")]
out["h3"] = {"probe": vars(probe_av(data)), "frames": video,
             "rms": math.sqrt(sum(v * v for v in floats) / len(floats))}
# references made by the real libraries, read and decoded through the stubbed PyAV
for path in sys.argv[1:]:
    raw = open(path, "rb").read()
    found = vars(probe_av(raw))
    with av.open(io.BytesIO(raw)) as c:
        decoded = [next(iter(c.decode(s))).__class__.__name__ for s in c.streams]
        found["decoders"] = [s.codec_context.name for s in c.streams]
    found["decoded"] = decoded
    out[path.rsplit("/", 1)[-1]] = found
print(json.dumps(out))
"""


def test_stubbed_pyav_encodes_and_reads_everything_slate_uses(stubbed, tmp_path):
    refs = reference_files(tmp_path)
    res = run_stubbed(stubbed, PROBE_STUBBED, *map(str, refs))
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.splitlines()[-1])
    for key, (_stub, path) in stubbed["built"].items():
        assert str(path) in out["mapped"], key
    assert out["codecs"] > 400
    h3 = out["h3"]
    assert h3["probe"]["video_codec"] == "h264" and h3["probe"]["audio_codec"] == "aac"
    assert h3["frames"] == 48 and h3["probe"]["fps"] == 24.0
    assert h3["rms"] > 0.05  # the tone (about -20 dBFS) came through the AAC encoder
    # FFmpeg's own decoders are chosen, never the stubbed libraries'
    assert out["hevc-aac.mp4"]["decoders"] == ["hevc", "aac"]
    assert out["hevc-aac.mp4"]["video_codec"] == "hevc"
    assert out["h264-aac.mov"]["format"] == "mov" and out["h264-aac.mov"]["decoders"] == [
        "h264",
        "aac",
    ]
    assert out["vp9-opus.mp4"]["decoders"] == ["vp9", "opus"]
    assert out["tone.mp3"]["audio_codec"] == "mp3float"
    assert out["tone.wav"]["audio_codec"] == "pcm_s16le"
    for name in ("hevc-aac.mp4", "h264-aac.mov", "vp9-opus.mp4"):
        assert out[name]["decoded"] == ["VideoFrame", "AudioFrame"], name
    assert abs(out["hevc-aac.mp4"]["seconds"] - 3.0) < 0.1


OPEN_CODEC = r"""
import fractions, sys
import av
name, mode = sys.argv[1], sys.argv[2]
if name == "https":
    try:
        av.open("https://127.0.0.1:9/clip.mp4", timeout=3)
    except Exception as exc:
        print("ERROR", type(exc).__name__)
    raise SystemExit(0)
c = av.CodecContext.create(name, mode)
if mode == "w":
    if c.type == "video":
        c.width, c.height, c.pix_fmt = 64, 64, "yuv420p"
        c.time_base = fractions.Fraction(1, 24)
    else:
        c.sample_rate = 8000 if "amr" in name else 48000
        c.layout = "mono" if "amr" in name else "stereo"
        c.format = c.codec.audio_formats[0].name
try:
    c.open()
    if mode == "r":
        c.decode(av.Packet(bytes(64)))
    print("OPENED")
except Exception as exc:
    print("ERROR", type(exc).__name__)
"""


@pytest.mark.parametrize(
    "codec,mode,library,outcome",
    [
        ("libx265", "w", "libx265", "error"),
        ("libsvtav1", "w", "libSvtAv1Enc", "abort"),
        ("libvpx-vp9", "w", "libvpx", "abort"),
        ("libvpx-vp9", "r", "libvpx", "abort"),
        ("libwebp", "w", "libwebp", "error"),
        ("libopus", "w", "libopus", "abort"),
        ("libopus", "r", "libopus", "abort"),
        ("libmp3lame", "w", "libmp3lame", "error"),
        ("libopencore_amrnb", "w", "libopencore-amrnb", "error"),
        ("libopencore_amrnb", "r", "libopencore-amrnb", "error"),
        ("libopencore_amrwb", "r", "libopencore-amrwb", "abort"),
        ("h264_qsv", "w", "libvpl", "error"),
        ("https", "r", "libgnutls", "abort"),
    ],
)
def test_a_stubbed_codec_fails_cleanly_or_aborts_naming_its_library(
    stubbed, codec, mode, library, outcome
):
    """Nothing in Slate opens these; if something ever does, FFmpeg reports the codec unusable
    (a constructor answered NULL) or the process stops with a sentence naming the library —
    never a crash on garbage."""
    res = run_stubbed(stubbed, OPEN_CODEC, codec, mode)
    if outcome == "error":
        assert res.returncode == 0 and res.stdout.startswith("ERROR"), res
    else:
        assert res.returncode == -signal.SIGABRT, res
        assert f"slate: {library}-" in res.stderr and "is left out of this bundle" in res.stderr


# ---------------------------------------------------------------------------- ICU data


ICU_LIB = QT_LIB / "libicudata.so.73"


def test_icu_common_data_reads_and_writes_back_byte_for_byte():
    _symbol, blob = icudata.locate(ICU_LIB)
    common = icudata.parse(blob)
    assert len(common.items) > 3000 and common.prefix.startswith("icudt")
    assert icudata.serialize(common) == blob


def test_reduced_icu_data_keeps_what_qt_reads_and_drops_the_rest(tmp_path):
    need_cc()
    out, gone = icudata.build(ICU_LIB, tmp_path)
    _symbol, blob = icudata.locate(out)
    small = icudata.parse(blob)
    names = {n[len(small.prefix) :] for n, _d in small.items}
    full = {n[len(small.prefix) :] for n, _d in icudata.parse(icudata.locate(ICU_LIB)[1]).items}
    assert names | {n[len(small.prefix) :] for n in gone} == full
    for kept in (
        "coll/zh.res",
        "coll/ucadata.icu",
        "zone/de.res",
        "gb18030.cnv",
        "de.res",
        "zoneinfo64.res",
        "nfkc.nrm",
        "cnvalias.icu",
    ):
        assert kept in names, kept
    for left in (
        "brkitr/cjdict.dict",
        "translit/root.res",
        "lang/de.res",
        "region/zh.res",
        "curr/ja.res",
        "unit/fr.res",
        "rbnf/en.res",
        "unames.icu",
        "rfc3491.spp",
    ):
        assert left not in names and left in full, left
    assert out.stat().st_size < 0.6 * ICU_LIB.stat().st_size
    assert elf.read(out).soname == "libicudata.so.73"


def test_a_drop_pattern_that_matches_nothing_stops_the_build():
    common = icudata.parse(icudata.locate(ICU_LIB)[1])
    with pytest.raises(icudata.IcuDataError, match="no ICU item matches 'gone/\\*'"):
        icudata.reduce(common, drop=(*icudata.DROP, "gone/*"))
    with pytest.raises(icudata.IcuDataError, match="lacks coll/root.res"):
        icudata.reduce(common, drop=(*icudata.DROP, "coll/*"), keep=())


def qt_answers(libdir: Path | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    if libdir is not None:
        env["LD_LIBRARY_PATH"] = str(libdir)  # before Qt's RUNPATH
    res = subprocess.run(
        [sys.executable, "-m", "tests.support.qt_icu_probe"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout)


def test_qt_answers_every_icu_question_the_same_with_the_reduced_data(tmp_path):
    need_cc()
    small_dir = tmp_path / "small"
    icudata.build(ICU_LIB, small_dir)
    full, small = qt_answers(None), qt_answers(small_dir)
    assert full["icudata"] == [str(ICU_LIB)]
    assert small["icudata"] == [str(small_dir / "libicudata.so.73")]
    assert len(full["collation"]) > 600 and len(full["zones"]) > 400 and len(full["codecs"]) > 200
    assert full["samples"] == {
        "tr_upper_i": "İ",
        "zh_order": ["北京", "日本", "上海", "中国"],
        "berlin": [
            "Mitteleuropäische Normalzeit",
            "中欧标准时间",
            "Central European Standard Time",
        ],
        "gb18030": "石板",
    }
    for part in ("collation", "case", "zones", "codecs", "samples"):
        assert small[part] == full[part], part


@pytest.mark.parametrize(
    "part,drop",
    [
        ("collation", ("coll/*",)),
        ("zones", ("zone/*", "metaZones.res")),
        ("codecs", ("*.cnv",)),
    ],
)
def test_the_icu_probe_notices_when_data_qt_reads_is_missing(tmp_path, part, drop):
    """The control: without the items a Qt call reads, its answers change (the comparison
    above would catch a DROP pattern that went too far)."""
    need_cc()
    icudata.build(ICU_LIB, tmp_path, drop=drop, keep=(), required=())
    full, without = qt_answers(None), qt_answers(tmp_path)
    changed = [k for k in full[part] if without[part].get(k) != full[part][k]]
    assert len(changed) > len(full[part]) // 3, (part, len(changed))
    others = {"collation", "zones", "codecs"} - {part}
    for other in others:
        assert without[other] == full[other], other


# ---------------------------------------------------------------------------- strip, loader


def test_strip_only_touches_files_that_still_have_a_symbol_table(tmp_path):
    cc = need_cc()
    (tmp_path / "kept.c").write_text("int answer(void) { return 42; }\n")
    subprocess.run(
        [cc, "-shared", "-fPIC", "-g", "-o", "libkept.so", "kept.c"], cwd=tmp_path, check=True
    )
    qt_ffmpeg = QT_LIB / "libavutil.so.59"  # patchelf-edited, already stripped
    assert not trim.unstripped(qt_ffmpeg) and trim.unstripped(tmp_path / "libkept.so")
    toc = [
        ("PySide6/Qt/lib/libavutil.so.59", str(qt_ffmpeg), "BINARY"),
        ("libkept.so", str(tmp_path / "libkept.so"), "BINARY"),
    ]
    out, saved = trim.strip_unstripped(toc, tmp_path / "stripped")
    assert out[0] == toc[0]  # untouched: the very same file is collected
    stripped = Path(out[1][1])
    assert stripped.parent == tmp_path / "stripped" and not trim.unstripped(stripped)
    assert saved == (tmp_path / "libkept.so").stat().st_size - stripped.stat().st_size > 0
    import ctypes

    assert ctypes.CDLL(str(stripped)).answer() == 42


def test_check_bundle_fails_on_a_library_the_loader_cannot_map(tmp_path, capsys):
    cc = need_cc()
    internal = tmp_path / "slate" / "_internal"
    internal.mkdir(parents=True)
    (tmp_path / "dep.c").write_text("int dep(void) { return 41; }\n")
    (tmp_path / "user.c").write_text("int dep(void); int user(void) { return dep() + 1; }\n")
    subprocess.run(
        [
            cc,
            "-shared",
            "-fPIC",
            "-o",
            str(internal / "libdep.so"),
            "dep.c",
            "-Wl,-soname,libdep.so",
        ],
        cwd=tmp_path,
        check=True,
    )
    subprocess.run(
        [
            cc,
            "-shared",
            "-fPIC",
            "-o",
            str(internal / "libuser.so"),
            "user.c",
            f"-L{internal}",
            "-ldep",
        ],
        cwd=tmp_path,
        check=True,
    )
    assert check_bundle.main(str(tmp_path / "slate")) == 0
    # what PyInstaller's strip did to Qt's FFmpeg: a load segment no longer page-aligned
    data = bytearray((internal / "libdep.so").read_bytes())
    (phoff,) = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    loads = [
        i for i in range(phnum) if struct.unpack_from("<I", data, phoff + i * phentsize)[0] == 1
    ]
    at = phoff + loads[1] * phentsize + 8
    struct.pack_into("<Q", data, at, struct.unpack_from("<Q", data, at)[0] + 8)
    (internal / "libdep.so").write_bytes(data)
    assert check_bundle.main(str(tmp_path / "slate")) == 1
    err = capsys.readouterr().err
    assert "check_bundle: libdep.so cannot be loaded: ELF load command address/offset" in err
