"""Daily quota: counted in the claim transaction, so racing processes never exceed it."""

from __future__ import annotations

from collections import Counter

from tests.procs import race

RID = "article:20260816:tide-eye:scene-"


def test_video_quota_under_eight_racing_processes(slate_env, demo_sim, store_url, slate):
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_QUOTA_VIDEO": "3"}
    argvs = [["submit", "--request-id", f"{RID}{i:02d}", "--kind", "video", "--prompt", f"q{i}"]
             for i in range(8)]
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
    assert (await svc.submit(RID + "01", "image", {"prompt": "a", "n": 3})).outcome == "created"
    over = await svc.submit(RID + "02", "image", {"prompt": "b", "n": 3})
    assert over.outcome == "quota_exceeded" and over.code == 5
    assert (await svc.status(RID + "02")).outcome == "not_found"  # nothing stored but history
    harness.sim.set_faults(lose_create_response=1)
    assert (await svc.submit(RID + "03", "image", {"prompt": "c", "n": 2})).outcome == "unknown"
    q = (await svc.quota()).extra["quota"]["image"]
    assert q == {"used": 5, "limit": 5}
    assert (await svc.submit(RID + "04", "image", {"prompt": "d"})).outcome == "quota_exceeded"
    # a replay of an existing slot never counts again
    assert (await svc.submit(RID + "01", "image", {"prompt": "a", "n": 3})).outcome == "replayed"
