"""The board before the stroke, set by hand for "what if": built the first time the referee asks
for it (RulingsArea.situation), not for the window's first paint."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QSpinBox, QWidget

from referee_app.core.rules.situation import QUEEN_STATES
from referee_app.i18n import gettext as _
from referee_app.ui import theme
from .ruling_view import queen_text


class SituationEditor(QGroupBox):
    """The board before the stroke, editable by hand (what-if mode)."""

    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("situation_editor")
        self.own = QSpinBox(objectName="what_if_own", maximum=9, value=9)
        self.opponent = QSpinBox(objectName="what_if_opponent", maximum=9, value=9)
        self.queen = QComboBox(objectName="what_if_queen")
        self.break_ = QCheckBox(objectName="what_if_break")
        self.attempt = QSpinBox(objectName="what_if_attempt", minimum=1, maximum=9)
        self.dues = QSpinBox(objectName="what_if_dues", maximum=9)
        self.opponent_dues = QSpinBox(objectName="what_if_opponent_dues", maximum=9)
        self.score = QSpinBox(objectName="what_if_score", maximum=99)
        self.opponent_score = QSpinBox(objectName="what_if_opponent_score", maximum=99)
        self.form = QFormLayout(self)
        self.labels = [QLabel() for _ in range(9)]
        for label, w in zip(self.labels, (self.own, self.opponent, self.queen, self.break_, self.attempt, self.dues,
                                          self.opponent_dues, self.score, self.opponent_score)):
            label.setBuddy(w)
            self.form.addRow(label, w)
            signal = w.toggled if isinstance(w, QCheckBox) else (
                w.currentIndexChanged if isinstance(w, QComboBox) else w.valueChanged)
            signal.connect(self.changed)
        # why the board as set cannot happen, in the row below the field it is about (`mark`)
        self.problem = QLabel(objectName="what_if_problem", wordWrap=True)
        self.problem.hide()
        self.marked: QWidget | None = None
        self.retranslate()

    def fields(self) -> list:
        """The editable fields, top to bottom."""
        return [label.buddy() for label in self.labels]

    def load(self, before: dict) -> None:
        self.blockSignals(True)
        self.own.setValue(before["own_on_board"])
        self.opponent.setValue(before["opponent_on_board"])
        self.queen.setCurrentIndex(QUEEN_STATES.index(before["queen"]))
        self.break_.setChecked(before["break"])
        self.attempt.setValue(before["break_attempt"])
        self.dues.setValue(before["dues"])
        self.opponent_dues.setValue(before["opponent_dues"])
        self.score.setValue(before["score"]["striker"])
        self.opponent_score.setValue(before["score"]["opponent"])
        self.blockSignals(False)
        self.changed.emit()

    def field_widget(self, field: str) -> QWidget | None:
        """The field of a refused situation's field name (`before.score.striker`...), if it has one here."""
        return {"before.own_on_board": self.own, "before.opponent_on_board": self.opponent, "before.queen": self.queen,
                "before.break": self.break_, "before.break_attempt": self.attempt, "before.dues": self.dues,
                "before.opponent_dues": self.opponent_dues, "before.score": self.score,
                "before.score.striker": self.score, "before.score.opponent": self.opponent_score}.get(field)

    def mark(self, field: str | None, text: str = "") -> bool:
        """Shows `text` beside the field named `field` (None, or a field not here: clears); whether shown."""
        widget = self.field_widget(field) if field else None
        if widget is self.marked and (widget is None or text == self.problem.text()):
            return widget is not None
        if self.marked is not None:
            self.marked.setStyleSheet("")
            self.marked.setAccessibleDescription("")
            self.form.takeRow(self.problem)
        self.marked = widget
        if widget is None:
            self.problem.hide()
            return False
        widget.setStyleSheet(f"border: 2px solid {theme.colors().accent};")
        widget.setAccessibleDescription(text)
        self.problem.setText(text)
        row, _role = self.form.getWidgetPosition(widget)
        self.form.insertRow(row + 1, self.problem)   # the row right under the field
        self.problem.show()
        return True

    def before(self) -> dict:
        return {"own_on_board": self.own.value(), "opponent_on_board": self.opponent.value(),
                "queen": self.queen.currentData(), "break": self.break_.isChecked(),
                "break_attempt": self.attempt.value(), "dues": self.dues.value(),
                "opponent_dues": self.opponent_dues.value(),
                "score": {"striker": self.score.value(), "opponent": self.opponent_score.value()}}

    def retranslate(self) -> None:
        self.setTitle(_("The board before the stroke (what if)"))
        texts = (_("Own coins on the board"), _("Opponent's coins on the board"), _("Queen"), _("Break not yet made"),
                 _("Break attempt"), _("Own dues"), _("Opponent's dues"), _("Own score in the game"),
                 _("Opponent's score in the game"))
        for label, text in zip(self.labels, texts):
            label.setText(text)
            label.buddy().setAccessibleName(text)
        current = self.queen.currentData()
        self.queen.blockSignals(True)
        self.queen.clear()
        for state in QUEEN_STATES:
            self.queen.addItem(queen_text(state, _("the striking side"), _("the opponent")), state)
        self.queen.setCurrentIndex(max(self.queen.findData(current), 0))
        self.queen.blockSignals(False)
