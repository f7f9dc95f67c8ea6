"""A tournament as data: its players, its rounds and their results, in the contract's file format.

```yaml
name: Open de Cannes
players: [A, B, C, D]          # unique names; an odd count adds the ghost, written null
rounds:                        # one list per round; `score` is missing while a game is being played
  - [{first: A, second: B, score: [25, 15]}, {first: C, second: D, score: [25, 0]}]
final: {first: C, second: A, score: [25, 20]}   # optional, after the last round
seed: 7                        # optional: the seed round 1 was drawn with, so that `check` redraws it
late: {E: 3}                   # optional: a late entry plays from round 3
withdrawn: {B: 4}              # optional: B played no round after round 4
rounds_total: 7                # the organiser's choices, each a departure from the FFC text:
ghost_points: 15               #   more/fewer rounds (1.13), the ghost's opponent's points (1.15),
absent: {D: [2]}               #   a player sitting a round out (1.14), pairing with no rematch
avoid_rematches: true          #   by backtracking (1.14); `choices.departures` lists them
```

The final may also be written as one more round holding a single game. Parsing refuses what
cannot be a tournament (a player twice in a round, an unknown player, a ghost that beats its
opponent…) with the field named; whether the pairings follow the rules is `checker`'s business.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee_app.core import validation
from referee_app.core.errors import BadInput
from .ffc import FfcRules

GHOST = None


@dataclass(frozen=True)
class Game:
    first: str | None
    second: str | None
    score: tuple | None = None      # (first's points, second's), None while not played
    table: int | None = None

    @property
    def done(self) -> bool:
        return self.score is not None

    def players(self) -> tuple:
        return self.first, self.second

    def to_doc(self) -> dict:
        out: dict = {"first": self.first, "second": self.second}
        if self.score is not None:
            out["score"] = list(self.score)
        if self.table is not None:
            out["table"] = self.table
        return out


@dataclass
class Tournament:
    name: str
    players: list
    ffc: FfcRules = field(repr=False, compare=False, kw_only=True)   # the FFC rules it is played by (Knowledge.ffc)
    rounds: list = field(default_factory=list)      # list of lists of Game
    final: Game | None = None
    seed: int | None = None
    late: dict = field(default_factory=dict)         # player -> first round played
    withdrawn: dict = field(default_factory=dict)    # player -> last round played
    # The organiser's choices (contract: rounds_total, ghost_points, absent, avoid_rematches);
    # None / empty / False is the FFC text.
    rounds_chosen: int | None = None
    ghost_points: int | None = None
    absent: dict = field(default_factory=dict)       # player -> sorted list of rounds sat out
    avoid_rematches: bool = False

    @property
    def rounds_ffc(self) -> int:
        """The number of rounds the FFC table gives, from the entries at the start
        (ffc-tournament:1.13): late entries do not change it (documented choice `late_entry`);
        the ghost is not an entry."""
        return self.ffc.rounds_for(sum(1 for p in self.players if self.late.get(p, 1) <= 1))

    @property
    def rounds_total(self) -> int:
        """The number of rounds played before the final: the organiser's, or the FFC table's."""
        return self.rounds_chosen if self.rounds_chosen is not None else self.rounds_ffc

    @property
    def ghost_score(self) -> tuple:
        """The ghost's game, its opponent's points first (ffc-tournament:1.15, or the organiser's)."""
        ffc = self.ffc.ghost_score
        return ffc if self.ghost_points is None else (self.ghost_points, ffc[1])

    def active(self, round_no: int) -> list:
        """The players paired in round `round_no`, in the order of entry: entered, not withdrawn,
        not sitting this round out."""
        return [p for p in self.players
                if self.late.get(p, 1) <= round_no and self.withdrawn.get(p, round_no) >= round_no
                and round_no not in self.absent.get(p, ())]

    def choices_doc(self) -> dict:
        """The organiser's choices as the file writes them (only those made)."""
        doc: dict = {}
        if self.rounds_chosen is not None:
            doc["rounds_total"] = self.rounds_chosen
        if self.ghost_points is not None:
            doc["ghost_points"] = self.ghost_points
        if self.absent:
            doc["absent"] = {p: list(r) for p, r in self.absent.items()}
        if self.avoid_rematches:
            doc["avoid_rematches"] = True
        return doc

    def complete(self) -> bool:
        """Every game paired so far has its result."""
        return all(g.done for rnd in self.rounds for g in rnd)

    def to_doc(self) -> dict:
        doc: dict = {"name": self.name, "players": list(self.players),
               "rounds": [[g.to_doc() for g in rnd] for rnd in self.rounds]}
        if self.final is not None:
            doc["final"] = self.final.to_doc()
        if self.seed is not None:
            doc["seed"] = self.seed
        if self.late:
            doc["late"] = dict(self.late)
        if self.withdrawn:
            doc["withdrawn"] = dict(self.withdrawn)
        doc.update(self.choices_doc())
        return doc


CHOICES = ("rounds_total", "ghost_points", "absent", "avoid_rematches")
KNOWN = {"name", "players", "rounds", "final", "seed", "late", "withdrawn", *CHOICES}
MAX_ROUNDS = 99          # beyond any Swiss tournament: a bound on what a file may ask
MAX_GHOST_POINTS = 999


def parse(ffc: FfcRules, doc) -> Tournament:
    """The tournament of a contract file; BadInput naming the field when it cannot be one."""
    if not isinstance(doc, dict):
        raise BadInput("tournament", "expected a mapping with name, players and rounds")
    for key in doc:
        if key not in KNOWN:
            raise BadInput(str(key), f"unknown field (known: {', '.join(sorted(KNOWN))})")
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise BadInput("name", "expected text")
    players = _players(doc.get("players"))
    late, withdrawn = _late_and_withdrawn(doc, players)
    seed = doc.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise BadInput("seed", "expected a whole number")
    t = Tournament(name=name, players=players, ffc=ffc, seed=seed, late=late, withdrawn=withdrawn)
    apply_choices(t, doc)
    rounds, final_doc = _rounds_and_final(doc, t)
    _add_rounds(t, rounds)
    if final_doc is not None:
        t.final = _final(final_doc, t)
    return t


def apply_choices(t: Tournament, doc: dict) -> None:
    """The organiser's choices of `doc` set on `t`, each checked; BadInput naming the field."""
    t.rounds_chosen = _whole(doc.get("rounds_total"), "rounds_total", 1, MAX_ROUNDS)
    t.ghost_points = _whole(doc.get("ghost_points"), "ghost_points", 1, MAX_GHOST_POINTS)
    avoid = doc.get("avoid_rematches", False)
    if not isinstance(avoid, bool):
        raise BadInput("avoid_rematches", "expected true or false")
    t.avoid_rematches = avoid
    t.absent = _absent(doc.get("absent"), t.players)


def _whole(value, what: str, low: int, high: int):
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadInput(what, f"expected a whole number from {low} to {high}")
    return value


def _absent(value, players: list) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadInput("absent", "expected a mapping of player to the rounds he sits out, like {B: [2, 3]}")
    out = {}
    for p, rounds in value.items():
        if p not in players:
            raise BadInput(f"absent.{p}", "not a player of the tournament")
        if isinstance(rounds, int) and not isinstance(rounds, bool):
            rounds = [rounds]
        if not isinstance(rounds, list) or not all(isinstance(r, int) and not isinstance(r, bool)
                                                   and 1 <= r <= MAX_ROUNDS for r in rounds):
            raise BadInput(f"absent.{p}", "expected a list of round numbers")
        if rounds:
            out[p] = sorted(set(rounds))
    return out


def _late_and_withdrawn(doc: dict, players: list) -> tuple[dict, dict]:
    late = _round_map(doc.get("late"), "late", players)
    withdrawn = _round_map(doc.get("withdrawn"), "withdrawn", players)
    for p in withdrawn:
        if withdrawn[p] < late.get(p, 1) - 1:
            raise BadInput(f"withdrawn.{p}", f"withdrew after round {withdrawn[p]}, before entering in round {late[p]}")
    return late, withdrawn


def _rounds_and_final(doc: dict, t: Tournament) -> tuple[list, object]:
    """The rounds written, and the final's game (None when there is none yet)."""
    rounds = doc.get("rounds", [])
    if rounds is None:
        rounds = []
    if not isinstance(rounds, list):
        raise BadInput("rounds", "expected a list of rounds, each a list of games")
    final_doc = doc.get("final")
    if final_doc is None and len(rounds) == t.rounds_total + 1 and isinstance(rounds[-1], list) \
            and len(rounds[-1]) == 1:
        rounds, final_doc = rounds[:-1], rounds[-1][0]   # the final written as one more round
    if len(rounds) > t.rounds_total:
        raise BadInput("rounds", f"{len(rounds)} rounds, but {len(t.players)} entries play "
                       f"{t.rounds_total} ({t.ffc.clauses['rounds']}"
                       + ("" if t.rounds_chosen is not None else "; the organiser may choose rounds_total") + ")")
    return rounds, final_doc


def _add_rounds(t: Tournament, rounds: list) -> None:
    """Each round's games; only the last round may still wait for results."""
    for r, games in enumerate(rounds, 1):
        t.rounds.append(_round(games, r, t))
        if r < len(rounds):
            pending = [i for i, g in enumerate(t.rounds[-1], 1) if not g.done]
            if pending:
                raise BadInput(f"round {r}, game {pending[0]}.score",
                               "missing, but a later round was paired: only the last round may wait for results")


def _final(final_doc, t: Tournament) -> Game:
    if len(t.rounds) < t.rounds_total or not t.complete():
        raise BadInput("final", f"the final comes after the {t.rounds_total} rounds are played")
    final = _game(t.ffc, final_doc, "final", set(p for p in t.players if p not in t.withdrawn), allow_ghost=False)
    if final.score is not None and final.score[0] == final.score[1]:  # played, and level
        raise BadInput("final.score", f"the final is played to {t.ffc.final_points} points, it cannot end level "
                       f"({t.ffc.clauses['final']})")
    return final


def _players(value) -> list:
    if not isinstance(value, list) or not value:
        raise BadInput("players", "expected a list of names")
    seen = set()
    for i, p in enumerate(value, 1):
        validation.name(p, f"players.{i}")
        if p in seen:
            raise BadInput(f"players.{i}", f"'{p}' is entered twice")
        seen.add(p)
    if len(value) < 2:
        raise BadInput("players", "a tournament needs at least two players")
    return list(value)


def _round_map(value, what: str, players: list) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadInput(what, "expected a mapping of player to round number")
    for p, r in value.items():
        if p not in players:
            raise BadInput(f"{what}.{p}", "not a player of the tournament")
        if not isinstance(r, int) or isinstance(r, bool) or r < (1 if what == "late" else 0):
            raise BadInput(f"{what}.{p}", "expected a round number")
    return dict(value)


def _round(games, r: int, t: Tournament) -> list:
    where = f"round {r}"
    if not isinstance(games, list):
        raise BadInput(where, "expected a list of games")
    active = t.active(r)
    if len(active) < 2:
        raise BadInput(where, "fewer than two players to pair")
    out: list = []
    seen: dict = {}
    for i, g in enumerate(games, 1):
        game = _game(t.ffc, g, f"{where}, game {i}", set(active), ghost=t.ghost_score)
        for p in game.players():
            if p in seen:
                who = "the ghost" if p is GHOST else p
                raise BadInput(f"{where}, game {i}", f"{who} already plays in game {seen[p]}")
            seen[p] = i
        out.append(game)
    missing = [p for p in active if p not in seen]
    if missing:
        raise BadInput(where, f"{missing[0]} does not play" + (f" (nor {len(missing) - 1} more)" if len(missing) > 1 else ""))
    if (GHOST in seen) != (len(active) % 2 == 1):
        raise BadInput(where, "the ghost plays only when the number of players is odd "
                       f"({len(active)} here, {t.ffc.clauses['ghost']})")
    return out


def _game(ffc: FfcRules, g, where: str, allowed: set, allow_ghost: bool = True, ghost: tuple | None = None) -> Game:
    if not isinstance(g, dict):
        raise BadInput(where, "expected {first: NAME, second: NAME, score: [P, P]}")
    for key in g:
        if key not in ("first", "second", "score", "table"):
            raise BadInput(f"{where}.{key}", "unknown field (known: first, second, score, table)")
    first, second = (_side(g, side, where, allowed, allow_ghost) for side in ("first", "second"))
    if first == second:
        raise BadInput(where, "a player cannot meet " + ("himself" if first is not GHOST else "the ghost twice"))
    table = g.get("table")
    if table is not None and (not isinstance(table, int) or isinstance(table, bool) or table < 1):
        raise BadInput(f"{where}.table", "expected a table number from 1")
    score = g.get("score")
    if GHOST in (first, second):
        score = _ghost_score(ffc, score, second is GHOST, where, ghost)
    elif score is not None:
        score = _score(score, f"{where}.score")
    return Game(first, second, score, table)


def _side(g: dict, side: str, where: str, allowed: set, allow_ghost: bool):
    """The player (or the ghost) on one side of a game."""
    if side not in g:
        raise BadInput(f"{where}.{side}", "missing (write null for the ghost)")
    p = g[side]
    if p is GHOST:
        if not allow_ghost:
            raise BadInput(f"{where}.{side}", "the ghost plays no final")
    elif not isinstance(p, str) or p not in allowed:
        raise BadInput(f"{where}.{side}", f"'{p}' is not a player of this round")
    return p


def _ghost_score(ffc: FfcRules, score, ghost_second: bool, where: str, ghost: tuple | None = None) -> tuple:
    """A game against the ghost always ends the same (the FFC's 25-0, or the organiser's
    `ghost_points`); a score written otherwise is refused."""
    ghost = ghost or ffc.ghost_score
    expected = tuple(ghost) if ghost_second else tuple(reversed(ghost))
    if score is not None and tuple(_score(score, f"{where}.score")) != expected:
        raise BadInput(f"{where}.score", f"the ghost always loses {ghost[1]}-{ghost[0]} ({ffc.clauses['ghost']}"
                       + (", or the organiser's ghost_points" if ghost != ffc.ghost_score else "") + ")")
    return expected


def _score(score, where: str) -> tuple:
    if not isinstance(score, (list, tuple)) or len(score) != 2 or \
            not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score):
        raise BadInput(where, "expected the two players' points, like [25, 15]")
    return tuple(score)
