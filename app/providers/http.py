"""What MiniMax's V1 and V2 adapters share: the HTTP client and its transport outcomes, secret
scrubbing, the ``Trace-Id``, lenient number and id readers, the base URL rules, the region
words of an authentication refusal, and downloads.

Transport outcomes (both protocols): a connect error or a connect/pool timeout means the request
never left → ``Refused(never_sent=True, unreachable=True)``; a read/write timeout, a reset or a protocol error
after sending → ``Ambiguous``. The exchange's own bound (:meth:`ApiClient._answer_time`) tells
the two apart the same way: it runs out before the request's first byte was written (the
connection never opened) → never sent; after → no answer. Each carries its
:class:`~app.domain.errors.FailReason` (never_sent, no_answer, connection_lost). What an HTTP status or a body means is each protocol's own rule.
The API key never enters a message, a log line, a repr or a raw dict; downloads never carry the
``Authorization`` header (links point at another host).
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import ipaddress
import logging
import math
import socket
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Coroutine
from urllib.parse import urlsplit

from app import scrub as scrub_mod
from app.domain.errors import FailReason
from app.domain.numbers import as_int as as_int
from app.domain.hosts import LOOPBACK_NAMES, endpoint_for, is_loopback_host
from app.providers.base import Ambiguous, Download, Refused, Stalled

if TYPE_CHECKING:
    import ssl

    # imported where a request is made: every command builds the provider, few call it
    import httpx

    from app.domain.lookup import Clock  # loaded where an answer's clock is read

log = logging.getLogger(__name__)

ENDPOINTS: dict[str, str] = {"global": "https://api.minimax.io", "cn": "https://api.minimaxi.com"}
HOST_OF = {"global": "api.minimax.io", "cn": "api.minimaxi.com"}
PLATFORM_OF = {"global": "MiniMax's global platform", "cn": "MiniMax's mainland China platform"}

#: The largest API answer read (inline base64 images included: nine 2048×2048 images fit);
#: a larger one is never held in memory.
MAX_ANSWER_BYTES = 48 * 1024 * 1024


MAX_REDIRECTS = 5
#: The minimum-rate rule for downloads: after ``RATE_GRACE`` seconds from the first request
#: sent, a download must have averaged ``MIN_RATE`` bytes a second on the wire (before any
#: ``Content-Encoding`` is decoded), or it is let go (:class:`Stalled`); its answer headers must
#: be in within ``RATE_GRACE``. A server dripping a few bytes at a time never trips a read
#: timeout; with the size caps (counted on the wire too) this bounds every download's time, in
#: the app's poller as in any command.
MIN_RATE = 16 * 1024
RATE_GRACE = 15.0


def _global(address: str) -> bool:
    """Whether ``address`` is a public internet address (IPv4-mapped IPv6 read as IPv4)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def _addresses(host: str, port: int, resolve: bool = True) -> list[str]:
    """The addresses ``host`` stands for: itself when it is one, else what it resolves to
    (nothing when it does not resolve, or ``resolve`` is off)."""
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
        return [bare]
    except ValueError:
        pass
    if not resolve:
        return []
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(bare, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in infos]


def auth_hint(base_url: str) -> str:
    """Why a valid key can still be refused: keys work only on their own platform's host."""
    region = endpoint_for(base_url)
    host = urlsplit(base_url).hostname or base_url
    if region == "local":
        return f"the base URL points at {host}, a server on this machine"
    other = "cn" if region == "global" else "global"
    return (
        f"the base URL points at {host} ({PLATFORM_OF[region]}); a key works only on the host "
        f"of the platform that issued it — a key from {PLATFORM_OF[other]} needs "
        f"--base-url {ENDPOINTS[other]}"
    )


