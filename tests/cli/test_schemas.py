"""The formats are the project's: referee_app/schemas/ holds a JSON Schema of each, and what the
command line reads and prints must agree with them (and with ../shared/contract, the reference)."""
from __future__ import annotations

import json

import pytest
import yaml

jsonschema = pytest.importorskip("jsonschema")
from referencing import Registry, Resource  # noqa: E402  (comes with jsonschema)

from support.cli import REPO, run_cli  # noqa: E402
from referee_app.core.forms.fields import FIELDS  # noqa: E402
from support.kbcopy import installed  # noqa: E402

SCHEMAS = REPO / "referee_app" / "schemas"
BASE = "https://carrom-referee.example/schemas/"


def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMAS.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def validate(document, schema: str) -> None:
    """`schema`: a file name, with a pointer into it after '#' (`scoresheet.json#/$defs/report`)."""
    validator = jsonschema.Draft202012Validator({"$ref": BASE + schema}, registry=REGISTRY,
                                                format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.absolute_path)) or '.'}: {e.message}" for e in errors[:5])


def cli_json(*args: str, input: str | None = None):
    done = run_cli(*args, input=input)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.json")), ids=lambda p: p.name)
def test_each_schema_is_a_valid_schema_named_by_its_file(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == BASE + path.name
    assert schema.get("description"), "say what the format is for"


def test_the_schemas_fail_what_they_must():
    with pytest.raises(AssertionError, match="queen"):
        validate({"before": {"queen": "lost"}, "stroke": {"pocketed": {}}}, "situation.json")
    with pytest.raises(AssertionError, match="pocketed"):
        validate({"stroke": {}}, "situation.json")
    with pytest.raises(AssertionError, match="turn"):
        validate({"ruleset": "icf", "turn": "maybe"}, "ruling.json")


# --- inputs ----------------------------------------------------------------------------------

def test_every_worked_example_of_the_knowledge_base_is_a_situation(kb):
    examples = [ex for c in kb.clauses.values() for ex in c.examples]
    assert len(examples) > 50
    for ex in examples:
        situation = dict(ex["situation"], **({"ruleset": ex["ruleset"]} if "ruleset" in ex else {}))
        validate(situation, "situation.json")


def test_the_public_cases_are_in_the_formats(shared_dir):
    cases = shared_dir / "cases"
    def valid(name):  # the cases that expect bad input are not in the format, by design
        return [c for c in yaml.safe_load((cases / name).read_text(encoding="utf-8")) if not c["expect"].get("error")]
    for case in valid("rule.yaml"):
        validate(case["situation"], "situation.json")
    for case in valid("replay.yaml"):
        validate(case["input"], "scoresheet.json")
    for case in valid("inspect.yaml"):
        validate(case["input"], "inspection.json")


def test_the_situation_schema_names_every_fact_a_situation_gives():
    from referee_app.core.rules.situation import INPUT_FACTS

    schema = json.loads((SCHEMAS / "situation.json").read_text(encoding="utf-8"))
    for fact in INPUT_FACTS:
        node = schema
        for part in fact.field.split("."):
            node = node["properties"][part] if "properties" in node else node
            if "$ref" in node:
                node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
        assert node, fact.field


def test_the_form_schema_names_the_fields_the_forms_have():
    schema = json.loads((SCHEMAS / "form.json").read_text(encoding="utf-8"))
    common = set(schema["$defs"]["common"]["properties"])
    for kind, fields in FIELDS.items():
        own = schema["$defs"][kind]
        assert set(own["properties"]) | common == {f.name for f in fields}, kind
        assert set(own["required"]) == {f.name for f in fields if f.required}, kind


# --- outputs ---------------------------------------------------------------------------------

SITUATIONS = [
    {"ruleset": "icf", "before": {"own_on_board": 6, "opponent_on_board": 7}, "stroke": {"pocketed": {"own": 2}}},
    {"ruleset": "icf", "before": {"own_on_board": 1, "opponent_on_board": 4, "queen": "covered_by_striker"},
     "stroke": {"pocketed": {"own": 1}}},
    {"ruleset": "it", "before": {"own_on_board": 6, "opponent_on_board": 7, "queen": "awaiting_cover"},
     "stroke": {"pocketed": {}}},
    {"ruleset": "aicf-2009", "stroke": {"pocketed": {"own": 1, "striker": True}}},
]


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s["ruleset"])
def test_rule_answers_a_ruling(situation):
    validate(cli_json("rule", "--json", "-", input=json.dumps(situation)), "ruling.json")


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s["ruleset"])
def test_rule_trace_answers_a_trace(situation):
    ruling = cli_json("rule", "--json", "--trace", "-", input=json.dumps(situation))
    assert ruling["trace"] and "turn" in ruling["trace"] or ruling["board"]["over"]
    validate(ruling, "ruling.json")


