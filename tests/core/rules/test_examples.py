"""The knowledge base's own worked examples: every clause that decides has them, and they hold."""
from __future__ import annotations

import pytest

from support.kbcopy import installed
from referee_app.core.errors import BadInput
from referee_app.core.checks.knowledge_base import subset_problems
from referee_app.core.rules.ruling import rule


def _home_ruleset(clause) -> str:
    for rid, rs in installed().rulesets.items():
        if clause.source in rs.sources:
            return rid
    raise AssertionError(f"{clause.id}: no ruleset applies its source")


def _examples():
    for clause in installed().kb.clauses.values():
        for i, ex in enumerate(clause.examples):
            yield pytest.param(clause, ex, id=f"{clause.id}#{i + 1}")


@pytest.mark.parametrize("clause,example", list(_examples()))
def test_example_holds(clause, example):
    ruleset = example.get("ruleset") or _home_ruleset(clause)
    ruling = rule(installed(), example["situation"], ruleset)
    expect = dict(example["expect"])
    if ruling["board"]["over"]:
        expect.pop("turn", None)
    problems = subset_problems(expect, ruling)
    assert not problems, f"{example.get('name')}: {problems}"
    # A clause is cited when its rule decided a part of the ruling; a definition never is, nor a
    # base case that only says nothing happens (no penalty): those must still be seen deciding.
    deciding = [r for r in ruling["rules"] if r.rsplit("/", 1)[0] == clause.id]
    base_only = deciding and all(_is_base_case(ruleset, r) for r in deciding)
    if clause.kind == "definition" or base_only:
        assert deciding, f"{example.get('name')}: no rule of {clause.id} decides: {ruling['rules']}"
    else:
        assert clause.id in ruling["clauses"], \
            f"{example.get('name')}: the ruling does not cite {clause.id}: {ruling['clauses']}"


def _is_base_case(ruleset: str, rule_id: str) -> bool:
    rule_ = next(r for r in installed().compiled(ruleset).rules if r.id == rule_id)
    return rule_.default


def test_every_deciding_clause_has_an_example():
    missing = [c.id for c in installed().kb.clauses.values() if c.decides and not c.examples]
    assert not missing, f"clauses with decides but no worked example: {missing}"


def _reachable(rule_, rs) -> bool:
    """False for an inherited rule about a queen state the ruleset does not have (a cover rule
    under rules that need no cover): no situation of this ruleset can show it."""
    return all(any(t(q) for q in rs.queen_states) for t in rule_.tests if t.fact in ("queen", "queen_after"))


def _lineage(ruleset: str) -> set[str]:
    out, rulesets = set(), installed().rulesets
    while ruleset:
        out.add(ruleset)
        ruleset = rulesets[ruleset].extends
    return out


@pytest.mark.parametrize("ruleset", list(installed().rulesets))
def test_every_rule_decides_in_some_example(ruleset):
    """Each rule of the ruleset is among the deciding rules of at least one worked example.

    A ruleset that extends another also counts the examples written for the one it extends,
    ruled under its own rules (an inherited rule shown deciding there is shown deciding here)."""
    rs = installed().compiled(ruleset)
    shown = set()
    lineage = _lineage(ruleset)
    for clause in installed().kb.clauses.values():
        for ex in clause.examples:
            if (ex.get("ruleset") or _home_ruleset(clause)) in lineage:
                try:
                    shown |= set(rule(installed(), ex["situation"], ruleset)["rules"])
                except BadInput:
                    continue  # a situation the extending ruleset refuses shows nothing here
    # a rule the ruleset says never decides here (verify holds it to that) has nothing to show
    missing = [r.id for r in rs.rules if r.id not in shown and _reachable(r, rs)
               and not (r.never_decisive or r.id in rs.never_decisive)]
    assert not missing, f"{ruleset}: rules no worked example shows deciding: {missing}"


# The main effect of a ruling, in the order a referee reads it: the board's result once it is
# over (or kept going by a rule of its own); else the queen, the coins, the penalty, the turn, the break.
MAIN_ORDER = ("queen", "own", "opponent", "penalty", "turn", "break_made")


def _main_rule(ruling: dict):
    """The derivation's step deciding the main effect (`trace`, derivation.py), or None when only
    base cases decide. A definition (it B.XI, what "covered" means) is never cited: the step is
    the first that is not one."""
    clauses = installed().kb.clauses
    steps = [step for part in ruling["trace"].values() for step in part
             if "rule" in step and clauses[step["clause"]].kind != "definition"]
    board = next((s for s in steps if s["aspect"] == "board"), None)
    if ruling["board"]["over"] or (board is not None and not board["default"]):
        return board   # over, or kept going by a rule that is more than the base case (aicf-2009 13)
    chosen = [s for s in steps if not s["default"] and s["aspect"] in MAIN_ORDER]
    chosen.sort(key=lambda s: MAIN_ORDER.index(s["aspect"]))
    return chosen[0] if chosen else None


@pytest.mark.parametrize("clause,example", list(_examples()))
def test_the_first_clause_cited_decides_the_main_effect(clause, example):
    ruleset = example.get("ruleset") or _home_ruleset(clause)
    if (example["situation"].get("before") or {}).get("colours") == "open":
        pytest.skip("colours open: the clause that sets them comes first (colours.py)")
    ruling = rule(installed(), example["situation"], ruleset, trace=True)
    step = _main_rule(ruling)
    if step is not None:
        assert ruling["clauses"][0] == step["clause"], (example.get("name"), step, ruling["clauses"])


@pytest.mark.parametrize("before,pocketed,first,also", [
    # aicf-2009 rule 9 ("Queen is not required to be covered") decides that a queen pocketed with
    # the right is the player's at once; rule 11 that the right exists
    ({"own_on_board": 8}, {"queen": True}, "aicf-2009:9", ["aicf-2009:11"]),
    ({"own_on_board": 6}, {"queen": True, "own": 1}, "aicf-2009:9", ["aicf-2009:11"]),
    # before any own coin there is no right (rule 11): the queen goes back, as icf-fr 3.12 c says too
    ({"own_on_board": 9}, {"queen": True}, "aicf-2009:11", ["icf-fr:3.12.c"]),
])
def test_aicf_cites_the_rule_that_decides_the_queen(before, pocketed, first, also):
    ruling = rule(installed(), {"ruleset": "aicf-2009", "before": before, "stroke": {"pocketed": pocketed}})
    assert ruling["clauses"][0] == first and set(also) <= set(ruling["clauses"])
