"""The ruling at a glance: who plays, what goes back, the queen, dues, the result, the clauses.

Clauses are cited as people cite them ("ICF 3.12 a") and are links, reached with Tab and opened
with Enter as well as by a click: the clause's text opens in a panel under the ruling, so the
Rulings stay in view; from there the Rulebook is one more key away (`open_clause`).
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QTextBrowser, QVBoxLayout, QWidget

from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui import theme
from referee_app.ui.common.rich_text import escape
from .citation import clause_tooltip, human_citation
from referee_app.ui.common.accessible import announce, plain
from referee_app.ui.common.accessible import name as accessible_name


def _note_heading(note: dict) -> str:
    """A note resting on the project's reading of a text that leaves the point open says so, so
    that the referee never takes the project's interpretation for the text's own words."""
    return _("Interpretation") if note.get("reading") else _("Note")


class RulingView(QWidget):
    open_clause = Signal(str)

    def __init__(self, knowledge, parent=None):
        """`knowledge`: the knowledge root whose clauses the rulings cite."""
        super().__init__(parent)
        self.knowledge = knowledge
        self.setObjectName("ruling_view")
        self.recorded = QLabel(objectName="ruling_recorded")   # "Stroke 12 recorded": whose ruling this is
        self.recorded.hide()
        self.headline = QLabel(objectName="ruling_headline")
        theme.keep_scaled(self.headline, 1.6, bold=True)  # large type enlarges the ruling too
        self.headline.setWordWrap(True)
        self.details = _text("ruling_details", Qt.TextInteractionFlag.TextBrowserInteraction
                             | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.details.linkActivated.connect(self._link)
        self.details.linkHovered.connect(self._hovered)
        # the notes (a reading the project makes, what the text leaves open) under the why, apart
        # from it: on a small screen in large type a long note scrolls, the ruling and its why never
        self.notes = _text("ruling_notes", Qt.TextInteractionFlag.TextSelectableByMouse
                           | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.notes.hide()
        body = QWidget()
        inner = QVBoxLayout(body)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.recorded)
        inner.addWidget(self.headline)
        inner.addWidget(self.details)
        inner.addWidget(self.notes)
        inner.addStretch(1)
        self.scroll = QScrollArea(objectName="ruling_scroll")  # only a very long note ever scrolls
        self.scroll.setWidget(body)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # the clause panel: the cited text beside the ruling, never instead of it
        self.clause_panel = QFrame(objectName="clause_panel")
        self.clause_panel.setFrameShape(QFrame.Shape.StyledPanel)
        self.clause_text = QTextBrowser(objectName="clause_text")
        self.clause_text.setOpenLinks(False)
        self.clause_text.setMaximumHeight(180)
        self.to_rulebook = QPushButton(objectName="clause_in_rulebook")
        self.to_rulebook.clicked.connect(lambda: self._clause and self.open_clause.emit(self._clause))
        self.close_clause = QPushButton(objectName="close_clause")
        self.close_clause.clicked.connect(self.hide_clause)
        panel = QVBoxLayout(self.clause_panel)
        panel.setContentsMargins(4, 4, 4, 4)
        panel.addWidget(self.clause_text)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.to_rulebook)
        row.addWidget(self.close_clause)
        panel.addLayout(row)
        self.clause_panel.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.clause_panel)
        self._ruling = None
        self._error = None
        self._sides = None
        self._recorded: int | None = None
        self._clause: str | None = None
        self._answer = False
        self._why_not: dict[str, str] = {}

    @property
    def kb(self):
        return self.knowledge.kb   # read when a ruling is first shown, after the window's first paint

    def sizeHint(self) -> QSize:
        """As tall as the ruling it shows: the board diagram under it takes only the room left
        (ui/rulings/area_layout.py), never the lines of the ruling."""
        hint = super().sizeHint()
        body = self.scroll.widget()
        height = body.heightForWidth(max(body.width(), 200)) if body.hasHeightForWidth() else -1
        height = height if height > 0 else body.sizeHint().height()
        if self.clause_panel.isVisible():
            height += self.clause_panel.sizeHint().height()
        return QSize(hint.width(), height + 4)

    def _link(self, href: str) -> None:
        if href.startswith("whynot:"):
            self.show_clause(href.removeprefix("whynot:"), answer=True)
        else:
            self.show_clause(href.removeprefix("clause:"))

    def show_clause(self, clause_id: str, answer: bool = False) -> None:
        """The cited clause's text under the ruling, in the reader's language where translated;
        with `answer`, why that paragraph did not decide, above its text."""
        self._clause = clause_id
        self._answer = answer
        self.clause_panel.show()
        self.retranslate_panel()

    def _panel_html(self) -> str:
        said = self._why_not.get(self._clause, "") if self._answer else ""
        return (f"<p><b>{escape(said)}</b></p>" if said else "") + clause_tooltip(self.kb, self._clause)

    def hide_clause(self) -> None:
        self._clause = None
        self.clause_panel.hide()
        self.details.setFocus()

    def _hovered(self, href: str) -> None:
        clause = href.removeprefix("clause:").removeprefix("whynot:")
        said = self._why_not.get(clause, "") if href.startswith("whynot:") else ""
        self.details.setToolTip(((f"<p><b>{escape(said)}</b></p>" if said else "") + clause_tooltip(self.kb, clause))
                                if href else "")

    def retranslate_panel(self) -> None:
        accessible_name(self.clause_text, _("Text of the clause"))
        accessible_name(self.notes, _("Notes on the ruling"))
        self.to_rulebook.setText(_("Open in the Rulebook"))
        self.close_clause.setText(_("Close"))
        if self._clause:
            self.clause_text.setHtml(self._panel_html())

    def show_ruling(self, ruling: dict, sides: tuple[str, str] | None = None, recorded: int | None = None) -> None:
        """`sides`: the names of the striking side and of its opponent, when the sheet knows them.
        `recorded`: the number of the stroke this ruling was recorded for, said above it."""
        self._ruling, self._error, self._sides, self._recorded = ruling, None, sides, recorded
        self.retranslate()
        self._announce()

    def show_error(self, message: str) -> None:
        self._ruling, self._error = None, message
        self.retranslate()
        self._announce()

    def _announce(self) -> None:
        """A ruling that changed is said to a screen reader at once (the headline's name changes,
        and an announcement carries it), without taking the focus from the stroke being ticked."""
        text = self.headline.text()
        if text == self.headline.accessibleName():
            return
        self.headline.setAccessibleName(text)
        self.headline.setAccessibleDescription(plain(self.details.text() + self.notes.text()))
        announce(self.headline, text)

    def retranslate(self) -> None:
        self.retranslate_panel()
        self.updateGeometry()   # its height follows the ruling shown (sizeHint)
        c = theme.colors()
        shown = self._error is None and self._ruling is not None and self._recorded is not None
        self.recorded.setVisible(shown)
        self.recorded.setText(_("✓ Stroke {n} recorded; tick the next stroke").format(n=self._recorded) if shown else "")
        if self._error is not None:
            self.headline.setText(_("Cannot rule this stroke"))
            self.details.setText(f"<p style='color:{c.accent}'>{escape(self._error)}</p>")
            self._set_notes("")
            return
        r = self._ruling
        if r is None:
            self.headline.setText(_("Tick what happened in the stroke"))
            self.details.setText("")
            self._set_notes("")
            return
        striker, opponent = self._sides or (_("the striking side"), _("the opponent"))
        self.headline.setText(_headline(r, striker, opponent))
        lang = current_language()
        why = r.get("why") or r["explanation"]  # the grounds alone; a stored older ruling has only the whole
        rows = _outcome_rows(r, striker, opponent, self._sides) + [(_("Why"), why.get(lang) or why["en"])]
        body = "".join(f"<tr><td style='color:{c.muted};padding-right:12px'>{escape(k)}</td>"
                       f"<td>{escape(v)}</td></tr>" for k, v in rows)
        body += self._citations_html(r, striker, opponent, c)
        notes = "".join(f"<p style='background:{c.mark_bg};padding:4px'>{escape(_note_heading(n))} "
                        f"({escape(human_citation(self.kb, n['clause']))}): {escape(n.get(lang) or n.get('en', ''))}</p>"
                        for n in r.get("notes", []))
        self.details.setText(f"<table>{body}</table>")
        self._set_notes(notes)

    def _set_notes(self, html: str) -> None:
        self.notes.setText(html)
        self.notes.setVisible(bool(html))

    def _citations_html(self, r: dict, striker: str, opponent: str, c) -> str:
        """The rows of the clauses cited and of the paragraphs set aside ("why not?")."""
        links = ", ".join(f"<a href='clause:{escape(cid)}' style='color:{c.link}'>"
                          f"{escape(human_citation(self.kb, cid))}</a>" for cid in r["clauses"])
        body = f"<tr><td style='color:{c.muted};padding-right:12px'>{escape(_('Clauses'))}</td><td>{links}</td></tr>"
        # "why not?": one short link per paragraph set aside; its answer opens with its text below
        why_not = why_not_lines(self.kb, r.get("trace") or {}, striker, opponent)
        self._why_not = {other: f"{question} {answer}" for other, question, answer in why_not}
        if why_not:
            items = ", ".join(f"<a href='whynot:{escape(other)}' style='color:{c.link}'>"
                              f"{escape(human_citation(self.kb, other))}</a>" for other, _q, _a in why_not)
            body += (f"<tr><td style='color:{c.muted};padding-right:12px'>{escape(_('Why not'))}</td>"
                     f"<td>{items}</td></tr>")
        return body



def _text(name: str, interaction) -> QLabel:
    """A part of the ruling in words: rich text that wraps, large type enlarges, and the keyboard
    and a screen reader reach (`interaction`: its links, or its text to select)."""
    label = QLabel(objectName=name)
    theme.keep_scaled(label, 1.1)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(interaction)
    label.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    return label

def _headline(r: dict, striker: str, opponent: str) -> str:
    """Who plays next, or who won the board."""
    board = r["board"]
    if board["over"]:
        winner = striker if board["winner"] == "striker" else opponent
        return _sentence(_("Board over: {winner} wins {points} to {other}").format(
            winner=winner, points=board["points"][board["winner"]],
            other=board["points"]["opponent" if board["winner"] == "striker" else "striker"]))
    if r["turn"] == "continues":
        return _sentence(_("{side} plays again").format(side=striker))
    return _sentence(_("Turn passes to {side}").format(side=opponent))


def _outcome_rows(r: dict, striker: str, opponent: str, sides: tuple[str, str] | None) -> list[tuple[str, str]]:
    """(label, value) of each part of the ruling a referee acts on; a board over only says the
    break. `sides`: the two names when the sheet knows them, None for "the striking side"."""
    rows = []
    if not r["board"]["over"]:
        back = _returned(r["returned"], striker, opponent)
        rows.append((_("Back to the centre"), ", ".join(back) if back else _("nothing")))
        after = r["after"]
        rows.append((_("On the board"), on_board_text(after, sides)))
        rows.append((_("Queen"), queen_text(after["queen"], striker, opponent)))
        if after["dues"] or after["opponent_dues"]:
            rows.append((_("Dues"), _sentence(_("{side} owes {n}").format(side=striker, n=after["dues"])
                         if after["dues"] else _("{side} owes {n}").format(side=opponent, n=after["opponent_dues"]))))
    if not r.get("break_made", True):
        rows.append((_("Break"), _("not made")))
    return rows


def _returned(ret: dict, striker: str, opponent: str) -> list[str]:
    back = []
    if ret["queen"]:
        back.append(_("the queen"))
    if ret["own"]:
        back.append(_("{n} coin(s) of {side}").format(n=ret["own"], side=striker))
    if ret["opponent"]:
        back.append(_("{n} coin(s) of {side}").format(n=ret["opponent"], side=opponent))
    return back


def _outcome(part: str, value, striker: str, opponent: str) -> str:
    """What a set-aside rule would have made of a part of the ruling, in words."""
    if part == "turn":
        return _("{side} would have played again").format(side=striker) if value == "continues" else \
            _("the turn would have passed to {side}").format(side=opponent)
    if part in ("after.queen", "returned.queen"):
        return _("the queen would have been: {state}").format(state=queen_text(value, striker, opponent))
    if part in ("board.winner", "board.points") and isinstance(value, dict):
        return _("the board would have gone to {side}").format(
            side=striker if value.get("winner") == "striker" else opponent)
    if part.startswith("returned."):
        return _("the pocketed coins would have gone back") if value == "returned" else \
            _("the pocketed coins would have stayed in")
    if part == "break_made":
        return _("the break would have counted as made") if value else _("the break would not have counted")
    return _("this part would have been ruled otherwise")


# The parts whose "why not?" a referee asks, in the order asked; the other parts follow from these.
WHY_NOT_PARTS = ("turn", "after.queen", "board.winner", "returned.own", "returned.opponent", "break_made")


def why_not_lines(kb, trace: dict, striker: str, opponent: str, most: int = 3) -> list[tuple[str, str, str]]:
    """(clause set aside, "Why not ICF 3.6 a?", the answer) for each paragraph that also applied
    and would have ruled a part otherwise: an exception overrode it, or it is a base case that
    gave way to a more specific paragraph (core/rules/derivation.py). One line per paragraph,
    definitions left out, `most` lines at most."""
    out, seen = [], set()
    for part in WHY_NOT_PARTS:
        for entry in trace.get(part, []):
            for o in entry.get("overridden", []):
                clause = kb.clauses.get(o["clause"])
                if (o.get("value") == entry.get("value") or o["clause"] in seen or o["clause"] == entry["clause"]
                        or (clause is not None and clause.kind == "definition")):
                    continue  # the same outcome, or said already, is no answer to "why not?"
                seen.add(o["clause"])
                by = human_citation(kb, entry["clause"])
                reason = (_("{clause} is an exception to it.") if o.get("how") == "exception"
                          else _("it gives way to the more specific {clause}.")).format(clause=by)
                out.append((o["clause"], _("Why not {clause}?").format(clause=human_citation(kb, o["clause"])),
                            _sentence(_outcome(part, o.get("value"), striker, opponent)) + "; " + reason))
    return out[:most]


def _sentence(text: str) -> str:
    """A sentence starts with a capital, whether it opens with a name or with "the opponent"."""
    return text[:1].upper() + text[1:]


def queen_text(state: str, striker: str, opponent: str) -> str:
    return {
        "on_board": _("on the board"),
        "awaiting_cover": _("to be covered by {side} with the next stroke").format(side=striker),
        "covered_by_striker": _("covered by {side}").format(side=striker),
        "covered_by_opponent": _("covered by {side}").format(side=opponent),
    }[state]


def on_board_text(after: dict, sides: tuple[str, str] | None) -> str:
    """The coins left on the board, each count after its side's name: no "of" before a name or a
    noun phrase, which French and Italian must contract ("de le", "di il")."""
    if sides is None:
        return _("striking side {own}, opponent {opp}").format(own=after["own_on_board"],
                                                               opp=after["opponent_on_board"])
    return _("{side} {own}, {other} {opp}").format(side=sides[0], own=after["own_on_board"],
                                                   other=sides[1], opp=after["opponent_on_board"])


def ruling_differences(before: dict, after: dict, lang: str, before_sides: tuple[str, str] | None = None,
                       after_sides: tuple[str, str] | None = None) -> list[str]:
    """What a referee sees change between two rulings of one stroke, one "old → new" line per
    change, none that reads the same on both sides. `*_sides`: (striker, opponent) by their names,
    each ruling's own (a correction may hand a later stroke to the other side); the counts are
    then said in one order, the first named first, so that a side changing strokes is no change."""
    order = before_sides or after_sides

    def in_order(sides: tuple[str, str], mine: int, theirs: int) -> tuple[str, int, str, int]:
        if order is not None and sides[0] != order[0]:
            return sides[1], theirs, sides[0], mine
        return sides[0], mine, sides[1], theirs

    def facets(r: dict, sides: tuple[str, str] | None) -> list[tuple[str, str]]:
        if "tie_breaker" in r:
            return [(_("Deciding strokes"), r["explanation"].get(lang) or r["explanation"]["en"])]
        striker, opponent = sides or (_("the striking side"), _("the opponent"))
        a, b = r["after"], r["board"]
        if sides:
            one, n, other, m = in_order(sides, a["dues"], a["opponent_dues"])
            dues = _("{side} {n}, {other} {m}").format(side=one, n=n, other=other, m=m)
            one, own, other, opp = in_order(sides, a["own_on_board"], a["opponent_on_board"])
            board = _("{side} {own}, {other} {opp}").format(side=one, own=own, other=other, opp=opp)
        else:
            dues, board = f"{a['dues']} / {a['opponent_dues']}", on_board_text(a, None)
        return [
            (_("Ruling"), r["explanation"].get(lang) or r["explanation"]["en"]),
            (_("On the board"), board),
            (_("Queen"), queen_text(a["queen"], striker, opponent)),
            (_("Dues"), dues),
            (_("Board"), _("{a} to {b}").format(a=b["points"]["striker"], b=b["points"]["opponent"])
             if b["over"] else _("goes on")),
        ]

    return [f"{name}: {old} → {new}" for (name, old), (_n, new)
            in zip(facets(before, before_sides), facets(after, after_sides)) if old != new]
