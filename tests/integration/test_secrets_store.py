"""The API key never reaches the store, the logs, exports or any JSON Slate prints."""

from __future__ import annotations

from pathlib import Path

KEY = "sk-slate-distinctive-key-7f3a9c"
RID = "article:20260816:tide-eye:scene-02"


def _every_file_bytes(root: Path) -> list[tuple[Path, bytes]]:
    return [(p, p.read_bytes()) for p in root.rglob("*") if p.is_file()]


def test_key_is_nowhere_after_a_faulty_run(slate, data_dir, demo_sim, tmp_path):
    env = {"MINIMAX_API_KEY": KEY, "SLATE_PROVIDER": "", "SLATE_BASE_URL": demo_sim.base_url}
    outputs = []
    demo_sim.set_faults(lose_create_response=1)
    outputs.append(
        slate(
            "--verbose", "submit", "--request-id", RID, "--kind", "video", "--prompt", "p", env=env
        )
    )
    assert outputs[-1].out["outcome"] == "unknown"
    assert outputs[-1].out["task"]["provider"] == "minimax"  # a key exists: MiniMax is the default
    outputs.append(
        slate(
            "--verbose",
            "submit",
            "--request-id",
            RID + "-img",
            "--kind",
            "image",
            "--prompt",
            "p",
            "--n",
            "2",
            env=env,
        )
    )
    outputs.append(slate("recover", RID, "--lookup", env=env))
    outputs.append(slate("history", RID, env=env))
    outputs.append(slate("export", RID + "-img", "--to", str(tmp_path / "export"), env=env))
    outputs.append(slate("key", "status", env=env))
    demo_sim.set_faults(rate_limit=2)
    outputs.append(
        slate(
            "--verbose",
            "submit",
            "--request-id",
            RID + "-2",
            "--kind",
            "image",
            "--prompt",
            "q",
            env=env,
        )
    )
    for res in outputs:
        assert KEY not in res.stdout and KEY not in res.stderr
    assert outputs[-1].out["outcome"] == "created"
    files = _every_file_bytes(data_dir) + _every_file_bytes(tmp_path / "export")
    assert any(p.suffix == ".sqlite3" for p, _ in files)
    assert any(p.name == "slate.log" for p, _ in files)
    for path, data in files:
        assert KEY.encode() not in data, path
    log = (data_dir / "logs" / "slate.log").read_text()
    assert "POST" in log or "create" in log.lower()  # the log is really written
