"""The Learn area: practise on questions generated from the rules, or sit a timed referee exam.

Keyboard first: the number keys answer, Enter moves on. After each answer the area shows
whether it was right, why (the rules that decided and those they set aside), the clauses in
the learner's language and the board before and after. Answers go to the learner's FSRS cards
in the records (core/learn/store.py); "Due for review" asks again what FSRS says is due.
"""
from __future__ import annotations

import random

from PySide6.QtCore import QElapsedTimer, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QFileDialog, QFrame, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QScrollArea, QSpinBox, QSplitter, QTextBrowser, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.errors import BadInput
from referee_app.core.clause_labels import label as clause_label
from referee_app.core.learn.diagram import diagram_svg
from referee_app.core.learn.questions import Question, Scope, chapters, generate, make_question
from referee_app.core.learn.render import render
from referee_app.core.printing import esc
from referee_app.i18n import gettext as _
from referee_app.i18n import ngettext
from referee_app.ui.retranslate import follow_language
from referee_app.printing.image import svg_to_png
from .board_view import BoardView
from referee_app.ui.common.accessible import name as accessible_name

MAX_KEYS = 9
ALL, ENDINGS, DIFFER, DUE = "all", "endings", "differ", "due"


class ChoiceRow(QFrame):
    """One choice: its key number and its text, wrapped to the panel's width; a click answers."""

    clicked = Signal()

    def __init__(self, text: str, name: str):
        super().__init__(objectName=name)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.label = QLabel(text, wordWrap=True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.label, 1)

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:
        self.label.setText(text)

    def mouseReleaseEvent(self, event):
        if self.isEnabled() and event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(event)


class _QuestionPane(QScrollArea):
    """The question's scroll area, as wide as the question needs (a scroll area's own width hint
    is a fixed small one, which left the question cut at the right in large type)."""

    def _bar(self) -> int:
        return self.verticalScrollBar().sizeHint().width()

    def minimumSizeHint(self):   # the question's width; any height, it scrolls
        own, inner = super().minimumSizeHint(), self.widget()
        return own if inner is None else QSize(inner.minimumSizeHint().width() + self._bar(), own.height())

    def sizeHint(self):
        inner = self.widget()
        return super().sizeHint() if inner is None else inner.sizeHint() + QSize(self._bar(), 0)


