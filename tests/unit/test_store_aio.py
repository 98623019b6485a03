"""The async store decides alone where a call runs, and whether a claim needs its transaction."""

from __future__ import annotations

import asyncio
import time

from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.service.submit import claim_request
from app.store import aio
from app.store.repository import Repository
from app.store.rows import ClaimOutcome
from tests.unit.fakes import FakeProvider, images

RID = "article:20260816:tide-eye:scene-02"


def count_hops(monkeypatch) -> list[str]:
    hops: list[str] = []
    real = asyncio.to_thread

    async def to_thread(fn, *args, **kw):
        hops.append(getattr(fn, "__name__", repr(fn)))
        return await real(fn, *args, **kw)

    monkeypatch.setattr(aio.asyncio, "to_thread", to_thread)
    return hops


async def test_on_sqlite_a_replay_is_answered_from_one_read_in_place(
    service, fake: FakeProvider, monkeypatch
):
    fake.answer_create(images())  # an image answered without images: fail, no download
    await service.submit(RID, "image", {"prompt": "p"})
    hops = count_hops(monkeypatch)
    again = await service.submit(RID, "image", {"prompt": "p"})
    assert again.task is not None and hops == []  # no hop to a worker thread, no write
    conflict = await service.submit(RID, "image", {"prompt": "other"})
    assert conflict.problem is not None and hops == ["add_event"]  # only its history note


async def test_a_free_slot_is_claimed_in_one_worker_thread_hop(service, monkeypatch):
    hops = count_hops(monkeypatch)
    norm = normalize("image", {"prompt": "p"})
    req = claim_request(
        service.ctx, service.ctx.slot(RID), "image", norm, fingerprint("image", norm), time.time()
    )
    claim = await service.store.claim(req)
    assert claim.outcome is ClaimOutcome.CLAIMED and hops == ["claim_transaction"]
    again = await service.store.claim(req)
    assert again.outcome is ClaimOutcome.EXISTING and hops == ["claim_transaction"]


def test_writes_are_not_wrapped_as_retried_reads():
    """A write is retried only by _run_write, which knows about a lost COMMIT; the read retry
    would run it again with a new timestamp and could apply it twice."""
    for name in ("transition", "schedule_polls", "add_event", "add_notes", "claim"):
        assert not hasattr(getattr(Repository, name), "__wrapped__"), name
    for name in ("get_slot", "get_task", "history", "quota_used", "due_tasks"):
        assert hasattr(getattr(Repository, name), "__wrapped__"), name


async def test_a_browser_page_is_read_from_when_it_is_asked_for(service, monkeypatch):
    """The browser asks for its pages from Qt's signals: the read begins in a worker thread at
    once, not when the task awaiting it first runs (behind the window's layout and paint)."""
    import threading

    from app.store import queries
    from app.store.rows import SlotFilter

    begun = threading.Event()
    real = queries.projects

    def projects(*args, **kw):
        begun.set()
        return real(*args, **kw)

    monkeypatch.setattr(queries, "projects", projects)
    page = service.reader.projects(SlotFilter(search="lighthouse"))
    assert begun.wait(5)  # the loop's thread has not let go since: the read is under way
    assert await page == []
