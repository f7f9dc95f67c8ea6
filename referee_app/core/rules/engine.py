"""Deciding with rules as data: the `decides` entries of a ruleset's clauses, once compiled
(compile.py), decide each aspect of a situation.

A rule decides one or more *aspects* of a ruling (the turn, the fate of the own coins pocketed,
the penalty, the queen, the board, whether the break is made). For each aspect of a situation,
the deciding rules are those that apply and are not overridden by an applicable exception
(`exception_to`, a rule or a whole clause, transitively). Exactly one value must remain: none
is a gap, two are a conflict; both are refused, never resolved by a hidden priority. A rule
marked `default: true` is the Catala-style base case: it decides only where no other rule does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .conditions import Test, matches
from referee_app.core.knowledge.model import Ruleset
from .situation import QUEEN_STATES

ASPECTS = {
    "break_made": (True, False),
    "queen": QUEEN_STATES,
    "own": ("stays", "returned"),
    "opponent": ("stays", "returned"),
    "penalty": "int",
    "turn": ("continues", "passes"),
    "board": "board",
}
# Decided in this order: the board result may test the queen as this stroke left it.
ORDER = ("break_made", "queen", "own", "opponent", "penalty", "turn", "board")


class Board(NamedTuple):   # not a frozen dataclass: docs/architecture.md, Start-up
    """A decided board result: over with a winner and each side's point terms, or going on."""

    over: bool
    winner: str | None = None
    winner_terms: tuple = ()
    loser_terms: tuple = ()


CONTINUES = Board(False)


@dataclass
class Rule:
    """One formal rule of a clause, compiled: its tests and what it decides."""

    id: str
    clause: str
    tests: tuple[Test, ...]
    then: dict
    exception_to: tuple[str, ...]
    default: bool
    note: dict | None
    index: int  # position in reading order, to cite the most specific first
    overrides: frozenset = frozenset()
    never_decisive: str | None = None  # why no situation of the ruleset lets it decide, if that is meant
    # Where a ruleset's own text says what another's clause says (`shares`), the rule is written
    # once under that other clause (`home`) and cited as this ruleset's clause (`clause`, `also`).
    home: str = ""
    also: tuple = ()
    # Why it wins over the rules it is an exception to where they disagree (compile._compile_priority):
    # the text's words, or the project's reading; None where the knowledge base does not say.
    priority: dict | None = None
    # a borrowed rule: the own rules its ruleset's `borrows` entry names as overridden (compile.py)
    borrow_named: frozenset = frozenset()

    def tests_fact(self, fact: str) -> bool:
        return any(t.fact == fact for t in self.tests)


class NoRule(Exception):
    def __init__(self, aspect, situation_facts):
        self.aspect, self.facts = aspect, situation_facts
        super().__init__(f"no rule decides the {aspect} here")


class Conflict(Exception):
    def __init__(self, aspect, rules, values):
        self.aspect, self.rules, self.values = aspect, rules, values
        super().__init__(f"rules {', '.join(r.id for r in rules)} decide the {aspect} differently: {values}")


@dataclass(eq=False)   # compared by nobody: docs/architecture.md, Start-up
class Decision:
    """What the rules decided for a situation, aspect by aspect, and which rules did."""

    values: dict = field(default_factory=dict)   # aspect -> value
    rules: dict = field(default_factory=dict)    # aspect -> [Rule]
    first: list = field(default_factory=list)    # the rules that applied, but those testing queen_after
    board: list = field(default_factory=list)    # the rules that applied to the board result
    board_facts: dict = field(default_factory=dict)  # the facts with queen_after, as the board rules saw them

    def applicable(self, aspect: str) -> list:
        return self.board if aspect == "board" else self.first


