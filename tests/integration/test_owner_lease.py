"""A live owner's create is never declared unknown, and an answer is never thrown away (issue 15,
point 2). Real processes, on both backends:

* another "machine" whose clock runs an hour ahead (or behind) — a second process with another
  host name and a shifted ``time.time`` — looks at a live owner's ``submitting`` record;
* an owner in another PID namespace on the same host name (``unshare --pid``) is looked at from
  outside, where its process id means something else;
* a create held back by ``Retry-After: 1e9`` past the lease (the owner renews; the wait is capped);
* an owner that is stopped (SIGSTOP) loses its record to the sweep — then its answer arrives and
  attaches to the ``unknown`` record; an owner that lost its record before a re-send never
  sends it.

The leases are shortened for the test (module constants set in the child processes); the rules
are the ones Slate runs with. The other machine that looks in (``status``) is a process started
while the test waits for the owner, ready and waiting until the test lets it look (``gated``):
it looks at its moment, without a process start-up's second in the way. What the store says
once the owner has ended is read by the ``slate`` fixture (in this process unless
``SLATE_TEST_CLI=subprocess``).
"""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from tests.support.hostile import Answer, HostileServer, ok, refused
from tests.support.machines import (
    cancel,
    finish,
    go_finish,
    resume,
    spawn,
    stop,
    wait_until,
)

RID = "article:20260816:tide-eye:scene-02"
SUBMIT = ["submit", "--request-id", RID, "--kind", "video", "--prompt", "held create"]
HOUR = 3600.0
#: An observer that judges a lease with little slack, so the tests need not wait long.
QUICK_OBSERVER = {"app.service.owner.LEASE_SKEW_MARGIN": 0.2}


def short_lease(timeout: float, lease: float = 1.0) -> dict[str, float]:
    """Owner patches: the lease lasts ``lease`` seconds from its last renewal (timeout + margin),
    renewed every 0.25 s."""
    return {
        "app.service.lease.LEASE_MARGIN": lease - timeout,
        "app.service.lease.RENEW_EVERY": 0.25,
    }


def stop_between_renewals(owner, env: dict[str, str]) -> None:
    """SIGSTOP the owner just after it renewed its lease, so it is not stopped in the middle of
    a write (which would hold the store's write lock: every other process would then be told
    the store is busy — by design, and not what these tests are about)."""
    import sqlalchemy as sa

    engine = sa.create_engine(env["SLATE_STORE"])
    try:

        def lease() -> object:
            with engine.connect() as conn:
                return conn.execute(
                    sa.text("SELECT lease_until FROM tasks WHERE request_id = :r"), {"r": RID}
                ).scalar()

        deadline = time.monotonic() + 60
        while True:
            first = lease()
            while lease() == first and time.monotonic() < deadline:
                time.sleep(0.005)
            stop(owner)
            # On a busy machine the owner may already be in its next write when the signal
            # lands: then let it go on and stop it after its next renewal.
            if not in_a_write(owner, env, engine) or time.monotonic() > deadline:
                return
            resume(owner)
    finally:
        engine.dispose()


def wait_out_the_lease(env: dict[str, str]) -> None:
    """Until the lease the store holds now has run out for an observer with QUICK_OBSERVER's
    slack: a lease is judged by the clock (the store's, this machine's), so this waits for the
    clock to pass the stored ``lease_until``, not for a guess of how long that takes."""
    import sqlalchemy as sa

    engine = sa.create_engine(env["SLATE_STORE"])
    try:
        with engine.connect() as conn:
            until = conn.execute(
                sa.text("SELECT lease_until FROM tasks WHERE request_id = :r"), {"r": RID}
            ).scalar()
    finally:
        engine.dispose()
    assert until is not None, "no lease in the store"
    slack = QUICK_OBSERVER["app.service.owner.LEASE_SKEW_MARGIN"] + 0.1
    wait_until(lambda: time.time() > until + slack, timeout=60, what="the lease to run out")


def in_a_write(owner, env: dict[str, str], engine) -> bool:
    """Whether the (stopped) owner holds SQLite's writers' lock file, which every other process
    would wait on, and be told the store is busy. Checked on SQLite only, where the failure was
    seen (on PostgreSQL an owner's pooled sessions can look busy between its writes too, and
    waiting for them let the owner's backoff run out)."""
    import fcntl
    import os

    import sqlalchemy as sa

    url = sa.engine.make_url(env["SLATE_STORE"])
    if url.get_backend_name() != "sqlite":
        return False
    lock = f"{url.database}.writers"
    if not os.path.exists(lock):
        return False
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing lets go of the lock if we took it
    return False


