"""The voice picker's list over real HTTP on loopback: the provider's ``get_voice`` call against
the demo provider (which judges the request by MiniMax's docs), through the service; a provider
that cannot be reached gives the documented system voices, saying why."""

from __future__ import annotations

import asyncio

from app.domain.params_sound import SYSTEM_VOICES
from app.providers.minimax import MiniMaxProvider
from app.service.sound import list_voices
from app.sim import SimServer


def _provider(base_url: str) -> MiniMaxProvider:
    return MiniMaxProvider(
        "sk-test-key-123456", base_url, name="demo", endpoint="local", timeout=5.0,
        connect_timeout=2.0,
    )  # fmt: skip


def test_get_voice_lists_the_accounts_voices(demo_sim: SimServer):
    async def ask():
        provider = _provider(demo_sim.base_url)
        try:
            return await list_voices(provider)
        finally:
            await provider.aclose()

    listed = asyncio.run(ask()).payload
    assert not listed.documented and listed.problem is None
    ids = [v for v, _ in listed.voices]
    assert "English_expressive_narrator" in ids and "female-shaonv" in ids
    assert dict(listed.voices)["female-shaonv"] == "少女"  # the provider's own name


def test_an_unreachable_provider_gives_the_documented_voices():
    async def ask():
        provider = _provider("http://127.0.0.1:9")  # nothing listens there
        try:
            return await list_voices(provider)
        finally:
            await provider.aclose()

    listed = asyncio.run(ask()).payload
    assert listed.documented and listed.voices == SYSTEM_VOICES and listed.problem
