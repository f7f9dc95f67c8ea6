"""Proves that every situation of a ruleset gets exactly one ruling, as Catala's verifier does.

Why a finite set of representatives covers every situation: a rule's condition is a
conjunction of tests, each on one fact (conditions.py), and a test on a number answers the same
on every value between two consecutive cut points (`Test.boundaries`). Cut every fact's legal
range at the cut points of every condition of the ruleset (its rules and its fouls' `only_when`)
and at the points where what is possible changes (`Fact.legal_cuts`): every situation falls
into one cell, and all situations of a cell get the same answer from every test, hence the same
ruling. The facts that constrain each other (a side's coins on the board, pocketed, knocked
off, owed, and the coins left that derive from them) are enumerated together over their whole
legal ranges, once, and one situation is kept per cell they reach; so a cell that only a few
combinations reach is never missed. The groups are then combined, and what no game reaches
(reachable.unreachable) is dropped; it only ever looks at the cut points above (the score is no
fact: every representative stands at 0-0), so a dropped combination stands for cells no board
can show. For each representative and each aspect, the applicable rules not
overridden must give exactly one value: none is a gap, two are a conflict. A rule that decides
nothing anywhere fails too, unless the knowledge base says why (`never_decisive: reason`).
"""
from __future__ import annotations

import itertools
import time
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .conditions import matches
from .engine import CompiledRuleset, Conflict, NoRule
from .priority import BORROWED, OWN_FIRST, READING, SILENT, STATED, overridden
from .reachable import unreachable
from .ruling import ruling_aspects
from .situation import FACTS, INPUT_FACTS, Situation, attribute, impossibility

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

GROUPS = ("own", "opponent", "queen", "striker", "break", "touch")


@dataclass
class Report:
    ruleset: str
    situations: int = 0
    gaps: dict = field(default_factory=dict)        # (aspect, example) -> count
    conflicts: dict = field(default_factory=dict)   # (aspect, rule ids) -> (count, example)
    decisive: Counter = field(default_factory=Counter)
    never_decisive: list = field(default_factory=list)        # rule ids, unexplained
    never_decisive_explained: dict = field(default_factory=dict)  # rule id -> the knowledge base's reason
    facts: dict = field(default_factory=dict)       # fact -> {range, cut_points, representatives}
    # Where two clauses apply and disagree (priority.py): (prevailing rule, clause overridden) ->
    # {"ground", "aspects", "count", "example"}
    contradictions: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def silent(self) -> list:
        """The contradictions the knowledge base decides without saying on what (no priority)."""
        return [key for key, c in self.contradictions.items() if c["ground"] == SILENT]

    @property
    def ok(self) -> bool:
        return not self.gaps and not self.conflicts and not self.never_decisive and not self.silent

    def counts(self) -> dict:
        """How many regions the text contradicts itself in, how many it resolves in its own words,
        how many the project reads; and where a borrowed text gives way to the ruleset's own."""
        grounds = Counter(c["ground"] for c in self.contradictions.values())
        return {"self_contradictions": grounds[STATED] + grounds[READING] + grounds[BORROWED] + grounds[SILENT],
                "stated": grounds[STATED], "readings": grounds[READING], "borrowed": grounds[BORROWED],
                "silent": grounds[SILENT], "own_text_first": grounds[OWN_FIRST]}

    def as_dict(self) -> dict:
        return {
            "ruleset": self.ruleset, "ok": self.ok, "situations": self.situations,
            "seconds": round(self.seconds, 2),
            "gaps": [{"aspect": a, "count": n, "example": ex} for (a, _), (n, ex) in self.gaps.items()],
            "conflicts": [{"aspect": a, "rules": list(r), "count": n, "example": ex}
                          for (a, r), (n, ex) in self.conflicts.items()],
            "never_decisive": self.never_decisive,
            "never_decisive_explained": [{"rule": r, "reason": why}
                                         for r, why in self.never_decisive_explained.items()],
            "contradictions": [{"rule": rule, "over": over, **{k: v for k, v in c.items() if k != "aspects"},
                                "aspects": sorted(c["aspects"])}
                               for (rule, over), c in sorted(self.contradictions.items())],
            "contradiction_counts": self.counts(),
            "facts": self.facts,
        }


def cut_points(rs: CompiledRuleset) -> dict[str, list[int]]:
    """Per number fact, the sorted boundaries of its cells: every condition's, and the legal ones."""
    points = {name: set(f.legal_cuts) for name, f in FACTS.items() if f.kind == "int"}
    tests = [t for r in rs.rules for t in r.tests] + [t for ts in rs.foul_only_when.values() for t in ts]
    for t in tests:
        if t.fact in points:
            points[t.fact] |= t.boundaries()
    return {name: sorted(b for b in pts if FACTS[name].lo <= b < FACTS[name].hi) for name, pts in points.items()}


def _tested(rs: CompiledRuleset) -> set[str]:
    return {t.fact for r in rs.rules for t in r.tests} | {t.fact for ts in rs.foul_only_when.values() for t in ts}


def _domain(rs: CompiledRuleset, fact, tested: set[str]) -> tuple:
    if fact.name == "queen":
        return tuple(q for q in fact.choices if q in rs.queen_states)
    if fact.neutral is not None and fact.name not in tested:
        return (fact.neutral,)
    return fact.values()


def _cell(fact: str, value, cuts: dict):
    bounds = cuts.get(fact)
    return value if bounds is None else bisect_left(bounds, value)


