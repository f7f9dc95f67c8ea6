"""Where the keyboard lands when a shortcut brings an area forward.

Qt selects the whole text of a line edit entered with a shortcut's focus reason, so the next key
typed replaces it: at the table, a "2" meant for the stroke once became a player's saved name.
A text field is therefore entered with its cursor at the end and nothing selected."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QWidget


def enter(widget: QWidget) -> None:
    """Give `widget` the focus as a shortcut does, except that a text field's text stays unselected."""
    if isinstance(widget, QLineEdit):
        widget.setFocus(Qt.FocusReason.OtherFocusReason)
        widget.deselect()
        widget.end(False)
    else:
        widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
