"""A submit makes what the provider's first request would make (its HTTP client: httpx, a TLS
context, anyio's backend — 0.1-0.3 s in a fresh process) before it claims the slot. Between the
record (``submitting``) and the send, a crash leaves the slot unknown; the fault soaks saw more
unknown slots once that making had moved to the first request (CI 52): nothing slow may run
there. The demo provider over real HTTP on loopback."""

from __future__ import annotations

from app.providers.demo import DemoProvider


async def test_the_providers_client_exists_before_the_first_claim(make_service, demo_sim):
    provider = DemoProvider(demo_sim.base_url, timeout=5.0)
    service = await make_service(provider=provider)
    store = service.ctx.store
    seen: list[bool] = []
    claim = store.claim

    async def claim_seen(request):  # the real claim, told whether the client was made
        seen.append(provider.http._client is not None)
        return await claim(request)

    store.claim = claim_seen
    try:
        out = await service.submit(
            "article:20261207:warm:still-01", "image", {"prompt": "a lighthouse"}
        )
        assert out.task is not None and out.task.state.value == "success", out
        assert seen == [True]
    finally:
        await provider.aclose()
