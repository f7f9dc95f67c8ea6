"""`tournament generate`: a random tournament with results, paired by the rules, for tests.

As bbpPairings' random tournament generator does: every round is paired by the same code as
`pair`, then given random results shaped like real ones (most matches reach 25 points, some end
at time, a few level), so that the checker and the property tests see thousands of tournaments.
"""
from __future__ import annotations

import random

from referee_app.core.errors import BadInput
from .ffc import FfcRules
from .model import GHOST, Game, Tournament
from .pairing import next_round
from .standings import after_each_round, finalists

MAX_PLAYERS = 2000


def random_score(ffc: FfcRules, rng: random.Random) -> tuple:
    target = ffc.match_points
    kind = rng.random()
    if kind < 0.75:                        # one player reaches 25 (ffc-tournament:1.6)
        loser = rng.randint(0, target - 1)
        return (target, loser) if rng.random() < 0.5 else (loser, target)
    if kind < 0.93:                        # the clock or the 8 boards end it first (1.7, 1.8)
        a, b = rng.randint(0, target - 1), rng.randint(0, target - 1)
        return (a, b)
    level = rng.randint(0, target - 1)     # level at time: a draw
    return (level, level)


def play_round(ffc: FfcRules, pairing: dict, rng: random.Random, ghost: tuple | None = None) -> list:
    ghost = ghost or tuple(ffc.ghost_score)
    games = []
    for t in pairing["tables"]:
        a, b = t["first"], t["second"]
        score = None if GHOST in (a, b) else random_score(ffc, rng)
        games.append(Game(a, b, score if score is not None else tuple(ghost), t["table"]))
    return games


def generate(ffc: FfcRules, players: int, seed: int, rounds: int | None = None, final: bool = False,
             choices: dict | None = None) -> Tournament:
    """A tournament of `players` entries drawn with `seed`, `rounds` rounds played (all by default),
    and the final when `final` is true; `choices` are the organiser's, in the file's keys."""
    if not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise BadInput("players", f"expected a number of players from 2 to {MAX_PLAYERS}")
    width = len(str(players))
    t = Tournament(name=f"Random tournament {players}/{seed}", players=[f"P{i:0{width}d}" for i in range(1, players + 1)],
                   ffc=ffc, seed=seed)
    if choices:
        from .model import apply_choices

        apply_choices(t, choices)
    total = t.rounds_total if rounds is None else rounds
    if not 0 <= total <= t.rounds_total:
        raise BadInput("rounds", f"{players} players play {t.rounds_total} rounds")
    rng = random.Random(seed)
    for _r in range(total):
        t.rounds.append(play_round(ffc, next_round(t, seed), rng, t.ghost_score))
    if final:
        if total < t.rounds_total:
            raise BadInput("final", "the final comes after the last round")
        a, b = finalists(after_each_round(t)[-1], t)
        win = ffc.final_points
        lose = rng.randint(0, win - 1)
        t.final = Game(a, b, (win, lose) if rng.random() < 0.5 else (lose, win), 1)
    return t
