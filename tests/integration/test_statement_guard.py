"""What the claim, the replay, the browser's first page and its filter cost, counted instead of
timed (issue 22's guard): every SQL statement SQLite runs for them, and the query plans of the
reads. A change that adds a statement to the claim or makes a read scan the table fails here
and has to say why (change the number with the reason beside it).

Counted through SQLite's own trace callback on every pooled connection, so the lean claim
(``store/sqlite_claim.py``, straight on the DBAPI cursor) is counted as well as SQLAlchemy's
statements. The store is a real SQLite file; the provider is never reached (a replay and a claim
send nothing).
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app.service.slate import SlateService
from app.store.rows import ClaimOutcome, SlotFilter
from tests.bench.submit_cost import make_service, prepare_claim

#: The budgets. Each line says what the statements are; raise one only with a reason here.
CLAIM = {
    # the read-first SELECT of the slot; BEGIN IMMEDIATE, INSERT task (the slot index is the
    # test: no re-read under the lock), quota upsert, the two events in one INSERT, COMMIT
    # (the lean claim: store/sqlite_claim.py)
    "fresh": 6,
    # the read-first SELECT only: a replay takes no write lock and writes nothing
    "replay": 1,
}
#: the browser's first page: the projects; the first project's day span (min/max) and its days;
#: the first day's slots — four SELECTs, each read in its own (deferred, read-only) transaction
FIRST_PAGE_SELECTS = 4
FIRST_PAGE_READS = 3


#: FTS5's own statements that SQLite traces plainly: its config cookie and config table,
#: named the way only FTS5 names them (Slate's SQL never quotes the schema)
FTS5_OWN = re.compile(r"PRAGMA 'main'\.data_version$|SELECT k, v FROM 'main'\.'tasks_text_config'$")


class Trace:
    """Every statement SQLite runs on any connection of the engine, while ``on``."""

    def __init__(self, engine: Any) -> None:
        self.on = False
        self.sql: list[str] = []
        #: what ran inside those statements: a trigger's steps, FTS5's own shadow-table SQL
        self.nested: list[str] = []
        event.listen(engine, "connect", self._hook)
        engine.dispose()  # connections made from now on carry the hook

    def _hook(self, dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.set_trace_callback(self._seen)

    def _seen(self, sql: str) -> None:
        if not self.on:
            return
        # Not statements Slate sends: SQLite traces a virtual table's own SQL (the text
        # index's FTS5 shadow tables) as "-- …", each step of a trigger (tasks_text's) with
        # the text of the statement that fired it, again, and FTS5's re-read of its config
        # once another connection wrote (the lean claim writes on its own) plainly.
        if sql.startswith("--") or (self.sql and sql == self.sql[-1]) or FTS5_OWN.match(sql):
            self.nested.append(sql)
        else:
            self.sql.append(sql)

    def count(self, fn: Any) -> list[str]:
        self.sql = []
        self.nested = []
        self.on = True
        try:
            fn()
        finally:
            self.on = False
        return list(self.sql)


def make(tmp_path: Path) -> tuple[SlateService, Trace, Any]:
    """The service as the claim benchmark builds it (a provider that must never be reached),
    with every SQLite statement traced."""
    svc = make_service(tmp_path, f"sqlite:///{tmp_path / 'slate.db'}")
    return svc, Trace(svc.store.engine), svc.store


request = prepare_claim  # what SlateService.submit computes before Store.claim


def _plan(conn: Any, sql: str) -> str:
    """SQLite's query plan of ``sql``, its steps joined by `` | ``."""
    return " | ".join(str(r[-1]) for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))


def _shown(sqls: list[str]) -> str:
    return "\n".join(f"  {s}" for s in sqls)


async def _first_page(store: Any, svc: SlateService, search: str) -> int:
    """What the browser reads first: the projects, the first one's days, the first day's slots
    (the number of slots shown)."""
    scope, flt = svc.ctx.scope, SlotFilter(search=search)
    groups = await store.projects(scope, flt)
    days = await store.days(scope, flt, groups[0].key)
    return len(await store.slots(scope, flt, groups[0].key, days[0].key))


