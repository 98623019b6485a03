"""A hostile MiniMax-compatible server on loopback, for tests: it answers each API path from a
script of answers (the last one repeats) and counts what it was sent.

``HostileServer(script)`` where ``script`` maps ``"POST /v1/video_generation"`` (method and
path) to a list of :class:`Answer`. Bodies may be anything a hostile server sends: task ids of
any length, unknown status words, ``Retry-After: 1e9``. An answer whose ``body`` is ``bytes`` is
sent as it is (media downloads, bodies that are not JSON); ``drip`` sends it that many bytes at
a time, ``drip_every`` seconds apart (a slow-drip server); ``declare`` overrides the Content-
Length header (``None``: none); ``chunks`` (a function returning an iterable of bytes) streams a
body too large to hold (a 400 MB answer).

``server.span(method, path)`` says when the server saw a request arrive and when its answer
ended (sent in full, or the client dropped the connection): a deadline measured where it is
kept, not through a whole process's wall time.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

from tests.support import web


@dataclass
class Answer:
    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    #: held until this is set (bounded by a minute): a test releases the answer on its event
    gate: threading.Event | None = None
    content_type: str = "application/json"
    drip: int = 0
    drip_every: float = 0.0
    declare: int | None | str = "exact"
    chunks: Callable[[], Iterable[bytes]] | None = None


@dataclass
class Span:
    """One request as the server saw it: ``arrived`` and ``ended`` on ``time.monotonic()``."""

    method: str
    path: str
    arrived: float
    ended: float | None = None
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def lasted(self) -> float:
        assert self.ended is not None, f"{self.method} {self.path} has not ended"
        return self.ended - self.arrived


def ok(**fields: Any) -> dict[str, Any]:
    return {**fields, "base_resp": {"status_code": 0, "status_msg": "success"}}


def refused(code: int, msg: str) -> dict[str, Any]:
    return {"base_resp": {"status_code": code, "status_msg": msg}}


class HostileServer:
    def __init__(self, script: dict[str, list[Answer]]) -> None:
        self.script = {k: list(v) for k, v in script.items()}
        self.requests: list[tuple[str, str, Any]] = []
        self.authorizations: list[str | None] = []
        self.spans: list[Span] = []
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)  # a span added
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def _answer(self, method: str) -> None:
                path = urlsplit(self.path).path
                span = Span(method, path, time.monotonic())
                with server._arrived:
                    server.spans.append(span)
                    server._arrived.notify_all()
                try:
                    self._send(method, path)
                finally:
                    span.ended = time.monotonic()
                    span.done.set()

            def _send(self, method: str, path: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw
                key = f"{method} {path}"
                with server._lock:
                    server.requests.append((method, path, body))
                    server.authorizations.append(self.headers.get("Authorization"))
                    answers = server.script.get(key)
                    if not answers:
                        answer = Answer(refused(2013, f"no such path {key}"), status=404)
                    else:
                        answer = answers.pop(0) if len(answers) > 1 else answers[0]
                if callable(answer):  # an answer made from the request (its query string)
                    answer = answer(self.path)
                if answer.gate is not None:
                    answer.gate.wait(60)
                if answer.delay:
                    time.sleep(answer.delay)
                data = (
                    answer.body
                    if isinstance(answer.body, bytes)
                    else json.dumps(answer.body).encode()
                )
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                if answer.declare == "exact":
                    self.send_header("Content-Length", str(len(data)))
                elif answer.declare is not None:
                    self.send_header("Content-Length", str(answer.declare))
                else:
                    self.close_connection = True
                for k, v in answer.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                try:
                    if answer.chunks is not None:
                        for chunk in answer.chunks():
                            self.wfile.write(chunk)
                        return
                    if not answer.drip:
                        self.wfile.write(data)
                        return
                    for at in range(0, len(data), answer.drip):
                        self.wfile.write(data[at : at + answer.drip])
                        self.wfile.flush()
                        time.sleep(answer.drip_every)
                except OSError:
                    pass  # the client gave up

            def do_GET(self) -> None:  # noqa: N802
                self._answer("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._answer("POST")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def sent(self, method: str, path: str) -> int:
        with self._lock:
            return sum(1 for m, p, _b in self.requests if (m, p) == (method, path))

    def span(self, method: str, path: str, timeout: float = 30.0) -> Span:
        """The first request to ``method path``, once its answer has ended (sent in full, or
        the client gone: a drip notices at its next write). ``timeout`` only bounds a hang."""
        deadline = time.monotonic() + timeout

        def first() -> Span | None:
            return next((s for s in self.spans if (s.method, s.path) == (method, path)), None)

        with self._arrived:
            found = self._arrived.wait_for(first, timeout)
        assert found is not None, f"{method} {path} never arrived"
        assert found.done.wait(max(0.0, deadline - time.monotonic())), (
            f"{method} {path}: its answer never ended"
        )
        return found

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


#: ``rewrite(method, path, query, answer)`` → the answer to send instead (a JSON object), or None
#: to pass the provider's answer through unchanged.
Rewrite = Callable[[str, str, str, dict[str, Any]], "dict[str, Any] | None"]


#: Headers of the provider's answer the proxy does not pass on (it sends its own length).
HOP_HEADERS = ("content-length", "transfer-encoding", "connection", "content-encoding")


class RewritingProxy:
    """A loopback proxy in front of a real (demo) provider that rewrites its JSON answers:
    ``RewritingProxy(upstream, rewrite)``. Everything else (request bodies, headers, non-JSON
    answers such as downloads) passes through. ``rewrite`` may be replaced while it runs;
    ``rewritten`` counts the answers it changed. ``intercept(method, path)`` runs first in the
    request's own thread: it may hold the request (a read timeout) and returns an
    :class:`Answer` to send instead of the provider's (a 503), or None to forward it."""

    def __init__(
        self,
        upstream: str,
        rewrite: Rewrite | None = None,
        intercept: Callable[[str, str], Answer | None] | None = None,
    ) -> None:
        self.upstream = upstream.rstrip("/")
        self.rewrite = rewrite
        self.intercept = intercept
        self.rewritten = 0
        self._lock = threading.Lock()
        client = web.Client(timeout=30.0)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def _forward(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else None
                instead = (
                    proxy.intercept(method, urlsplit(self.path).path) if proxy.intercept else None
                )
                if instead is not None:
                    data = (
                        instead.body
                        if isinstance(instead.body, bytes)
                        else json.dumps(instead.body).encode()
                    )
                    try:
                        self.send_response(instead.status)
                        self.send_header("Content-Type", instead.content_type)
                        self.send_header("Content-Length", str(len(data)))
                        for k, v in instead.headers.items():
                            self.send_header(k, v)
                        self.end_headers()
                        self.wfile.write(data)
                    except OSError:
                        pass  # the client gave up (it timed out)
                    return
                skip = {"host", "content-length", "connection", "accept-encoding"}
                headers = {k: v for k, v in self.headers.items() if k.lower() not in skip}
                got = client.request(
                    method, proxy.upstream + self.path, content=raw, headers=headers
                )
                body = got.content
                parts = urlsplit(self.path)
                if "json" in got.headers.get("content-type", "") and proxy.rewrite is not None:
                    try:
                        answer = json.loads(body)
                    except ValueError:
                        answer = None
                    if isinstance(answer, dict):
                        new = proxy.rewrite(method, parts.path, parts.query, answer)
                        if new is not None:
                            body = json.dumps(new).encode()
                            with proxy._lock:
                                proxy.rewritten += 1
                self.send_response(got.status_code)
                for k, v in got.headers.items():
                    if k.lower() not in HOP_HEADERS:
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass

            def do_GET(self) -> None:  # noqa: N802
                self._forward("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._forward("POST")

            def do_DELETE(self) -> None:  # noqa: N802
                self._forward("DELETE")

        self._client = client
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._client.close()
