"""A stroke as the contract describes it: parsed, checked, and turned into the facts rules test.

The facts are the situation's fields plus a few derived ones (coins left once the stroke's
pockets are counted, whether anything was pocketed). Rules only ever test facts, one field at
a time, so the verifier can partition every field's values.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee_app.core.errors import BadInput

QUEEN_STATES = ("on_board", "awaiting_cover", "covered_by_striker", "covered_by_opponent")
COINS_PER_SIDE = 9  # a set holds nine coins of each colour (icf-fr 2.2); the board starts with them all


@dataclass
class Situation:
    ruleset: str
    own_on_board: int = COINS_PER_SIDE
    opponent_on_board: int = COINS_PER_SIDE
    queen: str = "on_board"
    break_: bool = False
    break_attempt: int = 1
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
            **derived(self.own_on_board, self.opponent_on_board, self.own_pocketed, self.opponent_pocketed,
                      self.queen_pocketed),
        }


def derived(own_on_board, opponent_on_board, own_pocketed, opponent_pocketed, queen_pocketed) -> dict:
    return {
        "own_left": own_on_board - own_pocketed,
        "opponent_left": opponent_on_board - opponent_pocketed,
        "pocketed_any": bool(own_pocketed or opponent_pocketed or queen_pocketed),
    }


# Every fact a condition may test, with its kind; `values` for enumerations.
FACTS = {
    "break": "bool", "break_attempt": "int", "touched_coin": "bool",
    "own_on_board": "int", "opponent_on_board": "int", "queen": QUEEN_STATES,
    "dues": "int", "opponent_dues": "int",
    "own_pocketed": "int", "opponent_pocketed": "int", "queen_pocketed": "bool", "striker_pocketed": "bool",
    "own_off": "int", "opponent_off": "int", "queen_off": "bool", "striker_off": "bool",
    "foul": "foul", "own_pocketed_earlier": "bool",
    "own_left": "int", "opponent_left": "int", "pocketed_any": "bool",
    # decided before the board result is, and tested by board-ending rules
    "queen_after": QUEEN_STATES,
}

_BEFORE = {"own_on_board", "opponent_on_board", "queen", "break", "break_attempt", "dues", "opponent_dues",
           "score", "own_pocketed_earlier"}
_STROKE = {"touched_coin", "pocketed", "off_board", "foul"}
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


def parse(doc, ruleset: str | None, fouls: set[str], allow_empty_side: bool = False) -> Situation:
    """Checks a situation document (already parsed YAML/JSON) and returns the Situation.

    `fouls` are the foul ids the ruleset knows; `allow_empty_side` is the ruleset's word on
    whether a side may have no coin left while the board goes on (aicf-2009 13).
    """
    if not isinstance(doc, dict):
        raise BadInput("situation", "expected a mapping with 'before' and 'stroke'")
    for key in doc:
        if key not in {"ruleset", "before", "stroke"}:
            raise BadInput(key, "unknown field (known: ruleset, before, stroke)")
    if "stroke" not in doc:
        raise BadInput("stroke", "missing")
    before = _mapping(doc.get("before"), "before", _BEFORE)
    stroke = _mapping(doc.get("stroke"), "stroke", _STROKE)
    if "pocketed" not in stroke:
        raise BadInput("stroke.pocketed", "missing (write {} when nothing was pocketed)")
    pocketed = _mapping(stroke.get("pocketed"), "stroke.pocketed", _PIECES)
    off = _mapping(stroke.get("off_board"), "stroke.off_board", _PIECES)
    score = _mapping(before.get("score"), "before.score", {"striker", "opponent"})

    s = Situation(ruleset=ruleset or "")
    s.own_on_board = _int(before.get("own_on_board", COINS_PER_SIDE), "before.own_on_board", 0, COINS_PER_SIDE)
    s.opponent_on_board = _int(before.get("opponent_on_board", COINS_PER_SIDE), "before.opponent_on_board", 0,
                               COINS_PER_SIDE)
    s.queen = before.get("queen", "on_board")
    if s.queen not in QUEEN_STATES:
        raise BadInput("before.queen", f"unknown value {s.queen!r} (known: {', '.join(QUEEN_STATES)})")
    s.break_ = _bool(before.get("break", False), "before.break")
    s.break_attempt = _int(before.get("break_attempt", 1), "before.break_attempt", 1, 99)
    s.dues = _int(before.get("dues", 0), "before.dues", 0, COINS_PER_SIDE)
    s.opponent_dues = _int(before.get("opponent_dues", 0), "before.opponent_dues", 0, COINS_PER_SIDE)
    s.score_striker = _int(score.get("striker", 0), "before.score.striker", 0, 999)
    s.score_opponent = _int(score.get("opponent", 0), "before.score.opponent", 0, 999)
    if "own_pocketed_earlier" in before:
        s.own_pocketed_earlier = _bool(before["own_pocketed_earlier"], "before.own_pocketed_earlier")

    s.touched_coin = _bool(stroke.get("touched_coin", True), "stroke.touched_coin")
    s.own_pocketed = _int(pocketed.get("own", 0), "stroke.pocketed.own", 0, COINS_PER_SIDE)
    s.opponent_pocketed = _int(pocketed.get("opponent", 0), "stroke.pocketed.opponent", 0, COINS_PER_SIDE)
    s.queen_pocketed = _bool(pocketed.get("queen", False), "stroke.pocketed.queen")
    s.striker_pocketed = _bool(pocketed.get("striker", False), "stroke.pocketed.striker")
    s.own_off = _int(off.get("own", 0), "stroke.off_board.own", 0, COINS_PER_SIDE)
    s.opponent_off = _int(off.get("opponent", 0), "stroke.off_board.opponent", 0, COINS_PER_SIDE)
    s.queen_off = _bool(off.get("queen", False), "stroke.off_board.queen")
    s.striker_off = _bool(off.get("striker", False), "stroke.off_board.striker")
    foul = stroke.get("foul")
    s.foul = "none" if foul is None else foul
    if s.foul != "none" and s.foul not in fouls:
        raise BadInput("stroke.foul", f"unknown foul {foul!r} for ruleset {ruleset} (see `carrom-referee fouls`)")
    check_possible(s, allow_empty_side)
    return s


def check_possible(s: Situation, allow_empty_side: bool = False) -> None:
    """Refuses what cannot happen on a board, naming the field."""
    if s.own_pocketed > s.own_on_board:
        raise BadInput("stroke.pocketed.own", f"{s.own_pocketed} coins pocketed but only {s.own_on_board} were on the board")
    if s.opponent_pocketed > s.opponent_on_board:
        raise BadInput("stroke.pocketed.opponent",
                       f"{s.opponent_pocketed} coins pocketed but only {s.opponent_on_board} were on the board")
    if s.own_pocketed + s.own_off > s.own_on_board:
        raise BadInput("stroke.off_board.own", f"{s.own_off} coins left the board but only "
                       f"{s.own_on_board - s.own_pocketed} were still on it after the pocketed ones")
    if s.opponent_pocketed + s.opponent_off > s.opponent_on_board:
        raise BadInput("stroke.off_board.opponent", f"{s.opponent_off} coins left the board but only "
                       f"{s.opponent_on_board - s.opponent_pocketed} were still on it after the pocketed ones")
    if s.queen_pocketed and s.queen != "on_board":
        raise BadInput("stroke.pocketed.queen", f"the queen is not on the board (before.queen: {s.queen})")
    if s.queen_off and s.queen != "on_board":
        raise BadInput("stroke.off_board.queen", f"the queen is not on the board (before.queen: {s.queen})")
    if s.queen_off and s.queen_pocketed:
        raise BadInput("stroke.off_board.queen", "the queen cannot both be pocketed and leave the board")
    if s.striker_off and s.striker_pocketed:
        raise BadInput("stroke.off_board.striker", "the striker cannot both be pocketed and leave the board")
    if not s.touched_coin and (s.own_pocketed or s.opponent_pocketed or s.queen_pocketed or s.own_off
                               or s.opponent_off or s.queen_off):
        raise BadInput("stroke.touched_coin", "false, yet coins were pocketed or knocked off the board")
    if s.break_:
        if s.own_on_board != COINS_PER_SIDE or s.opponent_on_board != COINS_PER_SIDE or s.queen != "on_board":
            raise BadInput("before.break", "true, but the board is not in its opening position (all coins and the queen on it)")
    if (s.own_on_board == 0 or s.opponent_on_board == 0) and not allow_empty_side:
        raise BadInput("before.own_on_board" if s.own_on_board == 0 else "before.opponent_on_board",
                       "0: that side has no coin left, so the board is already over")
    # Where a side may have no coin left and play on for the queen (aicf-2009 13), it is that
    # side's queen still to pocket: had the other side taken it, or failed after taking it while
    # finishing, the board would be over. A side with coins left may hold the queen it pocketed
    # first, while the other side has none.
    if allow_empty_side and s.own_on_board == 0 and s.queen != "on_board":
        raise BadInput("before.queen", f"{s.queen} while the striking side has no coin left: the board is over")
    if allow_empty_side and s.opponent_on_board == 0 and s.queen not in ("on_board", "covered_by_striker"):
        raise BadInput("before.queen", f"{s.queen} while the opponent has no coin left: the board is over")
    if s.dues and s.own_on_board < COINS_PER_SIDE:
        # A due is paid as soon as a pocketed coin is there to pay it (icf-fr 3.11.a, g):
        # owing one while holding a pocketed coin is a score-sheet slip, not a position.
        raise BadInput("before.dues", f"{s.dues} owed, yet {COINS_PER_SIDE - s.own_on_board} of the side's coins "
                       "are in the pockets and would already have paid it")
    if s.opponent_dues and s.opponent_on_board < COINS_PER_SIDE:
        raise BadInput("before.opponent_dues", f"{s.opponent_dues} owed, yet "
                       f"{COINS_PER_SIDE - s.opponent_on_board} of the opponent's coins are in the pockets")
