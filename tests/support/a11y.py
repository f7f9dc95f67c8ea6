"""What a screen reader hears of a window's controls (Qt's accessibility interfaces), for the
tests that every keyboard control has a name in each language."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSlider, QAbstractSpinBox, QComboBox,
                               QLineEdit, QPlainTextEdit, QTabBar, QTextEdit, QWidget)

CONTROLS = (QAbstractButton, QAbstractSpinBox, QLineEdit, QComboBox, QAbstractItemView, QTextEdit, QPlainTextEdit,
            QAbstractSlider)


def spoken_name(widget: QWidget) -> str:
    """The name a screen reader announces, never the control's value: its accessible name (what
    Windows and macOS read), else Qt's name for it (a button's text), else the label naming it
    (its buddy: the "labelled by" relation Linux reads, even for a combo box, whose own name is
    its value there)."""
    own = widget.accessibleName().strip()
    if own:
        return own
    iface = QAccessible.queryAccessibleInterface(widget)
    if iface is None:
        return ""
    name = (iface.text(QAccessible.Text.Name) or "").replace("&", "").strip()
    value = (iface.text(QAccessible.Text.Value) or "").strip()
    if isinstance(widget, (QComboBox, QAbstractSpinBox)) or (isinstance(widget, QLineEdit) and name == widget.text()):
        name = ""   # read as its value
    if name and name != value:
        return name
    for other, _relation in iface.relations(QAccessible.RelationFlag.Label):
        text = (other.text(QAccessible.Text.Name) or "").replace("&", "").strip()
        if text:
            return text
    return ""


def keyboard_controls(root: QWidget):
    """The controls of `root` a keyboard reaches (Tab or a click), Qt's own inner parts left out
    (a spin box's editor, a combo box's line edit, a scroll bar), hidden ones too (a state shows them)."""
    for w in root.findChildren(QWidget):
        if not isinstance(w, CONTROLS) or isinstance(w, QTabBar):
            continue
        if w.objectName().startswith("qt_") or _inside(w, (QAbstractSpinBox, QComboBox)):
            continue   # a combo box's list, a spin box's editor: they speak with their control
        if w.focusPolicy() == Qt.FocusPolicy.NoFocus:
            continue
        if isinstance(w, QAbstractSlider) and isinstance(w.parent(), QWidget) and \
                w.parent().objectName() in ("qt_scrollarea_hcontainer", "qt_scrollarea_vcontainer"):
            continue
        yield w


def _inside(w: QWidget, kinds) -> bool:
    p = w.parent()
    while p is not None:
        if isinstance(p, kinds):
            return True
        p = p.parent()
    return False


def unnamed(root: QWidget) -> list[str]:
    return [f"{w.objectName() or '?'}:{type(w).__name__} in {_path(w)}" for w in keyboard_controls(root)
            if not spoken_name(w)]


def _path(w: QWidget) -> str:
    names = []
    p = w.parentWidget()
    while p is not None and len(names) < 4:
        if p.objectName():
            names.append(p.objectName())
        p = p.parentWidget()
    return "/".join(names)