def group_representatives(rs: CompiledRuleset, group: str, cuts: dict) -> list[dict]:
    """One assignment of the group's input facts per cell its facts (and those derived from
    them alone) reach, found by enumerating the group's whole legal ranges."""
    members = [f for f in INPUT_FACTS if f.group == group]
    watched = [f.name for f in FACTS.values() if f.group == group]
    reps: dict[tuple, dict] = {}
    tested = _tested(rs)
    for values in itertools.product(*(_domain(rs, f, tested) for f in members)):
        fields = {attribute(f): v for f, v in zip(members, values)}
        s = Situation(rs.ruleset.id, **fields)
        if impossibility(s, rs.allow_empty_side, partial=True):
            continue
        facts = s.facts()
        reps.setdefault(tuple(_cell(name, facts[name], cuts) for name in watched), fields)
    return list(reps.values())


def _foul_allowed(rs: CompiledRuleset, foul: str, facts: dict) -> bool:
    return foul == "none" or matches(rs.foul_only_when.get(foul, ()), facts)


def situations(rs: CompiledRuleset, groups: dict | None = None):
    """Yields (Situation, facts) for every representative situation of the ruleset."""
    groups = groups or {g: group_representatives(rs, g, cut_points(rs)) for g in GROUPS}
    fouls = ["none"] + sorted(rs.fouls)
    for parts in itertools.product(*(groups[g] for g in GROUPS)):
        s = Situation(rs.ruleset.id)
        for part in parts:
            s.__dict__.update(part)
        if unreachable(rs, s):   # the one definition of what a game reaches (reachable.py)
            continue
        base = s.facts()
        for foul in fouls:
            facts = dict(base, foul=foul)
            if _foul_allowed(rs, foul, facts):
                s.foul = foul
                yield s, facts


def _describe(facts: dict) -> dict:
    return {f.name: facts[f.name] for f in INPUT_FACTS}


def fact_report(rs: CompiledRuleset, cuts: dict, groups: dict) -> dict:
    """Each input fact's legal range (or values), cut points and the representatives taken."""
    out = {}
    for f in INPUT_FACTS:
        entry = f.describe()
        del entry["name"]
        if f.group:
            entry["representatives"] = sorted({part[attribute(f)] for part in groups[f.group]})
        else:
            entry["representatives"] = ["none"] + sorted(rs.fouls)
        if f.kind == "int":
            entry["cut_points"] = cuts[f.name]
        out[f.name] = entry
    return out


def verify(knowledge: Knowledge, ruleset_id: str) -> Report:
    return verify_compiled(knowledge.compiled(ruleset_id))


def _record_failure(report: Report, exc, facts: dict) -> None:
    if isinstance(exc, NoRule):
        key: tuple = (exc.aspect, None)
        table = report.gaps
    else:
        key, table = (exc.aspect, tuple(sorted(r.id for r in exc.rules))), report.conflicts
    n, ex = table.get(key, (0, _describe(facts)))
    table[key] = (n + 1, ex)


def _grounds(rs: CompiledRuleset, o) -> dict:
    """What the report says of a region: the clauses weighed, and the words or the reading."""
    out: dict = {"clause": o.winner.clause, "over_rule": o.loser.id}
    p = o.winner.priority or {}
    if o.ground == STATED:
        out["stated"] = p.get("stated")
    elif o.ground == READING:
        reading = p.get("reading")
        out["reading"] = dict(o.winner.note or {}) if reading == "note" else reading
    elif o.ground == BORROWED:
        out["borrowed"] = o.winner.clause
    elif o.ground == OWN_FIRST:
        borrowed = o.loser if rs.is_borrowed(o.loser) else o.winner
        out["borrowed"] = borrowed.clause
    return out


def _record_contradictions(report: Report, rs: CompiledRuleset, decision, facts: dict, seen: dict) -> None:
    # The same applicable rules decide the same way: what they contradict is found once per set
    # (`seen`), not once per situation, which keeps verify's time near what it was without it.
    board = decision.values.get("board")
    over = board is not None and board.over
    key = (over, tuple(map(id, decision.board)))
    found = seen.get(key)
    if found is None:
        aspects = ruling_aspects(decision, over)
        found = seen[key] = [((o.winner.id, o.loser.clause), o.aspect, o.ground, o)
                             for o in overridden(rs, decision, aspects)]
    for region, aspect, ground, o in found:
        entry = report.contradictions.get(region)
        if entry is None:
            entry = report.contradictions[region] = {"ground": ground, "aspects": set(), "count": 0,
                                                     "example": _describe(facts), **_grounds(rs, o)}
        entry["aspects"].add(aspect)
        entry["count"] += 1


def verify_compiled(rs: CompiledRuleset) -> Report:
    report = Report(rs.ruleset.id)
    start = time.perf_counter()
    cuts = cut_points(rs)
    groups = {g: group_representatives(rs, g, cuts) for g in GROUPS}
    report.facts = fact_report(rs, cuts, groups)
    seen: dict = {}
    for _s, facts in situations(rs, groups):
        report.situations += 1
        try:
            decision = rs.decide(facts)
        except (NoRule, Conflict) as exc:
            _record_failure(report, exc, facts)
            continue
        for rules in decision.rules.values():
            for r in rules:
                report.decisive[r.id] += 1
        _record_contradictions(report, rs, decision, facts, seen)
    for r in rs.rules:
        if report.decisive[r.id] == 0:
            reason = r.never_decisive or rs.never_decisive.get(r.id)
            if reason:
                report.never_decisive_explained[r.id] = reason
            else:
                report.never_decisive.append(r.id)
    report.seconds = time.perf_counter() - start
    return report
