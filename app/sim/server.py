"""The demo provider: a MiniMax-compatible HTTP server on loopback.

V1 endpoints (as MiniMax documents them; errors are HTTP 200 with ``base_resp.status_code`` ≠ 0):

* ``POST /v1/video_generation`` → ``{"task_id", "base_resp"}``
* ``GET /v1/query/video_generation?task_id=`` → ``{"task_id", "status", "file_id",
  "video_width", "video_height", "base_resp"}`` with status ``Preparing`` → ``Queueing`` →
  ``Processing`` → ``Success`` | ``Fail``
* ``GET /v1/files/retrieve?file_id=`` → ``{"file": {"file_id" (a number), "bytes",
  "created_at", "filename", "purpose", "download_url"}, "base_resp"}``
* ``POST /v1/image_generation`` (synchronous) → ``{"id", "data": {"image_urls" |
  "image_base64"}, "metadata": {"success_count", "failed_count"} (strings), "base_resp"}``

* ``POST /v1/files/upload`` (also ``/v1/files``, as MiniMax's CLI posts it) multipart →
  ``{"file": {"file_id" (a number), "bytes", "created_at", "filename", "purpose"}, "base_resp"}``

V2 endpoints (MiniMax-H3; real HTTP statuses, OpenAI-style error bodies): see
:mod:`app.sim.v2api`.

Downloads live under ``/_sim/files/``, ``/_sim/images/`` and ``/_sim/v2/``: signed, expiring
links that need no ``Authorization`` and answer 403 with an XML error when expired, like an
object store. Control (no auth, for tests and demos): ``GET /_sim/health``, ``GET /_sim/stats``,
``GET|POST /_sim/faults``, ``POST /_sim/reset``, ``GET|POST /_sim/clock``, ``GET /_sim/tasks``.
"""

from __future__ import annotations

import base64
import email.utils
import hashlib
import hmac
import json
import logging
import random
import shutil
import socket
import ssl
import tempfile
import threading
import time
import uuid
from collections import Counter, deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from app.sim import billing, h3extras, media, sound, v2rules
from app.sim.config import UNKNOWN_STATUS_WORDS, UNKNOWN_STATUS_WORDS_V2, Faults, SimConfig
from app.sim.extras import ExtrasEndpoints
from app.sim.rules import ApiError, invalid, validate_image, validate_video
from app.sim.store import SimStore
from app.sim.v2api import V2Endpoints, parse_multipart
from app.sim.wire import AUTH_MESSAGE, CODE_MESSAGES, _Drop

log = logging.getLogger(__name__)

ENDPOINT_NAMES = {
    "/v1/video_generation": "video_generation",
    "/v1/query/video_generation": "query_video_generation",
    "/v1/files/retrieve": "files_retrieve",
    "/v1/image_generation": "image_generation",
    "/v1/files/upload": "files_upload",
    "/v1/files": "files_upload",
}
#: Bodies larger than this are drained, not kept (V2 refuses requests over 64 MB).
MAX_BODY = v2rules.MAX_BODY


