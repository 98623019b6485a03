"""``python -m tests.bench.sim_render [--quick] [--runs N]``: what the demo provider's V2 video
costs to make, cold (no cache): wall time, CPU time and bytes per case, and a cached read.

The largest case MiniMax-H3 can ask is 2K × 15 s; at 21:9 that is 3360×1440, 360 frames at
24 fps with a stereo AAC track. ``--quick`` renders a small case only (a smoke run). Prints one
JSON object. See docs/BENCHMARKS.md ("Demo provider: V2 render").
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import time
from typing import Any

FULL = [("2K", "21:9", 15), ("2K", "16:9", 15), ("768P", "16:9", 6)]
QUICK = [("768P", "16:9", 4)]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(resolution: str, ratio: str, duration: int, runs: int) -> dict[str, Any]:
    import av

    from app.sim import media
    from app.sim.v2rules import RATIOS, output_size

    width, height = output_size(resolution, RATIOS[ratio])
    walls, cpus, size = [], [], 0
    for run in range(runs):
        media._cache.clear()  # cold: no cached bytes
        prompt = f"bench {resolution} {ratio} {duration}s run {run}"
        wall0, cpu0 = time.perf_counter(), _cpu()
        data = media.render_mp4_v2(width, height, duration, f"MiniMax-H3 · {resolution}", prompt)
        walls.append(time.perf_counter() - wall0)
        cpus.append(_cpu() - cpu0)
        size = len(data)
    t0 = time.perf_counter()
    media.render_mp4_v2(width, height, duration, f"MiniMax-H3 · {resolution}", prompt)
    cached = time.perf_counter() - t0
    with av.open(io.BytesIO(data)) as container:
        v, a = container.streams.video[0], container.streams.audio[0]
        checked = {
            "seconds": container.duration / 1e6,
            "fps": float(v.average_rate),
            "frames": v.frames,
            "audio_channels": a.codec_context.channels,
        }
    return {
        "case": f"{resolution} {ratio} {duration}s",
        "size": [width, height],
        "runs": runs,
        "wall_s": {"median": round(statistics.median(walls), 3), "max": round(max(walls), 3)},
        "cpu_s": {"median": round(statistics.median(cpus), 3), "max": round(max(cpus), 3)},
        "bytes": size,
        "cached_read_ms": round(cached * 1000, 3),
        "output": checked,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    ns = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.sim import media

    media.ensure_qt_app()
    cases = QUICK if ns.quick else FULL
    runs = 1 if ns.quick else ns.runs
    out = {
        "group": "sim_render",
        "quick": ns.quick,
        "cpus": os.cpu_count(),
        "load_average": list(os.getloadavg()),
        "cases": [measure(r, q, d, runs) for r, q, d in cases],
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
