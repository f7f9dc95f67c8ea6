"""The match session (core/play/session.py): the match kept at a table, its record, its
corrections and its what-if, without the window. What is previewed is what is recorded and
stored, colours open included; a window that crashes loses nothing: a new session on the same
records resumes the match where it stood."""
from __future__ import annotations

import json

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.play.clock import match_clock
from referee_app.core.play.session import MatchOver, MatchSession
from referee_app.core.play.store import MatchStore
from support.kbcopy import installed, knowledge_with_files


def stored(ruling: dict) -> dict:
    """A ruling as the records keep it (JSON)."""
    return json.loads(json.dumps(ruling))


def history(store: MatchStore, match_id: int) -> list[dict]:
    """The strokes in force and their rulings as stored."""
    return [h for h in store.export(match_id)["history"] if h["superseded_at"] is None]


def test_a_stroke_previewed_is_the_stroke_recorded_and_stored(records_file):
    session = MatchSession(installed(), "icf", store=MatchStore(installed()))
    stroke = {"pocketed": {"own": 1, "queen": True}}
    shown = session.preview(stroke)
    assert session.match.strokes == [] and session.match_id is None   # a preview keeps nothing
    ruling = session.record(stroke, {"first_name": "Anna", "second_name": "Bruno"})
    assert ruling == shown and session.match.rulings == [shown]
    assert session.store.meta(session.match_id)["first_name"] == "Anna"
    assert [(h["stroke"], h["ruling"]) for h in history(session.store, session.match_id)] == [(stroke, stored(shown))]
    traced = session.preview({"pocketed": {"own": 1}}, trace=True)
    assert "trace" in traced and {k: v for k, v in traced.items() if k != "trace"} == \
        session.preview({"pocketed": {"own": 1}})


def test_colours_open_the_preview_is_the_ruling_stored(records_file):
    session = MatchSession(installed(), "fr-house", store=MatchStore(installed()))
    assert session.match.game.colours_open()
    stroke = {"pocketed": {"dark": 2}}                    # two black coins fall first: the striker plays black
    shown = session.preview(stroke, trace=True)
    assert shown["after"]["striker_colour"] == "dark"
    ruling = session.record(stroke)
    assert ruling == {k: v for k, v in shown.items() if k != "trace"}
    assert history(session.store, session.match_id)[0]["ruling"] == stored(ruling)
    assert session.match.game.state.colours == {"first": "dark", "second": "light"}


def test_undo_takes_the_last_stroke_back_in_the_record_too(records_file):
    session = MatchSession(installed(), "icf", store=MatchStore(installed()))
    session.record({"pocketed": {"own": 2}})
    session.record({"pocketed": {"own": 1}})
    assert session.undo() == {"pocketed": {"own": 1}}
    assert session.match.strokes == [{"pocketed": {"own": 2}}]
    assert [h["stroke"] for h in history(session.store, session.match_id)] == [{"pocketed": {"own": 2}}]
    session.undo()
    with pytest.raises(BadInput, match="no stroke to undo"):
        session.undo()


def test_a_correction_re_rules_the_later_strokes_and_says_which_change(records_file):
    session = MatchSession(installed(), "icf", store=MatchStore(installed()))
    for stroke in ({"pocketed": {"own": 2}}, {"pocketed": {"own": 1}}, {"pocketed": {}}):
        session.record(stroke)
    before = list(session.match.rulings)
    assert session.start_correction(1) == {"pocketed": {"own": 2}}
    corrected = {"pocketed": {}}               # nothing fell: the turn passed, the next stroke was the other side's
    changes = session.correction_changes(1, corrected)
    assert [c["stroke"] for c in changes][:2] == [1, 2] and changes[1]["before"] == before[1]
    assert session.preview(corrected) == changes[0]["after"]       # previewed on the board as it stood then
    session.record(corrected)
    assert session.correcting is None
    assert session.match.strokes[0] == corrected and session.match.rulings[1] == changes[1]["after"]
    assert [h["ruling"] for h in history(session.store, session.match_id)] == \
        [stored(r) for r in session.match.rulings]


def test_a_correction_that_makes_a_later_stroke_impossible_is_refused_and_nothing_changes(records_file):
    session = MatchSession(installed(), "icf", store=MatchStore(installed()))
    session.record({"pocketed": {"own": 1}})
    session.record({"pocketed": {"own": 7}})   # 7 of the 8 left; with 3 in the first stroke, only 6 were left
    session.start_correction(1)
    with pytest.raises(BadInput, match="stroke 2"):
        session.correction_changes(1, {"pocketed": {"own": 3}})
    assert session.match.strokes[0] == {"pocketed": {"own": 1}} and session.correcting == 1


