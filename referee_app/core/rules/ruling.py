"""Rules a stroke: situation in, ruling out, in the contract's format.

What each aspect becomes is decided by the knowledge base (decisions.py); this module only
carries the decision out: counts the coins that go back, pays dues as soon as a pocketed coin
is there to pay them, adds up the board's points from the named terms and parameters, and
cites every clause that shaped the answer.
"""
from __future__ import annotations

from .conditions import matches
from .engine import CONTINUES, Board, CompiledRuleset, Decision, compiled
from referee_app.core.errors import BadInput
from .explain import explain
from referee_app.core.knowledge.rulesets import default_rulesets
from .situation import COINS_PER_SIDE, Situation, parse

ASPECT_ORDER = ("board", "queen", "own", "opponent", "penalty", "turn", "break_made")


def ruleset_of(doc, ruleset: str | None) -> str:
    chosen = ruleset or (doc.get("ruleset") if isinstance(doc, dict) else None) or "icf"
    if ruleset and isinstance(doc, dict) and doc.get("ruleset") not in (None, ruleset):
        raise BadInput("ruleset", f"the file says {doc.get('ruleset')!r} but --ruleset says {ruleset!r}")
    if chosen not in default_rulesets():
        raise BadInput("ruleset", f"unknown ruleset {chosen!r} (known: {', '.join(default_rulesets())})")
    return chosen


def rule(doc, ruleset: str | None = None) -> dict:
    """The ruling for one situation document (parsed YAML/JSON)."""
    rs = compiled(ruleset_of(doc, ruleset))
    situation = parse(doc, rs.ruleset.id, set(rs.fouls), rs.allow_empty_side)
    check_for_ruleset(rs, situation)
    return rule_situation(rs, situation)


def check_for_ruleset(rs: CompiledRuleset, s: Situation) -> None:
    """Refuses what this ruleset says cannot happen (a queen state it does not know, a foul out of place)."""
    if s.queen not in rs.queen_states:
        raise BadInput("before.queen", f"{s.queen} does not occur under {rs.ruleset.id} "
                       f"(known: {', '.join(rs.queen_states)})")
    tests = rs.foul_only_when.get(s.foul, ())
    if tests and not matches(tests, s.facts() | {"foul": s.foul}):
        foul = rs.fouls[s.foul]
        raise BadInput("stroke.foul", f"{s.foul}: {foul.get('only_when_reason', 'not possible in this situation')}")


def rule_situation(rs: CompiledRuleset, s: Situation) -> dict:
    facts = s.facts()
    decision = rs.decide(facts)
    return carry_out(rs, s, facts, decision)


def _param(rs: CompiledRuleset, name: str):
    """A parameter the schema requires, or that compile_ruleset proved set for the term reading it."""
    return rs.params[name]


def _term_value(rs, term, side, s: Situation, coins_left: dict, queen_after: str, cited: list) -> int:
    score = s.score_striker if side == "striker" else s.score_opponent
    other = "opponent" if side == "striker" else "striker"
    if isinstance(term, tuple) and term[0] == "fixed":
        return term[1]
    if term == "loser_coins":
        return coins_left[other]
    if term == "pocketed_coins":
        return COINS_PER_SIDE - coins_left[side]
    if term == "penalty_coin":
        _cite_param(rs, "penalty_coin_points", cited)
        return _param(rs, "penalty_coin_points")
    if term in ("queen", "queen_if_held", "special"):
        if term == "queen_if_held" and queen_after != f"covered_by_{'striker' if side == 'striker' else 'opponent'}":
            return 0
        base = "special_value" if term == "special" else "queen_value"
        if score >= _param(rs, "queen_cutoff"):
            _cite_param(rs, "queen_cutoff", cited)
            _cite_param(rs, base + "_past_cutoff", cited)
            return _param(rs, base + "_past_cutoff")
        _cite_param(rs, base, cited)
        return _param(rs, base)
    raise ValueError(f"unknown point term {term!r}")


def _cite_param(rs, name, cited):
    """Cites the clause that sets a parameter; one the text is silent on is said in a note instead."""
    clause = rs.param_clauses.get(name)
    if clause and clause not in cited and name not in rs.assumptions:
        cited.append(clause)


def board_points(rs: CompiledRuleset, s: Situation, board: Board, coins_left: dict, queen_after: str,
                 cited: list) -> dict:
    winner = board.winner
    loser = "opponent" if winner == "striker" else "striker"
    pts = {winner: sum(_term_value(rs, t, winner, s, coins_left, queen_after, cited) for t in board.winner_terms),
           loser: sum(_term_value(rs, t, loser, s, coins_left, queen_after, cited) for t in board.loser_terms)}
    cap = rs.params.get("board_cap")  # absent: no cap (parameters.yaml)
    if cap is not None and pts[winner] > cap:
        pts[winner] = cap
        _cite_param(rs, "board_cap", cited)
    return {"striker": pts["striker"], "opponent": pts["opponent"]}


