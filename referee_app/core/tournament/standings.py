"""The standings after each round, as ffc-tournament:1.9-1.12 and 1.20-1.21 rank the players.

Victories (2 a win, 1 a draw, 0 a loss), then Bucholz (the victory points the opponents met
have now, once per game against them; the ghost gives none), then difference (points won minus
points conceded). Players level on all three keep their order of the previous standings, the
order of entry before round 2 (documented choice `ties`). The ghost is ranked last for pairing
and is not listed. After the final, its winner is first and its loser second (1.16).
"""
from __future__ import annotations

from dataclasses import dataclass

from referee_app.core.errors import BadInput
from .model import GHOST, Tournament


@dataclass
class Row:
    rank: int
    player: str
    victories: int
    bucholz: int
    difference: int
    played: int

    def to_doc(self) -> dict:
        return {"rank": self.rank, "player": self.player, "victories": self.victories,
                "bucholz": self.bucholz, "difference": self.difference, "played": self.played}


def after_each_round(t: Tournament, upto: int | None = None) -> list[list[Row]]:
    """The standings after round 1, 2, … `upto` (all the rounds by default), each first place first.

    Games without a result yet count for nothing; the final is not applied here."""
    ffc = t.ffc
    upto = len(t.rounds) if upto is None else upto
    victories = {p: 0 for p in t.players}
    difference = dict.fromkeys(t.players, 0)
    played = dict.fromkeys(t.players, 0)
    opponents: dict[str, list[str]] = {p: [] for p in t.players}
    order = list(t.players)                      # the previous standings; the order of entry at first
    out = []
    for games in t.rounds[:upto]:
        for g in games:
            if not g.done:
                continue
            a, b = g.players()
            sa, sb = g.score
            for p, q, own, other in ((a, b, sa, sb), (b, a, sb, sa)):
                # a stored game naming someone who is not an entry (written by hand) counts for the
                # entry alone: `tournament check` reports it, the standings still show
                if p is GHOST or p not in victories:
                    continue
                victories[p] += ffc.victory_points(own, other)
                difference[p] += own - other
                played[p] += 1
                if q is not GHOST and q in victories:   # the ghost brings no Bucholz (ffc-tournament:1.15)
                    opponents[p].append(q)
        bucholz = {p: sum(victories[q] for q in opponents[p]) for p in t.players}
        previous = {p: i for i, p in enumerate(order)}
        order.sort(key=lambda p: (-victories[p], -bucholz[p], -difference[p], previous[p]))
        out.append([Row(i, p, victories[p], bucholz[p], difference[p], played[p]) for i, p in enumerate(order, 1)])
    return out


def current(t: Tournament) -> list[Row]:
    """The standings now: after the last round with a result, the final applied."""
    rounds = after_each_round(t)
    if not rounds:
        return [Row(i, p, 0, 0, 0, 0) for i, p in enumerate(t.players, 1)]
    rows = [Row(**vars(r)) for r in rounds[-1]]
    if t.final is not None and t.final.done:
        rows = with_final(rows, t)
    return rows


def finalists(rows: list[Row], t: Tournament) -> tuple[str, str]:
    """The first two of the standings who have not withdrawn (ffc-tournament:1.16)."""
    top = [r.player for r in rows if r.player not in t.withdrawn][:2]
    if len(top) < 2:
        raise BadInput("final", "fewer than two players left for the final")
    return top[0], top[1]


def with_final(rows: list[Row], t: Tournament) -> list[Row]:
    """The final's winner first and its loser second; the rest as they were (ffc-tournament:1.16)."""
    assert t.final is not None and t.final.score is not None, "called once the final is played"
    pair = set(finalists(rows, t))
    if set(t.final.players()) != pair:
        raise BadInput("final", f"the final is between the first two ({' and '.join(finalists(rows, t))}), "
                       f"not {t.final.first} and {t.final.second} ({t.ffc.clauses['final']})")
    a, b = t.final.players()
    winner, loser = (a, b) if t.final.score[0] > t.final.score[1] else (b, a)
    by_player = {r.player: r for r in rows}
    ordered = [by_player[winner], by_player[loser]] + [r for r in rows if r.player not in pair]
    return [Row(i, r.player, r.victories, r.bucholz, r.difference, r.played) for i, r in enumerate(ordered, 1)]
