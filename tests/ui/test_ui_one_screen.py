"""One screen at the table: on a 1366×768 or 1280×720 laptop, the stroke form, the ruling with its
why, and the score sheet are all on screen together, nothing scrolled (but a long note under the
why, which begins in view), in light and dark, in normal and large type; and large type enlarges
the ruling."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QScrollArea

from support.gui import key, make_window


def on_screen(window, widget) -> bool:
    """Wholly inside the window and not cut by a scroll area."""
    if not widget.isVisible() or widget.visibleRegion().isEmpty():
        return False
    top_left = widget.mapTo(window, QPoint(0, 0))
    rect = QRect(top_left, widget.size())
    return window.rect().contains(rect) and widget.visibleRegion().boundingRect().size() == widget.size()


def play_some_strokes(area, n=6):
    area.first_name.setText("Anna")
    area.second_name.setText("Bruno")
    for i in range(n):
        area.form.load({"pocketed": {"own": 1 if i % 2 == 0 else 0}})
        area.record()
    # a disputed stroke being ticked, with a note and several clauses
    area.form.load({"pocketed": {"own": 1, "queen": True, "striker": True}})


@pytest.mark.parametrize("size", [(1366, 768), (1280, 720)])
@pytest.mark.parametrize("appearance,large,lang", [("light", False, "en"), ("dark", False, "fr"), ("light", True, "en"),
                                                   ("dark", True, "it")])
def test_stroke_ruling_and_sheet_are_visible_together(qtbot, gui_env, size, appearance, large, lang):
    window = make_window(qtbot, size=size)
    window.language_combo.setCurrentIndex(window.language_combo.findData(lang))
    window.set_appearance(appearance)
    window.set_large_type(large)
    window.resize(*size)
    key(window, "Ctrl+1")
    area = window.rulings_area
    play_some_strokes(area)
    qtbot.wait(100)  # fonts and layouts settle over a few turns of the event loop
    assert (window.width(), window.height()) == size, "the window grew past the screen"
    parts = {"stroke form": area.form, "foul": area.form.foul, "record": area.record_button,
             "ruling": area.ruling_view.headline, "why": area.ruling_view.details,
             "score sheet": area.sheet.strokes, "boards": area.sheet.boards}
    hidden = [name for name, w in parts.items() if not on_screen(window, w)]
    assert hidden == []
    notes = area.ruling_view.notes
    for scroll in window.findChildren(QScrollArea):
        if scroll is area.ruling_view.scroll:
            # only the notes under the why may scroll (a long reading, in large type); they begin in view
            assert scroll.verticalScrollBar().maximum() <= notes.height(), "the ruling itself scrolls"
            assert notes.isHidden() or not notes.visibleRegion().isEmpty(), "the notes begin out of view"
        elif scroll.isAncestorOf(area) or scroll.isAncestorOf(area.ruling_view.headline):
            assert scroll.verticalScrollBar().maximum() == 0, scroll.objectName()
    assert area.sheet.strokes.rowCount() == 6


def test_large_type_enlarges_the_ruling(qtbot, gui_env):
    window = make_window(qtbot, size=(1366, 768))
    view = window.rulings_area.ruling_view
    before = (view.headline.font().pointSizeF(), view.details.font().pointSizeF())
    key(window, "Ctrl+Shift+T")
    qtbot.waitUntil(lambda: view.headline.font().pointSizeF() > before[0] * 1.2)
    assert view.details.font().pointSizeF() > before[1] * 1.2
    key(window, "Ctrl+Shift+T")
    qtbot.waitUntil(lambda: abs(view.headline.font().pointSizeF() - before[0]) < 0.01)

