"""A read is never a verdict (issue 31): a ``files/retrieve``, a query or a download that timed
out or answered 503 a few times in a row (a slow machine, a provider busy for a minute) turned a
finished, billed task into ``fail`` (``verification_failed: could not get a download link: file
retrieve: no answer in time after sending (ReadTimeout)``) once the download's in-process
attempts were used up. Now the task stays ``downloading`` and the read is made again after a
backoff; only evidence ends a task.

The demo provider over real HTTP on loopback, behind a proxy that routes every link through
itself and makes the first reads of each case go wrong (as many as the download had attempts):
held past the client's read timeout, or answered 503. Image, V1 video, MiniMax-H3 (V2) and
asynchronous speech, on both stores; each slot ends ``success`` with verified media and exactly
one create.
"""

from __future__ import annotations

import contextlib
import json
import threading
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

from app.domain.states import State
from app.providers.demo import DemoProvider
from app.service.lifecycle import DOWNLOAD_ATTEMPTS
from app.service.media import sha256_file
from app.service.slate import SlateService
from app.sim import SimServer
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config
from tests.support.hostile import Answer, RewritingProxy

pytestmark = pytest.mark.timeout(180)

RID = "article:20261203:read-once:scene-"
#: The client's read timeout: a held read gives up after it (the sim answers far sooner).
READ_TIMEOUT = 4.0
LONG_TEXT = "The tide eye opens at dusk. " * 400  # 11,200 characters: asynchronous speech

#: case → (kind, parameters, the path prefix of the read that goes wrong once, how)
CASES: dict[str, tuple[str, dict[str, Any], str, str]] = {
    "v1-video-retrieve-times-out": (
        "video",
        {"prompt": "tide eye, retrieve held", "duration": 6, "resolution": "768P"},
        "/v1/files/retrieve",
        "timeout",
    ),
    "v1-video-retrieve-503": (
        "video",
        {"prompt": "tide eye, retrieve 503", "duration": 6, "resolution": "768P"},
        "/v1/files/retrieve",
        "503",
    ),
    "v1-video-download-503": (
        "video",
        {"prompt": "tide eye, download 503", "duration": 6, "resolution": "768P"},
        "/_sim/files/",
        "503",
    ),
    "image-download-503": ("image", {"prompt": "tide eye, image 503"}, "/_sim/images/", "503"),
    "h3-download-503": (
        "video",
        {
            "model": "MiniMax-H3",
            "duration": 4,
            "resolution": "768P",
            "ratio": "16:9",
            "prompt": "tide eye, h3 503",
        },
        "/_sim/v2/",
        "503",
    ),
    "h3-download-times-out": (
        "video",
        {
            "model": "MiniMax-H3",
            "duration": 4,
            "resolution": "768P",
            "ratio": "16:9",
            "prompt": "tide eye, h3 held",
        },
        "/_sim/v2/",
        "timeout",
    ),
    "async-speech-retrieve-times-out": (
        "speech",
        {"text": LONG_TEXT, "voice": "English_expressive_narrator"},
        "/v1/files/retrieve",
        "timeout",
    ),
    "async-speech-download-503": (
        "speech",
        {"text": LONG_TEXT + "Again.", "voice": "English_expressive_narrator"},
        "/_sim/sound/",
        "503",
    ),
}


class Wrong:
    """The proxy's ``intercept``: the first ``times`` GETs under ``prefix`` are held until the
    client has given up (``timeout``; let go at the end of the test) or answered 503; later
    ones pass."""

    def __init__(self, prefix: str, how: str, times: int = DOWNLOAD_ATTEMPTS) -> None:
        self.prefix, self.how, self.left = prefix, how, times
        self.struck = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, method: str, path: str) -> Answer | None:
        if method != "GET" or not path.startswith(self.prefix):
            return None
        with self._lock:
            if not self.left:
                return None
            self.left -= 1
            self.struck.set()
        if self.how == "timeout":
            self.release.wait(READ_TIMEOUT * 10)  # far past the read timeout: the client left
            return Answer({"error": "held"}, status=503)
        return Answer(b"<html>503 Service Unavailable</html>", status=503, content_type="text/html")


@contextlib.asynccontextmanager
async def proxied(
    data_dir: Path, store_url: str, sim: SimServer, wrong: Wrong
) -> AsyncIterator[SlateService]:
    """A service whose provider is the demo behind a proxy; every link the demo hands out
    (file, image, video, sound) is rewritten to pass through the proxy too."""
    proxy = RewritingProxy(sim.base_url, intercept=wrong)

    def through_proxy(_m: str, _p: str, _q: str, answer: dict[str, Any]) -> dict[str, Any] | None:
        text = json.dumps(answer)
        if sim.base_url not in text:
            return None
        return dict(json.loads(text.replace(sim.base_url, proxy.base_url)))

    proxy.rewrite = through_proxy
    store = open_store(store_url)
    provider = DemoProvider(proxy.base_url, timeout=READ_TIMEOUT, connect_timeout=2.0)
    svc = SlateService(make_config(data_dir, store_url), store, provider, SECRET)
    try:
        yield svc
    finally:
        wrong.release.set()
        await svc.aclose()
        await provider.aclose()
        store.close()
        proxy.stop()


@pytest.mark.parametrize("case", list(CASES))
async def test_reads_that_fail_for_a_while_are_asked_again_and_the_slot_succeeds(
    data_dir, store_url, demo_sim, case
):
    kind, params, prefix, how = CASES[case]
    rid = RID + case
    wrong = Wrong(prefix, how)
    async with proxied(data_dir, store_url, demo_sim, wrong) as svc:
        out = await svc.submit(rid, kind, params)
        assert out.task is not None and out.task.state not in (State.FAIL, State.UNKNOWN), (
            out.task and out.task.error
        )
        done = await svc.wait(rid, max_seconds=120)
        events = (await svc.history(rid)).payload.events
        said = [(e.event, e.detail) for e in events]
        task = done.task
        assert task.state is State.SUCCESS, (task.error, said)
        assert wrong.left == 0, ("the reads never went wrong", said)
        assert task.media, said
        for m in task.media:
            assert sha256_file(data_dir / m.path) == m.sha256  # (an absolute path stays one)
        assert [e for e in said if e[0] == "query_failed"], said  # the failed read is recorded
        assert not [e for e in said if e[0] == "verification_failed"], said
    stats = demo_sim.stats()
    key = params.get("prompt") or params["text"]
    assert stats["creates_by_prompt"].get(key) == 1, stats["creates_by_prompt"]
    assert stats["made_by_prompt"].get(key) == 1
