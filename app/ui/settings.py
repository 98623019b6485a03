"""The user's settings, in one place: read, write and apply them (mnelab's ``settings.py``).

Three kinds of values live in the platform's settings store (``QSettings``):

- :class:`ServiceSettings` — what the Settings dialog edits: region, team, designer, quotas, the
  daily money budget, poll interval, data folder and store. They are applied to the :class:`~app.config.Config` the CLI
  built, except for the fields a flag or an environment variable fixed for this run
  (:func:`fixed_fields`).
- :class:`DraftDefaults` — the kind, model, duration, resolution and ratio a fresh draft starts
  from, and :attr:`Settings.notify_finished` (tell the designer when a slot they started ends).
- the window's layout (geometry, splitters, the last slot) under ``window/``
  (:meth:`Settings.restore_window`, :meth:`Settings.save_window`).

Applying the dialog's values runs here too (:meth:`Settings.check_values`,
:meth:`Settings.apply_change`): the window only shows the dialog and says the result.

There are no module globals: a :class:`Settings` object carries the store and this run's fixed
fields and is handed to the window. ``slate gui --screenshot`` runs on a :meth:`Settings.snapshot`,
a throwaway copy, so a screenshot never writes the user's settings.
"""

from __future__ import annotations

import logging
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from app import config as config_mod
from app.config import ENV, REGION_URLS, Config
from app.domain import params_v2
from app.domain.errors import ValidationError
from app.domain.params import (
    ASPECT_RATIOS,
    DEFAULT_ASPECT_RATIO,
    DEFAULT_SECONDS,
    IMAGE_MODELS,
    VIDEO_MODELS,
)
from app.domain.protocols import V2_MODELS
from app.domain.prices import parse_money
from app.ui.qt import QT_TRANSLATE_NOOP, QByteArray, QSettings, translate
from app.ui.style import THEME_CHOICES

log = logging.getLogger(__name__)

# The keys of :class:`ServiceSettings` under ``settings/`` (the names are those of the config).
SERVICE_KEYS = (
    "region",
    "tenant",
    "user",
    "quota_video",
    "quota_image",
    "budget_daily",
    "poll_interval",
    "data_dir",
    "store",
)
# The config fields a saved setting may change (the region is applied as ``base_url``).
_APPLIED = (
    "tenant",
    "user",
    "quota_video",
    "quota_image",
    "budget_daily",
    "poll_interval",
    "data_dir",
    "store",
)
DRAFT_KEYS = ("kind", "model", "duration", "resolution", "ratio")
KINDS = ("video", "image")
REGIONS = tuple(REGION_URLS)
NOTIFY_KEY = "notifications/slotFinished"
THEME_KEY = "appearance/theme"
TILE_KEY = "gallery/tileSize"
LANGUAGE_KEY = "appearance/language"
HISTORY_KEY = "window/historyPanel"
#: Where the last start found the API key: the first window's guess of the provider (issue 34).
KEY_SOURCE_KEY = "start/keySource"
KEY_SOURCES = ("env", "keyring", "none")
#: The languages Settings offers: follow the system, or one of Slate's catalogues.
LANGUAGES = ("system", "en", "zh_CN")

NOT_A_STORE_URL = QT_TRANSLATE_NOOP(
    "MainWindow",
    "Database: not a database address (sqlite:///path or postgresql://host/name).",
)


def _empty(value: Any) -> bool:
    return value is None or value == ""


def _number(name: str, value: Any, cast: type) -> Any:
    if _empty(value):
        return None
    if isinstance(value, bool):
        raise ValidationError(name, f"must be a number, got {value!r}")
    try:
        out = cast(value)
    except (TypeError, ValueError):
        raise ValidationError(name, f"must be a number, got {value!r}") from None
    return out


def _text(value: Any) -> str | None:
    if _empty(value):
        return None
    return str(value).strip() or None


