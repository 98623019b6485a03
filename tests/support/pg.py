"""The PostgreSQL side of the test suite: one server per test session, one new database per test.

Under ``.ci/run`` the server is already running and ``SLATE_TEST_PG_URL`` (plus
``SLATE_TEST_PG_BIN``, ``SLATE_TEST_PG_DATA``, ``SLATE_TEST_PG_PORT``) say where. Without that
variable (a developer running the README's test command) the first test that needs PostgreSQL
starts a throwaway server from the local PostgreSQL binaries (``initdb`` into a temporary
directory, loopback only, ``fsync=off``; as the ``postgres`` user when running as root) and
stops it when the session ends. When there are no binaries the test FAILS with a message that
says what to install: the PostgreSQL half of the suite is never skipped silently.
"""

from __future__ import annotations

import atexit
import glob
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from sqlalchemy.engine import make_url

PG_ENV = "SLATE_TEST_PG_URL"


@dataclass
class PgServer:
    """Where the test server is, and how to control it (``bin``/``data`` may be unknown when
    ``SLATE_TEST_PG_URL`` points at a server the suite does not own)."""

    url: str  # SQLAlchemy URL of the maintenance database (postgres)
    bin: Path | None
    data: Path | None
    port: int
    self_started: bool = False
    root: Path | None = None

    def control(self) -> bool:
        return self.bin is not None and self.data is not None


_server: PgServer | None = None
_lock = threading.Lock()


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _as_pg(cmd: list[str]) -> list[str]:
    """Run PostgreSQL's tools as the ``postgres`` user when we are root (initdb refuses root)."""
    if _is_root():
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


def find_pg_bin() -> Path | None:
    """The newest local PostgreSQL server binaries (Debian layout first, then PATH)."""
    env = os.environ.get("SLATE_TEST_PG_BIN")
    candidates = [env] if env else []

    def version(p: str) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", p)) or (0,)

    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True)
    candidates += sorted(glob.glob("/usr/local/pgsql*/bin"), key=version, reverse=True)
    which = shutil.which("initdb") or shutil.which("pg_ctl")
    if which:
        candidates.append(str(Path(which).parent))
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            candidates.append(
                subprocess.run(
                    [pg_config, "--bindir"], capture_output=True, text=True, timeout=10
                ).stdout.strip()
            )
        except (OSError, subprocess.SubprocessError):
            pass
    for c in candidates:
        if c and (Path(c) / "initdb").exists() and (Path(c) / "pg_ctl").exists():
            return Path(c)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(cmd: list[str], what: str, timeout: float = 120) -> None:
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed ({proc.returncode}): {proc.stdout}\n{proc.stderr}")


