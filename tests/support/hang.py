"""A test stuck where no signal reaches it, or a worker that crashes, ends the run with the stacks.

pytest-timeout (``timeout`` in pyproject.toml, signal method) interrupts a test that waits in
Python: the test fails with its stack and its fixtures clean up. A test stuck inside C — a Qt
call that deadlocks on a busy machine — never sees that signal, and its xdist worker would wait
forever, and the whole run with it. This plugin arms ``faulthandler`` for each test, a little
after the test's own timeout: every thread's stack is written to the run's stderr and the
worker process exits.

A worker that ends that way (or crashes in C: a segfault inside Qt) ends the run at once, with
the crashed test reported as failed: under ``--dist loadgroup`` xdist 3.8 gives the crashed
test's group to a new worker, runs the crashed test again and then waits forever on a queue
that never empties — a run that hangs instead of failing. So restarting workers is off
(``--max-worker-restart=0`` unless the command line says otherwise).
"""

from __future__ import annotations

import faulthandler
import os
import sys
from typing import IO

import pytest

#: seconds after a test's own timeout (pytest-timeout's) before its process is ended
GRACE = 30.0

_out: IO[str] | None = None


@pytest.hookimpl(tryfirst=True)  # before xdist's session reads the option
def pytest_configure(config: pytest.Config) -> None:
    global _out
    if getattr(config.option, "maxworkerrestart", "") is None:
        config.option.maxworkerrestart = "0"
    _out = os.fdopen(os.dup(sys.__stderr__.fileno()), "w")  # the run's stderr, not a capture


def _timeout(item: pytest.Item) -> float:
    mark = item.get_closest_marker("timeout")
    if mark is not None and mark.args:
        return float(mark.args[0])
    return float(item.config.getini("timeout") or 0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    limit = _timeout(item)
    if limit > 0 and _out is not None:
        faulthandler.dump_traceback_later(limit + GRACE, exit=True, file=_out)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
