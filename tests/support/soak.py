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

``world2=True`` adds hostile world II (issue 24): query answers naming another task
(``foreign_answer``), billed successes without media (V2 ``succeeded`` with ``usage`` and no
``content.url``, from ``success_without_file``), usage figures of 1e30 (``huge_usage``),
downloads that never end (``gzip_downloads``: gzip decoding to nothing; ``drip_headers``), a
provider clock ``provider_skew`` seconds off, competing unknown slots of one shape (``pairs``
pairs of H3 768P 4 s 16:9 slots, each losing its create in one first phase, windows
overlapping) with every unknown slot looked up, and sound slots (music, synchronous and
asynchronous speech) as ``sound_share`` of the tasks. It checks, at the end, against the
provider's own records (:mod:`app.sim.billing`): no slot shows a task another slot made
(``slots_showing_another_task``), every success's media is what the provider made for that
slot's own task (``media_not_of_own_task``), and each settled slot counts what the provider
charged for it (``spend_mismatches``; the totals are ``spend`` and ``billed``).

``python -m tests.support.soak --tasks N [--store sqlite|pg|URL] [--world2] [--hostile] [--seed S]``
runs it at N tasks (``python -m tests.support.soak N`` still works) and prints the figures as JSON.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from decimal import Decimal

import sqlalchemy as sa

