"""The API key never reaches a log line, an exception message, a repr or a raw dict."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.providers.base import ProviderError  # noqa: E402
from app.providers.minimax import MiniMaxProvider  # noqa: E402
from app.sim import SimServer  # noqa: E402
from tests.support.sim_fixtures import VIDEO, sim, wait_terminal  # noqa: E402,F401

KEY = "sk-DISTINCTIVE-3f9a-KEY-do-not-leak"
pytestmark = pytest.mark.timeout(60)


async def test_key_appears_nowhere(sim: SimServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    evidence: list[Any] = []
    p = MiniMaxProvider(KEY, sim.base_url, timeout=5, connect_timeout=2)
    evidence.append(repr(p))

    async def attempt(coro) -> Any:
        try:
            result = await coro
        except ProviderError as exc:
            evidence.extend([str(exc), repr(exc), exc.message, exc.raw])
            return None
        evidence.append(getattr(result, "raw", None))
        evidence.append(repr(result))
        return result

    try:
        created = await attempt(p.create_video(VIDEO))
        for status in await wait_terminal(p, created.task_id):
            evidence.extend([status.raw, repr(status)])
        info = await attempt(p.retrieve_file(status.file_id))
        async with p.download(info.download_url) as d:
            evidence.append(d.headers)
            async for _ in d.chunks:
                pass
        await attempt(p.generate_image({"model": "image-01", "prompt": "p", "n": 2}))
        await attempt(
            p.generate_image({"model": "image-01", "prompt": "p", "response_format": "base64"})
        )
        # every fault class
        for faults in (
            {"rate_limit": 1},
            {"server_error": 1},
            {"lose_create_response": 1},
            {"server_error_after_create": 1},
        ):
            sim.set_faults(**faults)
            await attempt(p.create_video(VIDEO))
        await attempt(p.create_video({**VIDEO, "duration": 10, "resolution": "1080P"}))
        sim.set_faults(status_word="completed")
        await attempt(p.query_video(created.task_id))
        await attempt(p.query_video("000"))
        sim.set_faults(content_fail=1, status_word=None)
        failed = await attempt(p.create_video(VIDEO))
        for status in await wait_terminal(p, failed.task_id):
            evidence.append(status.raw)
    finally:
        await p.aclose()
    sim.stop()
    closed = MiniMaxProvider(KEY, sim.base_url, timeout=1, connect_timeout=1)
    await attempt(closed.create_video(VIDEO))  # connect error
    await closed.aclose()

    text = json.dumps(evidence, default=repr)
    text += "\n".join(r.getMessage() + repr(r.args) for r in caplog.records)
    text += caplog.text
    assert len(caplog.records) > 5  # the run did log (so the check means something)
    assert KEY not in text
    assert "DISTINCTIVE" not in text
