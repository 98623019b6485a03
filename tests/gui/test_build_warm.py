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
        finally:
            await slate.aclose()

    asyncio.run(build_and_close())
    assert len(made_in) == 1 and made_in[0] != threading.main_thread().name, made_in
