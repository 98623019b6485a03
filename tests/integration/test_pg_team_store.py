"""A team store: every `slate` command on PostgreSQL, values only SQLite would take, and why a
SQLite file on a network share is refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.domain.errors import ValidationError
from app.store import engine as engine_mod
from app.store.engine import make_engine
from app.domain.states import State
from app.store.repository import Repository
from app.store.rows import ClaimRequest, ClaimWrite, Scope
from tests.support.pg import fresh_database

RID = "article:20260816:quay:scene-03"


@pytest.fixture
def pg_url():
    with fresh_database() as url:
        yield url


def test_every_command_works_on_a_pg_store(slate, pg_url, tmp_path, demo_sim):
    env = {"SLATE_STORE": pg_url}
    out = slate(
        "submit", "--request-id", RID, "--kind", "video", "--prompt", "quay", "--wait", env=env
    )
    assert out.code == 0 and out.out["outcome"] == "created", out
    assert out.out["task"]["state"] == "success"
    assert slate("status", RID, env=env).out["task"]["state"] == "success"
    assert slate("status", "--handle", out.out["task"]["handle"], env=env).code == 0
    assert slate("query", RID, env=env).code in (0, 2)  # a success offers no query: invalid
    hist = slate("history", RID, env=env).out
    assert [e["event"] for e in hist["events"]][:1] == ["submitted"]
    listed = slate("list", "--state", "success", env=env).out
    assert [s["request_id"] for s in listed["slots"]] == [RID]
    assert slate("quota", env=env).out["quota"]["video"]["used"] == 1
    exported = slate("export", RID, "--to", str(tmp_path / "out"), env=env)
    assert exported.code == 0 and len(list((tmp_path / "out").iterdir())) == 1
    again = slate("submit", "--request-id", RID, "--kind", "video", "--prompt", "quay", env=env)
    assert again.out["outcome"] == "replayed"
    other = slate("--user", "mei", "status", RID, env=env)
    assert other.code == 8  # another designer of the team does not see lin's slot
    assert demo_sim.stats()["creates_total"] == 1


def test_values_postgresql_cannot_store_do_not_break_a_transition(store_url):
    """NUL characters, NaN in a raw answer, an absurdly long status word: SQLite stores them as
    they are; PostgreSQL gets a cleaned copy (no NUL, no NaN) instead of an error after a create
    was sent. Status words are TEXT (migration 0005): stored whole on both."""
    repo = Repository(make_engine(store_url))
    try:
        scope = Scope("studio-a", "u" * 64, "demo", "local")
        write = ClaimWrite(
            idempotency_key="k" * 64,
            request_id=RID,
            params={"prompt": "p"},
            units=1,
            owner=("h", 1, 1.0),
            lease_until=time.time() + 60,
            quota_limit=None,
            day="2026-08-16",
        )
        claim = repo.claim(
            ClaimRequest(scope, "s" * 64, "video", "f" * 64, time.time(), lambda: write)
        )
        assert claim.task is not None
        word = "Processing-" + "x" * 200
        new = repo.transition(
            claim.task,
            expect=[State.SUBMITTING],
            state=State.UNKNOWN,
            provider_status=word,
            error_code="unknown_status",
            error_message="bad \x00 byte",
            event="unknown",
            detail="raw \x00",
            data={"raw": {"progress": float("nan"), "msg": "a\x00b"}},
            results={"n": float("inf")},
        )
        assert new is not None and new.state == "unknown"
        assert new.provider_status == word
        if repo.dialect == "postgresql":
            assert "\x00" not in (new.error_message or "")
        hist = repo.history(scope, "s" * 64)
        assert [e.event for e in hist][-1] == "unknown"
    finally:
        repo.engine.dispose()


def _fake_mounts(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    real = Path.read_text

    def read_text(self: Path, *a, **kw):  # type: ignore[no-untyped-def]
        if str(self) == "/proc/mounts":
            return text
        return real(self, *a, **kw)

    monkeypatch.setattr(engine_mod.Path, "read_text", read_text)


@pytest.mark.parametrize("fstype", ["nfs4", "cifs", "smb3", "fuse.sshfs"])
def test_sqlite_on_a_network_share_is_refused(tmp_path, monkeypatch, fstype):
    share = tmp_path / "share"
    share.mkdir()
    _fake_mounts(
        monkeypatch, f"/dev/sda1 / ext4 rw 0 0\nfiler:/team {share.resolve()} {fstype} rw 0 0\n"
    )
    with pytest.raises(ValidationError) as err:
        make_engine(f"sqlite:///{share / 'slate.sqlite3'}")
    msg = str(err.value)
    assert fstype in msg and "PostgreSQL" in msg
    assert not (share / "slate.sqlite3").exists()


def test_sqlite_on_a_local_disk_next_to_a_share_is_fine(tmp_path, monkeypatch):
    local = tmp_path / "local"
    share = tmp_path / "local-share"  # a prefix of the name is not the same mount
    local.mkdir()
    share.mkdir()
    _fake_mounts(
        monkeypatch, f"/dev/sda1 / ext4 rw 0 0\nfiler:/team {share.resolve()} nfs rw 0 0\n"
    )
    eng = make_engine(f"sqlite:///{local / 'slate.sqlite3'}")
    eng.dispose()


def test_cli_refuses_sqlite_on_a_share_with_one_json_error(tmp_path, monkeypatch, capsys):
    """The refusal reaches the user of `slate` as one JSON object (exit 2) naming PostgreSQL."""
    import json

    from app.cli import main

    share = tmp_path / "share"
    share.mkdir()
    _fake_mounts(monkeypatch, f"filer:/team {share.resolve()} nfs4 rw 0 0\n")
    code = main(
        [
            "--json",
            "--data-dir",
            str(tmp_path / "data"),
            "--provider",
            "demo",
            "--store",
            f"sqlite:///{share / 'slate.sqlite3'}",
            "quota",
        ]
    )
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip()]
    assert len(lines) == 1, lines
    out = json.loads(lines[0])
    assert code == 2 and out["outcome"] == "invalid", out
    message = out["error"]["message"]
    assert "nfs4 file system" in message and "not reliable" in message and "PostgreSQL" in message


def test_without_postgresql_binaries_the_pg_half_fails_loudly(monkeypatch):
    """A developer without PostgreSQL gets a failure that says what to install, never a skip."""
    from tests.support import pg

    monkeypatch.setattr(pg, "find_pg_bin", lambda: None)
    with pytest.raises(pytest.fail.Exception, match="Install the Debian package `postgresql`"):
        pg._start_own_server()
