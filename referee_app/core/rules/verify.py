"""Proves that every situation of a ruleset gets exactly one ruling, as Catala's verifier does.

The situation space is finite but large, so it is partitioned: every count takes one value per
interval that the rules' conditions distinguish (their cut points, plus none, one, two, all),
and the enumerated fields take all their values, minus what cannot happen (the declared
constraints of situation.check_possible and each foul's `only_when`). For each representative
situation and each aspect, the applicable rules that are not overridden must give exactly one
value: none is a gap, two are a conflict. Rules that never decide anything are reported too.
This is complete because conditions are conjunctions of single-fact tests (conditions.py).
"""
from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass, field

from .conditions import matches
from .engine import CompiledRuleset, Conflict, NoRule, compiled
from referee_app.core.errors import BadInput
from .situation import COINS_PER_SIDE, QUEEN_STATES, Situation, check_possible


@dataclass
class Report:
    ruleset: str
    situations: int = 0
    gaps: dict = field(default_factory=dict)        # (aspect, example) -> count
    conflicts: dict = field(default_factory=dict)   # (aspect, rule ids) -> (count, example)
    decisive: Counter = field(default_factory=Counter)
    never_decisive: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.gaps and not self.conflicts

    def as_dict(self) -> dict:
        return {
            "ruleset": self.ruleset, "ok": self.ok, "situations": self.situations,
            "seconds": round(self.seconds, 2),
            "gaps": [{"aspect": a, "count": n, "example": ex} for (a, _), (n, ex) in self.gaps.items()],
            "conflicts": [{"aspect": a, "rules": list(r), "count": n, "example": ex}
                          for (a, r), (n, ex) in self.conflicts.items()],
            "never_decisive": self.never_decisive,
        }


def _cut_points(rs: CompiledRuleset, *facts: str) -> set[int]:
    points = set()
    for r in rs.rules:
        for t in r.tests:
            if t.fact in facts:
                points |= t.cut_points()
    return points


def _counts_on_board(rs: CompiledRuleset) -> list[int]:
    base = {1, 2, 3, COINS_PER_SIDE - 1, COINS_PER_SIDE}
    if rs.allow_empty_side:
        base.add(0)
    extra = _cut_points(rs, "own_on_board", "opponent_on_board")
    return sorted(v for v in base | extra if 0 <= v <= COINS_PER_SIDE)


def _pocketed_reps(rs: CompiledRuleset, on_board: int) -> list[int]:
    reps = {0, 1, 2, on_board - 1, on_board}
    # a cut point on what is left translates into one on what is pocketed
    reps |= {on_board - c for c in _cut_points(rs, "own_left", "opponent_left")}
    reps |= _cut_points(rs, "own_pocketed", "opponent_pocketed")
    return sorted(v for v in reps if 0 <= v <= on_board)


def _foul_allowed(rs: CompiledRuleset, foul: str, facts: dict) -> bool:
    if foul == "none":
        return True
    return matches(rs.foul_only_when.get(foul, ()), facts)


def situations(rs: CompiledRuleset):
    """Yields (Situation, facts) for every representative situation of the ruleset."""
    counts = _counts_on_board(rs)
    attempts = range(1, max(int(rs.params.get("break_attempts", 1)), 1) + 1)
    queen_states = [q for q in QUEEN_STATES if q in rs.queen_states]
    fouls = ["none"] + sorted(rs.fouls)
    openings = [dict(break_=True, own_on_board=COINS_PER_SIDE, opponent_on_board=COINS_PER_SIDE,
                     queen="on_board", break_attempt=a) for a in attempts]
    middles = [dict(break_=False, own_on_board=o, opponent_on_board=p, queen=q)
               for o in counts for p in counts for q in queen_states]
    for before in openings + middles:
        o, p = before["own_on_board"], before["opponent_on_board"]
        for op, pp in itertools.product(_pocketed_reps(rs, o), _pocketed_reps(rs, p)):
            queen_pockets = [False, True] if before["queen"] == "on_board" else [False]
            for qp, sp in itertools.product(queen_pockets, (False, True)):
                for oo, po, qo, so in itertools.product(
                        (0, 1) if o - op >= 1 else (0,), (0, 1) if p - pp >= 1 else (0,),
                        (False, True) if before["queen"] == "on_board" and not qp else (False,),
                        (False,) if sp else (False, True)):
                    moved = op or pp or qp or oo or po or qo
                    for touched in ((True,) if moved else (True, False)):
                        for dues, odues, earlier in itertools.product(
                                (0, 1) if o == COINS_PER_SIDE else (0,),
                                (0, 1) if p == COINS_PER_SIDE else (0,),
                                (False, True) if o == COINS_PER_SIDE else (None,)):
                            s = Situation(rs.ruleset.id, own_on_board=o, opponent_on_board=p, queen=before["queen"],
                                          break_=before["break_"], break_attempt=before.get("break_attempt", 1),
                                          dues=dues, opponent_dues=odues, own_pocketed_earlier=earlier,
                                          touched_coin=touched, own_pocketed=op, opponent_pocketed=pp,
                                          queen_pocketed=qp, striker_pocketed=sp, own_off=oo, opponent_off=po,
                                          queen_off=qo, striker_off=so)
                            try:
                                check_possible(s, rs.allow_empty_side)
                            except BadInput:
                                continue
                            base = s.facts()
                            for foul in fouls:
                                facts = dict(base, foul=foul)
                                if _foul_allowed(rs, foul, facts):
                                    s.foul = foul
                                    yield s, facts


def _describe(facts: dict) -> dict:
    keys = ("break", "break_attempt", "own_on_board", "opponent_on_board", "queen", "dues", "opponent_dues",
            "own_pocketed_earlier", "touched_coin", "own_pocketed", "opponent_pocketed", "queen_pocketed",
            "striker_pocketed", "own_off", "opponent_off", "queen_off", "striker_off", "foul")
    return {k: facts[k] for k in keys}


def verify(ruleset_id: str) -> Report:
    return verify_compiled(compiled(ruleset_id))


def verify_compiled(rs: CompiledRuleset) -> Report:
    report = Report(rs.ruleset.id)
    start = time.perf_counter()
    for s, facts in situations(rs):
        report.situations += 1
        try:
            decision = rs.decide(facts)
        except NoRule as gap:
            key = (gap.aspect, None)
            n, ex = report.gaps.get(key, (0, _describe(facts)))
            report.gaps[key] = (n + 1, ex)
            continue
        except Conflict as conflict:
            key = (conflict.aspect, tuple(sorted(r.id for r in conflict.rules)))
            n, ex = report.conflicts.get(key, (0, _describe(facts)))
            report.conflicts[key] = (n + 1, ex)
            continue
        for rules in decision.rules.values():
            for r in rules:
                report.decisive[r.id] += 1
    report.never_decisive = [r.id for r in rs.rules if report.decisive[r.id] == 0]
    report.seconds = time.perf_counter() - start
    return report
