"""One stroke under every ruleset: what organisers ask when they choose an event's rules, what
the window's "Compare rulesets" shows, and where the quiz finds the rulings a learner confuses.
`carrom-referee rule --all-rulesets` prints it (the contract's "One stroke under every ruleset").
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput
from . import colours
from .engine import Conflict, NoRule
from .ruling import refusal, rule

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge


def rule_everywhere(knowledge: Knowledge, doc, rulesets=None, open_as_set: bool = False) -> list[dict]:
    """The situation `doc` (its own `ruleset` ignored) ruled under each ruleset, in the order of
    `rulesets` (default: every one, in the knowledge base's order): each exactly what
    `rule(knowledge, doc, R)` gives, or `{"ruleset": R, "refused": message}` where R cannot rule
    it (the message `rule --ruleset R` would print).

    `open_as_set`: a stroke ticked while the colours are open is shown by a ruleset whose colours
    are set from the start with the striking side playing the colour the first ruleset that
    decides colours gave it (the window compares a stroke so); the contract's answer refuses it."""
    if isinstance(doc, dict):
        doc = {k: v for k, v in doc.items() if k != "ruleset"}
    chosen = list(knowledge.rulesets) if rulesets is None else list(rulesets)
    is_open = open_as_set and colours.is_open(doc)
    # the rulesets that decide the colours first, so the others can be shown the colour they gave
    order = sorted(chosen, key=lambda rid: not (is_open and knowledge.colours(rid))) if is_open else chosen
    striker_colour = "light"
    out: dict[str, dict] = {}
    for rid in order:
        as_set = is_open and not knowledge.colours(rid)
        try:
            out[rid] = rule(knowledge, colours.in_sides(doc, striker_colour) if as_set else doc, rid)
        except BadInput as exc:
            out[rid] = {"ruleset": rid, "refused": _one_line(exc)}
        except (NoRule, Conflict) as exc:
            out[rid] = {"ruleset": rid, "refused": _one_line(refusal(exc))}
        else:
            if is_open and not as_set:
                striker_colour = out[rid]["after"].get("striker_colour", striker_colour)
    return [out[rid] for rid in chosen]


def _one_line(exc: BadInput) -> str:
    from referee_app.core.validation import one_line

    return one_line(str(exc))
