"""A match as the referee keeps it: games of boards of strokes, rebuilt by replaying the strokes.

The strokes as entered are the record; everything else (boards, scores, rulings) is derived by
replaying them, so an undo or a correction can never leave the sheet inconsistent.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput
from referee_app.i18n import translations
from referee_app.languages import LANGUAGES
from .game import Game, other

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

# The form of `Match.snapshot`: a stored snapshot of another form is not read (the sheet is replayed).
SNAPSHOT_VERSION = 1


@dataclass(eq=False, repr=False)   # compared and printed by nobody: docs/architecture.md, Start-up
class Match:
    """A match's strokes as entered and their rulings, replayed into its games."""

    knowledge: Knowledge
    ruleset: str = ""   # "": the knowledge base's default ruleset
    doubles: bool = False
    strokes: list = field(default_factory=list)      # every stroke as entered, in order
    rulings: list = field(default_factory=list)      # the ruling of each, as replayed
    games: list = field(default_factory=list)

    def __post_init__(self):
        self.ruleset = self.ruleset or self.knowledge.default_ruleset
        if not self.games:
            self.games = [Game(self.knowledge, self.ruleset, self.doubles, "first")]

    @property
    def game(self) -> Game:
        return self.games[-1]

    @property
    def games_won(self) -> dict:
        won = {"first": 0, "second": 0}
        for g in self.games:
            if g.over and g.winner:
                won[g.winner] += 1
        return won

    @property
    def over(self) -> bool:
        target = self.knowledge.compiled(self.ruleset).params.get("games_to_win_match")
        return target is not None and max(self.games_won.values()) >= target

    @property
    def winner(self) -> str | None:
        if not self.over:
            return None
        return max(self.games_won, key=self.games_won.__getitem__)

    def play(self, stroke: dict, where: str | None = None) -> dict:
        if self.over:
            raise BadInput(where or "stroke", f"the match is over ({self.winner} won)")
        n = len(self.strokes) + 1
        try:
            if isinstance(stroke, dict) and "tie_breaker" in stroke:
                ruling = self._tie_breaker(stroke["tie_breaker"], where or f"stroke {n}")
            else:
                ruling = self.game.play(stroke, where or f"stroke {n}")
        except BadInput as exc:
            exc.values.setdefault("stroke", n)   # which stroke of the sheet, for the window's words
            raise
        self.strokes.append(stroke)
        self.rulings.append(ruling)
        if self.game.over and not self.over:
            self.games.append(Game(self.knowledge, self.ruleset, self.doubles, self._next_game_breaker()))
        return ruling

    def _next_game_breaker(self) -> str:
        """Who breaks first in the next game: the break goes on alternating across games (icf-fr
        3.5 g), or each game opens with the other side from the last game's opening (it 27-28)."""
        if self.knowledge.compiled(self.ruleset).params.get("game_first_break") == "alternate_games":
            return other(self.game.first_breaker)
        return other(self.game.boards[-1].breaker)

    def _tie_breaker(self, attempts, where: str) -> dict:
        """Deciding strokes recorded like a stroke: {"tie_breaker": {"first": [...], "second": [...]}}."""
        if not isinstance(attempts, dict):
            raise BadInput(f"{where}.tie_breaker", "expected {first: [true, false, ...], second: [...]}")
        winner = self.game.tie_breaker(attempts.get("first"), attempts.get("second"), f"{where}.tie_breaker")
        return {"tie_breaker": dict(attempts), "winner": winner,
                "explanation": {lang: _tie_breaker_sentence(winner, lang) for lang in LANGUAGES}}

    def preview(self, stroke: dict, trace: bool = False) -> dict:
        """The ruling this stroke would get now, without recording it: what `play` would record
        (the game's `preview`; deciding strokes, and a match over, on a copy)."""
        if self.over or (isinstance(stroke, dict) and "tie_breaker" in stroke):
            return replayed(self.knowledge, self.ruleset, self.doubles, self.strokes).play(stroke)
        return self.game.preview(stroke, f"stroke {len(self.strokes) + 1}", trace)

    def undo(self) -> dict:
        if not self.strokes:
            raise BadInput("undo", "no stroke to undo")
        rebuilt = replayed(self.knowledge, self.ruleset, self.doubles, self.strokes[:-1])
        removed = self.strokes[-1]
        self.__dict__.update(rebuilt.__dict__)
        return removed

    def correction(self, index: int, stroke: dict) -> tuple["Match", list[dict]]:
        """The match with stroke `index` (0-based) replaced, and every later ruling that changes.

        Raises BadInput naming the stroke when the correction makes a later stroke impossible.
        """
        if not 0 <= index < len(self.strokes):
            raise BadInput("stroke", f"no stroke {index + 1} (the sheet has {len(self.strokes)})")
        strokes = self.strokes[:index] + [stroke] + self.strokes[index + 1:]
        new = replayed(self.knowledge, self.ruleset, self.doubles, strokes)
        changes = [{"stroke": i + 1, "before": old, "after": fresh}
                   for i, (old, fresh) in enumerate(zip(self.rulings, new.rulings))
                   if i >= index and _gist(old) != _gist(fresh)]
        return new, changes

    def snapshot(self) -> dict:
        """Where the match stands after its last stroke, to rule the next one without replaying
        the sheet (the store keeps it beside each stroke): each game's `snapshot` and how many
        strokes were played."""
        return {"snapshot": SNAPSHOT_VERSION, "ruleset": self.ruleset, "doubles": self.doubles,
                "strokes": len(self.strokes), "games": [g.snapshot() for g in self.games]}

    @classmethod
    def restored(cls, knowledge: Knowledge, doc) -> "Match | None":
        """The match a `snapshot` describes, ready for its next stroke (its `strokes` and `rulings`
        are empty: only the board is kept); None for a snapshot this version cannot read, which
        the caller then replays."""
        if not isinstance(doc, dict) or doc.get("snapshot") != SNAPSHOT_VERSION:
            return None
        try:
            ruleset, doubles = doc["ruleset"], bool(doc["doubles"])
            if ruleset not in knowledge.rulesets:
                return None
            games = [Game.restored(knowledge, ruleset, doubles, g) for g in doc["games"]]
        except (KeyError, TypeError, ValueError, AttributeError):
            return None   # a damaged or foreign value: the sheet itself is the record
        if not games:
            return None
        return cls(knowledge, ruleset, doubles, games=games)

    def report(self) -> dict:
        return {"ruleset": self.ruleset, "doubles": self.doubles, "games": [g.report() for g in self.games],
                "games_won": self.games_won, "match": {"over": self.over, "winner": self.winner},
                "strokes": len(self.strokes)}


