"""The fault soak: seeded random provider faults plus SIGKILLs of the worker at random points.

Shared by the CI test (about 200 tasks) and ``python -m tests.support.soak N`` (larger). The mix holds
images, Hailuo videos (V1) and MiniMax-H3 / H3-Max videos (V2); every fault switch answers in
its protocol's shape, and the V2-only ones (529 overloaded, expired video links) are on too. It
returns counts and the checks: duplicate creates (counted by the provider per slot), lost
tasks (a create reached the provider but the store has no record of the slot), and successes
without verified media (files missing or not matching their SHA-256, or a V2 video that is not
the size, length and sound asked).

``hostile=True`` adds what a hostile server and a shared store do: create answers too large to
read (``hostile_body``), slow-drip downloads, media that does not decode as asked (videos with
garbage frames, 1×1 images, decompression bombs), a ``Retry-After`` longer than the owner's
lease (the lease must be renewed through the backoff), and a second worker whose clock runs an
hour ahead (another machine) working the same slots at the same time. It also checks that no
provider task id whose answer went out is lost (``lost_provider_ids``: in no slot and no
history) and re-verifies every success's media from disk (images decode and have the shape
asked, videos decode frame by frame).

``python -m tests.support.soak N [--hostile] [--store URL] [--seed S]`` runs it at N tasks.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from app.domain.protocols import V2, protocol_of
from app.sim import Faults, SimConfig, start_sim

ROOT = Path(__file__).resolve().parents[2]

FAULTS = {
    "lose_create_response": 0.04,
    "rate_limit": 0.04,
    "server_error": 0.03,
    "server_error_after_create": 0.03,
    "status_word": 0.01,
    "success_without_file": 0.03,
    "content_fail": 0.03,
    "expire_downloads": 0.04,
    "truncate_downloads": 0.04,
    "overloaded": 0.02,
    "expired_url": 0.04,
}
#: The hostile kinds (``hostile=True``), on top of :data:`FAULTS`.
HOSTILE_FAULTS = {"hostile_body": 0.02, "drip_downloads": 0.02, "undecodable_media": 0.04}
#: A short lease (timeout 5 s + margin) renewed often, and a Retry-After past it.
LEASE_MARGIN, RENEW_EVERY, RETRY_AFTER = -3.0, 0.25, 3.0
#: Shares of the mix: videos among slots, and MiniMax-H3 (V2) among videos.
VIDEO_SHARE, V2_SHARE = 0.4, 0.5


def soak(
    workdir: Path,
    *,
    tasks: int = 200,
    seed: int = 7,
    store: str | None = None,
    max_seconds: float = 240.0,
    kill_every: tuple[float, float] = (0.4, 2.5),
    min_kills: int = 25,
    min_faults: int = 20,
    video_share: float = VIDEO_SHARE,
    v2_share: float = V2_SHARE,
    hostile: bool = False,
    skew: float = 3600.0,
) -> dict[str, Any]:
    """Run ``tasks`` slots through workers that are SIGKILLed at random moments while the demo
    provider injects random faults. The fault-and-kill phase lasts until both ``min_kills``
    kills and ``min_faults`` injected faults happened (at most 60 % of ``max_seconds``): on a
    loaded machine a worker gets less done before it dies, so counting kills alone would inject
    fewer faults. Then faults stop and a last worker finishes the stragglers."""
    rng = random.Random(seed)
    data_dir = workdir / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    store = store or f"sqlite:///{(data_dir / 'slate.sqlite3').as_posix()}"
    faults = {**FAULTS, **(HOSTILE_FAULTS if hostile else {})}
    sim = start_sim(
        SimConfig(
            preparing=0.05,
            queueing=0.05,
            processing=0.15,
            image_latency=0.0,
            seed=seed,
            faults=Faults(random=dict(faults), status_word=""),
        )
    )
    sim.set_faults(status_word=None, random=dict(faults))
    if hostile:
        sim.set_faults(retry_after=RETRY_AFTER)
    env = dict(os.environ)
    env["SLATE_TEST_KEYRING_FILE"] = str(workdir / "keyring.json")
    cmd = [
        sys.executable,
        "-m",
        "tests.support.worker",
        "--data-dir",
        str(data_dir),
        "--store",
        store,
        "--base-url",
        sim.base_url,
        "--prefix",
        "soak:20261130:tide-eye",
        "--count",
        str(tasks),
        "--seed",
        str(seed),
        "--video-share",
        str(video_share),
        "--v2-share",
        str(v2_share),
        "--max-seconds",
        str(max_seconds * 2),
    ]
    if hostile:
        cmd += ["--lease-margin", str(LEASE_MARGIN), "--renew-every", str(RENEW_EVERY)]
    other_cmd = cmd + ["--clock-offset", str(skew)] if hostile and skew else None
    kills = rounds = 0
    started = time.monotonic()
    try:
        while True:
            rounds += 1
            proc = subprocess.Popen(
                cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )
            injected = sum(sim.stats()["faults_injected"].values())
            if time.monotonic() - started < max_seconds * 0.6 and (
                kills < min_kills or injected < min_faults
            ):
                other = None
                if other_cmd is not None:  # another machine on the same slots, at once
                    other = subprocess.Popen(
                        other_cmd,
                        env=env,
                        cwd=ROOT,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                try:
                    proc.wait(timeout=rng.uniform(*kill_every))
                except subprocess.TimeoutExpired:
                    os.kill(proc.pid, signal.SIGKILL)
                    proc.wait()
                    kills += 1
                    continue
                finally:
                    if other is not None:
                        if other.poll() is None:
                            os.kill(other.pid, signal.SIGKILL)
                            kills += 1
                        other.wait()
            else:
                sim.set_faults(random={})  # let the last worker finish the stragglers
                remaining = max(5.0, max_seconds - (time.monotonic() - started))
                proc.wait(timeout=remaining)
            err = proc.stderr.read() if proc.stderr else ""
            if proc.returncode != 0:
                raise AssertionError(f"worker exited {proc.returncode}: {err[-3000:]}")
            break
        return check(
            data_dir,
            store,
            sim.stats(),
            tasks,
            kills=kills,
            rounds=rounds,
            seconds=time.monotonic() - started,
            deep=hostile,
        )
    finally:
        sim.stop()


def check(
    data_dir: Path,
    store: str,
    stats: dict[str, Any],
    tasks: int,
    *,
    deep: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    engine = sa.create_engine(store)
    with engine.connect() as conn:
        rows = (
            conn.execute(
                sa.text("SELECT id, request_id, state, kind, params, provider_task_id FROM tasks")
            )
            .mappings()
            .all()
        )
        media = (
            conn.execute(sa.text("SELECT task_id, path, sha256, bytes FROM media")).mappings().all()
        )
        history = conn.execute(sa.text("SELECT data, detail FROM slot_events")).all()
        gone = {
            rid
            for (rid,) in conn.execute(
                sa.text(
                    "SELECT t.request_id FROM tasks t JOIN slot_events e ON e.task_id = t.id "
                    "WHERE t.state = 'unknown' AND t.provider_task_id IS NULL "
                    "AND e.event = 'unknown' AND e.detail LIKE 'owner % is gone'"
                )
            )
        }
    engine.dispose()
    # Every provider task id whose create answer went out whole is in its slot or its history
    # — unless the worker was SIGKILLed between the answer leaving the provider and its fsync
    # into the journal: the record then says its owner is gone (`unknown`, no task id; recover
    # by lookup), counted apart as cut by a kill.
    kept_ids = {str(r["provider_task_id"]) for r in rows if r["provider_task_id"]}
    history_text = "\n".join(f"{d} {t}" for d, t in history)
    missing = [
        (prompt, tid)
        for prompt, ids in stats.get("answered_ids", {}).items()
        for tid in ids
        if tid not in kept_ids and tid not in history_text
    ]
    cut_by_kill = [m for m in missing if m[0].removeprefix("slot ") in gone]
    lost_ids = [m for m in missing if m not in cut_by_kill]
    by_rid = {r["request_id"]: r for r in rows}
    made = stats["made_by_prompt"]
    duplicates = {p: n for p, n in made.items() if n > 1}
    lost = [p for p, n in made.items() if n >= 1 and p.removeprefix("slot ") not in by_rid]
    media_by_task: dict[int, list] = {}
    for m in media:
        media_by_task.setdefault(m["task_id"], []).append(m)
    fake_success = []
    v2_states: Counter[str] = Counter()
    for r in rows:
        params = r["params"] if isinstance(r["params"], dict) else json.loads(r["params"])
        v2 = protocol_of(r["kind"], params) == V2
        if v2:
            v2_states[r["state"]] += 1
        if r["state"] != "success":
            continue
        items = media_by_task.get(r["id"], [])
        ok = bool(items)
        for m in items:
            path = data_dir / m["path"]
            if (
                not path.exists()
                or hashlib.sha256(path.read_bytes()).hexdigest() != m["sha256"]
                or path.stat().st_size != m["bytes"]
            ):
                ok = False
            elif v2 and not _as_asked(path, params):
                ok = False
            elif deep and not _decodes_as_asked(path, r["kind"], params):
                ok = False
        if not ok:
            fake_success.append(r["request_id"])
    return {
        "tasks": tasks,
        "slots_recorded": len(rows),
        "states": dict(Counter(r["state"] for r in rows)),
        "v2_states": dict(v2_states),
        "creates_received": stats["creates_total"],
        "tasks_made_by_provider": stats["made_total"],
        "faults_injected": stats["faults_injected"],
        "duplicate_creates": len(duplicates),
        "lost_tasks": len(lost),
        "successes_without_verified_media": len(fake_success),
        "provider_ids_answered": sum(len(v) for v in stats.get("answered_ids", {}).values()),
        "lost_provider_ids": len(lost_ids),
        "answers_cut_by_a_kill": len(cut_by_kill),
        "details": {
            "duplicates": duplicates,
            "lost": lost[:20],
            "fake_success": fake_success[:20],
            "lost_provider_ids": lost_ids[:20],
        },
        **extra,
    }


def _as_asked(path: Path, params: dict[str, Any]) -> bool:
    """A V2 video on disk is the size, length and sound its slot asked for (checked again here,
    independently of the run that stored it)."""
    from app.domain.params_v2 import expected_output
    from app.service.media import VerificationFailed, VideoCheck, verify_video

    want = expected_output(params)
    try:
        verify_video(
            path,
            VideoCheck(
                short_side=want.short_side,
                aspect=want.aspect,
                seconds=want.seconds,
                audio_channels=want.audio_channels,
            ),
        )
    except VerificationFailed:
        return False
    return True


def _decodes_as_asked(path: Path, kind: str, params: dict[str, Any]) -> bool:
    """Media on disk decodes and is what was asked: an image of the aspect ratio asked (its
    size read before decoding), a video frame by frame (checked again here, independently)."""
    from app.service.media import ImageCheck, VerificationFailed, probe_image, verify_video

    try:
        if kind == "image":
            probe_image(path, ImageCheck.of(params) or ImageCheck(aspect=1.0, ratio="1:1"))
        else:
            verify_video(path, None)
    except VerificationFailed:
        return False
    return True


if __name__ == "__main__":
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(description="the fault soak at any size")
    parser.add_argument("tasks", type=int, nargs="?", default=200)
    parser.add_argument("--hostile", action="store_true", help="the hostile kinds too")
    parser.add_argument("--store", default=None, help="a store URL (default: SQLite)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--min-kills", type=int, default=25)
    args = parser.parse_args()
    budget = args.max_seconds or max(240.0, args.tasks * 1.2)
    with tempfile.TemporaryDirectory() as d:
        began = time.monotonic()
        result = soak(
            Path(d),
            tasks=args.tasks,
            seed=args.seed,
            store=args.store,
            hostile=args.hostile,
            max_seconds=budget,
            min_kills=args.min_kills,
        )
        result["wall_seconds"] = round(time.monotonic() - began, 1)
        print(json.dumps(result, default=str))
