"""The records of the equipment specifications (knowledge/equipment/*.yaml) as spec.py reads them:
an item, its measurements in the order an inspector takes them, each measurement's limits with the
clause each cites and its printed form, and a set's composition.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from .units import NON_NUMERIC, convert, units_for


@dataclass(frozen=True)
class InchForm:
    """The inch equivalent the source prints beside a metric limit, as bounds in inches."""

    text: str                      # as read, e.g. "1 1/8 - 1 1/4" or "29 ± 1/8"
    min: Decimal | None
    max: Decimal | None


@dataclass(frozen=True)
class Limit:
    clause: str
    printed: str
    min: Decimal | None = None
    max: Decimal | None = None
    nominal: Decimal | None = None
    tolerance: Decimal | None = None
    precision: Decimal | None = None
    equals: bool | None = None
    named: tuple[str, ...] = ()
    others_admitted: bool = False
    when: tuple[tuple[str, bool], ...] = ()
    applies: bool = True
    inches: InchForm | None = None
    note: dict = field(default_factory=dict)
    confirmed_by: tuple[str, ...] = ()
    line: int = 0

    def matches(self, facts: dict) -> bool | None:
        """Whether this limit's `when` holds for the facts read; None when a fact it needs is missing."""
        for name, wanted in self.when:
            if name not in facts:
                return None
            if facts[name] is not wanted:
                return False
        return True

    def clauses(self) -> list[str]:
        return [self.clause, *self.confirmed_by]


@dataclass(frozen=True)
class Measurement:
    name: str
    label: dict
    quantity: str
    unit: str
    required: bool
    limits: tuple[Limit, ...]
    plausible_min: Decimal | None = None
    plausible_max: Decimal | None = None
    letter: str | None = None
    condition_for: tuple[str, ...] = ()
    note: dict = field(default_factory=dict)
    line: int = 0
    each_reading: dict = field(default_factory=dict)   # {lang: "pocket {n}"}: what reading n is of

    @property
    def numeric(self) -> bool:
        return self.quantity not in NON_NUMERIC

    def units(self) -> tuple[str, ...]:
        return units_for(self.quantity)

    def applied(self) -> list[Limit]:
        return [lim for lim in self.limits if lim.applies]

    def shown(self) -> list[Limit]:
        return [lim for lim in self.limits if not lim.applies]

    def label_in(self, lang: str) -> str:
        return self.label.get(lang) or self.label["en"]

    def reading_name(self, n: int, lang: str) -> str | None:
        """What the n-th (1-based) of several readings is of ("pocket 3"), when the spec says."""
        words = self.each_reading.get(lang) or self.each_reading.get("en")
        return words.format(n=n) if words else None


@dataclass(frozen=True)
class Composition:
    """What a complete set holds: how many coins of each colour."""

    clause: str
    printed: str
    counts: dict
    confirmed_by: tuple[str, ...] = ()
    also: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Item:
    name: str
    label: dict
    clauses: tuple[str, ...]
    measurements: tuple[Measurement, ...]
    file: str
    line: int
    approval: dict | None = None
    each: str | None = None                       # a set: the item each member is checked as
    colours: dict = field(default_factory=dict)   # colour -> {lang: (words...)}
    composition: Composition | None = None
    note: dict = field(default_factory=dict)

    def measurement(self, name: str) -> Measurement | None:
        return next((m for m in self.measurements if m.name == name), None)

    def label_in(self, lang: str) -> str:
        return self.label.get(lang) or self.label["en"]

    def colour_of(self, word) -> str | None:
        """The colour an inspector's word names, in any of the three languages."""
        text = str(word).strip().lower()
        for colour, words in self.colours.items():
            if text == colour or any(text == w for ws in words.values() for w in ws):
                return colour
        return None

    def colour_label(self, colour: str, lang: str) -> str:
        words = self.colours.get(colour, {})
        return (words.get(lang) or words.get("en") or (colour,))[0]


@dataclass(frozen=True)
class Specs:
    items: dict
    root: Path
    stamp: str

    def item(self, name: str) -> Item | None:
        return self.items.get(name)

    def clause_ids(self) -> set[str]:
        """Every clause the specifications cite (the knowledge base must hold each)."""
        out: set[str] = set()
        for item in self.items.values():
            out.update(item.clauses)
            if item.approval:
                out.update(item.approval["clauses"])
            if item.composition:
                out.add(item.composition.clause)
                out.update(item.composition.confirmed_by)
                out.update(a["clause"] for a in item.composition.also)
            for m in item.measurements:
                for lim in m.limits:
                    out.update(lim.clauses())
        return out


def inch_bounds(limit: Limit, unit: str) -> tuple[Decimal | None, Decimal | None]:
    """The printed inch equivalent's bounds in the limit's own unit (None where it prints none)."""
    if limit.inches is None:
        return None, None
    conv = [None if b is None else convert(b, "in", unit) for b in (limit.inches.min, limit.inches.max)]
    return conv[0], conv[1]
