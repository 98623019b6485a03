"""``slate doctor``: what Slate finds on this machine, as one JSON object (or a short text).

It only looks: it creates no data dir, store, log file or keyring entry, starts no provider and
sends nothing over the network (a PostgreSQL store is connected to, as every command does).
Each section reports facts; what stops Slate from working is listed in ``problems`` (exit 2,
like any bad configuration), what the user may want to know in ``notes`` (exit 0).
The API key is never part of the report: only whether there is one and where it comes from.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app import __version__, preflight
from app.config import DEFAULT_BASE_URL, Config

EXIT_OK = 0
EXIT_PROBLEM = 2  # DESIGN.md: 2 is invalid input or bad configuration
MIN_FREE_BYTES = 256 * 1024 * 1024
KNOWN_HOSTS = {"api.minimax.io": "global", "api.minimaxi.com": "cn"}


class Report:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.notes: list[str] = []


def qt_section(report: Report, environ: dict[str, str]) -> dict[str, Any]:
    found = preflight.check(environ)
    out = found.to_json()
    culprit = found.culprit
    if not found.ok and (culprit.plugin is None or culprit.missing_libraries):
        report.problems.append((found.sentence() or "").removeprefix("slate: "))
    elif not found.ok:
        report.notes.append(
            f"the desktop app cannot open a window here ({culprit.display_error}); "
            "the command line works without one"
        )
    elif not out["shows_window"]:
        report.notes.append(
            f"QT_QPA_PLATFORM={out['platform']}: the desktop app runs without a window"
        )
    return out


def keyring_section(report: Report) -> dict[str, Any]:
    import keyring

    from app.service import secrets

    try:
        backend = keyring.get_keyring()
        name = f"{type(backend).__module__}.{type(backend).__qualname__}"
    except Exception as exc:  # noqa: BLE001 - a broken keyring is a finding, not a crash
        name = f"unavailable ({type(exc).__name__})"
    usable = secrets.keyring_usable()
    if not usable:
        report.notes.append(
            f"no usable OS keyring: the API key comes only from {secrets.ENV_API_KEY}, "
            "and the handle-signing secret is kept in a file only you can read (0600)"
        )
    return {"backend": name, "usable": usable}


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL at all: say nothing of its contents
        return "(not a database URL)"


def _scrub(text: str, url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        password = make_url(url).password
    except Exception:  # noqa: BLE001
        password = None
    return text.replace(str(password), "***") if password else text


def store_section(report: Report, config: Config) -> dict[str, Any]:
    from sqlalchemy.engine import make_url

    from app.store.migrate import HEAD_REVISION

    out: dict[str, Any] = {
        "url": _redacted(config.store),
        "backend": None,
        "reachable": False,
        "revision": None,
        "head": HEAD_REVISION,
        "up_to_date": False,
        "duplicate_slots": None,
        "error": None,
    }
    try:
        url = make_url(config.store)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy raises ArgumentError on junk
        out["error"] = f"not a database URL ({type(exc).__name__})"
        report.problems.append(f"store: {out['error']}")
        return out
    backend = url.get_backend_name()
    out["backend"] = backend
    try:
        if backend == "sqlite":
            _sqlite_store(report, out, url.database)
        else:
            _server_store(out, config.store)
    except Exception as exc:  # noqa: BLE001 - unreachable is a finding
        out["reachable"] = False
        out["error"] = _scrub(f"{type(exc).__name__}: {exc}".strip(), config.store).splitlines()[0]
    if out["error"]:
        report.problems.append(f"store {out['url']}: {out['error']}")
    elif out["revision"] is not None:
        out["up_to_date"] = out["revision"] == HEAD_REVISION
        if not out["up_to_date"]:
            report.notes.append(
                f"the store is at revision {out['revision']}; Slate migrates it to "
                f"{HEAD_REVISION} when it next opens it"
            )
    if out["duplicate_slots"]:
        report.notes.append(
            f"the store holds {out['duplicate_slots']} slot(s) with more than one task, made "
            "before it enforced one task per slot; each may have been paid and all are kept: "
            "`slate status RID` and `slate history RID` show them (event duplicate_slot)"
        )
    return out


#: Slots holding more than one task (any revision: grouped, not by ``slot_copy``).
DUPLICATE_SLOTS_SQL = (
    "SELECT count(*) FROM (SELECT 1 FROM tasks GROUP BY tenant, slot_key, provider, endpoint "
    "HAVING count(*) > 1) AS crowded"
)


def _sqlite_store(report: Report, out: dict[str, Any], database: str | None) -> None:
    from app.store.engine import filesystem_refusal, unsupported_filesystem

    if not database or database == ":memory:":
        out.update(path=None, exists=False, reachable=True)
        return
    path = Path(database)
    out.update(path=str(path), exists=path.is_file())
    fs = unsupported_filesystem(path) if path.parent.exists() else None
    if fs:
        out["error"] = filesystem_refusal(path, fs)
        return
    if not path.exists():
        folder = _nearest_existing(path.parent)
        out["reachable"] = os.access(folder, os.W_OK | os.X_OK)
        if out["reachable"]:
            report.notes.append("the store does not exist yet: Slate creates it on first use")
        else:
            out["error"] = f"cannot create {path}: {folder} is not writable"
        return
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "alembic_version" in tables:
            out["revision"] = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        if "tasks" in tables:
            out["duplicate_slots"] = conn.execute(DUPLICATE_SLOTS_SQL).fetchone()[0]
    finally:
        conn.close()
    out["reachable"] = True


def _server_store(out: dict[str, Any], url: str) -> None:
    from sqlalchemy import create_engine, inspect, text

    from app.store.migrate import current_revision

    args = {"connect_timeout": 5} if out["backend"] == "postgresql" else {}
    engine = create_engine(url, connect_args=args)
    try:
        out["revision"] = current_revision(engine)
        out["reachable"] = True
        with engine.connect() as conn:
            if inspect(conn).has_table("tasks"):
                out["duplicate_slots"] = conn.execute(text(DUPLICATE_SLOTS_SQL)).scalar()
    finally:
        engine.dispose()


def provider_section(report: Report, config: Config) -> dict[str, Any]:
    from app.providers.minimax import endpoint_for, is_loopback_host
    from app.service import secrets

    key, source = secrets.api_key()
    name = config.provider or ("minimax" if key else "demo")
    chosen_by = (
        "--provider / SLATE_PROVIDER"
        if config.provider
        else "an API key is present"
        if key
        else "no API key: the demo provider"
    )
    base_url = config.base_url or (DEFAULT_BASE_URL if name == "minimax" else None)
    out: dict[str, Any] = {
        "name": name,
        "chosen_by": chosen_by,
        "key": {"present": bool(key), "source": source},
        "base_url": base_url,
        "host": None,
        "region": None,
    }
    if name == "minimax" and not key:
        report.problems.append(
            f"provider minimax needs an API key: set {secrets.ENV_API_KEY} or run "
            "`slate key set` (or use --provider demo)"
        )
    if base_url is None:
        out["region"] = "local"
        out["embedded_demo"] = True
        return out
    parts = urlsplit(base_url)
    host = (parts.hostname or "").lower()
    out["host"] = host or None
    if parts.scheme not in ("http", "https") or not host:
        report.problems.append(f"base URL {base_url!r} is not an http(s) URL")
        return out
    if parts.scheme == "http" and not is_loopback_host(host):
        report.problems.append(
            f"base URL {base_url!r} uses plain http: only https is allowed "
            "(plain http only to loopback)"
        )
    out["region"] = endpoint_for(base_url)
    if name == "minimax":
        if host in KNOWN_HOSTS:
            other = next(h for h in KNOWN_HOSTS if h != host)
            report.notes.append(
                f"MiniMax {KNOWN_HOSTS[host]} host {host}: an API key works only on "
                f"the host of the platform that issued it (not on {other})"
            )
        elif out["region"] != "local":
            report.notes.append(
                f"{host} is not a MiniMax host (api.minimax.io or api.minimaxi.com)"
            )
    return out


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def data_dir_section(report: Report, config: Config) -> dict[str, Any]:
    path = config.data_dir
    out: dict[str, Any] = {
        "path": str(path),
        "exists": path.exists(),
        "mode": None,
        "owner_only": None,
        "owned_by_you": None,
        "writable": None,
    }
    if not path.exists():
        parent = _nearest_existing(path.parent)
        out["writable"] = os.access(parent, os.W_OK | os.X_OK)
        if not out["writable"]:
            report.problems.append(f"data dir {path} does not exist and {parent} is not writable")
        return out
    if not path.is_dir():
        report.problems.append(f"data dir {path} is not a folder")
        return out
    st = path.stat()
    mode = stat.S_IMODE(st.st_mode)
    out.update(
        mode=f"{mode:04o}",
        owner_only=not mode & 0o077,
        owned_by_you=st.st_uid == os.getuid(),
        writable=os.access(path, os.W_OK | os.X_OK),
    )
    if not out["writable"]:
        report.problems.append(f"data dir {path} is not writable")
    if not out["owned_by_you"]:
        report.notes.append(f"data dir {path} belongs to another user (uid {st.st_uid})")
    if not out["owner_only"]:
        report.notes.append(
            f"others can read data dir {path} (mode {mode:04o}): its media and "
            f"history are yours alone after `chmod 700 {path}`"
        )
    return out


def disk_section(report: Report, config: Config) -> dict[str, Any]:
    where = _nearest_existing(config.data_dir)
    usage = shutil.disk_usage(where)
    out = {
        "path": str(where),
        "free_bytes": usage.free,
        "total_bytes": usage.total,
        "enough": usage.free >= MIN_FREE_BYTES,
    }
    if not out["enough"]:
        report.problems.append(
            f"only {usage.free // (1024 * 1024)} MB free on {where}: Slate needs "
            f"at least {MIN_FREE_BYTES // (1024 * 1024)} MB for media"
        )
    return out


def diagnose(config: Config, environ: dict[str, str] | None = None) -> dict[str, Any]:
    """The whole report, shaped like every answer of the command line."""
    env = dict(os.environ if environ is None else environ)
    report = Report()
    sections = {
        "version": __version__,
        "qt": qt_section(report, env),
        "keyring": keyring_section(report),
        "store": store_section(report, config),
        "provider": provider_section(report, config),
        "data_dir": data_dir_section(report, config),
        "disk": disk_section(report, config),
    }
    ok = not report.problems
    return {
        "outcome": "ok" if ok else "invalid",
        "request_id": None,
        "task": None,
        "error": None
        if ok
        else {"code": "bad_configuration", "message": "; ".join(report.problems)},
        **sections,
        "problems": report.problems,
        "notes": report.notes,
    }


def _human(result: dict[str, Any]) -> str:
    def mark(good: bool | None) -> str:
        return "ok " if good else "-- " if good is None else "NO "

    qt, st, pv, dd, dk = (result[k] for k in ("qt", "store", "provider", "data_dir", "disk"))
    lines = [
        f"slate {result['version']}",
        f"{mark(qt['ok'])} Qt platform {qt['platform']} ({qt['source']})",
        f"{mark(result['keyring']['usable'])} keyring {result['keyring']['backend']}",
        f"{mark(st['reachable'] and not st['error'])} store {st['url']} ({st['backend']}, "
        f"revision {st['revision'] or '—'})",
        f"{mark(pv['name'] != 'minimax' or pv['key']['present'])} provider {pv['name']}, key "
        f"{pv['key']['source']}, {pv['base_url'] or 'embedded demo'} ({pv['region']})",
        f"{mark(dd['writable'])} data dir {dd['path']} (mode {dd['mode'] or '—'})",
        f"{mark(dk['enough'])} {dk['free_bytes'] // (1024 * 1024)} MB free on {dk['path']}",
    ]
    lines += [f"problem: {p}" for p in result["problems"]]
    lines += [f"note: {n}" for n in result["notes"]]
    return "\n".join(lines)


def main(config: Config, as_json: bool) -> int:
    result = diagnose(config)
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(_human(result) + "\n")
    sys.stdout.flush()
    return EXIT_OK if result["outcome"] == "ok" else EXIT_PROBLEM
