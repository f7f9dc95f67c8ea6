"""Equipment inspection: readings in, a verdict per dimension out (`carrom-referee inspect`).

The limits come from knowledge/equipment/*.yaml (core/inspection_spec.py); this module only
reads the inspector's numbers, converts them exactly, and compares. The answer is the
contract's (`item`, `compliant`, `checks` with `id`, `value`, `unit`, `min`, `max`, `ok`,
`clauses`), extended with what an inspector needs to trust it: the limit applied and the
others shown beside it (`applied`, `also`), every reading when a dimension was measured
several times (`readings`), what was `missing` and what no rule speaks of (`unknown`).

A reading that cannot be judged — text for a number, a negative length, grams for a diameter,
a striker of 40 cm — is refused with `ReadingRefused` (a `BadInput`), never guessed at.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from referee_app.core.errors import BadInput
from .model import Item, Limit, Measurement, Specs, inch_bounds
from .units import (as_number, canonical_unit, convert, for_comparison, quantity_of,
                               to_decimal)

# Fields of an inspection document besides `item` and the readings: the record's own details,
# read by the records store (core/inspection_store.py), not by the checks.
RECORD_FIELDS = ("label", "inspector", "tournament", "notes", "photo", "previous", "inspected_at")
COIN_FIELDS = ("colour", "color", "spare", "label", "measurements")


class ReadingRefused(BadInput):
    """A reading refused before any verdict. `reason` and `params` let the GUI say why in the
    interface language: not_a_number, negative, implausible, unit_missing, unit_unknown,
    unit_foreign, not_boolean, not_text, malformed."""

    def __init__(self, field: str, problem: str, reason: str, **params):
        super().__init__(field, problem)
        self.reason = reason
        self.params = params


@dataclass(frozen=True)
class Reading:
    # Decimal in the measurement's unit, or bool, or str: which one, the measurement's quantity says
    value: Any
    given_value: object
    given_unit: str | None
    field: str


# ---------------------------------------------------------------- reading the inspector's input

def _fmt(d: Decimal) -> str:
    return format(d.normalize(), "f") if isinstance(d, Decimal) else str(d)


def _q(value, unit: str) -> str:
    """A quantity as text: "4.13 cm", or "3.5" for a count."""
    return f"{_fmt(value)} {unit}".strip()


def _unit_names(m: Measurement) -> str:
    return ", ".join(u for u in m.units() if u) or "none"


def _one_number(m: Measurement, item: Item, value, unit, value_field: str, unit_field: str) -> Reading:
    number = to_decimal(value)
    if number is None:
        shown = repr(value) if isinstance(value, str) else "true/false" if isinstance(value, bool) else str(value)
        raise ReadingRefused(value_field, f"{shown} is not a number", "not_a_number", given=value)
    if number < 0:
        raise ReadingRefused(value_field, f"{_fmt(number)} is negative: a {m.quantity} reading cannot be",
                             "negative", given=number)
    units = m.units()
    if unit is None:
        # Only a quantity measured in a single unit (grams, watts, a count) may omit it: a bare
        # 42 for a height could be mm or cm, and guessing would pass or fail the wrong chair.
        if len(units) != 1:
            raise ReadingRefused(unit_field, f"no unit; give one of {_unit_names(m)}", "unit_missing", units=units)
        unit = units[0]
    canon = canonical_unit(unit)
    if canon is None:
        raise ReadingRefused(unit_field, f"'{unit}' is not a unit this inspection knows ({_unit_names(m)})",
                             "unit_unknown", unit=unit, units=units)
    if canon not in units:
        raise ReadingRefused(unit_field, f"'{unit}' measures {quantity_of(canon)}, not the {m.quantity} of a "
                                         f"{item.name} {m.name.replace('_', ' ')}: give {_unit_names(m)}",
                             "unit_foreign", unit=unit, units=units)
    converted = convert(number, canon, m.unit)
    # the spec reader gives every numeric measurement its plausible range
    assert m.plausible_min is not None and m.plausible_max is not None
    if not (m.plausible_min <= converted <= m.plausible_max):
        raise ReadingRefused(
            value_field,
            f"{_fmt(number)} {canon} is not a plausible {item.name} {m.name.replace('_', ' ')} "
            f"(accepted: {_fmt(m.plausible_min)} to {_fmt(m.plausible_max)} {m.unit}); check the unit",
            "implausible", value=number, unit=canon, min=m.plausible_min, max=m.plausible_max, limit_unit=m.unit)
    return Reading(converted, value, canon, value_field)


def parse_readings(item: Item, m: Measurement, raw, field: str) -> list[Reading]:
    """The readings of one measurement: a number with its unit, several (`values:` or a list), a
    yes/no, or a text; refused with ReadingRefused when they cannot be judged."""
    if m.quantity in ("boolean", "text"):
        return [_one_word(m, raw, field)]
    if isinstance(raw, list):
        return _listed_numbers(item, m, raw, field)
    if isinstance(raw, dict):
        return _mapped_numbers(item, m, raw, field)
    return [_one_number(m, item, raw, None, field, field)]


def _one_word(m: Measurement, raw, field: str) -> Reading:
    """A yes/no or a text, given alone or as {value: ...}."""
    as_map = isinstance(raw, dict)
    if as_map:
        _known_reading_keys(raw, field, {"value"})
    value = raw.get("value") if as_map else raw
    sub = f"{field}.value" if as_map else field
    if m.quantity == "boolean" and not isinstance(value, bool):
        raise ReadingRefused(sub, f"must be true or false, not {value!r}", "not_boolean", given=value)
    if m.quantity == "text" and (not isinstance(value, str) or not value.strip()):
        raise ReadingRefused(sub, f"must be a text, not {value!r}", "not_text", given=value)
    return Reading(value.strip() if isinstance(value, str) else value, value, None, sub)


def _listed_numbers(item: Item, m: Measurement, raw: list, field: str) -> list[Reading]:
    """[4.45, {value: 4.46, unit: cm}, ...]: each a number, with its own unit or none."""
    if not raw:
        raise ReadingRefused(field, "an empty list of readings", "malformed")
    out = []
    for i, entry in enumerate(raw):
        sub = f"{field}[{i}]"
        if isinstance(entry, dict):
            _known_reading_keys(entry, sub, {"value", "unit"})
            out.append(_one_number(m, item, entry.get("value"), entry.get("unit"), f"{sub}.value", f"{sub}.unit"))
        else:
            out.append(_one_number(m, item, entry, None, sub, sub))
    return out


def _mapped_numbers(item: Item, m: Measurement, raw: dict, field: str) -> list[Reading]:
    """{value: 4.1, unit: cm}, or {values: [...], unit: cm}."""
    if "values" in raw:
        _known_reading_keys(raw, field, {"values", "unit"})
        values = raw["values"]
        if not isinstance(values, list) or not values:
            raise ReadingRefused(f"{field}.values", "must be a non-empty list of numbers", "malformed")
        return [_one_number(m, item, v, raw.get("unit"), f"{field}.values[{i}]", f"{field}.unit")
                for i, v in enumerate(values)]
    _known_reading_keys(raw, field, {"value", "unit"})
    if "value" not in raw:
        raise ReadingRefused(f"{field}.value", "missing: a reading is {value: ..., unit: ...}", "malformed")
    return [_one_number(m, item, raw["value"], raw.get("unit"), f"{field}.value", f"{field}.unit")]


def _known_reading_keys(raw: dict, field: str, known: set[str]) -> None:
    extra = sorted(set(map(str, raw)) - known)
    if extra:
        raise ReadingRefused(f"{field}.{extra[0]}", f"unknown field (a reading has {', '.join(sorted(known))})",
                             "malformed")


# ---------------------------------------------------------------- judging

def _margin(value: Decimal, lo: Decimal | None, hi: Decimal | None) -> Decimal:
    """How far inside the bounds a value is (negative: how far outside)."""
    v = for_comparison(value)
    sides = [side for side in (v - lo if lo is not None else None, hi - v if hi is not None else None)
             if side is not None]
    return min(sides) if sides else Decimal(0)


def _within(value: Decimal, lo: Decimal | None, hi: Decimal | None) -> bool:
    v = for_comparison(value)  # bounds are inclusive, and compared at a fixed, fine precision
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def _bounds_text(lo, hi, unit: str) -> str:
    if lo is not None and hi is not None:
        return f"{_fmt(lo)}-{_fmt(hi)} {unit}".strip()
    if hi is not None:
        return f"at most {_fmt(hi)} {unit}".strip()
    return f"at least {_fmt(lo)} {unit}".strip()


def choose_limit(m: Measurement, facts: dict) -> tuple[Limit, str | None]:
    """The limit that applies given the yes/no facts read on the item, and a remark on the choice.

    A fact a limit depends on that was not read is taken as false: the rule's exception (a
    thinner surface *with* reinforcement plates) must be shown to apply before it is granted."""
    applied = m.applied()
    if len(applied) == 1 and not applied[0].when:
        return applied[0], None
    known = [lim for lim in applied if lim.matches(facts) is True]
    if known:
        return known[0], None
    assumed = {name: False for lim in applied for name, _ in lim.when}
    assumed.update(facts)
    for lim in applied:
        if lim.matches(assumed):
            missing = ", ".join(sorted({n for n, _ in lim.when if n not in facts}))
            return lim, f"{missing} not stated: the limit for '{missing}: false' applies"
    return applied[0], None


def _limit_record(lim: Limit, unit: str) -> dict:
    out = {"clause": lim.clause, "printed": lim.printed, "min": as_number(lim.min), "max": as_number(lim.max),
           "unit": unit or None}
    if lim.nominal is not None:
        out["nominal"] = as_number(lim.nominal)
    if lim.tolerance is not None:
        out["tolerance"] = as_number(lim.tolerance)
    if lim.precision is not None:
        out["precision"] = as_number(lim.precision)
    if lim.when:
        out["when"] = dict(lim.when)
    if lim.inches is not None:
        out["inches"] = lim.inches.text
    if lim.confirmed_by:
        out["confirmed_by"] = list(lim.confirmed_by)
    if lim.note:
        out["note"] = lim.note
    return out


def _per_reading(m: Measurement, lim, readings: list[Reading]) -> list[dict]:
    per = []
    for r in readings:
        ok = _within(r.value, lim.min, lim.max)
        entry = {"value": as_number(r.value), "unit": m.unit or None, "ok": ok,
                 "given": {"value": r.given_value, "unit": r.given_unit or None}}
        if not ok:
            entry["message"] = f"{_q(r.value, m.unit)}: outside the limit ({_bounds_text(lim.min, lim.max, m.unit)})"
        per.append(entry)
    return per


def _other_limits(m: Measurement, lim, readings: list[Reading], ok: bool) -> tuple[list[dict], list[str]]:
    """The limits not applied (the inch equivalent of the applied one, the other sources'), each
    with whether the readings meet it; and a notice where the inch equivalent disagrees."""
    also, notices = [], []
    lo_in, hi_in = inch_bounds(lim, m.unit)
    if lo_in is not None or hi_in is not None:
        inch_ok = all(_within(r.value, lo_in, hi_in) for r in readings)
        also.append({"clause": lim.clause, "basis": "inches", "printed": lim.printed, "inches": lim.inches.text,
                     "min": as_number(lo_in), "max": as_number(hi_in), "unit": m.unit, "ok": inch_ok, "applied": False})
        if inch_ok != ok:
            notices.append(f"{'outside' if not ok else 'within'} the metric limit but {'within' if inch_ok else 'outside'} "
                           f"its printed inch equivalent ({lim.inches.text} in = {_bounds_text(lo_in, hi_in, m.unit)}); "
                           f"the metric figure applies")
    for other in (x for x in m.limits if x is not lim):
        entry = _limit_record(other, m.unit)
        entry["applied"] = False
        if other.min is not None or other.max is not None:
            entry["ok"] = all(_within(r.value, other.min, other.max) for r in readings)
        also.append(entry)
    return also, notices


def _numeric_message(m: Measurement, lim, readings: list[Reading], critical: Reading, per: list[dict], ok: bool) -> str:
    bounds = _bounds_text(lim.min, lim.max, m.unit)
    if ok:
        return (f"all {len(readings)} readings within the limit ({bounds})" if len(readings) > 1
                else f"{_q(critical.value, m.unit)}: within the limit ({bounds})")
    failing = [e for e in per if not e["ok"]]
    side = "below the minimum" if lim.min is not None and for_comparison(critical.value) < lim.min else "above the maximum"
    return (f"{_q(critical.value, m.unit)}: {side} ({bounds})"
            + (f"; {len(failing)} of {len(readings)} readings fail" if len(readings) > 1 else ""))


def _numeric_check(item: Item, m: Measurement, readings: list[Reading], facts: dict) -> dict:
    lim, remark = choose_limit(m, facts)
    per = _per_reading(m, lim, readings)
    # The value a verdict is about: the reading furthest outside, or nearest a bound if all pass.
    critical = min(readings, key=lambda r: _margin(r.value, lim.min, lim.max))
    ok = all(e["ok"] for e in per)
    also, notices = _other_limits(m, lim, readings, ok)
    check = {
        "id": f"{item.name}.{m.name}", "value": as_number(critical.value), "unit": m.unit or None,
        "min": as_number(lim.min), "max": as_number(lim.max), "ok": ok,
        "clauses": _unique(lim.clauses() + [c for a in also for c in [a["clause"]] + a.get("confirmed_by", [])]),
        "applied": _limit_record(lim, m.unit), "also": also,
        "given": {"value": critical.given_value, "unit": critical.given_unit or None},
    }
    if len(readings) > 1:
        check["readings"] = per
    check["message"] = _numeric_message(m, lim, readings, critical, per, ok)
    if remark:
        notices.insert(0, remark)
    if notices:
        check["notices"] = notices
    return check


def _flag_check(item: Item, m: Measurement, reading: Reading) -> dict:
    value = reading.value
    applied = m.applied()
    lim = applied[0]
    if m.quantity == "boolean":
        expected = lim.equals
        ok = expected is None or value is expected
        message = ("recorded: it decides which limit applies to " + ", ".join(m.condition_for)) if expected is None \
            else (f"{'yes' if value else 'no'}, as required" if ok
                  else f"{'yes' if value else 'no'}: must be {'yes' if expected else 'no'}")
    else:
        named = any(w.lower() in value.lower() for w in lim.named)
        ok = named or lim.others_admitted or not lim.named
        message = ("named in the rules" if named else
                   "not named in the rules, admitted as long as the other norms are met" if ok else "not an admitted value")
        expected = None
    also = []
    for other in m.limits:
        if other is not lim:
            also.append(dict(_limit_record(other, ""), applied=False))
    return {"id": f"{item.name}.{m.name}", "value": value, "unit": None, "min": None, "max": None, "ok": ok,
            "expected": expected, "clauses": _unique(lim.clauses() + [a["clause"] for a in also]),
            "applied": _limit_record(lim, ""), "also": also, "message": message}


def _missing_check(item: Item, m: Measurement, facts: dict) -> dict:
    check: dict[str, Any] = {"id": f"{item.name}.{m.name}", "value": None, "unit": m.unit or None, "min": None,
                             "max": None, "ok": False, "missing": True,
                             "message": "not measured: this reading is required"}
    if m.numeric:
        lim, _ = choose_limit(m, facts)
        check.update(min=as_number(lim.min), max=as_number(lim.max), clauses=lim.clauses())
    else:
        lim = m.applied()[0]
        check.update(expected=lim.equals, clauses=lim.clauses())
    return check


def check_measurement(item: Item, m: Measurement, raw, facts: dict | None = None, field: str | None = None) -> dict:
    """One measurement's check from its raw reading(s); `facts` are the item's yes/no readings."""
    readings = parse_readings(item, m, raw, field or f"measurements.{m.name}")
    if m.numeric:
        return _numeric_check(item, m, readings, facts or {})
    return _flag_check(item, m, readings[0])


def _unique(values) -> list:
    return list(dict.fromkeys(v for v in values if v))


def _did_you_mean(name: str, choices) -> str:
    close = difflib.get_close_matches(str(name), list(choices), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def inspect_measurements(item: Item, measurements, prefix: str = "measurements") -> dict:
    """Checks of every measurement of `item` found in `measurements`, in the spec's order."""
    if measurements is None:
        measurements = {}
    if not isinstance(measurements, dict):
        raise BadInput(prefix, "must be a mapping of measurement name to reading")
    readings = {m.name: parse_readings(item, m, measurements[m.name], f"{prefix}.{m.name}")
                for m in item.measurements if measurements.get(m.name) is not None}
    checks, missing = _checks(item, readings)
    known = {m.name for m in item.measurements}
    unknown = [str(k) for k in measurements if k not in known]
    # Optional requirements nobody looked at: they do not fail the item, but are never passed in silence.
    unchecked = [m.name for m in item.measurements
                 if not m.required and m.name not in readings and not m.condition_for and m.quantity != "text"]
    remarks = [f"'{k}': no rule speaks of a {item.name} {k}; reported, not checked{_did_you_mean(k, known)}"
               for k in unknown]
    remarks += [f"'{k}' not stated: not checked" for k in unchecked]
    return {"compliant": all(c["ok"] for c in checks) and not missing, "checks": checks,
            "missing": missing, "unknown": unknown, "unchecked": unchecked, "remarks": remarks}


def _checks(item: Item, readings: dict) -> tuple[list[dict], list[str]]:
    """One check per measurement read or required, in the spec's order; and the required ones missing."""
    facts = {name: rs[0].value for name, rs in readings.items()
             if (m := item.measurement(name)) is not None and m.quantity == "boolean"}
    checks, missing = [], []
    for m in item.measurements:
        if m.name in readings:
            checks.append(_numeric_check(item, m, readings[m.name], facts) if m.numeric
                          else _flag_check(item, m, readings[m.name][0]))
        elif m.required:
            checks.append(_missing_check(item, m, facts))
            missing.append(m.name)
    return checks, missing


def _item_of(document, specs: Specs) -> Item:
    if not isinstance(document, dict):
        raise BadInput("document", "must be a mapping with 'item' and 'measurements'")
    name = document.get("item")
    if name in (None, ""):
        raise BadInput("item", f"missing; one of {', '.join(specs.items)}")
    item = specs.item(str(name))
    if item is None:
        raise BadInput("item", f"unknown item '{name}' (known: {', '.join(specs.items)}){_did_you_mean(name, specs.items)}")
    return item


def inspect(document, specs: Specs) -> dict:
    """The contract's answer for one inspection document (see the module's docstring), against
    `specs` (the knowledge root's `equipment`)."""
    item = _item_of(document, specs)
    if item.each:
        result = _inspect_set(item, document, specs)
        own: tuple[str, ...] = ("item", "coins")
    else:
        result = inspect_measurements(item, document.get("measurements"))
        own = ("item", "measurements", "colour", "color")
    stray = [str(k) for k in document if k not in own and k not in RECORD_FIELDS]
    result["unknown"] += stray
    result["remarks"] += [f"'{k}': not a field of an inspection document; reported, not read"
                          f"{_did_you_mean(k, own + RECORD_FIELDS)}" for k in stray]
    clauses = _unique([c for chk in result["checks"] for c in chk.get("clauses", [])] + list(item.clauses)
                      + (item.approval["clauses"] if item.approval else []))
    answer = {"item": item.name, "compliant": result["compliant"], "status": status_of(result),
              "checks": result["checks"],
              "missing": result["missing"], "unknown": result["unknown"], "unchecked": result["unchecked"],
              "remarks": result["remarks"],
              "clauses": clauses, "spec": specs.stamp}
    if item.approval:
        answer["approval"] = {"required": True, "clauses": item.approval["clauses"], "note": item.approval["note"]}
    if "coins" in result:
        answer["coins"] = result["coins"]
    return answer


def status_of(result: dict) -> str:
    """One of three states, never a failure for what was not measured: `not_measured` (no reading
    yet), `incomplete` (readings missing, none failing: `missing` names them), or `compliant` /
    `not_compliant` (a measured reading out of its limits is a failure whatever is missing)."""
    checks = result.get("checks", [])
    if any(not c["ok"] and not c.get("missing") for c in checks):
        return "not_compliant"
    if result.get("missing"):
        measured = [c for c in checks if not c.get("missing")]
        return "incomplete" if measured else "not_measured"
    return "compliant" if result.get("compliant") else "not_compliant"


# ---------------------------------------------------------------- a whole set of coins

def _coin_identity(item: Item, coin, field: str) -> tuple[str, bool]:
    """A coin's colour (as the set names it) and whether it is a spare."""
    if not isinstance(coin, dict):
        raise BadInput(field, "a coin is a mapping with its colour and measurements")
    word = coin.get("colour", coin.get("color"))
    if word in (None, ""):
        raise BadInput(f"{field}.colour", f"missing; one of {', '.join(item.colours)}")
    colour = item.colour_of(word)
    if colour is None:
        raise BadInput(f"{field}.colour", f"'{word}' is not a coin colour ({', '.join(item.colours)})")
    spare = coin.get("spare", False)
    if not isinstance(spare, bool):
        raise BadInput(f"{field}.spare", "must be true or false")
    return colour, spare


def _inspect_set(item: Item, document: dict, specs: Specs) -> dict:
    assert item.each is not None
    member = specs.item(item.each)
    assert member is not None, "the spec reader checks that a set's `each` names an item"
    coins = document.get("coins")
    if coins is None:
        raise BadInput("coins", f"a {item.name} needs 'coins': a list of coins, each with its colour and measurements")
    if not isinstance(coins, list) or not coins:
        raise BadInput("coins", "must be a non-empty list of coins")
    per_coin, missing, unknown, unchecked, remarks = [], [], [], [], []
    for i, coin in enumerate(coins):
        field = f"coins[{i}]"
        colour, spare = _coin_identity(item, coin, field)
        if "measurements" in coin:
            readings, prefix = coin["measurements"], f"{field}.measurements"
            stray = [k for k in coin if k not in COIN_FIELDS]
        else:
            readings = {k: v for k, v in coin.items() if k not in COIN_FIELDS}
            prefix, stray = field, []
        res = inspect_measurements(member, readings, prefix)
        res["unknown"] += [str(k) for k in stray]
        per_coin.append({"index": i, "colour": colour, "spare": spare, "compliant": res["compliant"] and not stray,
                         "checks": res["checks"], "missing": res["missing"], "unknown": res["unknown"]})
        unchecked += [f"{field}.{k}" for k in res["unchecked"]]
        missing += [f"{field}.{k}" for k in res["missing"]]
        unknown += [f"{field}.{k}" for k in res["unknown"]]
        remarks += [f"{field}: {r}" for r in res["remarks"]]
    checks = _count_checks(item, per_coin) + _per_dimension_checks(member, per_coin)
    return {"compliant": all(c["ok"] for c in checks) and not missing, "checks": checks, "coins": per_coin,
            "missing": missing, "unknown": unknown, "unchecked": unchecked, "remarks": remarks}


def _count_checks(item: Item, per_coin: list[dict]) -> list[dict]:
    comp = item.composition
    assert comp is not None, "the spec reader gives a set both `each` and `composition`"
    clauses = [comp.clause, *comp.confirmed_by]
    counted = [c for c in per_coin if not c["spare"]]
    colours = list(comp.counts) + sorted({c["colour"] for c in counted} - set(comp.counts))
    by_colour = []
    for colour in colours:
        n, want = sum(1 for c in counted if c["colour"] == colour), comp.counts.get(colour, 0)
        by_colour.append({
            "id": f"{item.name}.count.{colour}", "value": n, "unit": None, "min": want, "max": want, "ok": n == want,
            "clauses": clauses, "colour": colour,
            "message": f"{n} {colour} coin{'s' if n != 1 else ''}" + ("" if n == want else f", the set has {want}")})
    total, want = len(counted), sum(comp.counts.values())
    spares = len(per_coin) - len(counted)
    overall = {
        "id": f"{item.name}.count", "value": total, "unit": None, "min": want, "max": want,
        "ok": all(c["ok"] for c in by_colour), "clauses": _unique(clauses + [a["clause"] for a in comp.also]),
        "applied": {"clause": comp.clause, "printed": comp.printed, "counts": dict(comp.counts)},
        "also": [dict(a, applied=False) for a in comp.also], "spares": spares,
        "message": ", ".join(f"{c['value']}/{c['max']} {c['colour']}" for c in by_colour)
                   + (f" (and {spares} spare{'s' if spares != 1 else ''}, not counted)" if spares else ""),
    }
    return [overall] + by_colour


def _measured(value) -> Decimal:
    number = to_decimal(value)
    assert number is not None, "a measured numeric check holds a number"
    return number


def _per_dimension_checks(member: Item, per_coin: list[dict]) -> list[dict]:
    """One check per coin dimension over the whole set (`coin.thickness` fails if any coin's does),
    with every coin's reading beside it."""
    out = []
    for m in member.measurements:
        cid = f"{member.name}.{m.name}"
        rows = [(coin, chk) for coin in per_coin
                if (chk := next((c for c in coin["checks"] if c["id"] == cid), None)) is not None]
        if not rows:
            continue
        first = rows[0][1]
        readings = [{"coin": coin["index"], "colour": coin["colour"], "value": chk["value"], "unit": chk["unit"],
                     "ok": chk["ok"], **({"missing": True} if chk.get("missing") else {})} for coin, chk in rows]
        measured = [(coin, chk) for coin, chk in rows if not chk.get("missing")]
        if m.numeric and measured:
            worst = min(measured, key=lambda row: _margin(_measured(row[1]["value"]),
                                                          to_decimal(row[1]["min"]), to_decimal(row[1]["max"])))[1]
            value = worst["value"]
        else:
            value = measured[0][1]["value"] if measured else None
        failing = [r for r in readings if not r["ok"]]
        out.append({
            "id": cid, "value": value, "unit": first["unit"], "min": first["min"], "max": first["max"],
            "ok": not failing, "clauses": first.get("clauses", []), "readings": readings,
            "message": (f"all {len(readings)} coins within limits" if not failing else
                        f"{len(failing)} of {len(readings)} coins fail: "
                        + ", ".join(f"#{r['coin'] + 1} ({r['colour']})" for r in failing)),
        })
    return out
