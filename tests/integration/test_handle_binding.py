"""Handles are bound to the store that made them, and the row they reach is always checked
against the caller (issue 15, point 11).

Without a keyring the handle-signing secret is one file per data dir, so two stores in one data
dir shared it: a handle of store A named "task 1", and store B's task 1 — another user's — was
shown. Now a handle names its store (a handle from another store is a bad handle: exit 2), and
whatever a handle reaches must belong to the caller's tenant, user, provider and endpoint.
"""

from __future__ import annotations

from app.cli import exit_code
from app.domain import handles
from app.service.results import OutcomeKind

RID_A = "article:20260816:tide-eye:scene-02"
RID_B = "article:20260816:harbor:scene-07"
NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def test_a_handle_from_another_store_in_the_same_data_dir_is_refused(slate, data_dir, store_url):
    store_a = f"sqlite:///{(data_dir / 'team-a.sqlite3').as_posix()}"
    env_a = {**NO_KEYRING, "SLATE_STORE": store_a}
    env_b = {**NO_KEYRING, "SLATE_STORE": store_url}
    mine = slate(
        "--user",
        "lin",
        "submit",
        "--request-id",
        RID_A,
        "--kind",
        "image",
        "--prompt",
        "lin's prompt",
        env=env_a,
    )
    theirs = slate(
        "--user",
        "mei",
        "submit",
        "--request-id",
        RID_B,
        "--kind",
        "image",
        "--prompt",
        "mei's private prompt",
        env=env_b,
    )
    assert mine.out["outcome"] == theirs.out["outcome"] == "created"
    handle = mine.out["task"]["handle"]
    # the handle works where it was made
    assert slate("--user", "lin", "status", "--handle", handle, env=env_a).code == 0
    # the other store, same data dir (same secret file), same user: refused, nothing shown
    res = slate("--user", "lin", "status", "--handle", handle, env=env_b)
    assert res.code == 2 and res.out["outcome"] == "invalid", res.out
    assert res.out["error"]["code"] == "bad_handle"
    assert "another store" in res.out["error"]["message"]
    assert res.out["task"] is None and "mei" not in res.stdout
    # mei, the owner of task 1 over there, gets nothing from lin's handle either
    as_mei = slate("--user", "mei", "status", "--handle", handle, env=env_b)
    assert as_mei.code in (2, 8) and as_mei.out["task"] is None, as_mei.out
    # and store B's own handles keep working there
    assert (
        slate("--user", "mei", "status", "--handle", theirs.out["task"]["handle"], env=env_b).code
        == 0
    )


async def test_the_row_a_handle_reaches_is_checked_against_the_caller(harness):
    """Even a correctly signed handle of this store (the secret leaked, or a bug) never reaches
    another user's, tenant's or provider's task: the row itself is compared with the caller."""
    lin = harness.service
    mei = harness.other(user="mei")
    other_tenant = harness.other(tenant="north")
    theirs = await mei.submit(RID_B, "image", {"prompt": "mei's private prompt"})
    elsewhere = await other_tenant.submit(RID_B, "image", {"prompt": "north's prompt"})
    for target in (theirs.task.id, elsewhere.task.id):
        forged = handles.sign(
            harness.service.ctx.secret,
            "task",
            lin.scope.tenant,
            lin.scope.user_hash,
            target,
            harness.store.store_id,
        )
        res = await lin.status_by_handle(forged)
        assert res.kind is OutcomeKind.NOT_FOUND and exit_code(res) == 8, res
        assert res.task is None


async def test_handles_of_the_first_format_are_refused_with_a_hint(harness):
    """``st1`` handles named no store: they cannot be checked, so they are not taken."""
    out = await harness.service.submit(RID_A, "image", {"prompt": "p"})
    prefix, body, mac = out.task.handle.split(".")
    assert prefix == "st2"
    res = await harness.service.status_by_handle(f"st1.{body}.{mac}")
    assert res.kind is OutcomeKind.INVALID and exit_code(res) == 2
    assert "older Slate" in res.problem.message