from app.domain.protocols import V2, protocol_of
from app.sim import Faults, SimConfig, start_sim
from tests.support import worker

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
#: Hostile world II (``world2=True``), on top of :data:`FAULTS` (``success_without_file`` there
#: is the billed success without media: V2 ``succeeded`` with ``usage``, no ``content.url``).
WORLD2_FAULTS = {
    "foreign_answer": 0.04,
    "huge_usage": 0.05,
    "gzip_downloads": 0.015,
    "drip_headers": 0.015,
    "drip_answers": 0.01,
    "overfull_answer": 0.01,
    "success_without_file": 0.04,
}
#: World II's defaults: the provider's clock 45 s ahead of this machine, a third of the slots
#: sound, three competing pairs, and downloads let go after 2 s below the minimum rate.
PROVIDER_SKEW, SOUND_SHARE, PAIRS, RATE_GRACE = 45.0, 0.3, 3, 2.0
#: Each of these strikes at least once in a world II soak, however small (then at random).
WORLD2_ONCE = (
    "foreign_answer",
    "huge_usage",
    "gzip_downloads",
    "drip_headers",
    "drip_answers",
)
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
    world2: bool = False,
    provider_skew: float = PROVIDER_SKEW,
    sound_share: float = SOUND_SHARE,
    pairs: int = PAIRS,
    prefix: str = "soak:20261130:tide-eye",
    kill_seconds: float | None = None,
    hold: int = 0,
    calm_at: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Run ``tasks`` slots through workers that are SIGKILLed at random moments while the demo
    provider injects random faults. The fault-and-kill phase lasts until both ``min_kills``
    kills and ``min_faults`` injected faults happened (at most 60 % of ``max_seconds``): on a
    loaded machine a worker gets less done before it dies, so counting kills alone would inject
    fewer faults. Then the kills and faults stop (world II's, which refuse nothing, go on) and a
    last worker finishes the stragglers. ``kill_seconds`` caps the fault-and-kill phase below
    that 60 % (a CI shard's short run). ``hold`` slots (the plan's last) are created only once
    the kill phase ends, at the latest when a kill-phase worker has settled all the other slots:
    on a loaded machine a kill can land on every create in flight, and a shard would then have
    no slot that ever runs to the end. The held slots never face a kill at random, nor a fault
    that can change a slot's outcome (world II's aside). If the kill phase ended short of
    ``calm_at`` (kills, faults: the least the caller asserts; ``min_kills`` and ``min_faults``
    by default) — a quiet machine settles the other slots before the kills are done, a loaded
    one kills workers before they send enough requests to meet the faults — the held phase makes
    up the rest, by counts (:func:`held_phase`): each kill owed is of a worker paused once every
    create it sent is answered (``--pause-file``), and the faults owed are rate limits, which
    are retried (the result's ``held_owed`` says what was owed)."""
    rng = random.Random(seed)
    data_dir = workdir / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    store = store or f"sqlite:///{(data_dir / 'slate.sqlite3').as_posix()}"
    faults = {
        **FAULTS,
        **(HOSTILE_FAULTS if hostile else {}),
        **(WORLD2_FAULTS if world2 else {}),
    }
    if not world2:
        sound_share, pairs, provider_skew = 0.0, 0, 0.0
    sim = start_sim(
        SimConfig(
            preparing=0.05,
            queueing=0.05,
            processing=0.15,
            image_latency=0.0,
            seed=seed,
            clock_offset=provider_skew,
            faults=Faults(random={}, status_word=""),
        )
    )
    sim.set_faults(status_word=None)
    if hostile:
        sim.set_faults(retry_after=RETRY_AFTER)
    env = dict(os.environ)
    env["SLATE_TEST_KEYRING_FILE"] = str(workdir / "keyring.json")
    cmd = [
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
    if world2:
        cmd += ["--sound-share", str(sound_share), "--pairs", str(pairs), "--lookup"]
        cmd += ["--rate-grace", str(RATE_GRACE)]
    if hostile:
        cmd += ["--lease-margin", str(LEASE_MARGIN), "--renew-every", str(RENEW_EVERY)]
    other_cmd = cmd + ["--clock-offset", str(skew)] if hostile and skew else None
    held_asked = hold > 0
    kills = rounds = 0
    kill_phase = True  # until a worker holding slots back settles all the others
    calm = False  # the kill phase is over: no more kills at random
    owed = owed_then = Owed(0, 0)  # what the held phase still owes (``hold``), counted down
    started = time.monotonic()
    try:
        if pairs:  # first, each competing slot loses its create, all within one window
            sim.set_faults(lose_create_response=2 * pairs)
            first_err = workdir / "worker-pairs.err"
            first = worker.start(cmd + ["--pairs-only"], env=env, cwd=ROOT, err=str(first_err))
            first.join()
            if first.exitcode != 0:
                raise AssertionError(f"pairs worker exited {first.exitcode}: {_text(first_err)}")
            sim.set_faults(lose_create_response=0)
        phase = time.monotonic()  # the fault-and-kill phase starts here
        sim.set_faults(random=dict(faults))
        if world2:
            sim.set_faults(**{name: 1 for name in WORLD2_ONCE})
        while True:
            rounds += 1
            ready, err = workdir / f"ready-{rounds}", workdir / f"worker-{rounds}.err"
            pause = workdir / f"paused-{rounds}"
            injected = sum(sim.stats()["faults_injected"].values())
            killing = (
                kill_phase
                and time.monotonic() - started < max_seconds * 0.6
                and (time.monotonic() - phase < (kill_seconds or max_seconds))
                and (kills < min_kills or injected < min_faults)
            )
            if not killing and not calm:
                # the kill phase ends: no more kills at random, and only world II's faults,
                # which refuse nothing (most polling happens here: a worker killed every second
                # or two mostly submits); the held slots' phase makes up what is still owed
                calm = True
                sim.set_faults(random=dict(WORLD2_FAULTS) if world2 else {})
                if held_asked:
                    owed = owed_then = held_phase(
                        kills, injected, calm_at or (min_kills, min_faults)
                    )
                    if owed.rate_limits:
                        sim.set_faults(rate_limit=owed.rate_limits)
            held = ["--hold", str(hold)] if killing and hold else []
            args = cmd + held + ["--ready-file", str(ready)]
            if not killing and owed.kills:
                args += ["--pause-file", str(pause)]
            proc = worker.start(args, env=env, cwd=ROOT, err=str(err))
            if killing:
                other = None
                if other_cmd is not None:  # another machine on the same slots, at once
                    other = worker.start(other_cmd + held, env=env, cwd=ROOT)
                # the kill timer runs from the worker's start-up done: on a loaded machine a
                # worker killed while it still imports sends nothing, and the soak injects no
                # faults (CI once saw 12 in the whole phase)
                _wait_for(ready, proc)
                try:
                    if not worker.ended_within(proc, rng.uniform(*kill_every)):
                        kills += 1
                        continue
                    if held and proc.exitcode == 0:  # its own slots settled: the held ones next
                        kill_phase, hold = False, 0
                        continue
                finally:
                    if other is not None:
                        if other.exitcode is None:
                            os.kill(other.pid, signal.SIGKILL)
                            kills += 1
                        other.join()
            else:
                remaining = max(5.0, max_seconds - (time.monotonic() - started))
                if owed.kills:  # a kill owed: once every create the worker sent is answered
                    _wait_for(pause, proc, remaining)
                    if pause.exists():
                        if not worker.ended_within(proc, 0):  # SIGKILLed, no create in flight
                            kills += 1
                            owed = owed._replace(kills=owed.kills - 1)
                        continue
                    if not worker.ended_within(proc, 0):
                        raise AssertionError(f"worker not paused after {remaining:.0f} s")
                elif not worker.ended_within(proc, remaining):  # a hang fails, as wait() did
                    raise AssertionError(f"worker still running after {remaining:.0f} s")
            if proc.exitcode != 0:
                raise AssertionError(f"worker exited {proc.exitcode}: {_text(err)[-3000:]}")
            break
        return check(
            data_dir,
            store,
            sim.stats(),
            tasks,
            ledger=sim.ledger() if world2 else None,
            provider_clock_offset=provider_skew,
            kills=kills,
            rounds=rounds,
            held_owed=owed_then._asdict(),
            seconds=round(time.monotonic() - started, 1),
            deep=hostile or world2,
        )
    finally:
        sim.stop()


class Owed(NamedTuple):
    """What the held slots' phase still owes when the kill phase ends."""

    #: workers SIGKILLed once every create they sent is answered (``--pause-file``)
    kills: int
    #: rate-limited API requests: every one is sent again (a create after its backoff, a query
    #: or a download's link asked again later), so no slot's final state changes
    rate_limits: int


def held_phase(kills: int, faults: int, least: tuple[int, int]) -> Owed:
    """What the held slots' phase owes after ``kills`` kills and ``faults`` injected faults, to
    reach ``least`` (kills, faults): only the counts decide, never how fast the machine ran.
    Faults that change a slot's outcome (a 500 on a create makes it unknown; a content failure,
    a success without media, two expired or cut downloads of one slot make it fail) are never
    owed: only rate limits, which are retried."""
    return Owed(max(0, least[0] - kills), max(0, least[1] - faults))


def _wait_for(path: Path, proc: Any, limit: float = 120.0) -> None:
    """Until the worker touched ``path`` (``--ready-file``: its service is open, its imports
    done; ``--pause-file``), it exited, or ``limit``."""
    until = time.monotonic() + limit
    while not path.exists() and proc.exitcode is None and time.monotonic() < until:
        time.sleep(0.02)


def _text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def rid_of(prompt: str) -> str:
    """The RequestId a slot's prompt names (``slot RID``, a long text after it)."""
    return prompt.removeprefix("slot ").split(" ", 1)[0]


def check(
    data_dir: Path,
    store: str,
    stats: dict[str, Any],
    tasks: int,
    *,
    deep: bool = False,
    ledger: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    engine = sa.create_engine(store)
    with engine.connect() as conn:
        rows = (
            conn.execute(
                sa.text(
                    "SELECT id, request_id, state, kind, params, provider_task_id, "
                    "provider_status, error_code, cost_estimate, cost_reported FROM tasks"
                )
            )
            .mappings()
            .all()
        )
        media = (
            conn.execute(sa.text("SELECT task_id, path, sha256, bytes FROM media")).mappings().all()
        )
        history = conn.execute(sa.text("SELECT data, detail FROM slot_events")).all()
        lookups = conn.execute(
            sa.text(
                "SELECT t.request_id, e.detail FROM slot_events e JOIN tasks t "
                "ON e.task_id = t.id WHERE e.event = 'lookup'"
            )
        ).all()
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
    cut_by_kill = [m for m in missing if rid_of(m[0]) in gone]
    lost_ids = [m for m in missing if m not in cut_by_kill]
    by_rid = {r["request_id"]: r for r in rows}
    made = stats["made_by_prompt"]
    duplicates = {p[:80]: n for p, n in made.items() if n > 1}
    lost = [p[:80] for p, n in made.items() if n >= 1 and rid_of(p) not in by_rid]
    media_by_task: dict[int, list] = {}
    for m in media:
        media_by_task.setdefault(m["task_id"], []).append(m)
    served = stats.get("served_sha256", {})
    owners = (ledger or {}).get("owners", {})
    fake_success, not_own, showing_other = [], [], []
    v2_states: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for r in rows:
        params = r["params"] if isinstance(r["params"], dict) else json.loads(r["params"])
        kinds[_mix_kind(r["kind"], params)] += 1
        v2 = protocol_of(r["kind"], params) == V2
        if v2:
            v2_states[r["state"]] += 1
        tid = r["provider_task_id"]
        if ledger is not None and tid and rid_of(owners.get(str(tid), "?")) != r["request_id"]:
            showing_other.append((r["request_id"], str(tid), owners.get(str(tid), "")[:60]))
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
            # a V2 file just passed verify_video with its check, which decodes every frame
            # first: _decodes_as_asked would run the same verify_video again, without the check
            elif deep and not v2 and not _decodes_as_asked(path, r["kind"], params):
                ok = False
            if ledger is not None and rid_of(served.get(m["sha256"], "?")) != r["request_id"]:
                not_own.append(r["request_id"])
                ok = False
        if not ok:
            fake_success.append(r["request_id"])
    out = {
        "tasks": tasks,
        "slots_recorded": len(rows),
        "mix": dict(kinds),
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
    if ledger is not None:
        out.update(
            slots_showing_another_task=len(showing_other),
            media_not_of_own_task=len(not_own),
            lookups=len(lookups),
            contested_lookups=sum("could have made" in (d or "") for _r, d in lookups),
            pairs={
                r["request_id"].rsplit(":", 1)[1]: r["state"]
                for r in rows
                if ":pair" in r["request_id"]
            },
            contested_pairs=len({r for r, d in lookups if ":pair" in r and "could have" in d}),
        )
        out["details"].update(showing_other=showing_other[:20], not_own=not_own[:20])
        out.update(_money(rows, ledger))
    return out


def _mix_kind(kind: str, params: dict[str, Any]) -> str:
    """image, video V1, video V2, music, speech sync or speech async."""
    if kind == "video":
        return "video_v2" if protocol_of(kind, params) == V2 else "video_v1"
    if kind == "speech":
        from app.domain.params_sound import is_async

        return "speech_async" if is_async(kind, params) else "speech_sync"
    return kind


def _money(rows: Any, ledger: dict[str, Any]) -> dict[str, Any]:
    """Each slot's charge as Slate counts it (the domain's rule on the stored figures) against
    what the provider charged for that slot (its ledger). A settled slot must count exactly what
    was billed (an unknown price: unknown, never 0; nothing billed: 0). An unknown slot counts
    its estimate, the most its create can have cost: never less than what was billed."""
    from app.domain.cost import SlotCost, charge
    from app.store.spend import DECLARED_FAILED, amount, provider_billed

    billed: dict[str, list[str | None]] = {}
    for c in ledger["charges"]:
        billed.setdefault(rid_of(c["prompt"]), []).append(c["amount"])
    mismatches, under = [], []
    spend = {"known": Decimal(0), "unknown_slots": 0}
    bill = {"known": Decimal(0), "unknown_items": 0, "items": 0}
    unknown_over = Decimal(0)
    for r in rows:
        slot = SlotCost(
            request_id=r["request_id"],
            model="",
            day="",
            state=r["state"],
            estimate=amount(r["cost_estimate"]),
            reported=amount(r["cost_reported"]),
            declared_failed=r["error_code"] == DECLARED_FAILED,
            billed=provider_billed(r["state"], r["provider_status"]),
        )
        counted = charge(slot)
        if counted is None:
            spend["unknown_slots"] += 1
        else:
            spend["known"] += counted
        items = billed.get(r["request_id"], [])
        bill["items"] += len(items)
        bill["unknown_items"] += sum(a is None for a in items)
        priced: Decimal | None = (
            None if any(a is None for a in items) else sum((Decimal(a) for a in items), Decimal(0))
        )
        if priced is not None:
            bill["known"] += priced
        if r["state"] == "unknown":
            if priced is not None and counted is not None and counted < priced:
                under.append((r["request_id"], str(counted), str(priced)))
            elif priced is not None and counted is not None:
                unknown_over += counted - priced
            continue
        if counted != priced:
            mismatches.append((r["request_id"], r["state"], str(counted), str(priced)))
    return {
        "spend": {k: str(v) for k, v in spend.items()},
        "billed": {k: str(v) for k, v in bill.items()},
        "spend_mismatches": len(mismatches),
        "unknown_slots_counted_below_billed": len(under),
        "unknown_slots_counted_beyond_billed": str(unknown_over),
        "money_details": {"mismatches": mismatches[:20], "under": under[:20]},
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
    size read before decoding), a sound of the format and rate asked, a video frame by frame
    (checked again here, independently)."""
    from app.domain.params_sound import expected_audio, is_sound
    from app.service.media import ImageCheck, VerificationFailed, probe_image, verify_video
    from app.service.sound_media import SoundCheck, verify_sound

    try:
        if kind == "image":
            probe_image(path, ImageCheck.of(params) or ImageCheck(aspect=1.0, ratio="1:1"))
        elif is_sound(kind):
            fmt, rate, channels = expected_audio(kind, params)
            verify_sound(path, SoundCheck(fmt, rate, channels))
        else:
            verify_video(path, None)
    except VerificationFailed:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(description="the fault soak at any size")
    parser.add_argument("count", type=int, nargs="?", default=None, help="as --tasks")
    parser.add_argument("--tasks", type=int, default=None, help="how many slots (default 200)")
    parser.add_argument("--hostile", action="store_true", help="the hostile kinds too")
    parser.add_argument(
        "--world2", action="store_true", help="hostile world II: issue 24's faults and sound"
    )
    parser.add_argument(
        "--store", default=None, help="sqlite (default), pg (a fresh database), or a URL"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--min-kills", type=int, default=25)
    parser.add_argument("--min-faults", type=int, default=20)
    parser.add_argument("--pairs", type=int, default=None, help="competing pairs (tasks/200)")
    args = parser.parse_args(argv)
    tasks = args.tasks or args.count or 200
    budget = args.max_seconds or max(240.0, tasks * 1.2)
    with contextlib.ExitStack() as stack:
        store = args.store
        if store == "sqlite":
            store = None
        elif store == "pg":
            from tests.support.pg import fresh_database

            store = stack.enter_context(fresh_database(migrated=True))
        d = stack.enter_context(tempfile.TemporaryDirectory())
        began = time.monotonic()
        result = soak(
            Path(d),
            tasks=tasks,
            seed=args.seed,
            store=store,
            hostile=args.hostile,
            world2=args.world2,
            max_seconds=budget,
            min_kills=args.min_kills,
            min_faults=args.min_faults,
            pairs=args.pairs if args.pairs is not None else max(1, tasks // 200),
        )
        result["store"] = "pg" if args.store == "pg" else (args.store or "sqlite")
        result["wall_seconds"] = round(time.monotonic() - began, 1)
        print(json.dumps(result, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
