"""What an inspector types into the inspection page, turned into readings, and refusals put
into words in the language given. No Qt: the page only wires these to its widgets.

Typed numbers take a decimal comma or point (4,13 or 4.13: French and Italian inspectors write
the comma), a fraction as the rules print inches ("1 5/8", "5/8") and a unit after the number
("41,3 mm", "1 5/8 in", "1 5/8\""), which then wins over the unit chosen beside the field;
several readings of one dimension — the four pockets — are separated by spaces or semicolons
("4,45; 4,46; 4,44; 4,47").
"""
from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from referee_app.i18n import translations
from . import wording as fmt
from referee_app.core.errors import BadInput
from .units import canonical_unit, convert
from .verdict import ReadingRefused

class EntryError(ValueError):
    """Typed text that is not a reading; `message` says why in the language of the entry."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# One reading: a whole number and a fraction ("1 5/8"), a fraction ("5/8") or a decimal, then
# perhaps its unit; readings follow each other after spaces or semicolons.
_READING = re.compile(r"""\s*(?P<sign>-)?(?P<number>\d+\s+\d+/\d+|\d+/\d+|\d+(?:[.,]\d+)?|[.,]\d+)
                          \s*(?P<unit>[^\W\d_]+(?:/[^\W\d_]+[³3]?)?|["″])?\s*(?:;|(?=\s)|$)""", re.VERBOSE)


def _value(number: str) -> float:
    parts = number.split()
    total = sum(Fraction(p.replace(",", ".")) if "/" not in p else Fraction(p) for p in parts)
    return float(total)


def readings_typed(text: str, lang: str) -> list[tuple[float, str | None]]:
    """The readings in a field, each with the unit typed after it (None when none was): none for
    an empty field, else every one, or EntryError naming what is not a reading."""
    _ = translations(lang).gettext
    text = text.strip()
    out, pos = [], 0
    while pos < len(text):
        if text[pos] in "; \t":
            pos += 1
            continue
        m = _READING.match(text, pos)
        if not m:
            token = re.split(r"[;\s]", text[pos:], maxsplit=1)[0]
            raise EntryError(_("Not a number: “{text}”").format(text=token))
        if m.group("sign"):
            raise EntryError(_("A reading cannot be negative: “{text}”").format(text=m.group(0).strip(" ;")))
        unit = m.group("unit")
        if unit is not None:
            known = canonical_unit(unit)
            if known is None:
                raise EntryError(_("Unknown unit: “{unit}”").format(unit=unit))
            unit = known
        try:
            value = _value(m.group("number"))
        except (ValueError, ZeroDivisionError):
            raise EntryError(_("Not a number: “{text}”").format(text=m.group("number"))) from None
        out.append((value, unit))
        pos = m.end()
    return out


def reading_typed(text: str, unit: str, lang: str):
    """The reading of a number field as the core reads it, or None when the field is empty.
    A unit typed in the field wins over `unit` (the one chosen beside it); readings typed in
    different units are given in the first one's."""
    typed = readings_typed(text, lang)
    if not typed:
        return None
    chosen = next((u for _v, u in typed if u), None) or unit
    values = []
    for value, u in typed:
        if u and chosen and u != chosen:
            try:
                value = float(convert(Decimal(str(value)), u, chosen))
            except ValueError:
                raise EntryError(translations(lang).gettext(
                    "These readings are in units that do not measure the same thing")) from None
        values.append(value)
    unit_part = {"unit": chosen} if chosen else {}
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
