"""The forms page, driven as a referee drives it: typing, picking a clause, watching the countdown."""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QFileDialog  # noqa: E402

from referee_app import i18n  # noqa: E402
from referee_app.core.storage import db  # noqa: E402
from referee_app.core.forms.store import FormsStore  # noqa: E402
from referee_app.ui.forms.page import FormsPage  # noqa: E402
from support.gui import type_text
from support.kbcopy import installed

CET = timezone(timedelta(hours=2))


class Clock:
    def __init__(self):
        self.moment = datetime(2026, 5, 14, 15, 42, tzinfo=CET)

    def __call__(self):
        return self.moment

    def advance(self, **delta):
        self.moment += timedelta(**delta)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def db_path(user_dirs):
    return user_dirs / "records.sqlite3"


@pytest.fixture
def make_page(qtbot, db_path, clock):
    def make():
        page = FormsPage(installed(), store=FormsStore(installed(), db.connect(db_path), clock=clock), clock=clock)
        qtbot.addWidget(page)
        page.resize(1280, 820)
        page.show()
        return page

    yield make
    i18n.set_language("en")


def pdf_text(path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed")
    out = subprocess.run(["pdftotext", "-nopgbrk", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", out))


def choose(combo, value) -> None:
    index = combo.findData(value)
    assert index >= 0, value
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def test_a_protest_typed_in_the_window(make_page, clock, qtbot, tmp_path, monkeypatch):
    page = make_page()
    qtbot.mouseClick(page.new_protest, Qt.MouseButton.LeftButton)
    form_id = page.current.id
    ed = page.editors["protest"]
    f = ed.fields
    type_text(f["tournament"], "Open de Cannes")
    type_text(f["round"], "3")
    type_text(f["table"], "7")
    type_text(f["players"].edits["first"], "A. Rossi")
    type_text(f["players"].edits["second"], "Bérénice Dubois")
    choose(f["protester"], "second")
    choose(f["lang"], "fr")
    type_text(f["referee"], "Cécile Martin")
    qtbot.mouseClick(f["announced_at"].now_button, Qt.MouseButton.LeftButton)      # 15:42
    type_text(f["decision"], "Reine replacée au centre")
    type_text(f["facts"], "Le joueur a dit <b>non</b> à l'arbitre")
    # autosaved key by key: the database has it all already
    saved = page.store.get(form_id).fields
    assert saved["players"] == {"first": "A. Rossi", "second": "Bérénice Dubois"}
    assert saved["facts"] == "Le joueur a dit <b>non</b> à l'arbitre"
    assert datetime.fromisoformat(saved["announced_at"]) == datetime(2026, 5, 14, 15, 42, tzinfo=CET)
    assert saved["round"] == 3 and saved["protester"] == "second"

    # the clause picker: search the rulebook, cite a paragraph
    clause = f["clause"]
    qtbot.mouseClick(clause.browse, Qt.MouseButton.LeftButton)
    assert clause.picker.isVisible()
    type_text(clause.picker.query, "reine confirmer arbitre ressortir")
    ids = [clause.picker.results.item(i).data(Qt.ItemDataRole.UserRole) for i in range(clause.picker.results.count())]
    assert "icf-fr:3.12.d" in ids
    clause.picker.results.setCurrentRow(ids.index("icf-fr:3.12.d"))
    qtbot.mouseClick(clause.picker.cite, Qt.MouseButton.LeftButton)
    assert not clause.picker.isVisible()
    assert page.store.get(form_id).fields["clause"] == "icf-fr:3.12.d"
    assert "ICF 3.12 d" in clause.status.text()  # cited as people cite it

    # a paragraph typed as people cite it is the clause, not the first clause of its section
    for typed, cid in (("3.12 e", "icf-fr:3.12.e"), ("ICF 3.12.e", "icf-fr:3.12.e"), ("regola 53", "it:53")):
        clause.edit.setText(typed)
        assert clause.value() == cid, typed
        clause.picker.query.setText(typed)
        first = clause.picker.results.item(0).data(Qt.ItemDataRole.UserRole)
        assert first == cid, typed
    clause.set_value("icf-fr:3.12.d")

    # the countdown: nothing until the board ends, then 15 minutes, then late
    assert "board ends" in page.countdown.text()
    clock.advance(minutes=7)                                                       # 15:49
    qtbot.mouseClick(f["board_ended_at"].now_button, Qt.MouseButton.LeftButton)
    assert "15:00" in page.countdown.text()
    clock.advance(minutes=1, seconds=30)
    qtbot.waitUntil(lambda: "13:30" in page.countdown.text(), timeout=3000)       # the timer ticks by itself
    clock.advance(minutes=14)                                                     # 16:04:30
    qtbot.waitUntil(lambda: "LATE" in page.countdown.text(), timeout=3000)

    # file it (late, but accepted), reopen it in a new window
    qtbot.mouseClick(page.file_button, Qt.MouseButton.LeftButton)
    assert not page.message.isVisible(), page.message.text()
    assert page.current.status == "filed" and page.current.timing()["late"] is True
    assert "late" in page.countdown.text().lower()
    page.close()

    again = make_page()
    again.select_form(form_id)
    g = again.editors["protest"].fields
    assert again.current.id == form_id
    assert g["referee"].text() == "Cécile Martin"
    assert g["players"].edits["second"].text() == "Bérénice Dubois"
    assert g["facts"].toPlainText() == "Le joueur a dit <b>non</b> à l'arbitre"
    assert g["clause"].value() == "icf-fr:3.12.d"
    assert g["board_ended_at"].known.isChecked()
    assert again.upheld_button.isEnabled() and not again.file_button.isEnabled()

    # decide, then export the PDF through the button
    type_text(g["director"], "Zoé Directrice")
    qtbot.mouseClick(again.upheld_button, Qt.MouseButton.LeftButton)
    assert again.current.status == "decided" and again.current.outcome == "upheld"
    assert not g["facts"].isEnabled()                      # decided: read only
    out = tmp_path / "protest.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "PDF (*.pdf)"))
    qtbot.mouseClick(again.export_button, Qt.MouseButton.LeftButton)
    text = pdf_text(out)
    for expected in ("Contestation", "Cécile Martin", "Bérénice Dubois", "Le joueur a dit <b>non</b> à l'arbitre",
                     "Reine replacée au centre", "ICF 3.12 d", "Si la reine a été logé correctement",
                     "EN RETARD", "tout le match doit être rejoué", "Zoé Directrice", "Signatures"):
        assert expected in text, expected

    history = again.store.history(form_id)
    assert {"tournament", "facts", "clause", "board_ended_at", "filed_at", "outcome"} <= {h["field"] for h in history}


def test_a_disqualification_for_repeated_disturbance(make_page, qtbot, tmp_path, monkeypatch, kb):
    page = make_page()
    # the incidents, recorded as they happen
    page.left_tabs.setCurrentWidget(page.incidents)
    inc = page.incidents
    for name, text in (("tournament", "Coupe de Fréjus"), ("round", "2"), ("table", "5"), ("player", "Jérôme Petit")):
        type_text(inc.inputs[name], text)
    for _ in range(4):
        qtbot.mouseClick(inc.record_button, Qt.MouseButton.LeftButton)
    assert inc.list.count() == 4 and "recorded" in inc.message.text()

    page.left_tabs.setCurrentIndex(0)
    qtbot.mouseClick(page.new_disqualification, Qt.MouseButton.LeftButton)
    f = page.editors["disqualification"].fields
    type_text(f["tournament"], "Coupe de Fréjus")
    type_text(f["round"], "2")
    type_text(f["table"], "5")
    type_text(f["player"], "Jérôme Petit")
    type_text(f["referee"], "Cécile Martin")
    qtbot.mouseClick(f["at"].now_button, Qt.MouseButton.LeftButton)
    choose(f["ground"], "icf-fr:4.2.h")
    type_text(f["facts"], "A tapé sur la table <b>quatre</b> fois")
    assert "4 recorded incidents" in page.editors["disqualification"].recorded.text()
    qtbot.mouseClick(page.file_button, Qt.MouseButton.LeftButton)
    assert page.current.status == "filed", page.message.text()
    assert page.current.fields["times"] == 4

    out = tmp_path / "dq.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    qtbot.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    text = pdf_text(out)
    ground = kb.get("icf-fr:4.2.h").text_in("en")[0][:30]       # the form is in the interface language
    for expected in ("Disqualification", "Jérôme Petit", "Coupe de Fréjus", "ICF 4.2 h", ground, "4 (4 recorded)",
                     "A tapé sur la table <b>quatre</b> fois", "Signatures"):
        assert expected in text, expected


def test_bad_input_shows_a_visible_message(make_page, qtbot):
    page = make_page()
    qtbot.mouseClick(page.new_protest, Qt.MouseButton.LeftButton)
    type_text(page.editors["protest"].fields["tournament"], "Open")
    qtbot.mouseClick(page.file_button, Qt.MouseButton.LeftButton)
    assert page.message.isVisible() and "Round" in page.message.text()
    assert page.current.status == "draft"
    i18n.set_language("fr")                                 # worded again in the new language
    assert page.message.isVisible() and "« Tour »" in page.message.text()
    assert "required" not in page.message.text(), "the core's English never reaches a French page"
    i18n.set_language("en")
    clause = page.editors["protest"].fields["clause"]
    type_text(clause.edit, "icf-fr:9.99")
    assert "not a clause" in clause.status.text()


def test_an_announced_protest_cannot_be_deleted(make_page, qtbot):
    page = make_page()
    qtbot.mouseClick(page.new_protest, Qt.MouseButton.LeftButton)
    form_id = page.current.id
    qtbot.mouseClick(page.editors["protest"].fields["announced_at"].now_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.delete_button, Qt.MouseButton.LeftButton)
    assert page.message.isVisible() and "withdrawn" in page.message.text()
    assert page.store.get(form_id)
    # a draft made by mistake goes
    qtbot.mouseClick(page.new_disqualification, Qt.MouseButton.LeftButton)
    mistake = page.current.id
    qtbot.mouseClick(page.delete_button, Qt.MouseButton.LeftButton)
    assert [f.id for f in page.store.list()] == [form_id] and mistake != form_id


def test_list_filters_and_blank_form(make_page, qtbot, tmp_path, monkeypatch):
    page = make_page()
    for tournament in ("Alpha", "Beta"):
        form = page.store.create("protest", {"tournament": tournament})
    page.store.create("disqualification", {"tournament": "Alpha"})
    page.refresh_list()
    assert page.table.rowCount() == 3
    choose(page.tournament_filter, "Alpha")
    assert page.table.rowCount() == 2
    choose(page.status_filter, "filed")
    assert page.table.rowCount() == 0
    choose(page.status_filter, None)
    choose(page.tournament_filter, None)
    assert page.table.rowCount() == 3
    page.select_form(form.id)
    assert page.current.id == form.id

    out = tmp_path / "blank.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    page.blank_actions["disqualification"].trigger()
    assert "Grounds (International rules (ICF)): tick one" in pdf_text(out)


def test_retranslate_follows_the_interface_language(make_page, qtbot):
    page = make_page()
    qtbot.mouseClick(page.new_protest, Qt.MouseButton.LeftButton)
    labels = page.editors["protest"].labels
    assert labels["tournament"].text() == "Tournament"
    i18n.set_language("fr")
    assert labels["tournament"].text() == "Tournoi"
    assert labels["clause"].text() == "Paragraphe invoqué"
    assert page.title.text().startswith("Contestation")
    i18n.set_language("it")
    assert labels["tournament"].text() == "Torneo"
    assert page.new_protest.text()                      # every string is set again
