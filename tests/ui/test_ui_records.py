"""The window and the records database (issue 21): every area opens on a database holding the worst
values the tests can store; an unusable file at start is named and can be set aside; a save that
fails shows a dialog, keeps the stroke as ticked, and retries."""
from __future__ import annotations

import json
import sqlite3

import pytest
import sqlalchemy as sa
from PySide6.QtWidgets import QApplication, QMessageBox

from referee_app.core.storage import db
from core.storage.test_records_database import worst_forms
from support.gui import key, make_window
from support.kbcopy import installed

WORST_TEXT = "\u202eevil <b>bold</b> " + "x" * 3000


@pytest.fixture
def no_dialogs(monkeypatch):
    """Modal boxes would wait for a click forever offscreen: they are counted instead."""
    shown = []
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(lambda *a, _n=name, **k: shown.append((_n, a[1:3]))
                                                            or QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.No))
    return shown


def worst_matches(path):
    from referee_app.core.play.store import MatchStore

    with MatchStore(installed(), db.connect(path)) as store:
        good = store.create("icf", first_name="A. Rossi", second_name="B. Dubois")
        store.add_stroke(good, {"pocketed": {"own": 1}})
        gone = store.create("icf")
        store.add_stroke(gone, {"pocketed": {}})
        garbage = store.create("it")
        store.add_stroke(garbage, {"pocketed": {}})
        impossible = store.create("icf")
        store.add_stroke(impossible, {"pocketed": {}})
    # what a damaged page or a hand edit leaves: written past the triggers that keep strokes
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP TRIGGER strokes_never_rewritten")
        # names past the limit the store now keeps (200 characters): an older version wrote them
        conn.execute("UPDATE matches SET first_name = ? WHERE id = ?", (WORST_TEXT, gone))
        conn.execute("UPDATE matches SET second_name = ? WHERE id = ?", (WORST_TEXT, garbage))
        conn.execute("UPDATE matches SET ruleset = 'gone', doubles = 7 WHERE id = ?", (gone,))
        conn.execute("UPDATE strokes SET stroke = '{broken', ruling = 'x' WHERE match_id = ?", (garbage,))
        conn.execute("UPDATE strokes SET stroke = ? WHERE match_id = ?",
                     (json.dumps({"pocketed": {"own": 99}, "foul": [1]}), impossible))
        conn.execute("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) VALUES (?, 2, '[1, 2]', '{}', "
                     "'9999-99-99')", (impossible,))
    conn.close()
    return good, gone, garbage, impossible


def worst_inspections(path):
    from referee_app.core.inspection.store import InspectionStore

    with InspectionStore(db.connect(path)) as store:
        good = store.save({"item": "chair", "measurements": {"seat_height": {"value": 42, "unit": "cm"}}}, installed().equipment,
                          inspector="I. Lemaire", label="chair 1").id
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO inspections (inspected_at, inspector, item, label, readings, result, compliant, "
                     "carried_over) VALUES ('9999-12-31T00:00:00', ?, 'nonsense', ?, '{bad', '[1]', 1, 'x')",
                     (WORST_TEXT, WORST_TEXT))
        conn.execute("INSERT INTO inspections (inspected_at, inspector, item, label, readings, result, compliant) "
                     "VALUES ('yesterday', 'I', 'striker', 'striker 2', '[]', ?, 0)",
                     (json.dumps({"checks": [{"ok": False}, "x", {"id": "diameter", "ok": False}]}),))
    conn.close()
    return good


def select_every_row(table, count: int, what: str, then=None) -> None:
    """Selects each of the table's `count` rows in turn (and does `then`), letting the page show it."""
    assert table.rowCount() == count, f"every {what} lists, the unreadable ones too"
    for row in range(count):
        table.selectRow(row)
        if then is not None:
            then()
        QApplication.processEvents()


