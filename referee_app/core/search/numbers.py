"""Numbers with units: the measurements a text states, and the ones a query asks about.

A text states values and ranges: `73,50-74cm`, `4,45 ± 0,08 cm`, `entre 43,18 et 48,26 cm`,
`60-100 W`, `max. 26,70 cm`, `15 g`. A query asks about one value: `74 cm`, `4,45 cm`, `5,5 g`.
The query's value, as precise as it was typed (`74 cm` is 73.5 to 74.5), matches a measurement
whose range it meets (a lone value in the rules counts as a range of a hair's width either
side). Units are
brought to one per dimension (mm and inches to cm, kg to g, minutes to seconds); decimal commas
are decimal points.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# unit as typed -> (dimension unit, factor to it)
UNITS = {
    "mm": ("cm", 0.1), "cm": ("cm", 1.0), "m": ("cm", 100.0),
    "in": ("cm", 2.54), "inch": ("cm", 2.54), "inches": ("cm", 2.54), "pouce": ("cm", 2.54),
    "pouces": ("cm", 2.54), "pollice": ("cm", 2.54), "pollici": ("cm", 2.54),
    "g": ("g", 1.0), "gr": ("g", 1.0), "kg": ("g", 1000.0), "grammes": ("g", 1.0), "grams": ("g", 1.0),
    "grammi": ("g", 1.0),
    "w": ("W", 1.0), "watt": ("W", 1.0), "watts": ("W", 1.0),
    "s": ("s", 1.0), "sec": ("s", 1.0), "secondes": ("s", 1.0), "seconde": ("s", 1.0), "seconds": ("s", 1.0),
    "second": ("s", 1.0), "secondi": ("s", 1.0), "secondo": ("s", 1.0),
    "min": ("s", 60.0), "minute": ("s", 60.0), "minutes": ("s", 60.0), "minuti": ("s", 60.0), "minuto": ("s", 60.0),
}
TOLERANCE = 0.012   # a lone value also matches within 1.2 % (printed roundings)
_NUM = r"\d+(?:[.,]\d+)?"
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
# "73,50-74cm", "2,86 - 3,18 cm", "6,35 à 7,60 cm", "entre 43,18 et 48,26 cm", "66.31 to 70.48 cm"
_RANGE = re.compile(rf"(?<![\w.,/])(?:(?:entre|between|tra|fra)\s+)?(?P<lo>{_NUM})\s*(?:-|–|à|a|to|et|and|e)\s*"
                    rf"(?P<hi>{_NUM})\s*(?P<unit>{_UNIT})(?!\w)", re.I)
# "4,45 ± 0,08 cm", "47 cm ± 0,30 cm"
_PLUSMINUS = re.compile(rf"(?<![\w.,/])(?P<v>{_NUM})\s*(?:(?P<unit1>{_UNIT})\s*)?±\s*(?P<d>{_NUM})\s*(?P<unit>{_UNIT})(?!\w)", re.I)
_FRACTIONS = re.compile(r"\d+(?:[.,](\d+))?")
_UNIT_AT_END = re.compile(rf"({_UNIT})\s*$", re.I)
_VALUE = re.compile(rf"(?<![\w.,/])(?P<v>{_NUM})\s*(?P<unit>{_UNIT})(?!\w)", re.I)


@dataclass(frozen=True)
class Quantity:
    """A value or range in one dimension's unit; where it stands in the text it was read from."""

    lo: float
    hi: float
    unit: str
    start: int
    end: int

    def holds(self, other: "Quantity") -> bool:
        """Whether this measurement's range meets the other's (a value asked, as precise as typed)."""
        if self.unit != other.unit:
            return False
        slack = TOLERANCE * max(abs(self.lo), abs(self.hi)) if self.lo == self.hi else 1e-9
        return self.lo - slack <= other.hi and other.lo <= self.hi + slack


def _num(text: str) -> float:
    return float(text.replace(",", "."))


def _unit(text: str) -> tuple[str, float]:
    return UNITS[text.lower()]  # the patterns match only the units UNITS knows


def measurements(text: str) -> list[Quantity]:
    """Every value and range with a unit the text states, ranges first where they overlap."""
    out: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in taken)

    for m in _PLUSMINUS.finditer(text):
        unit, f = _unit(m.group("unit"))
        v, d = _num(m.group("v")) * f, _num(m.group("d")) * f
        out.append(Quantity(round(v - d, 4), round(v + d, 4), unit, m.start(), m.end()))
        taken.append((m.start(), m.end()))
    for m in _RANGE.finditer(text):
        if not free(m.start(), m.end()):
            continue
        unit, f = _unit(m.group("unit"))
        lo, hi = sorted((_num(m.group("lo")) * f, _num(m.group("hi")) * f))
        out.append(Quantity(round(lo, 4), round(hi, 4), unit, m.start(), m.end()))
        taken.append((m.start(), m.end()))
    for m in _VALUE.finditer(text):
        if not free(m.start(), m.end()):
            continue
        unit, f = _unit(m.group("unit"))
        v = round(_num(m.group("v")) * f, 4)
        out.append(Quantity(v, v, unit, m.start(), m.end()))
    return sorted(out, key=lambda q: q.start)


def in_query(text: str) -> list[Quantity]:
    """The values with a unit a query asks about (`74 cm`, `5,5 g`, `entre 73 et 74 cm`), each as
    precise as it was typed: `74 cm` is anything from 73.5 to 74.5 cm, `2,5 cm` from 2.45 to
    2.55 (the rules print 73.50-74 and 2.54)."""
    out = []
    for q in measurements(text):
        typed = text[q.start:q.end]
        decimals = max(len(f) for f in _FRACTIONS.findall(typed))
        unit = _UNIT_AT_END.search(typed)
        half = 0.5 * 10 ** -decimals * (_unit(unit.group(1))[1] if unit else 1.0)
        out.append(Quantity(round(q.lo - half, 6), round(q.hi + half, 6), q.unit, q.start, q.end))
    return out
