"""The line above the stroke form: which game and board, who plays, the score, the queen, the
colours, the dues, in the referee's language (what the session's match says, told in words)."""
from __future__ import annotations

from referee_app.core.rules.colours import colour_name
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from .ruling_view import queen_text


def other(side: str) -> str:
    return "second" if side == "first" else "first"


def status_text(session, first: str, second: str, what_if: bool) -> str:
    if what_if:
        return _("What if: this stroke is ruled but not recorded.")
    match, game = session.match, session.entry_game()
    st = game.state
    name = {"first": first, "second": second}
    queen = queen_text(st.queen_for(st.turn), name[st.turn], name[other(st.turn)])
    won = match.games_won
    if match.over:
        text = _("Match over: {winner} wins {a}–{b} in games").format(
            winner=name[match.winner], a=won["first"], b=won["second"])
    elif game.colours_by_first_coin:
        text = _("Game {g}, board {b}: {side} to play. {colours} Score {a}–{c}. Queen: {queen}.").format(
            g=len(match.games), b=len(game.boards), side=name[st.turn], colours=colours_text(game, name),
            a=game.score["first"], c=game.score["second"], queen=queen)
    else:
        white = st.breaker
        text = _("Game {g}, board {b}: {side} to play. {white} has the white coins. Score {a}–{c}. "
                 "Coins on the board: {w} white, {k} black. Queen: {queen}.").format(
            g=len(match.games), b=len(game.boards), side=name[st.turn], white=name[white],
            a=game.score["first"], c=game.score["second"], w=st.coins[white], k=st.coins[other(white)], queen=queen)
    if not match.over:
        if match.doubles:
            text += " " + _("Seat {n} (the seats go round to the right).").format(n=st.seat + 1)
        if game.tie_breaker_due:
            text = _("Game {g} is level after its last board: record the deciding strokes.").format(
                g=len(match.games))
        if st.dues["first"] or st.dues["second"]:
            text += " " + _("Dues: {a} {x}, {b} {y}.").format(a=first, x=st.dues["first"], b=second, y=st.dues["second"])
    if session.correcting:
        text = _("Correcting stroke {n} (Escape to cancel). ").format(n=session.correcting) + text
    return text


def open_colour_names(game) -> tuple[str, str] | None:
    """The light and dark coins as the ruleset's text names them, while the first coin is to set them."""
    if not game.colours_open():
        return None
    lang, colours = current_language(), game.knowledge.colours(game.ruleset)
    return colour_name(colours, "light", lang, True), colour_name(colours, "dark", lang, True)


def colours_text(game, name: dict) -> str:
    """Each side's colour by its name in the source, or that no coin has set them yet."""
    st = game.state
    if st.colours is None:
        return _("Colours not yet decided: the first coin pocketed sets them.")
    if not st.colours:
        return _("Colours set before the board (strokes recorded as own and opponent coins).")
    lang = current_language()
    return _("{a} plays the {ca} coins ({x} on the board), {b} the {cb} coins ({y}).").format(
        a=name["first"], ca=colour_name(game.knowledge.colours(game.ruleset), st.colours["first"], lang, True), x=st.coins["first"],
        b=name["second"], cb=colour_name(game.knowledge.colours(game.ruleset), st.colours["second"], lang, True), y=st.coins["second"])
