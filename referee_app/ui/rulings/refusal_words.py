"""Why a stroke cannot be ruled, in the referee's language. The core refuses in English for the
command line, naming the field; the window says the same thing from that field, translated."""
from __future__ import annotations

from referee_app.core.errors import BadInput
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from .citation import human_citation


def refusal_text(knowledge, exc: Exception, ruleset: str, foul: str | None = None) -> str:
    if not isinstance(exc, BadInput) or exc.problem.startswith("the rules leave this stroke undecided"):
        # NoRule or Conflict as the engine raises them; as the match's game says them (Game.preview)
        return _("The rules leave this stroke undecided: no clause, or two that disagree, decide it.")
    field, problem = exc.field, exc.problem
    if field == "match":
        return problem  # said by the window itself, already translated
    if field.startswith("stroke.pocketed.") and field.rsplit(".", 1)[-1] in ("own", "opponent"):
        return _("More coins are ticked as pocketed than were on the board.")
    if field.startswith("stroke.off_board.") and field.rsplit(".", 1)[-1] in ("own", "opponent"):
        return _("More coins are ticked as off the board than were still on it.")
    if field.endswith(".queen") and field.startswith("stroke."):
        if "both" in problem:
            return _("The queen cannot both be pocketed and leave the board.")
        return _("The queen is no longer on the board.")
    if field == "stroke.off_board.striker":
        return _("The striker cannot both be pocketed and leave the board.")
    if field == "stroke.touched_coin":
        return _("Coins were pocketed or knocked off, so the striker touched a coin: tick it.")
    if field == "stroke.foul" and getattr(exc, "code", None) == "unknown_foul":
        values = exc.values
        return _("“{foul}” is not a foul under {ruleset}.").format(
            foul=knowledge.foul_name(ruleset, str(values.get("foul")), current_language()),
            ruleset=knowledge.ruleset_name(values.get("ruleset") or ruleset, current_language()))
    if field == "stroke.foul" and foul:
        name = knowledge.foul_name(ruleset, foul, current_language())
        return _("“{foul}” cannot be called on this stroke as ticked: a foul outside the stroke, or one that "
                 "only happens on the break, is recorded on its own entry with nothing pocketed.").format(foul=name)
    if field.startswith("before."):
        board = _unreachable_board(knowledge, exc, field)
        if board:
            return board
    if "deciding strokes" in problem:
        return _("The game is level after its last board: record the deciding strokes.")
    return _("This stroke cannot be ruled as ticked (the sheet says: {field}).").format(field=field)


def _unreachable_board(knowledge, exc: BadInput, field: str) -> str | None:
    """A board set by hand that no game reaches (core/rules/reachable.py), with the clauses saying so."""
    kb = knowledge.kb
    cited = ", ".join(human_citation(kb, c) for c in getattr(exc, "clauses", ()) if c in kb.clauses)
    assumed = " ".join(a.get(current_language()) or a.get("en", "") for a in getattr(exc, "assumptions", ()))
    if field == "before.score":
        text = _("No game reaches these two scores together under these rules: only a board's winner scores, "
                 "and the boards before the last cannot give that much ({clauses}).").format(clauses=cited)
    elif field.startswith("before.score."):
        text = _("No game reaches this score under these rules: the game would already be over "
                 "({clauses}).").format(clauses=cited)
    elif field in ("before.dues", "before.opponent_dues"):
        text = _("A due is paid with the first coin the side pockets: a side with coins in the pockets owes "
                 "none ({clauses}).").format(clauses=cited)
    elif field == "before.break":
        text = _("The break opens the board: all the coins and the queen are on it.")
    elif cited:
        text = _("No game reaches this board under these rules (the sheet says: {field}; {clauses}).").format(
            field=field, clauses=cited)
    else:
        return None
    return f"{text} {assumed}".strip()


def match_refusal(knowledge, exc: Exception, ruleset: str) -> str:
    """A refusal of the match's records or of its sheet as a whole (a correction, a change of ruleset,
    a stroke the records refuse, a table's sheet), in the referee's language: a stroke the sheet
    cannot hold any more is said by its number and, as above, from its field; the others as the
    window says any refusal of the core (ui/common/refusal_words.py)."""
    from referee_app.ui.common.refusal_words import said

    values = getattr(exc, "values", None) or {}
    if isinstance(exc, BadInput) and "stroke" in values and "field" in values:
        inner = BadInput(values["field"], exc.problem, exc.code, values)
        for kept in ("clauses", "assumptions"):
            if hasattr(exc, kept):
                setattr(inner, kept, getattr(exc, kept))
        return _("Stroke {n}: {why}").format(n=values["stroke"], why=refusal_text(knowledge, inner, ruleset))
    return said(exc, knowledge)
