"""The designer's words for provider failures and service messages: one mapping, no technical
words in the sentence, the original kept as the detail, and a Chinese sentence for each."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from app.domain.errors import Unchanged
from app.domain.states import Action, Refusal, SlotOffer, State
from app.service.results import Problem, ProblemCode, ProviderAnswer
from app.service.views import TaskError
from app.present import words

TECHNICAL = re.compile(
    r"--|Error\b|Exception|sha-?256|new_sensitive|base_resp|/tmp/|\b\d{4}\b", re.IGNORECASE
)


def task(state: str, code: str | None, message: str | None) -> SimpleNamespace:
    return SimpleNamespace(state=state, error=TaskError(code, message))


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("1026", words.INPUT_SENSITIVE),
        ("1027", words.OUTPUT_SENSITIVE),
        ("1008", words.BALANCE),
        ("1002", words.RATE_LIMIT),
        ("1004", words.WRONG_KEY),
        ("2049", words.WRONG_KEY),
        ("2061", words.NOT_IN_PLAN),
        ("2013", words.BAD_PARAMS),
        ("never_sent", words.NEVER_SENT),
        ("unknown_status", words.STRANGE_STATUS),
        ("no_media", words.NO_FILE),
    ],
)
def test_a_stored_code_is_looked_up_whole(code, expected):
    """A row without a typed reason is said from its stored code, looked up as a whole key;
    the message beside it is the technical detail, never read for words."""
    assert words.code_words(code) == expected
    said = words.for_task(task("fail", code, "words that match no rule"))
    assert said.text == expected
    assert "words that match no rule" in said.detail  # the original, one click away
    assert not TECHNICAL.search(said.text), said.text


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("provider_fail", "new_sensitive"),
        (None, "insufficient balance (1008)"),  # a code inside text is text: not dug out
        (
            "unknown",
            "video create: connection failed after sending (RemoteProtocolError: Server "
            "disconnected)",
        ),
        ("unknown", "video create: no answer in time after sending (ReadTimeout)"),
        ("unknown", "the process that sent the create ended before the answer was stored"),
        (None, "video query: ConnectTimeout: timed out"),
        ("ConnectTimeout", "ConnectTimeout"),
    ],
)
def test_a_row_without_a_reason_is_shown_with_its_stored_words(code, message):
    """Issue 36: a task error row that cannot be mapped (no typed reason, no known code) keeps
    its text and is shown as it is — the words are never matched for a meaning."""
    state = "unknown" if code == "unknown" else "fail"
    said = words.for_task(task(state, code, message))
    assert said.text == message
    assert words.code_words(code) is None


def test_an_unheard_of_reason_keeps_its_own_words():
    said = words.for_task(task("fail", "9999", "the flux capacitor overheated"))
    assert said.text == "the flux capacitor overheated" and said.detail == "9999"
    assert words.for_task(task("unknown", "x", "???")).text == "???"
    assert words.for_task(task("fail", "9999", None)).text == words.PROVIDER_FAILED
    assert words.for_task(task("unknown", "x", None)).text == words.LOST_ANSWER
    assert words.for_task(task("success", None, None)) == words.Said("")


def test_a_declared_failure_says_the_designers_words_kept_whole():
    """The designer's reason is kept as data (``TaskError.said``), not cut out of the message;
    an earlier row without it shows its stored message as it is."""
    from app.domain.errors import FailReason

    message = "declared failed by mei: gone: not in the console"
    kept = TaskError("declared_failed", message, FailReason.DECLARED_FAILED, "gone: not there")
    said = words.for_task(SimpleNamespace(state="fail", error=kept))
    assert said.text == "This slot was declared failed. The reason given: gone: not there"
    assert said.detail == message
    earlier = TaskError("declared_failed", message, FailReason.DECLARED_FAILED)
    assert words.for_task(SimpleNamespace(state="fail", error=earlier)).text == message


def test_outcomes_are_said_with_the_guis_words_not_cli_flags():
    for refusal, look in ((Refusal.NO_TASK_ID_LOOKUP, True), (Refusal.NO_TASK_ID, False)):
        offer = SlotOffer(Action.QUERY, refusal)
        why = f"query is not offered: {offer.why_not}"
        lost = Problem(ProblemCode.NOT_ALLOWED, why, refused=offer)
        said = words.for_outcome(lost)  # chosen by the typed reason, not by the message's words
        assert said.text == words.REFUSAL_WORDS[refusal]
        assert ("look the task up" in said.text) is look
        assert "--" not in said.text and "--task-id" in said.detail
    reworded = Problem(
        ProblemCode.NOT_ALLOWED, "whatever", refused=SlotOffer(Action.QUERY, Refusal.NO_QUERY)
    )
    assert words.for_outcome(reworded).text == words.REFUSAL_WORDS[Refusal.NO_QUERY]
    for message, unchanged, expected in (
        (
            "lookup found no matching task in the time window; nothing changed. Attach one "
            "with --task-id ID",
            Unchanged.LOOKUP_NOTHING,
            words.LOOKUP_NOTHING,
        ),
        (
            "lookup found 2 matching tasks (the list cannot show the prompt, so none is "
            "chosen) in the time window; nothing changed. Attach one with --task-id ID",
            Unchanged.LOOKUP_MANY,
            words.LOOKUP_MANY,
        ),
        (
            "the provider did not confirm task 123: not found; nothing changed",
            Unchanged.NOT_CONFIRMED,
            words.NOT_CONFIRMED,
        ),
        (
            "the provider's task list did not answer: timeout; nothing changed",
            Unchanged.LIST_SILENT,
            words.LIST_SILENT,
        ),
    ):
        said = words.for_outcome(Problem(ProblemCode.UNKNOWN, message, unchanged=unchanged))
        assert said.text == expected and "--" not in said.text and said.detail == message
        # chosen by the typed reason, not by the message's words
        reworded = Problem(ProblemCode.UNKNOWN, "reworded", unchanged=unchanged)
        assert words.for_outcome(reworded).text == expected
    refused = Problem(ProblemCode.REJECTED, "insufficient balance", provider=ProviderAnswer(1008))
    assert words.for_outcome(refused).text == words.BALANCE
    assert words.for_outcome(Problem(ProblemCode.QUOTA_EXCEEDED, "quota 3/3")).text == words.QUOTA
    invalid = Problem(ProblemCode.INVALID, "prompt: must not be empty", field="prompt")
    assert words.for_outcome(invalid).text == "prompt: must not be empty"
    assert words.for_outcome(None) == words.Said("")


def test_errors_of_the_app_hide_exception_names():
    said = words.for_error("load slot: OperationalError: database is locked")
    assert said.text == words.INTERNAL and "OperationalError" in said.detail
    assert not TECHNICAL.search(said.text)
    # never read for its words: a network failure raised here is said as the app's own error
    assert words.for_error("query: ConnectError: refused").text == words.INTERNAL


def test_status_words_and_event_details_are_the_designers():
    def state_word(state):
        return {State.PREPARING: "准备中", State.PROCESSING: "生成中"}.get(state, str(state))

    assert words.status_word("Preparing", state_word) == "准备中"
    assert words.status_word("Weird", state_word) == "Weird"
    said = words.event_detail
    shown, technical = said("status", "Processing (usage {})", state_word, data=_STATUS)
    assert shown == "生成中" and technical == "Processing (usage {})"
    shown, technical = said(
        "unknown",
        "video create: connection failed after sending (RemoteProtocolError: x)",
        state_word,
        data={"reason": "connection_lost"},
    )
    assert shown == words.LOST_ANSWER and "RemoteProtocolError" in technical
    assert said("exported", "2 file(s) to /home/x/out", state_word, data={"files": 2}) == (
        "2 files",
        "2 file(s) to /home/x/out",
    )
    assert said("status", "Weird (file 1)", state_word, data={"status": "Weird"}) == (
        "",
        "Weird (file 1)",
    )
    # an earlier status event without the word as data: the state it recorded, never its text
    assert said("status", "Processing (x)", state_word, state=State.PREPARING) == (
        "准备中",
        "Processing (x)",
    )
    assert said("status", "Processing (x)", state_word) == ("", "Processing (x)")


_STATUS = {"status": "Processing", "raw": {}}
SHA = "135b1010b8244b62c3269a4dbf96c80461f31a64bfe5da9f15aa3abc7dfc9d63"


@pytest.mark.parametrize(
    ("event", "detail", "data", "line"),
    [
        ("created", "3 image(s) answered", {"images": 3}, "created at the provider: 3 images"),
        ("created", "1 image(s) answered", {"images": 1}, "created at the provider: 1 image"),
        ("created", "provider task 179615999938083", {"raw": {}}, "created at the provider"),
        (
            "verified",
            f"image/png 1024×1024 sha256 {SHA[:12]}, image/png 1024×1024 sha256 {SHA[:12]}",
            {"media": [{"content_type": "image/png", "width": 1024, "height": 1024}] * 2},
            "media verified: 2 images · 1024×1024",
        ),
        (
            "verified",
            f"video/mp4 1366×768 sha256 {SHA[:12]}",
            {"media": [{"content_type": "video/mp4", "width": 1366, "height": 768}]},
            "media verified: video · 1366×768",
        ),
        (
            "downloaded",
            "24927 bytes from file 179615999938316",
            {"bytes": 24927},
            "downloaded: 24 KB",
        ),
        (
            "downloaded",
            "2411724 bytes, 1366×768",
            {"bytes": 2411724, "width": 1366, "height": 768},
            "downloaded: 2.3 MB · 1366×768",
        ),
        ("exported", "2 file(s) to /home/ann/exports", {"files": 2}, "exported: 2 files"),
        (
            "inputs",
            "a.png uploaded as https://x/1; b.png uploaded as https://x/2",
            {"inputs": {"a": {"sent_as": "https://x/1"}, "b": {"sent_as": "https://x/2"}}},
            "input files sent: 2 input files uploaded",
        ),
        (
            "rate_limited",
            "1002 rate limit; nothing was created; sending again in 2.4 s",
            {"retry_in": 2.4},
            "rate limited, waiting: nothing was made; sending again in 2 s",
        ),
        (
            "download_stalled",
            "download too slow: 2048 bytes in 15 s (less than 16 KB/s); let go, "
            "to try again later; next try in 4 s",
            {"next_try_in": 4},
            "download too slow, paused: the result is safe; next try in 4 s",
        ),
        (
            "cancelled",
            "cancelled at the provider while queued (task 1796); not billed",
            {"billed": False},
            "cancelled: not billed",
        ),
        ("recovered", "attached provider task 1796159999", {"raw": {}}, "recovered"),
        (
            "late_answer",
            "the create answered with provider task 17 after the record was settled "
            "(fail); nothing changed. If it is this slot's task: recover --task-id 17",
            None,
            "the provider's answer came late",
        ),
        (
            "lookup",
            "lookup found no matching task between 1 and 2; nothing changed",
            {"candidates": [], "contested": []},
            "looked up at the provider: " + words.LOOKUP_NOTHING,
        ),
        (
            "lookup",
            "lookup found 2 matching tasks between 1 and 2; nothing changed",
            {"unchanged": "lookup_many"},
            "looked up at the provider: " + words.LOOKUP_MANY,
        ),
        (  # a designed voice's lookup: its typed reason, as recover's lookup writes it
            "lookup",
            "get_voice does not list this slot's voice id v-1 (0 designed voice(s) listed); "
            "nothing changed. The create's window has not passed yet: ask again later",
            {"lookup": {"voice_id": "v-1", "listed": False}, "unchanged": "lookup_nothing"},
            "looked up at the provider: " + words.LOOKUP_NOTHING,
        ),
        (  # the typed reason is what is read, not the evidence beside it
            "lookup",
            "get_voice did not answer",
            {"lookup": {"voice_id": "v-1", "listed": False}, "unchanged": "list_silent"},
            "looked up at the provider: " + words.LIST_SILENT,
        ),
        (  # written before the voice lookup carried its reason: its evidence's typed flag
            "lookup",
            "get_voice does not list this slot's voice id v-1; nothing changed",
            {"lookup": {"voice_id": "v-1", "listed": False}},
            "looked up at the provider: " + words.LOOKUP_NOTHING,
        ),
        (
            "quota_refused",
            "video quota: 5 of 5 used today; 1 more refused",
            None,
            "refused: daily quota used up: " + words.QUOTA,
        ),
        ("conflict", "changed: duration, resolution", None, "conflict: other parameters refused"),
        ("submitted", "claimed", None, "slot claimed, create about to be sent"),
        ("declared_failed", "the sea was wrong", None, "declared failed: the sea was wrong"),
        ("brand_new_event", "whatever it says", None, "other event"),
    ],
)
def test_a_history_line_shows_the_designers_words_and_keeps_the_rest_behind_details(
    event, detail, data, line
):
    shown, technical = words.event_line(event, detail, str, data=data)
    assert shown == line
    assert not re.search(r"[0-9a-f]{12,}|/home|https?:|--task-id|bytes|answered", shown)
    if event != "declared_failed":
        assert detail in technical  # the service's own words, one click away


def test_every_sentence_has_chinese_words(qapp):
    from app.ui.app import install_translations
    from app.ui.qt import translate

    sentences = [
        v for k, v in vars(words).items() if k.isupper() and isinstance(v, str) and k != "CONTEXT"
    ]
    assert len(sentences) > 30
    install_translations(qapp, "zh_CN")
    try:
        missing = [
            s for s in sentences if not re.search(r"[\u4e00-\u9fff]", translate(words.CONTEXT, s))
        ]
    finally:
        install_translations(qapp, "en")
    assert missing == []
    for s in sentences:
        assert not TECHNICAL.search(s), s


def test_hiding_and_deleting_files_are_said_not_other_event():
    """Issue 33 point 8: hide, unhide, media deletion and redownload read "other event"; an
    inputs event with nothing uploaded read "input files sent: 0 input files uploaded"."""
    from app.present import words

    def line(event, detail="x"):
        return words.event_line(event, detail, lambda s: str(s))[0]

    assert line("hidden") == "hidden from the browser (the record stays)"
    assert line("unhidden") == "shown in the browser again"
    assert line("media_removed").startswith("files deleted on this computer")
    assert line("redownloaded").startswith("downloaded again")
    assert "other event" not in line("hidden")
    assert line("inputs", "2 frames sent inline") == "input files sent"


def test_a_ratio_a_frame_overrides_is_said_with_the_size_made():
    from app.domain.drafts import Notice, NoticeKind

    sized = Notice(
        NoticeKind.RATIO_IGNORED,
        "ratio",
        {"ratio": "16:9", "frame": "first_frame_image", "width": 768, "height": 768},
    )
    assert words.notice(sized) == (
        "MiniMax follows the shape of the first frame and ignores the ratio: this video will "
        "be 768×768, not 16:9."
    )
    unsized = Notice(
        NoticeKind.RATIO_IGNORED, "ratio", {"ratio": "4:3", "frame": "last_frame_image"}
    )
    assert words.notice(unsized) == (
        "MiniMax follows the shape of the last frame and ignores the ratio: this video will not "
        "be 4:3 unless the picture is."
    )


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_fail_reason_is_said_in_both_languages(qapp, lang):
    """Issue 36: each typed reason finds its own sentence — for the task's error, the action's
    answer and the history's event — in English and in Chinese, from the enum alone (the
    stored code and message are technical words only, never read for the sentence)."""
    from app.domain.errors import FailReason
    from app.ui.app import install_translations
    from app.ui.qt import translate

    assert set(words.REASON_WORDS) == set(FailReason)
    install_translations(qapp, lang)
    try:
        for reason in FailReason:
            state = "unknown" if reason is FailReason.NO_ANSWER else "fail"
            error = TaskError("x-code", "words that match no rule", reason, "own words")
            said = words.for_task(SimpleNamespace(state=state, error=error), translate)
            problem = Problem(ProblemCode.REJECTED, "words that match no rule", reason=reason)
            answered = words.for_outcome(problem, translate=translate)
            shown, _ = words.event_detail(
                "unknown", "words that match no rule", str, translate, {"reason": reason.value}
            )
            expected = translate(words.CONTEXT, words.REASON_WORDS[reason])
            assert expected, reason
            if lang == "zh_CN":
                assert re.search(r"[\u4e00-\u9fff]", expected), reason
            if reason is FailReason.DECLARED_FAILED:  # said with the designer's own reason
                assert said.text.startswith(expected.split("%1")[0]), reason
                continue
            assert said.text == expected, reason
            assert answered.text == expected, reason
            assert shown == expected, reason
    finally:
        install_translations(qapp, "en")


def test_a_connect_timeout_and_a_read_timeout_are_told_apart_by_their_reason():
    """The same stored code and English for both: only the typed reason tells them apart."""
    from app.domain.errors import FailReason

    never = TaskError("unknown", "video create: timed out", FailReason.NEVER_SENT)
    lost = TaskError("unknown", "video create: timed out", FailReason.NO_ANSWER)
    assert words.for_task(SimpleNamespace(state="rejected", error=never)).text == words.NEVER_SENT
    assert (
        words.for_task(SimpleNamespace(state="unknown", error=lost)).text == words.NO_ANSWER_IN_TIME
    )


def test_an_earlier_row_without_a_reason_is_shown_as_it_was_stored():
    """A row stored before reasons (``error.reason`` null, code ``unknown``) keeps its text."""
    message = "video create: no answer in time after sending (ReadTimeout)"
    said = words.for_task(task("unknown", "unknown", message))
    assert said.text == message


def test_one_cost_line_for_every_place_that_asks_before_paying():
    """The create form, the voice design dialog and the enhance and 2K confirmations say a
    price with one function (issue 36): about the estimate, or unknown and why — never $0."""
    from decimal import Decimal
    from types import SimpleNamespace

    from app.present.words import cost_line, price_of

    priced = SimpleNamespace(estimate=Decimal("0.32"), currency="USD")
    tiny = SimpleNamespace(estimate=Decimal("0.0035"), currency="USD")
    unpriced = SimpleNamespace(estimate=None, currency="USD")
    assert cost_line(priced) == "Cost: about $0.32"
    assert cost_line(tiny) == "Cost: about < $0.01"  # a price, however small: never $0.00
    assert cost_line(unpriced) == "Cost: price unknown"
    assert cost_line(None) == "Cost: price unknown"
    assert cost_line(unpriced, why_unknown="no price is published.") == (
        "Cost: price unknown — no price is published."
    )
    assert (
        price_of(unpriced) is None and price_of(priced) == cost_line(priced)[len("Cost: about ") :]
    )
    for module in (
        "app/ui/form.py",
        "app/ui/enhance.py",
        "app/ui/make2k.py",
        "app/ui/voice_design.py",
    ):
        text = (Path(__file__).resolve().parents[2] / module).read_text(encoding="utf-8")
        assert "cost_line(" in text and "format_money(" not in text, module


@pytest.mark.parametrize(
    ("event", "data", "shown"),
    [
        ("created", {"images": 3}, "3 images"),
        ("created", {"images": 1, "raw": {}}, "1 image"),
        ("rate_limited", {"retry_in": 3.2}, "nothing was made; sending again in 3 s"),
        ("download_stalled", {"next_try_in": 40}, "the result is safe; next try in 40 s"),
        ("cancelled", {"billed": False}, "not billed"),
        ("cancelled", {"billed": True}, ""),
        ("downloaded", {"bytes": 2_500_000, "width": 1366, "height": 768}, "2.4 MB · 1366×768"),
        ("downloaded", {"bytes": 58_000}, "57 KB"),
        ("exported", {"files": 2}, "2 files"),
        (
            "verified",
            {"media": [{"content_type": "image/png", "width": 1024, "height": 1024}] * 3},
            "3 images · 1024×1024",
        ),
        (
            "verified",
            {"media": [{"content_type": "video/mp4", "width": 1366, "height": 768}]},
            None,
        ),
        (
            "inputs",
            {"inputs": {"a": {"sent_as": "https://x/y.png"}, "b": {"sent_as": "data URL"}}},
            "1 input file uploaded",
        ),
    ],
)
def test_an_events_facts_are_read_from_its_data_not_its_words(event, data, shown):
    """Issue 36: the service keeps an event's facts as data; the timeline says them from the
    data, whatever the English beside them says (here: words that no longer match)."""
    said, _technical = words.event_detail(event, "in other words entirely", str, data=data)
    if shown is None:  # the kind's own word, then the size
        assert said.endswith(" · 1366×768") and said != " · 1366×768", said
    else:
        assert said == shown


@pytest.mark.parametrize(
    ("event", "detail"),
    [
        ("rate_limited", "1002; sending again in 2.0 s"),
        ("created", "2 image(s) answered"),
        ("downloaded", "2411724 bytes, 1366×768"),
        ("exported", "2 file(s) to /home/x/out"),
        ("inputs", "a.png uploaded as https://x/1"),
        ("verified", f"image/png 1024×1024 sha256 {SHA[:12]}"),
        ("cancelled", "cancelled at the provider while queued (task 1796); not billed"),
        ("download_stalled", "download too slow; next try in 4 s"),
    ],
)
def test_an_earlier_versions_event_keeps_its_words_unparsed(event, detail):
    """Issue 36: an event an earlier version wrote without its facts as data is shown with its
    stored words behind Details, never read for numbers."""
    assert words.event_detail(event, detail, str) == ("", detail)


@pytest.mark.parametrize(
    ("event", "detail"),
    [
        ("unknown", "video create: connection failed after sending (RemoteProtocolError: x)"),
        ("rejected", "insufficient balance"),
        ("lookup", "lookup found no matching task between 1 and 2; nothing changed"),
    ],
)
def test_an_earlier_versions_reason_event_is_shown_as_stored(event, detail):
    """A reason event without a typed reason, a known code or the lookup's evidence: its stored
    words are the line, as they are."""
    assert words.event_detail(event, detail, str) == (detail, "")
    said, _ = words.event_detail(event, detail, str, data={"code": 1008})
    if event != "lookup":  # the provider's code, looked up whole
        assert said == words.BALANCE


def test_every_event_kind_is_said_in_both_languages():
    """Each kind of history event the service writes has its words, and in Chinese they are
    Chinese (a kind without words would fall back to the service's own name for it)."""
    from app.present.translations import translator

    zh = translator("zh_CN")
    kinds = [k for k in words.EVENT_WORDS if k]
    assert len(kinds) > 20
    for kind in kinds:
        for translate, lang in ((words._plain, "en"), (zh, "zh_CN")):
            line, technical = words.event_line(kind, None, lambda s: str(s), translate)
            assert line and technical == "", (kind, lang, line, technical)
            if lang == "zh_CN":
                assert re.search(r"[\u4e00-\u9fff]", line), (kind, line)