def as_id(value: Any) -> str | None:
    """Ids (``task_id``, ``file_id``) arrive as strings or numbers; empty means none."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return text or None


def retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def _run_through(step: Coroutine[Any, Any, None]) -> None:
    """Run ``step``, a coroutine that never waits (it awaits no I/O), to its end here."""
    try:
        step.send(None)
    except StopIteration:
        return
    step.close()
    raise RuntimeError("a step that should not wait waited")


@dataclass
class Answer:
    """An HTTP answer: its status, the parsed JSON body (None when not JSON), and the raw dict
    kept for the history (secrets removed, ``_http_status`` and ``_trace_id`` added)."""

    status: int
    body: Any
    raw: dict[str, Any]
    retry_after: float | None


def provider_time(date: str | None) -> float | None:
    """An HTTP ``Date`` header as Unix seconds, or None when it is missing or unreadable."""
    if not date:
        return None
    try:
        when = email.utils.parsedate_to_datetime(date)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    stamp = when.timestamp()
    return stamp if math.isfinite(stamp) else None


@functools.lru_cache(maxsize=None)
def tls_context(trust_env: bool) -> ssl.SSLContext:
    """The TLS context every client of this process verifies with, one per ``trust_env``: the
    one httpx would make for ``verify=True`` (with ``trust_env``, ``SSL_CERT_FILE`` and
    ``SSL_CERT_DIR`` are read). Making one reads the whole CA file (~50 ms of CPU); a context
    holds no connection state, so the app's, a command's and every test's clients share it."""
    import httpx

    return httpx.create_ssl_context(trust_env=trust_env)


