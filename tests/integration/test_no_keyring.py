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


def test_key_set_without_keyring_points_to_the_environment(slate):
    res = slate("key", "set", stdin="sk-abc-123456\n", env=NO_KEYRING)
    assert res.code == 1 and res.out["error"]["code"] == "no_keyring"
    assert "MINIMAX_API_KEY" in res.out["error"]["message"]
    status = slate("key", "status", env={**NO_KEYRING, "MINIMAX_API_KEY": "sk-env-key-9999"})
    assert status.out["key"]["present"] is True and status.out["key"]["source"] == "env"
    assert "sk-env-key-9999" not in status.stdout
