"""The stroke being ruled: big, keyboard-friendly controls for what was pocketed and how.

Every change emits `changed`, so the ruling beside it updates as the referee ticks. Limits
follow the board the score sheet knows (no more coins than are on it; no queen once pocketed).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (QCheckBox, QComboBox, QCompleter, QGridLayout, QGroupBox, QLabel, QLineEdit,
                               QSpinBox, QVBoxLayout, QWidget)

from referee_app.core.play.foul_names import foul_matches
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui import theme


def _big(widget):
    theme.keep_scaled(widget, 1.35)
    widget.setMinimumHeight(40)
    return widget


class _LeaveUndoToTheSheet(QObject):
    """A spin box would take Ctrl+Z for its own text; here Ctrl+Z takes back the last stroke."""

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.ShortcutOverride and (
                event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo)):
            event.ignore()
            return True
        return False


class _FirstMatchOnReturn(QObject):
    """Return in the foul's open list, no row chosen: the first match is taken rather than the
    fragment typed, so a referee who typed "impro" need not press Down first."""

    def __init__(self, field: "FoulField"):
        super().__init__(field)
        self.field = field

    def eventFilter(self, obj, event):
        if (event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier):
            completer = self.field.completer()
            popup = completer.popup()
            if popup.isVisible() and not popup.currentIndex().isValid() and completer.completionCount() > 0:
                completer.setCurrentRow(0)
                text = completer.currentCompletion()
                popup.hide()
                self.field.setText(text)
                self.field._tidy()
                return True
        return False


class FoulField(QLineEdit):
    """The foul, typed by name or paragraph in any of the three languages, with a completer.

    Only a known foul is accepted: any other text is shown in the accent colour with the reason,
    and `problem()` says why, so the stroke cannot be recorded without the foul the referee meant.
    Enter here only completes the foul; it never records the stroke.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("foul")
        self._fouls: list[dict] = []
        self._knowledge = None   # the knowledge root whose paragraphs the fouls cite (set_fouls)
        # The completer's list cites each foul's paragraphs, which reads the citation styles: it
        # is filled when the referee first comes to the field, not for the window's first paint.
        self._listed = False
        self._moved = False   # the stroke moved a piece: only fouls of the stroke are offered (set_moved)
        self._model = QStringListModel(self)
        completer = QCompleter(self._model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setCompleter(completer)
        self._popup_watched = False   # the completer makes its list's popup when first asked (labels)
        self.setClearButtonEnabled(True)
        self.returnPressed.connect(self._tidy)
        self.editingFinished.connect(self._tidy)
        self.textChanged.connect(self._mark)

    def set_fouls(self, knowledge, ruleset: str) -> None:
        """The fouls a referee can call under `ruleset`, each named in every language as the
        knowledge root names it (Knowledge.foul_name)."""
        from referee_app.core.rules.engine import foul_timing
        from referee_app.languages import LANGUAGES

        current = self.foul_id()
        self._knowledge = knowledge   # its knowledge base read when the fouls are first listed
        self._fouls = [{"id": f["id"], "names": {lang: knowledge.foul_name(ruleset, f["id"], lang) for lang in LANGUAGES},
                        "clauses": f.get("clauses", []), "timing": foul_timing(f)}
                       for f in knowledge.compiled(ruleset).fouls.values()]
        self.retranslate()
        if current is not None:
            self.set_foul(current)

    def label_of(self, foul: dict) -> str:
        from referee_app.ui.rulings.citation import human_citation

        cited = ", ".join(human_citation(self._knowledge.kb, c) for c in foul.get("clauses", []))
        return f"{foul['names'].get(current_language()) or foul['id']} ({cited})"

    def labels(self) -> list[str]:
        """What the completer offers: each foul's name and paragraphs, in the interface language."""
        if not self._popup_watched:   # before any key or focus can open it: both come here first
            self.completer().popup().installEventFilter(_FirstMatchOnReturn(self))
            self._popup_watched = True
        if not self._listed:
            self._model.setStringList([self.label_of(f) for f in self._fouls
                                       if not (self._moved and f["timing"] == "between_strokes")])
            self._listed = True
        return self._model.stringList()

    def set_moved(self, moved: bool) -> None:
        """Whether the stroke as ticked moved a piece: a foul committed between strokes is then not
        offered (it is recorded on its own entry, with nothing pocketed: `fouls` says its timing)."""
        if moved != self._moved:
            self._moved = moved
            self._listed = False
            if self.hasFocus():
                self.labels()

    def focusInEvent(self, event) -> None:
        self.labels()
        super().focusInEvent(event)

    def keyPressEvent(self, event) -> None:
        self.labels()   # the completer reads its list as the key is typed
        super().keyPressEvent(event)

    def retranslate(self) -> None:
        current = self.foul_id() if not self.problem() else None
        self._listed = False
        if self.hasFocus():
            self.labels()
        self.setPlaceholderText(_("No foul: type a foul's name or paragraph"))
        if current is not None:
            self.set_foul(current)
        self._mark()

    def _matches(self) -> list[str]:
        return foul_matches(self.text(), self._fouls, self._knowledge.kb) if self._knowledge is not None else []

    def foul_id(self) -> str | None:
        """The foul named, or None when the field is empty or names no single foul (see `problem`)."""
        hits = self._matches() if self.text().strip() else []
        return hits[0] if len(hits) == 1 else None

    def problem(self) -> str | None:
        text = self.text().strip()
        if not text:
            return None
        hits = self._matches()
        if len(hits) == 1:
            return None
        if hits:
            return _("“{text}” is the paragraph of several fouls: choose one by its name").format(text=text)
        return _("“{text}” is not a foul of this ruleset: choose one from the list").format(text=text)

    def set_foul(self, foul_id: str | None) -> None:
        foul = next((f for f in self._fouls if f["id"] == foul_id), None)
        self.setText(self.label_of(foul) if foul else "")

    def _tidy(self) -> None:
        """A foul typed as "4.1.2" is written back as its name, so the referee sees what was understood."""
        fid = self.foul_id()
        if fid is not None:
            label = self.label_of(next(f for f in self._fouls if f["id"] == fid))
            if label != self.text():
                self.setText(label)

    def _mark(self) -> None:
        problem = self.problem()
        sheet = f"QLineEdit {{ border: 2px solid {theme.colors().accent}; }}" if problem else ""
        if sheet != self.styleSheet():   # a style sheet set again, even the same, restyles the field
            self.setStyleSheet(sheet)
        self.setToolTip(problem or _("A foul by its name or paragraph, in any language; empty for no foul"))


class _Typed(QObject):
    """A key typed into one of the stroke's controls (a digit, a space on a box) is the next stroke
    being entered, even when it leaves the value as it was ("0" over 0): `StrokeForm.typed`."""

    MOVES = (Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Enter,
             Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta)

    def __init__(self, form: "StrokeForm"):
        super().__init__(form)
        self.form = form

    def eventFilter(self, obj, event):
        if (event.type() == QEvent.Type.KeyPress and event.key() not in self.MOVES
                and not event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)):
            self.form.typed.emit()
        return False


