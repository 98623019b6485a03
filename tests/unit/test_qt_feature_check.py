"""The check Shiboken runs after every import once PySide6 is loaded ("does this module use
PySide?", for ``from __feature__ import ...``) is answered from the module's file by
``app.ui.qt`` instead of ``inspect.getsource``: the same answer for every module, read once."""

from __future__ import annotations

import sys

import app.ui.qt  # noqa: F401 - installs the check


def _check() -> object:
    return sys.modules["shibokensupport.feature"]._mod_uses_pyside


def test_the_cheaper_check_is_installed_once() -> None:
    check = _check()
    assert getattr(check, "slate", False)
    app.ui.qt._cheaper_feature_check()  # a second call keeps the one installed
    assert _check() is check
    assert not getattr(check.original, "slate", False)  # type: ignore[attr-defined]


def test_it_answers_as_shibokens_own_check_for_every_module_loaded() -> None:
    import app.ui.window  # noqa: F401 - Slate's modules, Qt's and the standard library's

    check = _check()
    original = check.original  # type: ignore[attr-defined]
    modules = [
        m
        for name, m in list(sys.modules.items())
        if m is not None and name not in ("typing.io", "typing.re")  # no file: seconds each
    ]
    assert len(modules) > 300
    differ = [m.__name__ for m in modules if check(m) != original(m)]  # type: ignore[operator]
    assert differ == []
    assert check(sys.modules["app.ui.qt"]) is True  # it imports PySide6
    assert check(sys.modules["app.domain.states"]) is False
