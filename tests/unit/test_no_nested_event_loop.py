"""No Qt event loop is run inside the app's own code on the asyncio loop.

qasync runs asyncio on Qt's event loop: each task step is a Qt timer event. Should a step run
Qt's loop again (``processEvents()``, a dialog's ``exec()``), a timer due meanwhile may run
another task's wakeup inside it; asyncio refuses it ("Cannot enter into task … while another
task … is being executed"), the wakeup is dropped, and that task never runs again. That is
what held ``slate gui --describe`` runs after their answer (CI 49, 51): the status loop's or
the poller's wakeup was lost in ``describe.settle``'s ``processEvents()`` and the close
waited on them forever. Awaiting (``asyncio.sleep``) lets Qt's events run instead."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
    ]


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(APP.parent)}:{getattr(node, 'lineno', '?')}"


def test_the_app_never_runs_processevents():
    found = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [_where(path, c) for c in _calls(tree, "processEvents")]
    assert found == [], f"processEvents() in {found}: await asyncio.sleep(...) instead"


def test_no_coroutine_runs_a_nested_event_loop():
    found = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.AsyncFunctionDef):
                found += [_where(path, c) for c in _calls(fn, "exec") + _calls(fn, "exec_")]
    assert found == [], f"a nested event loop in a coroutine at {found}: use open() and await"


def test_the_guard_sees_a_call_it_forbids():
    tree = ast.parse("async def settle(app):\n    app.processEvents()\n    dialog.exec()\n")
    assert len(_calls(tree, "processEvents")) == 1
    [fn] = [n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef)]
    assert len(_calls(fn, "exec")) == 1
