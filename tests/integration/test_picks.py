"""Picks and boards (issue 23): favourite / reject and a 0–5 rating on a result, boards across
projects, and the filters by pick, rating and board the browser and the gallery read by — on
both stores, through the service on the demo provider over HTTP, and through the `slate`
command.

What must hold: a pick is per result and per designer (another user on the same store sees
none of it); setting, clearing and rating never touch the ledger (the slot's row, its events,
its cost, and a submit of the same intent is `replayed`); a result may be on several boards;
every refusal names its field; the filters keep exactly the matching slots (browser) and
results (gallery), and the unfiltered gallery page runs no more statements than before.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import sqlalchemy as sa

from app.store.migrate import downgrade, upgrade
from app.store.models import events, tasks
from app.store.rows import SlotFilter

A = "article:20260816:tide-eye:scene-01"
B = "article:20260816:tide-eye:scene-02"
C = "article:20260817:harbour:scene-01"
IMAGE = {"prompt": "a lighthouse at dusk"}


async def _browser_ids(h, svc=None, **flt: Any) -> set[str]:
    svc = svc or h.service
    scope = svc.ctx.scope
    f = SlotFilter(**flt)
    out: set[str] = set()
    for g in await h.store.projects(scope, f):
        for d in await h.store.days(scope, f, g.key):
            out |= {r.request_id for r in await h.store.slots(scope, f, g.key, d.key)}
    return out


async def _gallery(h, svc=None, **flt: Any) -> set[tuple[str, int]]:
    svc = svc or h.service
    rows = await svc.reader.results(SlotFilter(**flt))
    return {(r.request_id, r.position) for r in rows if r.path is not None}


def _ledger(h) -> list[Any]:
    """Every task row and event row of the store, as they are."""
    with h.store.engine.connect() as conn:
        t = conn.execute(sa.select(tasks).order_by(tasks.c.id)).all()
        e = conn.execute(sa.select(events).order_by(events.c.id)).all()
    return [tuple(r) for r in t] + [tuple(r) for r in e]


async def _three(svc) -> None:
    assert (await svc.submit(A, "image", {**IMAGE, "n": 2})).kind.value == "created"
    assert (await svc.submit(B, "image", IMAGE)).kind.value == "created"
    assert (await svc.submit(C, "image", IMAGE)).kind.value == "created"


async def test_picks_and_ratings_per_result_never_touch_the_ledger(harness) -> None:
    h = harness
    svc = h.service
    await _three(svc)
    ledger = _ledger(h)
    sent = h.sim.stats()["requests_by_endpoint"].get("image_generation", 0)
    fav = await svc.pick(A, pick="favourite", result=2)
    assert fav.kind.value == "ok", fav.problem
    assert [(r.result, r.pick, r.rating) for r in fav.payload.results] == [
        (1, None, 0),
        (2, "favourite", 0),
    ]
    rated = await svc.pick(A, rating=4, result=2)  # the flag stays
    assert [(r.pick, r.rating) for r in rated.payload.results][1] == ("favourite", 4)
    assert (await svc.pick(B, pick="reject")).kind.value == "ok"
    assert (await svc.pick(C, rating="2")).kind.value == "ok"
    # the ledger is exactly as it was: no task row, no event written, nothing sent
    assert _ledger(h) == ledger
    replay = await svc.submit(A, "image", {**IMAGE, "n": 2})
    assert replay.kind.value == "replayed"
    assert h.sim.stats()["requests_by_endpoint"].get("image_generation", 0) == sent
    # clearing: the flag alone, then the rating (0); a result with neither keeps no row
    cleared = await svc.pick(A, pick=None, result=2)
    assert [(r.pick, r.rating) for r in cleared.payload.results][1] == (None, 4)
    zero = await svc.pick(A, rating=0, result=2)
    assert [(r.pick, r.rating) for r in zero.payload.results][1] == (None, 0)
    with h.store.engine.connect() as conn:
        left = conn.execute(sa.text("SELECT count(*) FROM picks")).scalar()
    assert left == 2  # B's reject and C's rating
    # reading without a change
    seen = await svc.pick(B)
    assert [(r.result, r.pick) for r in seen.payload.results] == [(1, "reject")]


async def test_picks_and_boards_are_per_designer(harness) -> None:
    h = harness
    svc = h.service
    mei = h.other(user="mei")
    await _three(svc)
    assert (await mei.submit(A, "image", IMAGE)).kind.value == "created"
    await svc.pick(A, pick="favourite")
    await svc.board_add("Moodboard", A)
    theirs = await mei.pick(A)
    assert [(r.pick, r.rating, r.boards) for r in theirs.payload.results] == [(None, 0, ())]
    assert (await mei.boards()).payload.boards == ()
    assert await _browser_ids(h, mei, pick="favourite") == set()
    assert await _browser_ids(h, pick="favourite") == {A}
    # mei's board of the same name is another board
    await mei.board_add("Moodboard", A)
    mine = (await svc.board("Moodboard")).payload
    assert mine.boards[0].count == 1 and [e.request_id for e in mine.entries] == [A]
    assert (await mei.board("Moodboard")).payload.boards[0].id != mine.boards[0].id


async def test_boards_across_projects_a_result_on_several(harness) -> None:
    h = harness
    svc = h.service
    await _three(svc)
    ledger = _ledger(h)
    first = await svc.board_add("Hero shots", A, result=2)
    assert first.kind.value == "ok", first.problem
    assert first.payload.changed == 1 and first.payload.boards[0].count == 1
    again = await svc.board_add("Hero shots", A, result=2)  # already there: nothing added
    assert again.kind.value == "ok" and again.payload.changed == 0
    await svc.board_add("Hero shots", C)  # another project
    await svc.board_add("Client picks", A, result=2)  # the same result on a second board
    listed = (await svc.boards()).payload
    assert [(b.name, b.count) for b in listed.boards] == [("Client picks", 1), ("Hero shots", 2)]
    hero = (await svc.board("Hero shots")).payload
    assert {(e.request_id, e.result) for e in hero.entries} == {(A, 2), (C, 1)}
    marks = (await svc.pick(A)).payload.results
    assert marks[1].boards == ("Client picks", "Hero shots") and marks[0].boards == ()
    off = await svc.board_remove("Hero shots", A, result=2)
    assert off.kind.value == "ok" and off.payload.changed == 1
    assert (await svc.board("Hero shots")).payload.boards[0].count == 1
    assert (await svc.board_remove("No such", A)).kind.value == "not_found"
    assert (await svc.board("No such")).problem.field == "board"
    assert _ledger(h) == ledger  # boards never write the ledger
    gone = await svc.board_delete("Client picks")
    assert gone.kind.value == "ok"
    assert [b.name for b in (await svc.boards()).payload.boards] == ["Hero shots"]
    assert _ledger(h) == ledger


async def test_bad_input_names_its_field_and_stores_nothing(harness) -> None:
    h = harness
    svc = h.service
    await _three(svc)
    cases = [
        (svc.pick(A, pick="love"), "pick"),
        (svc.pick(A, rating=6), "rating"),
        (svc.pick(A, rating="-1"), "rating"),
        (svc.pick(A, rating="nan"), "rating"),
        (svc.pick(A, rating="2.5"), "rating"),
        (svc.pick(A, rating=True), "rating"),
        (svc.pick(A, pick="favourite", result=3), "result"),  # A has two results
        (svc.pick(A, pick="favourite", result="0"), "result"),
        (svc.pick("bad id", pick="favourite"), "request_id"),
        (svc.board_add("   ", A), "board"),
        (svc.board_add("x" * 81, A), "board"),
        (svc.board_add("tab\there", A), "board"),
        (svc.board_add("Fine", A, result=9), "result"),
    ]
    for call, field in cases:
        got = await call
        assert got.kind.value == "invalid", (field, got)
        assert got.problem is not None and got.problem.field == field, (field, got.problem)
    with h.store.engine.connect() as conn:
        for table in ("picks", "boards", "board_items"):
            assert conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 0
    assert (await svc.pick("article:20260816:tide-eye:none-99")).kind.value == "not_found"


async def test_filters_by_pick_rating_and_board_in_the_browser_and_the_gallery(harness) -> None:
    h = harness
    svc = h.service
    await _three(svc)
    await svc.pick(A, pick="favourite", rating=5, result=2)
    await svc.pick(A, pick="reject", result=1)
    await svc.pick(B, pick="reject")
    await svc.pick(C, rating=3)
    await svc.board_add("Hero", A, result=1)
    await svc.board_add("Hero", C)
    hero = (await svc.boards()).payload.boards[0].id
    assert await _browser_ids(h) == {A, B, C}
    assert await _browser_ids(h, pick="favourite") == {A}
    assert await _browser_ids(h, pick="reject") == {A, B}
    assert await _browser_ids(h, pick="unrejected") == {A, C}  # A's second result is not
    assert await _browser_ids(h, min_rating=3) == {A, C}
    assert await _browser_ids(h, min_rating=4) == {A}
    assert await _browser_ids(h, board=hero) == {A, C}
    # the same result for every rule: A's result on Hero is rejected, its favourite is not on it
    assert await _browser_ids(h, board=hero, pick="favourite") == set()
    assert await _browser_ids(h, board=hero, pick="unrejected") == {C}
    assert await _browser_ids(h, board=hero, min_rating=3) == {C}
    # the gallery keeps the matching results only
    assert await _gallery(h) == {(A, 0), (A, 1), (B, 0), (C, 0)}
    assert await _gallery(h, pick="favourite") == {(A, 1)}
    assert await _gallery(h, pick="unrejected") == {(A, 1), (C, 0)}
    assert await _gallery(h, pick="reject") == {(A, 0), (B, 0)}
    assert await _gallery(h, min_rating=3) == {(A, 1), (C, 0)}
    assert await _gallery(h, board=hero) == {(A, 0), (C, 0)}
    assert await _gallery(h, board=hero, pick="unrejected") == {(C, 0)}
    assert await _gallery(h, pick="unrejected", min_rating=4) == {(A, 1)}
    # every tile carries its marks
    rows = {(r.request_id, r.position): r for r in await svc.reader.results(SlotFilter())}
    assert (rows[(A, 1)].pick, rows[(A, 1)].rating) == ("favourite", 5)
    assert (rows[(B, 0)].pick, rows[(C, 0)].rating) == ("reject", 3)
    # counts and neighbours follow the filter too
    assert await svc.reader.count(SlotFilter(pick="favourite")) == 1


async def test_a_running_slot_without_results_shows_unless_a_pick_is_asked(harness) -> None:
    h = harness
    svc = h.service
    await _three(svc)
    with h.store.engine.begin() as conn:  # a fourth slot still at the provider, no media
        conn.execute(
            tasks.insert().from_select(
                [c.name for c in tasks.c if c.name != "id"],
                sa.select(
                    *[
                        (
                            sa.literal("article:20260816:tide-eye:scene-09")
                            if c.name == "request_id"
                            else sa.literal("f" * 64)
                            if c.name in ("slot_key", "fingerprint")
                            else sa.literal("k" * 64)
                            if c.name == "idempotency_key"
                            else sa.literal("processing")
                            if c.name == "state"
                            else c
                        )
                        for c in tasks.c
                        if c.name != "id"
                    ]
                ).where(tasks.c.request_id == B),
            )
        )
    running = "article:20260816:tide-eye:scene-09"
    assert running in await _browser_ids(h, pick="unrejected")
    assert running not in await _browser_ids(h, pick="favourite")
    assert running not in await _browser_ids(h, min_rating=1)


@pytest.mark.empty_store
def test_migration_0008_creates_verified_indexes_and_downgrades(store_url: str) -> None:
    from app.store.engine import make_engine
    from app.store.migrations.indexes import unique_indexes

    engine = make_engine(store_url)
    try:
        upgrade(engine, "0007_tidy")
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO tasks (tenant, user_hash, slot_key, idempotency_key, provider, "
                    "endpoint, request_id, kind, fingerprint, params, state, units, created_at, "
                    "updated_at, poll_failures, slot_copy) VALUES ('t', 'u', 's', 'k', 'demo', "
                    "'local', 'article:1:p:scene-01', 'image', 'f', '{}', 'success', 1, 1, 1, 0, 0)"
                )
            )
        upgrade(engine)
        with engine.connect() as conn:
            assert unique_indexes(conn, "picks")["uq_picks_result"] == (
                "tenant",
                "user_hash",
                "task_id",
                "position",
            )
            assert unique_indexes(conn, "boards")["uq_boards_name"] == (
                "tenant",
                "user_hash",
                "name",
            )
            assert unique_indexes(conn, "board_items")["uq_board_items_result"] == (
                "board_id",
                "task_id",
                "position",
            )
            task_id = conn.execute(sa.text("SELECT id FROM tasks")).scalar()
        now = time.time()
        row = dict(tenant="t", user_hash="u", task_id=task_id, position=0, pick="reject")
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO picks (tenant, user_hash, task_id, position, pick, updated_at) "
                    "VALUES (:tenant, :user_hash, :task_id, :position, :pick, :at)"
                ),
                {**row, "at": now},
            )
        with pytest.raises(sa.exc.IntegrityError):  # one pick per result and user
            with engine.begin() as conn:
                conn.execute(
                    sa.text(
                        "INSERT INTO picks (tenant, user_hash, task_id, position, pick, "
                        "updated_at) VALUES (:tenant, :user_hash, :task_id, :position, :pick, :at)"
                    ),
                    {**row, "at": now},
                )
        downgrade(engine, "0007_tidy")
        with engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            assert not names & {"picks", "boards", "board_items"}
            assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == 1
        upgrade(engine)
    finally:
        engine.dispose()


def test_pick_and_board_on_the_command_line(slate) -> None:
    made = slate("submit", "--request-id", A, "--kind", "image", "--prompt", "p", "--n", "2")
    assert made.code == 0, made.out
    fav = slate("pick", A, "--favourite", "--rating", "4", "--result", "2")
    assert fav.code == 0 and fav.out["outcome"] == "ok", fav.out
    assert fav.out["request_id"] == A and fav.out["error"] is None
    assert fav.out["picks"] == [
        {"result": 1, "pick": None, "rating": 0, "boards": []},
        {"result": 2, "pick": "favourite", "rating": 4, "boards": []},
    ]
    rej = slate("pick", A, "--reject")
    assert rej.out["picks"][0]["pick"] == "reject"
    clear = slate("pick", A, "--clear", "--result", "2")
    assert clear.out["picks"][1] == {"result": 2, "pick": None, "rating": 4, "boards": []}
    shown = slate("pick", A)
    assert shown.code == 0 and shown.out["picks"][0]["pick"] == "reject"
    added = slate("board", "add", "Hero shots", A, "--result", "2")
    assert added.code == 0 and added.out["board"] == "Hero shots" and added.out["changed"] == 1
    assert slate("pick", A).out["picks"][1]["boards"] == ["Hero shots"]
    listed = slate("board", "list")
    assert listed.code == 0 and listed.out["boards"] == [{"name": "Hero shots", "count": 1}]
    one = slate("board", "list", "Hero shots")
    assert one.out["entries"][0]["request_id"] == A and one.out["entries"][0]["result"] == 2
    removed = slate("board", "remove", "Hero shots", A, "--result", "2")
    assert removed.code == 0 and removed.out["changed"] == 1
    # bad input: exit 2, the field named, nothing stored
    for args, field in (
        (("pick", A, "--rating", "7"), "rating"),
        (("pick", A, "--rating", "nan"), "rating"),
        (("pick", A, "--favourite", "--result", "3"), "result"),
        (("pick", "no", "--favourite"), "request_id"),
        (("board", "add", "", A), "board"),
    ):
        bad = slate(*args)
        assert bad.code == 2, (args, bad.out)
        assert bad.out["outcome"] == "invalid" and bad.out["error"]["field"] == field, bad.out
    both = slate("pick", A, "--favourite", "--reject")
    assert both.code == 2 and both.out["outcome"] == "invalid"
    assert slate("board", "list", "No such").code == 8
    again = slate("submit", "--request-id", A, "--kind", "image", "--prompt", "p", "--n", "2")
    assert again.code == 0 and again.out["outcome"] == "replayed"


@pytest.mark.parametrize(
    "flt",
    [
        {},
        {"pick": "favourite"},
        {"pick": "unrejected"},
        {"min_rating": 3},
        {"board": 1},
        {"board": 1, "pick": "favourite", "min_rating": 2},
    ],
    ids=["unfiltered", "favourite", "unrejected", "rating", "board", "board-pick-rating"],
)
def test_the_gallery_page_runs_two_selects_on_indexes_filtered_or_not(tmp_path, flt) -> None:
    """The unfiltered page runs the statements it ran before picks (the slots, their media with
    the picks joined in), and a filtered page runs no more, each on an index: never a scan of
    the picks or the boards' tables."""
    import asyncio
    import re

    from tests.integration.test_statement_guard import make, request

    svc, trace, store = make(tmp_path)
    try:
        for i in range(12):
            store.claim_blocking(request(svc, i))
        scope = svc.ctx.scope
        with store.engine.begin() as conn:  # one media row per slot, a pick and a board item
            ids = [r[0] for r in conn.execute(sa.select(tasks.c.id))]
            for n, task_id in enumerate(ids):
                conn.execute(
                    sa.text(
                        "INSERT INTO media (task_id, position, path, sha256, bytes, "
                        "content_type, verified_at) VALUES (:t, 0, 'x.png', 'h', 1, 'image/png', 1)"
                    ),
                    {"t": task_id},
                )
            conn.execute(
                sa.text(
                    "INSERT INTO boards (tenant, user_hash, name, created_at) "
                    "VALUES (:tenant, :user, 'b', 1)"
                ),
                {"tenant": scope.tenant, "user": scope.user_hash},
            )
            for task_id in ids[::3]:
                conn.execute(
                    sa.text(
                        "INSERT INTO picks (tenant, user_hash, task_id, position, pick, rating, "
                        "updated_at) VALUES (:tenant, :user, :t, 0, 'favourite', 3, 1)"
                    ),
                    {"tenant": scope.tenant, "user": scope.user_hash, "t": task_id},
                )
                conn.execute(
                    sa.text(
                        "INSERT INTO board_items (board_id, task_id, position, added_at) "
                        "VALUES (1, :t, 0, 1)"
                    ),
                    {"t": task_id},
                )
        got: list[Any] = []
        sqls = trace.count(lambda: got.append(asyncio.run(store.results(scope, SlotFilter(**flt)))))
        assert got[0], "the page found results"
        reads = [s for s in sqls if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) == 2, "\n".join(sqls)
        with store.engine.connect() as conn:
            for sql in reads:
                plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}").fetchall()
                detail = " | ".join(str(r[-1]) for r in plan)
                assert "SCAN tasks" not in detail, f"{sql}\nplan: {detail}"
                assert not re.search(r"SCAN (picks|board_items|boards|media)\b", detail), detail
    finally:
        store.close()


async def test_racing_marks_and_a_board_made_twice_at_once_are_no_error(harness) -> None:
    """Two windows (or a window and a script) marking at once: the same new board made by
    racing writers is one board; racing picks on one result leave one row."""
    import asyncio

    h = harness
    svc = h.service
    twin = h.other()  # the same designer, another service on the same store
    await _three(svc)
    got = await asyncio.gather(
        svc.board_add("Race", A, 1),
        twin.board_add("Race", A, 2),
        svc.board_add("Race", B),
        twin.board_add("Race", C),
        svc.pick(A, pick="favourite"),
        twin.pick(A, rating=3),
    )
    assert [g.kind.value for g in got] == ["ok"] * 6, [g.problem for g in got]
    boards = (await svc.boards()).payload.boards
    assert [(b.name, b.count) for b in boards] == [("Race", 4)]
    with h.store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM picks")).scalar() == 1
