"""A stroke as the contract describes it: parsed, checked, and turned into the facts rules test.

The facts are the situation's fields plus a few derived ones (coins left once the stroke's
pockets are counted, whether anything was pocketed). Rules only ever test facts, one field at
a time, so the verifier can partition every field's values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from referee_app.core.errors import BadInput

QUEEN_STATES = ("on_board", "awaiting_cover", "covered_by_striker", "covered_by_opponent")
COINS_PER_SIDE = 9  # a set holds nine coins of each colour (icf-fr 2.2); the board starts with them all


@dataclass
class Situation:
    """A stroke and the board before it, from the striker's side: what the rules are asked about."""

    ruleset: str
    own_on_board: int = COINS_PER_SIDE
    opponent_on_board: int = COINS_PER_SIDE
    queen: str = "on_board"
    break_: bool = False
    break_attempt: int = 1
    after_break: bool = False
    dues: int = 0
    opponent_dues: int = 0
    score_striker: int = 0
    score_opponent: int = 0
    own_pocketed_earlier: bool | None = None
    touched_coin: bool = True
    own_pocketed: int = 0
    opponent_pocketed: int = 0
    queen_pocketed: bool = False
    striker_pocketed: bool = False
    own_off: int = 0
    opponent_off: int = 0
    queen_off: bool = False
    striker_off: bool = False
    foul: str = "none"

    def facts(self) -> dict:
        """The fields rules may test (see FACTS)."""
        return {
            "break": self.break_, "break_attempt": self.break_attempt, "touched_coin": self.touched_coin,
            "own_on_board": self.own_on_board, "opponent_on_board": self.opponent_on_board,
            "queen": self.queen, "dues": self.dues, "opponent_dues": self.opponent_dues,
            "own_pocketed": self.own_pocketed, "opponent_pocketed": self.opponent_pocketed,
            "queen_pocketed": self.queen_pocketed, "striker_pocketed": self.striker_pocketed,
            "own_off": self.own_off, "opponent_off": self.opponent_off,
            "queen_off": self.queen_off, "striker_off": self.striker_off, "foul": self.foul,
            "own_pocketed_earlier": (self.own_on_board < COINS_PER_SIDE
                                     if self.own_pocketed_earlier is None else self.own_pocketed_earlier),
            "after_break": self.after_break,
            "own_last_fell": 0 < self.own_pocketed == self.own_on_board,
            "opponent_last_fell": 0 < self.opponent_pocketed == self.opponent_on_board,
            "own_left": self.own_on_board - self.own_pocketed,
            "opponent_left": self.opponent_on_board - self.opponent_pocketed,
            "pocketed_any": bool(self.own_pocketed or self.opponent_pocketed or self.queen_pocketed),
        }


class Fact(NamedTuple):
    """One fact a rule may test: the single definition the parser, the matcher, the verifier and
    the documentation read. A named tuple, not a frozen dataclass, whose definition cost the start
    0.4 ms more (one exec per generated method).

    `field` is where a situation document gives it (None for a derived fact). `lo`..`hi` is the
    legal range of a number. `group` gathers the facts whose legal values depend on each other
    (a side's coins on the board, pocketed and knocked off): the verifier enumerates a group's
    values together. `legal_cuts` are the boundaries b (between b and b + 1) where what is
    possible changes (`check_possible`), so that the verifier keeps both sides of them.
    """

    name: str
    kind: str                      # int | bool | choice | foul
    meaning: str
    field: str | None = None
    lo: int = 0
    hi: int = 0
    choices: tuple = ()
    group: str = ""
    legal_cuts: tuple = ()
    # A value that is possible wherever another value of the fact is: where no condition of a
    # ruleset tests the fact, the verifier need try no other.
    neutral: object = None

    @property
    def derived(self) -> bool:
        return self.field is None

    def values(self) -> tuple:
        """Every legal value of a fact that has finitely many (all but `foul`)."""
        if self.kind == "int":
            return tuple(range(self.lo, self.hi + 1))
        if self.kind == "bool":
            return (False, True)
        return self.choices

    def describe(self) -> dict:
        out: dict = {"name": self.name, "kind": self.kind, "meaning": self.meaning, "field": self.field}
        if self.kind == "int":
            out["range"] = [self.lo, self.hi]
        elif self.kind != "foul":
            out["values"] = list(self.values())
        return out