def test_what_if_rules_a_board_set_by_hand_and_records_nothing(records_file):
    session = MatchSession(installed(), "icf", store=MatchStore(installed()))
    session.record({"pocketed": {"own": 1}})
    before = {"own_on_board": 1, "opponent_on_board": 3, "queen": "covered_by_striker"}
    ruling = session.preview({"pocketed": {"own": 1}}, what_if=before)
    assert ruling["board"]["over"] and ruling["board"]["winner"] == "striker"
    assert len(session.match.strokes) == 1 and len(history(session.store, session.match_id)) == 1
    assert session.situation_doc({}, before) == {"before": before, "stroke": {}}


def test_a_crash_loses_nothing_a_new_session_on_the_same_records_resumes(records_file):
    first = MatchSession(installed(), "icf", store=MatchStore(installed()))
    first.record({"pocketed": {"own": 2}}, {"first_name": "Anna"})
    first.record({"pocketed": {"own": 1}})
    strokes, rulings = list(first.match.strokes), list(first.match.rulings)
    del first                                   # the window is gone; the records are all that is left

    again = MatchSession(installed(), "icf", store=MatchStore(installed()))
    found = again.unfinished()
    assert found is not None and found["first_name"] == "Anna"
    meta = again.open(found["id"])
    assert meta["id"] == found["id"] and again.match_id == found["id"]
    assert again.match.strokes == strokes and again.match.rulings == [stored(r) for r in rulings]
    again.record({"pocketed": {"own": 1}})
    assert len(history(again.store, again.match_id)) == 3
    assert again.unfinished() is None           # a match is begun on screen: nothing to offer


def test_the_store_is_opened_only_when_a_record_is_needed(records_file):
    opened = []

    def open_store():
        opened.append(1)
        return MatchStore(installed())

    session = MatchSession(installed(), "icf", open_store=open_store)
    session.preview({"pocketed": {"own": 1}})
    session.set_doubles(True)
    assert opened == [] and session.match.doubles
    session.record({"pocketed": {"own": 1}})
    assert opened == [1] and session.store.meta(session.match_id)["doubles"] == 1


def test_the_ruleset_changes_with_every_stroke_ruled_again_and_the_change_kept(records_file):
    session = MatchSession(installed(), "icf", store=MatchStore(installed()))
    session.record({"pocketed": {"own": 1}})
    assert not session.set_doubles(True)        # a match begun keeps its seats
    session.change_ruleset("it")
    assert session.match.ruleset == "it" and session.ruleset == "it"
    assert session.store.events(session.match_id)[0]["detail"]["from"] == "icf"
    with pytest.raises(BadInput, match="ruleset"):
        session.change_ruleset("chess")


def test_a_match_won_refuses_the_next_stroke(records_file):
    session = MatchSession(installed(), "icf", store=MatchStore(installed()))
    while not session.match.over:
        session.match.play({"pocketed": {"own": 9, "queen": True}})   # a board won at each stroke
    with pytest.raises(MatchOver):
        session.preview({"pocketed": {"own": 1}})


def test_the_match_clock_comes_from_the_tournament_file():
    clock = match_clock(installed().tournament)
    assert (clock.minutes, clock.extra_minutes, clock.clause) == (40, 5, "ffc-tournament:1.8")
    assert match_clock({"match_clock": {"minutes": 30, "extra_minutes": 0}})[:2] == (30, 0)


def test_a_session_takes_its_rulesets_and_clock_from_the_knowledge_it_is_given(records_file, tmp_path):
    tournament = (installed().root / "tournament.yaml").read_text(encoding="utf-8")
    edited = knowledge_with_files(tmp_path, {"tournament.yaml": tournament.replace(
        "match_clock: {minutes: 40, extra_minutes: 5,", "match_clock: {minutes: 30, extra_minutes: 2,")})
    session = MatchSession(edited, "nope", store=MatchStore(edited))
    assert session.ruleset == edited.default_ruleset    # not a ruleset of this knowledge
    assert session.match_clock()[:2] == (30, 2)
    assert MatchSession(installed()).match_clock()[:2] == (40, 5)
    assert session.clock_seconds() and session.fouls()
    assert session.match.game.rs is edited.compiled("icf") is not installed().compiled("icf")
    with pytest.raises(BadInput, match="ruleset"):
        session.change_ruleset("nope")
