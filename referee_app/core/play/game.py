"""The score sheet: a game played stroke by stroke through the rulings engine.

Sides are `first` (who breaks the first board) and `second`. Each stroke is ruled from the
striking side's point of view, exactly as `carrom-referee rule` does, and the answer is
carried back onto the board. Who breaks each board, who holds the turn and when the game ends
follow from the ruleset's parameters (icf-fr 3.5 g-h, 3.7 e; it 26, 38; aicf-2009 1).
Replaying from the recorded strokes is cheap, so undo and correction simply replay.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput
from referee_app.core.rules import colours as colour_rules
from referee_app.core.rules.engine import CompiledRuleset, Conflict, NoRule
from referee_app.core.rules.ruling import rule, ruleset_of
from referee_app.core.rules.situation import COINS_PER_SIDE

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

SIDES = ("first", "second")


def other(side: str) -> str:
    return "second" if side == "first" else "first"


@dataclass(eq=False)   # compared by nobody: docs/architecture.md, Start-up
class BoardState:
    """Where a board stands between strokes: whose turn, coins, dues, the queen, colours."""

    breaker: str
    turn: str
    seat: int                        # whose seat strikes (0-3 in doubles, 0-1 in singles)
    coins: dict = field(default_factory=lambda: {s: COINS_PER_SIDE for s in SIDES})
    dues: dict = field(default_factory=lambda: {s: 0 for s in SIDES})
    queen: str = "on_board"          # on_board | awaiting_cover | covered
    queen_side: str | None = None    # who pocketed (awaiting) or covered it
    break_made: bool = False
    break_attempt: int = 1
    after_break: bool = False        # the next stroke is the one right after the break (it 71)
    strokes: int = 0
    # Each side's colour where the first coin pocketed sets it (light/dark); None while open;
    # {} once set by strokes that named coins own/opponent, without saying which colour.
    colours: dict | None = None

    def queen_for(self, side: str) -> str:
        if self.queen == "on_board":
            return "on_board"
        if self.queen == "awaiting_cover":
            return "awaiting_cover"
        return "covered_by_striker" if self.queen_side == side else "covered_by_opponent"

    def absolute_queen(self) -> str:
        if self.queen == "on_board":
            return "on_board"
        return f"{'awaiting_cover' if self.queen == 'awaiting_cover' else 'covered'}_by_{self.queen_side}"


@dataclass(eq=False, repr=False)   # compared and printed by nobody: docs/architecture.md, Start-up
class BoardRecord:
    """One board as played: its strokes, their rulings, its winner and points."""

    breaker: str
    strokes: list = field(default_factory=list)     # the stroke documents as entered
    rulings: list = field(default_factory=list)     # the ruling given for each
    winner: str | None = None
    points: dict = field(default_factory=lambda: {s: 0 for s in SIDES})
    clauses: list = field(default_factory=list)
    colours: dict | None = None


class GameOver(BadInput):
    pass


class Game:
    """One game of a match, kept stroke by stroke."""

    def __init__(self, knowledge: Knowledge, ruleset: str | None = None, doubles: bool = False,
                 first_breaker: str = "first"):
        ruleset = ruleset or knowledge.default_ruleset
        self.knowledge = knowledge
        self.rs: CompiledRuleset = knowledge.compiled(ruleset)
        self.ruleset = ruleset
        self.doubles = doubles
        self.seats = 4 if doubles else 2
        self.score = {s: 0 for s in SIDES}
        self.boards: list[BoardRecord] = []
        self.over = False
        self.winner: str | None = None
        self.first_breaker = first_breaker
        self.colours_by_first_coin = knowledge.colours(ruleset) is not None
        self.tie_breaker_due = False
        self.tie_break: dict | None = None
        self.state = self._new_board(first_breaker, 0)

    # --- parameters -------------------------------------------------------------------
    def _param(self, name):
        """A ruleset parameter (knowledge/parameters.yaml); None only where its absence has a meaning."""
        return self.rs.params.get(name)

    def side_of_seat(self, seat: int) -> str:
        # Partners sit face to face (icf-fr 3.1 b): seats 0 and 2 are one side, 1 and 3 the other.
        return SIDES[seat % 2] if self.first_breaker == "first" else SIDES[(seat + 1) % 2]

    def _new_board(self, breaker: str, seat: int) -> BoardState:
        self.boards.append(BoardRecord(breaker))
        return BoardState(breaker=breaker, turn=breaker, seat=seat)

    # --- play ---------------------------------------------------------------------------
    def colours_open(self) -> bool:
        return self.colours_by_first_coin and self.state.colours is None

    def _stroke_in_sides(self, stroke: dict) -> dict:
        """A stroke that names coins by colour once the colours are set, in own/opponent terms."""
        st, side = self.state, self.state.turn
        if not st.colours or not isinstance(stroke, dict):
            return stroke
        out = dict(stroke)
        for key in ("pocketed", "off_board"):
            pieces = stroke.get(key)
            if isinstance(pieces, dict) and ({"light", "dark"} & set(pieces)):
                if {"own", "opponent"} & set(pieces):
                    raise BadInput(f"stroke.{key}", "name the coins by colour or by side, not both")
                mine = st.colours[side]
                out[key] = {("own" if k == mine else "opponent") if k in ("light", "dark") else k: v
                            for k, v in pieces.items()}
        return out

    def situation_doc(self, stroke: dict) -> dict:
        side = self.state.turn
        opp = other(side)
        if self.colours_open() and not _names_sides(stroke):
            doc = self._situation(side, opp, stroke)
            doc["before"]["colours"] = "open"
            return doc
        return self._situation(side, opp, self._stroke_in_sides(stroke))

    def _situation(self, side: str, opp: str, stroke: dict) -> dict:
        st = self.state
        return {
            "before": {
                "own_on_board": st.coins[side], "opponent_on_board": st.coins[opp],
                "queen": st.queen_for(side), "break": not st.break_made, "break_attempt": st.break_attempt,
                "after_break": st.after_break,
                "dues": st.dues[side], "opponent_dues": st.dues[opp],
                "score": {"striker": self.score[side], "opponent": self.score[opp]},
            },
            "stroke": stroke,
        }

    def preview(self, stroke: dict, where: str = "", trace: bool = False) -> dict:
        """The ruling `play(stroke)` would record for the side holding the turn, the game left as
        it is: what the window shows before the referee confirms is what is then recorded (colours
        open or set). With `trace`, the same ruling with its derivation beside it (`trace`)."""
        prefix = f"{where}: " if where else ""
        if self.tie_breaker_due:
            raise BadInput(where or "stroke", "the game is level after its last board: deciding strokes, not a board")
        if self.over:
            raise GameOver(where or "stroke", f"the game is already over ({self.winner} won)")
        if not isinstance(stroke, dict):
            raise BadInput(where or "stroke", "a stroke must be a mapping like {pocketed: {own: 1}}")
        try:
            return rule(self.knowledge, self.situation_doc(stroke), self.ruleset, trace)
        except BadInput as exc:
            # the stroke's own field kept apart from `where`, with what the refusal cites: the
            # window says it from them (ui/rulings/refusal_words.py)
            raised = BadInput(f"{prefix}{exc.field}", exc.problem, exc.code, {**exc.values, "field": exc.field})
            for kept in ("clauses", "assumptions"):
                if hasattr(exc, kept):
                    setattr(raised, kept, getattr(exc, kept))
            raise raised from None
        except (NoRule, Conflict) as exc:
            raise BadInput(f"{prefix}stroke", f"the rules leave this stroke undecided: {exc}", "undecided",
                           {"field": "stroke"}) from None

    def play(self, stroke: dict, where: str = "") -> dict:
        """Rules one stroke of the side holding the turn and carries the ruling out."""
        ruling = self.preview(stroke, where)
        self._carry_out(stroke, ruling)
        return ruling

    def _carry_out(self, stroke: dict, ruling: dict) -> None:
        st, side = self.state, self.state.turn
        opp = other(side)
        board = self.boards[-1]
        board.strokes.append(stroke)
        board.rulings.append(ruling)
        st.strokes += 1
        after = ruling["after"]
        if "striker_colour" in after:
            mine = after["striker_colour"]
            st.colours = {s: mine if s == side else colour_rules.other_colour(mine) for s in SIDES}
            board.colours = dict(st.colours)
        elif self.colours_open() and _names_sides(stroke):
            st.colours = {}   # the score sheet names sides, not colours: the colours are taken as set
        st.coins[side], st.coins[opp] = after["own_on_board"], after["opponent_on_board"]
        st.dues[side], st.dues[opp] = after["dues"], after["opponent_dues"]
        q = after["queen"]
        if q == "on_board":
            st.queen, st.queen_side = "on_board", None
        elif q == "awaiting_cover":
            st.queen, st.queen_side = "awaiting_cover", side
        else:
            st.queen, st.queen_side = "covered", side if q == "covered_by_striker" else opp
        st.after_break = not st.break_made and ruling["break_made"]
        if not st.break_made:
            st.break_made = ruling["break_made"]
            if not st.break_made:
                st.break_attempt = st.break_attempt + 1 if ruling["turn"] == "continues" else \
                    self._first_attempt_after_failure()
        if ruling["board"]["over"]:
            self._end_board(ruling, side)
        elif ruling["turn"] == "passes":
            st.seat = (st.seat + 1) % self.seats   # the turn passes to the right (it 29)
            st.turn = opp

    def _end_board(self, ruling: dict, side: str) -> None:
        board, opp = self.boards[-1], other(side)
        pts = ruling["board"]["points"]
        winner = side if ruling["board"]["winner"] == "striker" else opp
        board.winner = winner
        board.points = {side: pts["striker"], opp: pts["opponent"]}
        board.clauses = list(ruling["clauses"])
        for s in SIDES:
            self.score[s] += board.points[s]
        target, boards = self._param("game_points"), self._param("game_boards")
        leader = max(SIDES, key=lambda s: self.score[s])
        tied = self.score["first"] == self.score["second"]
        if self._param("game_winner") == "board_winner" and boards is not None and len(self.boards) >= boards:
            self.over, self.winner = True, winner   # the last board's winner takes the game (carom-bi 8.5)
        elif target is not None and self.score[leader] >= target and not tied:
            self.over, self.winner = True, leader
        elif boards is not None and len(self.boards) >= boards and not tied:
            self.over, self.winner = True, leader
        elif boards is not None and len(self.boards) >= boards and self._param("tie_break") == "strokes":
            self.tie_breaker_due = True  # no further board: deciding strokes (aicf-2009 17-20)
            return
        if not self.over:
            # The break alternates from board to board, to the right in doubles (icf-fr 3.5 g-h):
            # `board_break: alternate`, the only way parameters.yaml knows.
            next_seat = (self._breaker_seat() + 1) % self.seats
            self.state = self._new_board(self.side_of_seat(next_seat), next_seat)

    def tie_breaker(self, first: list | None, second: list | None, where: str = "tie_breaker") -> str:
        """Settles a tie with deciding strokes: each side's attempts, True for a coin pocketed.

        The first `tie_break_chances` attempts of each side are counted; if still equal, the
        attempts that follow go in pairs until one side pockets and the other does not
        (aicf-2009 17 and 20). Returns the winner."""
        if not self.tie_breaker_due:
            raise BadInput(where, "there is no tie to break: the game is not level after its last board")
        for name, tries in (("first", first), ("second", second)):
            if not isinstance(tries, list) or not all(isinstance(t, bool) for t in tries):
                raise BadInput(f"{where}.{name}", "expected a list of true (pocketed) or false (missed)")
        assert first is not None and second is not None  # lists: checked just above
        n = int(self._param("tie_break_chances"))
        if len(first) < n or len(second) < n:
            raise BadInput(where, f"each side has {n} chances before sudden death; "
                           f"got {len(first)} and {len(second)}")
        hits = {"first": sum(first[:n]), "second": sum(second[:n])}
        winner = None
        if hits["first"] != hits["second"]:
            winner = max(hits, key=hits.__getitem__)
        else:
            for a, b in zip(first[n:], second[n:]):
                if a != b:
                    winner = "first" if a else "second"
                    break
        if winner is None:
            raise BadInput(where, "still level: sudden death goes on until one side pockets and the other misses")
        self.tie_breaker_due, self.over, self.winner = False, True, winner
        self.tie_break = {"first": list(first), "second": list(second), "winner": winner}
        return winner

    def _first_attempt_after_failure(self) -> int:
        """The attempt number the next side starts at once the break has failed: it has
        `break_attempts_after_failure` attempts left of `break_attempts` (one at a time under
        icf-fr 3.5 d, the full three under it 21)."""
        return self._param("break_attempts") - self._param("break_attempts_after_failure") + 1

    def _breaker_seat(self) -> int:
        return (len(self.boards) - 1) % self.seats

    # --- where the game stands, as stored beside its last stroke --------------------------
    def snapshot(self) -> dict:
        """What the next stroke is ruled on (the board's state, the score, the boards played with
        their winners), without the strokes: its size grows with the boards, not the strokes.
        `Game.restored` gives back a game that plays on exactly as this one does."""
        st = self.state
        return {"first_breaker": self.first_breaker, "score": dict(self.score), "over": self.over,
                "winner": self.winner, "tie_breaker_due": self.tie_breaker_due, "tie_break": self.tie_break,
                "boards": [{"breaker": b.breaker, "winner": b.winner, "points": dict(b.points),
                            "clauses": list(b.clauses), "colours": b.colours}
                           for b in self.boards],
                "state": {"breaker": st.breaker, "turn": st.turn, "seat": st.seat, "coins": dict(st.coins),
                          "dues": dict(st.dues), "queen": st.queen, "queen_side": st.queen_side,
                          "break_made": st.break_made, "break_attempt": st.break_attempt,
                          "after_break": st.after_break, "strokes": st.strokes,
                          "colours": None if st.colours is None else dict(st.colours)}}

    @classmethod
    def restored(cls, knowledge: Knowledge, ruleset: str, doubles: bool, doc: dict) -> "Game":
        """The game a `snapshot` describes (its boards hold no strokes: they were not kept)."""
        game = cls(knowledge, ruleset, doubles, doc["first_breaker"])
        game.score = {s: int(doc["score"][s]) for s in SIDES}
        game.over, game.winner = bool(doc["over"]), doc["winner"]
        game.tie_breaker_due, game.tie_break = bool(doc["tie_breaker_due"]), doc["tie_break"]
        game.boards = [BoardRecord(b["breaker"], winner=b["winner"], points=dict(b["points"]),
                                   clauses=list(b["clauses"]), colours=b["colours"]) for b in doc["boards"]]
        st = doc["state"]
        game.state = BoardState(breaker=st["breaker"], turn=st["turn"], seat=int(st["seat"]), coins=dict(st["coins"]),
                                dues=dict(st["dues"]), queen=st["queen"], queen_side=st["queen_side"],
                                break_made=bool(st["break_made"]), break_attempt=int(st["break_attempt"]),
                                after_break=bool(st["after_break"]), strokes=int(st["strokes"]),
                                colours=None if st["colours"] is None else dict(st["colours"]))
        return game

    # --- reporting ----------------------------------------------------------------------
    def report(self) -> dict:
        out: dict = {
            "ruleset": self.ruleset,
            "boards": [{"breaker": b.breaker, "winner": b.winner, "points": dict(b.points),
                        "strokes": len(b.strokes), "clauses": b.clauses,
                        **({"colours": b.colours} if b.colours else {})} for b in self.boards
                       if b.strokes or b is not self.boards[-1] or self.over],
            "score": dict(self.score),
            "game": {"over": self.over, "winner": self.winner},
        }
        if self.tie_break:
            out["game"]["tie_breaker"] = self.tie_break
        if self.tie_breaker_due:
            out["game"]["tie_breaker_due"] = True
        if not self.over:
            st = self.state
            out["next"] = {"board": len(self.boards), "breaker": st.breaker, "turn": st.turn,
                           "board_state": {"first_on_board": st.coins["first"], "second_on_board": st.coins["second"],
                                           "queen": st.absolute_queen(), "first_dues": st.dues["first"],
                                           "second_dues": st.dues["second"]}}
            if self.doubles:
                out["next"]["seat"] = st.seat
            if self.colours_by_first_coin:
                out["next"]["colours"] = "open" if st.colours is None else (dict(st.colours) or "set")
        return out


def _names_sides(stroke) -> bool:
    """Whether a stroke names its coins own/opponent (the colours are then taken as set)."""
    if not isinstance(stroke, dict):
        return False
    return any(isinstance(stroke.get(k), dict) and {"own", "opponent"} & set(stroke[k])
               for k in ("pocketed", "off_board"))


def replay(knowledge: Knowledge, doc) -> dict:
    """The contract's `replay`: whole boards as a score sheet records them."""
    if not isinstance(doc, dict):
        raise BadInput("replay", "expected a mapping with 'ruleset' and 'boards'")
    for key in doc:
        if key not in {"ruleset", "boards", "doubles", "tie_breaker"}:
            raise BadInput(key, "unknown field (known: ruleset, boards, doubles, tie_breaker)")
    ruleset = ruleset_of(knowledge, doc, None)
    boards = doc.get("boards")
    if not isinstance(boards, list):
        raise BadInput("boards", "expected a list of boards, each a list of strokes")
    game = Game(knowledge, ruleset, doubles=bool(doc.get("doubles", False)))
    for i, strokes in enumerate(boards, 1):
        if not isinstance(strokes, list):
            raise BadInput(f"board {i}", "expected a list of strokes")
        if game.tie_breaker_due:
            raise BadInput(f"board {i}", "the game is level after its last board: deciding strokes, not a board "
                           "(give them as tie_breaker)")
        if i > 1 and len(game.boards) < i and not game.over:
            raise BadInput(f"board {i}", f"board {i - 1} did not end, so no board can follow it")
        for j, stroke in enumerate(strokes, 1):
            if game.over:
                raise GameOver(f"board {i}, stroke {j}", f"the game is already over ({game.winner} won)")
            if len(game.boards) > i:
                raise BadInput(f"board {i}, stroke {j}", f"board {i} is already over after stroke {j - 1}")
            game.play(stroke, f"board {i}, stroke {j}")
    if "tie_breaker" in doc:
        tb = doc["tie_breaker"]
        if not isinstance(tb, dict):
            raise BadInput("tie_breaker", "expected {first: [true, false, ...], second: [...]}")
        game.tie_breaker(tb.get("first"), tb.get("second"))
    return game.report()
