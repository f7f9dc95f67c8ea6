"""The knowledge base's own files are read against JSON Schemas (referee_app/schemas/knowledge/) by
core/knowledge/schema_reader.py, a reader of the subset of JSON Schema they use: each violation is
one Problem naming file, line, field and problem, and `jsonschema` agrees with it."""
from __future__ import annotations

import copy
import json

import pytest

from referee_app.core.inspection.units import QUANTITIES
from referee_app.core.knowledge import schema_reader
from referee_app.core.knowledge.files import load_file
from referee_app.core.knowledge.yamlio import load_text
from referee_app.languages import LANGUAGES
from support.documents import paths, replaced

jsonschema = pytest.importorskip("jsonschema")

NAMES = sorted(p.stem for p in schema_reader.FOLDER.glob("*.json"))
BASE = "https://carrom-referee.example/schemas/knowledge/"


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_a_json_schema_named_by_its_file_and_read_whole(name):
    raw = json.loads((schema_reader.FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(raw)
    assert raw["$id"] == BASE + f"{name}.json" and raw.get("description")
    # what the file says of the languages is what the reader takes from referee_app/languages.py
    defs = raw.get("$defs", {})
    if "texts" in defs:
        assert sorted(defs["texts"]["required"]) == sorted(LANGUAGES)
    if "language" in defs:
        assert sorted(defs["language"]["enum"]) == sorted(LANGUAGES)
    schema_reader.schema(name)  # every keyword in it is one the reader reads


def test_a_thesaurus_concept_takes_words_in_every_language_and_no_other():
    concept = schema_reader.schema("thesaurus")["$defs"]["concept"]["properties"]
    assert {k for k, v in concept.items() if v == {"$ref": "#/$defs/words"}} == set(LANGUAGES)


def test_the_equipment_schema_knows_every_quantity():
    quantities = schema_reader.schema("equipment")["$defs"]["measurement"]["properties"]["quantity"]["enum"]
    assert tuple(quantities) == QUANTITIES


def test_a_keyword_the_reader_does_not_read_is_refused(tmp_path, monkeypatch):
    (tmp_path / "odd.json").write_text(json.dumps({"type": "object", "oneOf": [{"required": ["a"]}]}))
    monkeypatch.setattr(schema_reader, "FOLDER", tmp_path)
    schema_reader.schema.cache_clear()
    try:
        with pytest.raises(ValueError, match="oneOf"):
            schema_reader.schema("odd")
    finally:
        schema_reader.schema.cache_clear()


def _real_documents():
    """(schema, part, file, parsed document) of every knowledge file a schema reads."""
    from referee_app.core.knowledge.loader import knowledge_root

    root = knowledge_root()
    for path in sorted((root / "equipment").glob("*.yaml")):
        data = load_file(path)
        yield "equipment", "file" if "items" in data else "item", f"equipment/{path.name}", data
    for path in sorted((root / "rulesets").glob("*.yaml")):
        yield "ruleset", None, f"rulesets/{path.name}", load_file(path)
    for name in ("forms", "thesaurus"):
        yield name, None, f"{name}.yaml", load_file(root / f"{name}.yaml")


def _agrees(name: str, part: str | None, document) -> tuple[bool, list[str]]:
    """Whether jsonschema and the reader say alike that `document` is valid; the reader's problems."""
    root = copy.deepcopy(schema_reader.schema(name))
    target = {"$ref": f"#/$defs/{part}", "$defs": root["$defs"]} if part else root
    valid = jsonschema.Draft202012Validator(target).is_valid(json.loads(json.dumps(document, default=str)))
    said = [str(p) for p in schema_reader.check(document, name, "f.yaml", part).problems]
    return valid == (not said), said


def test_the_shipped_files_are_valid_for_both_readers():
    for name, part, file, document in _real_documents():
        same, said = _agrees(name, part, document)
        assert same and not said, (file, said)


GOOD_ITEM = """item: thing
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
        printed: "73,66 cm"
        max: 73.98
"""


@pytest.mark.parametrize("change, expected", [
    (None, []),
    (("item: thing", "item: [thing]"), ["f.yaml:1: item: an item needs its name ('item: striker')"]),
    (("    unit: cm\n", "    unit: cm\n    colour: red\n"), ["f.yaml:4: measurement width: unknown field 'colour'"]),
    (("required: true", "required: 1"), ["f.yaml:4: measurement width.required: must be true or false"]),
    (("quantity: length", "quantity: size"),
     ["f.yaml:4: measurement width.quantity: 'size' is not one of length, mass, density, power, count, boolean, text"]),
    (("clause: icf-fr:2.dim.A", "clause: A"),
     ["f.yaml:11: measurement width, limit 1.clause: 'A' is not a clause id (SOURCE:PARAGRAPH)"]),
    (("        printed: \"73,66 cm\"\n", ""),
     ["f.yaml:11: measurement width, limit 1: a limit needs its 'printed' form, as the source prints it"]),
    (("fr: Largeur, ", ""), ["f.yaml:5: measurement width.label: no text in 'fr'"]),
    (("fr: Largeur, ", "de: Breite, "), ["f.yaml:5: measurement width.label: no text in 'fr'",
                                         "f.yaml:5: measurement width.label.de: unknown language 'de'"]),
    (("  - name: width\n", "  - label: x\n  - name: width\n"),
     ["f.yaml:4: item thing.measurements #1: a measurement needs a name",
      "f.yaml:4: item thing.measurements #1: needs 'quantity'", "f.yaml:4: item thing.measurements #1: needs 'required'",
      "f.yaml:4: item thing.measurements #1: needs a list of limits, each citing its clause",
      "f.yaml:4: item thing.measurements #1.label: needs a text in each language"]),
    (("max: 73.98", "max: '73.98'"), ["f.yaml:11: measurement width, limit 1.max: must be a number"]),
    (("max: 73.98", "max: 73.98\n        inches: {}"),
     ["f.yaml:14: measurement width, limit 1.inches: must be a mapping of min/max/nominal/tolerance"]),
])
def test_each_violation_is_one_problem_naming_line_field_and_problem(change, expected):
    text = GOOD_ITEM.replace(*change) if change else GOOD_ITEM
    document = load_text(text)
    same, said = _agrees("equipment", "item", document)
    assert said == expected
    assert same, "jsonschema disagrees"


def test_what_the_schema_refused_is_known_to_the_builder():
    document = load_text(GOOD_ITEM.replace("required: true", "required: 1"))
    report = schema_reader.check(document, "equipment", "f.yaml", "item")
    measurement = document["measurements"][0]
    assert report.refused(document) and not report.refused_itself(document)
    assert report.refused(measurement) and report.refused_itself(measurement)
    assert not report.refused(measurement["limits"][0])


# --- every field of a shipped file, of a wrong type: a problem, never a crash -------------------

WRONG = (None, 3, "x", [1], {"a": 1})   # each kind of value where another is wanted


def _plain(node):
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    return [_plain(v) for v in node] if isinstance(node, list) else node


def _mutations(original, every: int = 1):
    import yaml

    original = _plain(original)
    for path in list(paths(original, items=2))[::every]:
        for value in WRONG:
            yield path, value, yaml.safe_dump(replaced(original, path, value), allow_unicode=True)


def _readers(kb, tmp_path):
    """(file, how often a path is taken, a function reading that file's text the way check-kb does)."""
    from types import SimpleNamespace

    from referee_app.core.checks.knowledge_base import forms_problems
    from referee_app.core.errors import KnowledgeError
    from referee_app.core.inspection.spec import load_specs
    from referee_app.core.knowledge import thesaurus
    from referee_app.core.knowledge.rulesets import load_rulesets

    def forms(text):
        (tmp_path / "forms.yaml").write_text(text, encoding="utf-8")
        return forms_problems(SimpleNamespace(root=tmp_path, clauses=kb.clauses, languages=kb.languages),
                              load_rulesets(kb))

    def thes(text):
        (tmp_path / "thesaurus.yaml").write_text(text, encoding="utf-8")
        return thesaurus.load(SimpleNamespace(root=tmp_path, glossary=kb.glossary, clauses=kb.clauses))[1]

    def equipment(text):
        (tmp_path / "equipment").mkdir(exist_ok=True)
        (tmp_path / "equipment" / "coin_set.yaml").write_text(text, encoding="utf-8")
        return load_specs(tmp_path / "equipment", strict=False)[1]

    def ruleset(text):
        (tmp_path / "rulesets").mkdir(exist_ok=True)
        (tmp_path / "rulesets" / "icf.yaml").write_text(text, encoding="utf-8")
        try:
            load_rulesets(SimpleNamespace(root=tmp_path, sources=kb.sources))
        except KnowledgeError as exc:
            return exc.problems
        return []

    # one path in `every` of the larger files: reading forms.yaml resolves every ruleset's rules,
    # reading the thesaurus searches the clauses for its words
    return [("forms.yaml", 4, forms), ("thesaurus.yaml", 6, thes), ("equipment/coin_set.yaml", 1, equipment),
            ("rulesets/icf.yaml", 2, ruleset)]


def test_a_field_of_a_wrong_type_is_a_problem_never_a_crash(kb, tmp_path):
    crashed = []
    for file, every, read in _readers(kb, tmp_path):
        original = load_file(kb.root / file)
        for path, value, text in _mutations(original, every):
            try:
                read(text)
            except Exception as exc:   # noqa: BLE001  (any exception is the failure this test looks for)
                crashed.append(f"{file} {'/'.join(map(str, path))} = {value!r}: {type(exc).__name__}: {exc}")
    assert crashed == [], crashed[:5]
