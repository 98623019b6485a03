"""What `slate` imports before its first window is shown (issue 22's guard), counted instead of
timed: a real `slate gui` process with no API key (the embedded demo provider) on a data dir
made by an earlier start, snapshotting ``sys.modules`` at the main window's
first Show event. A module outside the allow-lists fails the test, naming it: a feature that
puts an import on the start-up path has to add it here and say why — or import it where it is
used.

The window's own modules (``app.ui.app``, ``app.ui.window``, ``app.ui.controller``) import no
SQLAlchemy, no ``app.store`` and no ``app.bootstrap`` (issue 34: paint first, load after); a
fresh process checks it and names what got in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

DRIVER = r"""
import json, sys
from app.ui.app import make_app
from app.ui.qt import QEvent, QObject

snap = {}


class FirstShow(QObject):
    def eventFilter(self, obj, ev):
        if not snap and ev.type() == QEvent.Type.Show and type(obj).__name__ == "MainWindow":
            snap["modules"] = sorted(sys.modules)
        return False


if __name__ == "__main__":
    app = make_app()
    spy = FirstShow()
    app.installEventFilter(spy)
    import app.cli

    rc = app.cli.main(["gui", "--screenshot", sys.argv[1]])
    with open(sys.argv[2], "w") as f:
        json.dump({"rc": rc, "modules": snap.get("modules")}, f)
"""

#: Third-party packages the first window needs: Qt and its loop, the store, the provider's
#: HTTP client, the key lookup (keyring and the backends it probes), the data dir, the owner's
#: process identity.
THIRD_PARTY = {
    "PySide6", "shiboken6", "shibokensupport", "signature_bootstrap", "__feature__", "qasync",
    "sqlalchemy", "typing_extensions",
    "httpx", "httpcore", "h11", "anyio", "sniffio", "idna", "certifi",
    "keyring", "jaraco", "importlib_metadata", "lazy_importer", "zipp", "more_itertools",
    "backports",
    "jeepney", "secretstorage", "cryptography", "_cffi_backend", "_openssl",
    "platformdirs", "psutil",
}  # fmt: skip
#: Never before the first window: media decoding, migrations (a migrated store is checked by
#: its revision, not by Alembic), the other store's driver, the bundler, the shot-list format.
NEVER = {"av", "PIL", "alembic", "psycopg", "psycopg_binary", "PyInstaller", "numpy", "yaml"}
#: Parts of an allowed package never before the first window on SQLite: the ORM (the store runs
#: Core statements on Core tables) and the PostgreSQL dialect — about 0.15 s of start-up.
NEVER_PARTS = ("sqlalchemy.orm", "sqlalchemy.dialects.postgresql")
#: Slate's own modules that load on first use, after the first paint (issue 34): the dialogs and
#: lightboxes a click opens, and shot lists (the service's batches, the templates).
LATER = {
    "app.ui.compare", "app.ui.dialogs", "app.ui.lookup", "app.ui.shotlist", "app.ui.spend",
    "app.ui.twin", "app.ui.viewer",
    "app.domain.shotlist", "app.domain.templates", "app.service.batch",
}  # fmt: skip

#: Slate's own modules before the first window, by package. The window's panes and dialogs are
#: built with it; the demo provider runs in-process on a first run with no key.
APP = {
    "app": {
        "bootstrap", "cli", "cli_help", "config", "files", "logs", "preflight", "scrub",
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
    "app.providers": {
        "base", "codes", "demo", "h3image", "http", "minimax", "minimax_v2", "sound",
        "voice",  # voice design and get_voice on the wire (the provider's methods)
    },
    "app.service": {
        "cancel", "commands", "context", "derived", "h3image", "inputs", "journal",
        "lease", "lifecycle", "media", "owner", "prices", "ratelimit", "reads", "recover",
        "results", "secrets", "slate", "spend", "submit", "tidy", "transitions", "views",
        "sound", "sound_media",
        "picks", "pick_results",  # SlateService.pick and boards
        "voice",  # voice slots in the sound paths (submit, download, recover)
        "preview",  # SlateService.preview_voice / preview_price (the form's Hear button)
        "trouble",  # the controller's runner types its errors with it (f3f5737)
    },
    "app.sim": {
        "cli", "config", "extras", "h3extras", "h3image", "media", "probe", "rules", "server",
        "sound",
        "store", "v2api", "v2rules", "wire",
        "billing",  # the demo provider's own ledger of what it made and charged
        "voice",  # the demo provider's voice design (routed by its sound endpoints)
    },
    "app.store": {
        "aio", "engine", "gallery", "migrate", "models", "queries", "repository", "rows",
        "spend", "sqlite_claim", "statements",
        "picks",  # the pick, rating and board filters of the browser's reads
        "user_prices",  # the designer's own prices: the form prices a draft with them
        "text_search",  # the text filter's index (FTS5/pg_trgm): the browser's reads use it
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


def _first_window_modules(tmp_path: Path) -> list[str]:
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
    driver = tmp_path / "first_window.py"
    driver.write_text(DRIVER)
    out = tmp_path / "modules.json"
    proc = subprocess.run(
        [sys.executable, str(driver), str(tmp_path / "shot.png"), str(out)],
        env=env,
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
    return list(got["modules"])


def _new(modules: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(never-needed packages and later modules, new third-party packages, new app modules) in
    ``modules``."""
    tops = {m.split(".")[0] for m in modules}
    std = set(sys.stdlib_module_names) | {"app", "tests"}  # tests: the in-memory keyring
    parts = {p for p in NEVER_PARTS for m in modules if m == p or m.startswith(p + ".")}
    never = sorted(tops & NEVER | LATER.intersection(modules) | parts)
    third = sorted(
        t
        for t in tops - std - THIRD_PARTY - NEVER
        if not t.startswith("_") and not t.startswith("cython_")  # interpreter and loaders
    )
    ours = [m for m in modules if m.startswith("app.") and m not in APP and m not in LATER]
    new = sorted(m for m in ours if m.rsplit(".", 1)[1] not in APP.get(m.rsplit(".", 1)[0], ()))
    return never, third, new


def test_the_first_window_imports_only_the_allowed_modules(tmp_path: Path) -> None:
    first = _first_window_modules(tmp_path)  # the very first run creates and migrates the store
    assert "alembic" in {m.split(".")[0] for m in first}
    modules = _first_window_modules(tmp_path)  # every later start: the store is at its head
    assert "app.ui.window" in modules and "sqlalchemy" in modules  # the snapshot is the window's
    never, third, new = _new(modules)
    assert not never, f"imported before the first window, not needed there: {never}"
    assert not third, f"third-party packages new on the start-up path: {third}"
    assert not new, (
        f"new on the start-up path (add it to APP with the reason, or import it where used): {new}"
    )


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
    proc = subprocess.run(
        [sys.executable, "-c", LEAN],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    modules = json.loads(proc.stdout.splitlines()[-1])
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
        + ["sqlalchemy", "sqlalchemy.orm.mapper", "sqlalchemy.dialects.sqlite"]
    )
    assert (never, third, new) == (
        ["app.ui.shotlist", "av", "sqlalchemy.orm"],
        ["requests"],
        ["app.ui.newpane"],
    )
