"""Downloads that hung `wait` and the app's poller for ever (issue 24, point 10).

The minimum-rate rule counted decoded bytes, after the answer headers: a ``Content-Encoding:
gzip`` body that never ends and decodes to nothing gave it no chunk to count, and headers dripped
a byte at a time never got that far. Now the rule counts the wire from the first request sent,
and the size cap counts the wire too. And the app's poller awaited every download of a round
together, so one stuck download stopped every other slot's queries: now each step runs on by
itself. Hostile servers on loopback (raw sockets: http.server cannot drip headers), the real
HTTP client, the real poller on both stores.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from app.providers import http
from app.providers.base import Stalled
from app.providers.demo import DemoProvider
from app.service.media import VerificationFailed, download_verified
from app.service.slate import SlateService
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config
from tests.support.hostile import Answer, HostileServer, ok

#: A gzip member's header, then a deflate stream's empty stored block (not the last: BFINAL 0,
#: BTYPE 00, LEN 0, NLEN 0xFFFF): it decodes to nothing, and a stream of them never ends.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
EMPTY_BLOCK = b"\x00\x00\x00\xff\xff"


class RawServer:
    """A loopback server whose every connection is answered by ``serve(sock, stopping)``."""

    def __init__(self, serve: Callable[[socket.socket, threading.Event], None]) -> None:
        self.serve = serve
        self.stopping = threading.Event()
        self.connections = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            conn.recv(65536)  # the request (small, one read)
            self.serve(conn, self.stopping)
        except OSError:
            pass  # the client let go
        finally:
            conn.close()

    def stop(self) -> None:
        self.stopping.set()
        self.sock.close()


def drip_headers(conn: socket.socket, stopping: threading.Event) -> None:
    """The status line and headers a byte every 0.5 s, never ending them."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\n" + b"X-Pad: " + b"a" * 10_000
    for byte in head:
        if stopping.wait(0.5):
            return
        conn.sendall(bytes([byte]))


def gzip_to_nothing(every: float) -> Callable[[socket.socket, threading.Event], None]:
    """A chunked gzip body of empty blocks, one every ``every`` seconds (0: as fast as it can),
    never ending: it decodes to nothing at all."""

    def serve(conn: socket.socket, stopping: threading.Event) -> None:
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Encoding: gzip\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        conn.sendall(b"%x\r\n%s\r\n" % (len(GZIP_HEADER), GZIP_HEADER))
        piece = EMPTY_BLOCK * (1 if every else 16384)
        chunk = b"%x\r\n%s\r\n" % (len(piece), piece)
        while not stopping.is_set():
            conn.sendall(chunk)
            if every and stopping.wait(every):
                return

    return serve


@pytest.fixture
def client() -> http.ApiClient:
    """The HTTP client of a local provider (each test closes it, on its own loop)."""
    return http.ApiClient("sk-hang-0123456789", "http://127.0.0.1:1", timeout=5.0)


async def _read_all(client: http.ApiClient, url: str) -> bytes:
    got = bytearray()
    async with client.download(url) as dl:
        async for chunk in dl.chunks:
            got += chunk
    return bytes(got)


async def test_headers_dripped_a_byte_at_a_time_are_let_go(monkeypatch, client):
    """Each byte well inside the read timeout, never the end of the headers: the rule's clock
    runs from the request sent, so the download is let go after the grace, not never."""
    monkeypatch.setattr(http, "RATE_GRACE", 2.0)
    server = RawServer(drip_headers)
    try:
        with pytest.raises(Stalled) as exc:
            await asyncio.wait_for(_read_all(client, f"{server.url}/v.mp4"), 60)
        assert "no answer headers" in exc.value.message, exc.value.message
    finally:
        await client.aclose()
        server.stop()


async def test_a_gzip_body_that_decodes_to_nothing_is_counted_on_the_wire(monkeypatch, client):
    """Empty deflate blocks, a few bytes every 0.1 s: decoded, nothing ever arrives; on the
    wire, far less than the minimum rate — let go after the grace."""
    monkeypatch.setattr(http, "RATE_GRACE", 2.0)
    server = RawServer(gzip_to_nothing(0.1))
    try:
        with pytest.raises(Stalled) as exc:
            await asyncio.wait_for(_read_all(client, f"{server.url}/i.png"), 60)
        assert "too slow" in exc.value.message, exc.value.message
    finally:
        await client.aclose()
        server.stop()