# -- the values --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ServiceSettings:
    """What the Settings dialog edits. ``None`` means the default (no quota, the provider's poll
    interval, the platform's data folder, SQLite in the data folder), never "keep what runs"."""

    region: str = "global"
    tenant: str | None = None
    user: str | None = None
    quota_video: int | None = None
    quota_image: int | None = None
    #: The daily money budget per designer, in the price table's currency, as exact decimal text
    #: (``SLATE_BUDGET_DAILY``); None: no budget.
    budget_daily: str | None = None
    poll_interval: float | None = None
    data_dir: str | None = None
    store: str | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> ServiceSettings:
        """From the dialog's values or the saved strings; a value that is no number raises a
        :class:`ValidationError` naming its field. Other keys (the API key) are ignored."""
        region = _text(values.get("region")) or "global"
        if region not in REGIONS:
            raise ValidationError("region", f"must be one of {', '.join(REGIONS)}, got {region!r}")
        quota_video = _number("quota_video", values.get("quota_video"), int)
        quota_image = _number("quota_image", values.get("quota_image"), int)
        budget = values.get("budget_daily")
        return cls(
            region=region,
            tenant=_text(values.get("tenant")),
            user=_text(values.get("user")),
            quota_video=quota_video,
            quota_image=quota_image,
            budget_daily=None if _empty(budget) else str(parse_money(budget, "budget_daily")),
            poll_interval=_number("poll_interval", values.get("poll_interval"), float),
            data_dir=_text(values.get("data_dir")),
            store=_text(values.get("store")),
        )

    def values(self) -> dict[str, Any]:
        """The set values by name (what is saved; unset ones are left out)."""
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class DraftDefaults:
    """What a fresh draft starts from (issue 12: the user's defaults, not the last slot's).
    ``None`` leaves the form's own default for that field."""

    kind: str = "video"
    model: str | None = None
    duration: int | None = None
    resolution: str | None = None
    ratio: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValidationError("kind", f"must be video or image, got {self.kind!r}")
        if self.duration is not None and (
            isinstance(self.duration, bool)
            or not isinstance(self.duration, int)
            or self.duration <= 0
        ):
            raise ValidationError(
                "duration", f"must be a whole number of seconds, got {self.duration!r}"
            )
        for name in ("model", "resolution", "ratio"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise ValidationError(name, f"must be a non-empty text, got {value!r}")


@dataclass(frozen=True)
class NewSlotChoices:
    """What Settings offers a new slot of one model, and what that slot starts at when nothing
    is chosen: the domain's rule tables and the defaults the service fills in (the values a
    fresh draft shows). An image model has no durations or resolutions, only ratios."""

    durations: tuple[int, ...]
    duration: int | None
    resolutions: tuple[str, ...]
    resolution: str | None
    ratios: tuple[str, ...]
    ratio: str | None


def new_slot_models(kind: str) -> tuple[str, ...]:
    """The models a new slot of ``kind`` may start as, first the one it starts as by default."""
    return (*V2_MODELS, *VIDEO_MODELS) if kind == "video" else tuple(IMAGE_MODELS)


def new_slot_choices(kind: str, model: str | None) -> NewSlotChoices:
    """The choices of ``model`` (None: the kind's first) and the values it starts at."""
    model = model or new_slot_models(kind)[0]
    if kind != "video":
        return NewSlotChoices((), None, (), None, ASPECT_RATIOS, DEFAULT_ASPECT_RATIO)
    if model in params_v2.MODELS:
        v2 = params_v2.MODELS[model]
        durations = tuple(range(v2.min_seconds, v2.max_seconds + 1))
        return NewSlotChoices(
            durations,
            params_v2.DEFAULT_DURATION,
            v2.resolutions,
            params_v2.DEFAULT_RESOLUTION,
            (),
            None,
        )
    rule = VIDEO_MODELS[model]
    durations = tuple(sorted(rule.resolutions))
    duration = DEFAULT_SECONDS if DEFAULT_SECONDS in durations else durations[0]
    resolutions: list[str] = []
    for rs in rule.resolutions.values():
        resolutions += [r for r in rs if r not in resolutions]
    return NewSlotChoices(
        durations, duration, tuple(resolutions), rule.default_resolution.get(duration), (), None
    )


@dataclass(frozen=True)
class SettingsChange:
    """What the Settings dialog asks for: the service settings and what to do with the key.

    The key is kept out of ``repr`` so that it can never reach a log line or a traceback.
    """

    service: ServiceSettings
    api_key: str | None = field(default=None, repr=False)
    clear_api_key: bool = False

    @classmethod
    def from_dialog(cls, values: Mapping[str, Any]) -> SettingsChange:
        key = values.get("api_key") or None
        return cls(
            ServiceSettings.from_values(values),
            api_key=key,
            clear_api_key=bool(values.get("clear_api_key")) and key is None,
        )


# -- applying them to the config -----------------------------------------------------------------
def fixed_fields(config: Config, environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """Fields the user set for this run (flags or environment): they win over saved settings."""
    environ = os.environ if environ is None else environ
    fixed = {name for name, var in ENV.items() if environ.get(var)}
    try:
        plain = config_mod.load({}, environ)
    except Exception:  # noqa: BLE001 - a bad environment already failed in the CLI
        return frozenset(fixed)
    for name in ENV:
        if getattr(plain, name, None) != getattr(config, name, None):
            fixed.add(name)
    return frozenset(fixed)


def default_store(data_dir: Any) -> str:
    """The store a data dir gets when no store URL is set (as :func:`app.config.load` makes it)."""
    return f"sqlite:///{(Path(data_dir).expanduser() / 'slate.sqlite3').as_posix()}"


def apply(
    config: Config,
    settings: ServiceSettings,
    *,
    key_source: str = "none",
    fixed: Iterable[str] = (),
) -> Config:
    """``config`` with ``settings`` applied, validated like flags.

    A setting that is not set means its default, not "keep what runs now". Fields fixed for this
    run by a flag or an environment variable keep their value. The region picks the base URL only
    when a key exists (without one the demo provider runs).
    """
    fixed = frozenset(fixed)
    merged = {name: getattr(config, name) for name in ENV}
    for key in _APPLIED:
        if key not in fixed:
            merged[key] = getattr(settings, key)
    if "base_url" not in fixed and "provider" not in fixed:
        region = settings.region
        merged["base_url"] = (
            REGION_URLS.get(region) if key_source != "none" and region != "global" else None
        )
        merged["provider"] = None
    new = config_mod.load({k: v for k, v in merged.items() if v is not None}, environ={})
    return new.with_(
        demo_stage_seconds=config.demo_stage_seconds,
        timeout=config.timeout,
        max_requests_per_second=config.max_requests_per_second,
        max_concurrent_polls=config.max_concurrent_polls,
    )


def check(
    config: Config,
    settings: ServiceSettings,
    *,
    key_source: str = "none",
    fixed: Iterable[str] = (),
) -> str | None:
    """What is wrong with ``settings`` in the designer's words (translated), or None."""
    from sqlalchemy.engine import make_url

    try:
        cfg = apply(config, settings, key_source=key_source, fixed=fixed)
    except Exception as exc:  # noqa: BLE001 - the message is for the user
        return str(exc)
    try:
        make_url(cfg.store)
    except Exception:  # noqa: BLE001 - SQLAlchemy's words don't help a designer
        return translate("MainWindow", NOT_A_STORE_URL)
    return None


def dialog_values(config: Config, region: str = "global") -> dict[str, Any]:
    """What the Settings dialog shows: the running config, and the saved region."""
    return {
        "tenant": config.tenant,
        "user": config.user,
        "quota_video": config.quota_video,
        "quota_image": config.quota_image,
        "poll_interval": config.poll_interval,
        "budget_daily": None if config.budget_daily is None else str(config.budget_daily),
        "data_dir": str(config.data_dir),
        # the default store follows the data folder: show it as the placeholder, not as a URL
        "store": "" if config.store == default_store(config.data_dir) else config.store,
        "region": region,
    }


class ServiceHost(Protocol):
    """What applying settings needs of the app's controller (:class:`app.ui.controller.Controller`):
    the running config, where the key comes from, the key operations and the rebuild. Each
    operation answers ``done(None)`` or ``done(reason)``."""

    key_source: str

    @property
    def config(self) -> Config: ...

    def set_api_key(self, key: str, done: Callable[[str | None], None]) -> None: ...

    def delete_api_key(self, done: Callable[[str | None], None]) -> None: ...

    def reconfigure(
        self, config: Config, done: Callable[[str | None], None] | None = None
    ) -> None: ...


# -- the store ---------------------------------------------------------------------------------
def _flag(value: Any, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if isinstance(value, int):
        return bool(value)
    return default


class Settings:
    """The user's saved settings and the config fields this run fixed (flags, environment).

    ``qsettings`` is the platform store (``QSettings()``, or an INI file in tests); the window
    keeps its layout there too.
    """

    def __init__(self, qsettings: QSettings | None = None, *, fixed: Iterable[str] = ()) -> None:
        self.qsettings = qsettings if qsettings is not None else QSettings()
        self.fixed = frozenset(fixed)
        self._scratch: tempfile.TemporaryDirectory[str] | None = None

    # service settings
    def service(self) -> ServiceSettings:
        """The saved service settings; a saved value that is no number raises ValidationError."""
        raw = {key: self.qsettings.value(f"settings/{key}") for key in SERVICE_KEYS}
        return ServiceSettings.from_values(raw)

    def saved_region(self) -> str:
        value = _text(self.qsettings.value("settings/region"))
        return value if value in REGIONS else "global"

    def save_service(self, settings: ServiceSettings) -> None:
        values = settings.values()
        for key in SERVICE_KEYS:
            if key in values:
                self.qsettings.setValue(f"settings/{key}", values[key])
            else:
                self.qsettings.remove(f"settings/{key}")
        self.qsettings.sync()

    def config(self, config: Config, *, key_source: str = "none") -> Config:
        """``config`` with the saved service settings applied (nothing saved: ``config`` itself)."""
        if all(_empty(self.qsettings.value(f"settings/{key}")) for key in SERVICE_KEYS):
            return config
        return apply(config, self.service(), key_source=key_source, fixed=self.fixed)

    def check_values(self, host: ServiceHost, values: Mapping[str, Any]) -> str | None:
        """What is wrong with the dialog's ``values`` (said before it closes), or None."""
        try:
            service = ServiceSettings.from_values(values)
        except Exception as exc:  # noqa: BLE001 - the message is for the user
            return str(exc)
        return check(host.config, service, key_source=host.key_source, fixed=self.fixed)

    def apply_change(
        self, host: ServiceHost, change: SettingsChange, done: Callable[[str | None], None]
    ) -> None:
        """Store or remove the key if asked, rebuild the service with ``change``, and save the
        service settings once the new service runs; then ``done(None)``. Otherwise
        ``done(reason)``: a store that cannot be opened leaves the old service and the saved
        settings as they were; a key that could not be stored or removed is said, and the rest
        is applied (but not saved)."""

        def finished(err: str | None) -> None:
            if not err:
                self.save_service(change.service)
            done(err)

        def rebuild(key_err: str | None = None) -> None:
            try:
                cfg = apply(
                    host.config, change.service, key_source=host.key_source, fixed=self.fixed
                )
            except Exception as exc:  # noqa: BLE001 - a bad value is said, not raised
                finished(str(exc))
                return
            host.reconfigure(cfg, (lambda e: finished(e or key_err)) if key_err else finished)

        if change.api_key:
            host.set_api_key(change.api_key, rebuild)
        elif change.clear_api_key:
            host.delete_api_key(rebuild)
        else:
            rebuild()

    # the window's layout
    def layout_state(self, key: str) -> QByteArray | None:
        """The saved state ``window/<key>`` (geometry, splitter, header…), or None."""
        value = self.qsettings.value(f"window/{key}")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def restore_window(self, window: Any, parts: Mapping[str, Callable[[QByteArray], Any]]) -> None:
        """The window's saved geometry and size, then each part's state (``window/<key>``)."""
        geometry = self.layout_state("geometry")
        if geometry is not None:
            window.restoreGeometry(geometry)
        size = self.qsettings.value("window/size")
        if (
            size is not None
            and hasattr(size, "isValid")
            and size.isValid()
            and (not window.isMaximized())
        ):
            window.resize(size)
        for key, restore in parts.items():
            state = self.layout_state(key)
            if state is not None:
                restore(state)

    def save_window(
        self, window: Any, parts: Mapping[str, Callable[[], Any]], last_slot: str | None = None
    ) -> None:
        """Save the window's geometry and size, each part's state, and the slot on screen."""
        values = {"geometry": window.saveGeometry(), "size": window.size()}
        values.update({key: save() for key, save in parts.items()})
        if last_slot:
            values["lastSlot"] = last_slot
        for key, value in values.items():
            self.qsettings.setValue(f"window/{key}", value)
        self.qsettings.sync()

    # draft defaults and notifications
    def draft_defaults(self) -> DraftDefaults:
        """The saved defaults of a fresh draft. A bad saved value is dropped (and logged): a
        hand-edited file never keeps the app from starting."""
        raw: dict[str, Any] = {}
        for key in DRAFT_KEYS:
            value = self.qsettings.value(f"defaults/{key}")
            if _empty(value):
                continue
            try:
                if key == "duration":
                    value = int(value)
                raw[key] = value
                DraftDefaults(**raw)
            except (TypeError, ValueError, ValidationError) as exc:
                log.warning("ignoring the saved draft default %s=%r: %s", key, value, exc)
                raw.pop(key, None)
        return DraftDefaults(**raw)

    def save_draft_defaults(self, defaults: DraftDefaults) -> None:
        for key in DRAFT_KEYS:
            value = getattr(defaults, key)
            if value is None:
                self.qsettings.remove(f"defaults/{key}")
            else:
                self.qsettings.setValue(f"defaults/{key}", value)
        self.qsettings.sync()

    @property
    def notify_finished(self) -> bool:
        """Tell the designer when a slot they started reaches success, fail or unknown."""
        return _flag(self.qsettings.value(NOTIFY_KEY), True)

    @notify_finished.setter
    def notify_finished(self, on: bool) -> None:
        self.qsettings.setValue(NOTIFY_KEY, bool(on))
        self.qsettings.sync()

    @property
    def theme(self) -> str:
        """``system`` (follow the platform's light or dark), ``light`` or ``dark``."""
        value = self.qsettings.value(THEME_KEY)
        return value if value in THEME_CHOICES else "system"

    @theme.setter
    def theme(self, choice: str) -> None:
        self.qsettings.setValue(THEME_KEY, choice if choice in THEME_CHOICES else "system")
        self.qsettings.sync()

    @property
    def last_key_source(self) -> str:
        """Where the last start found the API key (``env``, ``keyring`` or ``none``): the first
        window shows that provider's slots while the key is looked up (paint first, load after);
        a wrong guess is read again once the service is built."""
        value = self.qsettings.value(KEY_SOURCE_KEY)
        return value if value in KEY_SOURCES else "none"

    @last_key_source.setter
    def last_key_source(self, source: str) -> None:
        if source in KEY_SOURCES and self.qsettings.value(KEY_SOURCE_KEY) != source:
            self.qsettings.setValue(KEY_SOURCE_KEY, source)

    @property
    def language(self) -> str:
        """``system`` (the platform's locale), ``en`` or ``zh_CN``; ``--lang`` wins for a run."""
        value = self.qsettings.value(LANGUAGE_KEY)
        return value if value in LANGUAGES else "system"

    @language.setter
    def language(self, choice: str) -> None:
        self.qsettings.setValue(LANGUAGE_KEY, choice if choice in LANGUAGES else "system")
        self.qsettings.sync()

    @property
    def gallery_tile(self) -> int | None:
        """The gallery's thumbnail size (its slider), or None: the gallery's own default."""
        try:
            return int(self.qsettings.value(TILE_KEY))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None

    @gallery_tile.setter
    def gallery_tile(self, size: int) -> None:
        self.qsettings.setValue(TILE_KEY, int(size))

    @property
    def history_panel(self) -> bool | None:
        """The designer's choice for the window's history side panel (open or closed), or None:
        none made yet (the window opens it when it is wide enough)."""
        value = self.qsettings.value(HISTORY_KEY)
        return None if _empty(value) else _flag(value, True)

    @history_panel.setter
    def history_panel(self, on: bool) -> None:
        self.qsettings.setValue(HISTORY_KEY, bool(on))
        self.qsettings.sync()

    # screenshots
    def snapshot(self) -> Settings:
        """A throwaway copy: it reads like this one, and what is written to it goes nowhere (a
        scratch INI file, removed with the copy)."""
        scratch = tempfile.TemporaryDirectory(prefix="slate-settings-")
        store = QSettings(str(Path(scratch.name) / "settings.ini"), QSettings.Format.IniFormat)
        for key in self.qsettings.allKeys():
            store.setValue(key, self.qsettings.value(key))
        store.sync()
        copy = Settings(store, fixed=self.fixed)
        copy._scratch = scratch
        return copy

    @property
    def is_snapshot(self) -> bool:
        return self._scratch is not None
