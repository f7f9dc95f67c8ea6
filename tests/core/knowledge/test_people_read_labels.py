"""Issue 32, item 8: what people read names a clause as they cite it ("ICF 3.12 c"), in their
language, never the knowledge base's ids; certificates say which reading failed, to the
precision measured; a foul a ruleset does not list is still named, never shown as its id."""
from __future__ import annotations

import re

import pytest

from referee_app.core.forms.document import form_html
from referee_app.core.forms.store import Form
from referee_app.core.inspection.certificate import certificate_html
from referee_app.core.inspection.store import InspectionRecord
from referee_app.core.inspection.verdict import inspect
from referee_app.core.clause_labels import label
from referee_app.core.knowledge.root import Knowledge
from referee_app.core.play.protest_draft import protest_fields

RAW_ID = re.compile(r"\b(?:icf-fr|it|aicf-2009|fr-house|fr-simplified|ffc-[a-z]+):[\w.\-]+")


@pytest.fixture(scope="module")
def knowledge():
    return Knowledge.load()


@pytest.mark.parametrize("cid,lang,expected", [
    ("icf-fr:3.12.c", "fr", "ICF 3.12 c"), ("icf-fr:3.12.c", "it", "ICF 3.12 c"),
    ("icf-fr:2.dim.C", "fr", "ICF 2 cote C"), ("icf-fr:2.fig.C", "it", "ICF 2 figura C"),
    ("icf-fr:5.j-c-de-penalite", "it", "ICF 5 «pedina di penalità»"),
    ("icf-fr:5.j-c-de-penalite", "en", "ICF 5 “penalty coin”"),
    ("icf-fr:3.12.a-exception", "it", "eccezione a ICF 3.12 a"),
    ("icf-fr:3.7.special-f-l", "en", "ICF 3.7 f–l"),
    ("it:53", "it", "regola 53"), ("ffc-tournament:1.14", "it", "FFC torneo 1.14"),
])
def test_a_clause_is_labelled_as_people_cite_it(knowledge, cid, lang, expected):
    assert label(cid, lang, knowledge.kb) == expected == knowledge.clause_label(cid, lang)


def test_no_clause_label_holds_an_id_or_a_french_word_in_italian(knowledge):
    for cid in knowledge.kb.clauses:
        shown = knowledge.clause_label(cid, "it")
        assert not RAW_ID.search(shown), (cid, shown)
    assert "pénalité" not in knowledge.clause_label("icf-fr:5.j-c-de-penalite", "it")


def test_a_foul_the_ruleset_does_not_list_is_named_not_shown_as_its_id(knowledge):
    assert "touching_coins" not in knowledge.compiled("fr-house").fouls
    name = knowledge.foul_name("fr-house", "touching_coins", "it")
    named = {knowledge.foul_name(rid, "touching_coins", "it") for rid in ("icf", "aicf-2009", "it")}
    assert name in named and "_" not in name


def test_the_house_rules_are_named_without_the_documents_number(knowledge):
    for lang in ("fr", "it", "en"):
        assert "000" not in knowledge.ruleset_name("fr-house", lang)


def _record(knowledge, readings):
    result = inspect({"item": "board", "measurements": readings}, knowledge.equipment)
    return InspectionRecord(id=7, inspected_at="2026-11-29T10:00:00+01:00", inspector="Élodie", item="board",
                            label="table 3", tournament="", readings=readings, result=result,
                            compliant=result["compliant"], spec="5f3a9c0d1e2b")


def test_the_certificate_cites_clauses_says_which_pocket_failed_and_keeps_the_precision(knowledge):
    record = _record(knowledge, {"pocket_diameter": {"values": [4.45, 4.46, 4.1, 4.45], "unit": "cm"}})
    for lang, pocket, cited in (("fr", "trou 3 (4,10\u00a0cm)", "ICF 2 cote C"),
                                ("it", "buca 3 (4,10\u00a0cm)", "ICF 2 quota C")):
        html = certificate_html(record, lang, knowledge.equipment, knowledge.kb)
        assert pocket in html and cited in html, lang
        assert "4,1\u00a0cm" not in html and "4,1 " not in html
        assert not RAW_ID.search(html), RAW_ID.search(html)
        assert "5f3a9c0d1e2b" not in html   # the specifications' fingerprint is for the records
        assert "surface_side" not in html and "frame_width" not in html   # what was not measured, in words
    assert "Largeur du plateau (A)" in certificate_html(record, "fr", knowledge.equipment, knowledge.kb)


def test_the_protest_form_and_its_pdf_cite_clauses_and_name_the_match(knowledge):
    meta = {"id": 2, "created_at": "2026-11-29T14:05:00+01:00", "ruleset": "icf", "first_name": "Élodie",
            "second_name": "Luca", "tournament": "Open de Lyon", "round": "2", "table_no": "3", "referee": "Ana"}
    strokes = [{"pocketed": {"own": 1}}, {"pocketed": {"own": 1, "queen": True}}, {"pocketed": {}}]
    fields = protest_fields(knowledge, meta, strokes, 3, "fr")
    assert fields["match"].startswith("Élodie – Luca, commencé à ") and fields["match"] != "2"   # names, the start
    assert fields["score"] == {"first": 0, "second": 0}   # the game's points as the stroke was played
    fields["clause"] = "icf-fr:3.12.c"
    form = Form(knowledge, id=4, kind="protest", status="draft", fields=fields, outcome=None,
                created_at="2026-11-29T14:30:00+01:00", updated_at="2026-11-29T14:30:00+01:00", decided_at=None)
    for lang in ("fr", "it"):
        html = form_html(knowledge, form, lang=lang)
        assert "ICF 3.12 c" in html and not RAW_ID.search(html), RAW_ID.search(html)
        assert "3.12 c)" not in html
