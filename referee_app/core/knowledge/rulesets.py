"""Rulesets: the playable rule systems of knowledge/rulesets/, each over its sources' clauses.
Read once per knowledge root (root.Knowledge.rulesets), never for the process."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from referee_app.core.errors import KnowledgeError
from . import schema_reader
from .files import load_file
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


def ruleset_name(rulesets: dict[str, Ruleset], ruleset_id: str, lang: str) -> str:
    """The one way a ruleset is named (Knowledge.ruleset_name): in `lang`, else in English, else
    by its id (one no longer known keeps its id: an old record may name it)."""
    rs = rulesets.get(ruleset_id)
    names = rs.name if rs is not None else {}
    return names.get(lang) or names.get("en") or ruleset_id
