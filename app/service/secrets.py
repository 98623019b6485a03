"""Secrets: the API key (environment or OS keyring) and the handle-signing secret.

The API key is read from ``MINIMAX_API_KEY`` or the OS keyring and nowhere else. The
handle-signing secret lives in the keyring; without a usable keyring (headless machines, CI)
it falls back to a file readable only by the user (0600) in the data dir, with a warning.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import sys
from pathlib import Path

#: keyring's macOS backend looks its frameworks up with ctypes' ``find_library`` when imported,
#: and keyring imports every backend to choose one: on Linux that ran ``ldconfig``, ``gcc`` and
#: ``ld`` (about 40 processes) at every start that looks up the key, for a backend that cannot
#: work there. Elsewhere than on macOS its API module is reported missing, which its backend
#: already handles (it then says it is unavailable); the chosen keyring is the same.
if sys.platform != "darwin":
    sys.modules.setdefault("keyring.backends.macOS.api", None)  # type: ignore[arg-type]

import keyring  # noqa: E402 - after the line above
from keyring.backends.fail import Keyring as FailKeyring  # noqa: E402
from keyring.errors import KeyringError, NoKeyringError, PasswordDeleteError  # noqa: E402

from app import scrub  # noqa: E402
from app.config import ENV_API_KEY as ENV_API_KEY  # noqa: E402

log = logging.getLogger(__name__)

SERVICE = "slate"
API_KEY_ENTRY = "minimax-api-key"


class KeyringUnavailable(Exception):
    """No usable OS keyring: tell the user to use MINIMAX_API_KEY instead."""


def _keyring_get(entry: str) -> str | None:
    try:
        return keyring.get_password(SERVICE, entry)
    except (NoKeyringError, KeyringError, RuntimeError, OSError) as exc:
        log.debug("keyring unavailable: %s", type(exc).__name__)
        return None


def api_key(environ: dict[str, str] | None = None) -> tuple[str | None, str]:
    """(key, source) where source is ``env``, ``keyring`` or ``none``."""
    env = os.environ if environ is None else environ
    key = (env.get(ENV_API_KEY) or "").strip()
    if key:
        scrub.register(key)
        return key, "env"
    stored = _keyring_get(API_KEY_ENTRY)
    if stored:
        scrub.register(stored)
        return stored, "keyring"
    return None, "none"


def set_api_key(key: str) -> None:
    if not key or not key.strip():
        raise ValueError("api key: empty")
    try:
        keyring.set_password(SERVICE, API_KEY_ENTRY, key.strip())
    except (NoKeyringError, KeyringError, RuntimeError, OSError) as exc:
        raise KeyringUnavailable(
            f"no usable OS keyring ({type(exc).__name__}); set MINIMAX_API_KEY in the environment instead"
        ) from None


def delete_api_key() -> bool:
    try:
        keyring.delete_password(SERVICE, API_KEY_ENTRY)
        return True
    except PasswordDeleteError:
        return False
    except (NoKeyringError, KeyringError, RuntimeError, OSError) as exc:
        raise KeyringUnavailable(
            f"no usable OS keyring ({type(exc).__name__}); the API key comes only from MINIMAX_API_KEY"
        ) from None


def keyring_usable() -> bool:
    try:
        keyring.get_password(SERVICE, "probe")
        return not isinstance(keyring.get_keyring(), FailKeyring)
    except (NoKeyringError, KeyringError, RuntimeError, OSError):
        return False


def handle_secret(data_dir: Path, store_url: str) -> tuple[bytes, str | None]:
    """The signing secret for this store, and a warning when the file fallback is used.

    Several Slate processes may start at once on a new machine: the secret is created under an
    exclusive file lock in the data dir, so they all end up with the same one."""
    import fcntl

    from app.files import open_private, private_dir

    private_dir(data_dir, tighten_existing=False)
    fd = open_private(data_dir / ".handle-secret.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            return _handle_secret(data_dir, store_url)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _handle_secret(data_dir: Path, store_url: str) -> tuple[bytes, str | None]:
    entry = "handle-secret:" + hashlib.sha256(store_url.encode()).hexdigest()[:16]
    stored = _keyring_get(entry)
    if stored:
        return bytes.fromhex(stored), None
    if keyring_usable():
        new = secrets.token_hex(32)
        try:
            keyring.set_password(SERVICE, entry, new)
            again = _keyring_get(entry)
            if again:
                return bytes.fromhex(again), None
        except (KeyringError, RuntimeError, OSError):
            pass
    path = data_dir / "handle-secret"
    warning = f"no usable OS keyring: the handle-signing secret is kept in {path} (mode 0600)"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        text = path.read_text().strip()
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return bytes.fromhex(text), warning
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    return bytes.fromhex(path.read_text().strip()), warning
