"""No fixed "sleep, then assert" in the tests (issue 38).

A test that sleeps a fixed time and then asserts passes or fails with the machine's speed: on
two busy cores the thing it waited for may not have happened yet. It waits for the event the
sleep stood for instead (``qtbot.waitUntil``/``waitSignal``, ``wait_until`` in
``tests/support/machines.py``, a row, a server-side counter, a barrier, the sim's clock moved on),
with a generous deadline that only bounds a hang.

This guard walks ``tests/`` and names, by file:line, every sleep call (``time.sleep``,
``asyncio.sleep``, ``qtbot.wait``, ``QTest.qWait``) that is

* not the short pause of a polling loop: inside a ``while`` loop, or a ``for`` loop whose body
  checks something (an ``if``, ``assert``, ``break``, ``return`` or ``raise``), in the same
  function;
* not ``asyncio.sleep(0)``: one turn of the event loop, not a wait for time to pass;
* not in :data:`ALLOWED`, the short list of sleeps that are the behaviour under test, or that
  prove something does NOT happen within a time where there is no event to wait for (the
  positive part of those tests waits for its event).

``tests/bench`` is left out: benchmarks measure time, they do not assert on a guess of it.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent

#: (path from the repository root, the enclosing function's qualified name) -> (how many sleeps
#: it has, why they are not a wait for an event). A new sleep beside them is named as well.
ALLOWED: dict[tuple[str, str], tuple[int, str]] = {
    # -- the sleep is the behaviour under test
    ("tests/support/hostile.py", "HostileServer.__init__.Handler._send"): (
        2,
        "a scripted answer's delay before it is sent, and the pause between dripped bytes",
    ),
    ("tests/support/pulse.py", "PulseServer.record"): (1, "the sink is recorded for N seconds"),
    (
        "tests/integration/test_write_lock.py",
        "test_a_writer_that_gives_up_says_who_holds_the_lock_and_the_lock_is_not_lost.use",
    ): (1, "each thread holds the queue a while, so a double hold would show in the order"),
    (
        "tests/integration/test_hostile_money.py",
        "test_a_reclaimed_slots_window_starts_at_its_last_claim",
    ): (
        1,
        "wall time passes between the rejection and the re-claim: the lookup's window is taken "
        "from the app's own clock, which the test cannot move",
    ),
    ("tests/support/xapp.py", "settled.still"): (
        1,
        "the predicate of wait_for's polling loop: the layout held still over three probe polls",
    ),
    (
        "tests/integration/test_pg_connection.py",
        "test_server_restart_while_tasks_poll_all_finish_no_duplicate_create",
    ): (
        3,
        "pacing of the fault (a submit while the server goes down, a pause between restarts): "
        "no assertion depends on it; the waiters and the poller are waited for as events",
    ),
    # -- proving that something does NOT happen within a time (no event to wait for); the
    # -- positive part of each test waits for its event
    ("tests/integration/test_polling.py", "test_a_step_that_raises_is_put_off_not_spun_on"): (
        1,
        "at most 8 tries and 40 rounds in 1.5 s; the second try is waited for",
    ),
    (
        "tests/integration/test_sim_v2_contract.py",
        "test_callback_url_is_accepted_and_never_called",
    ): (
        1,
        "the callback is never called; the task's end is waited for first",
    ),
    (
        "tests/desktop/test_xcb_unknown.py",
        "test_an_unknown_slot_cannot_be_paid_twice_by_mouse_or_keyboard",
    ): (
        3,
        "the refused click and shortcuts start no draft; the window's New working after them is "
        "waited for on the probe",
    ),
    (
        "tests/gui/test_paint_first.py",
        "test_the_first_rows_come_from_the_store_file_before_the_service",
    ): (
        1,
        "an early lookup is not answered before the service; its answer is waited for after",
    ),
    (
        "tests/gui/test_paint_first.py",
        "test_a_start_the_file_cannot_answer_shows_its_rows_with_the_service",
    ): (
        1,
        "no rows before the service; the service's rows are waited for after",
    ),
    (
        "tests/gui/test_paint_first.py",
        "test_a_wrong_guess_of_the_provider_is_read_again_with_the_service",
    ): (
        1,
        "no late rows after the first page arrived (waited for); demo's rows are waited for after",
    ),
    (
        "tests/gui/test_paint_first.py",
        "test_the_create_form_is_made_after_the_first_paint_and_tabs_as_if_made_first",
    ): (
        1,
        "the form is not made before finish_start; the form showing is waited for after",
    ),
    (
        "tests/gui/test_paint_first.py",
        "test_the_results_view_is_made_after_the_first_paint_as_in_a_whole_window",
    ): (
        1,
        "the results view is not made before finish_start; the form is waited for after",
    ),
    (
        "tests/gui/test_paint_first.py",
        "test_a_closed_history_panel_is_made_after_the_first_paint_as_in_a_whole_window",
    ): (
        1,
        "the result pane is not made before finish_start; the form is waited for after",
    ),
}


def _is_sleep(call: ast.Call) -> bool:
    f = call.func
    if not isinstance(f, ast.Attribute):
        return False
    owner = f.value
    name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", None)
    if f.attr == "sleep" and name in ("time", "asyncio"):
        return True
    if f.attr == "wait" and name == "qtbot":
        return True
    return f.attr == "qWait"


def _a_yield(call: ast.Call) -> bool:
    """``asyncio.sleep(0)``: the event loop turns once; no time is waited for."""
    return (
        len(call.args) == 1
        and isinstance(call.args[0], ast.Constant)
        and call.args[0].value == 0
        and not call.keywords
    )


def _checks(loop: ast.For | ast.AsyncFor) -> bool:
    checking = (ast.If, ast.Assert, ast.Break, ast.Return, ast.Raise)
    return any(isinstance(n, checking) for stmt in loop.body for n in ast.walk(stmt))


class _Finder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.names: list[str] = []
        self.loops: list[ast.AST] = []  # the loops around here, in the current function
        self.found: list[tuple[int, str]] = []  # (line, enclosing function)

    def _scope(self, node: ast.AST, name: str) -> None:
        saved = self.loops
        self.names.append(name)
        self.loops = []
        self.generic_visit(node)
        self.loops = saved
        self.names.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # noqa: N802
        self._scope(node, node.name)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:  # noqa: N802
        self._scope(node, node.name)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:  # noqa: N802
        self._scope(node, node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:  # noqa: N802
        self._scope(node, "<lambda>")

    def _loop(self, node: ast.AST) -> None:
        self.loops.append(node)
        self.generic_visit(node)
        self.loops.pop()

    visit_While = _loop  # noqa: N815
    visit_For = _loop  # noqa: N815
    visit_AsyncFor = _loop  # noqa: N815

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        if _is_sleep(node) and not _a_yield(node) and not self._polled():
            self.found.append((node.lineno, ".".join(self.names)))
        self.generic_visit(node)

    def _polled(self) -> bool:
        return any(
            isinstance(loop, ast.While)
            or (isinstance(loop, ast.For | ast.AsyncFor) and _checks(loop))
            for loop in self.loops
        )


def fixed_sleeps(source: str) -> list[tuple[int, str]]:
    """The (line, enclosing function) of each sleep in ``source`` that no loop polls around."""
    finder = _Finder()
    finder.visit(ast.parse(source))
    return finder.found


def _sources() -> list[Path]:
    bench = TESTS / "bench"
    return [p for p in sorted(TESTS.rglob("*.py")) if bench not in p.parents]


def test_no_test_sleeps_a_fixed_time_then_asserts():
    found: list[str] = []
    seen: dict[tuple[str, str], list[str]] = {}
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        for line, where in fixed_sleeps(path.read_text(encoding="utf-8")):
            seen.setdefault((rel, where), []).append(f"{rel}:{line} (in {where or 'the module'})")
    for key, places in sorted(seen.items()):
        if key not in ALLOWED or len(places) != ALLOWED[key][0]:
            found += places
    assert found == [], (
        "a fixed sleep outside a polling loop; wait for the event it stands for "
        f"(qtbot.waitUntil, tests.support.machines.wait_until, a signal, a row): {found}"
    )
    gone = sorted(set(ALLOWED) - set(seen))
    assert gone == [], f"allowed but no longer there (drop them from ALLOWED): {gone}"


#: ``gui.settle(s)`` calls in the GUI tests: each waits a fixed time before it asserts or takes
#: a picture. Issue 38 made them waits for their events (``gui.until``, ``gui.drained``,
#: ``gui.laid_out``, ``gui.quiet``, a thread seen parked in its untimed wait); ``Gui.settle`` is
#: gone, and a fixed wait brought back under that name is counted here.
SETTLE_CALLS = 0


def _settle_calls(source: str) -> int:
    return sum(
        1
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "settle"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "gui"
    )


def test_settle_calls_do_not_grow():
    counted = sum(_settle_calls(p.read_text(encoding="utf-8")) for p in _sources())
    assert counted <= SETTLE_CALLS, (
        f"{counted} gui.settle() calls, {SETTLE_CALLS} allowed: wait for the event instead "
        "(gui.until, gui.laid_out, gui.quiet)"
    )
    assert counted == SETTLE_CALLS, f"{counted} gui.settle() calls now: lower SETTLE_CALLS to it"


def test_the_guard_sees_a_fixed_sleep_and_lets_a_polling_loop_be():
    flagged = fixed_sleeps(
        "import asyncio, time\n"
        "def test_x(qtbot):\n"
        "    time.sleep(1)\n"
        "    assert done()\n"
        "    qtbot.wait(100)\n"
        "async def test_y():\n"
        "    await asyncio.sleep(0.5)\n"
        "    await asyncio.sleep(0)\n"
        "    for _ in range(3):\n"
        "        time.sleep(0.1)\n"
        "    while not done():\n"
        "        time.sleep(0.02)\n"
        "    for _ in range(200):\n"
        "        await asyncio.sleep(0.01)\n"
        "        if done():\n"
        "            break\n"
        "    while True:\n"
        "        def inner():\n"
        "            time.sleep(2)\n"
    )
    assert flagged == [
        (3, "test_x"),
        (5, "test_x"),
        (7, "test_y"),
        (10, "test_y"),
        (19, "test_y.inner"),
    ]
