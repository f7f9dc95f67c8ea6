"""Where questions come from: the clauses' worked examples and the verifier's situation space.

The space (core/rules/verify.py) has a representative of every situation the rules tell
apart, tens of thousands per ruleset: too many to keep as documents, cheap to walk once its
parts are found (those are kept). A draw walks it once and keeps the randomly chosen positions.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from referee_app.core.rules.situation import COINS_PER_SIDE, Situation
from referee_app.core.rules.verify import GROUPS, cut_points, group_representatives, situations

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge


def situation_doc(s: Situation) -> dict:
    """A Situation back as the contract's document (only what differs from the defaults)."""
    before: dict = {"own_on_board": s.own_on_board, "opponent_on_board": s.opponent_on_board, "queen": s.queen}
    if s.break_:
        before["break"] = True
        if s.break_attempt != 1:
            before["break_attempt"] = s.break_attempt
    if s.after_break:
        before["after_break"] = True
    for key in ("dues", "opponent_dues"):
        if getattr(s, key):
            before[key] = getattr(s, key)
    if s.score_striker or s.score_opponent:
        before["score"] = {"striker": s.score_striker, "opponent": s.score_opponent}
    if s.own_pocketed_earlier is not None and s.own_pocketed_earlier != (s.own_on_board < COINS_PER_SIDE):
        before["own_pocketed_earlier"] = s.own_pocketed_earlier
    pocketed = {k: v for k, v in (("own", s.own_pocketed), ("opponent", s.opponent_pocketed),
                                  ("queen", s.queen_pocketed), ("striker", s.striker_pocketed)) if v}
    off = {k: v for k, v in (("own", s.own_off), ("opponent", s.opponent_off), ("queen", s.queen_off),
                             ("striker", s.striker_off)) if v}
    stroke: dict = {"pocketed": pocketed}
    if off:
        stroke["off_board"] = off
    if not s.touched_coin:
        stroke["touched_coin"] = False
    if s.foul != "none":
        stroke["foul"] = s.foul
    return {"ruleset": s.ruleset, "before": before, "stroke": stroke}


def _parts(knowledge: Knowledge, ruleset: str) -> dict:
    """The verifier's representatives of each group of facts: the slow part of the walk, found once."""
    def find() -> dict:
        rs = knowledge.compiled(ruleset)
        cuts = cut_points(rs)
        return {g: group_representatives(rs, g, cuts) for g in GROUPS}

    return knowledge.kept(("learn.parts", ruleset), find)


def _space(knowledge: Knowledge, ruleset: str):
    return situations(knowledge.compiled(ruleset), _parts(knowledge, ruleset))


def space_size(knowledge: Knowledge, ruleset: str) -> int:
    return knowledge.kept(("learn.space_size", ruleset), lambda: sum(1 for _ in _space(knowledge, ruleset)))


def draw_space(knowledge: Knowledge, ruleset: str, n: int, rng: random.Random) -> list[dict]:
    """`n` situations of the ruleset's space, chosen at random (all of them if it has fewer)."""
    size = space_size(knowledge, ruleset)
    chosen = set(rng.sample(range(size), min(n, size)))
    return [situation_doc(s) for i, (s, _facts) in enumerate(_space(knowledge, ruleset)) if i in chosen]


def _lineage(knowledge: Knowledge, ruleset: str | None) -> list[str]:
    out, rulesets = [], knowledge.rulesets
    while ruleset:
        out.append(ruleset)
        ruleset = rulesets[ruleset].extends
    return out


def examples(knowledge: Knowledge, ruleset: str) -> tuple[tuple[str, dict], ...]:
    """(clause id, situation document) of every worked example written for this ruleset, or
    for the clauses it applies when the example names no ruleset of its own."""
    return knowledge.kept(("learn.examples", ruleset), lambda: _examples(knowledge, ruleset))


def _examples(knowledge: Knowledge, ruleset: str) -> tuple[tuple[str, dict], ...]:
    rulesets = knowledge.rulesets
    lineage = _lineage(knowledge, ruleset)
    own_sources = set(rulesets[ruleset].all_sources(rulesets))
    out = []
    for clause in knowledge.kb.clauses.values():
        for ex in clause.examples:
            named = ex.get("ruleset")
            if named in lineage or (named is None and clause.source in own_sources):
                doc = dict(ex["situation"])
                doc.pop("ruleset", None)
                out.append((clause.id, {"ruleset": ruleset, **doc}))
    return tuple(out)