def observer_of(env: dict[str, str], **kw) -> subprocess.Popen[str]:
    """Another machine's ``status`` process, started now, that looks when the test says
    (``seen_by``)."""
    return spawn(env, ["status", RID], gated=True, **kw)


def seen_by(observer: subprocess.Popen[str]) -> dict:
    got = go_finish(observer)
    assert got.out["task"] is not None, got.out
    return got.out["task"]


def state_of(slate, env: dict[str, str]) -> dict:
    got = slate("status", RID, env=env)
    assert got.out["task"] is not None, got.out
    return got.out["task"]


def history_of(slate, env: dict[str, str]) -> list[dict]:
    return slate("history", RID, env=env).out["events"]


@pytest.fixture
def env(slate_env, store_url):
    # Creates are held until the test releases them: the owner's read timeout outlasts the
    # hold however slowly a busy machine runs the observer meanwhile.
    return {**slate_env, "SLATE_STORE": store_url, "SLATE_TIMEOUT": "120"}


@pytest.mark.parametrize(
    "owner_offset, observer_offset",
    [(0.0, HOUR), (-HOUR, 0.0)],
    ids=["observer-an-hour-ahead", "owner-an-hour-behind"],
)
def test_clock_skew_between_machines_never_makes_a_live_owner_look_expired(
    env, demo_sim, slate, owner_offset, observer_offset
):
    demo_sim.set_faults(hold_create_response=1)  # the create is out until released
    owner = spawn(env, SUBMIT, clock_offset=owner_offset, hostname="render-box-1")
    observer = observer_of(env, clock_offset=observer_offset, hostname="render-box-2")
    try:
        try:
            wait_until(
                lambda: demo_sim.held_creates() == 1, timeout=60, what="the create to arrive"
            )
            seen = seen_by(observer)
            assert seen["state"] == "submitting", seen  # another machine left the live owner alone
        finally:
            demo_sim.release_creates()
        done = finish(owner)
        assert done.code == 0 and done.out["outcome"] == "created", done.out
        task = state_of(slate, env)
        assert task["state"] != "unknown" and task["provider_task_id"], task
        assert task["provider_task_id"] == done.out["task"]["provider_task_id"]
        assert not [e for e in history_of(slate, env) if e["event"] == "unknown"]
    finally:
        cancel(owner, observer)


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--pid", "--fork", "--mount-proc", "true"], capture_output=True, timeout=10
    )
    return probe.returncode == 0


def test_an_owner_in_another_pid_namespace_is_judged_by_its_lease(env, demo_sim, slate):
    """A container sharing the data dir, same host name: its pid (1 inside) names another
    process out here. With ``unshare`` (root) the owner really runs in its own PID namespace;
    without it the owner's namespace id is set to another one (the rule is the same: the ids
    differ, so the pid is not looked up)."""
    demo_sim.set_faults(hold_create_response=1)
    if _unshare_works():
        owner = spawn(env, SUBMIT, prefix=["unshare", "--pid", "--fork", "--mount-proc"])
    else:  # pragma: no cover - the test machine is root; elsewhere the ids are made to differ
        owner = spawn(env, SUBMIT, patches={"app.service.owner.PID_NS_LINK": "/nonexistent"})
    observer = observer_of(env)
    try:
        try:
            wait_until(
                lambda: demo_sim.held_creates() == 1, timeout=60, what="the create to arrive"
            )
            seen = seen_by(observer)  # same host, same boot, this PID namespace
            assert seen["state"] == "submitting", seen
        finally:
            demo_sim.release_creates()
        done = finish(owner)
        assert done.code == 0 and done.out["outcome"] == "created", (
            done.out,
            done.stderr[-2000:],
        )
        task = state_of(slate, env)
        assert task["state"] != "unknown" and task["provider_task_id"], task
    finally:
        cancel(owner, observer)


