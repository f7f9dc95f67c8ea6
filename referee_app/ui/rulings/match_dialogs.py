"""What the Rulings area asks the referee before it changes a match: the ruleset of a match begun,
a correction that changes later rulings, the deciding strokes, which saved match to open."""
from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QMessageBox

from referee_app.core.errors import BadInput
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui.common.layout import fit_to_screen
from .ruling_view import ruling_differences


def confirm_ruleset_change(parent, knowledge, old: str, new: str) -> bool:
    lang = current_language()
    answer = QMessageBox.question(
        parent, _("Change the ruleset of this match?"),
        _("This match is played under {old}. Play it under {new} from now on? Every stroke "
          "recorded is ruled again under {new}, and the change is kept in the match's record.").format(
            old=knowledge.ruleset_name(old, lang), new=knowledge.ruleset_name(new, lang)),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def confirm_correction(parent, session, n: int, stroke: dict) -> bool:
    """Shows every later ruling the correction changes and asks to accept it; a correction refused
    (a later stroke made impossible) is said and not made."""
    try:
        changes = session.correction_changes(n, stroke)
    except BadInput as exc:
        QMessageBox.warning(parent, _("Correction refused"), str(exc))
        return False
    lines = []
    for c in changes:
        what = ruling_differences(c["before"], c["after"], current_language())
        if what:  # a line that would read "X → X" tells the referee nothing
            lines.append(_("Stroke {n}:").format(n=c["stroke"]) + "\n" + "\n".join(f"  • {w}" for w in what))
    if not lines:
        return True
    return ask_over_list(parent, _("Rulings that change"), _("This correction changes these rulings:"),
                          "\n".join(lines), _("Accept the correction?"))


def ask_over_list(parent, title: str, intro: str, listing: str, question: str) -> bool:
    """Yes or No under a list that may be long: the list scrolls, so that a correction changing
    twenty rulings keeps its buttons on a 600-pixel screen in large type (a message box grows
    with its text, past the screen)."""
    from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout

    dialog = QDialog(parent, objectName="list_question")
    dialog.setWindowTitle(title)
    class Listing(QPlainTextEdit):
        def sizeHint(self):   # the whole list when the screen has room for it, else it scrolls
            return QSize(self.minimumWidth(), self.fontMetrics().lineSpacing() * (listing.count("\n") + 2))

    text = Listing(listing, objectName="list_question_text")
    text.setReadOnly(True)
    text.setAccessibleName(intro)
    text.setMinimumHeight(text.fontMetrics().lineSpacing() * 3 + 12)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Yes | QDialogButtonBox.StandardButton.No)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    buttons.button(QDialogButtonBox.StandardButton.Yes).setDefault(True)   # as the message box had it
    layout = QVBoxLayout(dialog)
    intro_label, question_label = QLabel(intro), QLabel(question)
    for label in (intro_label, question_label):
        label.setWordWrap(True)
    layout.addWidget(intro_label)
    layout.addWidget(text, 1)
    layout.addWidget(question_label)
    layout.addWidget(buttons)
    text.setMinimumWidth(min(text.fontMetrics().averageCharWidth() * 60, 600))
    fit_to_screen(dialog)
    return dialog.exec() == QDialog.DialogCode.Accepted


def ask_deciding_strokes(parent, names: tuple[str, str]) -> dict | None:
    """Each side's attempts in order, True for a coin pocketed; None if the referee gave up."""
    from PySide6.QtWidgets import QInputDialog

    attempts = {}
    for side, name in zip(("first", "second"), names):
        text, ok = QInputDialog.getText(parent, _("Deciding strokes"), _(
            "{name}'s attempts in order, 1 for a coin pocketed, 0 for a miss (e.g. 1 0 1):").format(name=name))
        if not ok:
            return None
        marks = [c for c in text if not c.isspace()]
        if not marks or any(c not in "01" for c in marks):
            QMessageBox.warning(parent, _("Deciding strokes"), _("Write each attempt as 1 or 0."))
            return None
        attempts[side] = [c == "1" for c in marks]
    return attempts


def choose_match(parent, matches: list[dict]) -> int | None:
    """The saved match the referee picks, or None."""
    if not matches:
        QMessageBox.information(parent, _("Open a match"), _("No match has been saved yet."))
        return None
    labels = [f"{m['id']}: {m['first_name'] or _('First')} – {m['second_name'] or _('Second')} "
              f"({m['ruleset']}, {m['strokes']})" for m in reversed(matches)]
    from PySide6.QtWidgets import QInputDialog   # the dialogs' classes: not for the first paint

    choice, ok = QInputDialog.getItem(parent, _("Open a match"), _("Saved matches"), labels, 0, False)
    return int(choice.split(":")[0]) if ok else None
