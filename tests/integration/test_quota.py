"""Daily quota: counted in the claim transaction, so racing processes never exceed it."""

from __future__ import annotations

from collections import Counter

from app.cli import exit_code
from app.service.results import OutcomeKind
from tests.support.procs import race

RID = "article:20260816:tide-eye:scene-"


def test_video_quota_under_eight_racing_processes(slate_env, demo_sim, store_url, slate):
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_QUOTA_VIDEO": "3"}
    argvs = [
        ["submit", "--request-id", f"{RID}{i:02d}", "--kind", "video", "--prompt", f"q{i}"]
        for i in range(8)
    ]
    results = race(env, argvs)
    outcomes = Counter(out["outcome"] for _c, out in results)
    assert outcomes == {"created": 3, "quota_exceeded": 5}, results
    assert all(code == 5 for code, out in results if out["outcome"] == "quota_exceeded")
    assert demo_sim.stats()["creates_total"] == 3  # nothing sent for the refused ones
    quota = slate("quota", env=env)
    assert quota.out["quota"]["video"] == {"used": 3, "limit": 3}
    refused = next(out for _c, out in results if out["outcome"] == "quota_exceeded")
    hist = slate("history", refused["request_id"], env=env)
    assert [e["event"] for e in hist.out["events"]] == ["quota_refused"]


async def test_image_quota_counts_images_and_unknown_creates_count(harness):
    svc = harness.other(quota_image=5)
    assert (
        await svc.submit(RID + "01", "image", {"prompt": "a", "n": 3})
    ).kind is OutcomeKind.CREATED
    over = await svc.submit(RID + "02", "image", {"prompt": "b", "n": 3})
    assert over.kind is OutcomeKind.QUOTA_EXCEEDED and exit_code(over) == 5
    assert (
        await svc.status(RID + "02")
    ).kind is OutcomeKind.NOT_FOUND  # nothing stored but history
    harness.sim.set_faults(lose_create_response=1)
    assert (
        await svc.submit(RID + "03", "image", {"prompt": "c", "n": 2})
    ).kind is OutcomeKind.UNKNOWN
    q = (await svc.quota()).payload.image
    assert (q.used, q.limit) == (5, 5)
    assert (
        await svc.submit(RID + "04", "image", {"prompt": "d"})
    ).kind is OutcomeKind.QUOTA_EXCEEDED
    # a replay of an existing slot never counts again
    assert (
        await svc.submit(RID + "01", "image", {"prompt": "a", "n": 3})
    ).kind is OutcomeKind.REPLAYED
