"""The one composition root: config → store → provider → service."""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.config import DEFAULT_BASE_URL, Config, default_data_dir, demo_faults
from app.domain.errors import BadConfiguration, ValidationError
from app.providers.base import Provider
from app.service import secrets
from app.service.slate import SlateService
from app.start_warnings import WARN_DATA_DIR_OPEN, WARN_SECRET_IN_FILE
from app.store.aio import Store, open_store

log = logging.getLogger(__name__)


@dataclass
class Slate:
    """A running Slate: the service and what it owns."""

    config: Config
    store: Store
    provider: Provider
    service: SlateService
    #: the embedded demo provider, when one was started (or a :class:`LazyDemoProvider`)
    sim: Any = None
    warnings: list[str] = field(default_factory=list)
    key_source: str = "none"
    #: What each warning is about, for the app's own words (WARN_SECRET_IN_FILE, WARN_DATA_DIR_OPEN)
    warning_codes: list[str] = field(default_factory=list)

    @property
    def demo(self) -> bool:
        return self.provider.name == "demo"

    def warm(self) -> None:
        """The service's :meth:`~app.service.slate.SlateService.warm`: the desktop app calls
        it in the thread that builds the service, so the window's loop never pays what the
        first submit makes (the provider's HTTP client and its modules, the price table)."""
        self.service.warm()

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


def make_provider(
    config: Config, key: str | None, *, lazy_demo: bool = False
) -> tuple[Provider, Any]:
    """The provider named by the config (minimax when a key exists, else demo). The embedded
    demo provider is started here, or with ``lazy_demo`` on its client's first request
    (:class:`LazyDemoProvider`: a command that never calls it never starts it)."""
    name, _endpoint = config.provider_identity(bool(key))
    if config.demo_fault and (name == "minimax" or config.base_url):
        raise ValidationError(
            "demo_fault",
            "applies to the embedded demo provider only (no API key, no --base-url);"
            " for a standalone demo provider use `slate sim --fault`",
        )
    if name == "minimax":
        if not key:
            raise ValidationError(
                "api_key",
                "no MiniMax API key: set MINIMAX_API_KEY or run `slate key set` "
                "(or use --provider demo)",
            )
        from app.providers.minimax import MiniMaxProvider  # the demo provider: not loaded

        try:
            return MiniMaxProvider(
                key, config.base_url or DEFAULT_BASE_URL, timeout=config.timeout
            ), None
        except ValueError as exc:
            raise ValidationError("base_url", str(exc)) from None
    from app.providers.demo import DemoProvider

    if config.base_url:
        try:
            return DemoProvider(config.base_url, timeout=config.timeout), None
        except ValueError as exc:
            raise ValidationError("base_url", str(exc)) from None
    prepare_data_dir(config)
    if lazy_demo:
        lazy = LazyDemoProvider(config)
        provider = DemoProvider(
            lazy.base_url, timeout=config.timeout, transport=lazy, starter=lazy.start
        )
        lazy.provider = provider
        return provider, lazy
    sim = start_embedded_sim(_sim_config(config), config.data_dir / DEMO_PORT_FILE)
    return DemoProvider(sim.base_url, timeout=config.timeout), sim


def _sim_config(config: Config) -> Any:
    from app.sim import SimConfig

    sim_config = SimConfig.with_latency(
        config.demo_stage_seconds * 3, state_path=config.data_dir / "demo-provider.sqlite3"
    )
    sim_config.faults.update(**demo_faults(config))
    return sim_config


class LazyDemoProvider:
    """The embedded demo provider, started on the first request its client makes (``slate``'s
    commands: most never call it). It is the transport of that client — every request passes
    here — and sends through httpx's own transport once the demo provider runs.

    The client is made for the port remembered in the data dir (:data:`DEMO_PORT_FILE`); when
    the demo provider has to listen on another one (that port is taken, or none was
    remembered yet), the provider and the requests made for the remembered port are pointed at
    the port it listens on. It starts on the thread that sends — the CLI's event loop, on the
    main thread, where the demo provider's Qt application for rendering media can be made."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._port_file = config.data_dir / DEMO_PORT_FILE
        #: where the client sends until the demo provider runs (0: no port remembered yet)
        self.base_url = f"http://127.0.0.1:{_remembered_port(self._port_file) or 0}"
        self.provider: Any = None  # the DemoProvider sending through this
        self.sim: Any = None  # the running demo provider, once started
        self._sends: Any = None  # httpx's transport, made with the demo provider
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the demo provider now (once; later calls return at once)."""
        if self.sim is not None:  # every submit warms the provider: no lock once started
            return
        with self._lock:
            if self.sim is not None:
                return
            import httpx

            sim = start_embedded_sim(_sim_config(self._config), self._port_file)
            self._sends = httpx.AsyncHTTPTransport(trust_env=False)  # what the client makes
            self.sim = sim
            if sim.base_url != self.base_url and self.provider is not None:
                self.provider.base_url = self.provider.http.base_url = sim.base_url

    async def handle_async_request(self, request: Any) -> Any:
        if self.sim is None:
            try:
                self.start()
            except Exception as exc:
                import httpx

                log.warning("demo provider: not started (%s: %s)", type(exc).__name__, exc)
                raise httpx.ConnectError(
                    f"the embedded demo provider did not start: {exc}", request=request
                ) from exc
        here = self.sim.base_url
        if here != self.base_url:
            import httpx

            meant = httpx.URL(self.base_url)
            url = request.url
            if (url.scheme, url.host, url.port) == (meant.scheme, meant.host, meant.port):
                moved = url.copy_with(port=httpx.URL(here).port)
                request.url = moved
                request.headers["Host"] = moved.netloc.decode("ascii")
        return await self._sends.handle_async_request(request)

    async def aclose(self) -> None:
        if self._sends is not None:
            await self._sends.aclose()

    async def __aenter__(self) -> LazyDemoProvider:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def stop(self) -> None:
        """Stop the demo provider if it was started."""
        sim, self.sim = self.sim, None
        if sim is not None:
            sim.stop()