def test_rule_all_rulesets_answers_rulings_and_refusals():
    open_colours = {"before": {"colours": "open"}, "stroke": {"pocketed": {"dark": 1}}}
    answer = cli_json("rule", "--all-rulesets", "--json", "-", input=json.dumps(open_colours))
    validate(answer, "rulings.json")
    assert any("refused" in r for r in answer) and any("turn" in r for r in answer)
    with pytest.raises(AssertionError):
        validate([{"ruleset": "icf"}], "rulings.json")


def test_replay_reads_a_score_sheet_and_answers_a_report():
    sheet = {"ruleset": "icf", "boards": [[{"touched_coin": True, "pocketed": {"own": 2}}, {"pocketed": {}},
                                           {"pocketed": {"own": 1, "striker": True}}]]}
    validate(sheet, "scoresheet.json")
    validate(cli_json("replay", "--json", "-", input=json.dumps(sheet)), "scoresheet.json#/$defs/report")


def test_inspect_answers_a_result():
    striker = {"item": "striker", "measurements": {"diameter": {"value": 4.0, "unit": "cm"},
                                                   "weight": {"value": 14.2, "unit": "g"}, "metal_visible": False}}
    coins = {"item": "coin_set", "coins": [{"colour": "white", "diameter": {"value": 3.1, "unit": "cm"}},
                                           {"colour": "black", "diameter": {"value": 3.0, "unit": "cm"}}]}
    for doc in (striker, coins):
        validate(doc, "inspection.json")
        validate(cli_json("inspect", "--json", "-", input=json.dumps(doc)), "inspection.json#/$defs/result")


def test_forms_new_list_and_show_answer_their_records(user_dirs):
    protest = {"tournament": "Open de Cannes", "round": 3, "table": 7, "players": {"first": "A. Rossi", "second": "B. Dubois"},
               "referee": "C. Martin", "ruleset": "icf", "board": 4, "announced_at": "2026-05-14T15:42:00+02:00",
               "board_ended_at": "2026-05-14T15:49:00+02:00", "decision": "Queen returned to the centre",
               "clause": "icf-fr:3.12.d", "facts": "Free text", "lang": "fr"}
    validate(protest, "form.json")
    filed = cli_json("forms", "new", "protest", "--json", "-", input=json.dumps(protest))
    validate(filed, "form.json#/$defs/summary")
    for record in cli_json("forms", "list", "--json"):
        validate(record, "form.json#/$defs/summary")
    validate(cli_json("forms", "show", str(filed["id"]), "--json"), "form.json#/$defs/record")


def test_the_rulebook_and_show_answer_clause_records():
    records = cli_json("rulebook", "--json")
    for record in records:
        validate(record, "clause.json")
    for cid in ("icf-fr:3.12.c", "it:76", records[0]["id"]):
        validate(cli_json("show", cid, "--json"), "clause.json")


def test_search_answers_results():
    results = cli_json("search", "--json", "reine confirmer")
    assert results
    validate(results, "search.json")


def test_the_tournament_commands_answer_their_formats(tmp_path):
    done = run_cli("tournament", "generate", "--players", "7", "--seed", "3")
    assert done.returncode == 0, done.stderr
    path = tmp_path / "t.yaml"
    path.write_text(done.stdout, encoding="utf-8")
    validate(yaml.safe_load(done.stdout), "tournament.json")
    validate(cli_json("tournament", "standings", str(path), "--json"), "tournament.json#/$defs/standings")
    validate(cli_json("tournament", "pair", str(path), "--json"), "tournament.json#/$defs/pairing")
    validate(cli_json("tournament", "check", str(path), "--json"), "tournament.json#/$defs/check")
    first = {"name": "Open", "players": ["A", "B", "C"], "rounds": []}
    path.write_text(json.dumps(first), encoding="utf-8")
    validate(first, "tournament.json")
    validate(cli_json("tournament", "pair", str(path), "--json", "--seed", "1"), "tournament.json#/$defs/pairing")


