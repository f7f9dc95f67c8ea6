"""Accessibility of the referee's window: every shortcut in F1, a focus ring that stands out,
text that contrasts in both themes, and a name for every control of the Rulings area."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractButton, QAbstractSpinBox, QApplication, QComboBox, QLineEdit,
                               QTableWidget)

from referee_app.ui import theme
from referee_app.ui.shortcuts_dialog import shortcut_rows
from support.gui import key


def test_f1_lists_every_shortcut_and_every_underlined_letter_on_screen(window):
    key(window, "Ctrl+1")
    listed = {(t, k) for t, k in shortcut_rows(window)}
    keys_listed = {k for _t, k in listed}
    for action in window.findChildren(QAction):
        for seq in action.shortcuts():
            text = seq.toString(QKeySequence.SequenceFormat.NativeText)
            if action.text():
                assert any(text in k for k in keys_listed), (action.objectName(), text)
    for shortcut in window.findChildren(QShortcut):
        assert shortcut.key().toString(QKeySequence.SequenceFormat.NativeText) in keys_listed
    form = window.rulings_area.form
    for label in ("Queen", "Striker", "Own coins", "Foul (name or paragraph)"):
        assert any(t == label and k.startswith("Alt+") for t, k in listed), label
    assert ("Record the stroke", "Ctrl+Return, Ctrl+Enter") in listed
    assert form.queen.isVisible()


@pytest.mark.parametrize("appearance", ["light", "dark"])
def test_text_and_focus_ring_contrast_in_both_themes(window, appearance):
    window.set_appearance(appearance)
    c = theme.colors()
    for name in ("text", "muted", "link", "accent"):
        assert theme.contrast(getattr(c, name), c.base) >= 4.5, name
    assert theme.contrast(c.text, c.mark_bg) >= 4.5 and theme.contrast(c.link, c.panel) >= 4.5
    assert theme.contrast(theme.focus_colour(), c.base) >= 3
    assert window.focus_ring.colour() == theme.focus_colour()   # the ring follows the palette


def test_the_focus_ring_goes_round_whatever_has_the_keyboard(window, qtbot):
    """A 2-pixel ring in the focus colour along the edge of what has the keyboard, moving with
    the focus: a field, the next control, a control of another area."""
    focus = window.focus_ring
    field = window.rulings_area.first_name
    assert QApplication.focusWidget() is field
    qtbot.waitUntil(lambda: focus.widget() is field and focus.ring().isVisible())
    assert focus.ring().geometry() == field.rect()
    image = field.grab().toImage()
    middle = field.width() // 2
    assert theme.focus_colour() in {image.pixelColor(middle, y).name() for y in (0, 1)}
    assert theme.focus_colour() in {image.pixelColor(middle, field.height() - 1 - y).name() for y in (0, 1)}
    field.resize(field.width() + 30, field.height())
    qtbot.waitUntil(lambda: focus.ring().geometry() == field.rect())
    key(window, "Tab")
    qtbot.waitUntil(lambda: focus.widget() is QApplication.focusWidget() is not field)
    assert focus.ring().isVisible()
    key(window, "Ctrl+2")
    qtbot.waitUntil(lambda: focus.widget() is not None and focus.widget() is QApplication.focusWidget())
    assert window.stack.currentWidget().isAncestorOf(focus.widget())


def test_every_control_of_the_rulings_area_has_an_accessible_name(window):
    area = window.rulings_area
    unnamed = []
    for w in area.findChildren(QAbstractButton) + area.findChildren(QAbstractSpinBox) + \
            area.findChildren(QLineEdit) + area.findChildren(QComboBox) + area.findChildren(QTableWidget):
        if isinstance(w.parent(), (QAbstractSpinBox, QComboBox, QLineEdit)) or w.objectName().startswith("qt_"):
            continue  # Qt's own parts (a spin box's editor, a clear button) speak with their widget
        if w.accessibleName() or (isinstance(w, QAbstractButton) and w.text()):
            continue
        unnamed.append(f"{w.objectName()}:{type(w).__name__}:{type(w.parent()).__name__}")
    assert unnamed == [], unnamed
    QApplication.processEvents()
