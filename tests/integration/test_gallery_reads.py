"""The results gallery's read (``SlotReader.results``) on every backend: bound to the caller's
scope, to the browser's filter, a project and a local day; keyset pages of whole slots, newest
first; media paths made absolute under the data folder."""

from __future__ import annotations

import time
from pathlib import Path

from app.domain.days import local_day
from app.domain.states import State
from app.service.reads import SlotFilter
from tests.gui.bulk import insert_slot
from tests.gui.gallery_data import add_image_results, add_media, png


async def test_results_are_paged_by_slot_and_bound_to_scope_filter_project_and_day(
    harness, tmp_path
):
    service = harness.service
    day_ago = time.time() - 86400
    old = add_image_results(service, tmp_path, 2, project="harbor", per_slot=3, created_at=day_ago)
    new = add_image_results(service, tmp_path, 3, project="harbor", start=10)
    fog = add_image_results(service, tmp_path, 1, project="fog", start=20)
    # a result stored with a path relative to the data folder, as downloads are
    rel = "media/rel/one.png"
    png(Path(service.config.data_dir) / rel, 99)
    task = insert_slot(service, "article:20260816:fog:rel", "success", kind="image")
    add_media(service, task, Path(service.config.data_dir) / rel)
    # (the row keeps the relative path)
    with service.store.engine.begin() as conn:
        from app.store.models import media_t

        conn.execute(media_t.update().where(media_t.c.task_id == task).values(path=rel))
    # another designer's results are never shown
    other = harness.other(user="somebody-else")
    add_image_results(other, tmp_path / "other", 2, project="harbor", start=30)

    reader = service.reader
    everything = await reader.results(SlotFilter())
    assert [r.request_id for r in everything][:1] == ["article:20260816:fog:rel"]
    assert {r.request_id for r in everything} == {*old, *new, *fog, "article:20260816:fog:rel"}
    assert len(everything) == 2 * 3 + 3 + 1 + 1
    rel_row = everything[0]
    assert rel_row.path == str(Path(service.config.data_dir) / rel) and Path(rel_row.path).exists()
    # keyset pages of whole slots: a slot's three results never split across pages
    pages, before = [], None
    while True:
        page = await reader.results(SlotFilter(), "harbor", before_id=before, limit=2)
        if not page:
            break
        pages.append([r.request_id for r in page])
        before = min(r.task_id for r in page)
    assert pages == [[new[2], new[1]], [new[0], old[1], old[1], old[1]], [old[0]] * 3]
    # a project and one local day
    today = await reader.results(SlotFilter(), "harbor", local_day(time.time()))
    assert {r.request_id for r in today} == set(new)
    yesterday = await reader.results(SlotFilter(), "harbor", local_day(day_ago))
    assert [r.position for r in yesterday] == [0, 1, 2, 0, 1, 2]
    # the browser's filters, in SQL
    insert_slot(service, "article:20260816:harbor:lost", "unknown", kind="image")
    lost = await reader.results(SlotFilter(states=(State.UNKNOWN,)))
    assert [(r.request_id, r.path, r.state) for r in lost] == [
        ("article:20260816:harbor:lost", None, State.UNKNOWN)
    ]
    assert await reader.results(SlotFilter(kind="video")) == []
    found = await reader.results(SlotFilter(search="still-0011"))
    assert [r.request_id for r in found] == [new[1]]
