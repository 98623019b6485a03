"""Fault soak and restart: real worker processes, SIGKILLed and restarted, against the demo
provider with faults injected at random. No duplicate create, no lost task, no fake success."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
import sqlalchemy as sa

from app.sim import SimConfig, start_sim
from tests.support.fixtures import ROOT
from tests.support import worker
from tests.support.soak import soak


@pytest.mark.parametrize("shard", range(5))
def test_fault_soak_200_tasks(tmp_path, store_url, shard):
    """Images, Hailuo (V1) and MiniMax-H3 (V2) videos under the same random faults and kills.
    Five shards of 40 slots (seeds 7–11, 5 kills in shards 0–3 and 4 in shard 4, 4 faults
    each: the 200 slots, 24 kills and 20 faults of one run), side by side on the workers.
    Each check is the 50-slot shard's scaled to 40 slots and rounded up. (Shards of 25 were
    tried: a worker given its 0.4–2.5 s then often finished the whole shard before the kills
    were done.) The kills and faults fall on the first 20 slots; the last 20 are made after,
    meeting at most what the kill phase still owes the checks: kills of workers whose creates
    were all answered, and rate limits, which are retried (see soak())."""
    min_kills = 5 if shard < 4 else 4
    result = soak(
        tmp_path,
        tasks=40,
        seed=7 + shard,
        store=store_url,
        min_kills=min_kills,
        min_faults=4,
        # half the slots are created once the kills end: under load every kill can land on a
        # worker's 8 creates in flight (CI saw 17 of 40 in success, 22 rightly unknown), and
        # the kill-phase workers, waiting on these, never finish before the kills are done
        hold=20,
        calm_at=((min_kills + 1) // 2, 4),  # what is asserted below
    )
    print("soak:", json.dumps({k: v for k, v in result.items() if k != "details"}))
    assert result["duplicate_creates"] == 0, result["details"]
    assert result["lost_tasks"] == 0, result["details"]
    assert result["successes_without_verified_media"] == 0, result["details"]
    assert result["slots_recorded"] == 40
    assert result["kills"] >= (min_kills + 1) // 2, "the soak must actually kill workers"
    assert sum(result["faults_injected"].values()) >= 4, "the soak must actually inject faults"
    assert result["states"].get("success", 0) >= 20
    assert set(result["states"]) <= {"success", "fail", "unknown"}
    v2 = result["v2_states"]
    assert sum(v2.values()) >= 4 and v2.get("success", 0) >= 3, v2  # the V2 mix ran


def test_restart_50_in_flight_tasks_finish_without_a_second_create(tmp_path, store_url):
    # one frame a second: 50 videos made by the provider and decoded by the worker cost half
    # the CPU of two (what is shown is the restart, not the media)
    sim = start_sim(
        SimConfig(preparing=0.5, queueing=1.0, processing=2.0, image_latency=0.0, video_fps=1)
    )
    data_dir = tmp_path / "data"
    env = {**os.environ, "SLATE_TEST_KEYRING_FILE": str(tmp_path / "keyring.json")}
    base = [
        "--data-dir",
        str(data_dir),
        "--store",
        store_url,
        "--base-url",
        sim.base_url,
        "--prefix",
        "restart:20261130:tide-eye",
        "--count",
        "50",
        "--video-share",
        "1.0",
    ]
    try:
        first_err, second_err = tmp_path / "first.err", tmp_path / "second.err"
        first = worker.start(base, env=env, cwd=ROOT, err=str(first_err))
        deadline = time.time() + 60
        while sim.stats()["creates_total"] < 50:
            assert time.time() < deadline and first.exitcode is None, (
                first_err.read_text() if first.exitcode is not None else "slow"
            )
            time.sleep(0.05)
        engine = sa.create_engine(store_url)
        with engine.connect() as conn:
            states = dict(
                conn.execute(sa.text("SELECT state, count(*) FROM tasks GROUP BY state")).all()
            )
        assert not states.get("success"), "kill must happen while tasks are in flight"
        os.kill(first.pid, signal.SIGKILL)
        first.join()
        with engine.connect() as conn:  # the slots whose create's answer was stored in time
            answered = set(
                conn.execute(
                    sa.text("SELECT request_id FROM tasks WHERE provider_task_id IS NOT NULL")
                ).scalars()
            )
        second = worker.start(base + ["--resume-only"], env=env, cwd=ROOT, err=str(second_err))
        if not worker.ended_within(second, 120):
            raise AssertionError("the resuming worker was still running after 120 s")
        assert second.exitcode == 0, second_err.read_text()[-3000:]
        with engine.connect() as conn:
            final = dict(
                conn.execute(sa.text("SELECT state, count(*) FROM tasks GROUP BY state")).all()
            )
            succeeded = set(
                conn.execute(
                    sa.text("SELECT request_id FROM tasks WHERE state = 'success'")
                ).scalars()
            )
            n_media = conn.execute(sa.text("SELECT count(*) FROM media")).scalar()
        engine.dispose()
        stats = sim.stats()
        # a create killed mid-flight is honestly unknown; everything else reaches success
        assert final.get("success", 0) + final.get("unknown", 0) == 50, (
            final,
            _failures(store_url),
        )
        # every slot whose task id was stored before the kill finishes (the restart's point);
        # the others are the creates in flight at the kill (a worker sends AT_ONCE at a time)
        assert answered <= succeeded, (sorted(answered - succeeded), final)
        assert len(answered) >= 50 - worker.AT_ONCE, len(answered)
        assert n_media == final.get("success", 0)
        assert stats["creates_total"] == 50
        assert max(stats["made_by_prompt"].values()) == 1
    finally:
        sim.stop()


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_each_hostile_shard_holds_a_video(seed):
    """The hostile shards' held slots (made once the kills end) include a video, the only kind
    whose create answers a provider id: seed 12's last three slots are images, and under load its
    shard once had every video's create killed before its answer (none answered, the assertion
    below failed)."""
    plan = worker.slot_plan("soak:20261130:tide-eye", 10, seed, 0.6, 0.5)
    kinds = {rid: kind for rid, kind, _ in plan}
    held = worker.held_slots(plan, 3)
    assert len(held) == 3
    assert any(kinds[rid] == "video" for rid in held), (seed, kinds)
    singles = [rid for rid, _, _ in plan]
    assert set(singles[-2:]) <= held  # the plan's last slots stay held; a video joins them


@pytest.mark.parametrize("shard", range(4))
def test_hostile_fault_soak_small(tmp_path, store_url, shard):
    """The hostile kinds in a small soak (the 1,000-task run is ``python -m tests.support.soak 1000
    --hostile``, see docs/BENCHMARKS.md): create answers too large to read, drip downloads,
    media that does not decode as asked, a Retry-After past a short lease, and a second worker
    an hour ahead on the same slots at once. Four shards of 10 slots (seeds 11–14, 4 kills and 5
    faults each: the 40 slots, 16 kills and 20 faults of one run), side by side."""
    result = soak(
        tmp_path,
        tasks=10,
        seed=11 + shard,
        store=store_url,
        hostile=True,
        min_kills=4,
        min_faults=5,
        max_seconds=120,
        video_share=0.6,  # ten slots: enough videos that provider ids are answered in each
        # the last 3 slots are made once the kills end: under load every kill can land on the
        # creates in flight (CI saw all 10 slots rightly unknown after 2 kills, no id answered)
        hold=3,
        calm_at=(1, 0),  # what is asserted below
    )
    print("hostile soak:", json.dumps({k: v for k, v in result.items() if k != "details"}))
    assert result["duplicate_creates"] == 0, result["details"]
    assert result["lost_tasks"] == 0, result["details"]
    assert result["successes_without_verified_media"] == 0, result["details"]
    assert result["lost_provider_ids"] == 0, result["details"]
    assert result["slots_recorded"] == 10
    # the kill phase ends at 60 % of max_seconds: on a loaded machine fewer kills fit (CI saw
    # 6 and 10 of the 16 asked of one 40-slot run); the soak must still really kill workers
    assert result["kills"] >= 1 and result["provider_ids_answered"] >= 1, result
    assert set(result["states"]) <= {"success", "fail", "unknown"}


def _failures(store_url: str) -> list[tuple[str, str, str]]:
    """The failed slots and why (said when a test expected none)."""
    engine = sa.create_engine(store_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text(
                    "SELECT request_id, error_code, error_message FROM tasks WHERE state='fail'"
                )
            ).all()
        return [tuple(map(str, r)) for r in rows]
    finally:
        engine.dispose()
