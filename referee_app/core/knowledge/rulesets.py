"""Rulesets: the playable rule systems of knowledge/rulesets/, each over its sources' clauses."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from referee_app.core.errors import BadInput, KnowledgeError
from . import schema_reader
from .files import load_file
from .loader import default
from .model import KnowledgeBase, Problem
from .yamlio import YamlError


@dataclass
class Ruleset:
    """A playable rule system (knowledge/rulesets/<id>.yaml): its names, sources and raw settings."""

    id: str
    name: dict[str, str]
    sources: list[str]
    extends: str | None = None
    raw: dict = field(default_factory=dict)

    def all_sources(self, rulesets: dict[str, "Ruleset"]) -> list[str]:
        """Its own sources first, then those of the ruleset it extends."""
        out = list(self.sources)
        if self.extends:
            out += [s for s in rulesets[self.extends].all_sources(rulesets) if s not in out]
        return out


def load_rulesets(kb: KnowledgeBase) -> dict[str, Ruleset]:
    folder = Path(kb.root) / "rulesets"
    out: dict[str, Ruleset] = {}
    problems = []
    for path in sorted(folder.glob("*.yaml")):
        rel = f"rulesets/{path.name}"
        try:
            data = load_file(path, rel)
        except YamlError as exc:
            problems.append(Problem(rel, exc.line, exc.problem))
            continue
        report = schema_reader.check(data, "ruleset", rel)   # referee_app/schemas/knowledge/ruleset.json
        if report.problems:
            problems += report.problems
            continue
        rs = Ruleset(data["id"], dict(data.get("name", {})), list(data.get("sources", [])), data.get("extends"), data)
        for s in rs.sources:
            if s not in kb.sources:
                problems.append(Problem(rel, getattr(data, "line", 1), f"ruleset {rs.id}: unknown source '{s}'"))
        out[rs.id] = rs
    for rs in out.values():
        if rs.extends and rs.extends not in out:
            problems.append(Problem(f"rulesets/{rs.id}.yaml", 1, f"ruleset {rs.id} extends unknown '{rs.extends}'"))
    if problems:
        raise KnowledgeError(problems)
    return out


@lru_cache(maxsize=1)
def default_rulesets() -> dict[str, Ruleset]:
    return load_rulesets(default())


def get_ruleset(ruleset_id: str, field_name: str = "ruleset") -> Ruleset:
    rulesets = default_rulesets()
    if not isinstance(ruleset_id, str) or ruleset_id not in rulesets:
        from referee_app.core.validation import shown

        raise BadInput(field_name, f"unknown ruleset '{shown(ruleset_id)}' (known: {', '.join(rulesets)})")
    return rulesets[ruleset_id]
