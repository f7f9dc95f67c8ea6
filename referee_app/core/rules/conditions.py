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

from dataclasses import dataclass

from .situation import FACTS


class ConditionError(ValueError):
    pass


@dataclass(frozen=True)
class Test:
    fact: str
    equals: object = None
    one_of: tuple | None = None
    min: int | None = None
    max: int | None = None
    negate: bool = False

    def __call__(self, value) -> bool:
        return matches((self,), {self.fact: value})

    def cut_points(self) -> set[int]:
        """Integer values where this test changes its answer (for the verifier's partition)."""
        points = set()
        if self.min is not None:
            points |= {self.min - 1, self.min}
        if self.max is not None:
            points |= {self.max, self.max + 1}
        if self.equals is not None and isinstance(self.equals, int) and not isinstance(self.equals, bool):
            points |= {self.equals - 1, self.equals, self.equals + 1}
        if self.one_of is not None:
            for v in self.one_of:
                if isinstance(v, int) and not isinstance(v, bool):
                    points |= {v - 1, v, v + 1}
        return points


def _resolve(value, params: dict, where: str):
    if isinstance(value, str) and value.startswith("$"):
        name = value[1:]
        if name not in params:
            raise ConditionError(f"{where}: unknown parameter ${name}")
        return params[name]
    return value


def _check_value(fact: str, value, where: str):
    kind = FACTS[fact]
    if kind == "bool" and not isinstance(value, bool):
        raise ConditionError(f"{where}: {fact} takes true or false, not {value!r}")
    if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConditionError(f"{where}: {fact} takes a whole number, not {value!r}")
    if isinstance(kind, tuple) and value not in kind:
        raise ConditionError(f"{where}: {fact} takes one of {', '.join(kind)}, not {value!r}")
    if kind == "foul" and not isinstance(value, str):
        raise ConditionError(f"{where}: foul takes a foul id or none, not {value!r}")


def compile_when(when, params: dict, where: str, fouls: set[str]) -> tuple[Test, ...]:
    """Turns a `when` mapping into tests; refuses unknown facts, values and shapes."""
    if when is None:
        return ()
    if not isinstance(when, dict):
        raise ConditionError(f"{where}: `when` must be a mapping of fact: condition")
    tests = []
    for fact, spec in when.items():
        at = f"{where}: when.{fact}"
        if fact not in FACTS:
            raise ConditionError(f"{at}: unknown fact (known: {', '.join(sorted(FACTS))})")
        negate = False
        if isinstance(spec, dict) and set(spec) == {"not"}:
            negate, spec = True, spec["not"]
        if isinstance(spec, dict):
            unknown = set(spec) - {"min", "max", "below"}
            if unknown or FACTS[fact] != "int":
                raise ConditionError(f"{at}: a range takes min, max or below, on a number fact")
            lo = _resolve(spec.get("min"), params, at)
            hi = _resolve(spec.get("max"), params, at)
            if "below" in spec:
                below = _resolve(spec["below"], params, at)
                _check_value(fact, below, at)
                hi = below - 1 if hi is None else min(hi, below - 1)
            for v in (lo, hi):
                if v is not None:
                    _check_value(fact, v, at)
            tests.append(Test(fact, min=lo, max=hi, negate=negate))
        elif isinstance(spec, list):
            values = tuple(_resolve(v, params, at) for v in spec)
            for v in values:
                _check_value(fact, v, at)
                if FACTS[fact] == "foul" and v != "none" and v not in fouls:
                    raise ConditionError(f"{at}: unknown foul {v!r}")
            tests.append(Test(fact, one_of=values, negate=negate))
        else:
            value = _resolve(spec, params, at)
            _check_value(fact, value, at)
            if FACTS[fact] == "foul" and value != "none" and value not in fouls:
                raise ConditionError(f"{at}: unknown foul {value!r}")
            tests.append(Test(fact, equals=value, negate=negate))
    return tuple(tests)


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
