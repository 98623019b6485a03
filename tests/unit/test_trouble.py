"""An error of the app's own work is typed once where the runner catches it, and said by that
type in both languages: a connection never made says the network words, a locked or full store
and a refused value say their own, anything else the general words (issue 36). The exception's
text is never read for the words; it stays behind Details."""

from __future__ import annotations

import socket
import sqlite3

import httpx
import pytest
import sqlalchemy
import sqlalchemy.exc

from app.domain.errors import BadConfiguration, FailReason, Rule, StoreBusy, ValidationError
from app.present import words
from app.present.translations import translator
from app.providers.base import Refused
from app.service.trouble import STORE_BUSY, STORE_FULL, Trouble, trouble_of
from tests.support import web


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_connection_never_made_on_loopback_is_never_sent():
    with pytest.raises(httpx.ConnectError) as caught:
        web.get(f"http://127.0.0.1:{_closed_port()}/", timeout=2)
    trouble = trouble_of(caught.value, "query")
    assert trouble.reason is FailReason.NEVER_SENT and trouble.code is None
    assert trouble.message.startswith("query: ConnectError: ")
    said = words.for_error(trouble)
    assert said.text == words.NETWORK and said.detail == trouble.message
    timeout = httpx.ConnectTimeout("timed out")
    assert trouble_of(timeout).reason is FailReason.NEVER_SENT
    # sent, no answer: not the network words (a read timeout says nothing about the link)
    assert words.for_error(trouble_of(httpx.ReadTimeout("timed out"))).text == words.INTERNAL


def test_a_locked_sqlite_store_is_busy_by_its_error_code(tmp_path):
    path = tmp_path / "s.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    engine = sqlalchemy.create_engine(f"sqlite:///{path}", connect_args={"timeout": 0})
    try:
        with pytest.raises(sqlalchemy.exc.OperationalError) as caught:
            with engine.begin() as conn:
                conn.exec_driver_sql("INSERT INTO t VALUES (1)")
    finally:
        engine.dispose()
        holder.execute("ROLLBACK")
        holder.close()
    trouble = trouble_of(caught.value, "load slot")
    assert trouble.code == STORE_BUSY
    assert words.for_error(trouble).text == words.STORE_BUSY


def test_a_full_disk_and_the_domains_errors_say_their_own_words():
    full = sqlite3.OperationalError("whatever the driver says")
    full.sqlite_errorcode = 13  # SQLITE_FULL
    assert trouble_of(full).code == STORE_FULL
    assert trouble_of(OSError(28, "No space left on device")).code == STORE_FULL
    disk = BadConfiguration("data_dir", "/x", "disk_full")
    assert words.for_error(trouble_of(disk)).text == words.STORE_FULL
    assert words.for_error(trouble_of(StoreBusy("held by pid 7"))).text == words.STORE_BUSY
    refused = ValidationError("duration", "must be 4–15", Rule.OUT_OF_RANGE, low=4, high=15)
    said = words.for_error(trouble_of(refused, "create"))
    assert "4" in said.text and "15" in said.text and said.text != words.INTERNAL
    balance = Refused("insufficient balance", code=1008)
    assert words.for_error(trouble_of(balance)).text == words.BALANCE
    assert words.for_error(trouble_of(RuntimeError("boom"))).text == words.INTERNAL


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_each_typed_trouble_has_its_sentence_in_both_languages(lang):
    tr = translator(lang)
    cases = {
        Trouble("q: ConnectError: x", reason=FailReason.NEVER_SENT): words.NETWORK,
        Trouble("s: OperationalError: x", code=STORE_BUSY): words.STORE_BUSY,
        Trouble("s: OperationalError: x", code=STORE_FULL): words.STORE_FULL,
        Trouble("s: RuntimeError: x"): words.INTERNAL,
    }
    for trouble, sentence in cases.items():
        said = words.for_error(trouble, tr)
        assert said.text == tr(words.CONTEXT, sentence) and said.detail == trouble.message
        if lang == "zh_CN":
            assert said.text != sentence, sentence  # translated, not the English
    # a plain message (nothing typed) is never read for its words
    assert words.for_error("query: ConnectError: refused", tr).text == tr(
        words.CONTEXT, words.INTERNAL
    )
