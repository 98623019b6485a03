"""The 7-day clock of designed voices, on both stores (SQLite file and PostgreSQL) over loopback
HTTP: a speech create whose voice is a designed voice past its "deleted after" day (its last use
by a speech slot of this store, else the day it was made, + 7 days) is refused before anything
is sent — ``invalid``, field ``voice``, the day named — and ``voice list`` shows that same day.
The days are moved as the other tests move them: the demo provider's clock when the voice is
made (its ``get_voice`` says the day), the store's ``created_at`` of the slots (never a sleep)."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from sqlalchemy import update

from app.domain.errors import Rule
from app.domain.states import State
from app.present import words
from app.service.results import OutcomeKind
from app.store.aio import open_store
from app.store.models import tasks
from tests.support import machines
from tests.integration.test_voice import DESIGN, RID, creates, own_id

pytestmark = pytest.mark.timeout(180)

DAY = 86400.0
LINE = "article:20261202:tide-eye:vo-01"
TEXT = "The tide eye opens at dusk, and the harbour listens."


def day(days_ago: float) -> str:
    return (
        dt.datetime.fromtimestamp(time.time() - days_ago * DAY, dt.timezone.utc).date().isoformat()
    )


def backdate(store, request_id: str, days: float) -> None:
    """The slot as if it had been created ``days`` ago (as another day's process wrote it)."""
    with store.engine.begin() as conn:
        conn.execute(
            update(tasks)
            .where(tasks.c.request_id == request_id)
            .values(created_at=tasks.c.created_at - days * DAY)
        )


async def design_days_ago(h, days: float, service=None, rid: str = RID) -> str:
    """A voice designed ``days`` ago: the provider's clock then, and the slot's ``created_at``."""
    h.sim.set_clock(offset=-days * DAY)
    try:
        out = await (service or h.service).submit(rid, "voice", DESIGN)
    finally:
        h.sim.set_clock(offset=0)
    assert out.task.state is State.SUCCESS, out.task.error
    backdate(h.store, rid, days)
    return out.task.voice_id


async def test_a_voice_past_its_day_is_refused_before_anything_is_sent(harness):
    h = harness
    vid = await design_days_ago(h, 9)
    gone = day(2)  # made 9 days ago, never used: deleted after 7 days
    out = await h.service.submit(LINE, "speech", {"text": TEXT, "voice": vid})
    assert out.kind is OutcomeKind.INVALID, out.problem
    assert out.problem.field == "voice" and gone in out.problem.message, out.problem
    assert out.problem.rule is Rule.VOICE_DELETED  # typed: each face says it in its words
    assert out.problem.values["deleted_after"] == gone and out.problem.values["voice"] == vid
    said = words.rule_words(out.problem.rule, out.problem.values, "voice")
    assert gone in said and vid in said and "{" not in said, said
    assert creates(h.sim, TEXT) == 0  # nothing was sent
    assert (await h.service.status(LINE)).kind is OutcomeKind.NOT_FOUND  # nothing was stored
    [mine] = [
        v for v in (await h.service.voice_list("designed")).payload.voices if v.voice_id == vid
    ]
    assert (mine.made, mine.last_used, mine.deleted_after) == (day(9), None, gone)


async def test_a_voice_within_its_days_is_used(harness):
    h = harness
    vid = await design_days_ago(h, 5)  # deleted after 2 days from now
    out = await h.service.submit(LINE, "speech", {"text": TEXT, "voice": vid})
    assert out.kind is OutcomeKind.CREATED and out.task.state is State.SUCCESS, out.problem
    [mine] = [
        v for v in (await h.service.voice_list("designed")).payload.voices if v.voice_id == vid
    ]
    assert (mine.made, mine.last_used, mine.deleted_after) == (day(5), day(0), day(-7))


def test_the_last_use_moves_the_day_and_a_replay_is_never_refused(
    slate, slate_env, store_url, demo_sim
):
    """Machines whose clocks say 15 and 10 days ago (real ``slate`` processes): the voice
    designed 15 days ago, used by a speech line 10 days ago — deleted after 3 days ago. Today a
    new line with it is refused naming that day; the old line again is a replay (nothing sent).

    Both machines are started side by side at the beginning (``spawn(..., gated=True)``: their
    imports done, then each waits) and each runs its command when the test says, one after the
    other (the voice's id is the one the slot always gets, ``own_id()``). Today's commands, on
    this machine's clock, go through the ``slate`` fixture (in process unless
    SLATE_TEST_CLI=subprocess)."""
    env = {**slate_env, "SLATE_STORE": store_url}
    today = {"SLATE_STORE": store_url}
    vid = own_id()
    line = ["submit", "--request-id", LINE, "--kind", "speech", "--text", TEXT, "--voice", vid]
    designer = machines.spawn(env, [
        "voice", "design", "--request-id", RID, "--prompt", DESIGN["prompt"],
        "--preview-text", DESIGN["preview_text"],
    ], clock_offset=-15 * DAY, gated=True)  # fmt: skip
    user = machines.spawn(env, line, clock_offset=-10 * DAY, gated=True)
    try:
        demo_sim.set_clock(offset=-15 * DAY)
        try:
            made = machines.go_finish(designer)
            assert made.code == 0, made.out
            assert made.out["task"]["voice_id"] == vid, made.out
            demo_sim.set_clock(offset=-10 * DAY)
            used = machines.go_finish(user)
            assert used.code == 0 and used.out["task"]["state"] == "success", used.out
        finally:
            demo_sim.set_clock(offset=0)
    finally:
        machines.cancel(designer, user)
    listed = slate("voice", "list", "--type", "designed", env=today)
    [mine] = [v for v in listed.out["voices"] if v["voice_id"] == vid]
    assert (mine["made"], mine["last_used"], mine["deleted_after"]) == (day(15), day(10), day(3))
    again = slate(*line, env=today)
    assert again.code == 0 and again.out["outcome"] == "replayed", again.out
    new = ["submit", "--request-id", LINE + "b", "--kind", "speech", "--text", TEXT + " Again."]
    later = slate(*new, "--voice", vid, env=today)
    assert later.code == 2 and later.out["error"]["field"] == "voice", later.out
    assert day(3) in later.out["error"]["message"]
    assert creates(demo_sim, TEXT) == 1 and creates(demo_sim, TEXT + " Again.") == 0


async def test_a_voice_designed_elsewhere_is_judged_by_get_voice(harness):
    """Designed by another designer of the account (not a slot of this store's user): only
    ``get_voice`` knows it, as ``voice_generation``, with the day it was made."""
    h = harness
    mei = h.other(user="mei")
    vid = await design_days_ago(h, 8, service=mei, rid="voice:20261124:mei:narrator")
    mine = [v for v in (await h.service.voice_list("designed")).payload.voices if v.voice_id == vid]
    assert mine[0].request_id is None and mine[0].deleted_after == day(1)
    out = await h.service.submit(LINE, "speech", {"text": TEXT, "voice": vid})
    assert out.kind is OutcomeKind.INVALID and out.problem.field == "voice"
    assert day(1) in out.problem.message
    assert creates(h.sim, TEXT) == 0


async def test_system_voices_and_unknown_voices_are_not_refused(harness):
    h = harness
    system = await h.service.submit(LINE, "speech", {"text": TEXT, "voice": "female-shaonv"})
    assert system.kind is OutcomeKind.CREATED, system.problem


def test_the_command_line_refuses_an_expired_voice_naming_the_day(slate, store_url, demo_sim):
    env = {"SLATE_STORE": store_url}
    demo_sim.set_clock(offset=-9 * DAY)
    try:
        made = slate(
            "voice", "design", "--request-id", RID, "--prompt", DESIGN["prompt"],
            "--preview-text", DESIGN["preview_text"], env=env,
        )  # fmt: skip
    finally:
        demo_sim.set_clock(offset=0)
    assert made.code == 0, made.out
    store = open_store(store_url)
    try:
        backdate(store, RID, 9)
    finally:
        store.close()
    vid = own_id()
    out = slate(
        "submit", "--request-id", LINE, "--kind", "speech", "--text", TEXT, "--voice", vid,
        env=env,
    )  # fmt: skip
    assert out.code == 2 and out.out["outcome"] == "invalid", out.out
    assert out.out["error"]["field"] == "voice" and day(2) in out.out["error"]["message"]
    assert creates(demo_sim, TEXT) == 0
    listed = slate("voice", "list", "--type", "designed", env=env)
    [mine] = [v for v in listed.out["voices"] if v["voice_id"] == vid]
    assert mine["deleted_after"] == day(2) and mine["made"] == day(9)
