"""The API key never lands on disk or in output, whatever the provider sends back (issue 15,
point 14).

A server that echoed the key in its ``Trace-Id`` header got it into the store and ``history``.
Here a hostile server on loopback echoes the key in every place a provider controls — the
``Trace-Id`` header, a status word, an error message, a task id, a raw body field — and the real
`slate` command runs submit, wait, query, status, history, list and export against it, verbose,
with the key in the keyring (which the log filter does not know by itself) and in the
environment. The key must then be in no store row (the SQLite file's bytes; every table's text
on PostgreSQL), no log file, no exported file and no CLI output.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.support.fixtures import run_slate_in_process
from tests.support.hostile import Answer, HostileServer, ok
from tests.support.sim_media import image_bytes

KEY = "sk-hostile-echo-7f3a9c1e5b2d4f6a8c0e"
IMG, FAILS, ODD = (
    "article:20260816:tide-eye:scene-01",
    "article:20260816:tide-eye:scene-02",
    "article:20260816:tide-eye:scene-03",
)


def store_text(store_url: str, data_dir: Path) -> str:
    """Everything the store holds, as text: the SQLite files' bytes, or every PostgreSQL row."""
    if store_url.startswith("sqlite"):
        return "".join(p.read_bytes().decode("latin-1") for p in data_dir.glob("slate.sqlite3*"))
    engine = sa.create_engine(store_url)
    try:
        with engine.connect() as conn:
            out = []
            for table in sa.inspect(conn).get_table_names():
                rows = conn.execute(sa.text(f'SELECT t::text FROM "{table}" t')).scalars()
                out.extend(rows)
            return "\n".join(out)
    finally:
        engine.dispose()


def hostile_echo() -> HostileServer:
    trace = {"Trace-Id": KEY}
    server = HostileServer({})
    base = server.base_url
    server.script.update(
        {
            "POST /v1/image_generation": [
                Answer(
                    ok(
                        id=f"img-{KEY}",
                        data={"image_urls": [f"{base}/media/one.png"]},
                        metadata={"success_count": 1, "failed_count": 0},
                        note=KEY,
                    ),
                    headers=trace,
                )
            ],
            "GET /media/one.png": [
                Answer(image_bytes(64, 64), content_type="image/png", headers=trace)
            ],
            "POST /v1/video_generation": [Answer(ok(task_id="vt-1"), headers=trace)],
            "GET /v1/query/video_generation": [
                Answer(
                    {
                        "task_id": "vt-1",
                        "status": "Fail",
                        "echo": {KEY: KEY},
                        "base_resp": {"status_code": 1027, "status_msg": f"refused: {KEY} is bad"},
                    },
                    headers=trace,
                )
            ],
        }
    )
    return server


@pytest.mark.parametrize("source", ["keyring", "env"])
def test_the_key_echoed_by_the_provider_is_in_no_row_log_export_or_output(
    tmp_path, data_dir, store_url, source
):
    server = hostile_echo()
    env = dict(os.environ)
    env.update(
        SLATE_DATA_DIR=str(data_dir),
        SLATE_PROVIDER="minimax",
        SLATE_BASE_URL=server.base_url,
        SLATE_TENANT="studio-a",
        SLATE_USER="lin",
        SLATE_POLL_INTERVAL="0.05",
        SLATE_TIMEOUT="5",
        SLATE_STORE=store_url,
        SLATE_TEST_KEYRING_FILE=str(tmp_path / "keyring.json"),
    )
    if source == "env":
        env["MINIMAX_API_KEY"] = KEY
    else:
        assert run_slate_in_process(env, "key", "set", stdin=KEY + "\n").code == 0
    outputs: list[str] = []

    def slate(*args: str) -> dict:
        res = run_slate_in_process(env, "--verbose", *args)
        outputs.append(res.stdout + res.stderr)
        return res.out

    try:
        made = slate("submit", "--request-id", IMG, "--kind", "image", "--prompt", "p")
        assert made["outcome"] == "created" and made["task"]["state"] == "success", made
        assert (
            slate("submit", "--request-id", FAILS, "--kind", "video", "--prompt", "p")["outcome"]
            == "created"
        )
        waited = slate("wait", FAILS, "--max-seconds", "20")
        assert waited["task"]["state"] == "fail", waited
        server.script["GET /v1/query/video_generation"] = [
            Answer(ok(task_id="vt-2", status=f"Queueing-{KEY}"), headers={"Trace-Id": KEY})
        ]
        server.script["POST /v1/video_generation"] = [Answer(ok(task_id="vt-2"))]
        slate("submit", "--request-id", ODD, "--kind", "video", "--prompt", "p")
        odd = slate("query", ODD)
        assert odd["task"]["state"] == "unknown", odd  # an unknown status word, kept scrubbed
        for rid in (IMG, FAILS, ODD):
            slate("status", rid)
            history = slate("history", rid)
            assert history["events"], history
        slate("list")
        exported = slate("export", IMG, "--to", str(tmp_path / "out"))
        assert exported["outcome"] == "ok" and exported["exported"], exported
        # the key did reach the server (so each echo above was the real key) ...
        assert f"Bearer {KEY}" in server.authorizations
        # ... and came back: the status word and the message are kept, the key cut out
        kept = store_text(store_url, data_dir)
        assert "Queueing-" in kept and "refused: " in kept
    finally:
        server.stop()
    assert KEY not in kept, "the key is in the store"
    for i, text in enumerate(outputs):
        assert KEY not in text, f"the key is in the output of command {i}"
    logs = list((data_dir / "logs").glob("slate.log*"))
    assert logs and any("trace=" in p.read_text() for p in logs)
    for path in [*logs, *(tmp_path / "out").rglob("*")]:
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), f"the key is in {path}"


async def test_the_store_scrubs_every_value_it_writes_itself(data_dir, store_url):
    """The store's own scrub, behind the HTTP client's: a value that reaches a write by any
    other path (a history note, an event's detail or data) loses the key too."""
    from app import scrub
    from app.store.aio import open_store
    from app.store.rows import Scope

    scrub.register(KEY)
    store = open_store(store_url)
    try:
        scope = Scope("studio-a", "u" * 16, "minimax", "global")
        await store.add_event(
            scope,
            "k" * 64,
            None,
            "rate_limited",
            detail=f"trace {KEY}",
            data={"raw": {"_trace_id": KEY, KEY: [f"Bearer {KEY}"]}},
        )
        await store.add_notes(
            scope,
            [
                {
                    "slot_key": "k" * 64,
                    "task_id": None,
                    "at": 1.0,
                    "event": "replayed",
                    "state": None,
                    "detail": f"said {KEY}",
                }
            ],
        )
        events = await store.history(scope, "k" * 64)
        assert [e.event for e in events] == ["rate_limited", "replayed"]
        assert events[0].detail == "trace ***" and events[1].detail == "said ***"
    finally:
        store.close()
    assert KEY not in store_text(store_url, data_dir)
