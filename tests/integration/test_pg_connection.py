"""Connection trouble on a PostgreSQL team store.

* The server restarts (or crashes) while tasks poll and while new slots are claimed: Slate
  reconnects (pool pre-ping + the repository's retry), every task reaches a terminal state and
  the provider sees exactly one create per slot.
* A write whose COMMIT outcome is unknown (the connection died during it) is re-read before
  anything is written again: a claim whose commit went through is recognized as ours (the
  create is sent once), a transition whose commit went through is not applied twice.
* Before the create is sent, a failed claim sends nothing; after it is sent, a failed write
  never leads to a second create.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

from app.service.results import OutcomeKind
from app.sim import start_sim
from app.store.repository import Repository
from tests.support import pg
from tests.support.fixtures import ROOT, Harness, fast_sim_config, open_harness

RID = "article:20260816:lighthouse:scene-{:02d}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    with pg.fresh_database() as url:
        yield url


@pytest.fixture
async def h(data_dir: Path, pg_url: str, demo_sim: Any) -> AsyncIterator[Harness]:
    async with open_harness(data_dir, pg_url, demo_sim) as harness:
        yield harness


def connection_lost(where: str = "COMMIT") -> OperationalError:
    return OperationalError(
        where,
        None,
        psycopg.OperationalError(
            "consuming input failed: server closed the connection unexpectedly"
        ),
        connection_invalidated=True,
    )


class LostAnswers:
    """Inject connection loss into the repository's write transactions, per repository method.

    ``after_commit``: the COMMIT went through, its answer was lost (outcome unknown to Slate).
    ``before_commit``: the connection died before the COMMIT was through (rolled back).
    ``always``: the database stays unreachable for every write of that method.
    """

    def __init__(self, repo: Repository, monkeypatch: pytest.MonkeyPatch) -> None:
        self.plan: dict[str, list[str]] = {}
        self.injected: list[tuple[str, str]] = []
        self._current: list[str] = []
        real_write = repo.write

        @contextlib.contextmanager
        def write() -> Iterator[sa.Connection]:
            method = self._current[-1] if self._current else "?"
            queue = self.plan.get(method) or []
            mode = queue[0] if queue else None
            if mode and mode != "always":
                queue.pop(0)
            if mode == "always":
                self.injected.append((method, mode))
                raise connection_lost("BEGIN")
            with real_write() as conn:
                yield conn
                if mode == "before_commit":
                    self.injected.append((method, mode))
                    raise connection_lost()
            if mode == "after_commit":
                self.injected.append((method, mode))
                raise connection_lost()

        monkeypatch.setattr(repo, "write", write)
        for name in ("claim", "transition", "add_event"):
            real = getattr(repo, name)

            def wrapped(*a: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
                self._current.append(_name)
                try:
                    return _real(*a, **kw)
                finally:
                    self._current.pop()

            monkeypatch.setattr(repo, name, wrapped)


def events(repo: Repository, event: str) -> int:
    with repo.engine.connect() as conn:
        return conn.execute(
            sa.text("SELECT count(*) FROM slot_events WHERE event = :e"), {"e": event}
        ).scalar()


# -- unknown COMMIT outcomes (simulated at the exact moment) ---------------------------------


@pytest.mark.parametrize("mode", ["after_commit", "before_commit"])
async def test_claim_commit_outcome_unknown_is_reread_and_sends_one_create(h, monkeypatch, mode):
    lost = LostAnswers(h.repo, monkeypatch)
    lost.plan["claim"] = [mode]
    out = await h.service.submit(RID.format(1), "video", {"prompt": "beam"})
    assert lost.injected == [("claim", mode)]
    assert out.kind is OutcomeKind.CREATED, out
    assert h.sim.stats()["creates_by_prompt"] == {"beam": 1}
    assert events(h.repo, "submitted") == 1  # the claim's event is not doubled either
    with h.repo.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == 1
        assert conn.execute(sa.text("SELECT used FROM quota_use")).scalar() == 1
    again = await h.service.submit(RID.format(1), "video", {"prompt": "beam"})
    assert again.kind is OutcomeKind.REPLAYED
    assert h.sim.stats()["creates_total"] == 1


@pytest.mark.parametrize("mode", ["after_commit", "before_commit"])
async def test_transition_after_create_commit_unknown_never_creates_twice(h, monkeypatch, mode):
    lost = LostAnswers(h.repo, monkeypatch)
    lost.plan["transition"] = [mode]  # the first transition is the one storing the task id
    out = await h.service.submit(RID.format(2), "video", {"prompt": "fog"})
    assert lost.injected == [("transition", mode)]
    assert out.kind is OutcomeKind.CREATED, out
    assert out.task is not None and out.task.provider_task_id  # the task id was kept
    assert out.task.state == "preparing"
    assert events(h.repo, "created") == 1
    assert h.sim.stats()["creates_by_prompt"] == {"fog": 1}
    done = await h.service.wait(RID.format(2), max_seconds=20)
    assert done.task is not None and done.task.state == "success", done
    assert h.sim.stats()["creates_total"] == 1


async def test_event_commit_outcome_unknown_is_not_written_twice(h, monkeypatch):
    await h.service.submit(RID.format(3), "image", {"prompt": "gull"})
    lost = LostAnswers(h.repo, monkeypatch)
    lost.plan["add_event"] = ["after_commit"]
    before = events(h.repo, "conflict")
    out = await h.service.submit(RID.format(3), "image", {"prompt": "gull "})
    assert out.kind is OutcomeKind.CONFLICT and lost.injected == [("add_event", "after_commit")]
    assert events(h.repo, "conflict") == before + 1


async def test_store_unreachable_before_the_create_sends_nothing(h, monkeypatch):
    h.repo.retry_seconds = 0.5
    lost = LostAnswers(h.repo, monkeypatch)
    lost.plan["claim"] = ["always"]
    with pytest.raises(OperationalError):
        await h.service.submit(RID.format(4), "video", {"prompt": "storm"})
    assert len(lost.injected) >= 2  # it did try again
    assert h.sim.stats()["creates_total"] == 0
    lost.plan.clear()
    out = await h.service.submit(RID.format(4), "video", {"prompt": "storm"})
    assert out.kind is OutcomeKind.CREATED and h.sim.stats()["creates_total"] == 1


async def test_store_unreachable_after_the_create_never_creates_again(h, monkeypatch):
    h.repo.retry_seconds = 0.5
    lost = LostAnswers(h.repo, monkeypatch)
    lost.plan["transition"] = ["always"]
    first = await h.service.submit(RID.format(5), "video", {"prompt": "tide"})
    # The answer could not be recorded: said, with where it is kept (the journal), never lost.
    assert first.problem is not None and first.problem.code.value == "internal", first
    assert "OperationalError" in first.problem.message and "journal" in first.problem.message
    assert h.sim.stats()["creates_total"] == 1
    lost.plan.clear()
    # Nobody creates again: the journaled answer is written into the slot, or the record still
    # says submitting under this live process.
    for svc in (h.service, h.other()):
        again = await svc.submit(RID.format(5), "video", {"prompt": "tide"})
        assert again.kind in {OutcomeKind.REPLAYED, OutcomeKind.UNKNOWN}, again
        assert again.task is not None and again.task.state != "rejected"
    assert h.sim.stats()["creates_total"] == 1


# -- real connection loss ------------------------------------------------------------------


def terminate_backends(url: str) -> int:
    """Kill every server connection to the store's database (what a restart does to them)."""
    dbname = sa.engine.make_url(url).database
    with psycopg.connect(pg._psycopg_dsn(pg.server().url), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (dbname,),
        ).fetchall()
    return len(rows)


