"""The one composition root: config → store → provider → service."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from app.config import DEFAULT_BASE_URL, Config, demo_faults
from app.domain.errors import ValidationError
from app.providers.base import Provider
from app.service import secrets
from app.service.slate import SlateService
from app.store.aio import Store, open_store

log = logging.getLogger(__name__)


@dataclass
class Slate:
    """A running Slate: the service and what it owns."""

    config: Config
    store: Store
    provider: Provider
    service: SlateService
    sim: Any = None  # the embedded demo provider, when one was started
    warnings: list[str] = field(default_factory=list)
    key_source: str = "none"

    @property
    def demo(self) -> bool:
        return self.provider.name == "demo"

    async def aclose(self) -> None:
        try:
            await self.service.aclose()
            await self.provider.aclose()
        finally:
            if self.sim is not None:
                self.sim.stop()
                self.sim = None
            self.store.close()


def open_store_of(config: Config) -> Store:
    return open_store(config.store)


def make_provider(config: Config, key: str | None) -> tuple[Provider, Any]:
    """The provider named by the config (minimax when a key exists, else demo)."""
    from app.providers.demo import DemoProvider
    from app.providers.minimax import MiniMaxProvider

    name = config.provider or ("minimax" if key else "demo")
    if config.demo_fault and (name == "minimax" or config.base_url):
        raise ValidationError(
            "demo_fault", "applies to the embedded demo provider only (no API key, no --base-url);"
            " for a standalone demo provider use `slate sim --fault`"
        )
    if name == "minimax":
        if not key:
            raise ValidationError(
                "api_key", "no MiniMax API key: set MINIMAX_API_KEY or run `slate key set` "
                "(or use --provider demo)"
            )
        try:
            return MiniMaxProvider(key, config.base_url or DEFAULT_BASE_URL, timeout=config.timeout), None
        except ValueError as exc:
            raise ValidationError("base_url", str(exc)) from None
    if config.base_url:
        try:
            return DemoProvider(config.base_url, timeout=config.timeout), None
        except ValueError as exc:
            raise ValidationError("base_url", str(exc)) from None
    from app.sim import SimConfig, start_sim

    config.data_dir.mkdir(parents=True, exist_ok=True)
    sim_config = SimConfig.with_latency(
        config.demo_stage_seconds * 3, state_path=config.data_dir / "demo-provider.sqlite3"
    )
    sim_config.faults.update(**demo_faults(config))
    sim = start_sim(sim_config)
    return DemoProvider(sim.base_url, timeout=config.timeout), sim


def build(config: Config) -> Slate:
    """Open the store (migrating it), pick the provider, build the service."""
    key, source = secrets.api_key()
    store = open_store_of(config)
    secret, warning = secrets.handle_secret(config.data_dir, config.store)
    provider, sim = make_provider(config, key)
    service = SlateService(config, store, provider, secret)
    app = Slate(config, store, provider, service, sim, key_source=source)
    if warning:
        log.warning(warning)
        app.warnings.append(warning)
    return app
