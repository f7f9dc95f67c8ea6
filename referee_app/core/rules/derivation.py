"""The derivation of a ruling: for each aspect the engine decided, the rule that decided it, its
clause, the facts it tested with their values, the rules that agreed, and the rules that also
applied but were set aside, with what set each aside (an exception, or a base case giving way
to a more specific rule). The explanation and `rule --trace` are read from it, so "why not X?"
has the same answer everywhere.
"""
from __future__ import annotations

from .engine import Board, Decision, Rule

# Which parts of the ruling (the contract's fields) each aspect decides.
ASPECT_PARTS = {
    "board": ("board.winner", "board.points"),
    "queen": ("after.queen", "returned.queen"),
    "own": ("returned.own", "after.own_on_board"),
    "opponent": ("returned.opponent", "after.opponent_on_board"),
    "penalty": ("after.dues", "returned.own"),
    "turn": ("turn",),
    "break_made": ("break_made",),
}


def value_of(value):
    """An aspect's value as the contract writes it."""
    if isinstance(value, Board):
        if not value.over:
            return "continues"
        return {"winner": value.winner, "winner_terms": [_term(t) for t in value.winner_terms],
                "loser_terms": [_term(t) for t in value.loser_terms]}
    return value


def _term(term):
    return {"fixed": term[1]} if isinstance(term, tuple) else term


def set_aside(rule: Rule, candidates: list[Rule], chosen: list[Rule]) -> dict:
    """Why `rule`, which applied, did not decide: the exceptions that override it, or the more
    specific rules its base case gave way to."""
    by = [o for o in candidates if rule.id in o.overrides]
    how = "exception" if by else "base_case"
    by = by or [r for r in chosen if not r.default]
    return {"rule": rule.id, "clause": rule.clause, "how": how, "by": [r.id for r in by]}


def derive(decision: Decision, facts: dict) -> dict[str, dict]:
    """aspect -> {value, rule, clause, tested, agreeing, overridden}."""
    out = {}
    # a Decision made up by hand (a quiz's alternative ruling) has no board facts of its own
    board_facts = decision.board_facts or dict(facts, queen_after=decision.values.get("queen", facts["queen"]))
    for aspect, rules in decision.rules.items():
        lead = rules[0]
        seen = board_facts if aspect == "board" else facts
        candidates = [r for r in decision.applicable(aspect) if aspect in r.then]
        out[aspect] = {
            "value": value_of(decision.values[aspect]),
            "rule": lead.id, "clause": lead.clause, "default": lead.default,
            "tested": {t.fact: seen[t.fact] for t in lead.tests},
            "agreeing": [{"rule": r.id, "clause": r.clause, "default": r.default} for r in rules[1:]],
            "overridden": [dict(set_aside(r, candidates, rules), value=value_of(r.then[aspect]))
                           for r in candidates if r not in rules],
        }
    return out
