"""The download policy holds on every redirect hop, and a remote provider's links never reach
this machine or a private network (issue 15, point 8).

The scheme was checked on the first URL only while redirects were followed (an https link
redirecting to plain http elsewhere was accepted), and a remote provider could hand out a
loopback or private-address URL that Slate fetched. Real redirects over loopback HTTP for the
demo provider (whose own links are on loopback and keep working); for a remote base URL the
first hop is answered in process (there is no network here) and every later hop is checked
before anything connects.
"""

from __future__ import annotations

import httpx
import pytest

from app.providers.base import Refused
from app.providers.demo import DemoProvider
from app.providers.minimax import MiniMaxProvider
from app.service.media import VerificationFailed, download_verified
from tests.support.hostile import Answer, HostileServer
from tests.support.sim_media import image_bytes

PNG = image_bytes(64, 64)


def redirect(to: str, status: int = 302) -> Answer:
    return Answer(b"", status=status, headers={"Location": to})


@pytest.fixture
def server():
    srv = HostileServer({})
    yield srv
    srv.stop()


async def test_the_demo_provider_follows_redirects_on_loopback(server, tmp_path):
    server.script.update(
        {
            "GET /a.png": [redirect("/b.png")],
            "GET /b.png": [redirect(f"{server.base_url}/c.png", 307)],
            "GET /c.png": [Answer(PNG, content_type="image/png")],
        }
    )
    provider = DemoProvider(server.base_url, timeout=5.0)
    try:
        got = await download_verified(
            provider, f"{server.base_url}/a.png", folder=tmp_path, kind="image"
        )
        assert got.path.read_bytes() == PNG
    finally:
        await provider.aclose()


@pytest.mark.parametrize(
    "target", ["http://downgrade.example/x.png", "ftp://files.example/x", "file:///etc/passwd"]
)
async def test_every_redirect_hop_is_held_to_the_scheme_rule(server, tmp_path, target):
    server.script["GET /a.png"] = [redirect(target)]
    provider = DemoProvider(server.base_url, timeout=5.0)
    try:
        with pytest.raises(VerificationFailed) as exc:
            await download_verified(
                provider, f"{server.base_url}/a.png", folder=tmp_path, kind="image"
            )
        assert "redirect 1" in exc.value.reason, exc.value.reason
    finally:
        await provider.aclose()


def test_too_many_redirects_are_refused(server):
    server.script["GET /loop"] = [redirect("/loop")]

    async def go():
        provider = DemoProvider(server.base_url, timeout=5.0)
        try:
            async with provider.download(f"{server.base_url}/loop"):
                pass
        finally:
            await provider.aclose()

    import asyncio

    with pytest.raises(Refused, match="redirects"):
        asyncio.run(go())
    assert server.sent("GET", "/loop") == 6  # the first and five redirects, no more


PRIVATE = [
    "https://127.0.0.1:{port}/x.png",
    "https://localhost:{port}/x.png",
    "https://[::1]:{port}/x.png",
    "https://10.1.2.3/x.png",
    "https://192.168.0.7/x.png",
    "https://172.16.5.4/x.png",
    "https://169.254.169.254/latest/meta-data",
    "https://[fe80::1]/x.png",
    "https://[::ffff:127.0.0.1]:{port}/x.png",
    "https://100.64.0.1/x.png",
    "https://0.0.0.0:{port}/x.png",
]


@pytest.mark.parametrize("link", PRIVATE)
async def test_a_remote_provider_may_not_point_at_this_machine_or_a_private_network(server, link):
    """Given directly or as a redirect hop: refused before anything connects."""
    server.script["GET /x.png"] = [Answer(PNG, content_type="image/png")]
    url = link.format(port=server._server.server_address[1])
    hop: list[str] = []

    def first_hop(request: httpx.Request) -> httpx.Response:
        hop.append(str(request.url))
        return httpx.Response(302, headers={"Location": url})

    for how, transport in (("direct", None), ("redirect", httpx.MockTransport(first_hop))):
        provider = MiniMaxProvider(
            "sk-remote-0123456789", "https://api.minimax.io", transport=transport
        )
        try:
            with pytest.raises(Refused) as exc:
                start = url if how == "direct" else "https://cdn.minimax.example/ok.png"
                async with provider.download(start):
                    pass
            assert exc.value.never_sent
            assert "private" in exc.value.message or "this machine" in exc.value.message
        finally:
            await provider.aclose()
    assert hop == ["https://cdn.minimax.example/ok.png"]
    assert server.sent("GET", "/x.png") == 0  # never reached


async def test_a_download_connects_to_the_address_it_checked_never_to_a_second_answer(monkeypatch):
    """DNS rebinding: a name that answers a public address to the check and a loopback address
    to the connection. The connection must go to the address that was checked; the resolver is
    asked once. Nothing leaves the machine: the dial itself is caught at the socket layer's
    door (anyio), before any packet."""
    import errno
    import socket

    import anyio

    host, public = "cdn.rebind.example", "93.184.216.34"
    looked: list[str] = []
    real = socket.getaddrinfo

    def resolver(name, port, *args, **kw):
        if name != host:
            return real(name, port, *args, **kw)
        looked.append(name)
        address = public if len(looked) == 1 else "127.0.0.1"  # the rebinding answer
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    dialled: list[str] = []

    async def dial(remote_host, remote_port, **kw):
        dialled.append(str(remote_host))
        raise OSError(errno.ENETUNREACH, "no network beyond loopback here")

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    monkeypatch.setattr(anyio, "connect_tcp", dial)
    provider = MiniMaxProvider("sk-remote-0123456789", "https://api.minimax.io")
    try:
        with pytest.raises(Refused) as exc:
            async with provider.download(f"https://{host}/video/out.mp4"):
                pass
        assert "could not connect" in exc.value.message
        assert dialled == [public], dialled  # the checked address, not the name again
        assert looked == [host]
        # the name stays what the server and TLS see: Host header, SNI and certificate check
        pinned = provider.http._pinned(f"https://{host}:8443/v.mp4", [public])
        assert pinned.url.host == public and pinned.url.port == 8443
        assert pinned.headers["Host"] == f"{host}:8443"
        assert pinned.extensions["sni_hostname"] == host
    finally:
        await provider.aclose()


async def test_a_name_whose_first_lookup_fails_is_never_connected_to_by_name(monkeypatch):
    """Issue 24, point 12: the first lookup failed, nothing was checked, and the download then
    connected by name — which resolved again, to 127.0.0.1 (a server there answered "INTERNAL
    SECRET"). No checked address, no connection: refused before anything is dialled."""
    import errno
    import socket

    import anyio

    host = "cdn.flaky.example"
    looked: list[str] = []
    real = socket.getaddrinfo

    def resolver(name, port, *args, **kw):
        if name != host:
            return real(name, port, *args, **kw)
        looked.append(name)
        if len(looked) == 1:
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    dialled: list[str] = []

    async def dial(remote_host, remote_port, **kw):
        dialled.append(str(remote_host))
        raise OSError(errno.ENETUNREACH, "no network beyond loopback here")

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    monkeypatch.setattr(anyio, "connect_tcp", dial)
    provider = MiniMaxProvider("sk-remote-0123456789", "https://api.minimax.io")
    try:
        with pytest.raises(Refused) as exc:
            async with provider.download(f"https://{host}/video/out.mp4"):
                pass
        assert dialled == [], dialled  # neither the name nor a second answer was dialled
        assert exc.value.never_sent
        assert f"{host} could not be resolved" in exc.value.message, exc.value.message
        assert looked == [host]
    finally:
        await provider.aclose()
