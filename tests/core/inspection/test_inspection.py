"""Equipment inspection: the public cases through the real command, every limit at and around its
bounds in every unit (generated from knowledge/equipment, not written out here), refusals, coin
sets, missing and unknown readings, and the specification loader's own refusals."""
from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from support.cli import run_cli
from support.kbcopy import installed
from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.inspection import verdict
from referee_app.core.inspection.verdict import ReadingRefused
from referee_app.core.inspection.spec import dangling_clauses, load_specs
from referee_app.core.inspection.units import FACTORS, convert

SPECS = installed().equipment


def inspect(document):
    """The verdict against the installed specifications."""
    return verdict.inspect(document, SPECS)

# The smallest step each unit's instrument shows: "just inside" and "just outside" are one step away.
STEP = {"cm": Decimal("0.001"), "mm": Decimal("0.01"), "in": Decimal("0.0001"), "g": Decimal("0.01"),
        "kg/dm3": Decimal("0.001"), "W": Decimal("0.1"), "": Decimal("0.5")}


def _write(tmp_path: Path, document, name="input.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------- public cases

def _public_cases():
    from support.cli import SHARED

    files = sorted((SHARED / "cases").glob("inspect*.yaml"))
    cases = [c for f in files for c in yaml.safe_load(f.read_text(encoding="utf-8"))]
    return cases or [None]


@pytest.mark.parametrize("case", _public_cases(), ids=lambda c: (c or {}).get("name", "no cases"))
def test_public_case_through_the_command(case, shared_dir, tmp_path):
    assert case is not None, f"no inspect cases under {shared_dir / 'cases'}"
    path = _write(tmp_path, case["input"])
    p = run_cli("inspect", "--json", str(path))
    expect = dict(case["expect"])
    if expect.pop("error", False):
        assert p.returncode == 2, p.stdout
        assert p.stderr.strip() and "Traceback" not in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1
        return
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    if "compliant" in expect:
        assert got["compliant"] is expect["compliant"]
    checks = {c["id"]: c for c in got["checks"]}
    for cid in expect.get("failing", []):
        assert checks[cid]["ok"] is False, checks.get(cid)
    for cid, ok in expect.get("check_ok", {}).items():
        assert checks[cid]["ok"] is ok
    if case.get("cite"):
        cites = [case["cite"]] if isinstance(case["cite"], str) else case["cite"]
        assert set(cites) & set(got["clauses"]), got["clauses"]


# ------------------------------------------------------------------------------- every bound

def _numeric_limits():
    """(item, measurement, applied limit, facts making it apply) for every applied numeric limit."""
    for item in SPECS.items.values():
        for m in item.measurements:
            if not m.numeric:
                continue
            for lim in m.applied():
                yield item, m, lim, dict(lim.when)


def _bound_cases():
    for item, m, lim, facts in _numeric_limits():
        for side, bound in (("min", lim.min), ("max", lim.max)):
            if bound is None:
                continue
            for unit in FACTORS[m.quantity]:
                yield pytest.param(item.name, m.name, facts, side, bound, unit,
                                   id=f"{item.name}.{m.name}{'|' + ','.join(f'{k}={v}' for k, v in facts.items()) if facts else ''}"
                                      f"-{side}-{unit or 'count'}")


def _reading(value: Decimal, unit: str):
    # As a script would send it: a plain number, the unit beside it.
    number = float(round(value, 12))
    return {"value": number, "unit": unit} if unit else number


def _document(item_name: str, name: str, reading, facts: dict) -> dict:
    return {"item": item_name, "measurements": {name: reading, **facts}}


@pytest.mark.parametrize("item_name, name, facts, side, bound, unit", list(_bound_cases()))
def test_limit_at_inside_and_outside_its_bound(item_name, name, facts, side, bound, unit):
    m = SPECS.item(item_name).measurement(name)
    at = convert(bound, m.unit, unit) if unit else bound
    step = STEP[unit]
    inward = step if side == "min" else -step
    for value, expected in ((at, True), (at + inward, True), (at - inward, False)):
        answer = inspect(_document(item_name, name, _reading(value, unit), facts))
        check = next(c for c in answer["checks"] if c["id"] == f"{item_name}.{name}")
        assert check["ok"] is expected, (value, unit, check)
        assert check[side] == float(bound)
        assert check["unit"] == (m.unit or None)


def test_every_numeric_measurement_has_bound_cases():
    covered = {(i.name, m.name) for i, m, _l, _f in _numeric_limits()}
    every = {(i.name, m.name) for i in SPECS.items.values() for m in i.measurements if m.numeric}
    assert covered == every and len(covered) >= 25


def test_plus_minus_tolerance_is_computed_and_printed_form_kept():
    lim = SPECS.item("board").measurement("surface_side").applied()[0]
    assert (lim.min, lim.max) == (lim.nominal - lim.tolerance, lim.nominal + lim.tolerance)
    check = inspect({"item": "board", "measurements": {"surface_side": {"value": 73.5, "unit": "cm"}}})["checks"][0]
    assert (check["min"], check["max"]) == (73.34, 73.98)
    assert check["applied"]["printed"] == "73,66 ± 0,32 cm (29 ± 1/8 pouces)"


# ------------------------------------------------------------------------------- limits that disagree

def test_figure_legend_shown_beside_the_list_which_applies():
    answer = inspect({"item": "board", "measurements": {"surface_side": {"value": 73.99, "unit": "cm"}}})
    check = answer["checks"][0]
    assert check["ok"] is False and check["applied"]["clause"] == "icf-fr:2.dim.A"
    legend = next(a for a in check["also"] if a["clause"] == "icf-fr:2.fig.A")
    assert legend["applied"] is False and legend["ok"] is True and legend["note"]["en"]
    assert "icf-fr:2.fig.A" in check["clauses"]


@pytest.mark.parametrize("name", ["surface_side", "pocket_diameter", "baseline_width", "baseline_distance",
                                  "base_circle_red_diameter"])
def test_every_dimension_where_legend_and_list_differ_shows_both(name):
    m = SPECS.item("board").measurement(name)
    letter = m.letter
    applied, shown = m.applied(), m.shown()
    assert [lim.clause for lim in applied] == [f"icf-fr:2.dim.{letter}"]
    assert [lim.clause for lim in shown] == [f"icf-fr:2.fig.{letter}"]
    assert (shown[0].min, shown[0].max) != (applied[0].min, applied[0].max)


def test_inch_equivalent_disagreeing_with_the_metric_figure_is_flagged():
    # icf-fr 2.4 prints 66,31 cm beside 26 1/2 in (= 67,31 cm): the metric figure applies.
    check = inspect({"item": "stand", "measurements": {"surface_height": {"value": 66.8, "unit": "cm"}}})["checks"][0]
    assert check["ok"] is True
    inch = next(a for a in check["also"] if a.get("basis") == "inches")
    assert inch["ok"] is False and inch["min"] == pytest.approx(67.31)
    assert any("inch" in n for n in check["notices"])


@pytest.mark.parametrize("reinforced, thickness, ok", [(False, 1.0, False), (True, 1.0, True), (None, 1.0, False),
                                                       (None, 1.6, True), (True, 0.7, False)])
def test_surface_thickness_minimum_depends_on_reinforcement(reinforced, thickness, ok):
    measurements = {"surface_thickness": {"value": thickness, "unit": "cm"}}
    if reinforced is not None:
        measurements["reinforced"] = reinforced
    check = next(c for c in inspect({"item": "board", "measurements": measurements})["checks"]
                 if c["id"] == "board.surface_thickness")
    assert check["ok"] is ok
    assert check["min"] == (0.8 if reinforced else 1.59)


# ------------------------------------------------------------------------------- yes/no and text readings

@pytest.mark.parametrize("item_name, name, bad", [("striker", "metal_visible", True), ("chair", "armrests", True),
                                                  ("lamp", "dazzles", True), ("board", "nets_fitted", False)])
def test_yes_no_requirement(item_name, name, bad):
    def check(value):
        answer = inspect({"item": item_name, "measurements": {name: value}})
        return next(c for c in answer["checks"] if c["id"] == f"{item_name}.{name}")

    assert check(not bad)["ok"] is True
    failing = check(bad)
    assert failing["ok"] is False and failing["expected"] is (not bad) and failing["clauses"]


def test_striker_material_is_recorded_never_failed():
    for material in ("plastique", "carbon fibre"):
        answer = inspect({"item": "striker", "measurements": {"material": material}})
        check = next(c for c in answer["checks"] if c["id"] == "striker.material")
        assert check["ok"] is True and check["value"] == material


# ------------------------------------------------------------------------------- several readings

def test_each_of_several_readings_is_checked():
    answer = inspect({"item": "board", "measurements": {
        "pocket_diameter": {"values": [4.45, 4.46, 4.54, 4.47], "unit": "cm"}}})
    check = next(c for c in answer["checks"] if c["id"] == "board.pocket_diameter")
    assert check["ok"] is False and check["value"] == 4.54
    assert [r["ok"] for r in check["readings"]] == [True, True, False, True]


def test_readings_as_a_list_in_mixed_units():
    answer = inspect({"item": "board", "measurements": {
        "frame_width": [{"value": 70, "unit": "mm"}, {"value": 7.0, "unit": "cm"}, {"value": 2.75, "unit": "in"}]}})
    check = next(c for c in answer["checks"] if c["id"] == "board.frame_width")
    assert check["ok"] is True and len(check["readings"]) == 3
    assert check["readings"][2]["value"] == pytest.approx(6.985)


# ------------------------------------------------------------------------------- missing and unknown

def test_missing_required_measurement_fails_the_item_and_is_named():
    answer = inspect({"item": "striker", "measurements": {"diameter": {"value": 4.0, "unit": "cm"}, "metal_visible": False}})
    assert answer["compliant"] is False and answer["missing"] == ["weight"]
    check = next(c for c in answer["checks"] if c["id"] == "striker.weight")
    assert check["ok"] is False and check["missing"] is True and check["max"] == 15


def test_the_contracts_example_is_compliant_and_says_what_was_not_looked_at():
    answer = inspect({"item": "striker", "measurements": {"diameter": {"value": 4.10, "unit": "cm"},
                                                          "weight": {"value": 14.8, "unit": "g"}}})
    assert answer["compliant"] is True and answer["missing"] == []
    assert "metal_visible" in answer["unchecked"]
    assert any("metal_visible" in r and "not checked" in r for r in answer["remarks"])


def test_optional_measurement_may_be_left_out():
    answer = inspect({"item": "lamp", "measurements": {"power": {"value": 75, "unit": "W"}}})
    assert answer["compliant"] is True and answer["missing"] == []
    assert answer["unchecked"] == ["centred", "shade_white_inside", "white_light", "dazzles"]


def test_unknown_measurement_is_reported_not_ignored():
    answer = inspect({"item": "striker", "measurements": {"diameter": {"value": 4.0, "unit": "cm"}, "weight": 14,
                                                          "metal_visible": False, "colour": "red", "wieght": 3}})
    assert answer["compliant"] is True
    assert answer["unknown"] == ["colour", "wieght"]
    assert any("did you mean 'weight'" in r for r in answer["remarks"])


def test_unknown_document_field_is_reported():
    answer = inspect({"item": "chair", "measurments": {"seat_height": {"value": 45, "unit": "cm"}}})
    assert "measurments" in answer["unknown"]
    assert answer["compliant"] is False and answer["missing"] == ["seat_height"]


# ------------------------------------------------------------------------------- refusals

@pytest.mark.parametrize("measurements, field, reason", [
    ({"weight": {"value": "heavy", "unit": "g"}}, "measurements.weight.value", "not_a_number"),
    ({"weight": {"value": True, "unit": "g"}}, "measurements.weight.value", "not_a_number"),
    ({"weight": {"value": float("nan"), "unit": "g"}}, "measurements.weight.value", "not_a_number"),
    ({"diameter": {"value": -4.0, "unit": "cm"}}, "measurements.diameter.value", "negative"),
    ({"diameter": {"value": 40, "unit": "cm"}}, "measurements.diameter.value", "implausible"),
    ({"diameter": {"value": 0, "unit": "cm"}}, "measurements.diameter.value", "implausible"),
    ({"diameter": {"value": 4.1, "unit": "g"}}, "measurements.diameter.unit", "unit_foreign"),
    ({"weight": {"value": 14, "unit": "cm"}}, "measurements.weight.unit", "unit_foreign"),
    ({"diameter": {"value": 4.1, "unit": "furlong"}}, "measurements.diameter.unit", "unit_unknown"),
    ({"diameter": {"value": 4.1}}, "measurements.diameter.unit", "unit_missing"),
    ({"diameter": {"values": [4.1, "4,2"], "unit": "cm"}}, "measurements.diameter.values[1]", "not_a_number"),
    ({"diameter": [{"value": 4.1, "unit": "cm"}, {"value": 41, "unit": "g"}]}, "measurements.diameter[1].unit", "unit_foreign"),
    ({"metal_visible": "no"}, "measurements.metal_visible", "not_boolean"),
    ({"diameter": {"value": 4.1, "unit": "cm", "tolerance": 1}}, "measurements.diameter.tolerance", "malformed"),
])
def test_reading_that_cannot_be_judged_is_refused(measurements, field, reason):
    with pytest.raises(ReadingRefused) as info:
        inspect({"item": "striker", "measurements": measurements})
    assert info.value.field == field and info.value.reason == reason
    assert isinstance(info.value, BadInput)


@pytest.mark.parametrize("document, field", [
    ({"measurements": {}}, "item"), ({"item": "table"}, "item"), (["striker"], "document"),
    ({"item": "striker", "measurements": [4.1]}, "measurements"),
    ({"item": "coin_set"}, "coins"), ({"item": "coin_set", "coins": [{"diameter": {"value": 3, "unit": "cm"}}]}, "coins[0].colour"),
    ({"item": "coin_set", "coins": [{"colour": "green"}]}, "coins[0].colour"),
])
def test_malformed_document_is_refused(document, field):
    with pytest.raises(BadInput) as info:
        inspect(document)
    assert info.value.field == field


@pytest.mark.parametrize("document, needle", [
    ({"item": "striker", "measurements": {"diameter": {"value": 40, "unit": "cm"}}}, "measurements.diameter.value"),
    ({"item": "coin", "measurements": {"weight": {"value": 5.5, "unit": "mm"}}}, "measurements.weight.unit"),
    ({"item": "chair", "measurements": {"seat_height": {"value": -45, "unit": "cm"}}}, "negative"),
])
def test_refusal_through_the_command_is_one_line_and_status_2(document, needle, tmp_path):
    p = run_cli("inspect", "--json", str(_write(tmp_path, document)))
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in p.stderr


def test_standard_input_and_json(tmp_path):
    document = {"item": "lamp", "measurements": {"power": {"value": 150, "unit": "W"}}}
    p = run_cli("inspect", "--json", "-", input=json.dumps(document))
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["compliant"] is False and got["checks"][0]["id"] == "lamp.power"


def test_text_output_marks_each_check(tmp_path):
    document = {"item": "chair", "measurements": {"seat_height": {"value": 17.5, "unit": "in"}, "armrests": True}}
    p = run_cli("inspect", str(_write(tmp_path, document)))
    assert p.returncode == 0
    assert "NOT COMPLIANT" in p.stdout
    assert re.search(r"ok\s+chair\.seat_height", p.stdout) and re.search(r"FAIL\s+chair\.armrests", p.stdout)


# ------------------------------------------------------------------------------- coin sets

def _coin(colour, diameter=3.0, thickness=0.8, weight=5.5, **extra):
    return {"colour": colour, "diameter": {"value": diameter, "unit": "cm"},
            "thickness": {"value": thickness, "unit": "cm"}, "weight": {"value": weight, "unit": "g"}, **extra}


def _full_set():
    comp = SPECS.item("coin_set").composition.counts
    return [_coin(colour) for colour, n in comp.items() for _ in range(n)]


def test_a_full_set_is_compliant():
    answer = inspect({"item": "coin_set", "coins": _full_set()})
    assert answer["compliant"] is True
    assert len(answer["coins"]) == sum(SPECS.item("coin_set").composition.counts.values())
    checks = {c["id"]: c for c in answer["checks"]}
    assert checks["coin_set.count"]["ok"] and checks["coin_set.count.red"]["value"] == 1


def test_one_bad_coin_fails_its_dimension_and_is_named():
    coins = _full_set()
    coins[4] = _coin("white", thickness=0.59)
    answer = inspect({"item": "coin_set", "coins": coins})
    assert answer["compliant"] is False
    checks = {c["id"]: c for c in answer["checks"]}
    assert checks["coin.thickness"]["ok"] is False and checks["coin.thickness"]["value"] == 0.59
    assert checks["coin.diameter"]["ok"] is True and checks["coin_set.count"]["ok"] is True
    assert [c["index"] for c in answer["coins"] if not c["compliant"]] == [4]
    assert [r["coin"] for r in checks["coin.thickness"]["readings"] if not r["ok"]] == [4]


def test_wrong_count_of_a_colour_fails():
    coins = [c for c in _full_set()]
    coins.remove(next(c for c in coins if c["colour"] == "black"))
    answer = inspect({"item": "coin_set", "coins": coins})
    checks = {c["id"]: c for c in answer["checks"]}
    assert answer["compliant"] is False
    assert checks["coin_set.count.black"]["ok"] is False and checks["coin_set.count.black"]["value"] == 8
    assert checks["coin_set.count"]["ok"] is False and checks["coin_set.count.white"]["ok"] is True


def test_spares_are_measured_not_counted_and_colours_in_any_language():
    coins = [dict(c, colour={"white": "blanc", "black": "nero", "red": "reine"}[c["colour"]]) for c in _full_set()]
    coins += [_coin("white", spare=True), _coin("black", weight=7.0, spare=True)]
    answer = inspect({"item": "coin_set", "coins": coins})
    checks = {c["id"]: c for c in answer["checks"]}
    assert checks["coin_set.count"]["ok"] is True and checks["coin_set.count"]["spares"] == 2
    assert checks["coin.weight"]["ok"] is False  # the heavy spare is still measured
    assert answer["coins"][-1]["spare"] is True and answer["coins"][-1]["colour"] == "black"


def test_a_brown_set_is_not_the_icf_set_and_says_where_it_comes_from():
    coins = [dict(c, colour="marron" if c["colour"] == "white" else c["colour"]) for c in _full_set()]
    answer = inspect({"item": "coin_set", "coins": coins})
    checks = {c["id"]: c for c in answer["checks"]}
    assert checks["coin_set.count.brown"]["ok"] is False and checks["coin_set.count.white"]["value"] == 0
    assert "carom-bi:9.2" in checks["coin_set.count"]["clauses"]


def test_coin_readings_nested_under_measurements_and_missing_ones_named():
    coins = [{"colour": "red", "measurements": {"diameter": {"value": 3.0, "unit": "cm"}, "weight": 5.5}}]
    answer = inspect({"item": "coin_set", "coins": coins})
    assert answer["missing"] == ["coins[0].thickness"]
    assert answer["compliant"] is False


def test_coin_reading_refusal_names_the_coin():
    coins = _full_set()
    coins[2] = _coin("white", weight="light")
    with pytest.raises(BadInput) as info:
        inspect({"item": "coin_set", "coins": coins})
    assert info.value.field == "coins[2].weight.value"


# ------------------------------------------------------------------------------- the specifications

def test_specifications_cover_every_item_of_the_contract():
    table = {"board": {"surface_side", "frame_width", "pocket_diameter", "baseline_length", "baseline_width",
                       "baseline_distance", "base_circle_diameter", "base_circle_red_diameter", "arrow_length",
                       "arrow_pocket_distance", "centre_circle_diameter", "outer_circle_diameter", "arc_diameter",
                       "baseline_gap", "surface_thickness", "reinforced", "frame_density", "rebounds"},
             "striker": {"diameter", "weight", "metal_visible"}, "coin": {"diameter", "thickness", "weight"},
             "stand": {"surface_height"}, "chair": {"seat_height", "armrests"}, "lamp": {"power"}}
    for item_name, names in table.items():
        assert names <= {m.name for m in SPECS.item(item_name).measurements}, item_name
    assert SPECS.item("coin_set").each == "coin"
    letters = {m.letter for m in SPECS.item("board").measurements if m.letter}
    assert letters == set("ABCDEFGHIJKLMN")


def test_every_cited_clause_exists(kb):
    assert dangling_clauses(SPECS, kb.clauses) == []


def _flat(text: str) -> str:
    return " ".join(text.replace("**", "").split())


def test_every_printed_limit_occurs_in_its_source(kb, shared_dir):
    texts = {}
    for item in SPECS.items.values():
        for m in item.measurements:
            for lim in m.limits:
                source = kb.sources[lim.clause.split(":")[0]]
                if source.id not in texts:
                    texts[source.id] = _flat(" ".join((shared_dir / "sources" / f).read_text(encoding="utf-8")
                                                      for f in source.files))
                assert _flat(lim.printed) in texts[source.id], (item.name, m.name, lim.printed)


def _spec_dir(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "equipment"
    folder.mkdir()
    (folder / "thing.yaml").write_text(text, encoding="utf-8")
    return folder


GOOD = """item: thing
label: {en: Thing, fr: Chose, it: Cosa}
measurements:
  - name: width
    label: {en: Width, fr: Largeur, it: Larghezza}
    quantity: length
    unit: cm
    required: true
    plausible: {min: 1, max: 100}
    limits:
      - clause: icf-fr:2.dim.A
        printed: "73,66 ± 0,32 cm"
        nominal: 73.66
        tolerance: 0.32
        min: 73.34
        max: 73.98
"""


def test_loader_accepts_a_good_file(tmp_path):
    specs, problems = load_specs(_spec_dir(tmp_path, GOOD), strict=False)
    assert problems == [] and specs.item("thing").measurement("width").applied()[0].max == Decimal("73.98")


@pytest.mark.parametrize("change, line, message", [
    (("max: 73.98", "max: 73.99"), 11, "min/max must be"),
    (("quantity: length", "quantity: lenght"), 4, "measurement width.quantity: 'lenght' is not one of length"),
    (("unit: cm", "unit: g"), 4, "unit 'g'"),
    (("clause: icf-fr:2.dim.A", "clause: figure A"), 11, "not a clause id"),
    (("    required: true\n", "    required: true\n    requird: false\n"), 4, "unknown field 'requird'"),
    (("plausible: {min: 1, max: 100}", "plausible: {min: 1, max: 50}"), 4, "plausible"),
    (("        printed: \"73,66 ± 0,32 cm\"\n", ""), 11, "printed"),
    (("it: Larghezza}", "}"), 5, "no text in 'it'"),
    (("min: 73.34", "min: [73.34"), 16, "not valid YAML"),
])
def test_loader_refuses_a_broken_file_naming_file_and_line(tmp_path, change, line, message):
    folder = _spec_dir(tmp_path, GOOD.replace(*change))
    with pytest.raises(KnowledgeError) as info:
        load_specs(folder)
    first = info.value.problems[0]
    assert first.file == "equipment/thing.yaml" and message in first.message, info.value.problems
    assert first.line == line, info.value.problems
