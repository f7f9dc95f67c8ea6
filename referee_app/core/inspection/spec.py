"""The equipment specifications of knowledge/equipment/*.yaml, loaded and refused when broken.

A file holds one item (`item: striker`) or several (`items: [...]`); each item lists its
measurements in the order an inspector takes them, and each measurement its limits, every limit
citing its clause and keeping its printed form. Nothing about what a limit *is* lives in Python:
this module only reads the data and proves it consistent (a tolerance that does not give the
bounds written beside it, a limit outside what is plausible, a typo in a key), naming the file
and line of every problem.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from referee_app.core.errors import KnowledgeError
from referee_app.languages import LANGUAGES
from .units import (FACTORS, NON_NUMERIC, QUANTITIES, convert, parse_inches, to_decimal,
                               units_for)
from referee_app.core.knowledge.files import load_file
from referee_app.core.knowledge.loader import knowledge_root
from referee_app.core.knowledge.model import Problem
from referee_app.core.knowledge.yamlio import YamlError, line_of

CLAUSE_ID = re.compile(r"^[a-z][a-z0-9-]*:[A-Za-z0-9.\-]+$")

ITEM_KEYS = {"item", "label", "clauses", "approval", "measurements", "each", "colours", "composition", "note"}
MEASUREMENT_KEYS = {"name", "letter", "label", "quantity", "unit", "required", "plausible", "limits",
                    "condition_for", "note"}
LIMIT_KEYS = {"clause", "printed", "min", "max", "nominal", "tolerance", "precision", "equals", "named",
              "others_admitted", "when", "applies", "inches", "note", "confirmed_by"}
INCH_KEYS = {"min", "max", "nominal", "tolerance"}
COMPOSITION_KEYS = {"clause", "printed", "counts", "confirmed_by", "also"}


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


class _Reader:
    """Reads one file, collecting problems instead of stopping at the first."""

    def __init__(self, rel: str, problems: list[Problem]):
        self.rel, self.problems = rel, problems

    def problem(self, node, message: str) -> None:
        self.problems.append(Problem(self.rel, line_of(node, 1), message))

    def unknown_keys(self, node, known: set[str], what: str) -> None:
        for key in sorted(set(node) - known, key=str):
            self.problem(node, f"{what}: unknown field '{key}'")

    def text_map(self, node, raw, what: str, required: bool = True) -> dict:
        """A {en, fr, it} mapping of texts."""
        if raw is None and not required:
            return {}
        if not isinstance(raw, dict):
            self.problem(node, f"{what}: needs texts in {', '.join(LANGUAGES)}")
            return {}
        for lang in LANGUAGES:
            if not raw.get(lang):
                self.problem(raw, f"{what}: no text in '{lang}'")
        for lang in set(raw) - set(LANGUAGES):
            self.problem(raw, f"{what}: unknown language '{lang}'")
        return {k: str(v) for k, v in raw.items()}

    def clause(self, node, value, what: str) -> str:
        text = str(value or "")
        if not CLAUSE_ID.match(text):
            self.problem(node, f"{what}: '{value}' is not a clause id (SOURCE:PARAGRAPH)")
        return text

    def clauses(self, node, values, what: str) -> tuple[str, ...]:
        if values is None:
            return ()
        if not isinstance(values, list):
            self.problem(node, f"{what}: must be a list of clause ids")
            return ()
        return tuple(self.clause(node, v, what) for v in values)

    def number(self, node, value, what: str) -> Decimal | None:
        if value is None:
            return None
        number = to_decimal(value)
        if number is None:
            self.problem(node, f"{what}: '{value}' is not a number")
        return number


def _read_inches(r: _Reader, node, raw, what: str) -> InchForm | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not raw:
        r.problem(node, f"{what}: inches must be a mapping of min/max/nominal/tolerance")
        return None
    r.unknown_keys(raw, INCH_KEYS, what + " inches")
    try:
        parsed = {k: parse_inches(v) for k, v in raw.items() if k in INCH_KEYS}
    except (ValueError, ZeroDivisionError) as exc:
        r.problem(raw, f"{what}: {exc}")
        return None
    if "tolerance" in parsed:
        if "nominal" not in parsed:
            r.problem(raw, f"{what}: an inch tolerance needs its nominal")
            return None
        text = f"{raw['nominal']} ± {raw['tolerance']}"
        return InchForm(text, parsed["nominal"] - parsed["tolerance"], parsed["nominal"] + parsed["tolerance"])
    if "nominal" in parsed:
        return InchForm(str(raw["nominal"]), None, None)  # an equivalent to show, no bound of its own
    text = " - ".join(str(raw[k]) for k in ("min", "max") if k in raw)
    return InchForm(text, parsed.get("min"), parsed.get("max"))


def _check_range(r: _Reader, raw, what: str, lo, hi, nominal, tolerance, precision) -> None:
    """A tolerance or a printed precision must give exactly the bounds written beside it: the
    bounds are what is applied, the nominal form is what is shown, and they must not drift."""
    if tolerance is None and precision is None:
        if nominal is not None:
            r.problem(raw, f"{what}: a nominal value needs a tolerance or a precision to become bounds")
    elif nominal is None:
        r.problem(raw, f"{what}: a tolerance or precision needs its nominal value")
    elif tolerance is not None and precision is not None:
        r.problem(raw, f"{what}: give a tolerance or a precision, not both")
    else:
        half = tolerance if tolerance is not None else precision / 2
        if (lo, hi) != (nominal - half, nominal + half):
            r.problem(raw, f"{what}: min/max must be {nominal - half} and {nominal + half} "
                           f"(nominal {nominal} ∓ {half}), not {lo} and {hi}")
    if lo is not None and hi is not None and lo > hi:
        r.problem(raw, f"{what}: min {lo} is above max {hi}")


def _check_kind(r: _Reader, raw, what: str, quantity: str, applies: bool, lo, hi) -> None:
    if quantity == "boolean" and (lo is not None or hi is not None):
        r.problem(raw, f"{what}: a yes/no measurement has no min or max")
    if quantity not in NON_NUMERIC and applies and lo is None and hi is None:
        r.problem(raw, f"{what}: an applied limit needs a min or a max")


def _yes_no(r: _Reader, raw, key: str, default, what: str) -> bool | None:
    """raw[key], true or false; absent, `default`; anything else is reported and gives `default`."""
    if key not in raw or (default is None and raw[key] is None):
        return default
    if not isinstance(raw[key], bool):
        r.problem(raw, f"{what}: '{key}' must be true or false")
        return default
    return raw[key]


def _conditions(r: _Reader, raw, what: str) -> dict:
    when = raw.get("when") or {}
    if not isinstance(when, dict) or any(not isinstance(v, bool) for v in when.values()):
        r.problem(raw, f"{what}: 'when' must map yes/no measurements to true or false")
        return {}
    return when


def _read_limit(r: _Reader, raw, m_name: str, quantity: str, unit: str) -> Limit | None:
    what = f"measurement {m_name}"
    if not isinstance(raw, dict):
        r.problem(raw, f"{what}: a limit must be a mapping")
        return None
    r.unknown_keys(raw, LIMIT_KEYS, what)
    clause = r.clause(raw, raw.get("clause"), what)
    printed = raw.get("printed")
    if not printed:
        r.problem(raw, f"{what}: a limit needs its 'printed' form, as the source prints it")
    lo, hi = r.number(raw, raw.get("min"), what + " min"), r.number(raw, raw.get("max"), what + " max")
    nominal = r.number(raw, raw.get("nominal"), what + " nominal")
    tolerance = r.number(raw, raw.get("tolerance"), what + " tolerance")
    precision = r.number(raw, raw.get("precision"), what + " precision")
    applies = _yes_no(r, raw, "applies", True, what) is not False  # absent or malformed: True
    _check_range(r, raw, what, lo, hi, nominal, tolerance, precision)
    equals = _yes_no(r, raw, "equals", None, what)
    _check_kind(r, raw, what, quantity, applies, lo, hi)
    when = _conditions(r, raw, what)
    named = raw.get("named") or []
    if not isinstance(named, list):
        r.problem(raw, f"{what}: 'named' must be a list")
        named = []
    inches = _read_inches(r, raw, raw.get("inches"), what)
    if inches is not None and unit not in FACTORS["length"]:
        r.problem(raw, f"{what}: inches given for a measurement in {unit}")
    return Limit(
        clause=clause, printed=str(printed or ""), min=lo, max=hi, nominal=nominal, tolerance=tolerance,
        precision=precision, equals=equals,
        named=tuple(str(n) for n in named), others_admitted=bool(raw.get("others_admitted")),
        when=tuple(sorted(when.items())), applies=applies, inches=inches,
        note=r.text_map(raw, raw.get("note"), what + " note", required=False),
        confirmed_by=r.clauses(raw, raw.get("confirmed_by"), what + " confirmed_by"), line=line_of(raw),
    )


def _read_unit(r: _Reader, raw, what: str, quantity: str) -> str:
    unit = str(raw.get("unit", "") or "")
    if quantity in FACTORS and unit not in FACTORS[quantity]:
        r.problem(raw, f"{what}: unit '{unit}' is not a unit of {quantity} ({', '.join(FACTORS[quantity]) or 'none'})")
    if quantity in NON_NUMERIC and unit:
        r.problem(raw, f"{what}: a {quantity} measurement has no unit")
    return unit


def _read_plausible(r: _Reader, raw, what: str, quantity: str, unit: str, limits) -> tuple:
    """A reading outside this range is refused as a slip (a striker of 40 cm is 40 mm typed as
    cm), never judged: the range must hold every limit with room on both sides."""
    plausible = raw.get("plausible")
    if quantity in NON_NUMERIC:
        if plausible is not None:
            r.problem(raw, f"{what}: a {quantity} measurement has no plausible range")
        return None, None
    if not isinstance(plausible, dict) or "min" not in plausible or "max" not in plausible:
        r.problem(raw, f"{what}: needs 'plausible: {{min, max}}', the readings not refused as slips")
        return None, None
    p_lo, p_hi = r.number(raw, plausible["min"], what + " plausible"), r.number(raw, plausible["max"], what + " plausible")
    bounds = [b for lim in limits for b in (lim.min, lim.max) if b is not None]
    for bound in bounds:
        if p_lo is not None and p_hi is not None and not p_lo < bound < p_hi:
            r.problem(raw, f"{what}: limit {bound} {unit} is not strictly inside the plausible range")
    return p_lo, p_hi


def _check_limits(r: _Reader, raw, what: str, quantity: str, limits) -> None:
    if quantity == "boolean" and not raw.get("condition_for"):
        for lim in limits:
            if lim.applies and lim.equals is None:
                r.problem(raw, f"{what}: a yes/no limit needs 'equals: true|false'")
    if not any(lim.applies for lim in limits):
        r.problem(raw, f"{what}: no limit applies (every one says applies: false)")


def _read_measurement(r: _Reader, raw, item_name: str) -> Measurement | None:
    if not isinstance(raw, dict) or not raw.get("name"):
        r.problem(raw, f"item {item_name}: a measurement needs a name")
        return None
    name = str(raw["name"])
    what = f"measurement {name}"
    r.unknown_keys(raw, MEASUREMENT_KEYS, what)
    quantity = raw.get("quantity")
    if quantity not in QUANTITIES:
        r.problem(raw, f"{what}: quantity '{quantity}' is not one of {', '.join(QUANTITIES)}")
        return None
    unit = _read_unit(r, raw, what, quantity)
    required = raw.get("required")
    if not isinstance(required, bool):
        r.problem(raw, f"{what}: 'required' must be true or false")
    raw_limits = raw.get("limits")
    if not isinstance(raw_limits, list) or not raw_limits:
        r.problem(raw, f"{what}: needs a list of limits, each citing its clause")
        raw_limits = []
    limits = tuple(x for x in (_read_limit(r, lim, name, quantity, unit) for lim in raw_limits) if x)
    p_lo, p_hi = _read_plausible(r, raw, what, quantity, unit, limits)
    _check_limits(r, raw, what, quantity, limits)
    return Measurement(
        name=name, label=r.text_map(raw, raw.get("label"), what + " label"), quantity=quantity, unit=unit,
        required=bool(required), limits=limits, plausible_min=p_lo, plausible_max=p_hi,
        letter=raw.get("letter"), condition_for=tuple(raw.get("condition_for") or ()),
        note=r.text_map(raw, raw.get("note"), what + " note", required=False), line=line_of(raw),
    )


def _read_composition(r: _Reader, raw, colours: dict) -> Composition | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        r.problem(raw, "composition: must be a mapping")
        return None
    r.unknown_keys(raw, COMPOSITION_KEYS, "composition")
    counts = raw.get("counts")
    if not isinstance(counts, dict) or not counts:
        r.problem(raw, "composition: needs 'counts', a number per colour")
        counts = {}
    for colour, n in counts.items():
        if colour not in colours:
            r.problem(raw, f"composition: colour '{colour}' is not among the item's colours")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            r.problem(raw, f"composition: count of {colour} must be a whole number")
    also = []
    for entry in raw.get("also") or []:
        if not isinstance(entry, dict) or "clause" not in entry or "printed" not in entry:
            r.problem(raw, "composition: each 'also' entry needs a clause and its printed text")
            continue
        r.clause(entry, entry["clause"], "composition also")
        also.append({"clause": str(entry["clause"]), "printed": str(entry["printed"]),
                     "note": r.text_map(entry, entry.get("note"), "composition also note", required=False)})
    if not raw.get("printed"):
        r.problem(raw, "composition: needs its 'printed' form")
    return Composition(r.clause(raw, raw.get("clause"), "composition"), str(raw.get("printed", "")),
                       dict(counts), r.clauses(raw, raw.get("confirmed_by"), "composition confirmed_by"), tuple(also))


def _read_measurements(r: _Reader, raw, name: str) -> list[Measurement]:
    """An item's measurements, each once; a limit's `when` must name a yes/no one of them."""
    measurements, seen = [], set()
    for m_raw in raw.get("measurements") or []:
        m = _read_measurement(r, m_raw, name)
        if m is None:
            continue
        if m.name in seen:
            r.problem(m_raw, f"item {name}: measurement {m.name} is listed twice")
        seen.add(m.name)
        measurements.append(m)
    yes_no = {x.name for x in measurements if x.quantity == "boolean"}
    for m in measurements:
        for fact in (fact for lim in m.limits for fact, _value in lim.when if fact not in yes_no):
            r.problem(raw, f"measurement {m.name}: 'when' names {fact}, not a yes/no measurement of {name}")
    return measurements


def _read_item(r: _Reader, raw) -> Item | None:
    if not isinstance(raw, dict) or not raw.get("item"):
        r.problem(raw, "an item needs its name ('item: striker')")
        return None
    name = str(raw["item"])
    r.unknown_keys(raw, ITEM_KEYS, f"item {name}")
    measurements = _read_measurements(r, raw, name)
    colours = {str(colour): {lang: tuple(str(w).lower() for w in ws) for lang, ws in (words or {}).items()}
               for colour, words in (raw.get("colours") or {}).items()}
    composition = _read_composition(r, raw.get("composition"), colours)
    each = raw.get("each")
    if bool(each) != bool(composition):
        r.problem(raw, f"item {name}: a set needs both 'each' and 'composition'")
    if not measurements and not each:
        r.problem(raw, f"item {name}: no measurements")
    approval = raw.get("approval")
    if approval is not None:
        approval = {"clauses": list(r.clauses(approval, approval.get("clauses"), f"item {name} approval")),
                    "note": r.text_map(approval, approval.get("note"), f"item {name} approval note")}
    return Item(name=name, label=r.text_map(raw, raw.get("label"), f"item {name} label"),
                clauses=r.clauses(raw, raw.get("clauses"), f"item {name} clauses"),
                measurements=tuple(measurements), file=r.rel, line=line_of(raw), approval=approval,
                each=str(each) if each else None, colours=colours, composition=composition,
                note=r.text_map(raw, raw.get("note"), f"item {name} note", required=False))


def equipment_root(kb_root: Path | None = None) -> Path:
    return Path(kb_root or knowledge_root()) / "equipment"


def load_specs(root: Path | None = None, strict: bool = True) -> tuple[Specs, list[Problem]]:
    """Read every equipment file under `root` (default: the knowledge base's equipment/ folder)."""
    root = Path(root) if root else equipment_root()
    problems: list[Problem] = []
    items: dict[str, Item] = {}
    digest = hashlib.sha256()
    files = sorted(root.glob("*.yaml")) if root.is_dir() else []
    if not files:
        problems.append(Problem("equipment/", 0, "no equipment specification files"))
    for path in files:
        rel = f"equipment/{path.name}"
        digest.update(rel.encode() + b"\0" + path.read_bytes())
        r = _Reader(rel, problems)
        try:
            data = load_file(path, rel)
        except YamlError as exc:
            problems.append(Problem(rel, exc.line, exc.problem))
            continue
        if isinstance(data, dict) and "items" in data:
            raw_items = data["items"] if isinstance(data["items"], list) else []
            if not raw_items:
                r.problem(data, "'items' must be a non-empty list")
        else:
            raw_items = [data]
        for raw in raw_items:
            item = _read_item(r, raw)
            if item is None:
                continue
            if item.name in items:
                first = items[item.name]
                r.problem(raw, f"item {item.name} is specified twice (first at {first.file}:{first.line})")
                continue
            items[item.name] = item
    for item in items.values():
        if item.each and item.each not in items:
            problems.append(Problem(item.file, item.line, f"item {item.name}: each member is '{item.each}', an unknown item"))
    specs = Specs(items, root, digest.hexdigest()[:16])
    if strict and problems:
        raise KnowledgeError(problems)
    return specs, problems


def dangling_clauses(specs: Specs, clause_ids) -> list[str]:
    """The clauses the specifications cite that the knowledge base does not hold."""
    return sorted(specs.clause_ids() - set(clause_ids))


def inch_bounds(limit: Limit, unit: str) -> tuple[Decimal | None, Decimal | None]:
    """The printed inch equivalent's bounds in the limit's own unit (None where it prints none)."""
    if limit.inches is None:
        return None, None
    conv = [None if b is None else convert(b, "in", unit) for b in (limit.inches.min, limit.inches.max)]
    return conv[0], conv[1]


@lru_cache(maxsize=1)
def default_specs() -> Specs:
    """The installed specifications, loaded once per process."""
    specs, _ = load_specs()
    return specs
