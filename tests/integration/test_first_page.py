"""The browser's first page read from the store's file (``app.store.first_page``, issue 34):
the same statement and the same rows as the store's own reader, ``None`` whenever it cannot
tell, and the provider the window expects is the one the composition root builds."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from app.bootstrap import make_provider
from app.domain.listing import SlotFilter
from app.domain.states import State
from app.providers.minimax import MiniMaxProvider
from app.service.slate import SlateService
from app.store import first_page
from app.store.aio import open_store
from app.store.engine import _sqlite_path
from app.service.early import Early
from tests.gui.bulk import fill
from tests.support.fixtures import SECRET, make_config, sqlite_url


@pytest.fixture
def filled(data_dir: Path):
    url = sqlite_url(data_dir)
    config = make_config(data_dir, url)
    store = open_store(url)
    provider = MiniMaxProvider("sk-test-key-123456", "http://127.0.0.1:9", name="demo")
    provider.endpoint = "local"
    service = SlateService(config, store, provider, SECRET)
    fill(store.engine, service, 500, projects=12)
    try:
        yield config, store, service
    finally:
        store.close()


async def test_the_file_gives_the_page_the_store_gives(filled) -> None:
    """The statement gives what the store's own rules give (a filter of every state: the same
    slots, a statement built by ``queries.projects``) — slots with no project (NULL and '' one
    group) and hidden slots among them."""
    config, store, service = filled
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE tasks SET project = NULL WHERE id % 7 = 0")
        conn.exec_driver_sql("UPDATE tasks SET project = '' WHERE id % 11 = 0")
        conn.exec_driver_sql("UPDATE tasks SET hidden_at = created_at WHERE id % 5 = 0")
        conn.exec_driver_sql("UPDATE tasks SET hidden_at = created_at WHERE project = 'proj-003'")
    early = Early.of(config, has_key=False)
    assert early.owner == tuple(dataclasses.astuple(service.scope))
    every = SlotFilter(states=tuple(State))
    for limit in (1, 5, 100):
        mine = first_page.read(config.store, early.owner, limit)
        ruled = await service.reader.projects(every, limit=limit)
        assert mine == ruled == await service.reader.projects(SlotFilter(), limit=limit)
        assert len(mine) == min(limit, 12)  # 12 projects, one of them hidden, and no project
    assert "" in {g.key for g in mine} and "proj-003" not in {g.key for g in mine}


async def test_the_store_answers_its_first_page_with_the_same_statement(filled) -> None:
    config, store, service = filled
    seen: list[str] = []

    from sqlalchemy import event

    def note(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        await service.reader.projects(SlotFilter(), limit=100)
        await service.reader.projects(SlotFilter(kind="image"), limit=100)
    finally:
        event.remove(store.engine, "before_cursor_execute", note)
    reads = [q for q in seen if q.lstrip().upper().startswith("SELECT")]
    assert reads[0] == first_page.SQL  # the default page: the file's statement
    assert len(reads) == 2 and reads[1] != first_page.SQL  # a filtered one: the store's rules


def test_the_file_cannot_tell_without_a_readable_store(tmp_path: Path) -> None:
    owner = ("personal", "u" * 16, "demo", "local")
    assert first_page.read("postgresql+psycopg://slate@127.0.0.1:1/x", owner, 10) is None
    assert first_page.read("sqlite://", owner, 10) is None
    missing = tmp_path / "none" / "slate.sqlite3"
    assert first_page.read(f"sqlite:///{missing.as_posix()}", owner, 10) is None
    assert not missing.parent.exists()  # nothing was created
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all" * 100)
    assert first_page.read(f"sqlite:///{garbage.as_posix()}", owner, 10) is None
    assert garbage.read_bytes() == b"not a database at all" * 100
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE notes (x)").connection.close()
    assert first_page.read(f"sqlite:///{other.as_posix()}", owner, 10) is None


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:////tmp/a/slate.sqlite3",
        "sqlite:///relative/slate.sqlite3",
        "sqlite+pysqlite:////tmp/b.sqlite3",
        "sqlite:////tmp/with%20space.sqlite3",
        "sqlite://",
        "sqlite:///:memory:",
    ],
)
def test_the_file_is_the_one_the_store_opens(url: str) -> None:
    assert first_page.sqlite_file(url) == _sqlite_path(url)


@pytest.mark.parametrize(
    ("provider", "base_url", "key"),
    [
        (None, None, "sk-test-key-123456"),
        ("minimax", "https://api.minimaxi.com", "sk-test-key-123456"),
        ("minimax", "http://127.0.0.1:9", "sk-test-key-123456"),
        (None, "http://127.0.0.1:9", None),
        ("demo", "http://localhost:9", "sk-test-key-123456"),
    ],
)
def test_the_window_expects_the_provider_that_is_built(
    data_dir: Path, provider: str | None, base_url: str | None, key: str | None
) -> None:
    config = make_config(data_dir, sqlite_url(data_dir), provider=provider, base_url=base_url)
    built, sim = make_provider(config, key)
    assert sim is None
    assert config.provider_identity(key is not None) == (built.name, built.endpoint)