def test_a_claim_and_a_replay_run_the_counted_statements(tmp_path: Path) -> None:
    svc, trace, store = make(tmp_path)
    try:
        store.claim_blocking(request(svc, 0))  # warm: migrations, compiled statements, pool
        req = request(svc, 1)
        claimed: list[Any] = []
        fresh = trace.count(lambda: claimed.append(store.claim_blocking(req)))
        assert claimed[0].outcome is ClaimOutcome.CLAIMED
        assert len(fresh) == CLAIM["fresh"], f"a fresh claim ran {len(fresh)}:\n{_shown(fresh)}"
        assert fresh[0].upper().startswith("SELECT"), "the claim reads before it locks"
        assert any(s.upper().startswith("BEGIN IMMEDIATE") for s in fresh)
        replay = trace.count(lambda: claimed.append(store.claim_blocking(req)))
        assert claimed[1].outcome is not ClaimOutcome.CLAIMED
        assert len(replay) == CLAIM["replay"], f"a replay ran {len(replay)}:\n{_shown(replay)}"
        assert not any(
            re.match(r"\s*(INSERT|UPDATE|DELETE|BEGIN)", s, re.IGNORECASE) for s in replay
        )
    finally:
        store.close()


@pytest.mark.parametrize(
    "search, hits",
    [("", 30), ("take 7", 1), ("TAKE 1", 11), ("7", 3)],
    ids=["first-page", "filter", "filter-case", "filter-1-char"],
)
def test_the_first_page_and_the_filter_run_the_counted_reads_on_an_index(
    tmp_path: Path, search: str, hits: int
) -> None:
    svc, trace, store = make(tmp_path)
    try:
        for i in range(30):
            store.claim_blocking(request(svc, i))
        got: list[int] = []
        sqls = trace.count(lambda: got.append(asyncio.run(_first_page(store, svc, search))))
        assert got[0] == hits
        reads = [s for s in sqls if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) == FIRST_PAGE_SELECTS, f"the first page ran:\n{_shown(sqls)}"
        begins = [s for s in sqls if s.strip().upper().startswith("BEGIN")]
        assert len(begins) == FIRST_PAGE_READS, f"the first page ran:\n{_shown(sqls)}"
        assert len(sqls) == FIRST_PAGE_SELECTS + 2 * FIRST_PAGE_READS, _shown(sqls)
        with store.engine.connect() as conn:
            for sql in reads:
                detail = _plan(conn, sql)
                assert not re.search(r"SCAN tasks\b(?!_text)", detail), f"{sql}\nplan: {detail}"
                if len(search) >= 3:
                    # the trigram index answers (M: a MATCH lookup; "INDEX 0:" alone would be
                    # a scan of the whole index) and the tasks come by id from its rowids
                    assert "SCAN tasks_text VIRTUAL TABLE INDEX 0:M" in detail, detail
                    assert "SEARCH tasks USING INTEGER PRIMARY KEY (rowid=?)" in detail, detail
                    continue
                # an index led by the owner's columns, never a scan of every user's tasks
                assert re.search(
                    r"SEARCH tasks USING (COVERING )?INDEX ix_tasks_\w+ \(tenant=\? AND user_hash=\? AND provider=\? AND endpoint=\?",
                    detail,
                ), f"{sql}\nplan: {detail}"
                if search:
                    # 1–2 characters: no trigram to look up; the LIKE runs on the owner's rows
                    assert "tasks_text" not in detail, detail
    finally:
        store.close()


