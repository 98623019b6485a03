"""A SQLite store lives only on a known local file system: an allow-list, not a denylist.

Issue 15: vboxsf, virtiofs, ceph, glusterfs, fuse.rclone, fuse.s3fs, davfs, lustre, ocfs2 and
more passed the old denylist. The mounts table is injectable: these tests hand Slate their own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.domain.errors import ValidationError
from app.store import engine as engine_mod
from app.store.engine import LOCAL_FILESYSTEMS, make_engine, store_filesystem

REFUSED = [
    "vboxsf",
    "virtiofs",
    "ceph",
    "glusterfs",
    "fuse.rclone",
    "fuse.s3fs",
    "fuse.sshfs",
    "fuseblk",
    "davfs",
    "lustre",
    "ocfs2",
    "nfs",
    "nfs4",
    "cifs",
    "smb3",
    "9p",
    "afs",
    "gpfs",
    "beegfs",
    "weirdfs-from-the-future",
]
ALLOWED = [
    "ext4",
    "ext3",
    "ext2",
    "xfs",
    "btrfs",
    "zfs",
    "f2fs",
    "tmpfs",
    "overlay",
    "apfs",
    "hfsplus",
]


def mounts(tmp_path: Path, fstype: str, where: Path) -> Path:
    table = tmp_path / "mounts"
    table.write_text(
        "proc /proc proc rw 0 0\n"
        "/dev/sda1 / ext4 rw,relatime 0 0\n"
        f"server:/share {where} {fstype} rw 0 0\n"
    )
    return table


@pytest.mark.parametrize("fstype", REFUSED)
def test_anything_but_a_known_local_file_system_is_refused_with_one_message(
    tmp_path, monkeypatch, fstype
):
    share = tmp_path / "share"
    share.mkdir()
    monkeypatch.setattr(engine_mod, "MOUNTS_FILE", mounts(tmp_path, fstype, share))
    with pytest.raises(ValidationError) as exc:
        make_engine(f"sqlite:///{share / 'slate.sqlite3'}")
    assert exc.value.field == "store"
    message = str(exc.value)
    assert f"on a {fstype} file system" in message
    assert "not a local file system Slate knows" in message and "PostgreSQL" in message
    assert not (share / "slate.sqlite3").exists()  # refused before anything is created


@pytest.mark.parametrize("fstype", ALLOWED)
def test_local_file_systems_are_allowed(tmp_path, monkeypatch, fstype):
    assert fstype in LOCAL_FILESYSTEMS
    disk = tmp_path / "disk"
    disk.mkdir()
    monkeypatch.setattr(engine_mod, "MOUNTS_FILE", mounts(tmp_path, fstype, disk))
    make_engine(f"sqlite:///{disk / 'slate.sqlite3'}").dispose()


def test_the_longest_mount_point_decides_and_escaped_paths_are_read(tmp_path):
    inner = tmp_path / "my share" / "inner"
    inner.mkdir(parents=True)
    escaped = str(tmp_path / "my share").replace(" ", "\\040")
    table = tmp_path / "mounts"
    table.write_text(
        "/dev/sda1 / ext4 rw 0 0\n"
        f"host:/x {escaped} vboxsf rw 0 0\n"
        f"/dev/sdb1 {escaped}/inner xfs rw 0 0\n"
    )
    assert store_filesystem(tmp_path / "my share" / "slate.sqlite3", table) == "vboxsf"
    assert store_filesystem(inner / "slate.sqlite3", table) == "xfs"
    assert store_filesystem(tmp_path / "slate.sqlite3", table) == "ext4"


def test_a_path_under_no_listed_mount_is_unknown_and_refused(tmp_path, monkeypatch):
    table = tmp_path / "mounts"
    table.write_text("server:/x /elsewhere nfs rw 0 0\n")
    monkeypatch.setattr(engine_mod, "MOUNTS_FILE", table)
    assert store_filesystem(tmp_path / "slate.sqlite3") == "unknown"
    with pytest.raises(ValidationError, match="on a unknown file system"):
        make_engine(f"sqlite:///{tmp_path / 'slate.sqlite3'}")


def test_this_machine_s_own_mounts_let_the_test_store_in(tmp_path):
    """The real /proc/mounts of the test machine: its temporary folder is local."""
    assert store_filesystem(tmp_path / "slate.sqlite3") in LOCAL_FILESYSTEMS


def test_doctor_says_the_same(tmp_path, monkeypatch):
    from app.config import load
    from app.doctor import diagnose

    share = tmp_path / "share"
    share.mkdir()
    monkeypatch.setattr(engine_mod, "MOUNTS_FILE", mounts(tmp_path, "virtiofs", share))
    config = load({"data_dir": str(tmp_path / "data"), "store": f"sqlite:///{share}/s.sqlite3"}, {})
    found = diagnose(config, {})
    assert any("on a virtiofs file system" in p for p in found["problems"]), found["problems"]


def test_a_media_folder_outside_slate_s_layout_never_tightens_the_folders_above(tmp_path):
    """Only ``media/<tenant>/<xx>/<slot>`` is Slate's own: a download into any other folder
    makes that folder (and the levels it created) owner-only, never an existing parent such
    as the system's temporary folder."""
    import os
    import stat

    from app.service.media import _make_folder, media_folder

    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    _make_folder(shared / "a" / "b" / "c" / "downloads")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    for made in ("a", "a/b", "a/b/c", "a/b/c/downloads"):
        assert stat.S_IMODE((shared / made).stat().st_mode) == 0o700, made
    existing = tmp_path / "existing"
    existing.mkdir(mode=0o755)
    os.chmod(existing, 0o755)
    _make_folder(existing / "downloads")
    assert stat.S_IMODE(existing.stat().st_mode) == 0o755
    data = tmp_path / "data"
    (data / "media").mkdir(parents=True)
    os.chmod(data / "media", 0o755)  # made by an older Slate under the umask
    os.chmod(data, 0o755)  # a data dir the user chose
    folder = media_folder(data, "studio-a", "ab" * 32)
    _make_folder(folder)
    assert stat.S_IMODE((data / "media").stat().st_mode) == 0o700
    assert stat.S_IMODE(data.stat().st_mode) == 0o755


