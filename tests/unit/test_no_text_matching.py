"""No face reads facts back out of text the service or a provider wrote (issue 36).

The window (``app/ui``), the words both faces say (``app/present``) and the command line
(``app/cli*.py``) say what the service decided from typed data: a ``FailReason``, a stored code
looked up whole, an event's ``data``. This test reads their source with :mod:`ast` and names
every ``file:line`` that matches text instead: the ``re`` module, ``.split`` / ``.rsplit`` /
``.partition`` / ``.rpartition``, and a substring test or search (``"…" in detail``,
``detail.count("…")``, ``detail.startswith("…")``) on a name that holds the service's words.

A split of text the designer typed (a request id, a size, a data URL they chose) or of a file or
locale name is legitimate: :data:`ALLOWED` names each by file and function, with why.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Methods that cut text into parts.
SPLITS = frozenset({"split", "rsplit", "partition", "rpartition"})
#: Methods that search text for words (flagged on a name that holds the service's words).
SEARCHES = frozenset({"count", "find", "rfind", "index", "rindex", "startswith", "endswith"})
#: Names that hold words the service or a provider wrote (a message, a detail, a reason …).
SERVICE_TEXT = frozenset(
    {
        "detail",
        "details",
        "message",
        "error",
        "error_message",
        "msg",
        "why",
        "note",
        "reason",
        "said",
        "text",
        "technical",
        "provider_status",
        "status",
    }
)

#: (file, function) → why a split or a pattern there reads no words of the service's.
#: A request id (``series:date:project:scene``) is the designer's own name for a slot.
REQUEST_ID = "a request id is the designer's own name: its scene is after the last colon"
ALLOWED: dict[tuple[str, str], str] = {
    ("app/present/translations.py", "language"): "a locale name (zh_CN.UTF-8@x → zh_CN)",
    ("app/present/translations.py", "read_ts"): "ElementTree's find on the .ts file's elements",
    ("app/present/words.py", "_verified_media"): "a media type kept as data (video/mp4 → video)",
    ("app/cli.py", "window_size"): "the designer's --size argument (1280x800)",
    ("app/ui/enhance.py", "__init__"): REQUEST_ID,
    ("app/ui/form.py", "_set_v2_media"): "the form's own field name (subject_reference → kind)",
    ("app/ui/form.py", "_stored_media"): "a URL the designer gave: its file name",
    ("app/ui/form_h3image.py", "_reference_item"): "a URL the designer gave: its file name",
    ("app/ui/form_sound.py", "designed_label"): REQUEST_ID,
    ("app/ui/gallery/model.py", "scene_label"): REQUEST_ID,
    ("app/ui/inputs.py", "probe_media"): "a path or URL the designer gave: its file name",
    ("app/ui/inputs.py", "sources_of"): "text the designer pasted: an address or a data URL?",
    ("app/ui/inputs.py", "kind_of_source"): "a data URL or URL the designer gave: its type",
    ("app/ui/inputs.py", "set_value"): "a data URL the designer gave: its base64 part",
    ("app/ui/make2k.py", "__init__"): REQUEST_ID,
    ("app/ui/notify.py", "_task_changed"): REQUEST_ID,
    ("app/ui/panes/browser.py", "essential_name"): "a slot's name the designer gave (scene.2k)",
    ("app/ui/panes/finished.py", "<module>"): "imports re for _plain below",
    ("app/ui/panes/finished.py", "_plain"): "the window's own rich text, made plain",
    ("app/ui/panes/finished.py", "show_task"): "the window's own summary line",
    ("app/ui/panes/finished.py", "_summary"): REQUEST_ID,
    ("app/ui/panes/finished.py", "_prompt_summary"): REQUEST_ID,
    ("app/ui/panes/queue.py", "show_entries"): REQUEST_ID,
    ("app/ui/panes/result.py", "show_events"): REQUEST_ID + " (a derived slot's, kept as data)",
    ("app/ui/panes/running.py", "<module>"): "imports re for expected_shape below",
    ("app/ui/panes/running.py", "expected_shape"): "the draft's size and ratio parameters",
    ("app/ui/prices.py", "part_text"): "a price table part (768P/6s): Slate's own table's key",
    ("app/ui/twin.py", "scene"): REQUEST_ID,
    ("app/ui/voice_design.py", "suggested_request_id"): REQUEST_ID,
    ("app/ui/voice_design.py", "slot_name"): REQUEST_ID,
    ("app/ui/window.py", "_result_name"): REQUEST_ID,
}


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    function: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} in {self.function}: {self.what}"


def _name_of(node: ast.AST) -> str | None:
    """The name an expression is known by: ``detail``, ``self.detail``, ``e.detail``,
    ``str(detail)``, ``(detail or "")``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        if node.func.id == "str":
            return _name_of(node.args[0])
    if isinstance(node, ast.BoolOp) and node.values:
        return _name_of(node.values[0])
    return None