@pytest.mark.parametrize("search", ["take 7", "TAKE 1", 'a "b" 10%_\\x', "ke 2"])
def test_the_text_filters_first_page_is_the_built_statement_written_out(
    tmp_path: Path, search: str
) -> None:
    """The browser's text filter alone runs ``queries.TEXT_PROJECTS_SQL``: the very SQL and
    parameters SQLAlchemy compiles ``projects_statement`` to, and the same groups."""
    from app.store import queries

    svc, trace, store = make(tmp_path)
    try:
        for i in range(30):
            store.claim_blocking(request(svc, i))
        scope, flt = svc.ctx.scope, SlotFilter(search=search)
        built = queries.projects_statement(store.engine, scope, flt, limit=7)
        compiled = built.compile(dialect=store.engine.dialect)
        assert str(compiled) == queries.TEXT_PROJECTS_SQL
        assert compiled.positiontup is not None
        assert queries.text_projects_params(scope, flt, 7) == tuple(
            compiled.params[k] for k in compiled.positiontup
        )
        got: list[Any] = []
        sqls = trace.count(lambda: got.extend(queries.projects(store.engine, scope, flt, limit=7)))
        assert [s for s in sqls if s.lstrip().upper().startswith("SELECT")] == [
            s for s in sqls if "tasks_text MATCH" in s
        ], _shown(sqls)
        assert len([s for s in sqls if "tasks_text MATCH" in s]) == 1, _shown(sqls)
        with store.engine.connect() as conn:
            assert got == [queries.Group(*r) for r in conn.execute(built)]
        if search in ("take 7", "TAKE 1"):
            assert got, "the search finds slots"
        # any other filter beside the text, or a later page: the built statement
        assert not queries._text_only(store.engine, SlotFilter(search=search, kind="image"))
        assert not queries._text_only(store.engine, SlotFilter(search=search[:2]))
    finally:
        store.close()


@pytest.mark.parametrize("search, hits", [("take 7", 1), ("TAKE 1", 11), ("7", 3), ("ke 2", 11)])
def test_slate_list_search_and_prompt_recall_read_on_the_text_index(
    tmp_path: Path, search: str, hits: int
) -> None:
    """``slate list --search`` and prompt recall (``prompts``) read through the same trigram
    index as the browser's filter: one SELECT each, no scan of the tasks; what they find is
    what the LIKE alone finds (checked against the same query with the index dropped)."""
    from app.store import queries, text_search

    svc, trace, store = make(tmp_path)
    try:
        for i in range(30):
            store.claim_blocking(request(svc, i))
        scope = svc.ctx.scope
        listed: list[Any] = []
        recalled: list[Any] = []
        sqls = trace.count(
            lambda: (
                listed.append(queries.list_slots(store.engine, scope, search=search)),
                recalled.append(queries.prompts(store.engine, scope, search)),
            )
        )
        reads = [s for s in sqls if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) == 2, _shown(sqls)
        with store.engine.connect() as conn:
            for sql in reads:
                detail = _plan(conn, sql)
                assert not re.search(r"SCAN tasks\b(?!_text)", detail), f"{sql}\nplan: {detail}"
                if len(search) >= 3:
                    assert "SCAN tasks_text VIRTUAL TABLE INDEX 0:M" in detail, detail
        # the same answers as the LIKE alone over every row (the index only narrows)
        text_search._has_index[store.engine] = False
        try:
            assert [r.request_id for r in listed[0]] == [
                r.request_id for r in queries.list_slots(store.engine, scope, search=search)
            ]
            assert recalled[0] == queries.prompts(store.engine, scope, search)
        finally:
            text_search.forget(store.engine)
        assert len(listed[0]) == hits
    finally:
        store.close()


#: PostgreSQL's claim (the general one, store/repository.py): counted as SQLAlchemy executes it.
PG_CLAIM = {
    # the read-first SELECT; in the transaction: the re-read, INSERT task, quota upsert, the two
    # events as one executemany (BEGIN/COMMIT are the driver's, not cursor statements)
    "fresh": 5,
    "replay": 1,
}