class ApiClient:
    """One HTTP client for one base URL and key, shared by the V1 and V2 adapters."""

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        timeout: float = 60.0,
        connect_timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not isinstance(api_key, str) or not api_key.strip():
            raise ValueError("api_key is empty")
        if not all(33 <= ord(c) < 127 for c in api_key.strip()):
            raise ValueError("api_key contains characters that cannot be sent in a header")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}")
        if parts.scheme == "http" and not is_loopback_host(parts.hostname):
            raise ValueError(
                f"base_url {base_url!r} uses plain http; only https is allowed "
                "(plain http only to loopback: 127.0.0.1, ::1, localhost)"
            )
        self._key = api_key.strip()
        scrub_mod.register(self._key)
        self.base_url = base_url.rstrip("/")
        #: A provider elsewhere: its links may not point at this machine or a private network.
        self._remote = not is_loopback_host(parts.hostname)
        #: Names are resolved to check them only when this client opens real connections (a
        #: transport given in code routes requests itself).
        self._resolve = transport is None
        #: The provider's clock against this machine's, from the ``Date`` of its latest answer
        #: (see :meth:`_read_clock`); None until one answered with a readable date.
        self.clock: Clock | None = None
        self._timeouts = (timeout, connect_timeout)
        self._transport = transport
        self._trust_env = not is_loopback_host(parts.hostname)
        self._client: httpx.AsyncClient | None = None
        #: Closed before any request (:meth:`aclose`): no client was made, nor httpx loaded.
        self._closed = False

    @property
    def client(self) -> httpx.AsyncClient:
        """The HTTP client, made on first use: the process's first one reads the CA file into a
        TLS context (~50 ms, :func:`tls_context`), which a command that never calls the provider
        (``slate list``, ``show``, …) need not pay. Asked for after :meth:`aclose`, it is a
        closed client, as before."""
        if self._client is None:
            import httpx

            if self._closed:  # no transport of its own: its aclose has nothing to wait for
                self._client = httpx.AsyncClient(
                    timeout=self._timeout(),
                    transport=httpx.AsyncBaseTransport(),
                    follow_redirects=False,
                    trust_env=False,
                )
                _run_through(self._client.aclose())
            else:
                self._client = httpx.AsyncClient(
                    timeout=self._timeout(),
                    transport=self._transport,
                    verify=tls_context(self._trust_env),
                    follow_redirects=False,
                    trust_env=self._trust_env,
                )
                try:  # and the async backend its first connection loads (anyio's: ~50-90 ms)
                    import anyio._backends._asyncio  # noqa: F401
                except ImportError:  # another httpcore: loaded with the first request
                    pass
                # and what building the first request fills (httpx's isinstance checks against
                # abstract types cache their answers on first use: ~20 ms), with a request like
                # :meth:`send`'s that is built and dropped, never sent
                self._client.build_request(
                    "POST",
                    f"{self.base_url}/",
                    json={},
                    headers={"Authorization": "Bearer -", "Accept": "application/json"},
                )
        return self._client

    def _timeout(self) -> httpx.Timeout:
        import httpx

        timeout, connect = self._timeouts
        return httpx.Timeout(timeout, connect=connect, pool=connect)

    def __repr__(self) -> str:
        return f"ApiClient(base_url={self.base_url!r})"

    def _read_clock(self, response: httpx.Response, asked_at: float, heard_at: float) -> None:
        """Read the provider's clock off an answer's ``Date``: it was stamped between the
        request leaving and its headers arriving, and is cut to whole seconds, so the offset
        (provider minus this machine) is known to half the round trip plus half a second."""
        from app.domain.lookup import Clock

        stamped = provider_time(response.headers.get("Date"))
        if stamped is None:
            return
        self.clock = Clock(
            offset=stamped + 0.5 - (asked_at + heard_at) / 2,
            error=(heard_at - asked_at) / 2 + 0.5,
        )

    # -- secrets ---------------------------------------------------------------------------
    def scrub_text(self, text: str) -> str:
        return scrub_mod.scrub_text(text)

    def scrub(self, value: Any) -> Any:
        return scrub_mod.scrub(value)

    # -- requests --------------------------------------------------------------------------
    async def send(
        self,
        method: str,
        path: str,
        *,
        what: str,
        json: Any = None,
        params: Any = None,
        files: Any = None,
        data: Any = None,
        timeout: float | None = None,
    ) -> Answer:
        """Send one API request; return the answer whatever its status, or raise for the
        transport (never sent → Refused, after sending → Ambiguous). ``timeout`` replaces the
        client's read and write timeouts for this request (uploads of large files)."""
        import httpx

        url = f"{self.base_url}{path}"
        headers = {"Authorization": f"Bearer {self._key}", "Accept": "application/json"}
        # What the connection did, from httpcore's trace: whether the request's first byte was
        # about to be written. Without any trace (a transport given in code) nothing is known,
        # and a timeout counts as after sending.
        wire = {"traced": False, "sent": False}

        async def trace(event: str, _info: dict[str, Any]) -> None:
            wire["traced"] = True
            if event.endswith("send_request_headers.started"):
                wire["sent"] = True

        extra: dict[str, Any] = {"extensions": {"trace": trace}}
        if timeout is not None:
            base = self.client.timeout
            extra["timeout"] = httpx.Timeout(timeout, connect=base.connect, pool=base.pool)
        try:
            request = self.client.build_request(
                method,
                url,
                json=json,
                params=params,
                files=files,
                data=data,
                headers=headers,
                **extra,
            )
            allowed = self._answer_time(request, timeout)
            asked_at = time.time()
            async with asyncio.timeout(allowed) as bound:
                started = asyncio.get_running_loop().time()
                streamed = await self.client.send(request, stream=True)
                self._read_clock(streamed, asked_at, time.time())
                try:
                    content = await self._read_capped(
                        streamed,
                        what,
                        lambda size: bound.reschedule(started + allowed + size / MIN_RATE),
                    )
                finally:
                    await streamed.aclose()
        except TimeoutError:
            if wire["traced"] and not wire["sent"]:  # the connection never opened in time
                log.info("%s %s never sent: no connection within %.0f s", method, path, allowed)
                raise Refused(
                    self.scrub_text(
                        f"{what}: the request never left (ConnectTimeout: no connection "
                        f"within {allowed:.0f} s)"
                    ),
                    never_sent=True,
                    unreachable=True,
                    reason=FailReason.NEVER_SENT,
                ) from None
            message = self.scrub_text(
                f"{what}: no whole answer in time after sending (it took more than "
                f"{allowed:.0f} s, or came slower than {MIN_RATE // 1024} KiB/s)"
            )
            log.warning("%s %s: the answer came too slowly", method, path)
            raise Ambiguous(message, reason=FailReason.NO_ANSWER) from None
        except (
            httpx.ConnectError,
            httpx.ConnectTimeout,
            httpx.PoolTimeout,
            httpx.UnsupportedProtocol,
        ) as exc:
            message = self.scrub_text(
                f"{what}: the request never left ({type(exc).__name__}: {exc})"
            )
            log.info("%s %s never sent: %s", method, path, type(exc).__name__)
            unreachable = not isinstance(exc, httpx.UnsupportedProtocol)
            raise Refused(
                message,
                never_sent=True,
                unreachable=unreachable,
                reason=FailReason.NEVER_SENT,
            ) from None
        except httpx.TimeoutException as exc:
            message = self.scrub_text(
                f"{what}: no answer in time after sending ({type(exc).__name__})"
            )
            log.warning("%s %s timed out after sending: %s", method, path, type(exc).__name__)
            raise Ambiguous(message, reason=FailReason.NO_ANSWER) from None
        except httpx.HTTPError as exc:
            message = self.scrub_text(
                f"{what}: connection failed after sending ({type(exc).__name__}: {exc})"
            )
            log.warning("%s %s failed after sending: %s", method, path, type(exc).__name__)
            raise Ambiguous(message, reason=FailReason.CONNECTION_LOST) from None

        # The body as read under the cap (already decoded: no Content-Encoding any more).
        response = httpx.Response(
            streamed.status_code,
            request=request,
            content=content,
            headers=[
                (k, v) for k, v in streamed.headers.multi_items() if k.lower() != "content-encoding"
            ],
        )
        trace_id = self.scrub_text(response.headers.get("Trace-Id") or "") or None
        log.debug("%s %s → HTTP %s trace=%s", method, path, response.status_code, trace_id)
        body: Any
        try:
            body = response.json()
        except ValueError:
            body = None
        raw: dict[str, Any]
        if isinstance(body, dict):
            raw = self.scrub(body)
        else:
            raw = {"_body": self.scrub_text(response.text[:2000])}
        raw["_http_status"] = response.status_code
        if trace_id:
            raw["_trace_id"] = trace_id
        return Answer(response.status_code, body, raw, retry_after(response))

    def _answer_time(self, request: httpx.Request, timeout: float | None) -> float:
        """How long one API exchange may take in all, the answer's body included: the time to
        connect (the connect timeout, at most the request's own), the request's own timeout,
        and the request's body at the minimum rate (:data:`MIN_RATE`); the answer's bytes
        extend it as they arrive at that rate. A server dripping its answer a byte at a time
        (each read inside the read timeout) is cut off there, so every command keeps its own
        deadline (``--timeout 3``: 6 s at most; the create's outcome: unknown)."""
        limits = self.client.timeout
        read = timeout if timeout is not None else (limits.read or 60.0)
        connect = min(limits.connect or read, read)
        sent = as_int(request.headers.get("Content-Length")) or 0
        return connect + read + sent / MIN_RATE

    async def _read_capped(
        self,
        response: httpx.Response,
        what: str,
        on_bytes: Callable[[int], None] | None = None,
    ) -> bytes:
        """The answer's body, read at most :data:`MAX_ANSWER_BYTES` of it: a larger one is
        never held (the request was sent, so what it did is unknown → Ambiguous).
        ``on_bytes(size)``: after each chunk, the size read so far."""
        declared = as_int(response.headers.get("Content-Length"))
        if declared is not None and declared > MAX_ANSWER_BYTES:
            raise Ambiguous(
                f"{what}: the answer is {declared} bytes, more than the "
                f"{MAX_ANSWER_BYTES} bytes an answer may have; not read",
                reason=FailReason.BAD_ANSWER,
            )
        parts: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise Ambiguous(
                    f"{what}: the answer exceeds the {MAX_ANSWER_BYTES} bytes an "
                    "answer may have; not read",
                    reason=FailReason.BAD_ANSWER,
                )
            parts.append(chunk)
            if on_bytes is not None:
                on_bytes(size)
        return b"".join(parts)

    # -- downloads -------------------------------------------------------------------------
    async def _check_target(self, url: str, hop: int) -> list[str]:
        """The download policy, for the first URL and every redirect hop alike: http(s) with a
        host; plain http only to loopback; and with a remote base URL (MiniMax), never a
        loopback, link-local, private or otherwise non-global address — by the literal or by
        what the name resolves to (a name that does not resolve is refused: nothing was
        checked, so nothing is connected to).
        Returns the addresses checked (none for a local provider): the connection goes to one
        of them, never to a second answer of the resolver (DNS rebinding)."""
        where = "download" if not hop else f"download (redirect {hop})"
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise Refused(f"{where}: not an http(s) URL", never_sent=True)
        host = parts.hostname
        if parts.scheme == "http" and not is_loopback_host(host):
            raise Refused(f"{where}: plain http is only allowed to loopback", never_sent=True)
        if not self._remote:
            return []
        if host.strip("[]").lower() in LOOPBACK_NAMES:
            raise Refused(
                f"{where}: {host} is this machine; a remote provider's links may not point at it",
                never_sent=True,
            )
        addresses = await _addresses(host, parts.port or 443, self._resolve)
        if self._resolve and not addresses:
            # nothing checked, nothing to pin: connecting by name would resolve again, to
            # whatever the resolver says then (a failed first lookup must not bypass the rule)
            raise Refused(
                f"{where}: {host} could not be resolved, so its address could not be checked; "
                "not connected",
                never_sent=True,
            )
        for address in addresses:
            if not _global(address):
                raise Refused(
                    f"{where}: {host} is a loopback, link-local or private address "
                    f"({address}); a remote provider's links may not point there",
                    never_sent=True,
                )
        return addresses

    def _pinned(self, url: str, addresses: list[str]) -> httpx.Request:
        """A GET of ``url`` that connects to the first checked address, the name kept for the
        Host header and for TLS (SNI and the certificate check)."""
        import httpx

        parts = httpx.URL(url)
        host = parts.host
        try:
            ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
            literal = True
        except ValueError:
            literal = False
        if literal or not addresses:
            return self.client.build_request("GET", url)
        address = addresses[0]
        netloc = host if parts.port is None else f"{host}:{parts.port}"
        return self.client.build_request(
            "GET",
            parts.copy_with(host=address),
            headers={"Host": netloc},
            extensions={"sni_hostname": host},
        )

    @asynccontextmanager
    async def download(self, url: str) -> AsyncIterator[Download]:
        """``async with client.download(url) as d:`` — iterate ``d.chunks``.

        The minimum-rate rule runs on the wire from the moment the first request is sent:
        answer headers (redirects included) must be in within :data:`RATE_GRACE` — headers
        dripped a byte at a time never end otherwise — and the body's bytes are counted as
        they arrive, before any ``Content-Encoding`` is decoded (a gzip body that never ends
        and decodes to nothing yields no decoded chunk to count). ``d.wire_bytes()`` says how
        many arrived, for the caller's size cap."""
        import httpx

        hops = 0
        began = time.monotonic()
        while True:
            addresses = await self._check_target(url, hops)
            request = self._pinned(url, addresses)  # no Authorization: another host
            try:
                response = await asyncio.wait_for(
                    self.client.send(request, stream=True, follow_redirects=False),
                    max(RATE_GRACE - (time.monotonic() - began), 0.0),
                )
            except TimeoutError:
                raise Stalled(
                    f"download too slow: no answer headers in {RATE_GRACE:.0f} s; "
                    "let go, to try again later"
                ) from None
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
                raise Refused(
                    f"download: could not connect ({type(exc).__name__})",
                    unreachable=True,
                    reason=FailReason.NEVER_SENT,
                ) from None
            except httpx.HTTPError as exc:
                raise Ambiguous(
                    f"download: failed ({type(exc).__name__})",
                    reason=FailReason.NO_ANSWER
                    if isinstance(exc, httpx.TimeoutException)
                    else FailReason.CONNECTION_LOST,
                ) from None
            location = response.headers.get("Location")
            if not (response.is_redirect and location):
                break
            await response.aclose()
            hops += 1
            if hops > MAX_REDIRECTS:
                raise Refused(f"download: more than {MAX_REDIRECTS} redirects", never_sent=True)
            url = str(httpx.URL(url).join(location))  # checked like the first, at the loop's top
        log.debug("download %s → HTTP %s", urlsplit(url).hostname, response.status_code)

        wire = 0

        async def chunks() -> AsyncIterator[bytes]:
            nonlocal wire
            # what ``aiter_bytes`` does, one wire chunk at a time: every chunk is counted
            # (and the rule checked) whether or not it decodes to anything
            if hasattr(response, "_content"):  # already read (a transport given in code)
                wire += len(response.content)
                yield response.content
                return
            decoder = response._get_content_decoder()
            try:
                async for raw in response.aiter_raw():
                    wire += len(raw)
                    took = time.monotonic() - began
                    if took > RATE_GRACE and wire < MIN_RATE * took:
                        raise Stalled(
                            f"download too slow: {wire} bytes in {took:.0f} s (less "
                            f"than {MIN_RATE // 1024} KB/s); let go, to try again later"
                        )
                    yield decoder.decode(raw)  # b"" when it decoded to nothing (yet)
                tail = decoder.flush()
                if tail:
                    yield tail
            except httpx.HTTPError as exc:
                raise Ambiguous(
                    f"download interrupted ({type(exc).__name__})",
                    reason=FailReason.CONNECTION_LOST,
                ) from None

        try:
            yield Download(
                status_code=response.status_code,
                content_length=as_int(response.headers.get("Content-Length")),
                content_type=response.headers.get("Content-Type"),
                chunks=chunks(),
                headers=dict(response.headers),
                wire_bytes=lambda: wire,
            )
        finally:
            await response.aclose()

    async def aclose(self) -> None:
        if self._client is None:  # never used: nothing to close (``client`` is a closed one)
            self._closed = True
            return
        await self._client.aclose()
