"""The equipment specifications of knowledge/equipment/*.yaml, loaded and refused when broken
(their records: model.py).

A file holds one item (`item: striker`) or several (`items: [...]`); each item lists its
measurements in the order an inspector takes them, and each measurement its limits, every limit
citing its clause and keeping its printed form. Nothing about what a limit *is* lives in Python:
this module only reads the data and proves it consistent, naming the file and line of every
problem. The shape (fields, types, a typo in a key, a clause id's form) is the JSON Schema
referee_app/schemas/knowledge/equipment.json, read by core/knowledge/schema_reader.py; what a
schema cannot say is checked here (a tolerance that does not give the bounds written beside it, a
unit of another quantity, a limit outside what is plausible).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from referee_app.core.errors import KnowledgeError
from referee_app.core.knowledge import schema_reader
from .model import Composition, InchForm, Item, Limit, Measurement, Specs
from .units import FACTORS, NON_NUMERIC, parse_inches, to_decimal
from referee_app.core.knowledge.files import load_file
from referee_app.core.knowledge.loader import knowledge_root
from referee_app.core.knowledge.model import Problem
from referee_app.core.knowledge.yamlio import YamlError, line_of


class _Reader:
    """Builds one file's records from what its schema accepted, and reports what only Python can
    check (the schema, referee_app/schemas/knowledge/equipment.json, says the rest)."""

    def __init__(self, rel: str, problems: list[Problem], report):
        self.rel, self.problems, self.report = rel, problems, report

    def problem(self, node, message: str) -> None:
        self.problems.append(Problem(self.rel, line_of(node, 1), message))


def _texts(raw) -> dict:
    return {str(k): str(v) for k, v in (raw or {}).items()}


def _inches(r: _Reader, raw, what: str) -> InchForm | None:
    if raw is None:
        return None
    try:
        parsed = {k: parse_inches(v) for k, v in raw.items()}
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


def _read_limit(r: _Reader, raw, what: str, m: dict) -> Limit:
    """One limit the schema accepted; `m` is its measurement's quantity and unit."""
    lo, hi, nominal, tolerance, precision = (to_decimal(raw.get(k)) for k in ("min", "max", "nominal", "tolerance",
                                                                              "precision"))
    applies = raw.get("applies", True)
    _check_range(r, raw, what, lo, hi, nominal, tolerance, precision)
    if m["quantity"] == "boolean" and (lo is not None or hi is not None):
        r.problem(raw, f"{what}: a yes/no measurement has no min or max")
    if m["quantity"] not in NON_NUMERIC and applies and lo is None and hi is None:
        r.problem(raw, f"{what}: an applied limit needs a min or a max")
    inches = _inches(r, raw.get("inches"), what)
    if inches is not None and m["unit"] not in FACTORS["length"]:
        r.problem(raw, f"{what}: inches given for a measurement in {m['unit']}")
    return Limit(
        clause=raw["clause"], printed=raw["printed"], min=lo, max=hi, nominal=nominal, tolerance=tolerance,
        precision=precision, equals=raw.get("equals"), named=tuple(raw.get("named") or ()),
        others_admitted=bool(raw.get("others_admitted")), when=tuple(sorted((raw.get("when") or {}).items())),
        applies=applies, inches=inches, note=_texts(raw.get("note")),
        confirmed_by=tuple(raw.get("confirmed_by") or ()), line=line_of(raw),
    )


def _read_measurement(r: _Reader, raw) -> Measurement:
    """One measurement the schema accepted, limits and all."""
    name, quantity = raw["name"], raw["quantity"]
    what = f"measurement {name}"
    unit = str(raw.get("unit") or "")
    if quantity in FACTORS and unit not in FACTORS[quantity]:
        r.problem(raw, f"{what}: unit '{unit}' is not a unit of {quantity} ({', '.join(FACTORS[quantity]) or 'none'})")
    if quantity in NON_NUMERIC and unit:
        r.problem(raw, f"{what}: a {quantity} measurement has no unit")
    limits = tuple(_read_limit(r, lim, f"{what}, limit {i}", {"quantity": quantity, "unit": unit})
                   for i, lim in enumerate(raw["limits"], 1))
    p_lo, p_hi = _plausible(r, raw, what, quantity, unit, limits)
    if quantity == "boolean" and not raw.get("condition_for"):
        for lim in limits:
            if lim.applies and lim.equals is None:
                r.problem(raw, f"{what}: a yes/no limit needs 'equals: true|false'")
    if not any(lim.applies for lim in limits):
        r.problem(raw, f"{what}: no limit applies (every one says applies: false)")
    return Measurement(
        name=name, label=_texts(raw["label"]), quantity=quantity, unit=unit, required=raw["required"],
        limits=limits, plausible_min=p_lo, plausible_max=p_hi, letter=raw.get("letter"),
        condition_for=tuple(raw.get("condition_for") or ()), note=_texts(raw.get("note")), line=line_of(raw),
        each_reading=_texts(raw.get("each_reading")),
    )