def _start_own_server() -> PgServer:
    pg_bin = find_pg_bin()
    if pg_bin is None:
        pytest.fail(
            "PostgreSQL is needed for the store and service suites (they run on SQLite AND "
            "PostgreSQL) but no server binaries were found (looked for initdb/pg_ctl in "
            "$SLATE_TEST_PG_BIN, /usr/lib/postgresql/*/bin, PATH, pg_config --bindir). Install "
            "the Debian package `postgresql` (or run .ci/run, which does), or point "
            f"{PG_ENV} at a server where the user may CREATE DATABASE.",
            pytrace=False,
        )
    root = Path(tempfile.mkdtemp(prefix="slate-test-pg."))
    if _is_root():
        if subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
            _run(
                ["useradd", "--system", "--home-dir", "/var/lib/postgresql", "postgres"],
                "useradd postgres",
            )
        shutil.chown(root, user="postgres")
    data = root / "data"
    _run(
        _as_pg(
            [str(pg_bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "slate", "-E", "UTF8"]
        ),
        "initdb",
    )
    last_error: Exception | None = None
    for _ in range(5):  # the free port can be taken between the probe and the start
        port = _free_port()
        try:
            _run(
                _as_pg(
                    [
                        str(pg_bin / "pg_ctl"),
                        "-D",
                        str(data),
                        "-l",
                        str(root / "log"),
                        "-w",
                        "-t",
                        "60",
                        "-o",
                        f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
                        "-c max_connections=200",
                        "start",
                    ]
                ),
                "pg_ctl start",
            )
            break
        except RuntimeError as exc:
            last_error = exc
    else:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        pytest.fail(
            f"could not start the test PostgreSQL server: {last_error}\n{log}", pytrace=False
        )
    server = PgServer(
        url=f"postgresql+psycopg://slate@127.0.0.1:{port}/postgres",
        bin=pg_bin,
        data=data,
        port=port,
        self_started=True,
        root=root,
    )
    atexit.register(_stop_own_server, server)
    return server


def _stop_own_server(server: PgServer) -> None:
    assert server.bin is not None and server.data is not None
    subprocess.run(
        _as_pg(
            [str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "immediate", "-w", "stop"]
        ),
        capture_output=True,
        timeout=60,
    )
    if server.root is not None:
        shutil.rmtree(server.root, ignore_errors=True)


def server() -> PgServer:
    """The session's PostgreSQL server (started on first use when the environment has none)."""
    global _server
    with _lock:
        if _server is None:
            url = os.environ.get(PG_ENV)
            if url:
                pg_bin = os.environ.get("SLATE_TEST_PG_BIN")
                data = os.environ.get("SLATE_TEST_PG_DATA")
                port = os.environ.get("SLATE_TEST_PG_PORT") or make_url(url).port or 5432
                _server = PgServer(
                    url=url,
                    bin=Path(pg_bin) if pg_bin else None,
                    data=Path(data) if data else None,
                    port=int(port),
                )
            else:
                _server = _start_own_server()
        return _server


def _psycopg_dsn(sqlalchemy_url: str) -> str:
    """A libpq connection string for psycopg from a ``postgresql+psycopg://`` URL."""
    u = make_url(sqlalchemy_url)
    parts = {
        "host": u.host or "127.0.0.1",
        "port": u.port or 5432,
        "user": u.username or "",
        "dbname": u.database or "postgres",
    }
    if u.password:
        parts["password"] = u.password
    return " ".join(f"{k}='{v}'" for k, v in parts.items() if v != "")


def admin_execute(sql: str, url: str | None = None) -> None:
    """Run one statement in autocommit (CREATE/DROP DATABASE cannot run in a transaction)."""
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            with psycopg.connect(
                _psycopg_dsn(url or server().url), autocommit=True, connect_timeout=10
            ) as conn:
                conn.execute(sql)
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:  # e.g. a restart test left the server starting
                raise
            time.sleep(0.2)


#: One migrated template database per server and process (an xdist worker is a process): a
#: test that wants a migrated store gets a copy of it (CREATE DATABASE … TEMPLATE is a file copy,
#: much cheaper than running every migration again). The migrations themselves are tested from
#: empty databases (tests/integration/test_migrations.py and every ``fresh_database()``).
_templates: dict[str, str] = {}


def _url_of(base: str, name: str) -> str:
    return make_url(base).set(database=name).render_as_string(hide_password=False)


def _migrated_template(base: str) -> str:
    with _lock:
        name = _templates.get(base)
        if name is not None:
            return name
        from app.store.aio import open_store

        name = f"slate_template_{os.getpid()}_{secrets.token_hex(4)}"
        admin_execute(f'CREATE DATABASE "{name}"', base)
        store = open_store(_url_of(base, name))  # migrates to head
        store.close()
        store.repo.engine.dispose()  # no session may stay on a template while it is copied
        _templates[base] = name
        atexit.register(_drop_quietly, base, name)
        return name


def _drop_quietly(base: str, name: str) -> None:
    try:
        admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', base)
    except Exception:  # noqa: BLE001 - the server may be gone already at exit
        pass


#: Databases built once per server and process by ``database_from``, copied for each test.
_built: dict[tuple[str, str], str] = {}


@contextmanager
def database_from(key: str, build: Callable[[str], None]) -> Iterator[str]:
    """Yield the URL of a NEW database copied from one this process built once: ``build(url)``
    filled a migrated copy (it must close every connection it opened), which is then kept as a
    template under ``key``. A costly fill (a team's 100,000 slots) is made once per process, not
    once per test; each test still gets a database of its own. Dropped after."""
    base = server().url
    template = _built.get((base, key))
    if template is None:
        template = f"slate_built_{os.getpid()}_{secrets.token_hex(4)}"
        admin_execute(f'CREATE DATABASE "{template}" TEMPLATE "{_migrated_template(base)}"', base)
        atexit.register(_drop_quietly, base, template)
        build(_url_of(base, template))
        _built[(base, key)] = template
    name = f"slate_test_{secrets.token_hex(6)}"
    admin_execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"', base)
    try:
        yield _url_of(base, name)
    finally:
        admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', base)


@contextmanager
def fresh_database(*, migrated: bool = False) -> Iterator[str]:
    """Yield the SQLAlchemy URL of a NEW database on the test server; drop it after.

    Empty by default; ``migrated=True``: a copy of a database migrated to the newest revision
    (what opening an empty store would make of it, without running the migrations again)."""
    base = server().url
    name = f"slate_test_{secrets.token_hex(6)}"
    if migrated:
        template = _migrated_template(base)
        admin_execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"', base)
    else:
        admin_execute(f'CREATE DATABASE "{name}"', base)
    url = _url_of(base, name)
    try:
        yield url
    finally:
        admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', base)


#: Migrated databases the tests gave back, per server, each already made what a new copy of the
#: template is (:func:`reused_database`).
_pool: dict[str, list[str]] = {}
#: Per server: what a new copy of the migrated template holds (read from the first one).
_pristine: dict[str, "_Pristine"] = {}
_drop_pools_at_exit = False

#: Everything in a database a test could change besides its rows: tables, columns, indexes,
#: constraints, triggers, functions, views, sequences, schemas, extensions, the migration it is
#: at and the database's own settings. Equal to the template's, the rows are all that differ.
#: Read from pg_catalog, not information_schema's views: on the fresh session each reset opens,
#: those cost the server twice as much (28 ms against 13 ms, pg_stats included).
_SHAPE = """
SELECT md5(coalesce(string_agg(x, '|' ORDER BY x), '')) FROM (
  SELECT 'c:' || n.nspname || '.' || c.relname || '.' || a.attname || ':'
         || format_type(a.atttypid, a.atttypmod) || ':'
         || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ':' || a.attnotnull::text AS x
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
     AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast'
  UNION ALL SELECT 'i:' || pg_get_indexdef(i.indexrelid) FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast'
  UNION ALL SELECT 'k:' || k.conrelid::regclass::text || '.' || k.conname || ':'
         || pg_get_constraintdef(k.oid) FROM pg_constraint k
    JOIN pg_namespace n ON n.oid = k.connamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 't:' || tgrelid::regclass::text || '.' || tgname FROM pg_trigger
   WHERE NOT tgisinternal
  UNION ALL SELECT 'f:' || p.oid::regprocedure::text FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 'v:' || n.nspname || '.' || c.relname FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('v', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 's:' || n.nspname || '.' || c.relname FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'S'
  UNION ALL SELECT 'n:' || nspname FROM pg_namespace
  UNION ALL SELECT 'e:' || extname || ':' || extversion FROM pg_extension
  UNION ALL SELECT 'a:' || version_num FROM alembic_version
  UNION ALL SELECT 'd:' || array_to_string(setconfig, ',') FROM pg_db_role_setting
   WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
) shape
"""
#: Reasons a given-back database is dropped rather than reset: a transaction left prepared,
#: or statistics gathered (ANALYZE, or autovacuum after a large fill): a new copy has none, and
#: the planner would choose by them.
_LEFT_BEHIND = """
SELECT (SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database())
     + (SELECT count(*) FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname NOT IN ('pg_catalog', 'information_schema'))
"""


@dataclass(frozen=True)
class _Pristine:
    shape: str
    tables: tuple[str, ...]  # quoted, schema-qualified, each before those it refers to
    rows: tuple[tuple[str, bytes], ...]  # a table that has rows, and them as COPY writes them
    sequences: tuple[tuple[str, int | None, bool], ...]  # name, last value, is_called


def _read_pristine(conn: Any) -> _Pristine:
    from psycopg import sql

    shape = conn.execute(_SHAPE).fetchone()[0]
    names = conn.execute(
        "SELECT schemaname, tablename FROM pg_tables"
        " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        " AND tablename <> 'alembic_version' ORDER BY 1, 2"
    ).fetchall()
    # children before the tables they refer to: each DELETE then keeps every foreign key
    refers: dict[tuple[str, str], set[tuple[str, str]]] = {tuple(n): set() for n in names}
    for child_ns, child, parent_ns, parent in conn.execute(
        "SELECT cn.nspname, c.relname, pn.nspname, p.relname FROM pg_constraint k"
        " JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace"
        " JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = p.relnamespace"
        " WHERE k.contype = 'f'"
    ).fetchall():
        if (child_ns, child) != (parent_ns, parent) and (child_ns, child) in refers:
            refers[(parent_ns, parent)].add((child_ns, child))
    ordered: list[tuple[str, str]] = []
    while refers:
        free = sorted(t for t, children in refers.items() if not children - set(ordered))
        if not free:
            raise LookupError("foreign keys in a cycle")
        ordered += free
        for t in free:
            del refers[t]
    tables = tuple(sql.Identifier(a, b).as_string(conn) for a, b in ordered)
    rows = []
    with conn.cursor() as cur:
        for table in tables:
            with cur.copy(f"COPY {table} TO STDOUT") as copy:
                data = b"".join(bytes(chunk) for chunk in copy)
            if data:
                rows.append((table, data))
    sequences = tuple(
        (sql.Identifier(a, b).as_string(conn), last, last is not None)
        for a, b, last in conn.execute(
            "SELECT schemaname, sequencename, last_value FROM pg_sequences"
        ).fetchall()
    )
    return _Pristine(shape, tables, tuple(rows), sequences)


def _reset(base: str, name: str) -> str | None:
    """``name`` made what a new copy of the template is, under a new name (a process the test
    left behind cannot reach it by the old one), or None when it was dropped instead: a test
    that changed more than rows (a migration run down, a table added), left a transaction
    prepared, or a server that does not answer."""
    import psycopg

    new = f"slate_test_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(_psycopg_dsn(base), autocommit=True, connect_timeout=10) as admin:
            # every session on it ended (the test's, a stray process's, an autovacuum's)
            gone = (
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()"
            )
            deadline = time.monotonic() + 10
            while admin.execute(gone, (name,)).fetchone()[0]:  # type: ignore[index]
                if time.monotonic() > deadline:
                    raise TimeoutError(f"sessions stayed on {name}")
                time.sleep(0.005)
            admin.execute(f'ALTER DATABASE "{name}" RENAME TO "{new}"')
        with psycopg.connect(
            _psycopg_dsn(_url_of(base, new)), autocommit=True, connect_timeout=10
        ) as conn:
            was = _pristine[base]
            if conn.execute(_SHAPE).fetchone()[0] != was.shape:  # type: ignore[index]
                raise LookupError("its shape changed")
            if conn.execute(_LEFT_BEHIND).fetchone()[0]:  # type: ignore[index]
                raise LookupError("a prepared transaction or statistics left")
            with conn.transaction(), conn.cursor() as cur:
                # DELETE, not TRUNCATE: a few ms, where TRUNCATE's new files cost ~60 ms of
                # the server's CPU (the rows it leaves dead are nobody's to see)
                for table in was.tables:
                    cur.execute(f"DELETE FROM {table}")  # noqa: S608 - from the catalog
                for table, data in was.rows:
                    with cur.copy(f"COPY {table} FROM STDIN") as copy:
                        copy.write(data)
                for seq, last, called in was.sequences:
                    if last is None:
                        cur.execute(f"ALTER SEQUENCE {seq} RESTART")
                    else:
                        cur.execute("SELECT setval(%s, %s, %s)", (seq, last, called))
        return new
    except Exception:  # noqa: BLE001 - whatever it was, the database goes, as a new one would
        for gone_name in (name, new):
            try:
                admin_execute(f'DROP DATABASE IF EXISTS "{gone_name}" WITH (FORCE)', base)
            except Exception:  # noqa: BLE001 - the server may be gone (a test stopped it)
                pass
        return None


@contextmanager
def reused_database() -> Iterator[str]:
    """Yield the URL of a database no other test is using, holding exactly what a new copy of
    the migrated template holds (its rows, its sequences, its shape), like
    ``fresh_database(migrated=True)``; given back after the test and reset for the next one
    (:func:`_reset`) instead of dropped. Making and dropping a database costs the server
    ~0.2 s of CPU, paid by every PostgreSQL test; a reset ~0.05 s. A database a test changed
    beyond its rows is dropped, not reused."""
    import psycopg

    base = server().url
    with _lock:
        pool = _pool.setdefault(base, [])
        name = pool.pop() if pool else None
    if name is None:
        name = f"slate_test_{secrets.token_hex(6)}"
        admin_execute(f'CREATE DATABASE "{name}" TEMPLATE "{_migrated_template(base)}"', base)
        _register_drop_pools()
        if base not in _pristine:
            with psycopg.connect(
                _psycopg_dsn(_url_of(base, name)), autocommit=True, connect_timeout=10
            ) as conn:
                _pristine[base] = _read_pristine(conn)
    try:
        yield _url_of(base, name)
    finally:
        again = _reset(base, name)
        if again is not None:
            with _lock:
                _pool.setdefault(base, []).append(again)


def _register_drop_pools() -> None:
    """At exit, drop what the pools hold: registered once, after the server's own stop (atexit
    runs the last registered first, so the databases go while the server runs)."""
    global _drop_pools_at_exit
    with _lock:
        if _drop_pools_at_exit:
            return
        _drop_pools_at_exit = True
    atexit.register(_drop_pools)


def _drop_pools() -> None:
    """The databases left in the pools when the process ends (registered after the server's
    own stop, so it runs before it; a private server's pool went with it)."""
    with _lock:
        left = [(base, name) for base, names in _pool.items() for name in names]
        _pool.clear()
    for base, name in left:
        _drop_quietly(base, name)


@contextmanager
def private_server() -> Iterator[PgServer]:
    """A PostgreSQL server of this test's own, the session's server for the test's duration.

    For the tests that restart or stop the server: under xdist the session's server is shared
    by every worker, and restarting it would cut the connections of other workers' tests (a
    row-lock test, for one, then finds its lock gone). The test's own server can be restarted
    without touching anyone else."""
    global _server
    with _lock:
        shared = _server
    own = _start_own_server()
    with _lock:
        _server = own
    try:
        yield own
    finally:
        with _lock:
            _server = shared
            _templates.pop(own.url, None)
            _pool.pop(own.url, None)
            _pristine.pop(own.url, None)
        _stop_own_server(own)


def wait_ready(timeout: float = 60) -> None:
    """Block until the server accepts connections again."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(_psycopg_dsn(server().url), connect_timeout=5) as conn:
                conn.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def can_restart() -> bool:
    s = server()
    return s.control() and (not _is_root() or shutil.which("runuser") is not None)


def _pg_ctl(*args: str, timeout: float = 120) -> None:
    s = server()
    if not s.control():
        pytest.fail(
            f"this test restarts the PostgreSQL server, but {PG_ENV} names a server without "
            "SLATE_TEST_PG_BIN and SLATE_TEST_PG_DATA (run it under .ci/run, or unset "
            f"{PG_ENV} so the suite starts its own server)",
            pytrace=False,
        )
    assert s.bin is not None and s.data is not None
    # -l: the server's output must go to a file, never to our pipe (pg_ctl would hang us).
    log = s.data.parent / "restart.log"
    _run(
        _as_pg([str(s.bin / "pg_ctl"), "-D", str(s.data), "-l", str(log), "-w", "-t", "60", *args]),
        f"pg_ctl {' '.join(args)}",
        timeout=timeout,
    )


def restart_server(mode: str = "fast") -> None:
    """Restart the test server (``fast``: disconnect every client; ``immediate``: like a crash).

    Works under ``.ci/run`` (its data dir and binaries are exported) and for the server this
    module started. The server keeps its port and options (pg_ctl reuses postmaster.opts)."""
    _pg_ctl("-m", mode, "restart")
    wait_ready()


def stop_server(mode: str = "fast") -> None:
    _pg_ctl("-m", mode, "stop")


def start_server() -> None:
    """Start the server again after :func:`stop_server` (same port and options)."""
    s = server()
    assert s.data is not None
    opts = (s.data / "postmaster.opts").read_text().split(None, 1)
    # postmaster.opts is `<postgres binary> "-p" "port" ...`: hand the options back to pg_ctl.
    o = opts[1].strip() if len(opts) > 1 else ""
    _pg_ctl("-o", o.replace('"', ""), "start")
    wait_ready()
