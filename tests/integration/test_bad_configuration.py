"""A data dir or store Slate cannot use is said in one sentence naming the setting and the
path, exit 2 (`invalid`, error code `bad_configuration`), never a traceback — and nothing
already stored is lost.

The full disk is a real one: a 6 MiB tmpfs mounted in a private mount namespace
(``unshare -m``, root on Linux, as the CI runs), filled to the last byte.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import ROOT, run_slate_in_process

RID = "article:20260816:tide-eye:scene-02"


def _stored(slate, env=None) -> list[str]:
    listed = slate("list", env=env)
    assert listed.code == 0, listed
    return [s["request_id"] for s in listed.out["slots"]]


def _says(result, setting: str, path: Path | str) -> None:
    flag, env = {"data_dir": ("--data-dir", "SLATE_DATA_DIR"), "store": ("--store", "SLATE_STORE")}[
        setting
    ]
    assert result.code == 2, result
    assert result.out["outcome"] == "invalid"
    error = result.out["error"]
    assert error["code"] == "bad_configuration" and error["field"] == setting
    assert str(path) in error["message"] and flag in error["message"] and env in error["message"]
    assert "Traceback" not in result.stderr, result.stderr


@pytest.mark.parametrize(
    "command", [("list",), ("submit", "--request-id", RID, "--kind", "image", "--prompt", "p")]
)
def test_data_dir_that_is_a_file(slate, tmp_path: Path, command) -> None:
    created = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "tide eye")
    assert created.code == 0, created
    bad = tmp_path / "a-file"
    bad.write_text("not a folder")
    _says(slate(*command, env={"SLATE_DATA_DIR": str(bad)}), "data_dir", bad)
    _says(slate("--data-dir", str(bad), *command), "data_dir", bad)
    assert bad.read_text() == "not a folder"
    assert _stored(slate) == [RID]  # the real data dir is untouched


def test_data_dir_under_a_file(slate, tmp_path: Path) -> None:
    bad = tmp_path / "a-file"
    bad.write_text("x")
    _says(slate("list", env={"SLATE_DATA_DIR": str(bad / "slate")}), "data_dir", bad / "slate")


def test_store_that_is_not_a_database(slate, tmp_path: Path) -> None:
    junk = tmp_path / "notes.sqlite3"
    junk.write_bytes(b"these are my notes, not a database\n" * 100)
    before = junk.read_bytes()
    for command in (("list",), ("submit", "--request-id", RID, "--kind", "image", "--prompt", "p")):
        _says(slate(*command, env={"SLATE_STORE": f"sqlite:///{junk}"}), "store", junk)
        _says(slate("--store", f"sqlite:///{junk}", *command), "store", junk)
    assert junk.read_bytes() == before  # nothing of the user's file is touched


def test_human_output_is_one_sentence(slate_env, tmp_path: Path) -> None:
    bad = tmp_path / "a-file"
    bad.write_text("x")
    proc = subprocess.run(
        [sys.executable, "-m", "app", "list"],
        env={**slate_env, "SLATE_DATA_DIR": str(bad)},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and "--data-dir" in lines[0], proc.stderr


def _in_namespace(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``script`` (sh) in a private mount namespace: its mounts vanish with it."""
    assert shutil.which("unshare"), "util-linux's unshare is needed (Debian: util-linux)"
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
    )


def _cli(*args: str) -> str:
    return " ".join([sys.executable, "-m", "app", "--json", *args])


def test_read_only_data_dir(slate_env, tmp_path: Path) -> None:
    where = tmp_path / "ro"
    where.mkdir()
    proc = _in_namespace(
        f"mount -t tmpfs -o ro,size=1m tmpfs {where} && {_cli('list')}",
        {**slate_env, "SLATE_DATA_DIR": str(where)},
    )
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "cannot be written" in proc.stdout and str(where) in proc.stdout
    assert "Traceback" not in proc.stderr


def test_full_disk(slate_env, tmp_path: Path) -> None:
    """Submit once, fill the disk, then list and submit (exit 2, the data dir named, no
    traceback); free the disk again and the first slot is there."""
    disk = tmp_path / "disk"
    disk.mkdir()
    data = disk / "data"
    fill = (
        f"{sys.executable} -c \"f=open('{disk}/filler','wb')\n"
        "try:\n    while True: f.write(b'x'*65536); f.flush()\nexcept OSError: pass\""
    )
    other = "article:20260816:tide-eye:scene-03"
    script = " && ".join(
        [
            f"mount -t tmpfs -o size=6m tmpfs {disk}",
            _cli("submit", "--request-id", RID, "--kind", "image", "--prompt", "tide")
            + " >/dev/null",
            fill,
            f"({_cli('list')} > {tmp_path}/list.json; echo $? > {tmp_path}/list.rc)",
            f"({_cli('submit', '--request-id', other, '--kind', 'image', '--prompt', 'x')}"
            f" > {tmp_path}/submit.json 2>{tmp_path}/submit.err; echo $? > {tmp_path}/submit.rc)",
            f"rm {disk}/filler",
            _cli("list") + f" > {tmp_path}/after.json",
        ]
    )
    proc = _in_namespace(script, {**slate_env, "SLATE_DATA_DIR": str(data)})
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    import json

    for name in ("list", "submit"):
        rc = int((tmp_path / f"{name}.rc").read_text())
        out = json.loads((tmp_path / f"{name}.json").read_text())
        assert rc == 2, out
        assert out["error"]["code"] == "bad_configuration", out
        assert out["error"]["field"] == "data_dir" and str(data) in out["error"]["message"]
        assert "full disk" in out["error"]["message"]
    assert "Traceback" not in (tmp_path / "submit.err").read_text()
    after = json.loads((tmp_path / "after.json").read_text())
    assert [s["request_id"] for s in after["slots"]] == [RID]  # nothing stored was lost


def test_a_good_data_dir_still_works(slate_env, tmp_path: Path) -> None:
    """The checks refuse only what is unusable: a new folder under a new folder is made."""
    fresh = tmp_path / "new" / "deeper"
    out = run_slate_in_process({**slate_env, "SLATE_DATA_DIR": str(fresh)}, "list")
    assert out.code == 0, out
    assert fresh.is_dir()


def test_store_under_a_file_or_that_is_a_folder(slate, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    under = blocker / "slate.sqlite3"
    said = slate("list", env={"SLATE_STORE": f"sqlite:///{under}"})
    _says(said, "store", under)
    assert "part of its path is a file" in said.out["error"]["message"]
    folder = tmp_path / "a-folder"
    folder.mkdir()
    said = slate("list", env={"SLATE_STORE": f"sqlite:///{folder}"})
    _says(said, "store", folder)
    assert "is a folder" in said.out["error"]["message"]
