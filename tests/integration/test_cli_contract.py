"""The CLI's JSON keys, outcomes and exit codes (DESIGN.md, "Command line"). The JSON shape and
the key commands (the key read from stdin) run as real processes; the rest in this process."""

from __future__ import annotations

RID = "article:20260816:tide-eye:scene-02"
TASK_KEYS = {
    "handle",
    "kind",
    "state",
    "provider_task_id",
    "fingerprint",
    "params",
    "media",
    "error",
    "allowed_actions",
}
MEDIA_KEYS = {"path", "sha256", "bytes", "content_type", "width", "height"}


def test_json_shape_of_a_created_image(slate_process):
    slate = slate_process
    res = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p", "--n", "2")
    assert res.code == 0
    assert set(res.out) >= {"outcome", "request_id", "task", "error"}
    assert res.out["outcome"] == "created" and res.out["error"] is None
    task = res.out["task"]
    assert TASK_KEYS <= set(task)
    assert len(task["media"]) == 2
    for m in task["media"]:
        assert MEDIA_KEYS <= set(m) and m["content_type"] == "image/png" and len(m["sha256"]) == 64
    assert task["allowed_actions"] == ["export", "open", "new_slot"]
    assert task["provider"] == "demo"


def test_status_by_handle_and_bad_handles(slate):
    res = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p")
    handle = res.out["task"]["handle"]
    ok = slate("status", "--handle", handle)
    assert ok.code == 0 and ok.out["request_id"] == RID
    assert slate("status", "--handle", handle[:-2] + "zz").code == 2
    assert slate("status", "--handle", res.out["task"]["media"][0]["handle"]).code == 2
    other = slate("status", "--handle", handle, "--user", "mei")
    assert other.code == 8 and other.out["outcome"] == "not_found"


def test_wait_gives_up_with_exit_7_and_query_runs_once(slate, demo_sim):
    demo_sim.set_faults()
    res = slate(
        "submit",
        "--request-id",
        RID,
        "--kind",
        "video",
        "--prompt",
        "p",
        env={"SLATE_POLL_INTERVAL": "5"},
    )
    assert res.out["task"]["state"] == "preparing"
    before = demo_sim.stats()["requests_by_endpoint"].get("query_video_generation", 0)
    q = slate("query", RID)
    assert q.code == 0 and q.out["outcome"] == "ok"
    assert demo_sim.stats()["requests_by_endpoint"]["query_video_generation"] == before + 1
    demo_sim.set_faults(status_word=None)
    slow = slate("wait", RID, "--max-seconds", "0", env={"SLATE_POLL_INTERVAL": "5"})
    assert slow.code in (0, 7)
    done = slate("wait", RID, "--max-seconds", "60")
    assert done.code == 0 and done.out["task"]["state"] == "success"


def test_recover_and_export_and_list(slate, tmp_path, demo_sim):
    demo_sim.set_faults(lose_create_response=1)
    res = slate("submit", "--request-id", RID, "--kind", "video", "--prompt", "lost")
    assert res.code == 4 and res.out["outcome"] == "unknown"
    missing = slate("recover", RID, "--declare-failed")
    assert missing.code == 2 and missing.out["error"]["field"] == "reason"
    task_id = [t["task_id"] for t in demo_sim.store.list_tasks()][0]
    rec = slate("recover", RID, "--task-id", task_id)
    assert rec.out["task"]["provider_task_id"] == task_id
    done = slate("wait", RID, "--max-seconds", "60")
    assert done.code == 0 and done.out["task"]["state"] == "success"
    exp = slate("export", RID, "--to", str(tmp_path / "out"))
    assert exp.code == 0 and len(exp.out["exported"]) == 1
    listed = slate("list", "--state", "success")
    assert [s["request_id"] for s in listed.out["slots"]] == [RID]
    bad = slate("list", "--state", "finished")
    assert bad.code == 2
    nf = slate("export", "article:20260816:tide-eye:scene-99", "--to", str(tmp_path))
    assert nf.code == 8


def test_key_commands_use_the_keyring_and_never_print_the_key(slate_process):
    slate = slate_process
    secret = "sk-very-secret-value-123"
    assert slate("key", "status").out["key"]["present"] is False
    res = slate("key", "set", stdin=secret + "\n")
    assert res.code == 0 and secret not in res.stdout
    status = slate("key", "status")
    assert status.out["key"] == {"present": True, "source": "keyring", "keyring_usable": True}
    assert secret not in status.stdout
    assert slate("key", "delete").out["key"]["deleted"] is True
