"""Each verification failure, over real HTTP on loopback: wrong size, wrong signature, 403,
dimensions mismatch; a truncated transfer or a 503, which are no verdict (tried again later);
and the good cases for PNG, JPEG, WebP and MP4."""

from __future__ import annotations

import io
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import av
import pytest
from PIL import Image

from app.providers.base import ProviderError
from app.providers.demo import DemoProvider
from app.service.media import VerificationFailed, download_verified


def _image(fmt: str, size=(64, 48)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (200, 120, 40)).save(buf, format=fmt)
    return buf.getvalue()


def _mp4(width=320, height=176, seconds=1) -> bytes:
    buf = io.BytesIO()
    with av.open(buf, "w", format="mp4") as out:
        stream = out.add_stream("libx264" if "libx264" in av.codecs_available else "mpeg4", rate=4)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        for i in range(seconds * 4):
            frame = av.VideoFrame.from_image(
                Image.new("RGB", (width, height), (i * 30 % 255, 90, 160))
            )
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    return buf.getvalue()


ROUTES: dict[str, tuple[int, dict[str, str], bytes, bool]] = {}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        status, headers, body, truncate = ROUTES[self.path]
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2] if truncate else body)
        if truncate:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)


@pytest.fixture(scope="module")
def server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
async def provider(server):
    p = DemoProvider(server, timeout=5.0)
    yield p
    await p.aclose()


def route(path, body, status=200, truncate=False, ctype="application/octet-stream"):
    ROUTES[path] = (status, {"Content-Type": ctype}, body, truncate)
    return path


@pytest.mark.parametrize(
    "fmt, ctype", [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp")]
)
async def test_real_images_verify(provider, server, tmp_path, fmt, ctype):
    body = _image(fmt)
    got = await download_verified(
        provider, server + route(f"/ok.{fmt}", body), folder=tmp_path, kind="image"
    )
    assert (got.content_type, got.width, got.height, got.bytes) == (ctype, 64, 48, len(body))
    assert got.path.read_bytes() == body and got.path.name.startswith(got.sha256)


async def test_real_mp4_verifies_with_reported_dimensions(provider, server, tmp_path):
    body = _mp4()
    got = await download_verified(
        provider,
        server + route("/ok.mp4", body),
        folder=tmp_path,
        kind="video",
        declared_bytes=len(body),
        expect_size=(320, 176),
    )
    assert got.content_type == "video/mp4" and (got.width, got.height) == (320, 176)
    assert got.duration and 0.5 < got.duration < 2.0


CASES = [
    ("wrong size", dict(body=_image("PNG")), dict(declared_bytes=99999), "size mismatch"),
    ("wrong signature", dict(body=b"<html>not an image</html>" * 20), {}, "signature"),
    ("fake PNG", dict(body=b"\x89PNG\r\n\x1a\n" + b"\0" * 200), {}, "does not decode"),
    ("403", dict(body=b"<Error><Code>AccessDenied</Code></Error>", status=403), {}, "HTTP 403"),
    ("empty", dict(body=b""), {}, "empty"),
]


@pytest.mark.parametrize("name, serve, kw, reason", CASES, ids=[c[0] for c in CASES])
async def test_bad_image_downloads_fail_verification(
    provider, server, tmp_path, name, serve, kw, reason
):
    path = route(f"/bad-{name.replace(' ', '-')}", **serve)
    with pytest.raises(VerificationFailed) as exc:
        await download_verified(provider, server + path, folder=tmp_path, kind="image", **kw)
    assert reason in exc.value.reason
    assert not [p for p in tmp_path.rglob("*") if p.is_file()], "nothing may stay on disk"


@pytest.mark.parametrize(
    "name, serve",
    [
        ("truncated", dict(body=_image("PNG", (400, 400)) * 3, truncate=True)),
        ("503", dict(body=b"<html>Service Unavailable</html>", status=503)),
    ],
)
async def test_a_broken_transfer_is_no_verdict(provider, server, tmp_path, name, serve):
    """The connection closed half-way through the declared length, or the link answered 503:
    never media (nothing stays on disk) and no verdict on it either — ``try_later``, so the
    task is fetched again after a backoff (issue 31: a read is never a verdict)."""
    path = route(f"/broken-{name}", **serve)
    with pytest.raises(ProviderError) as exc:
        await download_verified(provider, server + path, folder=tmp_path, kind="image")
    assert exc.value.try_later, exc.value.message
    assert not [p for p in tmp_path.rglob("*") if p.is_file()], "nothing may stay on disk"


async def test_video_dimensions_mismatch_fails(provider, server, tmp_path):
    body = _mp4()
    with pytest.raises(VerificationFailed) as exc:
        await download_verified(
            provider,
            server + route("/dims.mp4", body),
            folder=tmp_path,
            kind="video",
            expect_size=(1920, 1080),
        )
    assert "1920×1080" in exc.value.reason


async def test_image_where_video_expected_fails(provider, server, tmp_path):
    with pytest.raises(VerificationFailed) as exc:
        await download_verified(
            provider, server + route("/img-as-video", _image("PNG")), folder=tmp_path, kind="video"
        )
    assert "MP4" in exc.value.reason


def _spoil(mp4: bytes, start: float, end: float) -> bytes:
    """``mp4`` with the part ``start``–``end`` (fractions) of its media data (``mdat``) made
    garbage: the container (``moov``: streams, sizes, duration) still reads as before."""
    at = mp4.index(b"mdat") + 4
    size = int.from_bytes(mp4[at - 8 : at - 4], "big") - 8
    lo, hi = at + int(size * start), at + int(size * end)
    return mp4[:lo] + b"\xff" * (hi - lo) + mp4[hi:]


@pytest.mark.parametrize(
    "start, end",
    [(0.0, 1.0), (0.6, 1.0), (0.3, 0.5)],
    ids=["every frame", "the last frames", "the middle frames"],
)
async def test_an_mp4_whose_frames_do_not_decode_is_not_verified(
    provider, server, tmp_path, start, end
):
    """Issue 15, point 5: the probe read only the container, so an MP4 whose frames cannot be
    decoded counted as verified. Now frames are decoded through to the last."""
    good = _mp4(seconds=3)
    bad = _spoil(good, start, end)
    with pytest.raises(VerificationFailed) as exc:
        await download_verified(
            provider,
            server + route(f"/spoiled-{start}.mp4", bad),
            folder=tmp_path,
            kind="video",
            expect_size=(320, 176),
        )
    assert "decode" in exc.value.reason, exc.value.reason
    assert not [p for p in tmp_path.rglob("*") if p.is_file()], "nothing may stay on disk"
    # the same file unspoiled verifies, frames and all
    got = await download_verified(
        provider,
        server + route(f"/whole-{start}.mp4", good),
        folder=tmp_path,
        kind="video",
        expect_size=(320, 176),
    )
    assert 2.5 < got.duration < 3.5
