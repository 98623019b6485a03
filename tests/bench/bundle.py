"""The bundle's figures: build time, unpacked size (and what weighs what), cold start.

    python -m tests.bench.bundle                 # build with packaging/build, then measure
    python -m tests.bench.bundle --bundle dist/slate   # measure an existing bundle

Prints one JSON object. Start-up runs in a clean environment (no virtualenv, fresh HOME):
``--version`` (process start to exit) and the time to the first window on a real X server
(Xvfb; process start → window exposed, and → first slot rows), each the median of several runs,
the first run reported apart (cold page cache for a fresh build). Sizes: the target in MB
(10⁶ bytes), the parts in MiB. Targets: docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support.xserver import close_window, start_xvfb

ROOT = Path(__file__).resolve().parents[2]
MIB = 1024 * 1024  # the parts in MiB, as `du -sm` counts them
MB = 1000 * 1000  # the target is in MB: 250 × 10⁶ bytes
TARGETS = {"unpacked_mb": 250, "version_s": 1.5, "first_window_s": 1.5}


def size_bytes(path: Path) -> int:
    """Bytes of the regular files in the folder (symlinks not counted twice)."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def heaviest(bundle: Path, n: int = 20) -> list[tuple[str, float]]:
    """The heaviest parts in MiB: Qt's libraries one by one, other top-level folders whole."""
    internal = bundle / "_internal"
    items: dict[str, int] = {}
    for p in internal.rglob("*"):
        if p.is_file() and not p.is_symlink():
            rel = p.relative_to(internal)
            key = (
                str(rel)
                if rel.parts[0] in ("PySide6",)
                and len(rel.parts) > 2
                and rel.parts[1] == "Qt"
                and rel.parts[2] == "lib"
                else "/".join(rel.parts[:2])
                if rel.parts[0] == "PySide6"
                else rel.parts[0]
            )
            items[key] = items.get(key, 0) + p.stat().st_size
    top = sorted(items.items(), key=lambda kv: -kv[1])[:n]
    return [(k, round(v / MIB, 1)) for k, v in top]


def clean_env(home: Path, **more: str) -> dict[str, str]:
    env = {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / "share"),
    }
    env.update(more)
    return env


def time_version(exe: Path, home: Path, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(
            [str(exe), "--version"], env=clean_env(home), capture_output=True, check=True
        )
        out.append(time.perf_counter() - t0)
    return out


def time_window(
    cmd: list[str], env: dict[str, str], display: str, probe: Path
) -> tuple[float, float]:
    probe.unlink(missing_ok=True)
    t0 = time.perf_counter()
    app = subprocess.Popen(
        cmd,
        env={**env, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "SLATE_GUI_PROBE": str(probe)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    shown = rows = None
    wid = None
    try:
        while time.perf_counter() - t0 < 60 and rows is None:
            if probe.exists():
                for line in probe.read_text().splitlines():
                    ev = json.loads(line)
                    if ev["event"] == "shown" and shown is None:
                        shown, wid = time.perf_counter() - t0, ev["window_id"]
                    if ev["event"] == "rows" and rows is None:
                        rows = time.perf_counter() - t0
            if app.poll() is not None:
                raise RuntimeError(app.stderr.read().decode()[-2000:] if app.stderr else "ended")
            time.sleep(0.005)
        if wid is not None:
            close_window(display, wid)
        app.wait(60)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    if shown is None or rows is None:
        raise RuntimeError("no window within 60 s")
    return shown, rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bundle", help="an existing bundle folder (default: build one)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    out: dict[str, object] = {"targets": TARGETS}
    with tempfile.TemporaryDirectory(prefix="slate-bundle-bench-") as tmp_name:
        tmp = Path(tmp_name)
        if args.bundle:
            bundle = Path(args.bundle).resolve()
        else:
            env = dict(
                os.environ,
                SLATE_DIST=str(tmp / "dist"),
                SLATE_BUILD=str(tmp / "build"),
                PYTHON=sys.executable,
            )
            t0 = time.perf_counter()
            subprocess.run(
                ["bash", "packaging/build"],
                cwd=ROOT,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            out["build_s"] = round(time.perf_counter() - t0, 1)
            bundle = tmp / "dist" / "slate"
            tarball = next((tmp / "dist").glob("*.tar.gz"))
            out["tarball_mb"] = round(tarball.stat().st_size / MB, 1)
            out["tarball_mib"] = round(tarball.stat().st_size / MIB, 1)
        exe = bundle / "slate"
        total = size_bytes(bundle)
        out["unpacked_bytes"] = total
        out["unpacked_mb"] = round(total / MB, 1)
        out["unpacked_mib"] = round(total / MIB, 1)
        out["heaviest_mb"] = heaviest(bundle)
        home = tmp / "home"
        home.mkdir()
        versions = time_version(exe, home, args.runs + 1)
        out["version_first_s"] = round(versions[0], 3)
        out["version_s"] = round(statistics.median(versions[1:]), 3)
        data = tmp / "data"
        rid = "article:20260816:bench:still-01"
        env = clean_env(home, SLATE_DATA_DIR=str(data), SLATE_DEMO_STAGE_SECONDS="0.1")
        subprocess.run(
            [
                str(exe),
                "--json",
                "submit",
                "--request-id",
                rid,
                "--kind",
                "image",
                "--prompt",
                "bench",
                "--wait",
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        server = start_xvfb(tmp)
        try:
            runs = [
                time_window(
                    [str(exe), "gui", "--select", rid], env, server.display, tmp / "p.jsonl"
                )
                for _ in range(args.runs)
            ]
            venv_env = {**os.environ, **{k: v for k, v in env.items() if k != "PATH"}}
            venv = [
                time_window(
                    [sys.executable, "-m", "app", "gui", "--select", rid],
                    venv_env,
                    server.display,
                    tmp / "p.jsonl",
                )
                for _ in range(3)
            ]
        finally:
            server.stop()
        out["first_window_first_s"] = round(runs[0][0], 3)
        out["first_window_s"] = round(statistics.median(r[0] for r in runs), 3)
        out["first_rows_s"] = round(statistics.median(r[1] for r in runs), 3)
        out["venv_first_window_s"] = round(statistics.median(r[0] for r in venv), 3)
        out["met"] = {k: out[k] < v for k, v in TARGETS.items()}  # type: ignore[operator]
        out["load_average"] = os.getloadavg()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
