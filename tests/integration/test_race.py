"""16 real processes submit the same slot at once: exactly one create reaches the provider."""

from __future__ import annotations

from collections import Counter

from tests.support.procs import race, start_racers

RID = "article:20260816:tide-eye:scene-02"


def test_sixteen_processes_one_slot_one_create(slate_env, demo_sim, store_url):
    demo_sim.set_faults(delay_create_response=0.5)  # the winner's create is still in flight
    env = {**slate_env, "SLATE_STORE": store_url}
    argv = ["submit", "--request-id", RID, "--kind", "video", "--prompt", f"race {RID}"]
    results = race(env, [argv] * 16)
    outcomes = Counter(out["outcome"] for _code, out in results)
    assert outcomes == {"created": 1, "replayed": 15}, results
    assert all(code == 0 for code, _ in results), results
    assert all(out["error"] is None for _, out in results)
    stats = demo_sim.stats()
    assert stats["creates_total"] == 1, stats
    assert stats["creates_by_prompt"] == {f"race {RID}": 1}
    fingerprints = {out["task"]["fingerprint"] for _, out in results}
    assert len(fingerprints) == 1
    handles = {out["task"]["handle"] for _, out in results}
    assert len(handles) == 1


def test_sixteen_processes_sixteen_slots_sixteen_creates(slate_env, demo_sim, store_url):
    env = {**slate_env, "SLATE_STORE": store_url}
    argvs = [
        ["submit", "--request-id", f"{RID}-{i:02d}", "--kind", "image", "--prompt", f"p{i}"]
        for i in range(16)
    ]
    results = race(env, argvs)
    assert Counter(out["outcome"] for _c, out in results) == {"created": 16}, results
    assert demo_sim.stats()["creates_total"] == 16


def test_many_processes_opening_a_fresh_store_at_once_all_work(slate_env, tmp_path):
    """First start on a new machine: the store is migrated once, the handle secret made once."""
    envs = [
        {
            **slate_env,
            "SLATE_DATA_DIR": str(tmp_path / f"fresh-{trial}"),
            "SLATE_TEST_KEYRING_FILE": str(tmp_path / f"keyring-{trial}.json"),
        }
        for trial in range(2)
    ]
    # Every race's forking interpreter starts now, side by side: their imports run while the
    # earlier races run, not one after another.
    zygotes = [start_racers(env) for env in envs for _ in ("submit", "status")]
    try:
        for trial, env in enumerate(envs):
            argvs = [
                ["submit", "--request-id", f"{RID}-{i:02d}", "--kind", "image", "--prompt", f"f{i}"]
                for i in range(12)
            ]
            results = race(env, argvs, racers=zygotes[2 * trial])
            odd = [
                (code, out["outcome"], out["error"])
                for code, out in results
                if out["outcome"] != "created"
            ]
            if odd:  # say what went wrong, with the log's last lines (a race here is rare)
                log = tmp_path / f"fresh-{trial}" / "logs" / "slate.log"
                tail = log.read_text(errors="replace")[-6000:] if log.exists() else "(no log)"
                raise AssertionError(f"not created: {odd}\n--- slate.log ---\n{tail}")
            assert Counter(out["outcome"] for _c, out in results) == {"created": 12}, results
            handles = [out["task"]["handle"] for _c, out in results]
            status = race(
                env,
                [["status", "--handle", h] for h in handles[::3]],
                racers=zygotes[2 * trial + 1],
            )
            assert all(code == 0 for code, _ in status), status  # one secret for all of them
    finally:
        for zygote in zygotes:  # those a failure left unused
            if zygote.poll() is None:
                zygote.kill()
                zygote.communicate()
