"""The in-process runner of the `slate` command (tests/support/fixtures.py, ``call_slate``): each
call sees exactly its own environment, keyring and logging, and leaves nothing behind, so the
CLI tests that use it answer as a fresh process would."""

from __future__ import annotations

import logging
import os

import keyring

from tests.support.fixtures import call_slate, run_slate_in_process

NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def test_a_call_leaves_the_environment_keyring_and_logging_as_they_were(slate_env, data_dir):
    before_env = dict(os.environ)
    before_keyring = keyring.get_keyring()
    root = logging.getLogger()
    before_handlers, before_level = list(root.handlers), root.level
    res = run_slate_in_process({**slate_env, **NO_KEYRING}, "--verbose", "key", "status")
    assert res.code == 0 and res.out["key"]["keyring_usable"] is False
    assert dict(os.environ) == before_env
    assert keyring.get_keyring() is before_keyring
    assert root.handlers == before_handlers and root.level == before_level
    assert (data_dir / "logs" / "slate.log").exists()


def test_each_call_chooses_its_keyring_and_logs_into_its_own_data_dir(slate_env, tmp_path):
    failing = run_slate_in_process({**slate_env, **NO_KEYRING}, "key", "status")
    assert failing.out["key"]["keyring_usable"] is False
    usable = run_slate_in_process(slate_env, "key", "status")
    assert usable.out["key"]["keyring_usable"] is True  # the test keyring again
    other = tmp_path / "other"
    code, out, err = call_slate(
        {**slate_env, "SLATE_DATA_DIR": str(other)}, ["--verbose", "--json", "list"]
    )
    assert code == 0, err
    assert (other / "logs" / "slate.log").exists()  # logging set up anew for this data dir
    assert out.count("\n") == 1  # stdout: the one answer; the verbose log went to stderr


def test_stdin_and_exit_codes_are_the_calls_own(slate_env):
    assert call_slate(slate_env, ["--json", "key", "set"], stdin="sk-abc-123456\n")[0] == 0
    code, out, _err = call_slate(slate_env, ["--json", "status", "not a request id"])
    assert code == 2 and '"invalid"' in out


async def test_a_call_from_an_async_test_runs_beside_its_event_loop(slate_env):
    res = run_slate_in_process(slate_env, "list")
    assert res.code == 0 and res.out["outcome"] == "ok"
