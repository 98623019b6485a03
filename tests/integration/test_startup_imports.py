"""What `slate` imports before its first window is shown (issue 22's guard), counted instead of
timed: a real `slate gui` process with no API key (the embedded demo provider) on a data dir
made by an earlier start, snapshotting ``sys.modules`` at the main window's
first Show event. A module outside the allow-lists fails the test, naming it: a feature that
puts an import on the start-up path has to add it here and say why — or import it where it is
used.

Paint first, load after (issue 34): the window is shown, and its first rows are in, before the
service is built — no SQLAlchemy, no store, no HTTP client, no demo provider yet (the first page
is read from the store's file by ``app.store.first_page``). The window's own modules
(``app.ui.app``, ``app.ui.window``, ``app.ui.controller``) import none of them either; a fresh
process checks it and names what got in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

DRIVER = r"""
import gc, json, sys
from app.ui.app import make_app
from app.ui.qt import QEvent, QObject

snap = {}
seen = []


class FirstShow(QObject):
    def eventFilter(self, obj, ev):
        if not snap and ev.type() == QEvent.Type.Show and type(obj).__name__ == "MainWindow":
            snap["modules"] = sorted(sys.modules)
            snap["form_at_show"] = obj.slot_pane._form is not None
            snap["finished_at_show"] = obj.slot_pane._finished is not None
            seen.append(obj)
            if obj.model.rowCount() > 0:  # in before the first paint (read ahead from the file)
                snap["rows"] = snap["modules"]
            else:
                obj.model.rowsInserted.connect(rows)
        return False


def rows(parent, *_):
    if not parent.isValid() and "rows" not in snap:
        snap["rows"] = sorted(sys.modules)


if __name__ == "__main__":
    app = make_app()
    spy = FirstShow()
    app.installEventFilter(spy)
    import app.cli

    rc = app.cli.main(["gui", "--screenshot", sys.argv[1]])
    window = seen[0] if seen else None
    made = {  # the create form, the results view and the first draft, after the first paint
        "form_at_show": snap.get("form_at_show"),
        "finished_at_show": snap.get("finished_at_show"),
        "form": window is not None and window.slot_pane._form is not None,
        "finished": window is not None and window.slot_pane._finished is not None,
        "draft": window is not None and window.slot.draft is not None,
        # out of the cycle collector's way once the start is done (gc.freeze): not walked by it
        "frozen": window is not None and all(o is not window.__dict__ for o in gc.get_objects()),
    }
    with open(sys.argv[2], "w") as f:
        json.dump({"rc": rc, "modules": snap.get("modules"), "rows": snap.get("rows"), **made}, f)
"""

#: One slot in the data dir, written by the service in another process (before the second start).
SEED = r"""
import asyncio
from app.bootstrap import build
from app.config import load
from tests.gui.bulk import insert_slot