N = COINS_PER_SIDE
MAX_BREAK_ATTEMPT = 99
_FACT_LIST = (
    Fact("break", "bool", "the board's break has not been made yet: this stroke is an attempt at it",
         "before.break", group="break"),
    Fact("break_attempt", "int", "which attempt at the break this stroke is, from 1 (1 when it is no break)",
         "before.break_attempt", 1, MAX_BREAK_ATTEMPT, group="break", legal_cuts=(1,)),
    Fact("after_break", "bool", "this stroke is the one right after the break was made (it 71)",
         "before.after_break", group="break", neutral=False),
    Fact("own_on_board", "int", "the striking side's coins on the board before the stroke",
         "before.own_on_board", 0, N, group="own", legal_cuts=(0, N - 1)),
    Fact("opponent_on_board", "int", "the other side's coins on the board before the stroke",
         "before.opponent_on_board", 0, N, group="opponent", legal_cuts=(0, N - 1)),
    Fact("queen", "choice", "the queen before the stroke", "before.queen", choices=QUEEN_STATES, group="queen"),
    Fact("dues", "int", "penalty coins the striking side owes and has not yet paid",
         "before.dues", 0, N, group="own", legal_cuts=(0,)),
    Fact("opponent_dues", "int", "penalty coins the other side owes", "before.opponent_dues", 0, N,
         group="opponent", legal_cuts=(0,)),
    Fact("own_pocketed_earlier", "bool", "a coin of the striking side was pocketed before this stroke "
         "(by default: fewer than nine of its coins are on the board)", "before.own_pocketed_earlier", group="own"),
    Fact("touched_coin", "bool", "the striker touched at least one coin", "stroke.touched_coin", group="touch"),
    Fact("own_pocketed", "int", "the striking side's coins pocketed by this stroke", "stroke.pocketed.own", 0, N,
         group="own", legal_cuts=(0,)),
    Fact("opponent_pocketed", "int", "the other side's coins pocketed by this stroke", "stroke.pocketed.opponent",
         0, N, group="opponent", legal_cuts=(0,)),
    Fact("queen_pocketed", "bool", "this stroke pocketed the queen", "stroke.pocketed.queen", group="queen"),
    Fact("striker_pocketed", "bool", "this stroke pocketed the striker", "stroke.pocketed.striker", group="striker"),
    Fact("own_off", "int", "the striking side's coins this stroke knocked off the board", "stroke.off_board.own",
         0, N, group="own", legal_cuts=(0,)),
    Fact("opponent_off", "int", "the other side's coins this stroke knocked off the board",
         "stroke.off_board.opponent", 0, N, group="opponent", legal_cuts=(0,)),
    Fact("queen_off", "bool", "this stroke knocked the queen off the board", "stroke.off_board.queen", group="queen"),
    Fact("striker_off", "bool", "the striker left the board", "stroke.off_board.striker", group="striker"),
    Fact("foul", "foul", "the foul the referee called (none, or a foul id of the ruleset)", "stroke.foul"),
    Fact("own_left", "int", "the striking side's coins left on the board once this stroke's pockets are counted",
         lo=0, hi=N, group="own"),
    Fact("opponent_left", "int", "the other side's coins left once this stroke's pockets are counted",
         lo=0, hi=N, group="opponent"),
    Fact("own_last_fell", "bool", "the striking side's last coin on the board fell with this stroke "
         "(not merely: it has none left)", group="own"),
    Fact("opponent_last_fell", "bool", "the other side's last coin on the board fell with this stroke",
         group="opponent"),
    Fact("pocketed_any", "bool", "this stroke pocketed a coin or the queen (the striker does not count)"),
    # decided before the board result is, and tested by board-ending rules
    Fact("queen_after", "choice", "the queen as this stroke leaves it, as the queen rules decide",
         choices=QUEEN_STATES),
)
FACTS: dict[str, Fact] = {f.name: f for f in _FACT_LIST}

def attribute(fact: Fact) -> str:
    """The Situation attribute holding an input fact (`break` is a Python keyword)."""
    return "break_" if fact.name == "break" else fact.name


INPUT_FACTS = tuple(f for f in _FACT_LIST if not f.derived)
_SECTIONS = {"before": {"score"}, "stroke": set()}
for _f in INPUT_FACTS:
    assert _f.field is not None  # an input fact is given somewhere
    _head, _key = _f.field.split(".", 1)
    _SECTIONS[_head].add(_key.split(".")[0])
_PIECES = {"own", "opponent", "queen", "striker"}


