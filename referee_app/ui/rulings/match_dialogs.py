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


def confirm_clear_header(parent, header: dict) -> bool:
    """Asked before "New match" clears a header typed for a match that has no stroke yet."""
    names = " – ".join(n for n in (header.get("first_name"), header.get("second_name")) if n)
    text = (_("This match has no stroke yet. Clear its header ({names}) to start afresh?").format(names=names)
            if names else _("This match has no stroke yet. Clear its header to start afresh?"))
    answer = QMessageBox.question(parent, _("New match"), text,
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def _striking_sides(session, n: int, stroke: dict, names: tuple[str, str]) -> tuple[dict, dict]:
    """{stroke number: (its striker's name, the opponent's)} of the sheet as it stands and as the
    correction makes it: a correction may hand a later stroke to the other side."""
    from referee_app.core.play.match import timeline

    match = session.match
    corrected = match.correction(n - 1, stroke)[0]
    out = []
    for strokes in (match.strokes, corrected.strokes):
        sides = {}
        for e in timeline(session.knowledge, match.ruleset, match.doubles, strokes):
            first_strikes = e["side"] == "first"
            sides[e["n"]] = names if first_strikes else (names[1], names[0])
        out.append(sides)
    return out[0], out[1]


def confirm_correction(parent, session, n: int, stroke: dict, names: tuple[str, str]) -> bool:
    """Shows every later ruling the correction changes, the sides by their names, and asks to
    accept it; a correction refused (a later stroke made impossible) is said and not made."""
    try:
        changes = session.correction_changes(n, stroke)
    except BadInput as exc:
        from .refusal_words import match_refusal

        QMessageBox.warning(parent, _("Correction refused"), match_refusal(session.knowledge, exc, session.match.ruleset))
        return False
    lines = []
    before_sides, after_sides = _striking_sides(session, n, stroke, names)
    for c in changes:
        k = c["stroke"]
        what = ruling_differences(c["before"], c["after"], current_language(),
                                  before_sides.get(k), after_sides.get(k))
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


def choose_match(parent, matches: list[dict], ruleset_name=str, pairings: list[dict] | None = None):
    """The saved match the referee picks (its id), or a pairing whose sheet to open (the pairing's
    dict), or None; `ruleset_name(id)` names a ruleset for people."""
    pairings = pairings or []
    if not matches and not pairings:
        QMessageBox.information(parent, _("Open a match"), _("No match has been saved yet."))
        return None
    from referee_app.i18n import ngettext

    # the games of the current round first: a table opens its pairing's sheet at the start of a round
    choices = [(_("{tournament}, round {round}, table {table}: {first} – {second}").format(
                    tournament=p["name"], round=_("final") if p["round"] == "final" else p["round"], table=p["table"],
                    first=p["first"], second=p["second"]), p) for p in pairings]
    choices += [(f"{m['id']}: {m['first_name'] or _('First')} – {m['second_name'] or _('Second')} ("
                 + ngettext("{ruleset}, {n} stroke", "{ruleset}, {n} strokes", m["strokes"]).format(
                     ruleset=ruleset_name(m["ruleset"]), n=m["strokes"]) + ")", m["id"]) for m in reversed(matches)]
    from PySide6.QtWidgets import QInputDialog   # the dialogs' classes: not for the first paint

    labels = [label for label, _value in choices]
    choice, ok = QInputDialog.getItem(parent, _("Open a match"), _("Pairings and saved matches"), labels, 0, False)
    return dict(choices)[choice] if ok else None