slate = build(load())
insert_slot(slate.service, "article:20261205:first-window:scene-01", "success", kind="image")
asyncio.run(slate.aclose())
"""

#: Third-party packages the first window needs: Qt and its loop, the data dir.
THIRD_PARTY = {
    "PySide6", "shiboken6", "shibokensupport", "signature_bootstrap", "__feature__", "qasync",
    "platformdirs",
}  # fmt: skip
#: Never before the first window: the store (SQLAlchemy, its migrations, the other store's
#: driver), the provider's HTTP client and the key lookup come after the first paint (issue 34),
#: media decoding on first use, the bundler and the shot-list format never.
NEVER = {
    "sqlalchemy", "alembic", "psycopg", "psycopg_binary", "httpx", "httpcore", "psutil",
    "keyring",  # the key is looked up after the first paint (the last start's answer till then)
    "av", "PIL", "PyInstaller", "numpy", "yaml",
}  # fmt: skip
#: Modules that load on first use, after the first paint (issue 34): the dialogs and lightboxes
#: a click opens, shot lists (the service's batches, the templates), Qt's media players.
LATER = {
    "app.ui.compare", "app.ui.dialogs", "app.ui.lookup", "app.ui.shotlist", "app.ui.spend",
    "app.ui.twin", "app.ui.viewer",
    "app.domain.shotlist", "app.domain.templates", "app.service.batch",
    # Qt's players load when a video or a sound is first shown; the price file with the service
    "PySide6.QtMultimedia", "PySide6.QtMultimediaWidgets", "tomllib",
    # the thumbnail workers start after the window; the .ts files are read by words said
    # outside widgets (the window's own words come from Qt's translator)
    "multiprocessing", "concurrent.futures.process", "xml.etree.ElementTree",
}  # fmt: skip

#: Slate's own modules before the first window, by package. The window's panes and dialogs are
#: built with it; the demo provider runs in-process on a first run with no key.
APP = {
    "app": {
        "cli", "cli_help", "config", "files", "logs", "preflight", "scrub",
        "resources",
        "start_warnings",  # a start's warning codes, out of app.bootstrap (issue 34)
    },
    "app.domain": {
        "capabilities", "cost", "days", "derived", "enhance", "errors", "fingerprint",
        "handles", "lookup", "naming", "numbers", "params", "params_h3image", "params_v2",
        "prices", "protocols", "slots", "states", "tidy",
        "drafts", "params_sound",
        "picks",  # the marks' rules: the browser's and the gallery's pick filters
        "hosts",
        "params_voice",  # a voice design's rules: params.normalize knows every kind
        "preview",  # a voice preview's RequestId and words: SlateService.preview_voice
        "listing",  # the browser's and gallery's rows, out of app.store.rows/gallery (issue 34)
    },
    "app.providers": {"base", "codes"},  # the reasons the runner types failures with
    "app.service": {
        "commands", "inputs", "results", "views",
        "pick_results",  # a result's marks, as the panes show them
        "trouble",  # the controller's runner types its errors with it (f3f5737)
        "early",  # the window's start before its service is built (issue 34)
    },
    "app.sim": {"cli", "config"},  # `slate sim`'s options, in the one argument parser
    "app.store": {
        "first_page",  # the browser's first page, read from the file (issue 34)
    },
    "app.ui": {
        "app", "assets", "chain", "controller", "current", "flow", "form",
        "gallery", "inputs", "media", "models", "notify", "panes", "progress", "qt",
        "settings", "style", "unusable", "widgets", "window",
        "draft",
        "form_h3image", "enhance",  # parts of the create form (H3-Image rows, Enhance prompt)
        "dragout",  # results drag out of the slot pane, the gallery and the viewer
        "picks",  # the marks on results and the pick filters, in the browser at start
        "language",  # install_translations, out of app.ui.app (the window switches it too)
        "form_sound", "sound_view",  # the form's Music and Voice, the panes' sound view
    },
    # the words both faces say, out of app.ui (issue 36): the window's panes say them too
    "app.present": {"noop", "progress", "said", "translations", "words"},
    "app.ui.gallery": {"decode", "model", "pane", "thumbs"},
    "app.ui.panes": {
        "actions", "banner", "browser", "finished", "queue", "result", "slot", "status",
        "toolbar", "welcome",
        "tidy",  # the slot's Tidy up menu and "media removed here"
        "running",  # a running slot's frame of its result to come (the slot pane, 70f3bda)
    },
}  # fmt: skip


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLATE_", "MINIMAX_"))}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=str(ROOT),  # this checkout's app, whatever the environment has installed
        SLATE_DATA_DIR=str(tmp_path / "data"),
        SLATE_TEST_KEYRING_FILE=str(tmp_path / "keyring.json"),
        HOME=str(tmp_path / "home"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )
    return env


def _first_window_modules(tmp_path: Path) -> tuple[list[str], list[str] | None]:
    """The modules loaded when the main window was first shown, and when its first rows were
    in (None: no rows). Checks on the way that the create form and a stored slot's results
    view were made after the first Show, with the first draft (paint first, issue 34), and that
    what the start made is frozen once it is done (out of every later full collection)."""
    driver = tmp_path / "first_window.py"
    driver.write_text(DRIVER)
    out = tmp_path / "modules.json"
    proc = subprocess.run(
        [sys.executable, str(driver), str(tmp_path / "shot.png"), str(out)],
        env=_env(tmp_path),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert proc.returncode == 0 and out.exists(), proc.stderr[-3000:]
    got = json.loads(out.read_text())
    assert got["rc"] == 0, proc.stderr[-3000:]
    assert got["modules"], "the main window was never shown"
    assert got["form_at_show"] is False, "the create form was made before the first paint"
    assert got["form"] and got["draft"], "no create form or first draft after the start"
    assert got["finished_at_show"] is False, "the results view was made before the first paint"
    assert got["finished"], "no results view after the start"
    assert got["frozen"], (
        "the window made at the start is still walked by every full collection "
        "(app.ui.app.freeze_started: gc.freeze once the start is done)"
    )
    return list(got["modules"]), got["rows"]


def _new(modules: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(never-needed packages and later modules, new third-party packages, new app modules) in
    ``modules``."""
    tops = {m.split(".")[0] for m in modules}
    std = set(sys.stdlib_module_names) | {"app", "tests"}  # tests: the in-memory keyring
    never = sorted(tops & NEVER | LATER.intersection(modules))
    third = sorted(
        t
        for t in tops - std - THIRD_PARTY - NEVER
        if not t.startswith("_") and not t.startswith("cython_")  # interpreter and loaders
    )
    ours = [m for m in modules if m.startswith("app.") and m not in APP and m not in LATER]
    new = sorted(m for m in ours if m.rsplit(".", 1)[1] not in APP.get(m.rsplit(".", 1)[0], ()))
    return never, third, new


