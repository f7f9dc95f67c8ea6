"""Random tournaments with the organiser's choices (rounds_total, ghost_points, absences,
avoid_rematches): they pair and rank as the FFC text plus those choices say, `check` passes on
every one, and it finds every rematch injected into one. Bounded (hypothesis, few examples of
small fields) so that the file runs in seconds."""
from __future__ import annotations

import itertools
import json

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from referee_app.core.errors import BadInput
from referee_app.core.tournament.checker import check
from referee_app.core.tournament.generator import generate
from referee_app.core.tournament.model import GHOST, Game, parse
from referee_app.core.tournament.pairing import from_the_top, opponents_met, order_for_round
from referee_app.core.tournament.standings import after_each_round
from support.kbcopy import installed

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tournaments(draw, avoid=None):
    n = draw(st.integers(3, 14))
    rounds_total = draw(st.integers(1, min(n + 2, 9)))
    choices = {"rounds_total": rounds_total, "ghost_points": draw(st.integers(1, 30)),
               "avoid_rematches": draw(st.booleans()) if avoid is None else avoid}
    width = len(str(n))
    names = [f"P{i:0{width}d}" for i in range(1, n + 1)]
    absent = draw(st.dictionaries(st.sampled_from(names), st.lists(st.integers(1, rounds_total), max_size=2,
                                                                   unique=True), max_size=3))
    absent = {p: r for p, r in absent.items() if r}
    if absent:
        choices["absent"] = absent
    seed = draw(st.integers(0, 10_000))
    try:
        t = generate(installed().ffc, n, seed, choices=choices)
    except BadInput:          # a round left with fewer than two players: not a tournament
        assume(False)
    return parse(installed().ffc, json.loads(json.dumps(t.to_doc())))     # through the file, as `check` reads it


def has_rematch_free_round(order: list, met: dict) -> bool:
    """Brute force: can these players (the ghost included) be paired with no rematch?"""
    if not order:
        return True
    p, rest = order[0], order[1:]
    return any(q not in met.get(p, ()) and has_rematch_free_round([x for x in rest if x != q], met) for q in rest)


@FAST
@given(tournaments())
def test_random_tournaments_pair_and_rank_as_the_text_and_the_choices_say(t):
    assert len(t.rounds) == t.rounds_total
    assert check(t)["ok"], check(t)["problems"]
    victories = dict.fromkeys(t.players, 0)
    difference = dict.fromkeys(t.players, 0)
    played = dict.fromkeys(t.players, 0)
    for r, games in enumerate(t.rounds, 1):
        present = [p for p in t.players if r not in t.absent.get(p, ())]
        seen = [p for g in games for p in g.players() if p is not GHOST]
        assert sorted(seen) == sorted(present), f"round {r}: the absent sit out, everyone else plays once"
        assert sum(GHOST in g.players() for g in games) == len(present) % 2
        for g in games:
            if GHOST in g.players():
                assert g.second is GHOST and g.score == (t.ghost_points or 25, 0)
            for p, own, other in ((g.first, *g.score), (g.second, *reversed(g.score))):
                if p is not GHOST:
                    victories[p] += 2 if own > other else 1 if own == other else 0
                    difference[p] += own - other
                    played[p] += 1
        if r > 1:
            order = order_for_round(t, r)
            met = opponents_met(t, r - 1)
            text = from_the_top(order, met)
            pairs = [g.players() for g in games]
            text_has_rematch = any(b in met.get(a, ()) for a, b in text)
            if t.avoid_rematches and not text_has_rematch or not t.avoid_rematches:
                assert pairs == text, f"round {r}: the text's own pairing"
            if t.avoid_rematches:
                again = [(a, b) for a, b in pairs if b in met.get(a, ())]
                assert not again or not has_rematch_free_round(order, met), f"round {r}: an avoidable rematch"
    rows = after_each_round(t)[-1]
    for row in rows:
        assert (row.victories, row.difference, row.played) == \
            (victories[row.player], difference[row.player], played[row.player])
    keys = [(-r.victories, -r.bucholz, -r.difference) for r in rows]
    assert keys == sorted(keys)


@FAST
@given(tournaments(), st.data())
def test_check_finds_every_injected_rematch(t, data):
    candidates = []
    for r in range(2, len(t.rounds) + 1):
        met = opponents_met(t, r - 1)
        games = t.rounds[r - 1]
        for (i, g), (j, h) in itertools.permutations(enumerate(games), 2):
            a, b = g.players()
            x, y = h.players()
            if a is not GHOST and x in met.get(a, ()) and GHOST not in (b, y) and x is not GHOST:
                candidates.append((r, i, j, a, b, x, y))
    assume(candidates)
    r, i, j, a, b, x, y = data.draw(st.sampled_from(candidates))
    games = list(t.rounds[r - 1])
    games[i] = Game(a, x, games[i].score, games[i].table)
    games[j] = Game(b, y, games[j].score, games[j].table)
    t.rounds[r - 1] = games
    report = check(t)
    assert not report["ok"]
    assert any(m["round"] == r and set(m["players"]) == {a, x} for m in report["rematches"])
    assert any(p["round"] == r for p in report["problems"])


@FAST
@given(tournaments(avoid=True))
def test_with_avoid_rematches_no_two_players_meet_twice_unless_no_round_allows_it(t):
    report = check(t)
    assert report["ok"], report["problems"]
    for m in report.get("rematches", []):
        r = m["round"]
        assert not has_rematch_free_round(order_for_round(t, r), opponents_met(t, r - 1))
