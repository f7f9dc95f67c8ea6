"""`db copy`: every kind of record moves between SQLite and PostgreSQL, both ways, unchanged.

What is compared is what the stores give back through their public methods (a match's export
with its whole history, a form with its history, an inspection chain, a tournament's show, a
learner's progress), not row counts.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from support.cli import run_cli
from core.forms.test_forms import DISQUALIFICATION as FORMS_DISQUALIFICATION, PROTEST as FORMS_PROTEST
from support.kbcopy import installed

NOW = datetime(2026, 5, 14, 18, 0, tzinfo=timezone(timedelta(hours=2)))
PROTEST = {**FORMS_PROTEST, "round": 1, "table": 1, "players": {"first": "P1", "second": "P2"}}
DISQUALIFICATION = {**FORMS_DISQUALIFICATION, "round": 1, "table": 2, "player": "P3"}
STRIKER_WIDE = {"item": "striker", "measurements": {"diameter": {"value": 4.2, "unit": "cm"},
                                                    "weight": {"value": 14.2, "unit": "g"}}}


def clock():
    return NOW


def stores(url):
    from referee_app.core.forms.store import FormsStore
    from referee_app.core.inspection.store import InspectionStore
    from referee_app.core.learn.store import ProgressStore
    from referee_app.core.play.store import MatchStore
    from referee_app.core.tournament.store import TournamentStore

    return (MatchStore(installed(), url), FormsStore(installed(), url, clock=clock), InspectionStore(url),
            TournamentStore(installed(), url, clock=clock), ProgressStore(url, clock=clock))


def fill(url) -> None:
    """Every kind of record, through the stores, with the histories they keep."""
    from referee_app.core.learn.questions import Scope, generate

    matches, forms, inspections, tournaments, progress = stores(url)
    first = matches.create("icf", first_name="P1", second_name="P2", tournament="Open de Cannes", round="1",
                           table_no="1")
    for stroke in ({"pocketed": {}}, {"pocketed": {"own": 1}}, {"pocketed": {}}, {"pocketed": {"own": 1}}):
        matches.add_stroke(first, stroke)
    matches.undo(first)                                        # a superseded stroke
    matches.correct(first, 2, {"pocketed": {"own": 2}})        # superseded and re-ruled ones
    matches.update_header(first, referee="C. Martin")
    second = matches.create("it", doubles=True)
    matches.add_stroke(second, {"pocketed": {}})
    matches.change_ruleset(second, "icf")                       # a match event
    tid = tournaments.create("Open de Cannes", ["P1", "P2", "P3", "P4", "P5"], "icf")
    tournaments.pair(tid, seed=4)
    tournaments.link_match(tid, 1, 1, first)
    for game in tournaments.round_games(tid, 1):
        if game["score_first"] is None:
            tournaments.result(tid, 1, game["table_no"], [25, game["table_no"]])
    tournaments.pair(tid, seed=5)
    tournaments.correct(tid, 1, 1, [20, 25], "the sheet was read the wrong way round")
    tournaments.add_player(tid, "P6")
    protest = forms.create("protest", {**PROTEST, "match": str(first)})
    forms.set_field(protest.id, "facts", "Seen from the next table too")
    forms.file(protest.id)
    forms.decide(protest.id, "upheld", director="D. Leroy")
    forms.create("disqualification", DISQUALIFICATION)
    forms.record_incident({"tournament": "Open de Cannes", "round": 1, "table": 2, "player": "P3",
                           "kind": "disturbance", "at": "2026-05-14T16:00:00+02:00", "referee": "C. Martin"})
    failed = inspections.save(STRIKER_WIDE, installed().equipment, inspector="É. Mercier", label="striker of P1",
                              tournament="Open de Cannes")
    draft = inspections.reinspection_draft(failed.id)
    draft["document"]["measurements"]["diameter"] = {"value": 4.1, "unit": "cm"}
    inspections.save(draft["document"], installed().equipment, inspector="É. Mercier", previous_id=failed.id)
    for n, q in enumerate(generate(installed(), Scope("icf"), 3, seed=4)):
        progress.record("ada", q, correct=n != 1)
    progress.record("bruno", q, correct=True)
    for store in (matches, forms, inspections, tournaments, progress):
        store.close()


def snapshot(url) -> dict:
    """Everything the stores say about the records."""
    matches, forms, inspections, tournaments, progress = stores(url)
    try:
        listed = forms.list()
        return {
            "matches": [matches.export(m["id"]) | {"listed": m} for m in matches.list()],
            "forms": [{"summary": f.summary(NOW), "record": vars(forms.get(f.id)), "history": forms.history(f.id)}
                      for f in listed],
            "incidents": forms.incidents(),
            "inspections": [r.to_dict() for r in inspections.list()],
            "chains": [[r.id for r in inspections.chain(r.id)] for r in inspections.list()],
            "tournaments": [tournaments.show(t["id"]) | {"listed": t} for t in tournaments.list()],
            "learners": {name: {"summary": progress.summary(name), "due": progress.due(name)}
                         for name in progress.learners()},
        }
    finally:
        for store in (matches, forms, inspections, tournaments, progress):
            store.close()


def copy(*args: str):
    return run_cli("db", "copy", *args)


def copied(source: str, target: str, *extra: str) -> dict:
    from cli.test_schemas import validate

    done = copy("--from", source, "--to", target, *extra)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    validate(answer, "db.json#/$defs/copy")
    return answer


def test_every_kind_of_record_round_trips_sqlite_postgresql_sqlite(tmp_path, postgresql_url):
    source, back = f"sqlite:///{tmp_path / 'table.sqlite3'}", f"sqlite:///{tmp_path / 'back.sqlite3'}"
    fill(source)
    expected = snapshot(source)
    assert all(expected[kind] for kind in expected), "every kind of record is there to be copied"
    there = copied(source, postgresql_url)
    assert there["ids"] == "kept" and there["copied"] > 0
    assert all(t["copied"] > 0 for t in there["tables"].values()), there["tables"]
    assert snapshot(postgresql_url) == expected
    assert copied(postgresql_url, back)["copied"] == there["copied"]
    assert snapshot(back) == expected
    # the records keep their numbers, and new ones follow them on the server
    from referee_app.core.play.store import MatchStore

    with MatchStore(installed(), postgresql_url) as matches:
        assert matches.create("icf") == max(m["match"]["id"] for m in expected["matches"]) + 1


def test_copying_twice_changes_nothing_and_a_conflicting_target_is_refused_untouched(tmp_path, records_url):
    source = f"sqlite:///{tmp_path / 'table.sqlite3'}"
    fill(source)
    copied(source, records_url)
    again = copied(source, records_url)
    assert again["copied"] == 0 and all(t["copied"] == 0 for t in again["tables"].values())
    before = snapshot(records_url)
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    from referee_app.core.play.store import MatchStore

    with MatchStore(installed(), other) as matches:
        matches.create("icf", first_name="Someone else")        # match 1, another match than the target's
    done = copy("--from", other, "--to", records_url)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "matches" in done.stderr and "--renumber" in done.stderr, done.stderr
    assert snapshot(records_url) == before


def test_renumber_adds_a_machines_records_beside_others_and_follows_every_reference(tmp_path, records_url):
    from referee_app.core.forms.store import FormsStore
    from referee_app.core.play.store import MatchStore

    mine = f"sqlite:///{tmp_path / 'table.sqlite3'}"
    fill(mine)
    with MatchStore(installed(), records_url) as matches:
        other = matches.create("icf", first_name="Already there")
        matches.add_stroke(other, {"pocketed": {}})
    mine_before = snapshot(mine)
    answer = copied(mine, records_url, "--renumber")
    assert answer["ids"] == "renumbered"
    after = snapshot(records_url)
    assert len(after["matches"]) == len(mine_before["matches"]) + 1
    assert after["matches"][0]["match"]["first_name"] == "Already there"
    renumbered = {m["match"]["id"] for m in after["matches"][1:]}
    assert other not in renumbered
    for was, now in zip(mine_before["matches"], after["matches"][1:]):
        assert [h["stroke"] for h in now["history"]] == [h["stroke"] for h in was["history"]]
        assert now["report"] == was["report"] and now["events"] == was["events"]
    # the protest still names its match, and the tournament's game still links it
    first_now = after["matches"][1]["match"]["id"]
    with FormsStore(installed(), records_url) as forms:
        protest = next(f for f in forms.list() if f.kind == "protest")
        assert str(protest.fields["match"]) == str(first_now)
    games = after["tournaments"][0]["tournament"]
    assert games == mine_before["tournaments"][0]["tournament"]
    from referee_app.core.tournament.store import TournamentStore

    with TournamentStore(installed(), records_url) as tournaments:
        assert tournaments.game(after["tournaments"][0]["id"], 1, 1)["match_id"] == first_now
    assert after["learners"] == mine_before["learners"] and after["inspections"][1]["previous_id"] \
        == after["inspections"][0]["id"]
