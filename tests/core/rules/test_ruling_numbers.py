"""Every ruling's numbers agree with each other (issue 29): for each side, the coins on the board
after the stroke are those before it, less those pocketed, plus those that go back (a due paid
counts as going back); the queen is back on the board exactly when the ruling says it returned.

Run over every situation `verify` enumerates for every ruleset (all of them, not a sample: the
numbers alone are carried out, without the explanation, so the run stays within seconds a ruleset)."""
from __future__ import annotations

import pytest

from referee_app.core.rules.engine import Conflict, NoRule
from referee_app.core.rules.ruling import carried_out
from referee_app.core.rules.situation import COINS_PER_SIDE
from referee_app.core.rules.verify import situations

from support.kbcopy import installed


def _wrong(s, r) -> list[str]:
    after, back = r["after"], r["returned"]
    out = []
    for side, on_board, pocketed in (("own", s.own_on_board, s.own_pocketed),
                                     ("opponent", s.opponent_on_board, s.opponent_pocketed)):
        key = "own_on_board" if side == "own" else "opponent_on_board"
        if after[key] != on_board - pocketed + back[side]:
            out.append(f"{side}: {on_board} - {pocketed} + {back[side]} returned != after {after[key]}")
        if not 0 <= after[key] <= COINS_PER_SIDE or not 0 <= back[side] <= COINS_PER_SIDE:
            out.append(f"{side}: out of 0..{COINS_PER_SIDE}")
    queen_was_on = s.queen == "on_board" and not s.queen_pocketed
    if (after["queen"] == "on_board") != (queen_was_on or back["queen"]):
        out.append(f"queen: before {s.queen}, pocketed {s.queen_pocketed}, returned {back['queen']}, "
                   f"after {after['queen']}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(installed().rulesets))
def test_every_rulings_numbers_add_up(ruleset):
    k = installed()
    rs = k.compiled(ruleset)
    wrong, n = {}, 0
    for s, facts in situations(rs):
        try:
            decision = rs.decide(facts)
        except (NoRule, Conflict):
            continue   # verify reports these; none is left in the knowledge base
        r = carried_out(rs, s, decision)
        n += 1
        for problem in _wrong(s, r):
            wrong.setdefault(problem.split(":")[0], (problem, dict(facts)))
    assert n > 1000
    assert not wrong, list(wrong.values())[:5]