def _plausible(r: _Reader, raw, what: str, quantity: str, unit: str, limits) -> tuple:
    """A reading outside this range is refused as a slip (a striker of 40 cm is 40 mm typed as
    cm), never judged: the range must hold every limit with room on both sides."""
    plausible = raw.get("plausible")
    if quantity in NON_NUMERIC:
        if plausible is not None:
            r.problem(raw, f"{what}: a {quantity} measurement has no plausible range")
        return None, None
    if plausible is None:
        r.problem(raw, f"{what}: needs 'plausible: {{min, max}}', the readings not refused as slips")
        return None, None
    p_lo, p_hi = to_decimal(plausible["min"]), to_decimal(plausible["max"])
    for bound in (b for lim in limits for b in (lim.min, lim.max) if b is not None):
        if not p_lo < bound < p_hi:
            r.problem(raw, f"{what}: limit {bound} {unit} is not strictly inside the plausible range")
    return p_lo, p_hi


def _read_composition(r: _Reader, raw, colours: dict) -> Composition | None:
    if raw is None or r.report.refused(raw):
        return None
    for colour in raw["counts"]:
        if colour not in colours:
            r.problem(raw, f"composition: colour '{colour}' is not among the item's colours")
    also = tuple({"clause": a["clause"], "printed": a["printed"], "note": _texts(a.get("note"))}
                 for a in raw.get("also") or ())
    return Composition(raw["clause"], raw["printed"], dict(raw["counts"]), tuple(raw.get("confirmed_by") or ()), also)


def _read_measurements(r: _Reader, raw, name: str) -> list[Measurement]:
    """An item's measurements the schema accepted, each once; a limit's `when` must name a yes/no
    one of them."""
    measurements, seen = [], set()
    for m_raw in raw.get("measurements") or []:
        if not isinstance(m_raw, dict) or r.report.refused(m_raw):
            continue
        m = _read_measurement(r, m_raw)
        if m.name in seen:
            r.problem(m_raw, f"item {name}: measurement {m.name} is listed twice")
        seen.add(m.name)
        measurements.append(m)
    # a yes/no measurement the schema refused is still one: its own problems are reported
    yes_no = {m_raw.get("name") for m_raw in raw.get("measurements") or []
              if isinstance(m_raw, dict) and m_raw.get("quantity") == "boolean" and isinstance(m_raw.get("name"), str)}
    for m in measurements:
        for fact in (fact for lim in m.limits for fact, _value in lim.when if fact not in yes_no):
            r.problem(raw, f"measurement {m.name}: 'when' names {fact}, not a yes/no measurement of {name}")
    return measurements


def _read_item(r: _Reader, raw) -> Item | None:
    """One item, unless the schema refused the item itself (a missing name, an unknown field)."""
    if r.report.refused_itself(raw):
        return None
    name = raw["item"]
    measurements = _read_measurements(r, raw, name)
    colours_raw = raw.get("colours") or {}
    colours = {} if r.report.refused(colours_raw) else {
        str(colour): {lang: tuple(w.lower() for w in ws) for lang, ws in words.items()}
        for colour, words in colours_raw.items()}
    # a composition is checked against the colours only when the schema accepted them
    composition = None if r.report.refused(colours_raw) else _read_composition(r, raw.get("composition"), colours)
    each = raw.get("each")
    if bool(each) != ("composition" in raw):
        r.problem(raw, f"item {name}: a set needs both 'each' and 'composition'")
    if not raw.get("measurements") and not each:
        r.problem(raw, f"item {name}: no measurements")
    approval = raw.get("approval")
    if approval is not None:
        approval = {"clauses": list(approval["clauses"]), "note": _texts(approval["note"])}
    return Item(name=name, label=_texts(raw["label"]), clauses=tuple(raw.get("clauses") or ()),
                measurements=tuple(measurements), file=r.rel, line=line_of(raw), approval=approval,
                each=each, colours=colours, composition=composition, note=_texts(raw.get("note")))


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
        for raw, item in _read_file(path, rel, problems):
            if item.name in items:
                first = items[item.name]
                problems.append(Problem(rel, line_of(raw, 1), f"item {item.name} is specified twice "
                                                              f"(first at {first.file}:{first.line})"))
            else:
                items[item.name] = item
    for item in items.values():
        if item.each and item.each not in items:
            problems.append(Problem(item.file, item.line, f"item {item.name}: each member is '{item.each}', an unknown item"))
    specs = Specs(items, root, digest.hexdigest()[:16])
    if strict and problems:
        raise KnowledgeError(problems)
    return specs, problems


def _read_file(path: Path, rel: str, problems: list[Problem]) -> list[tuple[dict, Item]]:
    """The items of one file the schema let through, each with its YAML mapping."""
    try:
        data = load_file(path, rel)
    except YamlError as exc:
        problems.append(Problem(rel, exc.line, exc.problem))
        return []
    several = isinstance(data, dict) and "items" in data
    report = schema_reader.check(data, "equipment", rel, "file" if several else "item")
    problems += report.problems
    r = _Reader(rel, problems, report)
    raw_items = data["items"] if several and isinstance(data["items"], list) else [data]
    read = [(raw, _read_item(r, raw)) for raw in raw_items if isinstance(raw, dict)]
    return [(raw, item) for raw, item in read if item is not None]


def dangling_clauses(specs: Specs, clause_ids) -> list[str]:
    """The clauses the specifications cite that the knowledge base does not hold."""
    return sorted(specs.clause_ids() - set(clause_ids))