async def test_pooled_connections_killed_between_commands_reconnect(h, pg_url):
    out = await h.service.submit(RID.format(6), "video", {"prompt": "reef"})
    assert out.kind is OutcomeKind.CREATED
    assert terminate_backends(pg_url) >= 1
    st = await h.service.status(RID.format(6))
    assert st.kind is OutcomeKind.OK and st.task is not None
    assert terminate_backends(pg_url) >= 1
    done = await h.service.wait(RID.format(6), max_seconds=20)
    assert done.task is not None and done.task.state == "success"
    assert terminate_backends(pg_url) >= 1
    again = await h.service.submit(RID.format(6), "video", {"prompt": "reef"})
    assert again.kind is OutcomeKind.REPLAYED
    assert h.sim.stats()["creates_by_prompt"] == {"reef": 1}


@pytest.fixture
def own_pg_url() -> Iterator[str]:
    """A database on a PostgreSQL server of this test's own: restarting it cuts no other test's
    connections (under xdist the session's server is shared by every worker)."""
    with pg.private_server(), pg.fresh_database() as url:
        yield url


async def _up_and_polling(url: str, waiters: list[subprocess.Popen[str]], sim: Any) -> None:
    """Until each waiter has its session on the server (a Slate process names itself in
    ``application_name``) and the provider has been asked about a task: the restarts below
    then land while the waiters are up and polling and the tasks are mid-flight."""
    engine = sa.create_engine(url)
    try:
        deadline = time.monotonic() + 60  # bounds a hang only
        while True:
            with engine.connect() as conn:
                names = conn.execute(sa.text("SELECT application_name FROM pg_stat_activity"))
                sessions = " | ".join(str(n) for (n,) in names)
            by = sim.stats()["requests_by_endpoint"]
            asked = sum(n for e, n in by.items() if "query" in e)
            if asked and all(f"slate pid {w.pid} " in sessions for w in waiters):
                return
            assert time.monotonic() < deadline, ("the waiters never polled", sessions, by)
            assert all(w.poll() is None for w in waiters), [w.poll() for w in waiters]
            await asyncio.sleep(0.05)
    finally:
        engine.dispose()


