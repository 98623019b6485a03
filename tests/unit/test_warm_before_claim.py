"""A submit makes what the provider's first request would make (its HTTP client: httpx, a TLS
context, anyio's backend — 0.1-0.3 s in a fresh process) before it claims the slot. Between the
record (``submitting``) and the send, a crash leaves the slot unknown; the fault soaks saw more
unknown slots once that making had moved to the first request (CI 52): nothing slow may run
there. It is made only when the claim is to write: a replay, answered from the record, sends
nothing and makes nothing (no httpx, no TLS context, no embedded demo provider started). The
demo provider over real HTTP on loopback."""

from __future__ import annotations

from app.providers.demo import DemoProvider

RID = "article:20261207:warm:still-01"


async def test_the_providers_client_exists_before_the_first_claim(make_service, demo_sim):
    provider = DemoProvider(demo_sim.base_url, timeout=5.0)
    service = await make_service(provider=provider)
    store = service.ctx.store
    seen: list[bool] = []
    write = store.claim_transaction

    def write_seen(request):  # the claim's write (the record), told whether the client was made
        seen.append(provider.http._client is not None)
        return write(request)

    store.claim_transaction = write_seen
    try:
        out = await service.submit(RID, "image", {"prompt": "a lighthouse"})
        assert out.task is not None and out.task.state.value == "success", out
        assert seen == [True]
    finally:
        await provider.aclose()


async def test_a_replay_makes_no_client(make_service, demo_sim):
    first = DemoProvider(demo_sim.base_url, timeout=5.0)
    made = await (await make_service(provider=first)).submit(RID, "image", {"prompt": "a cat"})
    assert made.task is not None and made.task.state.value == "success", made
    await first.aclose()
    # another process's service (a provider whose client was never made) replays the slot
    provider = DemoProvider(demo_sim.base_url, timeout=5.0)
    service = await make_service(provider=provider)
    try:
        out = await service.submit(RID, "image", {"prompt": "a cat"})
        assert out.kind.value == "replayed", out
        assert provider.http._client is None  # nothing made for a create that is not sent
        # a conflict is answered from the record too
        other = await service.submit(RID, "image", {"prompt": "a dog"})
        assert other.kind.value == "conflict", other
        assert provider.http._client is None
    finally:
        await provider.aclose()


async def test_a_querys_deadline_starts_once_the_client_is_made(make_service, demo_sim):
    """`slate query` runs one step within the provider timeout: the client (httpx, its TLS
    context, anyio) is made before that deadline starts, not inside it — a loaded machine
    spent most of a 3 s deadline making it, and the step was cut before the provider answered."""
    first = DemoProvider(demo_sim.base_url, timeout=5.0)
    made = await (await make_service(provider=first)).submit(RID, "video", {"prompt": "a kite"})
    assert made.task is not None, made
    await first.aclose()
    provider = DemoProvider(demo_sim.base_url, timeout=5.0)  # another process's: not made yet
    service = await make_service(provider=provider)
    seen: list[tuple[bool, float | None]] = []
    advance = service.lifecycle._advance_until

    async def advance_seen(task, deadline):  # the step, told whether the client was made
        seen.append((provider.http._client is not None, deadline))
        return await advance(task, deadline)

    service.lifecycle._advance_until = advance_seen
    try:
        out = await service.query(RID)
        assert out.task is not None, out
        assert [made for made, _ in seen] == [True]
    finally:
        await provider.aclose()


async def test_the_services_warm_makes_what_the_first_submit_would(make_service, demo_sim):
    """The desktop app warms the service in the thread that builds it (and a long-lived worker
    before its first submit): the provider's client, one request built like a create and never
    sent (httpx fills its type caches on the first), and the price table with the prices this
    user gave. The first submit then reads no price from the store."""
    import httpx

    provider = DemoProvider(demo_sim.base_url, timeout=5.0)
    service = await make_service(provider=provider)
    store = service.ctx.store
    built: list[str] = []
    build = httpx.AsyncClient.build_request

    def build_seen(client, method, url, **kw):
        built.append(f"{method} {url}")
        return build(client, method, url, **kw)

    price_reads: list[str] = []
    given = store.given_prices_now

    def given_seen(scope, currency):
        price_reads.append(currency)
        return given(scope, currency)

    store.given_prices_now = given_seen
    httpx.AsyncClient.build_request = build_seen  # type: ignore[method-assign]
    try:
        sent = demo_sim.stats()["requests_total"]
        service.warm()
        assert provider.http._client is not None
        assert built == [f"POST {demo_sim.base_url}/"]  # built, and never sent:
        assert demo_sim.stats()["requests_total"] == sent
        assert len(price_reads) == 1 and service.ctx._prices is not None
        out = await service.submit(RID, "image", {"prompt": "a lighthouse"})
        assert out.task is not None and out.task.state.value == "success", out
        assert len(price_reads) == 1  # the first submit priced from the table warm made
    finally:
        httpx.AsyncClient.build_request = build  # type: ignore[method-assign]
        await provider.aclose()


async def test_warm_leaves_a_broken_price_override_to_the_submit(make_service, demo_sim, tmp_path):
    bad = tmp_path / "prices.toml"
    bad.write_text("[image-01\n")
    provider = DemoProvider(demo_sim.base_url, timeout=5.0)
    service = await make_service(provider=provider, prices_file=bad)
    try:
        service.warm()  # says nothing: the submit that needs the table refuses, naming it
        out = await service.submit(RID, "image", {"prompt": "a lighthouse"})
        assert out.kind.value == "invalid", out
        assert out.problem is not None and "prices.toml" in out.problem.message
        assert out.task is None
    finally:
        await provider.aclose()