def _is_service_text(node: ast.AST) -> bool:
    name = _name_of(node)
    return name is not None and (
        name in SERVICE_TEXT or name.endswith(("_detail", "_message", "_text"))
    )


class _Checker(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.stack: list[str] = []
        self.found: list[Finding] = []

    def _add(self, node: ast.AST, what: str) -> None:
        function = self.stack[-1] if self.stack else "<module>"
        self.found.append(Finding(self.path, getattr(node, "lineno", 0), function, what))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # noqa: N802 - ast's name
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:  # noqa: N802
        self._function(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "re" or alias.name.startswith(("re.", "regex")):
                self._add(node, f"import {alias.name}")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module in ("re", "regex"):
            self._add(node, f"from {node.module} import …")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Name) and func.value.id in ("re", "regex"):
                self._add(node, f"{func.value.id}.{func.attr}(…)")
            elif func.attr in SPLITS:
                self._add(node, f".{func.attr}(…) of {_name_of(func.value) or 'an expression'}")
            elif func.attr in SEARCHES and _is_service_text(func.value):
                self._add(node, f".{func.attr}(…) of {_name_of(func.value)}")
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            if (
                isinstance(op, (ast.In, ast.NotIn))
                and isinstance(left, ast.Constant)
                and isinstance(left.value, str)
                and _is_service_text(right)
            ):
                self._add(node, f"{left.value!r} in {_name_of(right)}")
            left = right
        self.generic_visit(node)


def check_source(source: str, path: str) -> list[Finding]:
    """Every place in ``source`` that matches text instead of reading data."""
    checker = _Checker(path)
    checker.visit(ast.parse(source, filename=path))
    return checker.found


def scanned() -> list[Path]:
    files = [
        *sorted((ROOT / "app/present").rglob("*.py")),
        *sorted((ROOT / "app/ui").rglob("*.py")),
    ]
    return files + sorted((ROOT / "app").glob("cli*.py"))


def all_findings() -> list[Finding]:
    out: list[Finding] = []
    for file in scanned():
        rel = file.relative_to(ROOT).as_posix()
        out += check_source(file.read_text(encoding="utf-8"), rel)
    return out


def test_no_face_matches_the_services_text():
    found = [f for f in all_findings() if (f.path, f.function) not in ALLOWED]
    assert found == [], "text matched instead of typed data (issue 36):\n" + "\n".join(
        map(str, found)
    )


def test_every_allowed_place_still_needs_its_entry():
    """An entry that allows nothing any more goes, so the list stays short and true."""
    used = {(f.path, f.function) for f in all_findings()}
    assert sorted(set(ALLOWED) - used) == []


def test_the_check_finds_a_regex_a_split_and_a_substring_test_over_a_detail():
    snippet = (
        "import re\n"
        "def event_detail(event, detail, message):\n"
        "    m = re.search(r'(\\d+) image', detail)\n"
        "    word = detail.split(' (', 1)[0]\n"
        "    if 'no matching' in detail:\n"
        "        return message.partition(': ')[2]\n"
        "    return str(detail).count(' uploaded as ')\n"
    )
    found = check_source(snippet, "app/present/words.py")
    assert [(f.line, f.function) for f in found] == [
        (1, "<module>"),
        (3, "event_detail"),
        (4, "event_detail"),
        (5, "event_detail"),
        (6, "event_detail"),
        (7, "event_detail"),
    ], found
    assert all((f.path, f.function) not in ALLOWED for f in found)
    assert str(found[1]) == "app/present/words.py:3 in event_detail: re.search(…)"
    # a dict's key test and a designer's request id are not the service's words
    assert check_source("def f(values):\n    return 'width' in values\n", "x.py") == []