def _gist(ruling: dict) -> tuple:
    """What a referee would see change: turn, what goes back, the board after, the result."""
    if "tie_breaker" in ruling:
        return ("tie_breaker", ruling["winner"])
    return (ruling["turn"], tuple(sorted(ruling["returned"].items())), tuple(sorted(ruling["after"].items())),
            ruling["board"]["over"], ruling["board"]["winner"], tuple(sorted(ruling["board"]["points"].items())))


def replayed(knowledge: Knowledge, ruleset: str, doubles: bool, strokes: list) -> Match:
    match = Match(knowledge, ruleset, doubles)
    for i, stroke in enumerate(strokes, 1):
        match.play(stroke, f"stroke {i}")
    return match


def timeline(knowledge: Knowledge, ruleset: str, doubles: bool, strokes: list) -> list[dict]:
    """Each stroke with where it stood: game, board, the side that played it, and its ruling."""
    if not strokes:
        return []   # an empty sheet, as the window shows several times before its first paint
    match = Match(knowledge, ruleset, doubles)
    out = []
    for i, stroke in enumerate(strokes, 1):
        game_no, board_no, side = len(match.games), len(match.game.boards), match.game.state.turn
        score = dict(match.game.score)   # the game's points as the stroke was played (a protest's "score")
        ruling = match.play(stroke, f"stroke {i}")
        out.append({"n": i, "game": game_no, "board": board_no, "side": side, "stroke": stroke, "ruling": ruling,
                    "score": score})
    return out


def board_rows(knowledge: Knowledge, ruleset: str, doubles: bool, strokes: list) -> list[dict]:
    """The paper score sheet: one row per board, with who covered the queen."""
    return rows_of(timeline(knowledge, ruleset, doubles, strokes))


def rows_of(entries: list[dict]) -> list[dict]:
    """`board_rows` from the match's `timeline`, for a caller that shows both (one replay, not two)."""
    rows: dict[tuple, dict] = {}
    for entry in entries:
        if "tie_breaker" in entry["ruling"]:
            continue  # deciding strokes belong to no board
        key = (entry["game"], entry["board"])
        row = rows.setdefault(key, {"game": entry["game"], "board": entry["board"], "breaker": entry["side"],
                                    "winner": None, "points": {"first": 0, "second": 0}, "queen": None,
                                    "strokes": 0, "dues": {"first": 0, "second": 0}})
        row["strokes"] += 1
        r, side = entry["ruling"], entry["side"]
        opp = "second" if side == "first" else "first"
        q = r["after"]["queen"]
        row["queen"] = {"covered_by_striker": side, "covered_by_opponent": opp}.get(q)
        row["dues"] = {side: r["after"]["dues"], opp: r["after"]["opponent_dues"]}
        if r["board"]["over"]:
            winner = side if r["board"]["winner"] == "striker" else opp
            row["winner"] = winner
            row["points"] = {side: r["board"]["points"]["striker"], opp: r["board"]["points"]["opponent"]}
    return list(rows.values())


def _tie_breaker_sentence(winner: str, lang: str) -> str:
    # two whole sentences, not one with the side's name put in: "first"/"second" agree with the
    # noun each language uses for a side
    _ = translations(lang).gettext
    if winner == "first":
        return _("The deciding strokes go to the first side.")
    return _("The deciding strokes go to the second side.")
