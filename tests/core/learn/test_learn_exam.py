"""The referee exam: generated paper, scored, printed as PDF with its key and clauses, read back."""
from __future__ import annotations

import json
import shutil
import subprocess
import unicodedata

import pytest

from support.cli import run_cli
from referee_app.core.errors import BadInput
from referee_app.core.clause_labels import label as cite   # the exam labels clauses as people cite them
from support.kbcopy import installed
from referee_app.core.learn.exam import LETTERS, exam_html, make_exam
from referee_app.core.learn.questions import Scope


def pdf_text(path) -> str:
    assert shutil.which("pdftotext"), "pdftotext (poppler-utils) is needed to read the PDF back"
    return subprocess.run(["pdftotext", "-nopgbrk", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def squash(text: str) -> str:
    """White space made single, and the PDF's ligatures (ﬁ) back to letters."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def test_scoring_and_pass_mark():
    exam = make_exam(installed(), Scope("it"), 8, seed=3, pass_percent=75)
    assert exam.pass_mark == 6 and exam.minutes == 8
    right = {i: q.answer for i, q in enumerate(exam.questions)}
    assert exam.score(right) == {"right": 8, "total": 8, "pass_mark": 6, "passed": True, "wrong": []}
    two_wrong = right | {0: (right[0] + 1) % len(exam.questions[0].choices), 1: None}
    assert exam.score(two_wrong)["right"] == 6 and exam.score(two_wrong)["passed"]
    assert not exam.score({})["passed"]
    with pytest.raises(BadInput):
        make_exam(installed(), Scope("it"), 8, seed=3, pass_percent=0)


@pytest.mark.parametrize("lang,heading,key", [("fr", "Examen d'arbitre", "Corrigé"),
                                              ("it", "Esame di arbitro", "Soluzioni"),
                                              ("en", "Referee examination", "Answer key")])
def test_exam_pdf_round_trips_through_pdftotext(tmp_path, lang, heading, key):
    out = tmp_path / f"exam-{lang}.pdf"
    done = run_cli("quiz", "exam", "--ruleset", "icf", "--count", "6", "--seed", "11", "--lang", lang,
                   "--pdf", str(out), "--json", timeout=120)
    assert done.returncode == 0, done.stderr
    meta = json.loads(done.stdout)
    text = squash(pdf_text(out))
    assert heading in text and key in text
    exam = make_exam(installed(), Scope("icf"), 6, seed=11)
    assert meta["answers"] == [q.answer for q in exam.questions]
    kb = installed().kb
    key_part = text[text.index(key):]
    for n, q in enumerate(exam.questions, 1):
        assert f"{n}." in text
        clause = kb.clauses[q.deciding_clause]
        assert f"{n} {LETTERS[q.answer]} {cite(clause.id, lang, installed().kb)}" in key_part, (n, q.deciding_clause)
        # the deciding clause's text, in the paper's language, is printed under the key
        assert squash(clause.text_in(lang)[0])[:60] in key_part


def test_exam_html_escapes_and_names_the_ruleset():
    exam = make_exam(installed(), Scope("aicf-2009"), 3, seed=1)
    html = exam_html(installed(), exam, "it")
    assert "aicf-2009" in html and "Esame di arbitro" in html


def test_too_many_questions_for_a_narrow_selection():
    with pytest.raises(BadInput) as err:
        make_exam(installed(), Scope("icf", clause="icf-fr:3.12.c", endings=True), 2, seed=1)  # a queen too early ends nothing
    assert err.value.field == "count"


def test_the_key_draws_each_answer_s_board_only_when_asked():
    from referee_app.core.learn.diagram import piece_counts

    exam = make_exam(installed(), Scope("icf"), 3, seed=4)
    assert "<img" not in exam_html(installed(), exam, "fr")   # as it was: no pictures unless asked for
    diagrams: dict[str, str] = {}
    html = exam_html(installed(), exam, "fr", diagrams)
    assert sorted(diagrams) == ["board-1.svg", "board-2.svg", "board-3.svg"]
    paper, key = html.split("page-break-before", 1)   # the questions, then the key on its own pages
    assert "<img" not in paper                          # a board after the ruling would give the answer away
    assert all(f'src="{name}"' in key for name in diagrams)
    for name, q in zip(sorted(diagrams), exam.questions):
        after = piece_counts(diagrams[name])["after"]
        assert after["own"] == q.ruling["after"]["own_on_board"]
