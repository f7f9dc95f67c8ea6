"""Interpretations as data: every exception says whether the text states it or the project reads
it, and a ruling resting on a reading says so (issue 29)."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee_app.core.errors import KnowledgeError
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
    assert "ICF 3.12 c" in readings[0]["fr"] and "le texte ne dit pas" in readings[0]["fr"]


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
