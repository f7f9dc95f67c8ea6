"""The next round of a Swiss tournament, exactly as ffc-tournament:1.14 says, and its tables (1.2).

Round 1 is drawn. Later rounds go down the standings: the highest player not yet paired meets
the first player below him he has not met; when he has met all of them, he meets the next one
below again (a rematch the text says the bottom of the table may be forced into; no going
back: documented choice `forced_rematch`). The ghost, when the count is odd, is ranked last
(1.15). Tables: in the drawn order in round 1, then in standings order; the ghost's game, which
needs no board, takes the last number. After the last round comes the final between the first
two (1.16).

When the organiser asks for it (`avoid_rematches`, a departure from 1.14 that the text itself
says Scarry makes), `without_rematches` searches the same order with backtracking: the pairings
are tried in the text's order of preference and, when the bottom of the table is left with no
pairing free of rematches, the lowest choice made is undone first. The first pairing found is
therefore the text's own whenever the text's has no rematch, and otherwise keeps the text's
pairings from the top as far down as a rematch-free round allows. If no round without a rematch
exists at all (a small field late in a long tournament), the text's pairing is used.
"""
from __future__ import annotations

import random

from referee_app.core.errors import BadInput
from .model import GHOST, Tournament
from .standings import after_each_round, finalists


def draw(players: list, seed: int | None) -> list[tuple]:
    """Round 1: the players (and the ghost, if their count is odd) in a random order, paired two by
    two in that order; the ghost always second, its game last."""
    pool = list(players) + ([GHOST] if len(players) % 2 else [])
    random.Random(seed).shuffle(pool)
    pairs = [(a, b) if a is not GHOST else (b, a) for a, b in zip(pool[::2], pool[1::2])]
    return _ghost_last(pairs)


def from_the_top(order: list, met: dict) -> list[tuple]:
    """Later rounds: `order` is the standings (the ghost last), `met[p]` the opponents p has met."""
    n = len(order)
    taken = [False] * n
    pairs = []
    for i in range(n):
        if taken[i]:
            continue
        taken[i] = True
        p, seen, partner = order[i], met.get(order[i], ()), None
        for j in range(i + 1, n):
            if not taken[j]:
                if partner is None:
                    partner = j                   # forced: the next one below, if all were met
                if order[j] not in seen:
                    partner = j
                    break
        if partner is None:
            raise BadInput("players", f"{p} has nobody left to meet")
        taken[partner] = True
        pairs.append((p, order[partner]))
    return _ghost_last(pairs)


def without_rematches(order: list, met: dict) -> list[tuple]:
    """Later rounds with no two players meeting twice (the ghost included), the text's order kept
    as far as possible; the text's own pairing when no such round exists."""
    n = len(order)
    pos = {p: i for i, p in enumerate(order)}
    allowed = {p: [q for q in order[pos[p] + 1:] if q not in met.get(p, ())] for p in order}
    dead: set = set()      # sets of players left unpaired that were proved to have no pairing
    pairs: list = []
    budget = [SEARCH_BUDGET]

    def search(left: tuple) -> bool:
        if not left:
            return True
        if left in dead:
            return False
        budget[0] -= 1
        if budget[0] < 0:
            raise _GaveUp
        p, rest = left[0], set(left[1:])
        for q in allowed[p]:
            if q in rest:
                pairs.append((p, q))
                if search(tuple(x for x in left[1:] if x != q)):
                    return True
                pairs.pop()
        dead.add(left)
        return False

    try:
        found = n % 2 == 0 and search(tuple(order))
    except _GaveUp:
        found = False
    return _ghost_last(pairs) if found else from_the_top(order, met)


# Steps of the search before it settles for the text's pairing: far more than any real field
# needs (the sweep of SoL's archive never comes near), bounded so a desk never hangs.
SEARCH_BUDGET = 200_000


class _GaveUp(Exception):
    pass


def _ghost_last(pairs: list[tuple]) -> list[tuple]:
    return [p for p in pairs if GHOST not in p] + [p for p in pairs if GHOST in p]


def opponents_met(t: Tournament, upto: int) -> dict:
    """Each player's opponents in rounds 1..upto; the ghost counts as an opponent met."""
    met: dict = {}
    for games in t.rounds[:upto]:
        for g in games:
            a, b = g.players()
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    return met


def order_for_round(t: Tournament, round_no: int, standings=None) -> list:
    """The standings after round `round_no - 1` restricted to the players of round `round_no`,
    the ghost last when their count is odd."""
    if standings is None:
        standings = after_each_round(t, round_no - 1)[-1]
    active = set(t.active(round_no))
    order = [r.player for r in standings if r.player in active]
    return order + ([GHOST] if len(order) % 2 else [])


def pairs_for_round(t: Tournament, round_no: int, seed: int | None = None, standings=None) -> list[tuple]:
    if round_no == 1:
        return draw(t.active(1), seed)
    pair = without_rematches if t.avoid_rematches else from_the_top
    return pair(order_for_round(t, round_no, standings), opponents_met(t, round_no - 1))


def tables(pairs: list[tuple]) -> list[dict]:
    return [{"table": i, "first": a, "second": b} for i, (a, b) in enumerate(pairs, 1)]


def next_round(t: Tournament, seed: int | None = None) -> dict:
    """The contract's `tournament pair`: the next round, or the final after the last round."""
    if not t.complete():
        r = len(t.rounds)
        g = next(i for i, g in enumerate(t.rounds[-1], 1) if not g.done)
        raise BadInput(f"round {r}, game {g}.score", "no result yet: the next round is paired once every result is in")
    if t.final is not None:
        raise BadInput("final", "the tournament is over: the final " +
                       ("has been played" if t.final.done else "is already paired"))
    done = len(t.rounds)
    if done >= t.rounds_total:
        a, b = finalists(after_each_round(t)[-1], t)
        return {"round": "final", "tables": tables([(a, b)]), "clause": t.ffc.clauses["final"]}
    round_no = done + 1
    out: dict = {"round": round_no}
    if round_no == 1:
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 31)
        out["seed"] = seed               # recorded, so that the draw can be checked and made again
    if len(t.active(round_no)) < 2:
        raise BadInput(f"round {round_no}", "fewer than two players to pair")
    out["tables"] = tables(pairs_for_round(t, round_no, seed))
    return out