@pytest.mark.pg
def test_a_claim_and_a_replay_on_postgresql_run_the_counted_statements(tmp_path: Path) -> None:
    from tests.support.pg import fresh_database

    with fresh_database() as url:
        svc = make_service(tmp_path, url)
        store = svc.store
        seen: list[str] = []
        on = [False]

        @event.listens_for(store.engine, "before_cursor_execute")
        def _count(_c: Any, _cur: Any, statement: str, *_a: Any) -> None:
            if on[0]:
                seen.append(statement)

        try:
            store.claim_blocking(request(svc, 0))
            req = request(svc, 1)

            def counted(fn: Any) -> list[str]:
                seen.clear()
                on[0] = True
                try:
                    fn()
                finally:
                    on[0] = False
                return list(seen)

            got: list[Any] = []
            fresh = counted(lambda: got.append(store.claim_blocking(req)))
            assert got[0].outcome is ClaimOutcome.CLAIMED
            assert len(fresh) == PG_CLAIM["fresh"], _shown(fresh)
            replay = counted(lambda: got.append(store.claim_blocking(req)))
            assert got[1].outcome is not ClaimOutcome.CLAIMED
            assert len(replay) == PG_CLAIM["replay"], _shown(replay)
        finally:
            store.close()


def test_the_text_index_is_kept_in_step_by_every_write(tmp_path: Path) -> None:
    """tasks_text follows tasks through the claim's insert, a change of the prompt or the
    RequestId, a write that touches neither, and a delete (the triggers; no write path is
    trusted to remember it)."""
    import sqlalchemy as sa

    from app.store.models import tasks

    svc, _trace, store = make(tmp_path)

    def found(text: str) -> list[int]:
        with store.engine.connect() as conn:
            return list(
                conn.execute(
                    sa.text(
                        "SELECT rowid FROM tasks_text WHERE tasks_text MATCH :q ORDER BY rowid"
                    ),
                    {"q": f'"{text}"'},
                ).scalars()
            )

    def intact() -> None:
        with store.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO tasks_text(tasks_text) VALUES ('integrity-check')")

    try:
        one = store.claim_blocking(request(svc, 1)).task
        two = store.claim_blocking(request(svc, 2)).task
        assert one is not None and two is not None
        assert found("take 1") == [one.id] and found("scene-000002") == [two.id]
        with store.engine.begin() as conn:
            conn.execute(
                sa.update(tasks).where(tasks.c.id == one.id).values(prompt_text="猫在草地")
            )
            conn.execute(sa.update(tasks).where(tasks.c.id == two.id).values(state="processing"))
        assert found("take 1") == [] and found("猫在草") == [one.id]
        assert found("take 2") == [two.id]
        with store.engine.begin() as conn:
            conn.execute(
                sa.update(tasks).where(tasks.c.id == two.id).values(request_id="x:y:zebra")
            )
        assert found("scene-000002") == [] and found("zebra") == [two.id]
        intact()
        with store.engine.begin() as conn:
            conn.execute(sa.delete(tasks).where(tasks.c.id == one.id))
        assert found("猫在草") == [] and found("zebra") == [two.id]
        intact()
    finally:
        store.close()


#: Other designers' slots put beside the 30 claimed ones before PostgreSQL's plans are read: a
#: team's store, the planner weighing it with its statistics ANALYZEd.
PG_FILLER = 100_000


def _fill(conn: Any) -> None:
    """PG_FILLER more slots of 100 other designers, copied from the first one in one statement
    (new owners, RequestIds, slot keys and idempotency keys; prompts matching none of the
    searches)."""
    cols = [
        r[0]
        for r in conn.exec_driver_sql(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'tasks' "
            "AND column_name <> 'id' ORDER BY ordinal_position"
        )
    ]
    made = {
        "request_id": "request_id || ':filler-' || g",
        "user_hash": "md5('designer-' || mod(g, 100))",
        "slot_key": "md5(slot_key || g)",
        "idempotency_key": "md5(idempotency_key || g)",
        "prompt_text": "'harbour at dusk, plate ' || (g * 3 + 100000)",
    }
    picked = ", ".join(made.get(c, c) for c in cols)
    conn.exec_driver_sql(
        f"INSERT INTO tasks ({', '.join(cols)}) SELECT {picked} FROM "
        f"(SELECT * FROM tasks ORDER BY id LIMIT 1) t, generate_series(1, {PG_FILLER}) g"
    )
    conn.exec_driver_sql("ANALYZE tasks")