def test_wal_is_switched_on_even_while_another_process_holds_the_new_file(tmp_path):
    """SQLite refuses a journal-mode change at once ("database is locked", no busy handler)
    while another connection holds a lock: several processes opening one new store at the same
    instant met that. Slate waits for the lock instead, and leaves a WAL store as it is."""
    import sqlite3
    import subprocess
    import sys
    import threading
    import time

    from app.files import enable_wal

    db = tmp_path / "new.sqlite3"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "c.execute('CREATE TABLE t (x)'); c.execute('BEGIN IMMEDIATE')\n"
            "c.execute('INSERT INTO t VALUES (1)'); print('held', flush=True)\n"
            "sys.stdin.readline(); c.execute('COMMIT')\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None

    def release() -> None:
        holder.stdin.write("go\n")  # type: ignore[union-attr]
        holder.stdin.flush()  # type: ignore[union-attr]

    try:
        assert holder.stdout.readline().strip() == "held"
        plain = sqlite3.connect(db, timeout=5, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            plain.execute("PRAGMA journal_mode=WAL")  # what SQLite does on its own
        plain.close()
        conn = sqlite3.connect(db, timeout=5, isolation_level=None)
        timer = threading.Timer(0.3, release)
        started = time.monotonic()
        timer.start()
        enable_wal(conn, seconds=30)
        assert time.monotonic() - started >= 0.3  # it waited for the holder to let go
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        enable_wal(conn, seconds=0)  # already WAL: nothing to change, nothing to wait for
        conn.close()
        timer.join()
    finally:
        holder.wait(timeout=30)
