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
from app.domain.numbers import number, whole
from app.domain.prices import parse_money
from app.domain.slots import normalize_tenant, normalize_user

APP_NAME = "Slate"
DEFAULT_BASE_URL = "https://api.minimax.io"
#: The environment variable that holds the MiniMax API key (else the OS keyring holds it).
ENV_API_KEY = "MINIMAX_API_KEY"

#: The ranges of the numbers a config holds (seconds, counts): every one finite and in range.
TIMEOUT_RANGE = (0.1, 3600.0)
POLL_INTERVAL_RANGE = (0.01, 3600.0)
QUOTA_MAX = 1_000_000
DEMO_STAGE_MAX = 86_400.0
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
    "quota_music": "SLATE_QUOTA_MUSIC",
    "quota_speech": "SLATE_QUOTA_SPEECH",
    "quota_voice": "SLATE_QUOTA_VOICE",
    "demo_fault": "SLATE_DEMO_FAULT",
    "budget_daily": "SLATE_BUDGET_DAILY",
}


def default_data_dir() -> Path:
    """The platform's data folder for Slate (Slate's alone: it is kept 0700)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


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
    quota_music: int | None = None
    quota_speech: int | None = None
    quota_voice: int | None = None
    #: Whether the timeout was stated (option or environment), not the default: music's create
    #: then waits that long instead of at least 300 s.
    timeout_stated: bool = False
    max_requests_per_second: float = 5.0
    max_concurrent_polls: int = 8
    demo_stage_seconds: float = 2.0
    demo_fault: str | None = None  # fault switches of the embedded demo provider (validated)
    #: The daily money budget per user, in the price table's currency (None: no budget).
    budget_daily: Decimal | None = None
    #: The user's price file (None: ``prices.toml`` in Slate's config folder).
    prices_file: Path | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def provider_identity(self, has_key: bool) -> tuple[str, str]:
        """The provider's name and endpoint this config makes (``bootstrap.make_provider``'s
        choice, read before anything is built): MiniMax when a key exists, else the demo
        provider, whose endpoint is ``local``. The window's scope while the service is built."""
        from app.domain.hosts import endpoint_for

        name = self.provider or ("minimax" if has_key else "demo")
        if name == "minimax":
            return name, endpoint_for(self.base_url or DEFAULT_BASE_URL)
        return name, "local"

    def __post_init__(self) -> None:
        """Every config is checked, however it was made (flags, environment, the GUI's
        settings, code): tenant and user normalized, every number finite and in range."""
        put = object.__setattr__
        put(self, "tenant", normalize_tenant(self.tenant))
        put(self, "user", normalize_user(self.user))
        put(
            self,
            "timeout",
            number("timeout", self.timeout, minimum=TIMEOUT_RANGE[0], maximum=TIMEOUT_RANGE[1]),
        )
        if self.poll_interval is not None:
            put(
                self,
                "poll_interval",
                number(
                    "poll_interval",
                    self.poll_interval,
                    minimum=POLL_INTERVAL_RANGE[0],
                    maximum=POLL_INTERVAL_RANGE[1],
                ),
            )
        for name in (
            "quota_video",
            "quota_image",
            "quota_music",
            "quota_speech",
            "quota_voice",
        ):
            value = getattr(self, name)
            if value is not None:
                put(self, name, whole(name, value, minimum=0, maximum=QUOTA_MAX))
        put(
            self,
            "max_requests_per_second",
            number(
                "max_requests_per_second", self.max_requests_per_second, above=0.0, maximum=10_000.0
            ),
        )
        put(
            self,
            "max_concurrent_polls",
            whole("max_concurrent_polls", self.max_concurrent_polls, minimum=1, maximum=1024),
        )
        put(
            self,
            "demo_stage_seconds",
            number(
                "SLATE_DEMO_STAGE_SECONDS",
                self.demo_stage_seconds,
                minimum=0.0,
                maximum=DEMO_STAGE_MAX,
            ),
        )

    def with_(self, **changes: Any) -> "Config":
        return replace(self, **changes)

    @property
    def media_dir(self) -> Path:
        return self.data_dir / "media"

    def quota_limit(self, kind: str) -> int | None:
        if kind == "prompt":
            return None  # a prompt enhancement has no daily quota of its own (budget applies)
        if kind in ("music", "speech"):
            return self.quota_music if kind == "music" else self.quota_speech
        if kind == "voice":
            return self.quota_voice
        return self.quota_video if kind == "video" else self.quota_image


def load(
    options: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> Config:
    """Build the config: explicit options win over the environment, which wins over defaults."""
    options = options or {}
    environ = os.environ if environ is None else environ

    def pick(name: str) -> Any:
        value = options.get(name)
        if value is None or value == "":
            value = environ.get(ENV[name]) or None
        return value

    data_dir = Path(pick("data_dir") or default_data_dir()).expanduser()
    store = pick("store") or f"sqlite:///{(data_dir / 'slate.sqlite3').as_posix()}"
    provider = pick("provider")
    if provider is not None and provider not in ("minimax", "demo"):
        raise ValidationError("provider", "must be minimax or demo")
    base_url = pick("base_url")
    tenant = normalize_tenant(pick("tenant") or "personal")
    user = normalize_user(pick("user") or _default_user())
    timeout = number(
        "timeout", pick("timeout") or 60, minimum=TIMEOUT_RANGE[0], maximum=TIMEOUT_RANGE[1]
    )
    poll = pick("poll_interval")
    poll_interval = (
        None
        if poll is None
        else number(
            "poll_interval", poll, minimum=POLL_INTERVAL_RANGE[0], maximum=POLL_INTERVAL_RANGE[1]
        )
    )
    qv, qi = pick("quota_video"), pick("quota_image")
    qm, qs = pick("quota_music"), pick("quota_speech")
    qvo = pick("quota_voice")
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
        quota_video=None if qv is None else whole("quota_video", qv, minimum=0, maximum=QUOTA_MAX),
        quota_image=None if qi is None else whole("quota_image", qi, minimum=0, maximum=QUOTA_MAX),
        quota_music=None if qm is None else whole("quota_music", qm, minimum=0, maximum=QUOTA_MAX),
        quota_speech=(
            None if qs is None else whole("quota_speech", qs, minimum=0, maximum=QUOTA_MAX)
        ),
        quota_voice=(
            None if qvo is None else whole("quota_voice", qvo, minimum=0, maximum=QUOTA_MAX)
        ),
        timeout_stated=pick("timeout") is not None,
        demo_stage_seconds=number(
            "SLATE_DEMO_STAGE_SECONDS",
            environ.get("SLATE_DEMO_STAGE_SECONDS") or 2.0,
            minimum=0.0,
            maximum=DEMO_STAGE_MAX,
        ),
        demo_fault=_demo_fault(pick("demo_fault")),
        budget_daily=None if budget is None else _budget(budget),
    )


def _budget(value: Any) -> Decimal:
    """``SLATE_BUDGET_DAILY``: a finite, non-negative amount such as 5 or 12.50."""
    try:
        return parse_money(value, "budget_daily")
    except ValidationError as exc:
        raise ValidationError(
            "budget_daily",
            f"{exc.message} (SLATE_BUDGET_DAILY, the daily budget in the price table's currency)",
        ) from None


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
