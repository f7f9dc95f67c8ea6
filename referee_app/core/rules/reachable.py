"""The boards a game can reach under a ruleset: the one definition `rule` (and through it the
match, `replay`, the window's what-if board), the verifier's representatives and so the quiz
all keep to.

What any board forbids (coins that are not there, a due owed beside a coin that would have paid
it, a break on a board already played, the queen where it is not) is checked as a situation is
read (situation.impossibility); here each gets the clause the ruleset gives it (the coins a set
holds: the `coins` mechanic, or nine a side said as an assumption where the text never counts
them; a due: the clause that pays it). Then the ruleset's own bounds are added, each read from
the knowledge base with the clause that sets it:

- the score against the game's end: no stroke is played once a side has reached `game_points`,
  nor past what `game_boards` boards of at most `board_cap` points can give;
- the break against what has been pocketed: the break opens the board, so a break attempt never
  follows a coin of the striking side pocketed (a break not made puts back what it pocketed);
- the queen against the coins: a queen covered by a side that never pocketed a coin, or awaiting
  the cover of a side whose ruleset sends back a queen pocketed before its first coin.

A refusal names the field and the clauses (`Unreachable.refusal`); where a bound rests on an
assumption (the text being silent), its reason is said too. `result_most` bounds a game's final
score the same way, for the tournament desk.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from referee_app.core.errors import BadInput
from .engine import Board, CompiledRuleset
from .situation import Situation, impossibility, parse

if TYPE_CHECKING:
    from collections.abc import Iterable


class UnreachableBoard(BadInput):
    """A board no game under the ruleset reaches: the field, and the clauses that say so (the
    window cites them in the reader's words), with the assumptions made where the text is silent."""

    def __init__(self, field: str, problem: str, clauses: tuple = (), assumptions: tuple = ()):
        cited = f" ({', '.join(clauses)})" if clauses else ""
        assumed = "".join(f"; assumed where the text is silent: {a.get('en', '')}" for a in assumptions)
        super().__init__(field, f"{problem}{cited}{assumed}")
        self.clauses, self.assumptions = tuple(clauses), tuple(assumptions)


class Unreachable(NamedTuple):
    """Why no game under the ruleset reaches a board: the field, the problem, the clauses."""

    field: str
    problem: str
    clauses: tuple = ()
    assumptions: tuple = ()   # the reasons (fr/it/en) of what is assumed where the text is silent

    def refusal(self) -> UnreachableBoard:
        return UnreachableBoard(self.field, self.problem, self.clauses, self.assumptions)


class GameEnd(NamedTuple):
    """What a game's end leaves possible before any stroke of it (`game_end`)."""

    most: int | None          # the most points a side holds (None: no bound)
    clauses: tuple
    level_goes_on: bool       # sides level at or past `most` still play (both score on a board)
    total: int | None         # the most points both sides hold together (None: no bound)
    total_clauses: tuple
    why: str                  # the bound in words, for the refusal


_GAME_END_PARAMETERS = ("game_points", "game_boards", "board_cap", "tie_break")


def _loser_scores(rs: CompiledRuleset) -> bool:
    return any(isinstance(b, Board) and b.loser_terms for b in (r.then.get("board") for r in rs.rules))


def game_end(rs: CompiledRuleset) -> GameEnd:
    """The score bounds the ruleset's game sets (parameters.yaml: game_points, game_boards,
    board_cap, tie_break), with their clauses."""
    p, c = rs.params, rs.param_clauses
    target, boards, cap = p.get("game_points"), p.get("game_boards"), p.get("board_cap")
    loser_scores = _loser_scores(rs)
    total: int | None = None
    total_clauses: tuple = ()
    # Only the winner scores, at most `cap` a board, and no board follows the last one: the sides
    # hold together at most what the boards before the last gave.
    if boards is not None and cap is not None and not loser_scores and p.get("tie_break") != "extra_board":
        total, total_clauses = (boards - 1) * cap, (c["game_boards"], c["board_cap"])
    if target is not None:
        return GameEnd(target - 1, (c["game_points"],), loser_scores, total, total_clauses,
                       f"the game ends when a side reaches {target} points")
    if boards == 1:
        return GameEnd(0, (c["game_boards"],), False, None, (), "a game is one board, played from 0 points")
    if boards is not None and cap is not None:
        return GameEnd((boards - 1) * cap, (c["game_boards"], c["board_cap"]), False, total, total_clauses,
                       f"a game lasts {boards} boards of at most {cap} points")
    return GameEnd(None, (), False, None, (), "")


def _score(rs: CompiledRuleset, s: Situation) -> Unreachable | None:
    if not (s.score_striker or s.score_opponent):
        return None   # every game starts at 0-0
    end = game_end(rs)
    level = s.score_striker == s.score_opponent
    for side, value in (("striker", s.score_striker), ("opponent", s.score_opponent)):
        if end.most is not None and value > end.most and not (end.level_goes_on and level):
            return Unreachable(f"before.score.{side}", f"{value}: {end.why}, so no stroke is played with a side "
                               f"at more than {end.most}", end.clauses, _assumed(rs, end.clauses))
    if end.total is not None and s.score_striker + s.score_opponent > end.total:
        return Unreachable("before.score", f"{s.score_striker}-{s.score_opponent}: only a board's winner scores, "
                           f"so the boards before the last give both sides {end.total} points at most",
                           end.total_clauses, _assumed(rs, end.total_clauses))
    return None


def _assumed(rs: CompiledRuleset, clauses: Iterable[str]) -> tuple:
    """The reasons of the parameters behind `clauses` that the ruleset assumes (its text silent)."""
    return tuple(rs.assumptions[name] for name, clause in rs.param_clauses.items()
                 if clause in clauses and name in rs.assumptions and name in _GAME_END_PARAMETERS)


def _break_clauses(rs: CompiledRuleset) -> tuple:
    """The clauses saying when the break is made: the first stroke touching a coin makes it."""
    return tuple(dict.fromkeys(r.clause for r in rs.rules if r.then.get("break_made") is True
                               and {t.fact for t in r.tests} <= {"break", "touched_coin"}))


def _break(rs: CompiledRuleset, s: Situation) -> Unreachable | None:
    if s.break_ and s.own_pocketed_earlier:
        return Unreachable("before.own_pocketed_earlier",
                           "true on a break attempt: the break opens the board and a break not made puts back "
                           "what it pocketed, so no coin of the striking side has been pocketed yet",
                           _break_clauses(rs))
    return None


def _queen_too_early_clauses(rs: CompiledRuleset) -> tuple:
    """The clauses sending back a queen pocketed before the side's first coin (none: it stays)."""
    return tuple(dict.fromkeys(
        r.clause for r in rs.rules
        if r.then.get("queen") == "on_board"
        and any(t.fact == "own_pocketed_earlier" and t(False) and not t(True) for t in r.tests)
        and any(t.fact == "queen_pocketed" and t(True) for t in r.tests)))


def _queen(rs: CompiledRuleset, s: Situation) -> Unreachable | None:
    # Only a side's word that it has pocketed no coin (own_pocketed_earlier: false) tells: a side
    # back at nine coins may have paid a due with the coin that covered the queen.
    if s.own_pocketed_earlier is not False:
        return None
    if s.queen == "covered_by_striker":
        return Unreachable("before.queen", "covered_by_striker, yet the striking side has pocketed no coin "
                           "(before.own_pocketed_earlier: false): covering the queen is pocketing one")
    if s.queen == "awaiting_cover":
        clauses = _queen_too_early_clauses(rs)
        if clauses:
            return Unreachable("before.queen", "awaiting_cover, yet the striking side has pocketed no coin "
                               "(before.own_pocketed_earlier: false): a queen pocketed before the side's first "
                               "coin goes back", clauses)
    return None


_RULESET_CHECKS = (_score, _break, _queen)


def _dues_clauses(rs: CompiledRuleset) -> tuple:
    clause = rs.mechanics.get("dues_paid") or rs.mechanics.get("dues")
    return (clause,) if clause else ()


_COIN_FIELDS = {f"{part}.{side}" for part in ("before", "stroke.pocketed", "stroke.off_board")
                for side in ("own", "opponent")} | {"before.own_on_board", "before.opponent_on_board"}
# A ruleset whose text never says how many coins a set holds (no `coins` mechanic) is read with
# the nine a side every other text prints; a refusal resting on it says so.
NINE_ASSUMED = {"en": "the text does not say how many coins a set holds; nine a side, as the other texts say",
                "fr": "le texte ne dit pas combien de jetons compte un jeu ; neuf par camp, comme les autres textes",
                "it": "il testo non dice quante pedine conta un gioco; nove per parte, come dicono gli altri testi"}


def _mechanical(rs: CompiledRuleset, field: str, problem: str) -> Unreachable:
    """What any board forbids, with the clause the ruleset gives it: the coins a set holds, the
    due paid by the first coin pocketed."""
    if field in ("before.dues", "before.opponent_dues"):
        return Unreachable(field, problem, _dues_clauses(rs))
    # more coins than the set holds; more pocketed than were on the board is no clause's, but the board's
    if field in _COIN_FIELDS and (field.endswith("_on_board") or "out of range" in problem):
        clause = rs.mechanics.get("coins")
        return Unreachable(field, problem, (clause,) if clause else (), () if clause else (NINE_ASSUMED,))
    return Unreachable(field, problem)


def unreachable(rs: CompiledRuleset, s: Situation) -> Unreachable | None:
    """Why no game under `rs` reaches the board and stroke of `s`, or None when one can."""
    found = impossibility(s, rs.allow_empty_side)
    if found:
        return _mechanical(rs, *found)
    for check in _RULESET_CHECKS:
        why = check(rs, s)
        if why:
            return why
    return None


def situation(rs: CompiledRuleset, doc) -> Situation:
    """A situation document read under `rs`, refused (BadInput naming the field and the clauses)
    unless a game under the ruleset can reach it."""
    try:
        s = parse(doc, rs.ruleset.id, set(rs.fouls), rs.allow_empty_side)
    except BadInput as exc:
        cited = _mechanical(rs, exc.field, exc.problem)
        if cited.clauses or cited.assumptions:
            raise cited.refusal() from None
        raise
    why = unreachable(rs, s)
    if why:
        raise why.refusal()
    return s


# --- a game's result ---------------------------------------------------------------------------

class ResultMost(NamedTuple):
    """The most points a side ends a game with, and the clauses bounding one board's."""

    points: int
    board: int
    clauses: tuple


def result_most(rs: CompiledRuleset, end: int) -> ResultMost | None:
    """The most points a side ends a game played to `end` points with: one short of `end`, then
    the most one board gives (`board_cap`). None where nothing bounds it: no cap, or sides level
    past the end playing on (where both score on a board)."""
    cap = rs.params.get("board_cap")
    if cap is None or _loser_scores(rs):
        return None
    return ResultMost(end - 1 + cap, cap, (rs.param_clauses["board_cap"],))
