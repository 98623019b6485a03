"""Shared pieces of the benchmarks: statistics, the bench directory, child processes.

Every figure group runs in its own child process (``python -m tests.bench.<group>``) that
prints one JSON object on its last stdout line, so memory, Qt singletons and crashes of one
group never leak into another.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[2]


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (``p`` in 0..100) of ``values``; NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(round(p / 100.0 * len(ordered) + 0.5))))
    return ordered[rank - 1]


def ms(seconds: float) -> float:
    return round(seconds * 1000.0, 3)


def summary_ms(seconds: Sequence[float]) -> dict[str, Any]:
    """Count, median, p90, p99, max and mean of durations given in seconds, in milliseconds."""
    if not seconds:
        return {"n": 0}
    return {
        "n": len(seconds),
        "median_ms": ms(statistics.median(seconds)),
        "p90_ms": ms(percentile(seconds, 90)),
        "p99_ms": ms(percentile(seconds, 99)),
        "max_ms": ms(max(seconds)),
        "mean_ms": ms(statistics.fmean(seconds)),
    }


def bench_dir() -> Path:
    """Where stores and caches live: ``SLATE_BENCH_DIR`` or ``<tmp>/slate-bench``."""
    d = Path(os.environ.get("SLATE_BENCH_DIR") or Path(tempfile.gettempdir()) / "slate-bench")
    d.mkdir(parents=True, exist_ok=True)
    return d


def run_dir(name: str) -> Path:
    """A fresh directory of its own for one run of one group (concurrent runs never collide)."""
    return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=bench_dir()))


def app_env(tmp: str, data_dir: str, store: str, tenant: str, user: str) -> dict[str, str]:
    """:func:`child_env` for a ``slate gui`` child on the demo provider: this data dir, store and
    scope, and a settings, data, state and cache folder of its own under ``tmp`` (no saved
    layout, an empty thumbnail cache), with a keyring file there."""
    folder = Path(tmp)
    return child_env(
        {
            "SLATE_DATA_DIR": data_dir,
            "SLATE_STORE": store,
            "SLATE_PROVIDER": "demo",
            "SLATE_TENANT": tenant,
            "SLATE_USER": user,
            "XDG_CONFIG_HOME": str(folder / "config"),
            "XDG_DATA_HOME": str(folder / "share"),
            "XDG_STATE_HOME": str(folder / "state"),
            "XDG_CACHE_HOME": str(folder / "cache"),
            "SLATE_TEST_KEYRING_FILE": str(folder / "keyring.json"),
        }
    )


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """A clean environment for child processes: offscreen Qt, the test keyring, no SLATE_*.

    Python's bytecode is used as a user's install has it (``pip`` compiles what it installs;
    an environment that says ``PYTHONDONTWRITEBYTECODE`` would make every start compile
    Slate's ~150 modules again, about 0.3 s): :func:`compiled` writes it before the runs."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("SLATE_") or k == "SLATE_BENCH_DIR"
    }
    env.pop("MINIMAX_API_KEY", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHON_KEYRING_BACKEND"] = "tests.support.keyring_backend.MemoryKeyring"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    env.update(extra or {})
    return env


def compiled() -> None:
    """Write the bytecode of Slate's modules (``app/``), as installing it does, so a timed
    start reads it instead of compiling the sources."""
    import compileall

    compileall.compile_dir(str(ROOT / "app"), quiet=1, workers=1)


def last_json(stdout: str) -> dict[str, Any]:
    lines = [ln for ln in stdout.splitlines() if ln.strip().startswith("{")]
    if not lines:
        raise ValueError("no JSON line in the child's output")
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def run_child(
    module: str, args: Sequence[str], *, timeout: float, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run ``python -m module args`` and return its JSON answer (or an ``error`` entry)."""
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            env=env or child_env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        return {
            "error": f"{module} timed out after {timeout:.0f} s",
            "stderr_tail": (exc.stderr or b"")[-2000:].decode(errors="replace")
            if isinstance(exc.stderr, bytes)
            else str(exc.stderr or "")[-2000:],
        }
    try:
        out = last_json(proc.stdout)
    except ValueError:
        return {
            "error": f"{module} exited {proc.returncode} without a JSON answer",
            "stderr_tail": proc.stderr[-2000:],
        }
    if proc.returncode != 0 and "error" not in out:
        out["error"] = f"{module} exited {proc.returncode}"
        out["stderr_tail"] = proc.stderr[-2000:]
    out.setdefault("wall_s", round(time.perf_counter() - started, 2))
    return out


def emit(payload: dict[str, Any]) -> None:
    """The one JSON line a bench child prints last."""
    sys.stdout.write(json.dumps(payload, sort_keys=True) + "\n")
    sys.stdout.flush()


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None