def _team_store(url: str) -> None:
    """The designer's 30 claimed slots among PG_FILLER of the team's, ANALYZEd."""
    with tempfile.TemporaryDirectory() as data_dir:
        svc = make_service(Path(data_dir), url)
        try:
            for i in range(30):
                svc.store.claim_blocking(request(svc, i))
            with svc.store.engine.begin() as conn:
                _fill(conn)
        finally:
            svc.store.close()
            svc.store.engine.dispose()  # no session may stay on a template while it is copied


@pytest.mark.pg
@pytest.mark.xdist_group("pg-team-store")  # one worker fills the team's store, then copies it
@pytest.mark.parametrize(
    "search, hits", [("", 30), ("take 7", 1), ("TAKE 1", 11)], ids=["first-page", "filter", "case"]
)
def test_the_first_page_and_the_filter_on_postgresql_read_on_an_index(
    tmp_path: Path, search: str, hits: int
) -> None:
    """The browser's first page and its text filter on PostgreSQL, on a team's store of 100,000
    slots: each SELECT's plan reads ``tasks`` through an index led by the owner's columns, never
    a scan of every designer's tasks. The store is filled once per process (17 s of
    PostgreSQL's time on 2 cores) and each test reads a copy of its own."""
    from tests.support.pg import database_from

    with database_from("team-store-100k", _team_store) as url:
        svc = make_service(tmp_path, url)
        store = svc.store
        seen: list[tuple[str, Any]] = []
        on = [False]

        @event.listens_for(store.engine, "before_cursor_execute")
        def _count(_c: Any, _cur: Any, statement: str, parameters: Any, *_a: Any) -> None:
            if on[0]:
                seen.append((statement, parameters))

        try:
            on[0] = True
            try:
                got = asyncio.run(_first_page(store, svc, search))
            finally:
                on[0] = False
            assert got == hits
            reads = [(s, p) for s, p in seen if s.lstrip().upper().startswith("SELECT")]
            assert len(reads) == FIRST_PAGE_SELECTS, _shown([s for s, _p in seen])
            with store.engine.connect() as conn:
                for sql, params in reads:
                    plan = conn.exec_driver_sql(f"EXPLAIN {sql}", params).fetchall()
                    detail = " | ".join(str(r[0]).strip() for r in plan)
                    assert "Seq Scan on tasks" not in detail, f"{sql}\nplan: {detail}"
                    assert re.search(r"Index (Only )?Scan (Backward )?using ix_tasks_", detail) or (
                        re.search(r"Bitmap Index Scan on (ix|uq)_tasks_", detail)
                    ), f"{sql}\nplan: {detail}"
        finally:
            store.close()


def test_the_reads_a_window_makes_as_it_opens_run_on_an_index(tmp_path: Path) -> None:
    """What the window, its status bar and the poller read in their first second: each state's
    newest slots of the owner, and the unfinished slots of the tenant (due, the next due time,
    failing queries). On 100,000 slots each of these was a scan of 40–220 ms, a dozen side by
    side, before migration 0012 gave them indexes; none may scan the table again."""
    from app.domain.states import POLLABLE, State

    svc, trace, store = make(tmp_path)
    try:
        for i in range(200):
            store.claim_blocking(request(svc, i))
        # as a designer's store is: most slots finished, a few unknown (and, as Slate's stores
        # are, never ANALYZEd: the planner picks by the indexes it has)
        with store.engine.begin() as conn:
            conn.exec_driver_sql(
                "UPDATE tasks SET state = CASE WHEN id % 20 = 0 THEN 'unknown' ELSE 'success' END"
            )
        scope = svc.ctx.scope

        async def opening() -> None:
            for state in ("processing", "unknown", "success"):
                await store.list_slots(scope, state=state, limit=50)
            await store.tasks_in_states(scope, sorted(POLLABLE))
            await store.due_tasks(scope, sorted(POLLABLE), 1e12, 50)
            await store.next_due_at(scope, sorted(POLLABLE))
            await store.failing_queries(scope)
            await store.tasks_in_states(scope, [State.UNKNOWN])

        sqls = trace.count(lambda: asyncio.run(opening()))
        reads = [s for s in sqls if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) == 8, _shown(sqls)
        with store.engine.connect() as conn:
            for sql in reads:
                detail = _plan(conn, sql)
                assert not re.search(r"SCAN tasks\b", detail), f"{sql}\nplan: {detail}"
                # looked up by the state too, not only the owner (a walk of all their slots)
                assert re.search(
                    r"SEARCH tasks USING (COVERING )?INDEX ix_tasks_\w+ \(tenant=\? AND"
                    r"( user_hash=\? AND)? provider=\? AND endpoint=\? AND state=\?",
                    detail,
                ), f"{sql}\nplan: {detail}"
    finally:
        store.close()


