"""Interface language: mark strings with `from referee_app.i18n import gettext as _`.

The interface language is the UI's state: `gettext` reads it, the core never does (a core
function is given its language and translates with `translations(lang)`). No `_` goes into
builtins. `set_language()` swaps the catalog and tells every listener, so the
open windows re-translate themselves (each widget calls `_()` again in its `retranslate()`).
The catalogs are compiled `.mo` files shipped in the package; in a source checkout the `.po`
files of `translations/` are read directly, so a developer never runs a stale catalog.
"""
from __future__ import annotations

import gettext as _gettext
import io
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Callable

from referee_app.languages import FALLBACK, LANGUAGE_NAMES, LANGUAGES, LOCALES  # noqa: F401  (re-exported for the UI)

DOMAIN = "carrom_referee"
_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT_PO = _PACKAGE.parent / "translations"

_MO_VERSION = b"1"  # bump when the compiling changes what a .mo holds
_MO_KEEP = 2       # compiled catalogs kept per language: two checkouts or branches in turn

_current = "en"
_catalog: _gettext.NullTranslations = _gettext.NullTranslations()
_listeners: list[Callable[[str], None]] = []


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """One language's catalog, for code told its language rather than reading the interface's:
    the core (`_ = translations(lang).gettext`)."""
    po = _CHECKOUT_PO / f"{lang}.po"
    if po.is_file():
        return _catalog_of(lang, po.read_bytes())
    mo = _PACKAGE / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if mo.is_file():
        # parsed as shipped: keeping its messages would key them by a hash of its bytes, and an
        # installed start that imports no hashlib (2.5 ms) would pay more than the parse saves
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    return _gettext.NullTranslations()


def _catalog_of(lang: str, po: bytes) -> _gettext.NullTranslations:
    """The catalog of a checkout's .po `po`, from its messages as kept in the user's cache
    folder under the hash of its bytes (hashed anyway: an edited catalog must be compiled anew).
    Parsing the compiled .mo is a Python loop over its 1,100 messages, which every command
    ruling in three languages paid three times; the kept table (marshal: plain strings only,
    checksummed) loads in a tenth of that. A damaged kept one is read anew."""
    import marshal

    from referee_app.core.cache_files import cache_folder, read_checked, remove_older, sha256, write_checked

    path = cache_folder() / f"catalog-{lang}-{sha256(_MO_VERSION + po).hexdigest()[:24]}.messages"
    kept = read_checked(path)
    if kept is not None:
        try:
            info, messages = marshal.loads(kept)
            return _Kept(info, messages)
        except (ValueError, EOFError, TypeError, AttributeError):
            pass   # another Python's marshal format: read anew
    parsed = _gettext.GNUTranslations(io.BytesIO(_mo_of(lang, po)))
    if write_checked(path, marshal.dumps((parsed.info(), vars(parsed)["_catalog"]))):
        remove_older(path, f"catalog-{lang}-*.messages", _MO_KEEP)
    return parsed


class _Kept(_gettext.GNUTranslations):
    """A catalog made of its header and messages as kept, as GNUTranslations makes one of a .mo."""

    def __init__(self, info: dict, messages: dict):
        _gettext.NullTranslations.__init__(self)
        self._info, self._catalog = info, messages
        self._charset = info.get("content-type", "").partition("charset=")[2] or None
        forms = info.get("plural-forms", "")
        self.plural = _gettext.c2py(forms.split("plural=")[1].split(";")[0]) if "plural=" in forms \
            else (lambda n: int(n != 1))


def _mo_of(lang: str, po: bytes) -> bytes:
    """The .po catalog `po` compiled to .mo (by Babel, which takes longer than the rest of a
    command takes to start: done only when the catalog changed, see `_catalog_of`)."""
    from babel.messages import catalog as babel_catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    try:
        datetime.now(babel_catalog.LOCALTZ)
    except ValueError:
        # a valid zone a day off UTC (TZ=UTC+24) is beyond Python's offsets, and babel stamps
        # every catalog it reads with the local time: the stamp, unused here, is taken in UTC
        babel_catalog.LOCALTZ = timezone.utc
    buf = io.BytesIO()
    write_mo(buf, read_po(io.BytesIO(po), locale=lang))
    return buf.getvalue()


def set_language(lang: str) -> None:
    global _current, _catalog
    if lang not in LANGUAGES:
        raise ValueError(f"unknown interface language '{lang}' (known: {', '.join(LANGUAGES)})")
    _catalog = translations(lang)
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


def pgettext(context: str, message: str) -> str:
    """A message whose translation depends on where it is shown (`pgettext("kind", "rule")`)."""
    return _catalog.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a string for extraction without translating it now (translated where it is shown)."""
    return message


# Dates and numbers for forms and records, in the interface language's conventions. Babel is
# imported on first use: the command line and the window's first paint do not pay for it.

def babel_locale(lang: str | None = None):
    """The Babel `Locale` of `lang` (default: the interface language)."""
    from babel import Locale

    return Locale.parse(LOCALES.get(lang or _current, LOCALES["en"]))


def format_datetime(dt, format: str = "medium", lang: str | None = None) -> str:
    """A date and time as the interface language writes it; an aware datetime keeps its own zone."""
    from babel.dates import format_datetime as fmt

    return fmt(dt, format=format, tzinfo=dt.tzinfo, locale=babel_locale(lang))


def format_date(d, format: str = "medium", lang: str | None = None) -> str:
    from babel.dates import format_date as fmt

    return fmt(d, format=format, locale=babel_locale(lang))


def format_time(t, format: str = "short", lang: str | None = None) -> str:
    """A time of day; for an aware datetime, in its own zone."""
    from babel.dates import format_time as fmt

    return fmt(t, format=format, tzinfo=getattr(t, "tzinfo", None), locale=babel_locale(lang))


def format_decimal(x, lang: str | None = None, digits: int | None = None) -> str:
    """A measurement or score: `format_decimal(4.1)` is "4,1" in French. With `digits`, exactly that
    many decimals (a gauge reading of 4.10 cm prints as read)."""
    from babel.numbers import format_decimal as fmt

    if digits is None:
        return fmt(x, locale=babel_locale(lang))
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return fmt(x, format=pattern, locale=babel_locale(lang), decimal_quantization=True)


def format_unit(x, unit: str, lang: str | None = None, digits: int | None = None) -> str:
    """A number and its unit symbol, with the locale's spacing (`4,10 cm`)."""
    return f"{format_decimal(x, lang, digits)}\u00a0{unit}"
