"""Tidy-up that never touches the ledger (DESIGN.md: `hide` / `unhide`, `prune-media`): on both
stores, through the service on the demo provider over HTTP, and through the `slate` command.

What must hold: a hidden slot leaves the browser and the gallery but keeps its record (status,
history, list, spend, and a submit of the same intent is `replayed`, nothing sent); deleting a
slot's media deletes the files only — the slot, its fingerprint, its events and its cost stay,
the media rows keep their SHA-256 and are marked removed, and the same RequestId with the same
parameters is still `replayed` (no create).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.service.commands import Redownload
from app.store.rows import SlotFilter

RID = "article:20260816:tide-eye:scene-02"
OTHER = "article:20260816:tide-eye:scene-03"
IMAGE = {"prompt": "a lighthouse at dusk"}


def _creates(h) -> int:
    return int(h.sim.stats()["requests_by_endpoint"].get("image_generation", 0))


async def _browser_ids(h, **flt) -> set[str]:
    svc = h.service
    scope = svc.ctx.scope
    f = SlotFilter(**flt)
    out: set[str] = set()
    for g in await h.store.projects(scope, f):
        for d in await h.store.days(scope, f, g.key):
            out |= {r.request_id for r in await h.store.slots(scope, f, g.key, d.key)}
    return out


async def _gallery_ids(h, **flt) -> set[str]:
    rows = await h.store.results(h.service.ctx.scope, SlotFilter(**flt))
    return {r.request_id for r in rows}


async def test_a_hidden_slot_leaves_the_browser_and_keeps_its_record(harness) -> None:
    h = harness
    svc = h.service
    for rid in (RID, OTHER):
        assert (await svc.submit(rid, "image", IMAGE)).kind.value == "created"
    before = await svc.history(RID)
    hidden = await svc.hide(RID)
    assert hidden.kind.value == "ok" and hidden.task is not None and hidden.task.hidden
    assert await _browser_ids(h) == {OTHER}
    assert await _gallery_ids(h) == {OTHER}
    assert await _browser_ids(h, hidden=True) == {RID, OTHER}  # "show hidden" still finds it
    again = await svc.hide(RID)  # hiding twice changes nothing and is not an error
    assert again.kind.value == "ok"
    # The record answers as before: status, list, the same intent replayed — nothing sent.
    sent = _creates(h)
    status = await svc.status(RID)
    assert status.task is not None and status.task.state.value == "success"
    assert status.task.fingerprint == before.task.fingerprint
    replay = await svc.submit(RID, "image", IMAGE)
    assert replay.kind.value == "replayed" and _creates(h) == sent
    listed = await svc.list_slots()
    assert {v.request_id for v in listed.payload.slots} == {RID, OTHER}
    events = [e.event for e in (await svc.history(RID)).payload.events]
    assert events.count("hidden") == 1
    shown = await svc.unhide(RID)
    assert shown.kind.value == "ok" and not shown.task.hidden
    assert await _browser_ids(h) == {RID, OTHER}
    assert "unhidden" in [e.event for e in (await svc.history(RID)).payload.events]


async def test_pruning_media_deletes_the_files_only_and_the_slot_still_replays(harness) -> None:
    h = harness
    svc = h.service
    made = await svc.submit(RID, "image", {**IMAGE, "n": 2})
    assert made.kind.value == "created"
    files = [Path(m.path) for m in made.task.media]
    assert len(files) == 2 and all(f.exists() for f in files)
    before_task = await h.store.slot(svc.ctx.scope, svc.ctx.slot(RID).slot_key)
    before_events = [
        (e.event, e.at) for e in await h.store.history(svc.ctx.scope, before_task.slot_key)
    ]
    spend_before = (await svc.spend()).payload.spend.to_json()

    pruned = await svc.prune_media(RID)
    assert pruned.kind.value == "ok"
    assert pruned.payload.files == 2 and pruned.payload.bytes == sum(
        m.bytes for m in made.task.media
    )
    assert not any(f.exists() for f in files)
    view = pruned.task
    assert view.media == [] and [m.sha256 for m in view.removed_media] == [
        m.sha256 for m in made.task.media
    ]
    # The ledger is untouched: the task row (state, fingerprint, cost, ids), every earlier event.
    after_task = await h.store.slot(svc.ctx.scope, before_task.slot_key)
    for field in ("id", "state", "fingerprint", "params", "provider_task_id", "cost_estimate",
                  "cost_reported", "cost_day", "request_id", "idempotency_key"):  # fmt: skip
        assert getattr(after_task, field) == getattr(before_task, field), field
    after_events = [
        (e.event, e.at) for e in await h.store.history(svc.ctx.scope, before_task.slot_key)
    ]
    assert after_events[: len(before_events)] == before_events
    assert [e for e, _ in after_events[len(before_events) :]] == ["media_removed"]
    assert (await svc.spend()).payload.spend.to_json() == spend_before
    # The same RequestId with the same parameters: replayed, no create.
    sent = _creates(h)
    replay = await svc.submit(RID, "image", {**IMAGE, "n": 2})
    assert replay.kind.value == "replayed" and _creates(h) == sent
    # Export says where the files went instead of copying nothing.
    exported = await svc.export(RID, h.config.data_dir / "out")
    assert exported.problem is not None and "prune-media" in exported.problem.message
    # Pruning again deletes nothing more and says so.
    again = await svc.prune_media(RID)
    assert again.kind.value == "ok" and again.payload.files == 0
    # The provider still has the images: recover --redownload is offered and brings them back,
    # verified, the slot still a success — and still no create.
    assert "recover" in [a.value for a in again.task.allowed_actions]
    back = await svc.recover(RID, Redownload())
    assert back.kind.value == "ok", back.problem
    assert back.task.state.value == "success" and back.task.removed_media == []
    assert [m.sha256 for m in back.task.media] == [m.sha256 for m in made.task.media]
    assert all(Path(m.path).exists() for m in back.task.media)
    assert "recover" not in [a.value for a in back.task.allowed_actions]
    assert _creates(h) == sent
    done = await h.store.slot(svc.ctx.scope, before_task.slot_key)
    assert (done.fingerprint, done.cost_estimate, done.state) == (
        before_task.fingerprint, before_task.cost_estimate, before_task.state
    )  # fmt: skip
    # Media here: nothing to download again (the state's own rules answer).
    refused = await svc.recover(RID, Redownload())
    assert refused.kind.value == "invalid"


async def test_prune_older_than_takes_only_old_media_of_this_user(harness) -> None:
    h = harness
    svc = h.service
    mei = h.other(user="mei")
    for rid in (RID, OTHER):
        assert (await svc.submit(rid, "image", IMAGE)).kind.value == "created"
    theirs = await mei.submit(RID, "image", IMAGE)
    assert theirs.kind.value == "created"
    # RID's media were verified 40 days ago, OTHER's now.
    old = (await svc.status(RID)).task.media[0]
    with h.store.engine.begin() as conn:
        from app.store.models import media_t, tasks

        conn.execute(
            media_t.update()
            .where(media_t.c.path.in_(
                [m.path for m in (await h.store.slot(svc.ctx.scope, svc.ctx.slot(RID).slot_key)).media]
            ))
            .values(verified_at=time.time() - 40 * 86_400)
        )  # fmt: skip
        assert tasks is not None
    pruned = await svc.prune_media(older_than_days="30")
    assert pruned.kind.value == "ok"
    assert [s.request_id for s in pruned.payload.slots] == [RID]
    assert not Path(old.path).exists()
    assert all(Path(m.path).exists() for m in (await svc.status(OTHER)).task.media)
    assert all(Path(m.path).exists() for m in (await mei.status(RID)).task.media)
    for bad in ("-1", "abc", "nan", "1e9"):
        refused = await svc.prune_media(older_than_days=bad)
        assert refused.kind.value == "invalid" and refused.problem.field == "older_than"


def test_hide_unhide_and_prune_media_on_the_command_line(slate) -> None:
    made = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p")
    assert made.code == 0
    path = made.out["task"]["media"][0]["path"]
    hidden = slate("hide", RID)
    assert hidden.code == 0 and hidden.out["outcome"] == "ok"
    assert hidden.out["request_id"] == RID and hidden.out["task"]["hidden"] is True
    assert slate("unhide", RID).out["task"]["hidden"] is False
    pruned = slate("prune-media", RID)
    assert pruned.code == 0 and pruned.out["outcome"] == "ok"
    assert pruned.out["files"] == 1 and pruned.out["pruned"][0]["request_id"] == RID
    assert pruned.out["task"]["media"] == [] and pruned.out["task"]["state"] == "success"
    assert pruned.out["task"]["removed_media"][0]["path"] == path and not os.path.exists(path)
    again = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p")
    assert again.code == 0 and again.out["outcome"] == "replayed"
    assert slate("hide", OTHER).code == 8  # no such slot: not_found
    bad = slate("hide", "not a request id")
    assert bad.code == 2 and bad.out["error"]["field"] == "request_id"
    both = slate("prune-media", RID, "--older-than", "3")
    assert both.code == 2 and both.out["outcome"] == "invalid"
    neither = slate("prune-media")
    assert neither.code == 2 and neither.out["error"]["field"] == "request_id"
    back = slate("recover", RID, "--redownload")
    assert (
        back.code == 0
        and back.out["task"]["media"][0]["sha256"] == made.out["task"]["media"][0]["sha256"]
    )
    assert os.path.exists(back.out["task"]["media"][0]["path"])
    old = slate("prune-media", "--older-than", "0")
    assert old.code == 0 and old.out["files"] == 1 and old.out["older_than_days"] == 0


@pytest.mark.parametrize("model", ["MiniMax-Hailuo-2.3", "MiniMax-H3"])
async def test_a_pruned_video_comes_back_by_redownload_without_a_create(harness, model) -> None:
    h = harness
    svc = h.service
    made = await svc.submit(
        RID, "video", {"prompt": "waves", "model": model, "duration": 6}, wait=True, max_seconds=60
    )
    assert made.task is not None and made.task.state.value == "success", made.problem
    sha = [m.sha256 for m in made.task.media]
    creates = dict(h.sim.stats()["requests_by_endpoint"])
    pruned = await svc.prune_media(RID)
    assert pruned.payload.files == 1 and not Path(made.task.media[0].path).exists()
    back = await svc.recover(RID, Redownload())
    assert back.kind.value == "ok", back.problem
    assert [m.sha256 for m in back.task.media] == sha and Path(back.task.media[0].path).exists()
    now = h.sim.stats()["requests_by_endpoint"]
    assert {k: v for k, v in now.items() if "generation" in k and "query" not in k} == {
        k: v for k, v in creates.items() if "generation" in k and "query" not in k
    }
