"""Headless machines: no usable keyring. Slate still works; the handle secret falls back to a
0600 file in the data dir with a warning, and `key set` says what to do instead."""

from __future__ import annotations

import stat

RID = "article:20260816:tide-eye:scene-02"
NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def test_handle_secret_falls_back_to_a_private_file(slate, data_dir):
    res = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p", env=NO_KEYRING)
    assert res.code == 0 and res.out["outcome"] == "created"
    assert "warning:" in res.stderr and "handle-secret" in res.stderr
    secret = data_dir / "handle-secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    again = slate("status", "--handle", res.out["task"]["handle"], env=NO_KEYRING)
    assert again.code == 0 and again.out["request_id"] == RID


def test_the_warning_is_said_once_per_data_dir_and_never_on_stdout(slate, data_dir, tmp_path):
    first = slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p", env=NO_KEYRING)
    assert first.stderr.count("warning: no usable OS keyring") == 1
    assert "keyring" not in first.stdout  # stdout is the one JSON object (run_slate checks it)
    for args in (("status", RID), ("list",), ("history", RID)):
        again = slate(*args, env=NO_KEYRING)
        assert again.code == 0 and "warning" not in again.stderr, (args, again.stderr)
        assert "keyring" not in again.stdout
    # another data dir is another place the user has not been told about
    other = tmp_path / "other-data"
    fresh = slate("list", env={**NO_KEYRING, "SLATE_DATA_DIR": str(other)})
    assert fresh.stderr.count("warning: no usable OS keyring") == 1 and str(other) in fresh.stderr


def test_key_set_without_keyring_points_to_the_environment(slate):
    res = slate("key", "set", stdin="sk-abc-123456\n", env=NO_KEYRING)
    assert res.code == 2 and res.out["outcome"] == "invalid"
    assert res.out["error"]["code"] == "no_keyring"
    assert "MINIMAX_API_KEY" in res.out["error"]["message"]
    assert "sk-abc-123456" not in res.stdout + res.stderr
    gone = slate("key", "delete", env=NO_KEYRING)
    assert gone.code == 2 and gone.out["outcome"] == "invalid"
    assert (
        gone.out["error"]["code"] == "no_keyring"
        and "MINIMAX_API_KEY" in gone.out["error"]["message"]
    )
    status = slate("key", "status", env={**NO_KEYRING, "MINIMAX_API_KEY": "sk-env-key-9999"})
    assert status.out["key"]["present"] is True and status.out["key"]["source"] == "env"
    assert "sk-env-key-9999" not in status.stdout


#: Looks the key up the way every start does, with keyring choosing its backend itself (no
#: PYTHON_KEYRING_BACKEND, no keyring config), and says which processes that started.
LOOKUP = """
import json, subprocess, sys
started = []
popen_init = subprocess.Popen.__init__
def counted(self, *args, **kw):
    started.append(str(args[0] if args else kw.get("args")))
    return popen_init(self, *args, **kw)
subprocess.Popen.__init__ = counted
if sys.argv[1] == "slate":
    from app.service import secrets
    secrets.api_key()
import keyring
chosen = keyring.get_keyring()
print(json.dumps({"started": started, "backend": type(chosen).__module__ + "." + type(chosen).__qualname__}))
"""


def test_looking_up_the_key_starts_no_process_and_chooses_keyrings_own_backend(tmp_path):
    """keyring imports every backend to choose one; its macOS backend's import ran ``ldconfig``,
    ``gcc`` and ``ld`` for each of three frameworks. Off macOS Slate skips that module: no
    process is started, and keyring chooses the backend it chooses on its own."""
    import json
    import os
    import subprocess
    import sys

    from tests.support.fixtures import ROOT

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON_KEYRING_BACKEND",)}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), MINIMAX_API_KEY="")

    def lookup(who: str) -> dict:
        proc = subprocess.run(
            [sys.executable, "-c", LOOKUP, who],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    slate, alone = lookup("slate"), lookup("keyring")
    assert slate["started"] == []
    assert slate["backend"] == alone["backend"]
    if sys.platform.startswith("linux"):  # what it saves: keyring alone starts processes here
        assert any("ldconfig" in p for p in alone["started"]), alone
