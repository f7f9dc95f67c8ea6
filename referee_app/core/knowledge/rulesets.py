"""Reading the rulesets, the playable rule systems of knowledge/rulesets/ (model.Ruleset), each
over its sources' clauses, and checking them against their schema. Read once per knowledge root
(root.Knowledge.rulesets), which keeps them in the knowledge cache: a start from an unchanged
folder imports neither this module nor the schema reader."""
from __future__ import annotations

from pathlib import Path

from referee_app.core.errors import KnowledgeError
from . import schema_reader
from .files import load_file
from .model import KnowledgeBase, Problem, Ruleset
from .yamlio import YamlError


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
