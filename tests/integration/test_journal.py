"""Paid answers are durable before anything else can fail (issue 15, point 4).

When the store write after an image answer failed (a held write lock, a full disk), the command
exited 1 ``internal``, the slot went ``unknown`` and the image URLs — which cannot be queried
and die in 24 h — were nowhere; inline base64 images were lost the same way. Now the answer is
journaled (fsynced, 0600, in the data dir) before the store is written, the command says where
it is, and the next Slate that opens the store writes it into the slot.

Two ways to make the write fail: a real process holding the store's write lock (SQLite: the
writers' lock; PostgreSQL: the record's row) while the create's answer is on its way, and a
store whose write raises ``ENOSPC`` ("disk full") once the answer is in.
"""

from __future__ import annotations

import base64
import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from app.providers.demo import DemoProvider
from app.service.results import OutcomeKind, ProblemCode
from app.service.slate import SlateService
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config
from tests.support.hostile import Answer, HostileServer, ok
from tests.integration.test_write_lock import end, hold
from tests.support.machines import finish, run, spawn, wait_until
from tests.support.sim_media import image_bytes

RID = "article:20260816:tide-eye:scene-02"
PNG = image_bytes(64, 64)


def image_server(
    *,
    inline: bool = False,
    delay: float = 0.0,
    gate: threading.Event | None = None,
    media_gate: threading.Event | None = None,
) -> HostileServer:
    """``gate`` holds the create's answer, ``media_gate`` the first image's bytes, until set."""
    server = HostileServer({})
    data = (
        {"image_base64": [base64.b64encode(PNG).decode()]}
        if inline
        else {
            "image_urls": [f"{server.base_url}/media/one.png", f"{server.base_url}/media/two.png"]
        }
    )
    server.script.update(
        {
            "POST /v1/image_generation": [
                Answer(
                    ok(
                        id="img-1",
                        data=data,
                        metadata={
                            "success_count": len(next(iter(data.values()))),
                            "failed_count": 0,
                        },
                    ),
                    delay=delay,
                    gate=gate,
                )
            ],
            "GET /media/one.png": [Answer(PNG, content_type="image/png", gate=media_gate)],
            "GET /media/two.png": [
                Answer(image_bytes(64, 64, color=(1, 2, 3)), content_type="image/png")
            ],
            "POST /v1/video_generation": [
                Answer(ok(task_id="vt-journal-1"), delay=delay, gate=gate)
            ],
        }
    )
    return server


def journal_files(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "journal").rglob("*.json"))


class DiskFull:
    """The store's next writes raise ENOSPC, as a full disk does (the claim went through)."""

    def __init__(self, store) -> None:
        self.store, self.real, self.failed = store, store.transition, 0

    async def transition(self, task, **kw):
        self.failed += 1
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self):
        self.store.transition = self.transition
        return self

    def __exit__(self, *exc):
        self.store.transition = self.real


async def service(data_dir: Path, store_url: str, server: HostileServer):
    store = open_store(store_url)
    provider = DemoProvider(server.base_url, timeout=5.0, connect_timeout=2.0)
    return SlateService(make_config(data_dir, store_url), store, provider, SECRET), store, provider


async def close(svc, store, provider) -> None:
    await svc.aclose()
    await provider.aclose()
    store.close()


