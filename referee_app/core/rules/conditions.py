"""Conditions are data: a fact name and a value, a set of values, or a range. Nothing is evaluated.

    own_pocketed: 0                      equal
    queen: [on_board, awaiting_cover]    one of
    own_left: {min: 1}                   range, bounds inclusive (min, max)
    break_attempt: {below: $break_attempts}   exclusive upper bound; `$name` is a ruleset parameter
    foul: {not: none}                    anything but

A rule's `when` is the conjunction of such tests, one per fact. Each test compiles to a set of
allowed values over the fact's domain, which is what lets the verifier partition the facts.
"""
from __future__ import annotations

from typing import NamedTuple

from .situation import FACTS


class ConditionError(ValueError):
    pass


class Test(NamedTuple):
    """One compiled condition of a rule's `when`: a fact and the values it allows. A named tuple,
    not a frozen dataclass, whose definition cost the start 0.3 ms more, and each of the 200-odd a
    compile makes twice as long."""

    fact: str
    equals: object = None
    one_of: tuple | None = None
    min: int | None = None
    max: int | None = None
    negate: bool = False

    def __call__(self, value) -> bool:
        return matches((self,), {self.fact: value})

    def boundaries(self) -> set[int]:
        """The numbers b where this test may answer differently for b and b + 1: cut there, the
        number line falls into intervals on each of which the test gives one answer."""
        points = set()
        if self.min is not None:
            points.add(self.min - 1)
        if self.max is not None:
            points.add(self.max)
        for v in (self.equals,) + tuple(self.one_of or ()):
            if isinstance(v, int) and not isinstance(v, bool):
                points |= {v - 1, v}
        return points


def _resolve(value, params: dict, where: str):
    if isinstance(value, str) and value.startswith("$"):
        name = value[1:]
        if name not in params:
            raise ConditionError(f"{where}: unknown parameter ${name}")
        return params[name]
    return value


def _check_value(fact: str, value, where: str, fouls: set[str]):
    kind = FACTS[fact].kind
    if kind == "bool" and not isinstance(value, bool):
        raise ConditionError(f"{where}: {fact} takes true or false, not {value!r}")
    if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConditionError(f"{where}: {fact} takes a whole number, not {value!r}")
    if kind == "choice" and value not in FACTS[fact].choices:
        raise ConditionError(f"{where}: {fact} takes one of {', '.join(FACTS[fact].choices)}, not {value!r}")
    if kind == "foul" and (not isinstance(value, str) or (value != "none" and value not in fouls)):
        raise ConditionError(f"{where}: unknown foul {value!r}")


def _range_test(fact: str, spec: dict, params: dict, at: str, negate: bool, fouls) -> Test:
    unknown = set(spec) - {"min", "max", "below"}
    if unknown or FACTS[fact].kind != "int":
        raise ConditionError(f"{at}: a range takes min, max or below, on a number fact")
    lo = _resolve(spec.get("min"), params, at)
    hi = _resolve(spec.get("max"), params, at)
    if "below" in spec:
        below = _resolve(spec["below"], params, at)
        _check_value(fact, below, at, fouls)
        hi = below - 1 if hi is None else min(hi, below - 1)
    for v in (lo, hi):
        if v is not None:
            _check_value(fact, v, at, fouls)
    return Test(fact, min=lo, max=hi, negate=negate)


def _test(fact: str, spec, params: dict, at: str, fouls: set[str]) -> Test:
    if fact not in FACTS:
        raise ConditionError(f"{at}: unknown fact (known: {', '.join(sorted(FACTS))})")
    negate = False
    if isinstance(spec, dict) and set(spec) == {"not"}:
        negate, spec = True, spec["not"]
    if isinstance(spec, dict):
        return _range_test(fact, spec, params, at, negate, fouls)
    if isinstance(spec, list):
        values = tuple(_resolve(v, params, at) for v in spec)
        for v in values:
            _check_value(fact, v, at, fouls)
        return Test(fact, one_of=values, negate=negate)
    value = _resolve(spec, params, at)
    _check_value(fact, value, at, fouls)
    return Test(fact, equals=value, negate=negate)


def compile_when(when, params: dict, where: str, fouls: set[str]) -> tuple[Test, ...]:
    """Turns a `when` mapping into tests; refuses unknown facts, values and shapes."""
    if when is None:
        return ()
    if not isinstance(when, dict):
        raise ConditionError(f"{where}: `when` must be a mapping of fact: condition")
    return tuple(_test(fact, spec, params, f"{where}: when.{fact}", fouls) for fact, spec in when.items())


def matches(tests: tuple[Test, ...], facts: dict) -> bool:
    # Test.__call__ inlined: this loop runs some ten million times in one `verify`.
    for t in tests:
        v = facts[t.fact]
        if t.one_of is not None:
            ok = v in t.one_of
        elif t.min is not None or t.max is not None:
            ok = (t.min is None or v >= t.min) and (t.max is None or v <= t.max)
        else:
            ok = v == t.equals
        if ok == t.negate:
            return False
    return True