class SimServer:
    """A running (or startable) demo provider. Use :func:`start_sim` to get a started one."""

    def __init__(
        self, config: SimConfig | None = None, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self.config = config or SimConfig()
        self.faults: Faults = self.config.faults
        self.store = SimStore(self.config.state_path)
        self._rng = random.Random(self.config.seed)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        #: creates held by ``hold_create_response``: how many, and the release they wait for
        self._hold = threading.Condition()
        self._holding = 0
        self._releases = 0
        self._secret = hashlib.sha256(f"slate-sim:{self.config.seed}".encode()).digest()
        self._reset_stats()
        media.ensure_qt_app()
        server_class = _HTTPServer6 if ":" in host else _HTTPServer
        try:
            self._httpd = server_class((host, port), _Handler)
        except OSError:  # the port is taken: nothing of this server stays open
            self.store.close()
            raise
        self._httpd.sim = self
        self.host = host
        self.port = int(self._httpd.server_address[1])
        shown = f"[{host}]" if ":" in host else host
        self.base_url = f"http://{shown}:{self.port}"
        self._thread: threading.Thread | None = None
        self._tls_tmp: str | None = None
        self.tls_cert: Path | None = self._setup_tls() if self.config.tls else None

    def _setup_tls(self) -> Path | None:
        """TLS on the same port (see :mod:`app.sim.tls`); the certificate's file, or ``None``."""
        from app.sim import tls

        folder = self.config.tls_dir
        if folder is None and self.config.state_path is not None:
            folder = self.config.state_path.parent / "demo-tls"
        if folder is None:
            self._tls_tmp = tempfile.mkdtemp(prefix="slate-sim-tls-")
            folder = Path(self._tls_tmp)
        try:
            cert = tls.ensure_certificate(folder)
            if cert is not None:
                self._httpd.tls = tls.server_context(cert)
            return cert
        except (OSError, ssl.SSLError, ValueError) as exc:
            log.warning("demo provider: no TLS (%s)", exc)
            return None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> "SimServer":
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.1},
                name=f"slate-sim:{self.port}",
                daemon=True,
            )
            self._thread.start()
            log.info("demo provider listening on %s", self.base_url)
        return self

    def stop(self) -> None:
        self._stopping.set()
        with self._hold:
            self._hold.notify_all()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()
        self.store.close()
        if self._tls_tmp is not None:
            shutil.rmtree(self._tls_tmp, ignore_errors=True)
            self._tls_tmp = None

    def __enter__(self) -> "SimServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ faults

    def set_faults(self, **kw: Any) -> dict[str, Any]:
        with self._lock:
            self.faults.update(**kw)
            return self.faults.to_dict()

    def reset(self) -> None:
        """Clear faults and statistics (tasks stay)."""
        with self._lock:
            self.config.faults = self.faults = Faults()
            self._rng = random.Random(self.config.seed)
            self._reset_stats()
        self.store.clear_create_log()

    def _take(self, name: str) -> bool:
        """Consume one unit of a counted fault (or draw it at random)."""
        with self._lock:
            left = getattr(self.faults, name)
            if left > 0:
                setattr(self.faults, name, left - 1)
                self._injected[name] += 1
                self._counted[name] = True
                return True
            p = self.faults.random.get(name, 0.0)
            if p > 0 and self._rng.random() < p:
                self._injected[name] += 1
                self._counted[name] = False
                return True
        return False

    def _give_back(self, name: str) -> None:
        """Undo a :meth:`_take` whose fault found nothing to act on."""
        with self._lock:
            self._injected[name] -= 1
            if self._counted.get(name):  # taken from the counter: it strikes the next time
                setattr(self.faults, name, getattr(self.faults, name) + 1)

    def _status_word(self, v2: bool = False) -> str | None:
        with self._lock:
            word = self.faults.status_word
            if word is not None:
                if self.faults.status_word_queries > 0:
                    self.faults.status_word_queries -= 1
                    if self.faults.status_word_queries == 0:
                        self.faults.status_word = None
                self._injected["status_word"] += 1
                return word
            p = self.faults.random.get("status_word", 0.0)
            if p > 0 and self._rng.random() < p:
                self._injected["status_word"] += 1
                return self._rng.choice(UNKNOWN_STATUS_WORDS_V2 if v2 else UNKNOWN_STATUS_WORDS)
        return None

    def _blocked_images(self, n: int) -> int:
        """How many of the next image create's ``n`` images the safety filter blocks."""
        with self._lock:
            k = self.faults.block_images
            if k > 0:
                self.faults.block_images = 0
                self._injected["block_images"] += 1
                return min(k, n)
            p = self.faults.random.get("block_images", 0.0)
            if p > 0 and self._rng.random() < p:
                self._injected["block_images"] += 1
                return 1
        return 0

    def _outcome(self) -> str:
        """The end a new video task is given: ``success``, ``no_file`` or ``fail_<code>``."""
        if self._take("content_fail"):
            return f"fail_{self.faults.content_fail_code}"
        if self._take("success_without_file"):
            return "no_file"
        return "success"

    def _slow(self) -> float:
        with self._lock:
            if self.faults.slow > 0:
                self._injected["slow"] += 1
            return self.faults.slow

    def now(self) -> float:
        return self.config.now()

    def set_clock(self, *, offset: float | None = None, advance: float | None = None) -> float:
        with self._lock:
            if offset is not None:
                self.config.clock_offset = float(offset)
            if advance is not None:
                self.config.clock_offset += float(advance)
            return self.config.clock_offset

    def release_creates(self) -> None:
        """Let every held create answer, and hold no more (``hold_create_response`` off)."""
        with self._lock:
            self.faults.hold_create_response = 0
        with self._hold:
            self._releases += 1
            self._hold.notify_all()

    def held_creates(self) -> int:
        """How many creates are held now (each has made its task and waits for a release)."""
        with self._hold:
            return self._holding

    def _hold_create(self) -> None:
        with self._hold:
            release = self._releases
            self._holding += 1
            try:
                self._hold.wait_for(lambda: self._releases != release or self._stopping.is_set())
            finally:
                self._holding -= 1

    def _create_delay(self) -> float:
        with self._lock:
            delay = self.faults.delay_create_response
            p = self.faults.random.get("delay_create_response", 0.0)
            if delay <= 0 and p > 0 and self._rng.random() < p:
                delay = 2.0
            if delay > 0:
                self._injected["delay_create_response"] += 1
        return delay

    # ------------------------------------------------------------------ stats

    def _reset_stats(self) -> None:
        self._started = time.time()
        self._requests = 0
        self._by_endpoint: Counter[str] = Counter()
        self._times: deque[float] = deque(maxlen=100_000)
        self._api_times: deque[float] = deque(maxlen=100_000)
        self._creates_by_prompt: Counter[str] = Counter()
        self._made_by_prompt: Counter[str] = Counter()
        self._answered_ids: dict[str, list[str]] = {}
        self._cancelled_by_prompt: Counter[str] = Counter()
        self._unbilled_by_prompt: Counter[str] = Counter()  # tasks made to fail (not charged)
        self._injected: Counter[str] = Counter()
        self._served: dict[str, str] = {}
        self._counted: dict[
            str, bool
        ] = {}  # the last take of each fault: from its counter?  # sha256 of media served whole → its task's prompt

    def _served_media(self, data: bytes, prompt: str) -> None:
        """Media that left the provider as made (not spoiled by a fault), by its SHA-256."""
        digest = hashlib.sha256(data).hexdigest()
        with self._lock:
            self._served[digest] = prompt

    def _count(self, endpoint: str) -> None:
        with self._lock:
            self._requests += 1
            self._by_endpoint[endpoint] += 1
            now = time.time()
            self._times.append(now)
            if endpoint not in ("download", "other"):
                self._api_times.append(now)

    def _answered(self, prompt: str, task_id: str) -> None:
        """A create's answer went out whole (``answered_ids`` in the stats)."""
        with self._lock:
            self._answered_ids.setdefault(prompt, []).append(task_id)

    def _count_create(self, kind: str, prompt: str, made: bool, billed: bool = True) -> None:
        with self._lock:
            self._creates_by_prompt[prompt] += 1
            if made:
                self._made_by_prompt[prompt] += 1
                if not billed:
                    self._unbilled_by_prompt[prompt] += 1
        if self.config.state_path is not None:
            self.store.log_create(kind, prompt, made)

    def _count_cancel(self, prompt: str) -> None:
        with self._lock:
            self._cancelled_by_prompt[prompt] += 1

    def stats(self) -> dict[str, Any]:
        """Counters since start or reset. ``creates_by_prompt`` counts create requests received
        (authorized), ``made_by_prompt`` the tasks/images actually made. ``billed_by_prompt`` is
        what MiniMax would charge: made, less tasks cancelled while queued (V2) and tasks made to
        fail. With ``state_path``, ``shared`` holds the create counts across all processes on
        that file (and the cancellations)."""
        with self._lock:
            times = list(self._times)
            api_times = list(self._api_times)
            billed = self._made_by_prompt - self._cancelled_by_prompt - self._unbilled_by_prompt
            out: dict[str, Any] = {
                "started_at": self._started,
                "requests_total": self._requests,
                "requests_by_endpoint": dict(self._by_endpoint),
                "creates_total": sum(self._creates_by_prompt.values()),
                "creates_by_prompt": dict(self._creates_by_prompt),
                "made_total": sum(self._made_by_prompt.values()),
                "made_by_prompt": dict(self._made_by_prompt),
                "answered_ids": {k: list(v) for k, v in self._answered_ids.items()},
                "cancelled_total": sum(self._cancelled_by_prompt.values()),
                "cancelled_by_prompt": dict(self._cancelled_by_prompt),
                "billed_total": sum(billed.values()),
                "billed_by_prompt": dict(billed),
                "faults_injected": dict(self._injected),
                "served_sha256": dict(self._served),
                "faults": self.faults.to_dict(),
                "clock_offset": self.config.clock_offset,
            }
        out["max_requests_per_second"] = _max_per_second(times)
        out["request_times"] = times[-1000:]
        # API requests only (downloads go to the file host, not the rate-limited API)
        out["api_max_requests_per_second"] = _max_per_second(api_times)
        out["api_request_times"] = api_times[-5000:]
        if self.config.state_path is not None:
            out["shared"] = self.store.create_counts()
        return out

    def ledger(self) -> dict[str, Any]:
        """What this provider charged, task by task, and whose each task is (see
        :mod:`app.sim.billing`)."""
        return billing.ledger(self, sound.book(self))

    # ------------------------------------------------------------------ links

    def sign(self, path: str, expires: int, nonce: str = "") -> str:
        message = f"{path}:{expires}" + (f":{nonce}" if nonce else "")
        return hmac.new(self._secret, message.encode(), hashlib.sha256).hexdigest()[:32]

    def link(self, path: str, ttl: float, *, fresh: bool = False) -> str:
        """A signed link valid for ``ttl`` s; ``fresh`` adds a nonce so every link differs."""
        expires = int(self.now() + ttl)
        if not fresh:
            return f"{self.base_url}{path}?Expires={expires}&Signature={self.sign(path, expires)}"
        nonce = uuid.uuid4().hex[:16]
        return (
            f"{self.base_url}{path}?Expires={expires}&n={nonce}"
            f"&Signature={self.sign(path, expires, nonce)}"
        )

    # ------------------------------------------------------------------ task state

    def task_view(self, task: dict[str, Any], now: float | None = None) -> dict[str, Any]:
        """The V1 query answer for a task at ``now`` (status from elapsed time)."""
        cfg = self.config
        elapsed = (self.now() if now is None else now) - task["created_at"]
        params = task["params"]
        body: dict[str, Any] = {"task_id": task["task_id"]}
        outcome = task["outcome"]
        if elapsed < cfg.preparing:
            status = "Preparing"
        elif elapsed < cfg.preparing + cfg.queueing:
            status = "Queueing"
        elif elapsed < cfg.total_video_seconds + (task.get("extra_seconds") or 0.0):
            status = "Processing"
        elif outcome.startswith("fail_"):
            code = int(outcome[len("fail_") :])
            body.update(status="Fail", file_id="")
            body["base_resp"] = {
                "status_code": code,
                "status_msg": CODE_MESSAGES.get(code, "failed"),
            }
            return body
        else:
            status = "Success"
        body["status"] = status
        if status == "Success":
            if task["outcome"] == "no_file":
                body["file_id"] = ""
            else:
                body["file_id"] = str(task["file_id"])
                body["video_width"] = params["width"]
                body["video_height"] = params["height"]
        else:
            body["file_id"] = ""
        body["base_resp"] = {"status_code": 0, "status_msg": "success"}
        return body

    def task_done(self, task: dict[str, Any]) -> bool:
        end = self.config.total_video_seconds + (task.get("extra_seconds") or 0.0)
        return self.now() - task["created_at"] >= end

    def v2_status(self, task: dict[str, Any], now: float | None = None) -> tuple[str, float]:
        """A V2 task's status word and the time of its last change."""
        cfg = self.config
        created = task["created_at"]
        if task.get("cancelled_at") is not None:
            return "cancelled", task["cancelled_at"]
        elapsed = (self.now() if now is None else now) - created
        queued = cfg.preparing + cfg.queueing
        running = cfg.processing + (task.get("extra_seconds") or 0.0)
        if elapsed < queued:
            return "queued", created
        if elapsed < queued + running:
            return "running", created + queued
        word = "failed" if task["outcome"].startswith("fail_") else "succeeded"
        return word, created + queued + running

    def v2_view(self, task: dict[str, Any], *, expired_url: bool = False) -> dict[str, Any]:
        """The V2 task object (query one, list items)."""
        p = task["params"]
        if p.get("task_type") == "h3_context_ir":
            return h3extras.context_ir_view(self, task)
        status, updated = self.v2_status(task)
        view: dict[str, Any] = {
            "id": task["task_id"],
            "model": p["model"],
            "status": status,
            "error": {"code": "", "message": ""},
            "created_at": int(task["created_at"]),
            "updated_at": int(updated),
            "content": {},
            "resolution": p["resolution"],
            "duration": p["duration"],
            "ratio": p["ratio"],
            "task_type": p.get("task_type", "generation"),
            "modality": p["modality"],
            "usage": {},
        }
        if status == "succeeded":
            view["usage"] = v2rules.usage(p)
            if task["outcome"] == "success":
                path = f"/_sim/v2/{task['task_id']}/output.mp4"
                ttl = -1.0 if expired_url else self.config.v2_url_ttl
                view["content"] = {"url": self.link(path, ttl, fresh=True)}
        elif status == "failed":
            code = int(task["outcome"][len("fail_") :])
            view["error"] = {"code": str(code), "message": CODE_MESSAGES.get(code, "failed")}
        return view

    def v2_visible(self, task: dict[str, Any] | None) -> bool:
        """Not deleted and within the 7-day window."""
        return (
            task is not None
            and task.get("deleted_at") is None
            and self.now() - task["created_at"] <= v2rules.TASK_WINDOW
        )

    @property
    def media_cache(self) -> Path | None:
        """The folder rendered media are kept in for every process (see ``SimConfig``)."""
        if self.config.media_cache is not None:
            return self.config.media_cache
        if self.config.state_path is not None:
            return self.config.state_path.parent / "demo-media-cache"
        return None

    def video_bytes_v2(self, task: dict[str, Any]) -> bytes:
        p = task["params"]
        title = f"{p['model']} · {p['resolution']} · {p['duration']}s"
        return media.render_mp4_v2(
            p["width"],
            p["height"],
            p["duration"],
            title,
            task["prompt"],
            seed=self.config.seed,
            cache_dir=self.media_cache,
        )

    def video_bytes(self, task: dict[str, Any]) -> bytes:
        p = task["params"]
        return media.render_mp4(
            p["width"],
            p["height"],
            p["duration"],
            task["prompt"],
            fps=self.config.video_fps,
            seed=self.config.seed,
            cache_dir=self.media_cache,
        )

    def image_bytes(self, record: dict[str, Any], index: int) -> bytes:
        p = record["params"]
        seed = p.get("seed")
        return media.render_png(
            p["width"],
            p["height"],
            record["prompt"],
            index=index,
            seed=self.config.seed if seed is None else seed,
            cache_dir=self.media_cache,
        )