#: The embedded demo provider's port, kept per data dir: the links it gave (stored in slots)
#: name it, so a restart binds it again.
DEMO_PORT_FILE = "demo-provider.port"


def start_embedded_sim(sim_config: Any, port_file: Path) -> Any:
    """Start the embedded demo provider on the port remembered in ``port_file``; a fresh port
    (remembered when none was) when that one is taken — by another Slate on the same data dir,
    or while settings are applied. Links naming another loopback port are re-pointed by
    :class:`~app.providers.demo.DemoProvider`, so either way they still download."""
    from app.sim import start_sim

    remembered = _remembered_port(port_file)
    if remembered is not None:
        try:
            return start_sim(sim_config, port=remembered)
        except OSError as exc:
            log.info("demo provider: port %d is taken (%s); using a fresh one", remembered, exc)
    sim = start_sim(sim_config)
    if remembered is None:
        try:
            from app.files import open_private

            fd = open_private(port_file, os.O_WRONLY | os.O_TRUNC)
            try:
                os.write(fd, f"{sim.port}\n".encode())
            finally:
                os.close(fd)
        except OSError as exc:
            log.info("demo provider: port not remembered in %s (%s)", port_file, exc)
    return sim


def _remembered_port(port_file: Path) -> int | None:
    try:
        text = port_file.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else None


def prepare_data_dir(config: Config) -> str | None:
    """Create the data dir 0700 when it is new. An existing one others can read is tightened
    when it is Slate's own (the platform's data folder); one the user chose is left as it is
    (Slate cannot know what else lives there) and a warning says so — Slate's files in it are
    0600 and its folders 0700 either way. Returns the warning, or None."""
    from app.files import PRIVATE_DIR, others_can_read, private_dir, tighten, tighten_slate_files

    path = config.data_dir
    private_dir(path, tighten_existing=False)
    if not os.access(path, os.W_OK | os.X_OK):  # a read-only disk, another user's folder
        raise BadConfiguration("data_dir", str(path), "not_writable")
    changed = tighten_slate_files(path)
    if changed:
        log.info(
            "data dir %s: %d file(s) and folder(s) of Slate's were readable by others; "
            "now owner-only",
            path,
            changed,
        )
    mode = others_can_read(path)
    if mode is None:
        return None
    try:
        own = path.resolve() == default_data_dir().resolve()
    except OSError:
        own = False
    if own and tighten(path, PRIVATE_DIR):
        log.info("data dir %s was readable by others (mode %04o): now 0700", path, mode)
        return None
    return (
        f"others can read or enter the data dir {path} (mode {mode:04o}); Slate's own files "
        f"in it are yours alone (0600), but `chmod 700 {path}` keeps even their names private"
    )


def build(config: Config, *, lazy_demo: bool = False) -> Slate:
    """Open the store (migrating it), pick the provider, build the service. A data dir or store
    Slate cannot use raises :class:`BadConfiguration` naming the setting and the path.
    ``lazy_demo``: the embedded demo provider starts on its first request (the CLI), not here
    (the app builds in a worker thread, where a start on the first request would block the
    window's loop)."""
    store: Store | None = None
    try:
        dir_warning = prepare_data_dir(config)
        key, source = secrets.api_key()
        store = open_store_of(config)
        secret, warning = secrets.handle_secret(config.data_dir, config.store)
        provider, sim = make_provider(config, key, lazy_demo=lazy_demo)
    except Exception as exc:
        if store is not None:
            store.close()
        from app.unusable import at_open  # only when something went wrong

        bad = at_open(exc, config)
        if bad is None:
            raise
        raise bad from exc
    service = SlateService(config, store, provider, secret)
    app = Slate(config, store, provider, service, sim, key_source=source)
    for said, code in ((dir_warning, WARN_DATA_DIR_OPEN), (warning, WARN_SECRET_IN_FILE)):
        if said:
            log.warning(said)
            app.warnings.append(said)
            app.warning_codes.append(code)
    return app
