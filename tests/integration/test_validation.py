"""Every validation rule: exit 2, a message naming the field, nothing stored, nothing sent.

Runs the real `slate` entry point in-process (``app.cli.main``) against a demo provider over
loopback, then checks the provider saw no request and the store holds no task.
"""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from app.cli import main

RID = "article:20260816:tide-eye:scene-02"
PNG_DATA = "data:image/png;base64,iVBORw0KGgo="

CASES = [
    # (field named in the message, submit arguments)
    ("request_id", ["--request-id", "short", "--kind", "video", "--prompt", "p"]),
    ("request_id", ["--request-id", "scene 02 with spaces", "--kind", "video", "--prompt", "p"]),
    ("request_id", ["--request-id", "x" * 121, "--kind", "video", "--prompt", "p"]),
    ("prompt", ["--kind", "video", "--prompt", "x" * 2001]),
    ("prompt", ["--kind", "image", "--prompt", "x" * 1501]),
    ("prompt", ["--kind", "video"]),
    ("prompt", ["--kind", "image", "--prompt", "   "]),
    (
        "resolution",
        ["--kind", "video", "--prompt", "p", "--duration", "10", "--resolution", "1080P"],
    ),
    ("resolution", ["--kind", "video", "--prompt", "p", "--resolution", "4K"]),
    (
        "resolution",
        [
            "--kind",
            "video",
            "--prompt",
            "p",
            "--model",
            "MiniMax-Hailuo-02",
            "--resolution",
            "512P",
        ],
    ),
    ("duration", ["--kind", "video", "--prompt", "p", "--duration", "8"]),
    ("duration", ["--kind", "video", "--prompt", "p", "--duration", "six"]),
    ("model", ["--kind", "video", "--prompt", "p", "--model", "Hailuo-9"]),
    ("model", ["--kind", "image", "--prompt", "p", "--model", "MiniMax-Hailuo-2.3"]),
    (
        "first_frame_image",
        ["--kind", "video", "--prompt", "p", "--model", "MiniMax-Hailuo-2.3-Fast"],
    ),
    ("first_frame_image", ["--kind", "video", "--prompt", "p", "--model", "I2V-01"]),
    (
        "first_frame_image",
        ["--kind", "video", "--prompt", "p", "--first-frame", "http://example.test/a.png"],
    ),
    (
        "first_frame_image",
        ["--kind", "video", "--prompt", "p", "--first-frame", "data:image/gif;base64,R0lG"],
    ),
    (
        "first_frame_image",
        ["--kind", "video", "--prompt", "p", "--first-frame", "/no/such/file.png"],
    ),
    ("last_frame_image", ["--kind", "video", "--prompt", "p", "--last-frame", PNG_DATA]),
    (
        "last_frame_image",
        [
            "--kind",
            "video",
            "--prompt",
            "p",
            "--model",
            "MiniMax-Hailuo-02",
            "--last-frame",
            PNG_DATA,
        ],
    ),
    ("subject_reference", ["--kind", "video", "--prompt", "p", "--model", "S2V-01"]),
    ("subject_reference", ["--kind", "image", "--prompt", "p", "--subject-reference", "ftp://x"]),
    ("aspect_ratio", ["--kind", "image", "--prompt", "p", "--aspect-ratio", "5:4"]),
    ("n", ["--kind", "image", "--prompt", "p", "--n", "0"]),
    ("n", ["--kind", "image", "--prompt", "p", "--n", "10"]),
    ("n", ["--kind", "image", "--prompt", "p", "--n", "two"]),
    ("seed", ["--kind", "image", "--prompt", "p", "--seed", "-1"]),
    ("duration", ["--kind", "image", "--prompt", "p", "--duration", "6"]),
    ("aspect_ratio", ["--kind", "video", "--prompt", "p", "--aspect-ratio", "16:9"]),
    ("n", ["--kind", "video", "--prompt", "p", "--n", "2"]),
]


@pytest.fixture
def cli_env(monkeypatch, data_dir, demo_sim, tmp_path):
    monkeypatch.setenv("SLATE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("SLATE_PROVIDER", "demo")
    monkeypatch.setenv("SLATE_BASE_URL", demo_sim.base_url)
    monkeypatch.setenv("SLATE_TEST_KEYRING_FILE", str(tmp_path / "keyring.json"))
    return demo_sim


def _run(capsys, *args):
    code = main(["--json", *args])
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    return code, json.loads(out[0])


@pytest.mark.parametrize("field, args", CASES, ids=[f"{i:02d}-{c[0]}" for i, c in enumerate(CASES)])
def test_invalid_submit_is_refused_before_anything(cli_env, capsys, data_dir, field, args):
    if "--request-id" not in args:
        args = ["--request-id", RID, *args]
    code, out = _run(capsys, "submit", *args)
    assert code == 2, out
    assert out["outcome"] == "invalid"
    assert out["task"] is None
    assert field in out["error"]["message"], out["error"]
    assert out["error"].get("field") == field
    stats = cli_env.stats()
    assert stats["requests_total"] == 0, stats
    engine = sa.create_engine(f"sqlite:///{data_dir / 'slate.sqlite3'}")
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == 0
        assert conn.execute(sa.text("SELECT count(*) FROM slot_events")).scalar() == 0
    engine.dispose()


def test_usage_errors_answer_json_with_exit_2(cli_env, capsys):
    code, out = _run(capsys, "submit", "--kind", "video")
    assert code == 2 and out["outcome"] == "invalid" and "request-id" in out["error"]["message"]
    code, out = _run(capsys, "frobnicate")
    assert code == 2 and out["outcome"] == "invalid"


def test_global_options_work_before_and_after_the_command(cli_env, capsys):
    code, out = _run(
        capsys, "--user", "mei", "submit", "--request-id", RID, "--kind", "image", "--prompt", "p"
    )
    assert code == 0 and out["outcome"] == "created"
    code, out = _run(capsys, "status", RID, "--user", "mei")
    assert code == 0 and out["task"]["state"] == "success"
    code, out = _run(capsys, "status", RID, "--user", "lin")
    assert code == 8 and out["outcome"] == "not_found"


def test_bad_global_option_values_name_the_option(cli_env, capsys):
    code, out = _run(capsys, "--timeout", "soon", "quota")
    assert code == 2 and out["error"]["field"] == "timeout"
    code, out = _run(capsys, "--provider", "openai", "quota")
    assert code == 2 and out["error"]["field"] == "provider"
    code, out = _run(capsys, "--provider", "minimax", "--base-url", "http://example.test", "quota")
    assert code == 2
