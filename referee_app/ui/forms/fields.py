"""One editor per kind of field of a form: a line, a paragraph, a closed list, a pair of values
(one per side of the match), a time that may not be known yet.

Each has `edited` (emitted only for the user's own changes, never for set_value), `value()` in
the shape core/forms.py stores, and `set_value()`.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable

from PySide6.QtCore import QDate, QDateTime, QTime, Qt, Signal
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDateTimeEdit, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit,
                               QPushButton, QWidget)

from referee_app.core.forms.fields import SIDES, parse_time
from referee_app.core.validation import FIRST_YEAR, LAST_YEAR, local  # local: any TZ, even a day off UTC
from referee_app.i18n import gettext as _
from referee_app.ui.common.accessible import name as accessible_name
from referee_app.ui.common.accessible import plain


class TextField(QLineEdit):
    edited = Signal()

    def __init__(self, numeric: bool = False):
        super().__init__()
        self.numeric = numeric
        if numeric:
            self.setValidator(QIntValidator(0, 9999, self))
        self.textEdited.connect(lambda _t: self.edited.emit())

    def value(self):
        text = self.text().strip()
        return (int(text) if text.isdigit() else text) if self.numeric else text

    def set_value(self, value) -> None:
        self.setText("" if value is None else str(value))


class ParagraphField(QPlainTextEdit):
    edited = Signal()

    def __init__(self):
        super().__init__()
        self.setTabChangesFocus(True)
        self.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self._loading = False
        self.textChanged.connect(lambda: None if self._loading else self.edited.emit())

    def value(self):
        return self.toPlainText()

    def set_value(self, value) -> None:
        self._loading = True
        self.setPlainText("" if value is None else str(value))
        self._loading = False


class ChoiceField(QComboBox):
    """A closed list; the first item is "none" when the field is optional."""

    edited = Signal()

    def __init__(self, optional: bool = True):
        super().__init__()
        self.optional = optional
        # the grounds are whole sentences: the list pops up wide, the closed box stays narrow
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)
        self.activated.connect(lambda _i: self.edited.emit())

    def set_choices(self, choices: list[tuple[str, str]]) -> None:
        """`choices`: (value, text); keeps the current value when it is still a choice."""
        current = self.value()
        self.blockSignals(True)
        self.clear()
        if self.optional:
            self.addItem("—", None)
        for value, text in choices:
            self.addItem(text, value)
            self.setItemData(self.count() - 1, text, Qt.ItemDataRole.ToolTipRole)
        self.set_value(current)
        self.blockSignals(False)

    def value(self):
        return self.currentData()

    def set_value(self, value) -> None:
        self.setCurrentIndex(max(self.findData(value), 0))   # unknown: "none", or the first choice


class PairField(QWidget):
    """Two values side by side, one per side of the match (players, score)."""

    edited = Signal()

    def __init__(self, numeric: bool = False):
        super().__init__()
        self.edits = {side: TextField(numeric) for side in SIDES}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for i, side in enumerate(SIDES):
            if i:
                layout.addWidget(QLabel("–"))
            layout.addWidget(self.edits[side], 1)
            self.edits[side].edited.connect(self.edited)

    def value(self):
        out = {side: e.value() for side, e in self.edits.items() if e.value() not in ("", None)}
        return out or None

    def set_value(self, value) -> None:
        for side, edit in self.edits.items():
            edit.set_value((value or {}).get(side))

    def name_parts(self, field: str) -> None:
        """Each side's box named by the field and the side: "Score at the incident: player or team 1"."""
        for edit in self.edits.values():
            accessible_name(edit, _("{field}: {side}").format(field=plain(field), side=edit.placeholderText()))


class TimeField(QWidget):
    """A time that may not be known yet: unticked = not yet; "Now" ticks it at the current time."""

    edited = Signal()

    def __init__(self, clock: Callable[[], datetime]):
        super().__init__()
        self.clock = clock
        self._loading = False
        self.known = QCheckBox()
        self.edit = QDateTimeEdit()
        self.edit.setDisplayFormat("yyyy-MM-dd HH:mm:ss")
        # the years a form's time may have (core/validation.py): a slip to 9999 cannot be typed
        self.edit.setDateTimeRange(QDateTime(QDate(FIRST_YEAR, 1, 1), QTime(0, 0)),
                                   QDateTime(QDate(LAST_YEAR, 12, 31), QTime(23, 59, 59)))
        self.edit.setCalendarPopup(True)
        self.now_button = QPushButton()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.known)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.now_button)
        self.known.toggled.connect(self._toggled)
        self.edit.dateTimeChanged.connect(lambda _d: self.edited.emit() if self.known.isChecked() else None)
        self.now_button.clicked.connect(self.set_now)
        self.set_value(None)

    def _show(self, moment: datetime) -> None:
        """Shows `moment` in this computer's zone, without it counting as an edit (the wall clock's
        time from the system, so that a zone a day off UTC, TZ=UTC+24, shows and reads back alike)."""
        self.edit.blockSignals(True)
        self.edit.setDateTime(QDateTime(datetime.fromtimestamp(moment.timestamp())))
        self.edit.blockSignals(False)

    def _toggled(self, on: bool) -> None:
        self.edit.setEnabled(on)
        if not self._loading:
            if on:
                self._show(self.clock())
            self.edited.emit()

    def set_now(self) -> None:
        self._loading = True
        self.known.setChecked(True)
        self._loading = False
        self._show(self.clock())
        self.edited.emit()

    def value(self):
        if not self.known.isChecked():
            return None
        return local(self.edit.dateTime().toPython()).isoformat(timespec="seconds")

    def set_value(self, value) -> None:
        self._loading = True
        self.known.setChecked(bool(value))
        self.edit.setEnabled(bool(value))
        self._loading = False
        self._show(parse_time(value, "time") if value else self.clock())

    def name_parts(self, field: str) -> None:
        """The tick box and the time named after the field: a screen reader says which time."""
        field = plain(field)
        accessible_name(self.known, _("{field}: known").format(field=field), _("Tick when the time is known"))
        accessible_name(self.edit, field, _("Date and time"))
        accessible_name(self.now_button, _("{field}: now").format(field=field), _("Set to the current time"))

    def retranslate(self) -> None:
        self.known.setToolTip(_("Tick when the time is known"))
        self.now_button.setText(_("Now"))
        self.now_button.setToolTip(_("Set to the current time"))
