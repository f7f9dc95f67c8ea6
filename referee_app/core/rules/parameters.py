"""Ruleset parameters against their schema (knowledge/parameters.yaml), declared once.

A ruleset gives each parameter a value and the clause that sets it, or, where its text is
silent, an `assumption` (its reason in fr, it and en) that the referee is shown. A misspelt,
missing or ill-typed parameter is a problem named by the file and the parameter, never a silent
default: no value that differs between rulesets lives in Python.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from referee_app.core.knowledge.files import load_file
from referee_app.core.knowledge.model import Problem
from referee_app.core.knowledge.yamlio import YamlError
from referee_app.languages import LANGUAGES

SCHEMA_FILE = "parameters.yaml"
TYPES = ("int", "choice", "bool")
LANGS = LANGUAGES


class ParameterSpec(NamedTuple):   # not a frozen dataclass: docs/architecture.md, Start-up
    """One parameter of knowledge/parameters.yaml: its type, meaning and legal values."""

    name: str
    type: str
    meaning: str
    lo: int | None = None
    hi: int | None = None
    values: tuple = ()
    absent: str | None = None   # what leaving it out means; None: every ruleset must set it

    def problem(self, value) -> str | None:
        """What is wrong with `value` for this parameter, or None."""
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"takes a whole number, not {value!r}"
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                return f"{value} is out of range ({self.lo} to {self.hi})"
        elif self.type == "bool" and not isinstance(value, bool):
            return f"takes true or false, not {value!r}"
        elif self.type == "choice" and value not in self.values:
            return f"takes one of {', '.join(self.values)}, not {value!r}"
        return None


def _spec(name: str, raw, problems: list) -> ParameterSpec | None:
    if not isinstance(raw, dict) or raw.get("type") not in TYPES or not raw.get("meaning"):
        problems.append(Problem(SCHEMA_FILE, getattr(raw, "line", 1),
                                f"parameter {name}: needs a type ({', '.join(TYPES)}) and a meaning"))
        return None
    lo, hi = (raw.get("range") or [None, None])[:2]
    if raw["type"] == "int" and not (isinstance(lo, int) and isinstance(hi, int)):
        problems.append(Problem(SCHEMA_FILE, getattr(raw, "line", 1), f"parameter {name}: an int needs a range [lo, hi]"))
        return None
    if raw["type"] == "choice" and not raw.get("values"):
        problems.append(Problem(SCHEMA_FILE, getattr(raw, "line", 1), f"parameter {name}: a choice needs its values"))
        return None
    return ParameterSpec(name, raw["type"], raw["meaning"], lo, hi, tuple(raw.get("values") or ()), raw.get("absent"))


@lru_cache(maxsize=4)
def load_schema(root: str) -> tuple[dict[str, ParameterSpec], tuple[Problem, ...]]:
    problems: list[Problem] = []
    path = Path(root) / SCHEMA_FILE
    try:
        data = load_file(path, SCHEMA_FILE) or {}
    except (YamlError, OSError) as exc:
        return {}, (Problem(SCHEMA_FILE, getattr(exc, "line", 0), str(getattr(exc, "problem", exc))),)
    specs = {}
    for name, raw in (data.get("parameters") or {}).items():
        spec = _spec(name, raw, problems)
        if spec:
            specs[name] = spec
    return specs, tuple(problems)


def check_entry(schema: dict, name: str, entry, clauses, where: str) -> list[Problem]:
    """Problems of one `parameters:` entry of a ruleset file."""
    line = getattr(entry, "line", 1)
    if name not in schema:
        return [Problem(where, line, f"unknown parameter {name} (known: {', '.join(sorted(schema))})")]
    if not isinstance(entry, dict) or "value" not in entry or not ({"clause", "assumption"} & set(entry)):
        return [Problem(where, line, f"parameter {name}: needs a value and a clause (or an assumption)")]
    problems = []
    # `value: null` drops a value the extended ruleset sets, where this one's text has none
    # (carom-bi's queen keeps its worth at any score): only for a parameter that may be absent.
    if entry["value"] is None:
        wrong = None if schema[name].absent else "null, but every ruleset must set it"
    else:
        wrong = schema[name].problem(entry["value"])
    if wrong:
        problems.append(Problem(where, line, f"parameter {name}: {wrong}"))
    if "clause" in entry and entry["clause"] not in clauses:
        problems.append(Problem(where, line, f"parameter {name}: clause {entry['clause']} points nowhere"))
    assumption = entry.get("assumption")
    if assumption is not None and not (isinstance(assumption, dict) and all(assumption.get(lang) for lang in LANGS)):
        problems.append(Problem(where, line, f"parameter {name}: an assumption gives its reason in {', '.join(LANGS)}"))
    return problems


def missing(schema: dict, params: dict, where: str) -> list[Problem]:
    """Parameters every ruleset must set that this one (with those it extends) does not."""
    out = [Problem(where, 1, f"parameter {name} is missing ({spec.meaning})")
           for name, spec in schema.items() if spec.absent is None and name not in params]
    if params.get("tie_break") == "strokes" and "tie_break_chances" not in params:
        out.append(Problem(where, 1, "parameter tie_break_chances is missing (tie_break is strokes)"))
    return out
