"""The `slate` command, a real process, answers with one JSON object and the contract's exit
codes (the process boundary itself: its exit status, nothing else on stdout)."""

RID = "article:20260816:tide-eye:scene-02"


def test_submit_then_replay_then_conflict(slate_process):
    slate = slate_process
    first = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "tide eye")
    assert first.code == 0, first
    assert first.out["outcome"] == "created"
    assert first.out["task"]["state"] == "success"
    again = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "tide eye")
    assert again.out["outcome"] == "replayed" and again.code == 0
    changed = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "tide eye ")
    assert changed.out["outcome"] == "conflict" and changed.code == 3
