"""Who owns a ``submitting`` record, and whether that owner is provably gone.

An owner is its host name, process id and start time, plus the boot and the PID namespace the
process id belongs to (``/proc/sys/kernel/random/boot_id``, ``/proc/self/ns/pid``). A process
id means something only on the same host, in the same boot and the same PID namespace: a
container sharing the data dir, or the same host name after a reboot, has ids of its own.

* Same host, boot and namespace: gone when the process no longer exists, or its id now belongs
  to a process started at another time (ids are reused), or it is a zombie.
* Anything else (another host, another boot, another namespace, or facts missing): gone only
  when the lease has run out — judged in the **store's clock**, never in this machine's own
  (see ``Store.clock``), with :data:`LEASE_SKEW_MARGIN` to spare. A live owner renews its
  lease while it works, so it never runs out under it.

A live owner's record is never touched.
"""

from __future__ import annotations

import os
import socket
import time
from functools import lru_cache

from app.store.rows import Owner

START_TIME_TOLERANCE = 1.0
#: A lease is over only this long after ``lease_until`` (store clock; covers the error of
#: measuring this machine's offset to it).
LEASE_SKEW_MARGIN = 5.0

BOOT_ID_FILE = "/proc/sys/kernel/random/boot_id"
PID_NS_LINK = "/proc/self/ns/pid"


@lru_cache(maxsize=4)
def _start_time(pid: int) -> float:
    import psutil  # where a process is looked up (a claim, a stale record): most commands never

    return float(psutil.Process(pid).create_time())


@lru_cache(maxsize=1)
def boot_id() -> str | None:
    """This boot's id (Linux), or None where the system does not say."""
    try:
        with open(BOOT_ID_FILE, encoding="ascii") as f:
            return f.read().strip() or None
    except OSError:
        return None


@lru_cache(maxsize=4)
def _pid_namespace(pid: int) -> str | None:
    try:
        return os.readlink(PID_NS_LINK)
    except OSError:
        return None


def pid_namespace() -> str | None:
    """This process's PID namespace (Linux: ``pid:[4026531836]``), or None."""
    return _pid_namespace(os.getpid())


def this_owner() -> Owner:
    """This process as the owner of a claim; safe after fork."""
    pid = os.getpid()
    return Owner(socket.gethostname(), pid, _start_time(pid), boot_id(), pid_namespace())


def pid_comparable(host: str | None, boot: str | None, pidns: str | None) -> bool:
    """Whether an owner's process id can be looked up here: same host, boot and namespace."""
    return host == socket.gethostname() and boot == boot_id() and pidns == pid_namespace()


def owner_gone(
    host: str | None,
    pid: int | None,
    started: float | None,
    lease_until: float | None,
    now: float | None = None,
    *,
    boot: str | None = None,
    pidns: str | None = None,
) -> bool:
    """Whether the owner of a ``submitting`` record is provably gone. ``now`` is the store's
    clock (``Store.clock()``); ``boot``/``pidns`` are the owner's, as recorded."""
    now = time.time() if now is None else now
    if host is None or pid is None:
        return True
    if not pid_comparable(host, boot, pidns):
        return lease_until is None or lease_until + LEASE_SKEW_MARGIN < now
    if (
        pid == os.getpid()
        and started is not None
        and abs(this_owner().started - started) < START_TIME_TOLERANCE
    ):
        return False
    import psutil

    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return True
        return started is None or abs(proc.create_time() - started) > START_TIME_TOLERANCE
    except psutil.NoSuchProcess:
        return True
    except psutil.AccessDenied:
        return False
