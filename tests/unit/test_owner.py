"""When is the owner of a `submitting` record provably gone (DESIGN.md, "Task states")."""

import os
import socket
import subprocess
import sys
import time

import psutil

from app.service.owner import (
    LEASE_SKEW_MARGIN,
    boot_id,
    owner_gone,
    pid_comparable,
    pid_namespace,
    this_owner,
)

HOST = socket.gethostname()
HERE = {"boot": boot_id(), "pidns": pid_namespace()}


def test_this_process_is_alive():
    me = this_owner()
    assert (me.boot, me.pidns) == (HERE["boot"], HERE["pidns"])
    assert not owner_gone(
        me.host, me.pid, me.started, time.time() - 10, boot=me.boot, pidns=me.pidns
    )  # a live owner: lease irrelevant


def test_this_machine_names_its_boot_and_pid_namespace():
    """Linux says both; the test machine is Linux (fail loudly if it stops saying)."""
    assert HERE["boot"] and len(HERE["boot"]) == 36, HERE
    assert HERE["pidns"] and HERE["pidns"].startswith("pid:["), HERE


def test_same_host_dead_process_is_gone():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert owner_gone(HOST, proc.pid, time.time(), time.time() + 3600, **HERE)


def test_same_host_reused_pid_with_another_start_time_is_gone():
    me = this_owner()
    assert owner_gone(me.host, me.pid, me.started - 3600, time.time() + 3600, **HERE)


def test_same_host_live_other_process_is_not_gone():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        started = psutil.Process(proc.pid).create_time()
        assert not owner_gone(HOST, proc.pid, started, time.time() - 10, **HERE)
    finally:
        proc.kill()
        proc.wait()


def test_other_host_is_judged_by_its_lease_with_a_margin():
    now = time.time()
    assert not owner_gone("render-box-2", os.getpid(), 1.0, now + 60, now=now, **HERE)
    # Just past the lease: within the skew margin, still alive.
    assert not owner_gone("render-box-2", os.getpid(), 1.0, now - 1, now=now, **HERE)
    assert owner_gone(
        "render-box-2", os.getpid(), 1.0, now - LEASE_SKEW_MARGIN - 1, now=now, **HERE
    )


def test_a_pid_of_another_pid_namespace_is_never_looked_up():
    """Same host, but the pid belongs to a container's namespace: a dead pid here means nothing
    there, so only the lease decides (it has not run out: not gone)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()  # that pid is dead *here*
    now = time.time()
    other_ns = "pid:[4026599999]"
    assert not pid_comparable(HOST, HERE["boot"], other_ns)
    assert not owner_gone(HOST, proc.pid, now, now + 60, now=now, boot=HERE["boot"], pidns=other_ns)
    assert owner_gone(HOST, proc.pid, now, now - 60, now=now, boot=HERE["boot"], pidns=other_ns)


def test_a_pid_of_another_boot_is_never_looked_up():
    """The same host name after a reboot (or a clone of the machine): pids start over."""
    me = this_owner()
    now = time.time()
    other_boot = "00000000-0000-4000-8000-000000000000"
    # Our own pid and start time, but from another boot: judged by the lease only.
    assert not owner_gone(
        me.host, me.pid, me.started, now + 60, now=now, boot=other_boot, pidns=me.pidns
    )
    assert owner_gone(
        me.host, me.pid, me.started, now - 60, now=now, boot=other_boot, pidns=me.pidns
    )


def test_a_record_without_boot_or_namespace_is_judged_by_its_lease():
    """Written by a Slate before owners named them: the pid cannot be trusted here."""
    me = this_owner()
    now = time.time()
    assert not owner_gone(me.host, 999_999, me.started, now + 60, now=now)
    assert owner_gone(me.host, 999_999, me.started, now - 60, now=now)