async def test_server_restart_while_tasks_poll_all_finish_no_duplicate_create(
    data_dir, own_pg_url, tmp_path
):
    """Video tasks poll (an in-process poller and two `slate wait` processes) while the server
    restarts twice (a clean fast restart, then a crash-like immediate one) and two more slots are
    claimed during the restarts. Every task finishes, every prompt was created exactly once."""
    pg_url = own_pg_url
    if not pg.can_restart():
        pytest.fail(
            "the restart test needs control of the PostgreSQL server (see tests/support/pg.py)"
        )
    sim = start_sim(fast_sim_config(preparing=0.3, queueing=0.5, processing=2.0))
    try:
        async with open_harness(data_dir, pg_url, sim) as h:
            svc = h.service
            prompts = [f"lighthouse beam {i}" for i in range(6)]
            # The first four stay 10 s longer in Processing: the restarts must land while the
            # two `slate wait` processes are up and their tasks unfinished, and on a loaded
            # machine starting them took longer than a 2.8 s task (a clean-clone run under two
            # spinners: one waiter had its answer and had exited before the other was up).
            sim.set_faults(slow=10.0)
            for i in range(4):
                out = await svc.submit(RID.format(10 + i), "video", {"prompt": prompts[i]})
                assert out.kind is OutcomeKind.CREATED, out
            sim.set_faults(slow=0.0)
            env = dict(os.environ)
            env.update(
                SLATE_DATA_DIR=str(data_dir),
                SLATE_STORE=pg_url,
                SLATE_PROVIDER="demo",
                SLATE_BASE_URL=sim.base_url,
                SLATE_TENANT="studio-a",
                SLATE_USER="lin",
                SLATE_POLL_INTERVAL="0.1",
                SLATE_TIMEOUT="5",
                SLATE_TEST_KEYRING_FILE=str(tmp_path / "keyring.json"),
            )
            waiters = [
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "app",
                        "--json",
                        "wait",
                        RID.format(10 + i),
                        "--max-seconds",
                        "60",
                    ],
                    env=env,
                    cwd=ROOT,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                for i in (0, 1)
            ]
            stop = asyncio.Event()
            poller = asyncio.create_task(svc.run_poller(stop))
            await _up_and_polling(pg_url, waiters, sim)

            restart = asyncio.create_task(asyncio.to_thread(pg.restart_server, "fast"))
            await asyncio.sleep(0.1)
            # A new slot claimed while the server is going down / coming back.
            late = await svc.submit(RID.format(14), "video", {"prompt": prompts[4]})
            await restart
            await asyncio.sleep(0.5)
            restart = asyncio.create_task(asyncio.to_thread(pg.restart_server, "immediate"))
            await asyncio.sleep(0.1)
            late2 = await svc.submit(RID.format(15), "video", {"prompt": prompts[5]})
            await restart
            assert late.kind is OutcomeKind.CREATED and late2.kind is OutcomeKind.CREATED, (
                late,
                late2,
            )

            deadline = time.monotonic() + 45
            while True:
                states = {}
                for i in range(6):
                    st = await svc.status(RID.format(10 + i))
                    assert st.task is not None
                    states[i] = st.task.state
                if all(s in {"success", "fail"} for s in states.values()):
                    break
                assert time.monotonic() < deadline, states
                await asyncio.sleep(0.2)
            stop.set()
            await asyncio.wait_for(poller, 10)
            assert set(states.values()) == {"success"}, states
            for p in waiters:
                out, err = p.communicate(timeout=60)
                assert p.returncode == 0, (out, err[-3000:])
                assert '"state": "success"' in out, out
            stats = sim.stats()
            assert stats["creates_by_prompt"] == {p: 1 for p in prompts}, stats
            assert stats["creates_total"] == 6
            with h.repo.engine.connect() as conn:
                assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == 6
                assert (
                    conn.execute(
                        sa.text("SELECT count(*) FROM slot_events WHERE event = 'created'")
                    ).scalar()
                    == 6
                )
    finally:
        sim.stop()
