"""No provider-controlled value can make a write fail after the create (issue 15, point 15).

PostgreSQL refused task ids over 128 characters: the create was made and paid, the write of
its id failed (exit 1), the slot went ``unknown`` and the id was lost; long status words and
error codes were clipped. Now every provider value is stored whole (TEXT), on both backends.
A hostile server on loopback plays the provider.
"""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest
import sqlalchemy as sa

from app.providers.demo import DemoProvider
from app.service.results import OutcomeKind
from app.service.slate import SlateService
from app.store.aio import Store, open_store
from tests.support.fixtures import SECRET, make_config
from tests.support.hostile import Answer, HostileServer, ok

RID = "article:20260816:tide-eye:scene-02"
LONG_ID = "t" + "9" * 299  # 300 characters
HUGE_ID = "id-" + "x" * 20_000
LONG_WORD = "Processing-" + "é" * 500  # not on the whitelist: unknown, kept whole
LONG_CODE_MSG = "m" * 5_000


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    opened = open_store(store_url)
    try:
        yield opened
    finally:
        opened.close()


async def service_for(
    data_dir: Path, store: Store, store_url: str, server: HostileServer
) -> tuple[SlateService, DemoProvider]:
    provider = DemoProvider(server.base_url, timeout=5.0, connect_timeout=2.0)
    cfg = make_config(data_dir, store_url, timeout=5.0)
    return SlateService(cfg, store, provider, SECRET), provider


@pytest.mark.parametrize("task_id", [LONG_ID, HUGE_ID], ids=["300", "20000"])
async def test_a_task_id_of_any_length_is_stored_whole(data_dir, store, store_url, task_id):
    server = HostileServer(
        {
            "POST /v1/video_generation": [Answer(ok(task_id=task_id))],
            "GET /v1/query/video_generation": [Answer(ok(task_id=task_id, status=LONG_WORD))],
        }
    )
    svc, provider = await service_for(data_dir, store, store_url, server)
    try:
        out = await svc.submit(RID, "video", {"prompt": "p"})
        assert out.kind is OutcomeKind.CREATED, out.problem
        assert out.task.provider_task_id == task_id and out.task.state == "preparing"
        row = await store.slot(svc.scope, svc.ctx.slot(RID).slot_key)
        assert row.provider_task_id == task_id  # read back from the database, whole
        # An unrecognized status word of 511 characters: unknown, and kept whole.
        queried = await svc.query(RID)
        assert queried.task.state == "unknown" and queried.task.provider_status == LONG_WORD
        row = await store.slot(svc.scope, svc.ctx.slot(RID).slot_key)
        assert row.provider_status == LONG_WORD and row.provider_task_id == task_id
        assert server.sent("POST", "/v1/video_generation") == 1
    finally:
        await provider.aclose()
        server.stop()


async def test_a_long_failure_code_and_message_are_stored_whole(data_dir, store, store_url):
    fail = {
        "task_id": LONG_ID,
        "status": "Fail",
        "base_resp": {"status_code": 1027, "status_msg": LONG_CODE_MSG},
    }
    server = HostileServer(
        {
            "POST /v1/video_generation": [Answer(ok(task_id=LONG_ID))],
            "GET /v1/query/video_generation": [Answer(fail)],
        }
    )
    svc, provider = await service_for(data_dir, store, store_url, server)
    try:
        await svc.submit(RID, "video", {"prompt": "p"})
        out = await svc.query(RID)
        assert out.task.state == "fail" and out.task.error.message == LONG_CODE_MSG
        assert out.task.error.code == "1027"
    finally:
        await provider.aclose()
        server.stop()


async def test_provider_columns_are_text_on_every_backend(store):
    with store.engine.connect() as conn:
        cols = {c["name"]: c["type"] for c in sa.inspect(conn).get_columns("tasks")}
    if store.dialect == "postgresql":
        for name in ("provider_task_id", "provider_status", "error_code", "error_message"):
            assert isinstance(cols[name], sa.Text), (name, cols[name])
    # SQLite never enforced a length; a 20,000-character id round-trips above on both.