@pytest.mark.parametrize("what", ["image_urls", "inline_images", "video_task_id"])
async def test_a_full_disk_after_the_answer_loses_nothing(data_dir, store_url, what):
    server = image_server(inline=what == "inline_images")
    kind = "video" if what == "video_task_id" else "image"
    params = (
        {"prompt": "p"}
        if kind == "video"
        else {"prompt": "p", "response_format": "base64" if what == "inline_images" else "url"}
        | ({} if what == "inline_images" else {"n": 2})
    )
    svc, store, provider = await service(data_dir, store_url, server)
    try:
        with DiskFull(store) as full:
            out = await svc.submit(RID, kind, params)
        assert full.failed >= 1
        # A full disk is the configuration's trouble: exit 2, naming where (DESIGN.md)
        assert out.kind is OutcomeKind.INVALID
        assert (
            out.problem.code is ProblemCode.BAD_CONFIGURATION and "full disk" in out.problem.message
        )
        entries = journal_files(data_dir)
        assert len(entries) == 1
        assert str(entries[0]) in out.problem.message and "nothing is lost" in out.problem.message
        assert stat.S_IMODE(entries[0].stat().st_mode) == 0o600
        assert stat.S_IMODE(entries[0].parent.stat().st_mode) == 0o700
        if what == "image_urls":
            assert f"{server.base_url}/media/one.png" in out.problem.message
        if what == "video_task_id":
            assert "vt-journal-1" in out.problem.message
    finally:
        await close(svc, store, provider)
    # The next start: the slot gets its answer, nothing sent again.
    svc, store, provider = await service(data_dir, store_url, server)
    try:
        await svc.sweep_submitting()
        task = (await svc.status(RID)).task
        if kind == "video":
            assert task.state.value == "preparing" and task.provider_task_id == "vt-journal-1"
        else:
            assert task.state.value == "success", task
            assert task.provider_task_id == "img-1"
            want = 1 if what == "inline_images" else 2
            assert len(task.media) == want
            assert {m.sha256 for m in task.media} >= {__import__("hashlib").sha256(PNG).hexdigest()}
        events = [e.event for e in (await svc.history(RID)).payload.events]
        assert "journal_replayed" in events
        assert journal_files(data_dir) == []
        path = f"POST /v1/{'video' if kind == 'video' else 'image'}_generation"
        assert server.sent(*path.split(" ")) == 1
    finally:
        await close(svc, store, provider)
        server.stop()


@pytest.mark.parametrize("kind", ["image", "video"])
def test_a_held_write_lock_after_the_answer_loses_nothing(slate_env, store_url, data_dir, kind):
    """Real processes: `slate submit` claims and sends; while the provider takes its time,
    another Slate process takes the store's write lock (SQLite) or the record's row
    (PostgreSQL) and holds it. The answer's write gives up (exit 1, naming the journal); once
    the holder is gone, `slate status` writes the answer into the slot. The provider answers
    only once the holder holds the lock (on a busy machine a fixed delay was not enough)."""
    answer = threading.Event()
    server = image_server(gate=answer)
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url}
    patches = {
        "app.store.engine.WRITE_LOCK_TIMEOUT": 1.5,
        "app.store.engine.PG_LOCK_TIMEOUT_MS": 1500,
    }
    holder = None
    try:
        submit = spawn(
            env,
            ["submit", "--request-id", RID, "--kind", kind, "--prompt", "p"]
            + (["--n", "2"] if kind == "image" else []),
            patches=patches,
        )
        path = ("POST", f"/v1/{kind}_generation")
        wait_until(lambda: server.sent(*path) == 1, 30, "the create to reach the provider")
        holder = hold(store_url, env, row=RID if store_url.startswith("postgresql") else "-")
        answer.set()
        res = finish(submit, 60)
        assert res.code == 1 and res.out["outcome"] == "invalid", res.out
        assert res.out["error"]["code"] == "store_busy", res.out
        message = res.out["error"]["message"]
        [entry] = journal_files(data_dir)
        assert str(entry) in message and "slate status" in message, message
        end(holder)
        holder = None
        status = run(env, ["status", RID])
        assert status.code == 0, status.out
        task = status.out["task"]
        if kind == "video":
            assert task["provider_task_id"] == "vt-journal-1" and task["state"] == "preparing"
        else:
            assert task["state"] == "success" and len(task["media"]) == 2, task
        assert journal_files(data_dir) == []
        assert server.sent(*path) == 1
    finally:
        if holder is not None:
            end(holder)
        server.stop()


