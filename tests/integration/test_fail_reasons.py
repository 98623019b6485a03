"""A connect timeout (nothing sent) and a read timeout (sent, no answer) are told apart — in the
slot's state, its history, the window's words and ``slate --json status`` (``error.reason``
``never_sent`` vs ``no_answer``) — over real loopback servers: a port whose accept queue is full
(the connection never opens: a real connect timeout), and a server that accepts, reads the
request and never answers (a real read timeout). Both stores."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from app.present import words
from tests.support.fixtures import CliResult

RID = "article:20260816:reasons:scene-01"


@pytest.fixture
def full_port() -> Iterator[int]:
    """A loopback port that accepts nothing: its listener's queue is filled by connections no
    one accepts, so a new connection's handshake is never answered (a connect timeout)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    held: list[socket.socket] = []
    while True:  # fill the queue until a connect times out: then it is full
        s = socket.socket()
        s.settimeout(0.5)
        try:
            s.connect(("127.0.0.1", port))
        except (TimeoutError, socket.timeout):
            s.close()
            break
        held.append(s)
    try:
        yield port
    finally:
        for s in held:
            s.close()
        listener.close()


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback server that accepts every connection, reads what is sent and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    accepted: list[socket.socket] = []
    got_request = threading.Event()

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            accepted.append(conn)
            threading.Thread(target=drain, args=(conn,), daemon=True).start()

    def drain(conn: socket.socket) -> None:
        try:
            while conn.recv(65536):
                got_request.set()
        except OSError:
            return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield port
        assert got_request.is_set(), "the request reached the silent server"
    finally:
        listener.close()
        for conn in accepted:
            conn.close()
        thread.join(timeout=5)


def _minimax(slate, port: int, store_url: str):
    env = {
        "SLATE_PROVIDER": "minimax",
        "MINIMAX_API_KEY": "sk-test-reasons-0000",
        "SLATE_BASE_URL": f"http://127.0.0.1:{port}",
        "SLATE_TIMEOUT": "1",
        "SLATE_STORE": store_url,
    }

    def run(*args: str) -> CliResult:
        return slate(*args, env=env)

    return run


def _submit(run) -> CliResult:
    return run("submit", "--request-id", RID, "--kind", "video", "--prompt", "a tide at dusk")


def _said(task_json: dict) -> str:
    """The window's words for the slot's error, from the task as the CLI answers it."""
    return words.for_task(SimpleNamespace(state=task_json["state"], error=task_json["error"])).text


def test_a_connect_timeout_is_never_sent(slate, full_port, store_url):
    run = _minimax(slate, full_port, store_url)
    sub = _submit(run)
    assert (sub.code, sub.out["outcome"]) == (6, "rejected"), sub.out
    assert sub.out["error"]["reason"] == "never_sent"
    assert "ConnectTimeout" in sub.out["error"]["message"]

    status = run("status", RID)
    assert (status.code, status.out["outcome"]) == (6, "rejected")
    assert status.out["error"]["reason"] == "never_sent"
    error = status.out["task"]["error"]
    assert error["code"] == "never_sent" and error["reason"] == "never_sent"
    assert _said(status.out["task"]) == words.NEVER_SENT

    events = run("history", RID).out["events"]
    rejected = [e for e in events if e["event"] == "rejected"]
    assert [e["data"]["reason"] for e in rejected] == ["never_sent"]
    shown, _ = words.event_detail("rejected", rejected[0]["detail"], str, data=rejected[0]["data"])
    assert shown == words.NEVER_SENT


def test_a_read_timeout_is_no_answer(slate, silent_port, store_url):
    run = _minimax(slate, silent_port, store_url)
    sub = _submit(run)
    assert (sub.code, sub.out["outcome"]) == (4, "unknown"), sub.out
    assert sub.out["error"]["reason"] == "no_answer"

    status = run("status", RID)
    assert (status.code, status.out["outcome"]) == (4, "unknown")
    assert status.out["error"]["reason"] == "no_answer"
    error = status.out["task"]["error"]
    assert error["code"] == "unknown" and error["reason"] == "no_answer"  # the code as before
    assert _said(status.out["task"]) == words.NO_ANSWER_IN_TIME

    events = run("history", RID).out["events"]
    unknown = [e for e in events if e["event"] == "unknown"]
    assert [e["data"]["reason"] for e in unknown] == ["no_answer"]
    shown, _ = words.event_detail("unknown", unknown[0]["detail"], str, data=unknown[0]["data"])
    assert shown == words.NO_ANSWER_IN_TIME