def _max_per_second(times: list[float]) -> int:
    best, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    sim: SimServer
    tls: ssl.SSLContext | None = None

    def finish_request(self, request: Any, client_address: Any) -> None:
        """Serve plain HTTP, or TLS when the connection opens with a TLS handshake."""
        if self.tls is None:
            return super().finish_request(request, client_address)
        try:
            request.settimeout(30)
            first = request.recv(1, socket.MSG_PEEK)
            if first == b"\x16":  # a TLS record: handshake
                request = self.tls.wrap_socket(request, server_side=True)
            request.settimeout(None)
        except (OSError, ssl.SSLError) as exc:
            log.debug("demo provider: connection dropped before a request (%s)", exc)
            return
        try:
            super().finish_request(request, client_address)
        finally:
            if isinstance(request, ssl.SSLSocket):
                request.close()


class _HTTPServer6(_HTTPServer):
    address_family = socket.AF_INET6


class _Handler(sound.SoundEndpoints, ExtrasEndpoints, V2Endpoints, BaseHTTPRequestHandler):
    server: _HTTPServer
    server_version = "slate-sim/1"
    # HTTP/1.1 keep-alive, as MiniMax's hosts answer: with HTTP/1.0 the server closes right after
    # the body, and Node's fetch (undici, used by MiniMax's CLI) asserts when that close arrives
    # while it is still writing a large download to disk. Every answer has a Content-Length.
    protocol_version = "HTTP/1.1"
    timeout = 300  # an idle kept-alive connection is closed after this many seconds

    # ------------------------------------------------------------------ plumbing

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        log.debug("%s %s", self.address_string(), format % args)

    def date_time_string(self, timestamp: float | None = None) -> str:
        """The ``Date`` header in the provider's clock (``clock_offset``: a skewed provider)."""
        return email.utils.formatdate(
            self.sim.now() if timestamp is None else timestamp, usegmt=True
        )

    @property
    def sim(self) -> SimServer:
        return self.server.sim

    def _send(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        headers = dict(headers or {})
        self.send_header("Trace-Id", headers.pop("Trace-Id", None) or uuid.uuid4().hex)
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> None:
        self._send(
            status, json.dumps(payload).encode("utf-8"), "application/json; charset=utf-8", headers
        )

    def _error(self, code: int, message: str, extra: dict[str, Any] | None = None) -> None:
        self._json({**(extra or {}), "base_resp": {"status_code": code, "status_msg": message}})

    def _http_error(self, status: int) -> None:
        text = {
            500: "Internal Server Error",
            502: "Bad Gateway",
            503: "Service Unavailable",
            504: "Gateway Timeout",
            529: "Site Overloaded",
        }.get(status, "Error")
        self._send(
            status, f"<html><body><h1>{status} {text}</h1></body></html>".encode(), "text/html"
        )

    def _xml_error(self, code: str, message: str) -> None:
        body = (
            f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
            f"<Message>{message}</Message><RequestId>{uuid.uuid4().hex}</RequestId></Error>"
        )
        self._send(403, body.encode(), "application/xml")

    def _drop(self) -> None:
        self.close_connection = True
        raise _Drop

    def _read_body(self) -> None:
        """Read the whole request body first: closing with unread bytes would reset the socket.
        A body over :data:`MAX_BODY` is read and thrown away (``_body_too_large``)."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        self._body_too_large = length > MAX_BODY
        if self._body_too_large:
            left = length
            while left > 0:
                chunk = self.rfile.read(min(left, 1 << 20))
                if not chunk:
                    break
                left -= len(chunk)
            self._raw_body = b""
            return
        self._raw_body = self.rfile.read(length) if length > 0 else b""

    def _body(self) -> Any:
        raw = self._raw_body
        try:
            return json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise invalid("the body is not valid JSON") from None

    def _authorized(self) -> bool:
        header = self.headers.get("Authorization") or ""
        scheme, _, key = header.partition(" ")
        return scheme.lower() == "bearer" and bool(key.strip())

    def _query(self) -> dict[str, str]:
        return {
            k: v[0] for k, v in parse_qs(urlsplit(self.path).query, keep_blank_values=True).items()
        }

    # ------------------------------------------------------------------ dispatch

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def _dispatch(self, method: str) -> None:
        path = urlsplit(self.path).path
        self._read_body()
        try:
            if path.startswith("/_sim/"):
                return self._control(method, path)
            if path.startswith("/v2/") or self._extras_route(method, path) is not None:
                return self._v2_dispatch(method, path)
            if self._sound_route(method, path) is not None:
                return self._sound_dispatch(method, path)
            endpoint = ENDPOINT_NAMES.get(path)
            if endpoint is None:
                self._count_other()
                return self._json(
                    {"base_resp": {"status_code": 404, "status_msg": "not found"}}, 404
                )
            self.sim._count(endpoint)
            want = (
                "POST"
                if endpoint in ("video_generation", "image_generation", "files_upload")
                else "GET"
            )
            if method != want and not (method == "HEAD" and want == "GET"):
                return self._json(
                    {"base_resp": {"status_code": 405, "status_msg": "method not allowed"}}, 405
                )
            getattr(self, f"_api_{endpoint}")()
        except _Drop:
            return
        except ApiError as exc:
            extra = {"task_id": ""} if path in ("/v1/video_generation", sound.T2A_ASYNC) else {}
            self._error(exc.code, exc.message, extra)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception:  # pragma: no cover - a bug in the sim must still answer
            log.exception("demo provider failed on %s %s", method, path)
            self._http_error(500)

    def _count_other(self) -> None:
        self.sim._count("other")

    def _guard(self, create: bool) -> None:
        """Auth, then HTTP 5xx, 1002 and refusal faults, in that order."""
        if not self._authorized():
            raise ApiError(1004, AUTH_MESSAGE)
        sim = self.sim
        if sim._take("server_error") or (create and sim._take("server_error_creates")):
            self._http_error(sim.faults.server_error_status)
            raise _Drop
        if create and sim._take("overloaded"):
            self._http_error(529)
            raise _Drop
        if sim._take("rate_limit") or (create and sim._take("rate_limit_creates")):
            raise ApiError(1002, "rate limit exceeded(RPM)")
        if not create:
            return
        if sim._take("insufficient_balance"):
            raise ApiError(1008, CODE_MESSAGES[1008])
        if sim._take("input_sensitive"):
            raise ApiError(1026, CODE_MESSAGES[1026])
        if sim._take("create_error"):
            code = sim.faults.create_error_code
            raise ApiError(code, CODE_MESSAGES.get(code, "error"))

    def _after_create(self, v2: bool = False, task_id: str | None = None) -> None:
        """Faults that strike after the task exists: lost, 5xx, hostile or delayed answers."""
        sim = self.sim
        if sim._take("lose_create_response"):
            log.info("demo fault: dropping the create answer")
            self._drop()
        if sim._take("hostile_body"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(64 * 1024 * 1024))
            self.end_headers()
            self.wfile.write(b'{"task_id": "' + (task_id or "").encode() + b'", "pad": "')
            self.wfile.flush()
            self.close_connection = True
            raise _Drop
        if sim._take("drip_answers"):
            log.info("demo fault: dripping the create answer")
            self._drip_answer(task_id)
            raise _Drop
        if sim._take("server_error_after_create"):
            if v2:
                self._v2_error(v2rules.V2Error(500, "internal server error"))
            else:
                self._http_error(sim.faults.server_error_status)
            raise _Drop
        delay = sim._create_delay()
        if delay > 0:
            sim._stopping.wait(delay)
        if sim._take("hold_create_response"):
            sim._hold_create()

    # ------------------------------------------------------------------ API

    def _api_video_generation(self) -> None:
        if not self._authorized():
            raise ApiError(1004, AUTH_MESSAGE)
        body = self._body()
        prompt = body.get("prompt") if isinstance(body, dict) else None
        prompt = prompt if isinstance(prompt, str) else ""
        try:
            self._guard(create=True)
            params = validate_video(body)
        except (ApiError, _Drop):
            self.sim._count_create("video", prompt, made=False)
            raise
        sim = self.sim
        outcome = sim._outcome()
        task = sim.store.add_task(
            prompt, params, outcome, created_at=sim.now(), extra_seconds=sim._slow()
        )
        sim._count_create("video", prompt, made=True, billed=not outcome.startswith("fail_"))
        log.debug("demo task %s created (%s)", task["task_id"], outcome)
        self._after_create(task_id=str(task["task_id"]))
        self._json(
            {"task_id": task["task_id"], "base_resp": {"status_code": 0, "status_msg": "success"}}
        )
        sim._answered(prompt, str(task["task_id"]))

    def _api_query_video_generation(self) -> None:
        self._guard(create=False)
        task_id = self._query().get("task_id", "").strip()
        if not task_id:
            raise invalid("task_id is required")
        task = self.sim.store.get_task(task_id)
        if task is None:
            raise ApiError(2013, f"invalid params, task {task_id} not found")
        other = billing.foreign(self.sim, task_id, self.sim.store.list_tasks)
        if other is not None:
            return self._json(self.sim.task_view(other))
        word = self.sim._status_word()
        if word is not None:
            return self._json(
                {
                    "task_id": task_id,
                    "status": word,
                    "file_id": "",
                    "base_resp": {"status_code": 0, "status_msg": "success"},
                }
            )
        self._json(self.sim.task_view(task))

    def _api_files_retrieve(self) -> None:
        self._guard(create=False)
        raw = self._query().get("file_id", "").strip()
        if not raw:
            raise invalid("file_id is required")
        try:
            file_id = int(raw)
        except ValueError:
            raise invalid("file_id must be a number") from None
        if sound.owns_file(self.sim, file_id):
            return self._sound_retrieve(file_id)
        task = self.sim.store.task_by_file(file_id)
        if task is None or task["outcome"] != "success" or not self.sim.task_done(task):
            raise ApiError(2013, f"invalid params, file {file_id} not found")
        data = self.sim.video_bytes(task)
        done = task["created_at"] + self.sim.config.total_video_seconds + task["extra_seconds"]
        self._json(
            {
                "file": {
                    "file_id": file_id,
                    "bytes": len(data),
                    "created_at": int(done),
                    "filename": "output.mp4",
                    "purpose": "video_generation",
                    "download_url": self.sim.link(
                        f"/_sim/files/{file_id}/output.mp4", self.sim.config.download_ttl
                    ),
                },
                "base_resp": {"status_code": 0, "status_msg": "success"},
            }
        )

    def _api_files_upload(self) -> None:
        """``POST /v1/files/upload`` multipart (``file``, ``purpose``); a V1-family endpoint:
        HTTP 200 with ``base_resp``. ``video_generation_input`` files are checked as V2 inputs."""
        self._guard(create=False)
        if self._body_too_large:
            raise invalid("the request body exceeds 64 MB")
        fields = parse_multipart(self._raw_body, self.headers.get("Content-Type") or "")
        if fields is None:
            raise invalid("the body must be multipart/form-data with file and purpose")
        purpose = fields.get("purpose", (None, b""))[1].decode("utf-8", "replace").strip()
        if not purpose:
            raise invalid("purpose is required")
        if "file" not in fields or not fields["file"][1]:
            raise invalid("file is required")
        filename, data = fields["file"]
        info: dict[str, Any] = {"kind": "other"}
        if purpose == v2rules.UPLOAD_PURPOSE:
            try:
                media_info = v2rules.check_upload(data)
            except v2rules.V2Error as exc:
                raise ApiError(exc.code, exc.message) from None
            info = {k: v for k, v in vars(media_info).items() if v is not None}
        record = self.sim.store.add_file(
            self.sim.now(), purpose, filename or "file", len(data), info
        )
        self._json(
            {
                "file": {
                    "file_id": record["file_id"],
                    "bytes": record["bytes"],
                    "created_at": int(record["created_at"]),
                    "filename": record["filename"],
                    "purpose": purpose,
                },
                "base_resp": {"status_code": 0, "status_msg": "success"},
            }
        )

    def _api_image_generation(self) -> None:
        if not self._authorized():
            raise ApiError(1004, AUTH_MESSAGE)
        body = self._body()
        prompt = body.get("prompt") if isinstance(body, dict) else None
        prompt = prompt if isinstance(prompt, str) else ""
        sim = self.sim
        try:
            self._guard(create=True)
            params = validate_image(body)
        except (ApiError, _Drop):
            sim._count_create("image", prompt, made=False)
            raise
        if sim.config.image_latency > 0:
            sim._stopping.wait(sim.config.image_latency)
        n = params["n"]
        blocked = n if sim._take("content_fail") else sim._blocked_images(n)
        params["delivered"] = n - blocked
        image_id = sim.store.add_images(prompt, params)
        sim._count_create("image", prompt, made=True, billed=blocked < n)
        self._after_create()
        ok = n - blocked
        # a wrong answer: twice the images asked (links to this task's own pictures)
        listed = 2 * n if ok and sim._take("overfull_answer") else ok
        data: dict[str, Any]
        if params["response_format"] == "base64":
            record = sim.store.get_images(image_id)
            assert record is not None
            made = [sim.image_bytes(record, i % max(1, ok)) for i in range(listed)]
            for one in made:
                sim._served_media(one, prompt)
            data = {"image_base64": [base64.b64encode(one).decode() for one in made]}
        else:
            data = {
                "image_urls": [
                    sim.link(f"/_sim/images/{image_id}/{i % ok}.png", sim.config.image_url_ttl)
                    for i in range(listed)
                ]
            }
        self._json(
            {
                "id": image_id,
                "data": data,
                "metadata": {"failed_count": str(blocked), "success_count": str(listed)},
                "base_resp": {"status_code": 0, "status_msg": "success"},
            }
        )

    # ------------------------------------------------------------------ downloads and control

    def _control(self, method: str, path: str) -> None:
        sim = self.sim
        if path.startswith(("/_sim/files/", "/_sim/images/", "/_sim/v2/", "/_sim/sound/")):
            sim._count("download")
            return self._download(path)
        if path == "/_sim/health":
            return self._json(
                {
                    "ok": True,
                    "demo": True,
                    "base_url": sim.base_url,
                    "tls_cert": str(sim.tls_cert) if sim.tls_cert else None,
                }
            )
        if path == "/_sim/stats" and method in ("GET", "HEAD"):
            return self._json(sim.stats())
        if path == "/_sim/faults":
            if method == "POST":
                body = self._body_or_empty()
                try:
                    faults = sim.set_faults(**body)
                except (TypeError, ValueError) as exc:
                    return self._json({"ok": False, "error": str(exc)}, 400)
                return self._json({"ok": True, "faults": faults})
            return self._json({"ok": True, "faults": sim.faults.to_dict()})
        if path == "/_sim/reset" and method == "POST":
            sim.reset()
            return self._json({"ok": True})
        if path == "/_sim/clock":
            if method == "POST":
                body = self._body_or_empty()
                try:
                    offset = sim.set_clock(**{k: float(v) for k, v in body.items()})
                except (TypeError, ValueError) as exc:
                    return self._json({"ok": False, "error": f"clock: {exc}"}, 400)
            else:
                offset = sim.config.clock_offset
            return self._json({"ok": True, "now": sim.now(), "offset": offset})
        if path == "/_sim/tasks" and method in ("GET", "HEAD"):
            tasks = [
                {
                    "task_id": t["task_id"],
                    "protocol": "v1",
                    "created_at": t["created_at"],
                    "prompt": t["prompt"],
                    "params": t["params"],
                    "outcome": t["outcome"],
                    "status": sim.task_view(t).get("status"),
                }
                for t in sim.store.list_tasks()
            ]
            tasks += [
                {
                    "task_id": t["task_id"],
                    "protocol": "v2",
                    "created_at": t["created_at"],
                    "prompt": t["prompt"],
                    "params": t["params"],
                    "outcome": t["outcome"],
                    "status": sim.v2_status(t)[0],
                }
                for t in sorted(sim.store.list_v2_tasks(), key=lambda t: t["created_at"])
            ]
            return self._json({"tasks": tasks})
        self._json({"ok": False, "error": "not found"}, 404)

    def _body_or_empty(self) -> dict[str, Any]:
        try:
            body = self._body()
        except ApiError:
            return {"__invalid__": True}
        return body if isinstance(body, dict) else {}

    def _download(self, path: str) -> None:
        sim = self.sim
        query = self._query()
        try:
            expires = int(query.get("Expires", ""))
        except ValueError:
            return self._xml_error("AccessDenied", "Missing or invalid Expires")
        if not hmac.compare_digest(
            query.get("Signature", ""), sim.sign(path, expires, query.get("n", ""))
        ):
            return self._xml_error("SignatureDoesNotMatch", "The request signature does not match")
        if sim.now() > expires:
            return self._xml_error("AccessDenied", "Request has expired")
        if sim._take("expire_downloads"):
            return self._xml_error("AccessDenied", "Request has expired")
        parts = path.strip("/").split("/")
        data: bytes | None = None
        prompt = ""
        content_type = "application/octet-stream"
        if sim._take("drip_headers"):
            return self._drip_headers()
        if sim._take("gzip_downloads"):
            return self._gzip_to_nothing()
        if parts[1] == "files" and len(parts) == 4 and parts[2].isdigit():
            task = sim.store.task_by_file(int(parts[2]))
            if task is not None and task["outcome"] == "success":
                data, content_type = sim.video_bytes(task), "video/mp4"
                prompt = task["prompt"]
        elif parts[1] == "images" and len(parts) == 4 and parts[3].endswith(".png"):
            record = sim.store.get_images(parts[2])
            index = parts[3][:-4]
            if record is not None and index.isdigit():
                delivered = record["params"].get("delivered", record["params"]["n"])
                if int(index) < delivered:
                    data, content_type = sim.image_bytes(record, int(index)), "image/png"
                    prompt = record["prompt"]
        elif parts[1] == "sound":
            got = sound.download(sim, parts)
            if got is not None:
                data, content_type = got
                prompt = sound.prompt_of(sim, parts[2])
        elif parts[1] == "v2" and len(parts) == 4 and parts[3] == "output.mp4":
            task = sim.store.get_v2_task(parts[2])
            if (
                sim.v2_visible(task)
                and task is not None
                and task["outcome"] == "success"
                and sim.v2_status(task)[0] == "succeeded"
            ):
                data, content_type = sim.video_bytes_v2(task), "video/mp4"
                prompt = task["prompt"]
        if data is None:
            body = b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code></Error>'
            return self._send(404, body, "application/xml")
        if sim._take("undecodable_media"):
            data = media.spoiled_media(data, content_type, sim._rng)
        elif not (parts[1] == "sound" and sound.spoiled(sim, parts[2])):
            sim._served_media(data, prompt)
        if sim._take("drip_downloads"):
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                for at in range(0, len(data), 512):
                    self.wfile.write(data[at : at + 512])
                    self.wfile.flush()
                    if sim._stopping.wait(0.02):
                        break
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client gave up (or was killed)
            return
        if sim._take("truncate_downloads"):
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self._send(200, data, content_type, {"Cache-Control": "private, max-age=0"})

    def _drip_answer(self, task_id: str | None) -> None:
        """A create's answer whose headers come at once and whose body comes a byte every
        0.5 s, never ending (at most 2 min, or until the client lets go)."""
        self.close_connection = True
        start = b'{"task_id": "' + (task_id or "").encode() + b'", "pad": "'
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "4096")
            self.end_headers()
            self.wfile.write(start)
            self.wfile.flush()
            for _ in range(240):
                if self.sim._stopping.wait(0.5):
                    return
                self.wfile.write(b"a")
                self.wfile.flush()
        except OSError:
            return

    def _drip_headers(self) -> None:
        """The status line and headers a byte every 0.5 s, never ending them (at most 2 min,
        or until the client lets go)."""
        head = b"HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nX-Pad: " + b"a" * 240
        self.close_connection = True
        try:
            for byte in head:
                if self.sim._stopping.wait(0.5):
                    return
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
        except OSError:
            return

    def _gzip_to_nothing(self) -> None:
        """A chunked gzip body of empty deflate blocks, one every 0.2 s: it never ends and
        decodes to nothing (at most 2 min, or until the client lets go)."""
        self.close_connection = True
        header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
        block = b"\x00\x00\x00\xff\xff"  # a stored block, not the last, of no bytes
        try:
            self.wfile.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Encoding: gzip\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            self.wfile.write(b"%x\r\n%s\r\n" % (len(header), header))
            self.wfile.flush()
            for _ in range(600):
                if self.sim._stopping.wait(0.2):
                    return
                self.wfile.write(b"%x\r\n%s\r\n" % (len(block), block))
                self.wfile.flush()
        except OSError:
            return


def start_sim(config: SimConfig | None = None, host: str = "127.0.0.1", port: int = 0) -> SimServer:
    """Start a demo provider in a daemon thread and return it (``server.base_url``)."""
    return SimServer(config, host=host, port=port).start()