class LearnArea(QWidget):
    """`start()` draws a quiz (or an exam) for the chosen selection; `answer(i)` answers it."""

    open_clause = Signal(str)

    def __init__(self, knowledge, ruleset: str | None = None, parent=None, store_factory=None):
        super().__init__(parent)
        self.setObjectName("learn_area")
        self.knowledge = knowledge
        self.ruleset = ruleset or knowledge.default_ruleset
        self._store_factory = store_factory
        self._store = None
        self.questions: list[Question] = []
        self.index = -1
        self.answers: dict[int, int] = {}
        self.exam = None
        self._clock = QElapsedTimer()
        self._timer = QTimer(self, interval=1000)
        self._timer.timeout.connect(self._tick)

        # the selection
        self.learner = QLineEdit(objectName="learn_learner")
        self.scope = QComboBox(objectName="learn_scope")
        self.count = QSpinBox(objectName="learn_count", minimum=1, maximum=200, value=10)
        self.exam_box = QCheckBox(objectName="learn_exam")
        self.minutes = QSpinBox(objectName="learn_minutes", minimum=1, maximum=240, value=10)
        self.pass_mark = QSpinBox(objectName="learn_pass_mark", minimum=1, maximum=100, value=75)
        self.start_button = QPushButton(objectName="learn_start")
        self.start_button.clicked.connect(self.start)
        self.print_button = QPushButton(objectName="learn_print_exam")
        self.print_button.clicked.connect(self.print_exam)
        self.learner_label, self.scope_label, self.count_label = QLabel(), QLabel(), QLabel()
        self.minutes_label, self.pass_label = QLabel(), QLabel()
        for label, field in ((self.learner_label, self.learner), (self.scope_label, self.scope),
                             (self.count_label, self.count), (self.minutes_label, self.minutes),
                             (self.pass_label, self.pass_mark)):
            label.setBuddy(field)
        # two short rows rather than one long one: the area must fit a small window in large type
        self.scope.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.scope.setMinimumContentsLength(18)
        self.learner.setMaximumWidth(220)
        bar = QVBoxLayout()
        for row_widgets in ((self.learner_label, self.learner, self.scope_label, self.scope, self.count_label,
                             self.count),
                            (self.exam_box, self.minutes_label, self.minutes, self.pass_label, self.pass_mark,
                             self.start_button, self.print_button)):
            row = QHBoxLayout()
            for w in row_widgets:
                row.addWidget(w)
            row.addStretch(1)
            bar.addLayout(row)
        self.exam_box.toggled.connect(self._exam_toggled)

        # the question: a panel whose number keys answer and whose Enter moves on
        self.panel = QFrame(objectName="learn_panel")
        self.panel.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.status = QLabel(objectName="learn_status")
        self.timer_label = QLabel(objectName="learn_timer")
        self.prompt = QLabel(objectName="learn_prompt", wordWrap=True)
        self.prompt.setMinimumWidth(280)
        self.prompt.setTextFormat(Qt.TextFormat.PlainText)
        self.choice_box = QVBoxLayout()
        self.choice_buttons: list[ChoiceRow] = []
        self.feedback = QLabel(objectName="learn_feedback", wordWrap=True)
        self.next_button = QPushButton(objectName="learn_next")
        self.next_button.clicked.connect(self.next_question)
        self.save_board_button = QPushButton(objectName="learn_save_board")
        self.save_board_button.clicked.connect(self.save_board)
        head = QHBoxLayout()
        head.addWidget(self.status, 1)
        head.addWidget(self.timer_label)
        panel_layout = QVBoxLayout(self.panel)
        panel_layout.addLayout(head)
        panel_layout.addWidget(self.prompt)
        panel_layout.addLayout(self.choice_box)
        panel_layout.addWidget(self.feedback)
        buttons = QHBoxLayout()
        buttons.addWidget(self.next_button)
        buttons.addWidget(self.save_board_button)
        buttons.addStretch(1)
        panel_layout.addLayout(buttons)
        panel_layout.addStretch(1)
        for n in range(1, MAX_KEYS + 1):
            sc = QShortcut(QKeySequence(str(n)), self.panel, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(lambda i=n - 1: self.answer(i))
        for k in ("Return", "Enter"):
            sc = QShortcut(QKeySequence(k), self.panel, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(self.next_question)

        # after the answer: why, the clauses, the board; and what the learner masters
        self.why = QTextBrowser(objectName="learn_why")
        self.why.setOpenLinks(False)
        self.why.anchorClicked.connect(lambda url: self.open_clause.emit(url.toString().removeprefix("clause:")))
        self.board = BoardView()
        self.mastery = QTreeWidget(objectName="learn_mastery")
        self.mastery.setRootIsDecorated(False)
        self.mastery.setColumnCount(4)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.board)
        right.addWidget(self.why)
        right.addWidget(self.mastery)
        # the question scrolls in its own pane: in large type on a small screen its wrapped choices
        # keep their whole height instead of being squeezed into one cut line each
        question = _QuestionPane(objectName="learn_panel_scroll")
        question.setWidget(self.panel)
        question.setWidgetResizable(True)
        question.setFrameShape(QFrame.Shape.NoFrame)
        question.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(question)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 3)
        right.setStretchFactor(2, 1)

        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        follow_language(self)
        self._exam_toggled(False)
        self.retranslate()
        self._show()

    # --- the selection ----------------------------------------------------------------------
    def set_ruleset(self, ruleset: str) -> None:
        if ruleset != self.ruleset:
            self.ruleset = ruleset
            self._fill_scopes()

    def _fill_scopes(self) -> None:
        current = self.scope.currentData()
        self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItem(_("All strokes"), ALL)
        self.scope.addItem(_("Board endings"), ENDINGS)
        self.scope.addItem(_("Where rulesets differ"), DIFFER)
        self.scope.addItem(_("Due for review"), DUE)
        try:
            for chapter in chapters(self.knowledge, self.ruleset, i18n.current_language()):
                self.scope.addItem(_("Chapter: {title}").format(title=chapter["label"]), "chapter:" + chapter["id"])
        except BadInput:
            pass  # a ruleset the knowledge base does not have: the general selections only
        self.scope.setCurrentIndex(max(0, self.scope.findData(current)))
        self.scope.blockSignals(False)

    def _exam_toggled(self, on: bool) -> None:
        for w in (self.minutes_label, self.minutes, self.pass_label, self.pass_mark):
            w.setVisible(on)

    def learner_name(self) -> str:
        return self.learner.text().strip() or self.learner.placeholderText()

    def store(self):
        if self._store is None:
            from referee_app.core.learn.store import ProgressStore
            from referee_app.ui.common.records_source import records_database

            self._store = self._store_factory() if self._store_factory else ProgressStore(records_database())
        return self._store

    def start(self) -> None:
        """Draws the questions and asks the first; a problem is shown, never raised."""
        choice = self.scope.currentData() or ALL
        count = self.count.value()
        seed = random.SystemRandom().randrange(1 << 30)
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)  # the first draw walks the whole space
        try:
            if choice == DUE:
                rng = random.Random(seed)
                due = self.store().due(self.learner_name(), self.ruleset, limit=count)
                questions = [q for q in (make_question(self.knowledge, d["situation"], d["ruleset"], rng) for d in due) if q]
            else:
                questions = generate(self.knowledge, self._selection(), count, seed)
        except BadInput as exc:
            self._message(self._problem(exc))
            return
        finally:
            QApplication.restoreOverrideCursor()
        if not questions:
            self._message(_("Nothing to ask in this selection (nothing is due yet)."))
            return
        self.questions, self.index, self.answers = questions, 0, {}
        self.exam = None
        if self.exam_box.isChecked():
            import math

            self.exam = {"seconds": self.minutes.value() * 60,
                         "pass_mark": math.ceil(len(questions) * self.pass_mark.value() / 100)}
            self._clock.start()
            self._timer.start()
        self._show()
        self.panel.setFocus(Qt.FocusReason.OtherFocusReason)

    def _problem(self, exc: Exception) -> str:
        """A refusal or a failure in the learner's language (ui/common/refusal_words.py); a file the
        system would not write, said with what to do."""
        from referee_app.ui.common.refusal_words import knows, said

        if knows(exc):
            return said(exc, self.knowledge)
        if isinstance(exc, OSError):
            return _("the file could not be written: check the folder and the free space on the disk.")
        return str(exc)

    def _selection(self) -> Scope:
        choice = self.scope.currentData() or ALL
        return Scope(self.ruleset, endings=choice == ENDINGS, differ=choice == DIFFER,
                     chapter=choice.removeprefix("chapter:") if choice.startswith("chapter:") else None)

    def print_exam(self, path: str | None = None) -> str | None:
        """A paper of the chosen selection, count, time and pass mark as PDF, in the interface
        language, with its answer key; returns the path written (None if cancelled or refused)."""
        from referee_app.core.learn.exam import exam_html, make_exam
        from referee_app.printing.pdf import write_pdf

        if path is None:
            path, _filter = QFileDialog.getSaveFileName(self, _("Save the exam paper as PDF"), _("exam") + ".pdf",
                                                        "PDF (*.pdf)")
        if not path:
            return None
        try:
            exam = make_exam(self.knowledge, self._selection(), self.count.value(), random.SystemRandom().randrange(1 << 30),
                             self.minutes.value(), self.pass_mark.value())
            diagrams: dict[str, str] = {}
            write_pdf(exam_html(self.knowledge, exam, i18n.current_language(), diagrams), path,
                      title=_("Referee examination"), images=diagrams)
        except (BadInput, OSError) as exc:
            self._message(_("The exam could not be printed: {problem}").format(problem=self._problem(exc)))
            return None
        self._message(_("Exam paper saved: {path}").format(path=path))
        return path

    def save_board(self, path: str | None = None) -> str | None:
        """The board diagram of the question shown, as SVG or PNG (by the name's ending)."""
        if not self.board.svg:
            return None
        if path is None:
            path, _filter = QFileDialog.getSaveFileName(self, _("Save the board diagram"), _("board-diagram") + ".svg",
                                                        _("SVG image (*.svg);;PNG image (*.png)"))
        if not path:
            return None
        try:
            if path.lower().endswith(".png"):
                svg_to_png(self.board.svg, path, scale=2)
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(self.board.svg)
        except OSError as exc:
            self._message(_("The diagram could not be saved: {problem}").format(problem=self._problem(exc)))
            return None
        return path

    # --- answering --------------------------------------------------------------------------
    def current(self) -> Question | None:
        return self.questions[self.index] if 0 <= self.index < len(self.questions) else None

    def answer(self, choice: int) -> None:
        q = self.current()
        if q is None or self.index in self.answers or not 0 <= choice < len(q.choices):
            return  # no question, already answered, or no such choice: a stray key records nothing
        self.answers[self.index] = choice
        if self.learner_name():
            try:
                self.store().record(self.learner_name(), q, choice == q.answer)
            except (BadInput, OSError) as exc:
                self._message(_("The answer could not be saved: {problem}").format(problem=self._problem(exc)))
        if self.exam and len(self.answers) == len(self.questions):
            self._finish_exam()
            return
        self._show()

    def next_question(self) -> None:
        if self.current() is None or (self.index not in self.answers and not self.exam):
            return  # Enter before answering: nothing to move on from
        if self.index + 1 < len(self.questions):
            self.index += 1
        else:
            self.index = len(self.questions)  # the end: the score
            self._timer.stop()
        self._show()

    def right_count(self) -> int:
        return sum(1 for i, c in self.answers.items() if c == self.questions[i].answer)

    def _tick(self) -> None:
        if not self.exam:
            self._timer.stop()
            return
        left = self.exam["seconds"] - self._clock.elapsed() // 1000
        if left <= 0:
            self._finish_exam()
        else:
            self.timer_label.setText(_("Time left: {m}:{s:02d}").format(m=left // 60, s=left % 60))

    def _finish_exam(self) -> None:
        self._timer.stop()
        self.index = len(self.questions)
        self._show()

    # --- showing ----------------------------------------------------------------------------
    def _message(self, text: str) -> None:
        self.feedback.setText(text)
        self.feedback.setVisible(True)

    def _clear_choices(self) -> None:
        for b in self.choice_buttons:
            self.choice_box.removeWidget(b)
            b.hide()
            b.deleteLater()
        self.choice_buttons = []

    def _show(self) -> None:
        lang = i18n.current_language()
        self._clear_choices()
        self.feedback.clear()
        q = self.current()
        if q is None:
            self._show_end()
            return
        shown = render(self.knowledge, q, lang)
        answered = self.index in self.answers
        reveal = answered and not self.exam
        self.status.setText(_("Question {n} of {total}").format(n=self.index + 1, total=len(self.questions))
                            + (" · " + ngettext("{n} right", "{n} right", self.right_count()).format(
                                n=self.right_count()) if not self.exam else ""))
        self.prompt.setText(" ".join(shown["prompt"]) + "\n\n" + shown["question"])
        for i, choice in enumerate(shown["choices"]):
            b = ChoiceRow(f"{i + 1}   {choice['text']}", f"learn_choice_{i + 1}")
            b.clicked.connect(lambda _c=False, i=i: self.answer(i))
            if reveal:
                mark = "✔ " if i == q.answer else ("✘ " if i == self.answers[self.index] else "")
                b.setText(f"{i + 1}   {mark}{choice['text']}")
                b.setEnabled(i in (q.answer, self.answers[self.index]))
            elif answered:
                b.setEnabled(False)
            self.choice_box.addWidget(b)
            self.choice_buttons.append(b)
        self.next_button.setVisible(answered or bool(self.exam))
        self.save_board_button.setVisible(reveal)
        self.next_button.setEnabled(True)
        if reveal:
            right = self.answers[self.index] == q.answer
            self.feedback.setText((_("Right.") if right else _("Not this one: the right answer is {n}.").format(
                n=q.answer + 1)) + " " + _("Press Enter for the next question."))
            self.why.setHtml(why_html(shown))
            self.board.set_svg(diagram_svg(q.situation, q.ruling, lang))
            self.refresh_mastery()
        else:
            self.why.clear()
            self.board.set_svg("")
        self.feedback.setVisible(bool(self.feedback.text()))

    def _show_end(self) -> None:
        self.prompt.clear()
        self.next_button.setVisible(False)
        self.save_board_button.setVisible(False)
        if not self.questions:
            self.status.setText(_("Choose what to practise, then Start."))
            return
        right, total = self.right_count(), len(self.questions)
        text = ngettext("{right} right answer of {total}.", "{right} right answers of {total}.", right).format(
            right=right, total=total)
        if self.exam:
            passed = right >= self.exam["pass_mark"]
            text += " " + (_("Passed (pass mark {mark}).") if passed else _("Not passed (pass mark {mark}).")).format(
                mark=self.exam["pass_mark"])
            self.timer_label.clear()
        self.status.setText(_("The end"))
        self.feedback.setText(text)
        self.feedback.setVisible(True)
        self.refresh_mastery()

    def refresh_mastery(self) -> None:
        if not self.learner_name() or (self._store is None and not self.answers):
            return
        try:
            summary = self.store().summary(self.learner_name(), self.ruleset)
        except (BadInput, OSError):
            return
        self.mastery.clear()
        total = QTreeWidgetItem([_("All"), str(summary["seen"]), str(summary["mastered"]), str(summary["due"])])
        self.mastery.addTopLevelItem(total)
        for c in summary["clauses"]:
            item = QTreeWidgetItem([clause_label(c["clause"], i18n.current_language(), self.knowledge.kb),
                                    str(c["seen"]), str(c["mastered"]), str(c["due"])])
            item.setData(0, Qt.ItemDataRole.UserRole, c["clause"])
            self.mastery.addTopLevelItem(item)

    def retranslate(self) -> None:
        self.learner_label.setText(_("&Learner:"))
        self.learner.setPlaceholderText(_("learner"))
        self.scope_label.setText(_("&Practise:"))
        self.count_label.setText(_("&Questions:"))
        self.exam_box.setText(_("E&xam (timed)"))
        self.minutes_label.setText(_("&Minutes:"))
        self.pass_label.setText(_("Pass mar&k (%):"))
        self.start_button.setText(_("Star&t"))
        self.print_button.setText(_("Print a paper…"))
        self.save_board_button.setText(_("Save the board…"))
        self.next_button.setText(_("Next (Enter)"))
        self.mastery.setHeaderLabels([_("Clause"), _("Seen"), _("Mastered"), _("Due")])
        accessible_name(self.mastery, _("Progress by clause"), _("For each clause: questions seen, mastered, due"))
        accessible_name(self.why, _("Why: the ruling explained"))
        self._fill_scopes()
        self._show()


def why_html(shown: dict) -> str:
    """The decision, the engine's why, its derivation step by step, and each clause in the
    learner's language."""
    parts = [f"<p><b>{esc(shown['decision'])}</b></p>", f"<p>{esc(shown['why'])}</p>", "<ul>"]
    parts += [f"<li>{esc(line)}</li>" for line in shown["steps"]]
    parts.append("</ul>")
    for note in shown["notes"]:
        parts.append(f"<p><i>{esc(note)}</i></p>")
    for c in shown["clauses"]:
        parts.append(f"<p><a href='clause:{esc(c['id'])}'><b>{esc(c['cited'])}</b></a> "
                     f"{esc(c['title'])}<br>{esc(c['text'])}</p>")
    return "\n".join(parts)