def test_a_lock_taken_after_the_answer_is_recorded_leaves_a_made_slot_downloading(
    slate_env, store_url, data_dir
):
    """Real processes: the answer is in the slot (``downloading``, its journal entry settled);
    another process takes the write lock while the images download, so recording them gives
    up. The create was made and recorded: `slate submit` says ``created`` with the slot
    ``downloading`` — never that nothing was written, nor a journal entry that is gone — and
    `slate query` finishes it once the holder is gone, with no second create."""
    bytes_go = threading.Event()
    server = image_server(media_gate=bytes_go)
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url}
    patches = {
        "app.store.engine.WRITE_LOCK_TIMEOUT": 1.5,
        "app.store.engine.PG_LOCK_TIMEOUT_MS": 1500,
    }
    holder = None
    try:
        submit = spawn(
            env,
            ["submit", "--request-id", RID, "--kind", "image", "--prompt", "p", "--n", "2"],
            patches=patches,
        )
        # the download has begun: the answer is in the slot (downloading comes first)
        wait_until(lambda: server.sent("GET", "/media/one.png") >= 1, 60, "the download")
        holder = hold(store_url, env, row=RID if store_url.startswith("postgresql") else "-")
        bytes_go.set()
        res = finish(submit, 60)
        assert res.code == 0 and res.out["outcome"] == "created", res.out
        assert res.out["task"]["state"] == "downloading", res.out
        assert journal_files(data_dir) == []  # the store has the answer: nothing to replay
        end(holder)
        holder = None
        query = run(env, ["query", RID])
        assert query.code == 0, query.out
        task = query.out["task"]
        assert task["state"] == "success" and len(task["media"]) == 2, task
        assert server.sent("POST", "/v1/image_generation") == 1
    finally:
        if holder is not None:
            end(holder)
        server.stop()


def test_journal_entries_are_private_and_go_once_settled(tmp_path):
    """An entry is a whole file, 0600 in a 0700 folder; this process's own entry in flight is
    never replayed by itself; once settled it is gone."""
    from app.service import journal
    from app.service.owner import this_owner

    folder = tmp_path / "j"
    task = type(
        "T",
        (),
        dict(
            id=7,
            tenant="t",
            slot_key="k",
            request_id=RID,
            kind="video",
            provider="demo",
            endpoint="local",
        ),
    )()
    path = journal.write(folder, task, this_owner(), {"type": "video", "task_id": "x"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert journal.pending(folder) == []  # in flight in this process
    journal.release(path)
    [entry] = journal.pending(folder)
    assert entry.path == path and entry.answer == {"type": "video", "task_id": "x"}
    journal.settle(path)
    assert journal.pending(folder) == [] and os.listdir(folder) == []


def test_entries_settled_by_another_process_while_listed_are_no_error(tmp_path, caplog):
    """Two processes of one store: one settles its entries (unlinks them) while the other lists
    the journal for replay. An entry gone between the listing and its reading was settled; the
    listing neither raises (a soak's worker once died of ``FileNotFoundError`` here) nor logs
    it as unreadable."""
    import json as json_mod
    import subprocess
    import sys

    from app.service import journal

    folder = tmp_path / "journal" / "store"
    folder.mkdir(parents=True)
    for i in range(3000):
        (folder / f"{i}-entry.json").write_text(json_mod.dumps({"version": journal.VERSION}))
    # the remover says it is up, waits for the go, then settles one entry at a time for at
    # least 1.5 s (a pause between unlinks), so the listing below meets it however busy the
    # machine is
    remover = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import pathlib, sys, time\n"
            "paths = sorted(pathlib.Path(sys.argv[1]).glob('*.json'))\n"
            "print('ready', flush=True)\n"
            "sys.stdin.readline()\n"
            "for p in paths:\n"
            "    p.unlink()\n"
            "    time.sleep(0.0005)\n",
            str(folder),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    rounds = 0
    try:
        assert remover.stdout is not None and remover.stdin is not None
        assert remover.stdout.readline().strip() == "ready"
        remover.stdin.write("go\n")
        remover.stdin.flush()
        while remover.poll() is None or rounds == 0:
            rounds += 1
            for entry in journal.pending(folder):
                assert entry.data["version"] == journal.VERSION
    finally:
        remover.wait()
    assert remover.returncode == 0
    assert journal.pending(folder) == []
    assert rounds > 1, "the listing never met the removal"
    assert not [r for r in caplog.records if "cannot be read" in r.getMessage()]