def _label_for(widget) -> QLabel:
    """A label whose mnemonic moves the focus to the widget it names."""
    label = QLabel()
    label.setBuddy(widget)
    return label


def _grid_box(name: str, rows) -> QGroupBox:
    """A group box of two columns, each row a (left, right) pair of widgets."""
    box = QGroupBox(objectName=name)
    grid = QGridLayout(box)
    for row, (left, right) in enumerate(rows):
        grid.addWidget(left, row, 0)
        grid.addWidget(right, row, 1)
    return box


class StrokeForm(QWidget):
    changed = Signal()
    typed = Signal()   # a key typed into a control, whether or not it changed its value

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("stroke_form")
        self.own = _big(QSpinBox(objectName="own_pocketed"))
        self.opponent = _big(QSpinBox(objectName="opponent_pocketed"))
        self.queen = _big(QCheckBox(objectName="queen_pocketed"))
        self.striker = _big(QCheckBox(objectName="striker_pocketed"))
        self.touched = QCheckBox(objectName="touched_coin")
        self.touched.setChecked(True)
        self.own_off = QSpinBox(objectName="own_off")
        self.opponent_off = QSpinBox(objectName="opponent_off")
        self.queen_off = QCheckBox(objectName="queen_off")
        self.striker_off = QCheckBox(objectName="striker_off")
        self.foul = FoulField()
        # While the first coin pocketed is still to set the colours (fr-house 2.2, carom-bi 1.1)
        # the two counts are the light and the dark coins, named as the ruleset's text names them;
        # when both fell, the referee says which went in first.
        self.colour_names: tuple[str, str] | None = None
        self.first_colour = QComboBox(objectName="first_colour")
        self.first_colour_label = _label_for(self.first_colour)

        self.own_label, self.opponent_label = _label_for(self.own), _label_for(self.opponent)
        self.pocketed_box = _grid_box("pocketed_box", [(self.own_label, self.own),
                                                       (self.opponent_label, self.opponent),
                                                       (self.queen, self.striker),
                                                       (self.first_colour_label, self.first_colour)])
        self.own_off_label, self.opponent_off_label = _label_for(self.own_off), _label_for(self.opponent_off)
        self.off_box = _grid_box("off_box", [(self.own_off_label, self.own_off),
                                             (self.opponent_off_label, self.opponent_off),
                                             (self.queen_off, self.striker_off)])
        self.foul_label = _label_for(self.foul)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pocketed_box)
        layout.addWidget(self.touched)
        layout.addWidget(self.foul_label)
        layout.addWidget(self.foul)
        layout.addWidget(self.off_box)
        layout.addStretch(1)
        self._undo_filter = _LeaveUndoToTheSheet(self)
        for w in (self.own, self.opponent, self.own_off, self.opponent_off):
            w.valueChanged.connect(self.changed)
            w.installEventFilter(self._undo_filter)
        for w in (self.queen, self.striker, self.touched, self.queen_off, self.striker_off):
            w.toggled.connect(self.changed)
        self._typed_filter = _Typed(self)
        for w in (self.own, self.opponent, self.queen, self.striker, self.touched, self.foul, self.own_off,
                  self.opponent_off, self.queen_off, self.striker_off, self.first_colour):
            w.installEventFilter(self._typed_filter)
        self.foul.textChanged.connect(self.changed)
        self.first_colour.currentIndexChanged.connect(self.changed)
        self.changed.connect(self._offer_fouls)
        for w in (self.own, self.opponent):
            w.valueChanged.connect(self._show_first_colour)
        self.setTabOrder(self.own, self.opponent)
        self.setTabOrder(self.opponent, self.queen)
        self.setTabOrder(self.queen, self.striker)
        self.setTabOrder(self.striker, self.touched)
        self.setTabOrder(self.touched, self.foul)
        self.setTabOrder(self.foul, self.own_off)
        self.retranslate()
        self._show_first_colour()

    def set_fouls(self, knowledge, ruleset: str) -> None:
        self.foul.set_fouls(knowledge, ruleset)

    def _offer_fouls(self) -> None:
        moved = any(w.value() for w in (self.own, self.opponent, self.own_off, self.opponent_off)) or any(
            w.isChecked() for w in (self.queen, self.striker, self.queen_off))
        self.foul.set_moved(moved)

    def set_colours(self, names: tuple[str, str] | None) -> None:
        """Colours still open: the counts are the light and the dark coins, `names` as the text
        names them (plural); None once each side has its colour (own and opponent coins)."""
        if names == self.colour_names:
            return
        self.colour_names = names
        self.retranslate()
        self._show_first_colour()

    def _show_first_colour(self) -> None:
        both = self.colour_names is not None and self.own.value() > 0 and self.opponent.value() > 0
        self.first_colour.setVisible(both)
        self.first_colour_label.setVisible(both)

    def set_board(self, own_on_board: int, opponent_on_board: int, queen_on_board: bool) -> None:
        """Bounds the controls by the board as it stands before the stroke."""
        self.own.setMaximum(own_on_board)
        self.opponent.setMaximum(opponent_on_board)
        self.own_off.setMaximum(own_on_board)
        self.opponent_off.setMaximum(opponent_on_board)
        for box in (self.queen, self.queen_off):
            box.setEnabled(queen_on_board)
            if not queen_on_board:
                box.setChecked(False)

    def foul_id(self):
        return self.foul.foul_id()

    def problem(self) -> str | None:
        """Why the stroke as entered cannot be ruled yet (a foul not understood), or None."""
        return self.foul.problem()

    def stroke(self) -> dict:
        mine, theirs = ("light", "dark") if self.colour_names else ("own", "opponent")
        out = {
            "touched_coin": self.touched.isChecked(),
            "pocketed": {mine: self.own.value(), theirs: self.opponent.value(),
                         "queen": self.queen.isChecked(), "striker": self.striker.isChecked()},
            "off_board": {mine: self.own_off.value(), theirs: self.opponent_off.value(),
                          "queen": self.queen_off.isChecked(), "striker": self.striker_off.isChecked()},
            "foul": self.foul_id(),
        }
        if self.colour_names and self.own.value() and self.opponent.value():
            out["first_colour"] = self.first_colour.currentData() or "light"
        return out

    def load(self, stroke: dict) -> None:
        """Shows a recorded stroke (for a correction)."""
        self.blockSignals(True)
        p, o = stroke.get("pocketed") or {}, stroke.get("off_board") or {}
        mine, theirs = ("light", "dark") if {"light", "dark"} & (set(p) | set(o)) else ("own", "opponent")
        self.own.setValue(p.get(mine, 0))
        self.opponent.setValue(p.get(theirs, 0))
        self.first_colour.setCurrentIndex(max(self.first_colour.findData(stroke.get("first_colour", "light")), 0))
        self.queen.setChecked(bool(p.get("queen")))
        self.striker.setChecked(bool(p.get("striker")))
        self.touched.setChecked(stroke.get("touched_coin", True))
        self.own_off.setValue(o.get(mine, 0))
        self.opponent_off.setValue(o.get(theirs, 0))
        self.queen_off.setChecked(bool(o.get("queen")))
        self.striker_off.setChecked(bool(o.get("striker")))
        self.foul.blockSignals(True)
        self.foul.set_foul(stroke.get("foul"))
        self.foul.blockSignals(False)
        self.foul._mark()
        self.blockSignals(False)
        self.changed.emit()

    def reset(self) -> None:
        self.load({})

    def retranslate(self) -> None:
        self.pocketed_box.setTitle(_("Pocketed in this stroke"))
        light, dark = self.colour_names or ("", "")
        if self.colour_names:
            self.own_label.setText(_("&Coins: {colour}").format(colour=light))
            self.opponent_label.setText(_("Coi&ns: {colour}").format(colour=dark))
        else:
            self.own_label.setText(_("&Own coins"))
            self.opponent_label.setText(_("O&pponent's coins"))
        self.first_colour_label.setText(_("First coin in"))
        self.first_colour.setAccessibleName(_("First coin in"))   # a combo box is read by its value otherwise
        current = self.first_colour.currentData()
        self.first_colour.blockSignals(True)
        self.first_colour.clear()
        self.first_colour.addItem(light, "light")
        self.first_colour.addItem(dark, "dark")
        self.first_colour.setCurrentIndex(max(self.first_colour.findData(current), 0))
        self.first_colour.blockSignals(False)
        self.first_colour.setAccessibleName(_("First coin in"))
        self.first_colour.setToolTip(_("Both colours fell before the colours were decided: the colour of the coin "
                                       "that went in first"))
        self.queen.setText(_("&Queen"))
        self.striker.setText(_("&Striker"))
        self.touched.setText(_("The striker &touched a coin"))
        self.foul_label.setText(_("Fo&ul (name or paragraph)"))
        self.off_box.setTitle(_("Left the board"))
        self.own_off_label.setText(_("Own coins"))
        self.opponent_off_label.setText(_("Opponent's coins"))
        self.queen_off.setText(_("Queen"))
        self.striker_off.setText(_("Striker"))
        own_name, opponent_name = ((_("Coins pocketed: {colour}").format(colour=light),
                                    _("Coins pocketed: {colour}").format(colour=dark))
                                   if self.colour_names else (_("Own coins pocketed"), _("Opponent coins pocketed")))
        for w, name in ((self.own, own_name), (self.opponent, opponent_name),
                        (self.queen, _("Queen pocketed")), (self.striker, _("Striker pocketed")),
                        (self.foul, _("Foul")), (self.touched, _("The striker touched a coin")),
                        (self.own_off, _("Own coins off the board")),
                        (self.opponent_off, _("Opponent coins off the board")),
                        (self.queen_off, _("Queen off the board")), (self.striker_off, _("Striker off the board"))):
            w.setAccessibleName(name)
        self.foul.retranslate()