async def test_a_fast_gzip_body_of_nothing_meets_the_size_cap_on_the_wire(tmp_path):
    """As fast as loopback goes, decoding to nothing: above the minimum rate, so the size cap
    (an image's 64 MB) ends it — counted on the wire, where the bytes are."""
    server = RawServer(gzip_to_nothing(0))
    provider = DemoProvider(server.url, timeout=5.0, connect_timeout=2.0)
    try:
        with pytest.raises(VerificationFailed) as exc:
            await asyncio.wait_for(
                download_verified(provider, f"{server.url}/i.png", folder=tmp_path, kind="image"),
                120,
            )
        assert "exceeds" in exc.value.reason, exc.value.reason
        assert list(tmp_path.iterdir()) == []  # the partial file is gone
    finally:
        await provider.aclose()
        server.stop()


def _two_slot_provider(held: threading.Event) -> tuple[HostileServer, list[str]]:
    """A V1 provider of two tasks: ``vt-a`` succeeds and its download drips a byte every 0.5 s
    (never a read timeout, never the end: stuck) until ``held`` is set; ``vt-b`` is processing,
    so the poller keeps querying it. Returns the server and the task ids queried, in order."""
    asked: list[str] = []
    server = HostileServer({})

    def query(path: str) -> Answer:
        task_id = parse_qs(urlsplit(path).query).get("task_id", [""])[0]
        asked.append(task_id)
        if task_id == "vt-a":
            fields = {"status": "Success", "file_id": "f-a", "video_width": 1920}
            return Answer(ok(task_id="vt-a", video_height=1080, **fields))
        return Answer(ok(task_id=task_id, status="Processing"))

    def stuck() -> Iterator[bytes]:
        while not held.wait(0.5):
            yield b"\0"

    server.script.update(
        {
            "POST /v1/video_generation": [
                Answer(ok(task_id="vt-a")),
                Answer(ok(task_id="vt-b")),
            ],
            "GET /v1/query/video_generation": [query],
            "GET /v1/files/retrieve": [
                Answer(
                    ok(
                        file={
                            "file_id": "f-a",
                            "bytes": 2_000_000,
                            "filename": "a.mp4",
                            "download_url": f"{server.base_url}/dl/a.mp4",
                        }
                    )
                )
            ],
            "GET /dl/a.mp4": [
                Answer(b"", content_type="video/mp4", declare=2_000_000, chunks=stuck)
            ],
        }
    )
    return server, asked


async def test_one_stuck_download_never_stops_another_slot_s_polling(
    data_dir, store_url, monkeypatch
):
    """Slot A's download hangs (within every rule: the grace is made long here, so only the
    poller's shape can free B); slot B is still processing. The app's poller keeps querying B
    while A's download runs — it used to wait for the whole round, A's download included."""
    monkeypatch.setattr(http, "RATE_GRACE", 3600.0)
    held = threading.Event()
    server, asked = _two_slot_provider(held)
    store = open_store(store_url)
    provider = DemoProvider(server.base_url, timeout=5.0, connect_timeout=2.0)
    svc = SlateService(make_config(data_dir, store_url), store, provider, SECRET)
    stop = asyncio.Event()
    poller = None
    try:
        a = await svc.submit("article:20261202:hang:scene-01", "video", {"prompt": "a"})
        b = await svc.submit("article:20261202:hang:scene-02", "video", {"prompt": "b"})
        assert a.task.provider_task_id == "vt-a" and b.task.provider_task_id == "vt-b"
        poller = asyncio.create_task(svc.run_poller(stop))
        deadline = time.monotonic() + 60
        while server.sent("GET", "/dl/a.mp4") == 0:  # A's download has begun (and hangs)
            assert time.monotonic() < deadline, ("A's download never began", asked)
            await asyncio.sleep(0.05)
        b_before = asked.count("vt-b")
        while asked.count("vt-b") < b_before + 3:  # B is queried again, and again
            assert time.monotonic() < deadline, ("B was not polled beside A's download", asked)
            assert not poller.done(), poller
            await asyncio.sleep(0.05)
        assert not held.is_set()  # A's download was still running all along
        a_now = (await svc.status("article:20261202:hang:scene-01")).task
        assert a_now.state.value == "downloading", a_now
    finally:
        stop.set()
        held.set()
        if poller is not None:
            await asyncio.wait_for(poller, 30)
        await svc.aclose()
        await provider.aclose()
        store.close()
        server.stop()
