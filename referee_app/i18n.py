"""Interface language: mark strings with `from referee_app.i18n import gettext as _`.

No `_` goes into builtins. `set_language()` swaps the catalog and tells every listener, so the
open windows re-translate themselves (each widget calls `_()` again in its `retranslate()`).
The catalogs are compiled `.mo` files shipped in the package; in a source checkout the `.po`
files of `translations/` are read directly, so a developer never runs a stale catalog.
"""
from __future__ import annotations

import gettext as _gettext
import io
from pathlib import Path
from typing import Callable

LANGUAGES = ("fr", "it", "en")
DOMAIN = "carrom_referee"
_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT_PO = _PACKAGE.parent / "translations"

_current = "en"
_catalog: _gettext.NullTranslations = _gettext.NullTranslations()
_listeners: list[Callable[[str], None]] = []


def _load_catalog(lang: str) -> _gettext.NullTranslations:
    po = _CHECKOUT_PO / f"{lang}.po"
    if po.is_file():
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
        buf = io.BytesIO()
        write_mo(buf, catalog)
        buf.seek(0)
        return _gettext.GNUTranslations(buf)
    mo = _PACKAGE / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if mo.is_file():
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    return _gettext.NullTranslations()


def set_language(lang: str) -> None:
    global _current, _catalog
    if lang not in LANGUAGES:
        raise ValueError(f"unknown interface language '{lang}' (known: {', '.join(LANGUAGES)})")
    _catalog = _load_catalog(lang)
    _current = lang
    for listener in list(_listeners):
        listener(lang)


def current_language() -> str:
    return _current


def on_language_changed(listener: Callable[[str], None]) -> Callable[[], None]:
    """Registers a listener; returns the function that removes it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def gettext(message: str) -> str:
    return _catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a string for extraction without translating it now (translated where it is shown)."""
    return message
