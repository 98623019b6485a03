"""`slate --json doctor`: one JSON object with what Slate finds, field by field; exit 0 when all
is well, 2 (bad configuration) when something stops Slate; it creates nothing and never shows
the API key or the store's password."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from app import doctor
from app.config import load
from app.store.migrate import HEAD_REVISION

RID = "article:20260816:tide-eye:still-01"
KEY = "sk-doctor-secret-4711"
NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
SECTIONS = {"qt", "keyring", "store", "provider", "data_dir", "disk"}


def test_a_fresh_machine_is_fine_and_nothing_is_created(slate, tmp_path):
    fresh = tmp_path / "never-used"
    res = slate("doctor", env={"SLATE_DATA_DIR": str(fresh)})
    assert res.code == 0, res.out
    out = res.out
    assert out["outcome"] == "ok" and out["error"] is None and out["problems"] == []
    assert {
        "outcome",
        "request_id",
        "task",
        "error",
        "version",
        "problems",
        "notes",
    } | SECTIONS <= set(out)
    assert out["data_dir"] == {
        "path": str(fresh),
        "exists": False,
        "mode": None,
        "owner_only": None,
        "owned_by_you": None,
        "writable": True,
    }
    assert out["store"]["backend"] == "sqlite" and out["store"]["exists"] is False
    assert out["store"]["revision"] is None and out["store"]["head"] == HEAD_REVISION
    assert any("does not exist yet" in n for n in out["notes"])
    assert not fresh.exists()  # no data dir, no store, no log folder


def test_sections_after_first_use(slate, data_dir):
    assert slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p").code == 0
    os.chmod(data_dir, 0o700)
    res = slate("doctor")
    assert res.code == 0, res.out
    out = res.out
    assert (
        out["qt"]["platform"] == "offscreen" and out["qt"]["ok"] is True
    )  # the suite is offscreen
    assert out["qt"]["shows_window"] is False and out["qt"]["source"] == "QT_QPA_PLATFORM"
    assert out["qt"]["checks"][0]["libraries_ok"] is True
    assert any("without a window" in n for n in out["notes"])
    assert out["keyring"] == {
        "backend": "tests.support.keyring_backend.MemoryKeyring",
        "usable": True,
    }
    store = out["store"]
    assert store["url"] == f"sqlite:///{data_dir / 'slate.sqlite3'}" and store["reachable"] is True
    assert (
        store["revision"] == HEAD_REVISION
        and store["up_to_date"] is True
        and store["error"] is None
    )
    provider = out["provider"]
    assert provider["name"] == "demo" and provider["region"] == "local"
    assert provider["host"] == "127.0.0.1" and provider["key"] == {
        "present": False,
        "source": "none",
    }
    dd = out["data_dir"]
    assert dd == {
        "path": str(data_dir),
        "exists": True,
        "mode": "0700",
        "owner_only": True,
        "owned_by_you": True,
        "writable": True,
    }
    assert out["disk"]["free_bytes"] > 0 and out["disk"]["total_bytes"] >= out["disk"]["free_bytes"]
    assert out["disk"]["enough"] is True and Path(out["disk"]["path"]) == data_dir
    # readable by others: a note, not a problem
    os.chmod(data_dir, 0o755)
    loose = slate("doctor")
    assert loose.code == 0 and loose.out["data_dir"]["owner_only"] is False
    assert any("chmod 700" in n for n in loose.out["notes"])


def test_the_key_is_reported_never_shown(slate):
    env = {"MINIMAX_API_KEY": KEY, "SLATE_PROVIDER": "minimax", "SLATE_BASE_URL": ""}
    res = slate("doctor", env=env)
    assert res.code == 0, res.out
    p = res.out["provider"]
    assert p["name"] == "minimax" and p["key"] == {"present": True, "source": "env"}
    assert p["base_url"] == "https://api.minimax.io" and p["host"] == "api.minimax.io"
    assert p["region"] == "global"
    assert any("api.minimaxi.com" in n and "only on" in n for n in res.out["notes"])
    assert KEY not in res.stdout + res.stderr
    cn = slate("doctor", env={**env, "SLATE_BASE_URL": "https://api.minimaxi.com"})
    assert cn.out["provider"]["region"] == "cn" and cn.out["provider"]["host"] == "api.minimaxi.com"
    assert KEY not in cn.stdout + cn.stderr
    human = slate_text(slate, env)
    assert KEY not in human


def slate_text(slate, env) -> str:
    from tests.support.fixtures import slate_in_process

    proc = slate_in_process({**os.environ, **env}, "doctor")
    assert proc.returncode == 0, proc.stderr
    assert "provider minimax" in proc.stdout
    return proc.stdout + proc.stderr


def test_minimax_without_a_key_is_bad_configuration(slate):
    res = slate("doctor", env={"SLATE_PROVIDER": "minimax", "SLATE_BASE_URL": ""})
    assert res.code == 2
    assert res.out["outcome"] == "invalid" and res.out["error"]["code"] == "bad_configuration"
    assert any("MINIMAX_API_KEY" in p for p in res.out["problems"])
    assert "MINIMAX_API_KEY" in res.out["error"]["message"]


def test_plain_http_to_a_remote_host_is_bad_configuration(slate):
    res = slate("doctor", env={"SLATE_BASE_URL": "http://api.example.com"})
    assert res.code == 2 and any("plain http" in p for p in res.out["problems"])


def test_no_keyring_is_a_note(slate):
    res = slate("doctor", env=NO_KEYRING)
    assert res.code == 0
    assert res.out["keyring"] == {"backend": "keyring.backends.fail.Keyring", "usable": False}
    assert any("MINIMAX_API_KEY" in n for n in res.out["notes"])


def test_postgresql_store_reachable_without_its_password(slate):
    from sqlalchemy.engine import make_url

    from tests.support.pg import fresh_database

    with fresh_database() as url:
        res = slate("doctor", env={"SLATE_STORE": url})
        assert res.code == 0, res.out
        store = res.out["store"]
        assert store["backend"] == "postgresql" and store["reachable"] is True
        assert store["revision"] is None  # a new database: Slate migrates it on first use
        assert store["url"] == make_url(url).render_as_string(hide_password=True)


def test_unreachable_store_is_a_problem_and_hides_the_password(slate):
    url = "postgresql+psycopg://slate:pw-doctor-9876@127.0.0.1:9/slate"
    res = slate("doctor", env={"SLATE_STORE": url})
    assert res.code == 2
    store = res.out["store"]
    assert store["reachable"] is False and store["error"]
    assert store["url"] == "postgresql+psycopg://slate:***@127.0.0.1:9/slate"
    assert "pw-doctor-9876" not in res.stdout + res.stderr
    assert any(p.startswith("store postgresql+psycopg://slate:***@") for p in res.out["problems"])


def test_data_dir_that_is_a_file(tmp_path):
    target = tmp_path / "a-file"
    target.write_text("x")
    config = load(
        {"data_dir": str(target), "store": f"sqlite:///{tmp_path / 's.sqlite3'}"}, environ={}
    )
    report = doctor.Report()
    doctor.data_dir_section(report, config)
    assert report.problems == [f"data dir {target} is not a folder"]


def test_low_disk_is_a_problem(tmp_path, monkeypatch):
    config = load({"data_dir": str(tmp_path)}, environ={})
    monkeypatch.setattr(
        doctor.shutil,
        "disk_usage",
        lambda _p: shutil._ntuple_diskusage(10 << 30, 10 << 30, 10 << 20),
    )
    report = doctor.Report()
    out = doctor.disk_section(report, config)
    assert out["enough"] is False and out["free_bytes"] == 10 << 20
    assert report.problems and "MB free" in report.problems[0]