def _int(value, name: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(name, f"expected a whole number, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        raise BadInput(name, f"{value} is out of range ({lo} to {hi})" if hi is not None else f"{value} is below {lo}")
    return value


def _bool(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise BadInput(name, f"expected true or false, got {value!r}")
    return value


def _mapping(value, name: str, known: set) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadInput(name, f"expected a mapping, got {value!r}")
    for key in value:
        if key not in known:
            raise BadInput(f"{name}.{key}", f"unknown field (known: {', '.join(sorted(known))})")
    return value


def _checked(fact: Fact, value, fouls: set[str], ruleset: str | None):
    assert fact.field is not None  # an input fact
    if fact.kind == "int":
        return _int(value, fact.field, fact.lo, fact.hi)
    if fact.kind == "bool":
        return _bool(value, fact.field)
    if fact.kind == "choice":
        if value not in fact.choices:
            raise BadInput(fact.field, f"unknown value {value!r} (known: {', '.join(fact.choices)})")
        return value
    value = "none" if value is None else value
    if value != "none" and value not in fouls:
        raise BadInput(fact.field, f"unknown foul {value!r} for ruleset {ruleset} (see `carrom-referee fouls`)",
                       "unknown_foul", {"foul": value, "ruleset": ruleset})
    return value


def _sections(doc) -> dict:
    if not isinstance(doc, dict):
        raise BadInput("situation", "expected a mapping with 'before' and 'stroke'")
    for key in doc:
        if key not in {"ruleset", "before", "stroke"}:
            raise BadInput(key, "unknown field (known: ruleset, before, stroke)")
    if "stroke" not in doc:
        raise BadInput("stroke", "missing")
    before = _mapping(doc.get("before"), "before", _SECTIONS["before"])
    stroke = _mapping(doc.get("stroke"), "stroke", _SECTIONS["stroke"])
    if "pocketed" not in stroke:
        raise BadInput("stroke.pocketed", "missing (write {} when nothing was pocketed)")
    return {"before": before, "stroke": stroke,
            "stroke.pocketed": _mapping(stroke.get("pocketed"), "stroke.pocketed", _PIECES),
            "stroke.off_board": _mapping(stroke.get("off_board"), "stroke.off_board", _PIECES),
            "before.score": _mapping(before.get("score"), "before.score", {"striker", "opponent"})}


def parse(doc, ruleset: str | None, fouls: set[str], allow_empty_side: bool | dict = False) -> Situation:
    """Checks a situation document (already parsed YAML/JSON) and returns the Situation.

    `fouls` are the foul ids the ruleset knows; `allow_empty_side` is the ruleset's word on
    whether a side may have no coin left while the board goes on (aicf-2009 13).
    """
    sections = _sections(doc)
    s = Situation(ruleset=ruleset or "")
    for fact in INPUT_FACTS:
        assert fact.field is not None
        section, key = fact.field.rsplit(".", 1)
        if key in sections[section]:
            setattr(s, attribute(fact), _checked(fact, sections[section][key], fouls, ruleset))
    if not s.break_:
        s.break_attempt = 1  # read only on the break (the contract)
    score = sections["before.score"]
    s.score_striker = _int(score.get("striker", 0), "before.score.striker", 0, 999)
    s.score_opponent = _int(score.get("opponent", 0), "before.score.opponent", 0, 999)
    check_possible(s, allow_empty_side)
    return s


# What cannot happen on a board. Each check returns (field, problem) or None; `check_possible`
# runs them all, the verifier too, so that it never proves a situation the parser refuses.

def _too_many_pocketed(s):
    for side, label in (("own", "own"), ("opponent", "opponent")):
        on_board, pocketed = getattr(s, f"{side}_on_board"), getattr(s, f"{side}_pocketed")
        if pocketed > on_board:
            return f"stroke.pocketed.{label}", f"{pocketed} coins pocketed but only {on_board} were on the board"
    return None


def _too_many_off(s):
    for side in ("own", "opponent"):
        on_board, pocketed, off = (getattr(s, f"{side}_on_board"), getattr(s, f"{side}_pocketed"),
                                   getattr(s, f"{side}_off"))
        if pocketed + off > on_board:
            return (f"stroke.off_board.{side}", f"{off} coins left the board but only {on_board - pocketed} "
                    "were still on it after the pocketed ones")
    return None


def _queen_gone(s):
    if s.queen_pocketed and s.queen != "on_board":
        return "stroke.pocketed.queen", f"the queen is not on the board (before.queen: {s.queen})"
    if s.queen_off and s.queen != "on_board":
        return "stroke.off_board.queen", f"the queen is not on the board (before.queen: {s.queen})"
    if s.queen_off and s.queen_pocketed:
        return "stroke.off_board.queen", "the queen cannot both be pocketed and leave the board"
    return None


def _striker_twice(s):
    if s.striker_off and s.striker_pocketed:
        return "stroke.off_board.striker", "the striker cannot both be pocketed and leave the board"
    return None


def _moved_untouched(s):
    moved = s.own_pocketed or s.opponent_pocketed or s.queen_pocketed or s.own_off or s.opponent_off or s.queen_off
    if not s.touched_coin and moved:
        return "stroke.touched_coin", "false, yet coins were pocketed or knocked off the board"
    return None


def _break_not_opening(s):
    if s.break_ and (s.own_on_board != COINS_PER_SIDE or s.opponent_on_board != COINS_PER_SIDE
                     or s.queen != "on_board"):
        return "before.break", "true, but the board is not in its opening position (all coins and the queen on it)"
    if s.break_ and s.after_break:
        return "before.after_break", "true, but the break has not been made yet (before.break: true)"
    if not s.break_ and s.break_attempt != 1:
        return "before.break_attempt", f"{s.break_attempt}, but before.break is false: there is no break to attempt"
    return None


def _empty_side(s, allow_empty_side, partial=False):
    if isinstance(allow_empty_side, dict):
        # The ruleset lets a side that has pocketed its last coin wait on one stroke of the other
        # side, in one position only (fr-house 9.8), seen from the side that strikes then.
        if s.own_on_board == 0:
            return "before.own_on_board", "0: that side has no coin left, so it does not strike again"
        if s.opponent_on_board == 0 and not partial:   # a position: facts of both sides and the queen
            for name, value in allow_empty_side.items():
                if getattr(s, name) != value:
                    return ("before.opponent_on_board", f"0 is only possible here with {name}: {value} (the "
                            "opponent finished and this side strikes once for its last coin)")
        return None
    if (s.own_on_board == 0 or s.opponent_on_board == 0) and not allow_empty_side:
        return ("before.own_on_board" if s.own_on_board == 0 else "before.opponent_on_board",
                "0: that side has no coin left, so the board is already over")
    # Where a side may have no coin left and play on for the queen (aicf-2009 13), it is that
    # side's queen still to pocket: had the other side taken it, or failed after taking it while
    # finishing, the board would be over. A side with coins left may hold the queen it pocketed
    # first, while the other side has none.
    if allow_empty_side and s.own_on_board == 0 and s.queen != "on_board":
        return "before.queen", f"{s.queen} while the striking side has no coin left: the board is over"
    if allow_empty_side and s.opponent_on_board == 0 and s.queen not in ("on_board", "covered_by_striker"):
        return "before.queen", f"{s.queen} while the opponent has no coin left: the board is over"
    return None


def _dues_with_coins_pocketed(s):
    # A due is paid as soon as a pocketed coin is there to pay it (icf-fr 3.11.a, g):
    # owing one while holding a pocketed coin is a score-sheet slip, not a position.
    if s.dues and s.own_on_board < COINS_PER_SIDE:
        return "before.dues", (f"{s.dues} owed, yet {COINS_PER_SIDE - s.own_on_board} of the side's coins "
                               "are in the pockets and would already have paid it")
    if s.opponent_dues and s.opponent_on_board < COINS_PER_SIDE:
        return "before.opponent_dues", (f"{s.opponent_dues} owed, yet {COINS_PER_SIDE - s.opponent_on_board} "
                                        "of the opponent's coins are in the pockets")
    return None


def _earlier_denied(s):
    if s.own_pocketed_earlier is False and s.own_on_board < COINS_PER_SIDE:
        return "before.own_pocketed_earlier", (f"false, yet {COINS_PER_SIDE - s.own_on_board} of the side's "
                                               "coins are in the pockets")
    return None


_CHECKS = (_too_many_pocketed, _too_many_off, _queen_gone, _striker_twice, _moved_untouched, _break_not_opening,
           _dues_with_coins_pocketed, _earlier_denied)


def impossibility(s: Situation, allow_empty_side: bool | dict = False, partial: bool = False) -> tuple[str, str] | None:
    """(field, problem) for the first thing in `s` that cannot happen on a board, else None.
    `partial`: only some facts are set (the verifier's groups); leave out what links them to others."""
    for check in _CHECKS:
        found = check(s)
        if found:
            return found
    return _empty_side(s, allow_empty_side, partial)


def check_possible(s: Situation, allow_empty_side: bool | dict = False) -> None:
    """Refuses what cannot happen on a board, naming the field."""
    found = impossibility(s, allow_empty_side)
    if found:
        raise BadInput(*found)
