"""F1: every action of the window and its keys, generated from the actions themselves so that
a shortcut added anywhere shows up here; then the Alt+letter of each field and box of the area
on screen (the underlined letter of its label)."""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QDialog, QDialogButtonBox, QGroupBox, QHeaderView,
                               QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout)

from referee_app.i18n import gettext as _
from referee_app.ui.common.accessible import name as accessible_name


def shortcut_rows(window) -> list[tuple[str, str]]:
    rows, seen = [], set()
    for action in window.findChildren(QAction):
        keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts())
        text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")  # "Equipment && forms"
        if keys and text and (text, keys) not in seen:
            seen.add((text, keys))
            rows.append((text, keys))
    # shortcuts that are not actions (an area's answer keys): said by their What's This text
    for sc in window.findChildren(QShortcut):
        keys = sc.key().toString(QKeySequence.SequenceFormat.NativeText)
        text = sc.whatsThis() or _("A key of the {area} area").format(area=_area_of(window, sc))
        if keys and (text, keys) not in seen:
            seen.add((text, keys))
            rows.append((text, keys))
    return rows + mnemonic_rows(window)


def _area_of(window, shortcut) -> str:
    """The name of the area a shortcut works in, as the window's area actions say it."""
    parent = shortcut.parent()
    stack, actions = getattr(window, "stack", None), getattr(window, "area_actions", [])
    for i in range(stack.count() if stack is not None else 0):
        page = stack.widget(i)
        if i < len(actions) and (page is parent or page.isAncestorOf(parent)):
            return actions[i].text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    return window.windowTitle()


def mnemonic_rows(window) -> list[tuple[str, str]]:
    """(label, "Alt+X") for each label or button on screen whose text underlines a letter."""
    rows, seen = [], set()
    for w in window.findChildren(QAbstractButton) + window.findChildren(QLabel) + window.findChildren(QGroupBox):
        text = w.title() if isinstance(w, QGroupBox) else w.text()
        if not w.isVisible() or "&" not in text.replace("&&", ""):
            continue
        if isinstance(w, QLabel) and w.buddy() is None:
            continue
        keys = QKeySequence.mnemonic(text).toString(QKeySequence.SequenceFormat.NativeText)
        plain = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
        if keys and (plain, keys) not in seen:
            seen.add((plain, keys))
            rows.append((plain, keys))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("shortcuts_dialog")
        rows = shortcut_rows(window)
        self.table = table = QTableWidget(len(rows), 2, self)
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        for i, (text, keys) in enumerate(rows):
            table.setItem(i, 0, QTableWidgetItem(text))
            table.setItem(i, 1, QTableWidgetItem(keys))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.resize(520, 560)
        self.retranslate()

    def retranslate(self) -> None:
        # A modal dialog: the language cannot change while it is open, so no listener is needed.
        self.setWindowTitle(_("Keyboard shortcuts"))
        self.table.setHorizontalHeaderLabels([_("Action"), _("Keys")])
        accessible_name(self.table, _("Keyboard shortcuts"), _("Each action and the keys that do it"))
