"""Service unit tests: the real service on a real SQLite file, a scripted fake provider."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import pytest

from app.service.slate import SlateService
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config, sqlite_url
from tests.unit.fakes import FakeProvider


@pytest.fixture(scope="session")
def migrated_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One migrated store file; each test gets a copy (migrating anew costs more than a test)."""
    folder = tmp_path_factory.mktemp("template")
    open_store(sqlite_url(folder)).close()
    return folder / "slate.sqlite3"


@pytest.fixture
def fake() -> FakeProvider:
    return FakeProvider()


@pytest.fixture
async def make_service(
    data_dir: Path,
    migrated_store: Path,
    fake: FakeProvider,
) -> AsyncIterator[Callable[..., Awaitable[SlateService]]]:
    """``await make_service(**config)``: a service on a fresh store copy and ``fake``."""
    shutil.copyfile(migrated_store, data_dir / "slate.sqlite3")
    url = sqlite_url(data_dir)
    store = open_store(url)
    made: list[SlateService] = []

    async def make(provider: Any = None, **config: Any) -> SlateService:
        svc = SlateService(
            make_config(data_dir, url, **config),
            store,
            provider or fake,
            SECRET,
            rng=random.Random(7),
        )
        made.append(svc)
        return svc

    yield make
    for svc in made:
        await svc.aclose()
    store.close()


@pytest.fixture
async def service(make_service: Callable[..., Awaitable[SlateService]]) -> SlateService:
    return await make_service()
