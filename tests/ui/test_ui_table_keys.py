"""Keys at the table, on the real window: a stroke is recorded by its own action only, never by an
Enter meant for a field, and the foul field takes only fouls it knows."""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from referee_app import i18n
from referee_app.core.play.store import MatchStore
from referee_app.ui.main_window import RULINGS
from support.gui import focused, key, type_text
from support.kbcopy import installed


def rulings(window):
    key(focused() or window, "Ctrl+1")
    assert window.stack.currentIndex() == RULINGS
    return window.rulings_area


def recorded(area) -> int:
    return len(area.match.strokes)


def test_enter_in_the_foul_field_completes_the_foul_and_records_nothing(window, qtbot):
    area = rulings(window)
    area.form.foul.setFocus()
    type_text(area.form.foul, "improper")
    popup = area.form.foul.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    key(popup, "Down")
    key(popup, "Return")  # takes the completion
    key(area.form.foul, "Return")
    key(area.form.foul, "Enter")
    assert recorded(area) == 0 and area.match_id is None
    assert area.form.foul_id() == "improper_stroke"
    assert area.form.foul.text().startswith("Improper stroke")


def test_enter_in_a_name_field_or_the_stroke_list_records_nothing(window, qtbot):
    area = rulings(window)
    area.form.own.setValue(2)
    for field, name in ((area.first_name, "Anna"), (area.second_name, "Bruno")):
        field.setFocus()
        type_text(field, name)
        key(field, "Return")
        key(field, "Enter")
    assert recorded(area) == 0
    key(area.form.own, "Ctrl+Return")
    assert recorded(area) == 1
    area.sheet.strokes.setFocus()
    area.sheet.strokes.setCurrentCell(0, 0)
    key(area.sheet.strokes, "Return")
    key(area.sheet.strokes, "Enter")
    assert recorded(area) == 1 and len(MatchStore(installed()).load(area.match_id).strokes) == 1


def test_enter_in_the_stroke_form_records_nothing(window, qtbot):
    area = rulings(window)
    area.form.own.setValue(1)
    for w in (area.form.own, area.form.opponent, area.form.queen, area.form.striker):
        w.setFocus()
        key(w, "Return")
        key(w, "Enter")
    assert recorded(area) == 0


def test_the_record_action_records_exactly_one_stroke_with_its_foul(window, qtbot):
    area = rulings(window)
    area.form.foul.setFocus()
    type_text(area.form.foul, "4.1.2")  # by paragraph
    key(area.form.foul, "Ctrl+Return")
    assert recorded(area) == 1
    assert area.match.strokes[0]["foul"] == "improper_stroke"
    assert MatchStore(installed()).load(area.match_id).strokes[0]["foul"] == "improper_stroke"
    assert area.form.foul.text() == ""  # the form is ready for the next stroke
    # the button is the same action
    area.form.own.setValue(1)
    qtbot.mouseClick(area.record_button, Qt.MouseButton.LeftButton)
    assert recorded(area) == 2


def test_an_unknown_foul_is_refused_visibly_and_records_nothing(window, qtbot):
    area = rulings(window)
    area.form.foul.setFocus()
    type_text(area.form.foul, "elbow on the board")
    assert area.form.foul_id() is None
    assert "not a foul of this ruleset" in area.ruling_view.details.text()
    assert area.ruling_view.headline.text() == "Cannot rule this stroke"
    assert not area.record_button.isEnabled()
    assert "not a foul" in area.form.foul.toolTip() and area.form.foul.styleSheet()
    key(area.form.foul, "Ctrl+Return")
    assert recorded(area) == 0
    assert focused() is area.form.foul


def test_a_foul_is_known_by_name_or_paragraph_in_every_language(window, qtbot):
    area = rulings(window)
    foul = area.form.foul
    for text in ("Tiro improprio (fallo)", "ICF 4.1.2", "icf-fr:3.11.e", "improper stroke"):
        foul.setText(text)
        assert area.form.foul_id() == "improper_stroke", text
    window.language_combo.setCurrentIndex(window.language_combo.findData("fr"))
    foul.clear()
    foul.setFocus()
    type_text(foul, "Break avant « Play »")
    assert area.form.foul_id() == "early_break"
    type_text(foul, "x")
    assert area.form.foul_id() is None and "n'est pas une faute" in html.unescape(area.ruling_view.details.text())


def test_the_record_shortcut_is_listed_in_f1(window, qtbot):
    from referee_app.ui.shortcuts_dialog import shortcut_rows

    rows = dict(shortcut_rows(window))
    assert "Ctrl+Return" in rows["Record the stroke"], rows


def test_undo_restores_the_sheet(window, qtbot):
    area = rulings(window)
    area.form.own.setValue(2)
    key(area.form.own, "Ctrl+Return")
    before = [area.sheet.strokes.item(0, j).text() for j in range(area.sheet.strokes.columnCount())]
    boards_before = area.sheet.boards.rowCount()
    area.form.own.setValue(1)
    key(area.form.own, "Ctrl+Return")
    assert area.sheet.strokes.rowCount() == 2
    key(area.form.own, "Ctrl+Z")
    assert area.sheet.strokes.rowCount() == 1
    assert [area.sheet.strokes.item(0, j).text() for j in range(area.sheet.strokes.columnCount())] == before
    assert area.sheet.boards.rowCount() == boards_before
    assert len(MatchStore(installed()).load(area.match_id).strokes) == 1


def test_the_contract_accessible_names_are_present(window):
    from PySide6.QtWidgets import QWidget

    names = {w.accessibleName() for w in window.findChildren(QWidget)}
    for name in ("Own coins pocketed", "Opponent coins pocketed", "Queen pocketed", "Striker pocketed", "Foul",
                 "Record stroke", "Ruling", "Score sheet"):
        assert name in names, name
    from referee_app.ui import MainWindow

    assert isinstance(window, MainWindow)
    QApplication.processEvents()
    assert i18n.current_language() == "en"