#: sqlite_stat1 of the bench's 100k-slot store for the tasks table (tests/bench/bigstore.py runs
#: ANALYZE; four states there: a quarter of the tasks each)
BENCH_STATISTICS = {
    "ix_tasks_browse": "100000 100000 100000 100000 100000 1000 1 1",
    "ix_tasks_active": "100000 100000 100000 100000 25000",
    "ix_tasks_owner_state": "100000 100000 100000 100000 100000 25000 1",
    "ix_tasks_cost_day": "100000 100000 100000 100000 100000 553",
    "uq_tasks_slot": "100000 100000 1 1 1 1",
    "uq_tasks_boundary": "100000 100000 1 1 1",
    "ix_tasks_poll": "100000 25000 25000",
    "ix_tasks_owner_list": "100000 100000 100000 100000 100000 1",
}


def test_the_pollers_reads_find_the_few_unfinished_tasks_on_an_index_despite_statistics(
    tmp_path: Path,
) -> None:
    """The reads the poller and the status bar repeat every few seconds — the due tasks, the
    next due time, the unfinished ones, the failing queries — look the few unfinished tasks
    up on an index, also once SQLite holds statistics (ANALYZE) that give each state the same
    share and so make ``state IN (4 states)`` look like every task: a scan of the whole history
    on every poll (50–160 ms each on the bench's 100k-slot store)."""
    import time

    import sqlalchemy as sa

    from app.domain.states import IN_FLIGHT, POLLABLE
    from app.store import queries
    from app.store.models import tasks

    svc, trace, store = make(tmp_path)
    try:
        for i in range(200):
            store.claim_blocking(request(svc, i))
        with store.engine.begin() as conn:  # a history: mostly settled, a few in flight
            for state, ids in (
                ("success", range(1, 151)),
                ("fail", range(151, 181)),
                ("rejected", range(181, 196)),
                ("processing", range(196, 201)),
            ):
                conn.execute(sa.update(tasks).where(tasks.c.id.in_(ids)).values(state=state))
            conn.exec_driver_sql("ANALYZE")
            # ... and the statistics ANALYZE wrote for the bench's 100k-slot store (its four
            # states: a quarter each), as SQLite lets them be set
            conn.exec_driver_sql("DELETE FROM sqlite_stat1 WHERE tbl = 'tasks'")
            for index, stat in BENCH_STATISTICS.items():
                conn.execute(
                    sa.text("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('tasks', :i, :s)"),
                    {"s": stat, "i": index},
                )
        store.engine.dispose()  # connections read the statistics afresh
        repo, scope = store.repo, svc.ctx.scope
        got: list[Any] = []
        sqls = trace.count(
            lambda: got.extend(
                [
                    repo.due_tasks(scope, list(POLLABLE), time.time() + 60, 32),
                    repo.next_due_at(scope, list(POLLABLE)),
                    repo.tasks_in_states(scope, list(IN_FLIGHT)),
                    queries.failing_queries(store.engine, scope),
                ]
            )
        )
        assert [len(got[0]), len(got[2]), got[3]] == [5, 5, 0]  # the 5 processing
        reads = [s for s in sqls if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) == 4, _shown(sqls)
        with store.engine.connect() as conn:
            for sql in reads:
                detail = _plan(conn, sql)
                assert "SCAN tasks" not in detail, f"{sql}\nplan: {detail}"
                assert (
                    "USING INDEX ix_tasks_active (tenant=? AND provider=? AND endpoint=? AND state=?)"
                    in detail
                ), f"{sql}\nplan: {detail}"
    finally:
        store.close()