def test_a_create_held_by_retry_after_1e9_past_the_lease_stays_owned_and_is_sent(env, slate):
    """The provider answers the first create with 1002 and ``Retry-After: 1e9``. The owner waits
    the cap (set to 12 s here; 60 s in Slate), not 1e9 s, and renews its lease meanwhile (1 s
    long here): another machine looking in after the lease would have run out finds it owned."""
    server = HostileServer(
        {
            "POST /v1/video_generation": [
                Answer(refused(1002, "rate limit exceeded(RPM)"), headers={"Retry-After": "1e9"}),
                Answer(ok(task_id="vt-after-backoff")),
            ]
        }
    )
    try:
        envs = {**env, "SLATE_BASE_URL": server.base_url, "SLATE_TIMEOUT": "5"}
        owner = spawn(
            envs,
            SUBMIT,
            patches={**short_lease(5.0), "app.service.ratelimit.RETRY_AFTER_CAP": 12.0},
        )
        procs = [owner]
        try:
            wait_until(
                lambda: server.sent("POST", "/v1/video_generation") == 1, what="the first create"
            )
            # started during the wait, which it does not shorten
            observer = observer_of(envs, hostname="render-box-2", patches=QUICK_OBSERVER)
            procs.append(observer)
            wait_out_the_lease(envs)  # past the first lease and the observer's slack
            seen = seen_by(observer)
            assert seen["state"] == "submitting", seen
            done = finish(owner, timeout=60)
            assert done.code == 0 and done.out["outcome"] == "created", done.out
            assert done.out["task"]["provider_task_id"] == "vt-after-backoff"
            waited = [e for e in history_of(slate, envs) if e["event"] == "rate_limited"]
            assert len(waited) == 1 and "sending again in 12.0 s" in waited[0]["detail"], waited
            assert server.sent("POST", "/v1/video_generation") == 2
        finally:
            cancel(*procs)
    finally:
        server.stop()


def test_an_answer_for_a_record_already_unknown_attaches_to_it(env, demo_sim, slate):
    demo_sim.set_faults(hold_create_response=1)  # the answer comes when released
    # The owner's read timeout (60 s) outlasts its stop and a slow observer; its lease is 1 s.
    owner = spawn({**env, "SLATE_TIMEOUT": "60"}, SUBMIT, patches=short_lease(60.0))
    procs = [owner]
    try:
        try:
            wait_until(
                lambda: demo_sim.held_creates() == 1, timeout=60, what="the create to arrive"
            )
            # started during the waits below, which it does not shorten
            observer = observer_of(env, hostname="render-box-2", patches=QUICK_OBSERVER)
            procs.append(observer)
            stop_between_renewals(
                owner, env
            )  # the owner stops renewing: to another machine it looks gone
            wait_out_the_lease(env)
            seen = seen_by(observer)
            assert seen["state"] == "unknown" and seen["provider_task_id"] is None, seen
        finally:
            demo_sim.release_creates()
            resume(owner)
        done = finish(owner)  # the answer arrives: evidence beats the sweep
        assert done.code == 0 and done.out["outcome"] == "created", done.out
        task = state_of(slate, env)
        assert task["state"] in ("preparing", "queueing", "processing", "downloading", "success")
        assert task["provider_task_id"] == done.out["task"]["provider_task_id"]
        assert task["provider_task_id"], task
        events = history_of(slate, env)
        names = [e["event"] for e in events]
        assert names.index("unknown") < names.index("created"), names
        attached = next(e for e in events if e["event"] == "created")
        assert "declared unknown; attached" in attached["detail"], attached
        assert attached["data"]["late_answer"] is True
        assert demo_sim.stats()["creates_total"] == 1
    finally:
        cancel(*procs)


def test_an_owner_that_lost_its_record_before_a_resend_never_sends_it(env, slate):
    """Stopped during a rate-limit backoff, the owner's record is declared unknown; when it
    wakes it checks its hold before sending again, finds it lost, and sends nothing — the record
    says so (rejected, never sent: nothing was created)."""
    server = HostileServer(
        {
            "POST /v1/video_generation": [
                # a backoff long enough that the stop lands inside it on a busy machine too
                Answer(refused(1002, "rate limit exceeded(RPM)"), headers={"Retry-After": "10"}),
                Answer(ok(task_id="vt-must-not-exist")),
            ]
        }
    )
    try:
        envs = {**env, "SLATE_BASE_URL": server.base_url, "SLATE_TIMEOUT": "5"}
        owner = spawn(envs, SUBMIT, patches=short_lease(5.0))
        procs = [owner]
        try:
            try:
                wait_until(
                    lambda: server.sent("POST", "/v1/video_generation") == 1,
                    what="the first create",
                )
                # started during the waits below, which it does not shorten
                observer = observer_of(envs, hostname="render-box-2", patches=QUICK_OBSERVER)
                procs.append(observer)
                stop_between_renewals(owner, envs)
                # stopped inside its backoff (the premise): the resend has not gone out yet
                assert server.sent("POST", "/v1/video_generation") == 1
                wait_out_the_lease(envs)
                seen = seen_by(observer)
                assert seen["state"] == "unknown", seen
            finally:
                resume(owner)
            done = finish(owner, timeout=30)
            assert server.sent("POST", "/v1/video_generation") == 1  # never sent again
            assert done.code == 6 and done.out["outcome"] == "rejected", done.out
            assert done.out["task"]["error"]["code"] == "never_sent"
            assert state_of(slate, envs)["state"] == "rejected"
        finally:
            cancel(*procs)
    finally:
        server.stop()