def carry_out(rs: CompiledRuleset, s: Situation, facts: dict, d: Decision) -> dict:
    v = d.values
    board: Board = v.get("board", CONTINUES)
    queen_after = v.get("queen", s.queen)
    # The clauses that decided, most specific first: exceptions and specific rules before the
    # base cases they stand out from; "the board goes on" needs no citation of its own.
    cited: list[str] = []
    # once the board is over, what the stroke would have meant for the turn, the coins or the
    # penalty is moot (icf-fr 3.7 d): only the result and the queen that shaped it are cited
    aspects = ("board", "queen", "break_made") if board.over else ASPECT_ORDER
    deciding = [r for aspect in aspects for r in d.rules.get(aspect, [])]
    for r in [r for r in deciding if not r.default] + [r for r in deciding if r.default]:
        if r.clause not in cited and not (r.default and "board" in r.then):
            cited.append(r.clause)
    own_left = s.own_on_board - s.own_pocketed
    opp_left = s.opponent_on_board - s.opponent_pocketed
    if board.over:
        # the loser's coins are those on the surface once its own pocketed coins that go back are back
        own_left += s.own_pocketed if v.get("own") == "returned" else 0
        points = board_points(rs, s, board, {"striker": own_left, "opponent": opp_left}, queen_after, cited)
        if s.dues or s.opponent_dues:
            _cite_param(rs, "dues_at_board_end", cited)
        ruling_board = {"over": True, "winner": board.winner, "points": points}
        after = {"own_on_board": own_left, "opponent_on_board": opp_left, "queen": queen_after,
                 "dues": 0, "opponent_dues": 0}
        returned = {"own": 0, "opponent": 0, "queen": False}
        turn = "passes"
    else:
        own_returned = s.own_pocketed if v.get("own") == "returned" else 0
        own_after = own_left + own_returned
        owed = s.dues + v.get("penalty", 0)
        paid = min(owed, COINS_PER_SIDE - own_after)
        own_after += paid
        opp_returned = s.opponent_pocketed if v.get("opponent") == "returned" else 0
        opp_left += opp_returned
        opp_paid = min(s.opponent_dues, COINS_PER_SIDE - opp_left)
        if paid and s.dues or owed - paid or opp_paid:
            _cite_mechanic(rs, "dues", cited)
        queen_back = queen_after == "on_board" and (s.queen_pocketed or s.queen == "awaiting_cover")
        returned = {"own": own_returned + paid, "opponent": opp_returned + opp_paid, "queen": queen_back}
        after = {"own_on_board": own_after, "opponent_on_board": opp_left + opp_paid, "queen": queen_after,
                 "dues": owed - paid, "opponent_dues": s.opponent_dues - opp_paid}
        ruling_board = {"over": False, "winner": None, "points": {"striker": 0, "opponent": 0}}
        turn = v.get("turn", "passes")
    if s.own_off or s.opponent_off or s.queen_off:
        _cite_mechanic(rs, "off_board", cited)
    notes = _notes(rs, deciding)
    if board.over and (s.dues or s.opponent_dues):
        notes += _assumption_notes(rs, ("dues_at_board_end",))
    ruling = {
        "ruleset": rs.ruleset.id,
        "turn": turn,
        "break_made": bool(v.get("break_made", True)) if s.break_ else True,
        "returned": returned,
        "after": after,
        "board": ruling_board,
        "clauses": cited,
        "rules": list(dict.fromkeys(r.id for r in deciding)),
    }
    ruling["explanation"] = explain(s, ruling)
    if notes:
        ruling["notes"] = notes
    return ruling


def _cite_mechanic(rs, name, cited):
    clause = rs.mechanics.get(name)
    if clause and clause not in cited:
        cited.append(clause)


def _assumption_notes(rs: CompiledRuleset, names) -> list[dict]:
    return [{"clause": rs.param_clauses[n], **rs.assumptions[n]} for n in names if n in rs.assumptions]


def _notes(rs: CompiledRuleset, deciding: list) -> list[dict]:
    notes, seen = [], set()
    for r in deciding:
        for key, note in ((r.id, r.note), (r.clause, rs.borrowed.get(r.clause))):
            if note and key not in seen:
                seen.add(key)
                notes.append({"clause": r.clause, **note})
    return notes