def test_every_area_opens_on_the_worst_stored_values(records_file, gui_env, qtbot, no_dialogs):
    worst_forms(records_file)
    matches = worst_matches(records_file)
    worst_inspections(records_file)
    window = make_window(qtbot)
    for keys in ("Ctrl+1", "Ctrl+2", "Ctrl+3"):
        key(window, keys)
        QApplication.processEvents()
    tabs = window.equipment_tabs
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        QApplication.processEvents()
    forms_page, inspection_page = None, None
    for page in window.equipment.pages:
        if page.objectName() == "forms_page":
            forms_page = page
        else:
            inspection_page = page
    select_every_row(forms_page.table, 4, "form")
    inspection_page.refresh_history()
    select_every_row(inspection_page.history, 3, "inspection", then=inspection_page.reopen)
    key(window, "Ctrl+1")
    area = window.rulings_area
    for match_id in matches:
        area.open_match(match_id)
        QApplication.processEvents()
    assert area.match_id == matches[0], "the matches that cannot be replayed are refused, the sheet stays"
    assert sum(1 for kind, _ in no_dialogs if kind == "warning") == 3


def test_a_failed_save_shows_a_dialog_keeps_the_stroke_and_retries(records_file, gui_env, qtbot, no_dialogs,
                                                                   monkeypatch):
    from referee_app.ui.common import records

    window = make_window(qtbot)
    area = window.rulings_area
    read_only = [True]     # every write now fails in the driver, as on a damaged disk

    def refuse(_conn, _cursor, statement, *_args):
        if read_only[0] and statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
            raise sqlite3.OperationalError("attempt to write a readonly database")

    sa.event.listen(area.store.database.engine, "before_cursor_execute", refuse)
    asked = []

    def give_up(parent, what, problem, detail=""):
        asked.append(problem)
        assert "readonly" in detail and "readonly" not in problem   # the driver's words only in the details
        return False

    monkeypatch.setattr(records, "ask_retry", give_up)
    area.form.own.setValue(2)
    area.record()
    assert asked and "nothing of this change was saved" in asked[0]
    assert area.form.own.value() == 2, "what was ticked is kept"
    assert area.match.strokes == []

    def retry_once_fixed(parent, what, problem, detail=""):
        asked.append(problem)
        read_only[0] = False
        return True

    monkeypatch.setattr(records, "ask_retry", retry_once_fixed)
    area.record()
    assert len(asked) == 2
    assert len(area.match.strokes) == 1
    stored = sqlite3.connect(records_file).execute("SELECT COUNT(*) FROM strokes").fetchone()[0]
    assert stored == 1


def test_an_unusable_records_file_at_start_is_named_and_set_aside_untouched(records_file, monkeypatch, qapp,
                                                                               no_dialogs):
    from referee_app.ui.common import records

    records_file.write_bytes(b"garbage, but someone's garbage" * 100)
    before = records_file.read_bytes()
    asked = []
    monkeypatch.setattr(records, "ask_new_store", lambda exc, parent=None: asked.append(exc.reason) or False)
    assert records.ensure_records() is False
    assert asked == ["damaged"] and records_file.read_bytes() == before
    monkeypatch.setattr(records, "ask_new_store", lambda exc, parent=None: True)
    assert records.ensure_records() is True
    moved = [p for p in records_file.parent.iterdir() if p.name.startswith("records.sqlite3.damaged-")]
    assert len(moved) == 1 and moved[0].read_bytes() == before
    db.connect(records_file).close()


def test_a_refused_form_field_is_marked_beside_the_field_with_the_reason(records_file, gui_env, qtbot, no_dialogs):
    from PySide6.QtCore import QDate, QDateTime, QTime

    from referee_app.ui.forms.page import FormsPage

    page = FormsPage(installed())
    qtbot.addWidget(page)
    page.new_protest.click()
    editor = page.editors["protest"]
    board = editor.fields["board"]
    board.setText("99999999999")
    board.editingFinished.emit()
    page._field_edited("board")
    assert "digits" in board.toolTip() and board.property("refused")
    assert "digits" in page.message.text()
    board.setText("3")
    page._field_edited("board")
    assert not board.property("refused") and board.toolTip() == ""
    ended = editor.fields["board_ended_at"].edit
    ended.setDateTime(QDateTime(QDate(9999, 12, 31), QTime(0, 0)))
    assert ended.dateTime().date().year() <= 2199, "a year 9999 cannot even be typed"
