"""When is the owner of a `submitting` record provably gone (DESIGN.md, "Task states")."""

import os
import socket
import subprocess
import sys
import time

from app.service.owner import owner_gone, this_owner

HOST = socket.gethostname()


def test_this_process_is_alive():
    host, pid, started = this_owner()
    assert not owner_gone(host, pid, started, time.time() - 10)  # a live owner: lease irrelevant


def test_same_host_dead_process_is_gone():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert owner_gone(HOST, proc.pid, time.time(), time.time() + 3600)


def test_same_host_reused_pid_with_another_start_time_is_gone():
    host, pid, started = this_owner()
    assert owner_gone(host, pid, started - 3600, time.time() + 3600)


def test_same_host_live_other_process_is_not_gone():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        import psutil

        started = psutil.Process(proc.pid).create_time()
        assert not owner_gone(HOST, proc.pid, started, time.time() - 10)
    finally:
        proc.kill()
        proc.wait()


def test_other_host_is_judged_by_its_lease():
    now = time.time()
    assert not owner_gone("render-box-2", os.getpid(), 1.0, now + 60, now=now)
    assert owner_gone("render-box-2", os.getpid(), 1.0, now - 1, now=now)
