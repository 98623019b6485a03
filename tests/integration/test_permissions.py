"""Slate's files are the user's alone, whatever the umask (issue 15, point 17).

With umask 022 the data dir was 0755 and the store and the log 0644 (media were 0600). Now a
data dir Slate creates is 0700, every folder of Slate's inside it 0700, and every file —
store, WAL/SHM, lock files, logs, secrets, notices, media, the demo provider's files — 0600.
Files left readable by an older Slate are tightened; an existing data dir the user chose is
left as it is but warned about (once), the platform's own data folder is tightened.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from app.files import PRIVATE_DIR, PRIVATE_FILE
from app.store.rows import Scope
from tests.support.fixtures import ROOT

RID = "article:20260816:tide-eye:scene-02"
NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def slate_with_umask(
    env: dict[str, str], *args: str, umask: int = 0o022
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", "--json", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.umask(umask),
    )


def modes(root: Path) -> dict[str, int]:
    out = {".": stat.S_IMODE(root.stat().st_mode)}
    for path in root.rglob("*"):
        out[str(path.relative_to(root))] = stat.S_IMODE(path.lstat().st_mode)
    return out


def wide(found: dict[str, int], root: Path) -> dict[str, str]:
    bad = {}
    for name, mode in found.items():
        path = root / name
        want = PRIVATE_DIR if path.is_dir() else PRIVATE_FILE
        if mode != want:
            bad[name] = f"{mode:04o}"
    return bad


def test_everything_slate_writes_is_private_under_umask_022(slate_env, tmp_path):
    data = tmp_path / "fresh" / "slate-data"  # created by Slate itself
    # the embedded demo provider (its files live in the data dir too), its video made in a
    # fraction of a second: what is checked is where files land, not how long a render takes
    env = {
        **slate_env,
        **NO_KEYRING,
        "SLATE_DATA_DIR": str(data),
        "SLATE_DEMO_STAGE_SECONDS": "0.1",
    }
    env.pop("SLATE_BASE_URL")
    for args in (
        ("submit", "--request-id", RID, "--kind", "image", "--prompt", "p"),
        (
            "submit",
            "--request-id",
            RID + "-v",
            "--kind",
            "video",
            "--prompt",
            "v",
            "--wait",
            "--max-seconds",
            "60",
        ),
        ("status", RID),
        ("history", RID),
    ):
        done = slate_with_umask(env, *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr[-2000:])
    found = modes(data)
    for expected in (
        "slate.sqlite3",
        "slate.sqlite3.writers",
        "handle-secret",
        ".handle-secret.lock",
        "logs/slate.log",
        "demo-provider.sqlite3",
    ):
        assert expected in found, sorted(found)
    assert any(n.startswith("media/") and n.endswith(".png") for n in found), sorted(found)
    assert any(n.startswith("media/") and n.endswith(".mp4") for n in found), sorted(found)
    assert wide(found, data) == {}, wide(found, data)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700


def test_wal_and_shm_files_are_private_while_the_store_is_open(tmp_path):
    from app.store.aio import open_store

    old = os.umask(0o022)
    try:
        db = tmp_path / "d" / "slate.sqlite3"
        store = open_store(f"sqlite:///{db.as_posix()}")
        try:
            # any write: the WAL and SHM files exist now
            store.repo.add_event(Scope("t", "u" * 64, "demo", "local"), "k" * 64, None, "note")
            for suffix in ("", "-wal", "-shm", ".writers"):
                path = db.with_name(db.name + suffix)
                assert path.exists(), path
                assert stat.S_IMODE(path.stat().st_mode) == PRIVATE_FILE, path
        finally:
            store.close()
        assert stat.S_IMODE(db.parent.stat().st_mode) == PRIVATE_DIR
    finally:
        os.umask(old)


def test_files_an_older_slate_left_readable_are_tightened(slate_env, data_dir):
    env = {**slate_env, **NO_KEYRING}
    first = slate_with_umask(env, "submit", "--request-id", RID, "--kind", "image", "--prompt", "p")
    assert first.returncode == 0, first.stderr[-2000:]
    for path in list(data_dir.rglob("*")):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)  # as an older Slate left them
    (data_dir / ".private-v1").unlink()  # an older Slate never tightened this data dir
    (data_dir / "someone-elses.txt").write_text("not Slate's")
    os.chmod(data_dir / "someone-elses.txt", 0o644)
    again = slate_with_umask(
        env, "submit", "--request-id", RID + "-2", "--kind", "image", "--prompt", "p"
    )
    assert again.returncode == 0, again.stderr[-2000:]
    found = modes(data_dir)
    found.pop(".")  # the user's chosen data dir: warned about, not changed (next test)
    assert found.pop("someone-elses.txt") == 0o644  # not Slate's: never touched
    assert wide(found, data_dir) == {}, wide(found, data_dir)


def test_a_chosen_data_dir_others_can_read_is_warned_about_once_and_left_alone(slate_env, data_dir):
    os.chmod(data_dir, 0o755)
    env = {**slate_env}
    first = slate_with_umask(env, "submit", "--request-id", RID, "--kind", "image", "--prompt", "p")
    assert first.returncode == 0
    assert f"others can read or enter the data dir {data_dir} (mode 0755)" in first.stderr
    assert f"chmod 700 {data_dir}" in first.stderr
    second = slate_with_umask(env, "status", RID)
    assert "others can read" not in second.stderr  # said once per data dir
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o755


def test_the_platform_data_folder_is_tightened(slate_env, tmp_path):
    home = tmp_path / "xdg"
    own = home / "Slate"
    own.mkdir(parents=True)
    os.chmod(own, 0o755)  # as an older Slate made it under umask 022
    env = {**slate_env, "XDG_DATA_HOME": str(home)}
    env.pop("SLATE_DATA_DIR")
    done = slate_with_umask(env, "submit", "--request-id", RID, "--kind", "image", "--prompt", "p")
    assert done.returncode == 0, done.stderr[-2000:]
    assert (own / "slate.sqlite3").exists()
    assert stat.S_IMODE(own.stat().st_mode) == 0o700
    assert "others can read" not in done.stderr
