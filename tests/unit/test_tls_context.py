"""Every HTTP client of a process verifies TLS with one context per ``trust_env``: making a
context reads the whole CA file (~50 ms of CPU), which the app, a command and each test's
provider would otherwise pay again for every client."""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

import pytest

from app.providers import http
from app.providers.http import ApiClient, tls_context


def _made(client: ApiClient) -> Any:
    made = client.client  # made on first use
    asyncio.run(client.aclose())
    return made


def test_the_ca_file_is_read_once_for_many_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[object] = []
    real = ssl.SSLContext.load_verify_locations

    def counted(self: ssl.SSLContext, *a: Any, **kw: Any) -> None:
        reads.append(self)
        real(self, *a, **kw)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    tls_context.cache_clear()
    for _ in range(3):
        _made(ApiClient("sk-test-key-123456", "http://127.0.0.1:9"))
    assert len(reads) == 1
    for _ in range(3):
        _made(ApiClient("sk-test-key-123456", "https://api.minimax.io"))
    assert len(reads) == 2  # the remote one reads the environment's CA settings: its own


def test_a_client_verifies_with_the_shared_context_of_its_trust_env() -> None:
    local = ApiClient("sk-test-key-123456", "http://127.0.0.1:9")
    remote = ApiClient("sk-test-key-123456", "https://api.minimaxi.com")
    for client, trust_env in ((local, False), (remote, True)):
        pool = _made(client)._transport._pool
        assert pool._ssl_context is http.tls_context(trust_env)
        assert pool._ssl_context.verify_mode == ssl.CERT_REQUIRED
        assert pool._ssl_context.check_hostname
    assert tls_context(True) is not tls_context(False)
