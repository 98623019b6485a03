"""Service unit tests: the real service on a real SQLite file, a scripted fake provider."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import pytest

from app.service.slate import SlateService
from app.store.aio import open_store
from tests.support.fixtures import SECRET, copy_migrated_store, make_config, sqlite_url
from tests.unit.fakes import FakeProvider


@pytest.fixture
def fake() -> FakeProvider:
    return FakeProvider()


@pytest.fixture
async def make_service(
    data_dir: Path,
    migrated_store: bytes,
    fake: FakeProvider,
) -> AsyncIterator[Callable[..., Awaitable[SlateService]]]:
    """``await make_service(**config)``: a service on a fresh store copy and ``fake``."""
    copy_migrated_store(migrated_store, data_dir)
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
