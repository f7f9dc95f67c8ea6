"""What an inspector types into the inspection page, turned into readings, and refusals put
into words in the language given. No Qt: the page only wires these to its widgets.

Typed numbers take a decimal comma or point (4,13 or 4.13: French and Italian inspectors write
the comma); several readings of one dimension — the four pockets — are separated by spaces or
semicolons ("4,45; 4,46; 4,44; 4,47").
"""
from __future__ import annotations

import re

from referee_app.i18n import translations
from . import wording as fmt
from referee_app.core.errors import BadInput
from .verdict import ReadingRefused

_SEPARATORS = re.compile(r"[;\s]+")
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)?$|^[.,]\d+$")


class EntryError(ValueError):
    """Typed text that is not a reading; `message` says why in the language of the entry."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def numbers_typed(text: str, lang: str) -> list[float]:
    """The numbers in a field: none for an empty field, else every one, or EntryError."""
    _ = translations(lang).gettext
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    values = []
    for token in tokens:
        if token.startswith("-") and _NUMBER.match(token[1:]):
            raise EntryError(_("A reading cannot be negative: “{text}”").format(text=token))
        if not _NUMBER.match(token):
            raise EntryError(_("Not a number: “{text}”").format(text=token))
        values.append(float(token.replace(",", ".")))
    return values


def reading_typed(text: str, unit: str, lang: str):
    """The reading of a number field as the core reads it, or None when the field is empty."""
    values = numbers_typed(text, lang)
    if not values:
        return None
    unit_part = {"unit": unit} if unit else {}
    if len(values) == 1:
        return {"value": values[0], **unit_part}
    return {"values": values, **unit_part}


def typed_text(reading, lang: str) -> str:
    """A stored reading back as the text of its field, in the language's decimals."""
    if reading is None:
        return ""
    if isinstance(reading, dict):
        values = reading.get("values", [reading.get("value")])
    elif isinstance(reading, list):
        values = [r.get("value") if isinstance(r, dict) else r for r in reading]
    else:
        values = [reading]
    return "; ".join(fmt.number(v, lang) for v in values if v is not None)


def unit_of(reading, default: str) -> str:
    if isinstance(reading, dict) and reading.get("unit"):
        return str(reading["unit"])
    if isinstance(reading, list) and reading and isinstance(reading[0], dict) and reading[0].get("unit"):
        return str(reading[0]["unit"])
    return default


def refusal(exc: Exception, lang: str) -> str:
    """Why a reading or a save was refused, for the inspector, in the language given."""
    _ = translations(lang).gettext
    if isinstance(exc, EntryError):
        return exc.message
    if isinstance(exc, ReadingRefused):
        p = exc.params
        if exc.reason == "implausible":
            return _("{reading} is not plausible here (accepted: {low} to {high}); check the unit").format(
                reading=fmt.quantity(p["value"], p["unit"], lang), low=fmt.number(p["min"], lang),
                high=fmt.quantity(p["max"], p["limit_unit"], lang))
        if exc.reason == "negative":
            return _("A reading cannot be negative: “{text}”").format(text=fmt.number(p["given"], lang))
        if exc.reason == "not_a_number":
            return _("Not a number: “{text}”").format(text=p.get("given"))
        if exc.reason in ("unit_foreign", "unit_unknown", "unit_missing"):
            return _("This unit does not measure this dimension")
    if isinstance(exc, BadInput):
        if exc.field == "inspector":
            return _("Enter the inspector's name before saving.")
        if exc.field == "label":
            return _("Enter which item this is (for example “board 7”) before saving.")
    return str(exc)
