"""The desktop app builds its service in a worker thread after the first paint
(``app.ui.app._build``). The provider's HTTP client is made on first use (a command that never
calls the provider does not pay for httpx and a TLS context); the app makes it in that thread,
so the window's loop does not pay it at its first request."""

from __future__ import annotations

import asyncio
import threading

from app.providers import http
from app.ui import app as app_mod
from tests.support.fixtures import make_config, sqlite_url


def test_the_apps_build_thread_makes_the_providers_http_client(data_dir, demo_sim, monkeypatch):
    made_in: list[str] = []
    make = http.ApiClient.client.fget
    assert make is not None

    def client(self):  # the real property, told which thread first made the client
        if self._client is None:
            made_in.append(threading.current_thread().name)
        return make(self)

    monkeypatch.setattr(http.ApiClient, "client", property(client))
    config = make_config(data_dir, sqlite_url(data_dir), base_url=demo_sim.base_url)

    async def build_and_close() -> None:
        slate = await app_mod._build(config)
        try:
            assert slate.provider.http._client is not None  # made before any request
            assert slate.service.ctx._prices is not None  # and the price table a submit reads
        finally:
            await slate.aclose()

    asyncio.run(build_and_close())
    assert len(made_in) == 1 and made_in[0] != threading.main_thread().name, made_in


#: The app's build (``_build``), then the provider's first request: what that request loaded.
FIRST_REQUEST = """
import asyncio, json, sys, time
from pathlib import Path
from app.ui import app as app_mod
from tests.support.fixtures import make_config, sqlite_url

data, base = Path(sys.argv[1]), sys.argv[2]
config = make_config(data, sqlite_url(data), base_url=base)

async def main():
    slate = await app_mod._build(config)
    try:
        before = set(sys.modules)
        await slate.provider.list_tasks(0, time.time())
        print(json.dumps(sorted(set(sys.modules) - before)))
    finally:
        await slate.aclose()

asyncio.run(main())
"""


def test_the_providers_first_request_loads_nothing_on_the_apps_loop(data_dir, demo_sim):
    """httpcore's first connection loads anyio's asyncio backend (~50-90 ms): on the window's
    loop that was the worst pause after the start (issue 34's polling figure). The build
    thread loads it with the client. A process of its own: this one has them all loaded."""
    import json
    import os
    import subprocess
    import sys

    from tests.support.fixtures import ROOT

    proc = subprocess.run(
        [sys.executable, "-c", FIRST_REQUEST, str(data_dir), demo_sim.base_url],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
