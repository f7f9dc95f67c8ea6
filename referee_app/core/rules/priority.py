"""Where a ruleset's own clauses contradict each other, and what decides between them.

Two rules that both apply to a situation and give one aspect different values are a
contradiction of the text (or of the text and a text it borrows from). The engine settles it by
`exception_to` alone (engine.resolve); this module says on what that priority rests, so that a
ruling resting on the project's reading says so (ruling.py adds the note) and `verify` can list
every such region (verify.py):

- `stated`: the text itself says it (the words are quoted in the rule's `priority.stated`:
  "sauf", "Exception", "Però", a "Cas particuliers" heading...);
- `reading`: the project's reading (`priority.reading`: its note in fr, it, en, or the rule's own
  note), saying which clause prevails over which and why (compile.py refuses one without);
- `own_first`: a borrowed rule gives way to the ruleset's own text wherever that speaks, and a
  borrowed rule that overrides the own text does so by the ruleset's `borrows` entry, whose note
  every ruling it decides shows;
- `borrowed`: the ruleset's own clauses leave the stroke without one ruling (they contradict each
  other with nothing to decide between them), and a borrowed clause settles it, with its note;
- `silent`: the knowledge base gives no reason; `verify` fails on it.

A rule marked `default: true` is the base case the others stand out from: losing to them is no
contradiction.
"""
from __future__ import annotations

from typing import NamedTuple

from .engine import CompiledRuleset, Decision, Rule, _key

STATED, READING, OWN_FIRST, BORROWED, SILENT = "stated", "reading", "own_first", "borrowed", "silent"


class Overridden(NamedTuple):
    """One aspect of one situation where `winner` decided against `loser`, and on what ground."""

    aspect: str
    winner: Rule
    loser: Rule
    ground: str


def _targets(loser: Rule) -> set[str]:
    return {loser.id, loser.clause, loser.home or loser.clause}


def ground(rs: CompiledRuleset, winner: Rule, loser: Rule) -> str:
    """On what `winner`'s priority over `loser` rests (see the module's docstring)."""
    w_borrowed, l_borrowed = rs.is_borrowed(winner), rs.is_borrowed(loser)
    if l_borrowed and not w_borrowed:
        return OWN_FIRST
    if w_borrowed and not l_borrowed:
        # the ruleset's borrows entry says the borrowed clause wins here, with its note; or the own
        # text leaves the stroke without one ruling and the borrowed clause settles it (engine.decide)
        return OWN_FIRST if rs.borrow_overrides(winner, loser) else BORROWED
    p = winner.priority
    if p is None:
        return SILENT
    if p["reading"] is not None and (not p["over"] or _targets(loser) & set(p["over"])):
        return READING
    return STATED if p["stated"] is not None else READING


def overridden(rs: CompiledRuleset, d: Decision, aspects) -> list[Overridden]:
    """Each (aspect, winner, loser) where an applicable rule lost, with a different value, to an
    exception among the rules that decided; the base cases (`default`) are left out."""
    out = []
    for aspect in aspects:
        chosen = d.rules.get(aspect)
        if not chosen:
            continue
        value = _key(chosen[0].then[aspect])
        chosen_ids = {r.id for r in chosen}
        for loser in d.applicable(aspect):
            if (loser.default or loser.id in chosen_ids or aspect not in loser.then
                    or _key(loser.then[aspect]) == value):
                continue
            winners = [w for w in chosen if loser.id in w.overrides] or chosen
            for w in winners:
                out.append(Overridden(aspect, w, loser, ground(rs, w, loser)))
    return out
