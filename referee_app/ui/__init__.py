"""PySide6 widgets, thin over the core.

On CPython 3.11, PySide6 6.12 returns None (and sometimes True/False) to Python without taking
a reference: every call of a void Qt method such as `label.setText()` or
`QApplication.processEvents()` drops None's reference count by one, and after a few thousand
calls the interpreter aborts ("deallocating None"). From CPython 3.12 on these objects are
immortal (PEP 683: an unreachable reference count) and the missing reference is harmless. Here
we give them the same immortality on older interpreters before any Qt call is made. It only
raises three counts that nothing may ever bring to zero anyway.
"""
from __future__ import annotations

import sys


def _immortalise_singletons() -> None:
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return
    import ctypes

    for obj in (None, True, False):
        # ob_refcnt is the first field of every object in a release build of CPython.
        ctypes.c_ssize_t.from_address(id(obj)).value = 1 << 60


_immortalise_singletons()
