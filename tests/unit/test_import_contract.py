"""The import contract: every arrow points down, and no import cycle anywhere in ``app``.

    ui, cli ──▶ bootstrap ──▶ service ──▶ store, providers ──▶ domain
    ui, cli ──▶ present (the words both faces say, Qt-free) ──▶ domain

The rules live in :data:`RULES`, here and nowhere else. The import graph comes from grimp and
counts every import statement: at module level, inside functions, and under ``TYPE_CHECKING``;
an import a rule excepts is named in its ``allowed``, with the reason beside it. The graph holds
the packages outside ``app`` too (each as one module), so a rule can forbid Qt itself.

Check another checkout (prints the violations, exits 1 when there are any)::

    python tests/unit/test_import_contract.py /path/to/checkout
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "app"


@dataclass(frozen=True)
class Rule:
    """Modules under ``importers`` must not import modules under ``forbidden`` — directly, or
    also through other modules unless ``direct_only``. With ``only_within`` instead, they may
    import nothing of the package outside those modules. A name ending in ``*`` stands for every
    module whose name starts so (``app.cli_*``). ``allowed``: (importer, imported) imports the
    rule excepts; one that no longer exists is reported, so no exception outlives its reason."""

    name: str
    importers: tuple[str, ...]
    forbidden: tuple[str, ...] = ()
    only_within: tuple[str, ...] = ()
    direct_only: bool = False
    allowed: tuple[tuple[str, str], ...] = ()


#: The service's modules of plain types: results and views it returns, the browser's reads,
#: and the recover commands (the service's facade and machinery are not among them).
PUBLIC_SERVICE_TYPES = (
    "app.service.results",
    "app.service.views",
    "app.service.reads",
    "app.service.commands",
)

RULES: tuple[Rule, ...] = (
    Rule(
        "app.domain imports nothing from app outside app.domain",
        importers=("app.domain",),
        only_within=("app.domain",),
    ),
    Rule(
        "app.store and app.providers never import app.service, app.ui, app.cli, app.bootstrap",
        importers=("app.store", "app.providers"),
        forbidden=("app.service", "app.ui", "app.cli", "app.bootstrap"),
    ),
    # The demo provider stands in for MiniMax: it shares the domain's rules, never our client
    # (a client bug it shared would be invisible) nor anything above it (issue 18).
    Rule(
        "app.sim never imports app.providers, app.service, app.store, app.ui or app.cli",
        importers=("app.sim",),
        forbidden=("app.providers", "app.service", "app.store", "app.ui", "app.cli"),
    ),
    Rule(
        "app.service never imports app.ui or app.cli",
        importers=("app.service",),
        forbidden=("app.ui", "app.cli"),
    ),
    # The GUI's entry module builds the app through the composition root (bootstrap), which
    # opens the store: only direct imports of the store are forbidden here.
    Rule(
        "app.ui never imports app.store",
        importers=("app.ui",),
        forbidden=("app.store",),
        direct_only=True,
    ),
    # What a slot offers, and what its provider can do for the slot's own protocol, is answered
    # by the service (domain.states.slot_offers with the capabilities of that protocol) and carried
    # in the task's view: the window never picks capabilities itself (issue 18).
    Rule(
        "app.ui never imports app.domain.capabilities",
        importers=("app.ui",),
        forbidden=("app.domain.capabilities",),
        direct_only=True,
    ),
    # The words both faces say (issue 36) are owned by neither: they read the domain's rules and
    # nothing else of the app, and never Qt — the command line says them without it.
    Rule(
        "app.present imports only app.domain and app.present",
        importers=("app.present",),
        only_within=("app.domain", "app.present"),
    ),
    Rule(
        "app.present imports no Qt (PySide6, shiboken6, app.ui.qt)",
        importers=("app.present",),
        forbidden=("PySide6", "shiboken6", "app.ui.qt"),
    ),
    # The slot on screen is plain Python (tested without Qt): it reads the domain's rules and
    # the shared words, nothing else of the app.
    Rule(
        "app.ui.current imports only app.domain and app.present",
        importers=("app.ui.current",),
        only_within=("app.domain", "app.present", "app.ui.current"),
    ),
    # The command line is the other face: its words come from app.present, so it carries no
    # desktop app. The one exception is the `gui` command, which opens the window (its import
    # of app.ui.app sits inside the command's function). Qt itself is not forbidden here: the
    # demo provider draws its pictures with it when it runs (tests/unit/test_cli_words.py runs
    # the command line and finds no Qt loaded).
    Rule(
        "the command line never imports app.ui",
        importers=("app.cli", "app.cli_*", "app.__main__"),
        forbidden=("app.ui",),
        allowed=(("app.cli", "app.ui.app"),),
    ),
    # Panes are widgets bound to the slot on screen and the controller they are handed: they see
    # the rules, the rest of the UI, the words both faces say (app.present) and the service's
    # public types (results, views, reads, commands), never the service itself, the store or the
    # app's entry points.
    Rule(
        "app.ui.panes import only app.ui, app.domain, app.present and the service's public types",
        importers=("app.ui.panes",),
        only_within=("app.ui", "app.domain", "app.present", *PUBLIC_SERVICE_TYPES),
    ),
    Rule(
        "app.ui.panes never import the window, the app or the controller",
        importers=("app.ui.panes",),
        forbidden=("app.ui.window", "app.ui.app", "app.ui.controller"),
    ),
    # The store's three sides share rows.py and statements.py and never reach into each other.
    Rule(
        "app.store.repository never imports the lean claim or the read side",
        importers=("app.store.repository",),
        forbidden=("app.store.sqlite_claim", "app.store.queries"),
        direct_only=True,
    ),
    Rule(
        "app.store.sqlite_claim never imports the repository or the read side",
        importers=("app.store.sqlite_claim",),
        forbidden=("app.store.repository", "app.store.queries"),
        direct_only=True,
    ),
    Rule(
        "app.store.queries never imports the repository or the lean claim",
        importers=("app.store.queries",),
        forbidden=("app.store.repository", "app.store.sqlite_claim"),
        direct_only=True,
    ),
)


def _under(module: str, packages: tuple[str, ...]) -> bool:
    return any(
        module.startswith(p[:-1]) if p.endswith("*") else module == p or module.startswith(p + ".")
        for p in packages
    )


def _roots(names: tuple[str, ...], modules: list[str]) -> list[str]:
    """``names`` with each ``*`` name spelled out as the modules it stands for."""
    out: list[str] = []
    for name in names:
        out += [m for m in modules if _under(m, (name,))] if name.endswith("*") else [name]
    return out


def _cycles(modules: list[str], imports: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in modules:
        if start in index:
            continue
        work = [(start, iter(sorted(imports[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(imports[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1 or node in imports[node]:
                    found.append(sorted(comp))
    return found


def violations() -> list[str]:
    """Every broken rule and every cycle of the ``app`` package importable right now."""
    import grimp

    graph = grimp.build_graph(PACKAGE, include_external_packages=True, cache_dir=None)
    everything = sorted(graph.modules)
    modules = [m for m in everything if _under(m, (PACKAGE,))]
    imports = {m: set(graph.find_modules_directly_imported_by(m)) for m in everything}
    out: list[str] = []
    for rule in RULES:
        sources = [m for m in modules if _under(m, rule.importers)]
        if not sources:  # a package without __init__.py is invisible to grimp: say so
            out.append(f"{rule.name}: no module of {', '.join(rule.importers)} in the graph")
        excepted = [(a, b) for a, b in rule.allowed if b in imports.get(a, ())]
        for a, b in sorted(set(rule.allowed) - set(excepted)):
            out.append(f"{rule.name}: allowed import {a} -> {b} no longer exists")
        for src in sources:
            for dst in sorted(imports[src]):
                if (src, dst) in excepted:
                    continue
                if rule.only_within and _under(dst, (PACKAGE,)):
                    if not _under(dst, rule.only_within):
                        out.append(f"{rule.name}: {src} -> {dst}")
                elif rule.forbidden and rule.direct_only and _under(dst, rule.forbidden):
                    out.append(f"{rule.name}: {src} -> {dst}")
        if rule.forbidden and not rule.direct_only:
            for a, b in excepted:  # the excepted imports are not part of any chain
                graph.remove_import(importer=a, imported=b)
            for importer in _roots(rule.importers, modules):
                for forbidden in rule.forbidden:
                    if importer not in graph.modules or forbidden not in graph.modules:
                        continue
                    for chain in sorted(graph.find_shortest_chains(importer, forbidden)):
                        out.append(f"{rule.name}: {' -> '.join(chain)}")
            for a, b in excepted:
                graph.add_import(importer=a, imported=b)
    inside = {m: {d for d in imports[m] if _under(d, (PACKAGE,))} for m in modules}
    for comp in _cycles(modules, inside):
        a, b = comp[0], comp[1]
        there = graph.find_shortest_chain(a, b) or (a, b)
        back = graph.find_shortest_chain(b, a) or (b, a)
        loop = " -> ".join([*there, *back[1:]])
        out.append(f"import cycle among {', '.join(comp)}: {loop}")
    return out


def violations_in(checkout: Path) -> list[str]:
    """:func:`violations` for the ``app`` package of another checkout (in a child process)."""
    proc = subprocess.run(
        [sys.executable, __file__, "--json", str(checkout)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=checkout,
    )
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    found: list[str] = json.loads(proc.stdout)
    return found


# -- the tests ----------------------------------------------------------------------------------
def test_every_arrow_points_down_and_nothing_imports_in_a_circle():
    found = violations()
    assert found == [], "\n".join(found)


def test_the_check_finds_back_arrows_and_cycles(tmp_path):
    """A small package with one breach of every rule: each one is reported."""
    files = {
        "app/__init__.py": "",
        "app/domain/__init__.py": "",
        "app/domain/rules.py": "from app import config\n",
        "app/config.py": "",
        "app/store/__init__.py": "",
        "app/store/repo.py": "def later():\n    from app.store import fast\n",
        "app/store/fast.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.store import repo\n"
        ),
        "app/store/reader.py": "from app.service import helper\n",
        "app/providers/__init__.py": "",
        "app/providers/client.py": "from app.bootstrap import build\n",
        "app/bootstrap.py": "def build():\n    pass\n",
        "app/service/__init__.py": "",
        "app/service/helper.py": "from app.ui import widget\n",
        "app/ui/__init__.py": "",
        "app/ui/widget.py": "from app.store import reader\n",
        "app/ui/app.py": "def run():\n    from app.ui import window\n",
        "app/ui/window.py": "def settings():\n    from app.ui import app\n",
        "app/ui/panes/__init__.py": "",
        "app/ui/panes/pane.py": "from app.service import helper\nfrom app.ui import settings\n",
        "app/ui/panes/other.py": "from app.service import views\n\ndef later():\n"
        "    from app.ui import window\n",
        "app/ui/settings.py": "from app.domain import rules\n",
        "app/service/views.py": "",
        "app/cli.py": "def gui():\n    from app.ui import app\n",
        "app/cli_words.py": "from app.ui import settings\n",
        "app/cli_progress.py": "from app.present import words\n",
        "app/present/__init__.py": "",
        "app/present/words.py": "from app.present import said\n",
        "app/present/said.py": "def later():\n    from PySide6 import QtCore\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    found = "\n".join(violations_in(tmp_path))
    assert (
        "app.domain imports nothing from app outside app.domain: app.domain.rules -> app.config"
    ) in found
    assert "app.store.reader -> app.service.helper" in found
    assert "app.providers.client -> app.bootstrap" in found
    assert (
        "never import app.service, app.ui, app.cli, app.bootstrap: "
        "app.store.reader -> app.service.helper -> app.ui.widget"
    ) in found
    assert (
        "app.service never imports app.ui or app.cli: app.service.helper -> app.ui.widget"
    ) in found
    assert "app.ui never imports app.store: app.ui.widget -> app.store.reader" in found
    # cycles through function-level and TYPE_CHECKING imports
    assert "import cycle among app.store.fast, app.store.repo" in found
    assert (
        "import cycle among app.ui.app, app.ui.window: app.ui.app -> app.ui.window -> app.ui.app"
    ) in found
    # panes: the service itself and the window are out of bounds; public types and app.ui are not
    assert (
        "app.ui.panes import only app.ui, app.domain, app.present and the service's public types: "
        "app.ui.panes.pane -> app.service.helper"
    ) in found
    assert "app.ui.panes.pane -> app.ui.settings" not in found
    assert "app.ui.panes.other -> app.service.views" not in found
    assert (
        "app.ui.panes never import the window, the app or the controller: "
        "app.ui.panes.other -> app.ui.window"
    ) in found
    # the command line: app.ui only through the excepted `gui` import
    never = "the command line never imports app.ui: "
    assert never + "app.cli_words -> app.ui.settings" in found
    assert never + "app.cli -> app.ui" not in found
    assert "app.present imports no Qt (PySide6, shiboken6, app.ui.qt): " in found
    assert "app.present.said -> PySide6" in found
    # an exception whose import is gone is reported, not kept
    (tmp_path / "app/cli.py").write_text("")
    found = "\n".join(violations_in(tmp_path))
    assert "allowed import app.cli -> app.ui.app no longer exists" in found
    # a rule whose package the graph does not hold (no __init__.py) is reported, not passed
    (tmp_path / "app/ui/panes/__init__.py").unlink()
    found = "\n".join(violations_in(tmp_path))
    assert "app.ui.panes import only" in found and "no module of app.ui.panes" in found


if __name__ == "__main__":
    args = sys.argv[1:]
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    if args:
        sys.path.insert(0, str(Path(args[0]).resolve()))
    result = violations()
    if as_json:
        print(json.dumps(result))
    else:
        print("\n".join(result) or "no violations")
    raise SystemExit(1 if result else 0)
