"""The test modules' assertion-rewritten bytecode, written once by a parallel run's controller.

pytest rewrites the ``assert`` statements of every test module (and conftest and plugin) it
imports, ~10 s of CPU for this suite, and keeps the result in ``__pycache__`` — unless the
environment says not to write bytecode (``PYTHONDONTWRITEBYTECODE``, as CI's does), or the
checkout is fresh, when every xdist worker rewrote every module it collects again: 6 workers,
~60 s of the run's CPU. Here the controller writes them before its workers start; a worker
finds each one valid (same source size and time, same pytest) and reads it, as pytest does
with the cache it wrote itself.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
from pathlib import Path

import pytest
from _pytest.assertion import rewrite


def rewritten_files(config: pytest.Config) -> list[Path]:
    """What a worker's import hook rewrites: the conftests from the root down to the run's test
    paths, the files under them named as test modules (``python_files``), and this suite's own
    plugins (``tests/conftest.py``'s ``pytest_plugins``)."""
    root = config.rootpath
    patterns = config.getini("python_files")
    tops = [root / p for p in config.getini("testpaths")] or [root]
    found: set[Path] = set()
    for top in tops:
        for folder in [top, *top.parents]:
            if (folder / "conftest.py").is_file():
                found.add(folder / "conftest.py")
            if folder == root:
                break
        for path in top.rglob("*.py"):
            if path.name == "conftest.py" or any(fnmatch.fnmatch(path.name, p) for p in patterns):
                found.add(path)
    for name, plugin in config.pluginmanager.list_name_plugin():
        origin = getattr(plugin, "__file__", None)
        if name.startswith("tests.") and origin:
            found.add(Path(origin))
    return sorted(found)


def _current(source: Path, pyc: Path) -> bool:
    """Whether ``pyc`` is pytest's rewrite of ``source`` as it is now (header only)."""
    try:
        with pyc.open("rb") as f:
            head = f.read(16)
        st = source.stat()
    except OSError:
        return False
    return (
        len(head) == 16
        and head[:4] == importlib.util.MAGIC_NUMBER
        and head[4:8] == bytes(4)
        and int.from_bytes(head[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
        and int.from_bytes(head[12:16], "little") == st.st_size & 0xFFFFFFFF
    )


def write_all(config: pytest.Config) -> int:
    """Rewrite and write every module of :func:`rewritten_files` whose cache is missing or
    stale; returns how many were written."""
    state = config.stash[rewrite.assertstate_key]
    written = 0
    for source in rewritten_files(config):
        cache_dir = rewrite.get_cache_dir(source)
        pyc = cache_dir / (source.name[:-3] + rewrite.PYC_TAIL)
        if _current(source, pyc) or not rewrite.try_makedirs(cache_dir):
            continue
        source_stat, co = rewrite._rewrite_test(source, config)
        rewrite._write_pyc(state, co, source_stat, pyc)
        written += 1
    return written


def pytest_configure(config: pytest.Config) -> None:
    if "PYTEST_XDIST_WORKER" in os.environ or not config.getoption("numprocesses", None):
        return  # a worker, or one process: pytest rewrites (and caches) what it imports
    if config.getoption("assertmode", "rewrite") != "rewrite":
        return
    write_all(config)
