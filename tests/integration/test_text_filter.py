"""The browser's, the gallery's and ``slate list --search``'s text filter on every backend: what it finds is what the
``LIKE``/``ILIKE`` scan found before the text index (issue 34) — any part of the RequestId or
the prompt, the middle of a prompt, CJK, case differences as each store had them, ``%`` / ``_``
/ ``"`` taken literally, and 1–2 character searches (which keep the scan on SQLite)."""

from __future__ import annotations

import sqlalchemy as sa

from app.service.reads import SlotFilter
from app.store.models import tasks
from tests.gui.bulk import insert_slot

PROMPTS = {
    "fox": "a red fox leaps over the frozen river at dawn",
    "cjk": "一只猫在草地上奔跑",
    "cotton": "100% cotton_candy clouds",
    "eclair": "Éclair on a café table",
    "balloon": "RED BALLOON over Harbor",
    "sign": 'a sign reads "open" late',
}

#: search → the slots found, on both stores
FOUND = {
    "frozen riv": {"fox"},  # the middle of a prompt
    "RED": {"fox", "balloon"},  # ASCII case folded, both ways
    "red": {"fox", "balloon"},
    "harbor": {"balloon"},
    "猫在草": {"cjk"},
    "草地": {"cjk"},  # 2 characters
    "猫": {"cjk"},  # 1 character
    "100%": {"cotton"},
    "0%": {"cotton"},
    "%": {"cotton"},  # literal, never a wildcard
    "_": {"cotton"},
    "n_c": {"cotton"},
    "n%c": set(),
    "fé t": {"eclair"},
    "ÉCLAIR": {"eclair"},
    '"open"': {"sign"},
    '"': {"sign"},
    "text:ba": {"balloon"},  # the RequestId
    ":text:": set(PROMPTS),
    "ed": {"fox", "balloon"},
    "xyz": set(),
}


def _rid(name: str) -> str:
    return f"article:20260816:text:{name}"


async def test_the_text_filter_finds_what_the_scan_found(harness):
    service = harness.service
    for name, prompt in PROMPTS.items():
        task = insert_slot(service, _rid(name), "success", kind="image")
        with service.store.engine.begin() as conn:
            conn.execute(sa.update(tasks).where(tasks.c.id == task).values(prompt_text=prompt))
    # another designer's slot with the same words is never found
    insert_slot(harness.other(user="somebody-else"), _rid("fox"), "success", kind="image")
    reader = service.reader
    by_rid = {_rid(n): n for n in PROMPTS}
    for search, want in FOUND.items():
        flt = SlotFilter(search=search)
        found = {by_rid[r.request_id] for r in await reader.results(flt)}
        assert found == want, search
        assert await reader.count(flt) == len(want), search
        groups = await reader.projects(flt)
        assert sum(g.count for g in groups) == len(want), search
        # `slate list --search`: the same match, the same slots
        listed = await service.list_slots(search=search, limit=100)
        assert {by_rid[t.request_id] for t in listed.payload.slots} == want, search
    sqlite = service.store.engine.dialect.name == "sqlite"
    # a case difference outside ASCII: SQLite's LIKE never folded it (the trigram index does,
    # the LIKE on its rows decides); PostgreSQL's ILIKE folds it by the database's locale
    if sqlite:
        assert await reader.results(SlotFilter(search="éclair")) == []
