"""HTTP for the tests: httpx's own functions and clients, verifying TLS with this process's one
context (:func:`app.providers.http.tls_context`: the one httpx makes for ``verify=True``, read
once) instead of a new one per call (~20 ms of CPU reading the CA file each time, for a request
to a demo provider on loopback). A ``verify`` given is used as given."""

from __future__ import annotations

from typing import Any

import httpx

from app.providers.http import tls_context


def _verified(kw: dict[str, Any]) -> dict[str, Any]:
    kw.setdefault("verify", tls_context(kw.get("trust_env", True)))
    return kw


def get(url: str, **kw: Any) -> httpx.Response:
    return httpx.get(url, **_verified(kw))


def post(url: str, **kw: Any) -> httpx.Response:
    return httpx.post(url, **_verified(kw))


def delete(url: str, **kw: Any) -> httpx.Response:
    return httpx.delete(url, **_verified(kw))


def Client(**kw: Any) -> httpx.Client:  # noqa: N802 - httpx's name
    return httpx.Client(**_verified(kw))


def AsyncClient(**kw: Any) -> httpx.AsyncClient:  # noqa: N802 - httpx's name
    return httpx.AsyncClient(**_verified(kw))