def test_the_organisers_choices_import_and_desk_changes_answer_their_formats(tmp_path, monkeypatch):
    from referee_app.core.tournament import sol
    from referee_app.core.tournament.generator import generate

    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    # 3 players over 4 rounds: with avoid_rematches a rematch cannot be avoided, and check lists it
    t = generate(installed().ffc, 3, 1, choices={"rounds_total": 4, "ghost_points": 15, "avoid_rematches": True})
    doc = t.to_doc() | {"absent": {}}
    validate(doc, "tournament.json")
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    report = cli_json("tournament", "check", str(path), "--json")
    assert report["rematches"]
    validate(report, "tournament.json#/$defs/check")
    file = tmp_path / "t.sol.gz"
    file.write_bytes(sol.dump_bytes(t, True))
    imported = cli_json("tournament", "import", str(file), "--json")
    validate(imported, "tournament.json#/$defs/import")
    tid = str(imported["imported"][0]["id"])
    validate(cli_json("tournament", "choose", tid, "rounds_total", "5", "--reason", "time left", "--json"),
             "tournament.json#/$defs/change")
    validate(cli_json("tournament", "absent", tid, t.players[0], "5", "--reason", "train", "--json"),
             "tournament.json#/$defs/change")
    assert cli_json("tournament", "pair", "--id", tid, "--json")["round"] == 5
    validate(cli_json("tournament", "move-table", tid, "5", "1", "3", "--reason", "a warped board", "--json"),
             "tournament.json#/$defs/change")
    log = cli_json("tournament", "log", tid, "--json")
    validate(log, "tournament.json#/$defs/log")
    assert [e["action"] for e in log] == ["import", "choice", "choice", "pair", "move_table"]


def test_db_migrate_and_check_answer_their_formats(tmp_path):
    records_url = str(tmp_path / "records.sqlite3")
    before = run_cli("db", "check", records_url, "--json")
    assert before.returncode == 2, "a database without the schema is not up to date"
    validate(json.loads(before.stdout), "db_schema.json#/$defs/check")
    migrated = cli_json("db", "migrate", records_url, "--json")
    validate(migrated, "db_schema.json#/$defs/migrate")
    assert migrated["revision_before"] is None and migrated["migrations_applied"][-1] == migrated["revision"]
    again = cli_json("db", "migrate", records_url, "--json")
    assert again["migrations_applied"] == [] and again["revision_before"] == migrated["revision"]
    checked = cli_json("db", "check", records_url, "--json")
    validate(checked, "db_schema.json#/$defs/check")
    assert checked["up_to_date"] and checked["missing_tables"] == [] and set(checked["rows"].values()) == {0}


def test_the_contract_examples_are_in_the_formats(shared_dir):
    """The contract's own examples of a situation, a ruling, a clause record, a protest and a
    tournament, read from its code blocks, agree with the schemas."""
    text = (shared_dir / "contract" / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("\n", 1) for b in text.split("```")[1::2]]
    # YAML reads a time as a datetime; the formats carry it as ISO 8601 text, as JSON does
    parsed = [json.loads(json.dumps(yaml.safe_load(body), default=lambda t: t.isoformat()))
              for lang, body in blocks if lang.strip() in ("yaml", "json")]
    def first(pred):
        return next(doc for doc in parsed if isinstance(doc, dict) and pred(doc))
    validate(first(lambda d: "stroke" in d and "before" in d), "situation.json")
    validate(first(lambda d: "turn" in d and "board" in d), "ruling.json")
    validate(first(lambda d: "texts" in d and "paragraph" in d), "clause.json")
    validate(first(lambda d: "announced_at" in d), "form.json")
    validate(first(lambda d: "ground" in d), "form.json")
    validate(first(lambda d: "players" in d and "rounds" in d), "tournament.json")
    validate(first(lambda d: "item" in d and "measurements" in d and "checks" not in d), "inspection.json")
    validate(first(lambda d: "checks" in d), "inspection.json#/$defs/result")
