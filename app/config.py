"""Configuration: flags, environment variables and platform directories, in that order of weight."""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Mapping

import platformdirs

from app.domain.errors import ValidationError
from app.domain.prices import parse_money
from app.domain.slots import normalize_tenant, validate_user

APP_NAME = "Slate"
DEFAULT_BASE_URL = "https://api.minimax.io"
REGION_URLS = {"global": "https://api.minimax.io", "cn": "https://api.minimaxi.com"}

#: option name → environment variable (DESIGN.md, "Command line").
ENV = {
    "data_dir": "SLATE_DATA_DIR",
    "store": "SLATE_STORE",
    "provider": "SLATE_PROVIDER",
    "base_url": "SLATE_BASE_URL",
    "tenant": "SLATE_TENANT",
    "user": "SLATE_USER",
    "timeout": "SLATE_TIMEOUT",
    "poll_interval": "SLATE_POLL_INTERVAL",
    "quota_video": "SLATE_QUOTA_VIDEO",
    "quota_image": "SLATE_QUOTA_IMAGE",
    "demo_fault": "SLATE_DEMO_FAULT",
    "budget_daily": "SLATE_BUDGET_DAILY",
}


def _default_user() -> str:
    try:
        return getpass.getuser() or "designer"
    except Exception:  # noqa: BLE001 - no login name on some containers
        return "designer"


@dataclass(frozen=True)
class Config:
    data_dir: Path
    store: str
    provider: str | None  # None: minimax when a key exists, else demo
    base_url: str | None
    tenant: str
    user: str
    timeout: float = 60.0
    poll_interval: float | None = None  # None: provider default (10 s MiniMax, 1 s demo)
    quota_video: int | None = None
    quota_image: int | None = None
    max_requests_per_second: float = 5.0
    max_concurrent_polls: int = 8
    demo_stage_seconds: float = 2.0
    demo_fault: str | None = None  # fault switches of the embedded demo provider (validated)
    #: The daily money budget per user, in the price table's currency (None: no budget).
    budget_daily: Decimal | None = None
    #: The user's price file (None: ``prices.toml`` in Slate's config folder).
    prices_file: Path | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def with_(self, **changes: Any) -> "Config":
        return replace(self, **changes)

    @property
    def media_dir(self) -> Path:
        return self.data_dir / "media"

    def quota_limit(self, kind: str) -> int | None:
        return self.quota_video if kind == "video" else self.quota_image


def _num(name: str, value: Any, cast: type, minimum: float) -> Any:
    try:
        out = cast(value)
    except (TypeError, ValueError):
        raise ValidationError(name, f"must be a number, got {value!r}") from None
    if out < minimum:
        raise ValidationError(name, f"must be at least {minimum}")
    return out


def load(options: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Build the config: explicit options win over the environment, which wins over defaults."""
    options = options or {}
    environ = os.environ if environ is None else environ

    def pick(name: str) -> Any:
        value = options.get(name)
        if value is None or value == "":
            value = environ.get(ENV[name]) or None
        return value

    data_dir = Path(pick("data_dir") or platformdirs.user_data_dir(APP_NAME, appauthor=False)).expanduser()
    store = pick("store") or f"sqlite:///{(data_dir / 'slate.sqlite3').as_posix()}"
    provider = pick("provider")
    if provider is not None and provider not in ("minimax", "demo"):
        raise ValidationError("provider", "must be minimax or demo")
    base_url = pick("base_url")
    tenant = normalize_tenant(pick("tenant") or "personal")
    user = validate_user(pick("user") or _default_user())
    timeout = _num("timeout", pick("timeout") or 60, float, 0.1)
    poll = pick("poll_interval")
    poll_interval = None if poll is None else _num("poll_interval", poll, float, 0.01)
    qv, qi = pick("quota_video"), pick("quota_image")
    budget = pick("budget_daily")
    return Config(
        data_dir=data_dir,
        store=store,
        provider=provider,
        base_url=base_url,
        tenant=tenant,
        user=user,
        timeout=timeout,
        poll_interval=poll_interval,
        quota_video=None if qv is None else _num("quota_video", qv, int, 0),
        quota_image=None if qi is None else _num("quota_image", qi, int, 0),
        demo_stage_seconds=_num(
            "SLATE_DEMO_STAGE_SECONDS", environ.get("SLATE_DEMO_STAGE_SECONDS") or 2.0, float, 0.0
        ),
        demo_fault=_demo_fault(pick("demo_fault")),
        budget_daily=None if budget is None else _budget(budget),
    )


def _budget(value: Any) -> Decimal:
    """``SLATE_BUDGET_DAILY``: a finite, non-negative amount such as 5 or 12.50."""
    try:
        return parse_money(value, "budget_daily")
    except ValidationError as exc:
        raise ValidationError("budget_daily", f"{exc.message} (SLATE_BUDGET_DAILY, the daily "
                              "budget in the price table's currency)") from None


def demo_faults(config: Config) -> dict[str, Any]:
    """The embedded demo provider's fault switches named by ``config.demo_fault``."""
    return _parse_demo_fault(config.demo_fault) if config.demo_fault else {}


def _demo_fault(spec: Any) -> str | None:
    """``--demo-fault`` / SLATE_DEMO_FAULT: switches of ``slate sim --fault``, checked here."""
    if spec is None or not str(spec).strip():
        return None
    _parse_demo_fault(str(spec))
    return str(spec).strip()


def _parse_demo_fault(spec: str) -> dict[str, Any]:
    from app.sim.config import parse_faults

    try:
        return parse_faults(spec)
    except ValueError as exc:
        raise ValidationError("demo_fault", str(exc)) from None
