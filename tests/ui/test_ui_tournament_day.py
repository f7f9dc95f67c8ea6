"""The window on tournament day (issue 32): where the keyboard lands, a new match that loses
nothing, the ruling just recorded kept in view, corrections marked, the match clock and the
window's place kept across a crash, the foul field's Return."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.ui.main_window import RULINGS
from support.gui import focused, key, type_text


def rulings(window):
    key(focused() or window, "Ctrl+1")
    assert window.stack.currentIndex() == RULINGS
    return window.rulings_area


def record(area, stroke):
    area.form.load(stroke)
    key(area.form.own, "Ctrl+Return")


def test_return_in_the_foul_list_takes_the_first_match(window, qtbot):
    area = rulings(window)
    type_text(area.form.foul, "improp")
    popup = area.form.foul.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    key(popup, "Return")   # no Down first
    assert not popup.isVisible()
    assert area.form.foul_id() == "improper_stroke"
    assert area.form.foul.text().startswith("Improper stroke")
    assert not area.match.strokes   # Return completes; it never records