def _python(code: str, env: dict[str, str]) -> str:
    """``python -c code`` in a fresh process from the checkout; its standard output."""
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _seed(tmp_path: Path) -> None:
    """One slot in the data dir the driver starts on (the service, in another process)."""
    _python(SEED, _env(tmp_path))


def test_the_first_window_imports_only_the_allowed_modules(tmp_path: Path) -> None:
    first, _ = _first_window_modules(tmp_path)  # the very first start: no store yet
    _seed(tmp_path)
    modules, rows = _first_window_modules(tmp_path)  # a later start: a store with a slot
    assert "app.ui.window" in modules  # the snapshot is the window's
    for seen in (first, modules):
        never, third, new = _new(seen)
        assert not never, f"imported before the first window, not needed there: {never}"
        assert not third, f"third-party packages new on the start-up path: {third}"
        assert not new, (
            f"new on the start-up path (add it to APP with the reason, or import it where used): "
            f"{new}"
        )
    # the first rows are painted from the file, before the store and the provider are loaded
    assert rows, "no rows were shown from the store's one slot"
    assert "app.store.first_page" in rows
    early = _new(rows)[0]
    assert not early, f"loaded before the first rows (paint first, load after): {early}"


#: What the window's own modules must not load at import (issue 34, paint first): the store,
#: its SQLAlchemy and the composition root that opens them come after the first paint.
STORE_SIDE = ("sqlalchemy", "app.store", "app.bootstrap")

LEAN = r"""
import json, sys
import app.ui.app, app.ui.window, app.ui.controller

print(json.dumps(sorted(sys.modules)))
"""


def _store_side(modules: list[str]) -> list[str]:
    """The modules of :data:`STORE_SIDE` in ``modules``: Slate's by name, a third-party package
    by its top-level name."""
    got = {
        m if m.startswith("app.") else m.split(".")[0]
        for m in modules
        if any(m == s or m.startswith(s + ".") for s in STORE_SIDE)
    }
    return sorted(got)


def test_the_window_modules_import_no_store() -> None:
    """``import app.ui.app, app.ui.window, app.ui.controller`` in a fresh process loads no
    SQLAlchemy, no ``app.store`` and no ``app.bootstrap``: what the UI needs of them at import
    is plain types and constants; the service and the store are imported where they are used."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    modules = json.loads(_python(LEAN, env).splitlines()[-1])
    assert "app.ui.window" in modules and "app.ui.controller" in modules
    got = _store_side(modules)
    assert not got, f"the window's modules load the store side at import: {got}"


def test_the_store_guard_names_what_got_in() -> None:
    got = _store_side(
        ["sqlalchemy", "sqlalchemy.orm", "app.store", "app.store.aio", "app.bootstrap"]
        + ["app.storehouse", "app.ui.window", "sqlalchemy_utils"]
    )
    assert got == ["app.bootstrap", "app.store", "app.store.aio", "sqlalchemy"]


def test_the_guard_names_what_is_new() -> None:
    never, third, new = _new(
        ["app.ui.window", "app.ui.newpane", "app.ui.shotlist", "av.container", "requests"]
        + ["sqlalchemy", "sqlalchemy.orm.mapper", "httpx", "app.store.first_page"]
    )
    assert (never, third, new) == (
        ["app.ui.shotlist", "av", "httpx", "sqlalchemy"],
        ["requests"],
        ["app.ui.newpane"],
    )
