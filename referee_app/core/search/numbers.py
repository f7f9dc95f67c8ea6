"""Numbers with units: the measurements a text states, and the ones a query asks about.

A text states values and ranges: `73,50-74cm`, `4,45 ± 0,08 cm`, `entre 43,18 et 48,26 cm`,
`60-100 W`, `max. 26,70 cm`, `15 g`. A query asks about one value: `74 cm`, `4,45 cm`, `5,5 g`.
The query's value, as precise as it was typed (`74 cm` is 73.5 to 74.5), matches a measurement
whose range it meets (a lone value in the rules counts as a range of a hair's width either
side). Units are
brought to one per dimension (mm and inches to cm, kg to g, minutes to seconds); decimal commas
are decimal points; fractions (`1 3/4 inch`, `1/2 pouce`) are read as inspectors and the rules
print inches. A value no measurement holds is still near the ones that miss it by a few per cent
(`76 cm` is near the board's 73.66 ± 0.32 cm): `nearness` says how near.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


class _Lazy:
    """A pattern compiled when first used. Most queries hold no number, and compiling these
    patterns was most of what a search's start paid for this module (docs/architecture.md,
    Start-up)."""

    def __init__(self, source: str, flags: int = 0):
        self._source, self._flags = source, flags
        self._compiled: re.Pattern | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return getattr(self._compiled, name)


def _digits(text: str) -> bool:
    """Whether the text holds a digit: every pattern below needs one."""
    return any(ch.isdigit() for ch in text)

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
    "mn": ("s", 60.0), "cms": ("cm", 1.0), "centimètres": ("cm", 1.0), "centimetres": ("cm", 1.0),
    "centimètre": ("cm", 1.0), "centimetre": ("cm", 1.0), "centimetri": ("cm", 1.0), "centimetro": ("cm", 1.0),
    "centimeters": ("cm", 1.0), "centimeter": ("cm", 1.0), "millimètres": ("cm", 0.1), "millimetres": ("cm", 0.1),
    "millimetri": ("cm", 0.1), "millimeters": ("cm", 0.1), "gramme": ("g", 1.0), "grammo": ("g", 1.0),
    "gram": ("g", 1.0),
}
# Unit words that name their dimension alone, with no number (`peso in grammi`: the measured
# weights): not the ones with another sense as well (`pouce`, `pollice`: the thumb; `second`,
# `secondo`: the ordinal; `sec`: dry; `in`, `m`, `s`, `g`: words or letters of every text).
DIMENSION_WORDS = frozenset({
    "cm", "cms", "mm", "kg", "gr", "grammes", "gramme", "grams", "gram", "grammi", "grammo", "watt", "watts",
    "inch", "inches", "pouces", "pollici", "centimètres", "centimetres", "centimètre", "centimetre", "centimetri",
    "centimetro", "centimeters", "centimeter", "millimètres", "millimetres", "millimetri", "millimeters",
    "secondes", "seconds", "secondi", "minutes", "minuti", "mn"})
NEAR = 0.08         # a value within 8 % of a measurement is near it

TOLERANCE = 0.012   # a lone value also matches within 1.2 % (printed roundings)
# a mixed number (`1 3/4`), a fraction (`3/32`), a decimal (`4,45`)
_NUM = r"(?:\d+\s+\d+/\d+|\d+/\d+|\d+(?:[.,]\d+)?)"
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
# "73,50-74cm", "2,86 - 3,18 cm", "6,35 à 7,60 cm", "entre 43,18 et 48,26 cm", "66.31 to 70.48 cm"
_RANGE = _Lazy(rf"(?<![\w.,/])(?:(?:entre|between|tra|fra)\s+)?(?P<lo>{_NUM})\s*(?:-|–|à|a|to|et|and|e)\s*"
                    rf"(?P<hi>{_NUM})\s*(?P<unit>{_UNIT})(?!\w)", re.I)
# "4,45 ± 0,08 cm", "47 cm ± 0,30 cm"
_PLUSMINUS = _Lazy(rf"(?<![\w.,/])(?P<v>{_NUM})\s*(?:(?P<unit1>{_UNIT})\s*)?±\s*(?P<d>{_NUM})\s*(?P<unit>{_UNIT})(?!\w)", re.I)
_FRACTIONS = _Lazy(r"\d+(?:[.,](\d+))?")
_UNIT_AT_END = _Lazy(rf"({_UNIT})\s*$", re.I)
_VALUE = _Lazy(rf"(?<![\w.,/])(?P<v>{_NUM})\s*(?P<unit>{_UNIT})(?!\w)", re.I)


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
    whole, _, fraction = text.strip().rpartition(" ") if "/" in text else ("", "", text)
    if "/" in fraction:
        top, bottom = fraction.split("/")
        return (float(whole) if whole else 0.0) + float(top) / max(float(bottom), 1.0)
    return float(fraction.replace(",", "."))


def nearness(measure: Quantity, asked: Quantity) -> float:
    """1 for a measurement that holds the value asked, falling to 0 at NEAR (a share of the
    value) from it; 0 for another dimension or further."""
    if measure.unit != asked.unit:
        return 0.0
    if measure.holds(asked):
        return 1.0
    gap = max(measure.lo - asked.hi, asked.lo - measure.hi)
    scale = max(abs(asked.lo + asked.hi) / 2, 1e-9)
    return max(0.0, 1.0 - gap / scale / NEAR)


def _unit(text: str) -> tuple[str, float]:
    return UNITS[text.lower()]  # the patterns match only the units UNITS knows


def measurements(text: str) -> list[Quantity]:
    """Every value and range with a unit the text states, ranges first where they overlap."""
    out: list[Quantity] = []
    if not _digits(text):
        return out
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
        unit = _UNIT_AT_END.search(typed)
        factor = _unit(unit.group(1))[1] if unit else 1.0
        bottoms = [int(b) for b in re.findall(r"/(\d+)", typed)]
        if bottoms:   # `1 3/4 inch`: within a quarter of its finest fraction
            half = 0.25 / max(max(bottoms), 1) * factor
        else:
            decimals = max(len(f) for f in _FRACTIONS.findall(typed))
            half = 0.5 * 10 ** -decimals * factor
        out.append(Quantity(round(q.lo - half, 6), round(q.hi + half, 6), q.unit, q.start, q.end))
    return out


# --- What kind of number a text states, and a query asks for ---------------------------------------

# Numbers the rules write in words (`dieci minuti`, `two minutes`); not `un`, `uno`, `one`, `a`,
# which are articles as often as numbers.
NUMBER_WORDS = frozenset("""
    deux trois quatre cinq six sept huit neuf dix onze douze quinze vingt trente quarante cinquante cent
    due tre quattro cinque sei sette otto nove dieci undici dodici quindici venti trenta quaranta cinquanta cento
    two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred
    """.split())
TIME_WORDS = frozenset([u for u, (dim, _) in UNITS.items() if dim == "s" and len(u) > 1] +
                       ["heure", "heures", "ora", "ore", "hour", "hours"])
_WORD = _Lazy(r"\w+")

# The questions that ask for a number, as folded word sequences. Their interrogatives are not
# what the rule says (`how long` is no `as long as`; `combien de temps` no `à temps`) and are
# taken out of the words searched; the words that name a number (`maximum`, `durée`) stay.
DURATION_QUESTIONS = ("combien de temps", "en combien de temps", "pendant combien de temps", "quanto dura",
                      "quanto tempo", "entro quanto tempo", "per quanto tempo", "how long", "how much time",
                      "for how long")
# (not `last`, `dure`, `dura`: the last coin, hard; nor `temps`, `tempo`, `time` alone: the time of
# a stroke, the break's tempo, at any time; but a limit or a maximum of time is a duration)
DURATION_WORDS = ("duree", "delai", "durer", "durata", "duration", "temps max", "temps maximum",
                  "temps limite", "limite de temps", "temps imparti", "temps accorde", "temps maximal",
                  "tempo massimo", "tempo limite", "limite di tempo", "tempo concesso", "time limit",
                  "maximum time", "max time", "time allowed",
                  # and a limit to lateness: the minutes a latecomer has
                  "retard maximum", "retard max", "retard autorise", "retard maximal", "ritardo massimo",
                  "ritardo consentito", "ritardo max", "maximum delay", "how late", "maximum lateness")
# how many times something may be done: the rule that says `une seule fois`, `3 fois de suite`,
# `più di tre volte`, `twice` answers, not one stating any other number on the subject
FREQUENCY_QUESTIONS = ("combien de fois", "quante volte", "how many times", "how often")
COUNT_QUESTIONS = ("combien de", "combien d", "combien", "quante volte", "quanti", "quante",
                   "quanto", "how many times", "how many", "how much")
COUNT_WORDS = ("maximum", "minimum", "max", "limite", "nombre", "massimo", "minimo", "numero", "limit", "number")
_PHRASES = [(tuple(p.split()), kind, strip) for phrases, kind, strip in (
    (DURATION_QUESTIONS, "duration", True), (FREQUENCY_QUESTIONS, "times", True), (COUNT_QUESTIONS, "count", True),
    (DURATION_WORDS, "duration", False), (COUNT_WORDS, "count", False)) for p in phrases]
_PHRASES.sort(key=lambda p: -len(p[0]))


def asked(folded_words: list[str]) -> tuple[str | None, set[int]]:
    """(what kind of number a query asks for, "duration", "times", "count" or None; the positions of the
    interrogative words to leave out of the search), from its words folded, in order. A count of
    seconds or minutes (`combien de secondes`) is a duration."""
    kinds: set[str] = set()
    strip: set[int] = set()
    for i in range(len(folded_words)):
        for phrase, kind, stripped in _PHRASES:
            if tuple(folded_words[i:i + len(phrase)]) == phrase and not strip & set(range(i, i + len(phrase))):
                kinds.add(kind)
                if stripped:
                    strip.update(range(i, i + len(phrase)))
                break
    if "count" in kinds and any(w in TIME_WORDS for w in folded_words):
        kinds.add("duration")
    if "times" in kinds:
        return "times", strip
    return ("duration" if "duration" in kinds else "count" if kinds else None), strip


TIMES_WORDS = frozenset({"fois", "volte", "volta", "times", "time"})
SINGLE_WORDS = frozenset({"seule", "seul", "sola", "solo", "single"})   # `une seule fois`, not `une fois que`
ONCE = frozenset({"twice", "thrice"})


def _times(words: list[str], i: int) -> bool:
    """Whether words[i] says how many times: `3 fois`, `trois fois`, `une seule fois`, `tre volte`,
    `una sola volta`, `three times`, `twice`, `only once`, `more than once`."""
    w = words[i]
    if w in ONCE or (w == "once" and i and words[i - 1] in ("only", "than", "just")):
        return True
    if w not in TIMES_WORDS or not i:
        return False
    before = words[i - 1]
    return before.isdigit() or before in NUMBER_WORDS or before in SINGLE_WORDS


def stated(text: str) -> set[str]:
    """What numbers a text states: "count" for any number (in digits or words), "duration" for a
    number of seconds, minutes or hours (`2 minutes`, `dieci minuti`, `five minutes`), "times" for
    how many times (`une seule fois`, `3 fois de suite`, `twice`)."""
    out: set[str] = set()
    words = [w.lower() for w in _WORD.findall(text)]
    if any(_times(words, i) for i in range(len(words))):
        out.update(("count", "times"))
    for i, w in enumerate(words):
        glued = re.fullmatch(r"\d+([^\W\d_]+)", w)   # `15mn`, `10sec`
        if glued and glued.group(1) in TIME_WORDS:
            return out | {"count", "duration"}
        if w.isdigit() or w in NUMBER_WORDS:
            out.add("count")
            if i + 1 < len(words) and words[i + 1] in TIME_WORDS:
                out.add("duration")
                break
    return out


# A count's range with no unit: `de 40 à 59`, `40-59`, `from 40 to 59`, `tra 3 e 5`; and a bound:
# `jusqu'à 39`, `up to 39`, `fino a 39` (0 to 39), `au-delà de 59`, `more than 59` (past 59).
_COUNT_RANGE = _Lazy(r"(?<![\w.,/])(\d+)\s*(?:-|–|à|a|to|et|and|e)\s*(\d+)(?![\w.,/]|\s*(?:%s)(?!\w))" % _UNIT,
                          re.I)
_UP_TO = _Lazy(r"(?:jusqu['’]?\s*à|jusqu['’]?a|up\s+to|fino\s+a|al\s+massimo|au\s+plus|at\s+most)\s+(\d+)(?![\w.,/])",
                    re.I)


def count_ranges(text: str) -> list[tuple[int, int]]:
    """The ranges of whole numbers with no unit a text states (`Jusqu'à 39 joueurs, 6 tours ;
    7 tours de 40 à 59`: 0 to 39, 40 to 59)."""
    if not _digits(text):
        return []
    out = [(min(int(a), int(b)), max(int(a), int(b))) for a, b in _COUNT_RANGE.findall(text)]
    out += [(0, int(n)) for n in _UP_TO.findall(text)]
    return [(lo, hi) for lo, hi in out if lo < hi]
