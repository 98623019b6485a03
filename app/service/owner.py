"""Who owns a ``submitting`` record, and whether that owner is provably gone.

Same host: the process no longer exists, or its id now belongs to a process started at
another time (ids are reused). Another host: the lease has expired. A live owner's record
is never touched.
"""

from __future__ import annotations

import os
import socket
import time
from functools import lru_cache

import psutil

START_TIME_TOLERANCE = 1.0


@lru_cache(maxsize=4)
def _start_time(pid: int) -> float:
    return float(psutil.Process(pid).create_time())


def this_owner() -> tuple[str, int, float]:
    """(host, pid, process start time) of this process; safe after fork."""
    pid = os.getpid()
    return socket.gethostname(), pid, _start_time(pid)


def owner_gone(host: str | None, pid: int | None, started: float | None, lease_until: float | None,
               now: float | None = None) -> bool:
    now = time.time() if now is None else now
    if host is None or pid is None:
        return True
    if host != socket.gethostname():
        return lease_until is None or lease_until < now
    if pid == os.getpid() and started is not None and abs(this_owner()[2] - started) < START_TIME_TOLERANCE:
        return False
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return True
        return started is None or abs(proc.create_time() - started) > START_TIME_TOLERANCE
    except psutil.NoSuchProcess:
        return True
    except psutil.AccessDenied:
        return False
