"""The Qt binding must not corrupt None's reference count (PySide6 6.12.0 did, under 3.11).

Every void method call of 6.12.0 dropped one reference to None; after a few thousand calls the
interpreter aborted with "none_dealloc". This test fails on such a binding before users do.
"""

import sys

from PySide6.QtCore import QObject
from PySide6.QtGui import QFont


def test_void_calls_keep_nones_refcount():
    font, obj = QFont(), QObject()
    before = sys.getrefcount(None)
    for _ in range(2000):
        font.setBold(True)
        obj.setObjectName("slot")
    assert sys.getrefcount(None) - before >= -10
