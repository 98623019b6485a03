"""Tenants and users through the real `slate` command, on both backends.

Issue 15: ``北京-studio`` and ``上海-studio`` both normalized to ``studio``, so one tenant saw the
other's slot and prompt; ``mei``, ``mei `` and NFC/NFD ``José`` were four users for one
RequestId. Now: two tenants, and one user each.
"""

from __future__ import annotations

import unicodedata

RID = "article:20260816:tide-eye:scene-02"


def test_tenants_of_other_scripts_never_see_each_others_slots(slate, store_url, demo_sim):
    env = {"SLATE_STORE": store_url}
    made = slate(
        "--tenant",
        "北京-studio",
        "submit",
        "--request-id",
        RID,
        "--kind",
        "image",
        "--prompt",
        "北京 secret prompt",
        env=env,
    )
    assert made.code == 0 and made.out["outcome"] == "created", made.out
    other = {**env, "SLATE_TENANT": "上海-studio"}
    status = slate("status", RID, env=other)
    assert status.code == 8 and status.out["outcome"] == "not_found", status.out
    assert "secret" not in status.stdout
    listed = slate("list", env=other)
    assert listed.code == 0 and listed.out["slots"] == []
    assert slate("history", RID, env=other).code == 8
    # the same RequestId is a slot of its own there: created, not replayed or a conflict
    theirs = slate(
        "submit", "--request-id", RID, "--kind", "image", "--prompt", "上海 prompt", env=other
    )
    assert theirs.code == 0 and theirs.out["outcome"] == "created", theirs.out
    assert demo_sim.stats()["creates_total"] == 2
    # and the first tenant still finds its own, by any spelling of its name
    mine = slate("--tenant", "北京 STUDIO", "status", RID, env=env)
    assert mine.code == 0 and mine.out["task"]["params"]["prompt"] == "北京 secret prompt"


def test_a_tenant_that_cannot_be_kept_is_refused_and_nothing_is_stored(slate, store_url, demo_sim):
    res = slate(
        "--tenant",
        "studio★",
        "submit",
        "--request-id",
        RID,
        "--kind",
        "image",
        "--prompt",
        "p",
        env={"SLATE_STORE": store_url},
    )
    assert res.code == 2 and res.out["error"]["field"] == "tenant", res.out
    assert "★" in res.out["error"]["message"]
    assert demo_sim.stats()["creates_total"] == 0


def test_one_user_however_the_name_is_spelled(slate, store_url, demo_sim):
    env = {"SLATE_STORE": store_url}
    nfc, nfd = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    args = ("submit", "--request-id", RID, "--kind", "video", "--prompt", "one intent")
    first = slate("--user", "mei", *args, env=env)
    assert first.out["outcome"] == "created", first.out
    for spelled in ("mei ", " mei", "\tmei"):
        again = slate("--user", spelled, *args, env=env)
        assert again.code == 0 and again.out["outcome"] == "replayed", (spelled, again.out)
    jose = slate(*args, env={**env, "SLATE_USER": nfc})
    assert jose.out["outcome"] == "created", jose.out
    same = slate(*args, env={**env, "SLATE_USER": nfd + " "})
    assert same.out["outcome"] == "replayed", same.out
    assert same.out["task"]["handle"] == jose.out["task"]["handle"]
    assert demo_sim.stats()["creates_total"] == 2  # mei once, José once
    empty = slate("--user", "   ", "status", RID, env=env)
    assert empty.code == 2 and empty.out["error"]["field"] == "user"
