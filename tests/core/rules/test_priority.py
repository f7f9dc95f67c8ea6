"""Interpretations as data: every exception says whether the text states it or the project reads
it, and a ruling resting on a reading says so (issue 29)."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.rules.ruling import rule

from support.kbcopy import installed, knowledge_with_files


def test_every_exception_says_on_what_it_rests():
    k = installed()
    for rid in k.rulesets:
        for r in k.compiled(rid).rules:
            if r.exception_to and not k.compiled(rid).is_borrowed(r):
                assert r.priority is not None, r.id


def test_a_ruling_on_a_reading_carries_its_note_in_every_language():
    # icf-fr 3.12 c (queen back, turn passes) against 3.6 a (a pocketed piece keeps the turn):
    # the text does not say which wins
    ruling = rule(installed(), {"ruleset": "icf", "stroke": {"pocketed": {"queen": True}}})
    readings = [n for n in ruling["notes"] if n.get("reading")]
    assert [n["weighs"] for n in readings] == [["icf-fr:3.12.c", "icf-fr:3.6.a"]]
    assert all(readings[0][lang] for lang in ("en", "fr", "it"))
    # its own reason, in the reader's language: why 3.12 c prevails, not merely that it does
    assert "« correctement »" in readings[0]["fr"] and "«correctement»" in readings[0]["it"]
    assert "3.12 c's 'le tour de jouer passe à l'adversaire' would never apply" in readings[0]["en"]


def test_a_ruling_the_text_decides_carries_no_reading():
    # icf-fr 3.12 e "sauf : Exception": the queen with one coin while all nine are on the board
    ruling = rule(installed(), {"ruleset": "icf", "before": {"own_on_board": 9},
                                "stroke": {"pocketed": {"queen": True, "own": 1}}})
    assert not [n for n in ruling.get("notes", []) if n.get("reading")]


def test_an_exception_without_priority_is_refused(tmp_path):
    k = installed()
    path = "it/14-N-regina.yaml"
    text = Path(k.kb.root, path).read_text(encoding="utf-8")
    edited = text.replace('        priority: {"stated": "Se Però"}\n', "", 1)
    assert edited != text
    copy = knowledge_with_files(tmp_path, {path: edited})
    with pytest.raises(KnowledgeError, match="it:75/more-than-one-coin: exception_to needs a priority"):
        copy.compiled("it")


def test_every_reading_gives_its_own_reason():
    """No reading falls back on "the text does not say which prevails": each says why (issue 29)."""
    k = installed()
    for rid in k.rulesets:
        rs = k.compiled(rid)
        for r in rs.rules:
            reading = (r.priority or {}).get("reading")
            if reading is None:
                continue
            note = r.note if reading == "note" else reading
            assert set(note) >= {"en", "fr", "it"} and all(note[lang].strip() for lang in ("en", "fr", "it")), r.id
            assert "does not say which prevails" not in note["en"], r.id


@pytest.mark.parametrize("priority, problem", [
    ('{"reading": "generic"}', "a reading says why the project rules so"),
    ('{"reading": {"over": ["it:73"]}}', "a reading says why the project rules so"),
    ('{"reading": {"as": "generic"}}', "a reading says why the project rules so"),
    ('{"reading": {"en": "why", "fr": "pourquoi"}}', "a reading's note is written in en, fr, it"),
    ('{"reading": {"en": "why", "fr": "pourquoi", "it": " "}}', "a reading's note is written in en, fr, it"),
])
def test_check_kb_refuses_a_reading_without_its_own_reason(tmp_path, priority, problem):
    from referee_app.core.checks.knowledge_base import other_problems
    from referee_app.core.knowledge.loader import load
    k = installed()
    path = "it/14-N-regina.yaml"
    text = Path(k.kb.root, path).read_text(encoding="utf-8")
    start = text.index("      - name: all-nine-on-the-board\n        priority:\n")
    end = text.index("        when:", start)
    edited = text[:start] + f"      - name: all-nine-on-the-board\n        priority: {priority}\n" + text[end:]
    copy = knowledge_with_files(tmp_path, {path: edited})
    with pytest.raises(KnowledgeError, match=problem):
        copy.compiled("it")
    kb, problems = load(copy.root, strict=False)  # as check-kb reads it: a problem named by its file
    assert any(problem in p.message and p.file.endswith("14-N-regina.yaml") for p in [*problems, *other_problems(kb)])


def test_own_text_first_then_borrowing_with_a_note():
    k = installed()
    # fr-house 6.1 speaks of the queen pocketed (kept only if covered next): the simplified rules'
    # special case 9.7 (the queen with an opponent's coin goes to the opponent) is not borrowed
    ruling = rule(k, {"ruleset": "fr-house", "before": {"own_on_board": 7, "opponent_on_board": 8},
                      "stroke": {"pocketed": {"queen": True, "opponent": 1}}})
    assert ruling["after"]["queen"] == "awaiting_cover" and ruling["clauses"][0] == "fr-house:6.1"
    assert not any("say nothing" in n["en"] for n in ruling.get("notes", []))
    # where the house text has nothing that applies (an opponent's coin alone), it borrows, and says so
    ruling = rule(k, {"ruleset": "fr-house", "before": {"own_on_board": 7, "opponent_on_board": 8},
                      "stroke": {"pocketed": {"opponent": 1}}})
    assert ruling["clauses"][0] == "fr-simplified:9.1"
    assert any("simplified rules printed on the same page" in n["en"] for n in ruling["notes"])


def test_the_striker_with_the_last_coin_at_board_end_returns_what_it_counts():
    # carom-bi: both last coins with the striker while covering; the own coin goes back
    ruling = rule(installed(), {"ruleset": "carom-bi",
                                "before": {"own_on_board": 1, "opponent_on_board": 1, "queen": "awaiting_cover"},
                                "stroke": {"pocketed": {"own": 1, "opponent": 1, "striker": True}}})
    assert ruling["board"]["over"]
    assert ruling["after"]["own_on_board"] == 1 and ruling["returned"]["own"] == 1
    # the leaflet's own clauses disagree on the queen here (4.1 covers it, 8.4 sends the coin back);
    # the borrowed fr-simplified 9.9 settles it and the note says so, not that the leaflet is silent
    settled = [n for n in ruling["notes"] if n.get("borrowed")]
    assert [n["clause"] for n in settled] == ["fr-simplified:9.9"] and "carom-bi:4.1" in settled[0]["weighs"]
    assert not any(n["clause"] == "fr-simplified:9.9" and "says nothing" in n["en"] for n in ruling["notes"])


def test_fouls_say_whether_they_happen_during_a_stroke_or_between_strokes():
    import json

    from support.kbcopy import run_main

    done = run_main(["fouls", "--ruleset", "icf", "--json"], installed())
    fouls = {f["id"]: f["timing"] for f in json.loads(done.stdout)}
    assert fouls["improper_stroke"] == "during_stroke" and fouls["striker_on_frame"] == "between_strokes"
    # a between-strokes foul with a stroke that pocketed something is refused, naming the field
    with pytest.raises(BadInput) as refused:
        rule(installed(), {"ruleset": "icf", "stroke": {"pocketed": {"own": 1}, "foul": "striker_on_frame"}})
    assert refused.value.field == "stroke.foul"


def test_a_foul_whose_timing_contradicts_its_only_when_is_refused(tmp_path):
    path = "rulesets/icf.yaml"
    text = Path(installed().kb.root, path).read_text(encoding="utf-8")
    edited = text.replace("  - id: improper_stroke\n    timing: during_stroke\n",
                          "  - id: improper_stroke\n    timing: between_strokes\n", 1)
    assert edited != text
    with pytest.raises(KnowledgeError, match="foul improper_stroke: between_strokes, but its only_when"):
        knowledge_with_files(tmp_path, {path: edited}).compiled("icf")
