"""An in-memory keyring backend for tests (never the OS keyring, never keyrings.alt).

Selected with ``PYTHON_KEYRING_BACKEND=tests.support.keyring_backend.MemoryKeyring``. When
``SLATE_TEST_KEYRING_FILE`` names a file, the dict is mirrored there so that several test
processes see one keyring, as they would see one OS keyring.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self._data: dict[str, str] = {}

    def _path(self) -> Path | None:
        name = os.environ.get("SLATE_TEST_KEYRING_FILE")
        return Path(name) if name else None

    def _load(self) -> dict[str, str]:
        path = self._path()
        if path is None:
            return self._data
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            return {}

    def _save(self, data: dict[str, str]) -> None:
        path = self._path()
        if path is None:
            self._data = data
            return
        tmp = path.with_suffix(".tmp%d" % os.getpid())
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)

    @staticmethod
    def _key(service: str, username: str) -> str:
        return f"{service}\x00{username}"

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(self._key(service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[self._key(service, username)] = password
        self._save(data)

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(self._key(service, username), None) is None:
            raise PasswordDeleteError("not found")
        self._save(data)