@dataclass(eq=False, repr=False)   # compared and printed by nobody: docs/architecture.md, Start-up
class CompiledRuleset:
    """A ruleset ready to rule: its parameters, rules, fouls and mechanics, each with its clause."""

    ruleset: Ruleset
    params: dict                      # name -> value
    param_clauses: dict               # name -> clause id
    rules: list[Rule]
    fouls: dict                       # id -> {names, clauses}
    mechanics: dict                   # name -> clause id
    allow_empty_side: bool | dict   # True, or the one position where the opponent may have none left
    borrowed: dict                    # clause id -> note (fr/it/en)
    foul_only_when: dict = field(default_factory=dict)  # foul id -> tests the situation must pass
    queen_states: tuple = QUEEN_STATES                   # the queen states this ruleset knows
    never_decisive: dict = field(default_factory=dict)   # rule id -> why it never decides here
    assumptions: dict = field(default_factory=dict)      # parameter -> reason (fr/it/en): the text is silent
    # a borrowed clause -> the own rules or clauses its `borrows` entry lets it override
    borrow_exceptions: dict = field(default_factory=dict)

    def is_borrowed(self, rule: Rule) -> bool:
        """Whether the rule is another text's, borrowed where this ruleset's own text is silent."""
        return rule.clause in self.borrowed

    def borrow_overrides(self, winner: Rule, loser: Rule) -> bool:
        """Whether the ruleset's `borrows` entry of `winner` names `loser` (its rule or clause) as overridden."""
        targets = set(self.borrow_exceptions.get(winner.clause, ()))
        return bool(targets & {loser.id, loser.clause, loser.home or loser.clause})

    def __post_init__(self):
        # Board rules may test the queen as this stroke leaves it, known only once the queen
        # rules have spoken: they are matched after the others (split once, not per situation).
        self._first = [r for r in self.rules if not r.tests_fact("queen_after")]
        self._after_queen = [r for r in self.rules if r.tests_fact("queen_after")]
        # Borrowed rules give way to the ruleset's own text wherever it decides (resolve); a borrowed
        # rule whose `borrows` entry names the own rule it overrides counts as own text there.
        self._borrowed = frozenset(r.id for r in self.rules if self.is_borrowed(r))

    def applicable(self, facts: dict) -> list[Rule]:
        return [r for r in self._first if matches(r.tests, facts)]

    def decide(self, facts: dict, relevant=None) -> Decision:
        """Decides every aspect; raises NoRule or Conflict where the rules fail to give exactly one.
        The ruleset's own text first: a borrowed rule decides an aspect only where the own rules
        do not; and where the own text leaves the stroke without one ruling, the borrowed rules
        take part everywhere, with the exceptions their text gives them."""
        if self._borrowed:
            try:
                return self._decide(facts, relevant, self._borrowed)
            except (NoRule, Conflict):
                pass
        return self._decide(facts, relevant, frozenset())

    def _decide(self, facts: dict, relevant, borrowed: frozenset) -> Decision:
        applicable = self.applicable(facts)
        decision = Decision(first=applicable)
        relevant = relevant or relevance
        for aspect in ORDER:
            if aspect == "board":
                facts = dict(facts, queen_after=decision.values.get("queen", facts["queen"]))
                applicable = applicable + [r for r in self._after_queen if matches(r.tests, facts)]
                decision.board, decision.board_facts = applicable, facts
            value, rules = resolve(aspect, applicable, borrowed)
            if rules:
                decision.values[aspect], decision.rules[aspect] = value, rules
        over = decision.values.get("board", CONTINUES).over
        for aspect in ORDER:
            if aspect not in decision.values and relevant(aspect, facts, over):
                raise NoRule(aspect, facts)
        return decision


# What a foul committed between strokes needs of the stroke it is recorded with: nothing moved.
BETWEEN_STROKES = {"pocketed_any": False, "striker_pocketed": False, "own_off": 0, "opponent_off": 0, "queen_off": False}


def foul_timing(foul) -> str:
    """`between_strokes` for a foul committed outside a stroke (recorded on its own, nothing moved:
    its only_when holds BETWEEN_STROKES), else `during_stroke`; a foul's `timing` says it, and
    compile.py checks it against its only_when."""
    when = foul.get("only_when") or {}
    return "between_strokes" if all(when.get(k) == v for k, v in BETWEEN_STROKES.items()) else "during_stroke"


def relevance(aspect: str, facts: dict, board_over: bool) -> bool:
    """Whether a ruling must say something about this aspect in this situation."""
    if aspect == "board":
        return True
    if aspect == "break_made":
        return facts["break"]
    if board_over:
        return False  # the board result makes the rest moot (icf-fr 3.7.d cancels penalties)
    if aspect == "queen":
        return facts["queen_pocketed"] or facts["queen"] == "awaiting_cover" or facts["queen_off"]
    if aspect == "own":
        return facts["own_pocketed"] > 0
    if aspect == "opponent":
        return facts["opponent_pocketed"] > 0
    return True


def resolve(aspect: str, applicable: list[Rule], borrowed: frozenset = frozenset()):
    """The one value the applicable, non-overridden rules give for `aspect`, and those rules.
    Where some are borrowed from another text, the ruleset's own rules decide alone when they
    give one value that is not a base case; only where they do not (silent, a base case, or at
    odds with each other) do the borrowed rules take part, with their exceptions."""
    candidates = [r for r in applicable if aspect in r.then]
    if not candidates:
        return None, []
    if borrowed and any(r.id in borrowed for r in candidates):
        ids = {r.id for r in candidates}
        own = [r for r in candidates if r.id not in borrowed or r.borrow_named & ids]
        if own and len(own) < len(candidates):
            try:
                value, rules = resolve(aspect, own)
            except Conflict:
                pass
            else:
                if rules and not rules[0].default:
                    return value, rules
    standing = [r for r in candidates if not any(r.id in o.overrides for o in candidates if o is not r)]
    chosen = [r for r in standing if not r.default] or [r for r in standing if r.default]
    values = {_key(r.then[aspect]) for r in chosen}
    if len(values) > 1:
        raise Conflict(aspect, chosen, [r.then[aspect] for r in chosen])
    chosen.sort(key=lambda r: (r.default, -len(r.tests), r.index))
    return chosen[0].then[aspect], chosen


def _key(value):
    return value if not isinstance(value, Board) else (value.over, value.winner, value.winner_terms, value.loser_terms)
