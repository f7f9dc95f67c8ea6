"""What each ruleset says about protests and disqualifications, read from knowledge/forms.yaml.

No ruleset value lives in Python: the protest deadline, the clauses behind each step of the
procedure and the grounds for disqualification are data, each citing its clause. A ruleset whose
own text is silent borrows from the ruleset it `include`s (saying so in a note) or `extends`.

Clause references are checked when a ruleset's rules are resolved, so that a clause missing from
one source's files stops the forms of that ruleset only; `problems()` checks the whole file: its
shape against referee_app/schemas/knowledge/forms.json (core/knowledge/schema_reader.py), then
what a schema cannot know (the rulesets and clauses it names, every ruleset's rules resolving).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.knowledge import schema_reader
from referee_app.core.knowledge.files import load_file
from referee_app.core.knowledge.model import KnowledgeBase, Problem
from referee_app.core.knowledge.model import Ruleset
from referee_app.core.knowledge.yamlio import line_of

FILE = "forms.yaml"
SECTIONS = ("protest", "disqualification")
# The steps of a protest's procedure, each a clause in the data (see forms.yaml).
PROTEST_STEPS = ("announce", "content", "no_withdrawal", "upheld", "rejected")


@dataclass(frozen=True)
class Count:
    """A ground that needs an offence repeated: more than `more_than` incidents of `incident`."""

    incident: str
    more_than: int


@dataclass(frozen=True)
class Ground:
    clause: str
    count: Count | None = None
    note: dict | None = None


@dataclass(frozen=True)
class ProtestRules:
    ruleset: str
    deadline_minutes: int
    deadline_clause: str
    steps: dict[str, str]                # PROTEST_STEPS -> clause id
    notes: tuple[dict[str, str], ...]    # per language: where the rules are borrowed from

    def note_texts(self, lang: str) -> list[str]:
        return [n.get(lang) or n.get("en", "") for n in self.notes]


@dataclass(frozen=True)
class DisqualificationRules:
    ruleset: str
    consequence: str
    grounds: tuple[Ground, ...]
    notes: tuple[dict[str, str], ...]

    def ground(self, clause_id: str) -> Ground | None:
        return next((g for g in self.grounds if g.clause == clause_id), None)

    def note_texts(self, lang: str) -> list[str]:
        return [n.get(lang) or n.get("en", "") for n in self.notes]


class FormsData:
    """The parsed forms.yaml, resolving each ruleset's rules on demand."""

    def __init__(self, kb: KnowledgeBase, rulesets: dict[str, Ruleset]):
        self.kb = kb
        self.rulesets = rulesets
        self.path = Path(kb.root) / FILE
        raw = load_file(self.path, FILE)
        self.report = schema_reader.check(raw, "forms", FILE)
        self.raw = raw if isinstance(raw, dict) else {}
        default_ruleset = self.raw.get("default_ruleset")   # not a text: the schema says so
        self.default_ruleset: str = default_ruleset if isinstance(default_ruleset, str) else ""
        self.labels: dict[str, dict[str, str]] = self._section("labels")
        self.incident_kinds: dict[str, dict] = self._section("incidents")

    def _section(self, name: str) -> dict:
        """A top-level mapping of the file, empty when it is missing or the schema refused it."""
        value = self.raw.get(name)
        return dict(value) if isinstance(value, dict) else {}

    # -- labels -----------------------------------------------------------------------------
    def label(self, key: str, lang: str, **values) -> str:
        entry = self.labels.get(key) or {}
        text = entry.get(lang) or entry.get("en") or key
        return text.format(**values) if values else text

    def field_label(self, kind: str, name: str, lang: str) -> str:
        """A field's label; a `KIND.FIELD` entry gives one kind its own word for a shared field."""
        key = f"{kind}.{name}"
        return self.label(key if key in self.labels else name, lang)

    # -- resolution -------------------------------------------------------------------------
    def _chain(self, section: str, ruleset_id: str) -> list[tuple[str, dict]]:
        """The entries that speak for `ruleset_id` in `section`, its own first."""
        out, seen = [], set()
        current: str | None = ruleset_id
        while current and current not in seen:
            seen.add(current)
            entry = self._section(section).get(current)
            entry = entry if isinstance(entry, dict) else {}   # else the schema said what it should be
            out.append((current, entry))
            rs = self.rulesets.get(current)
            current = _included(entry) or (rs.extends if rs else None)
        return out

    @staticmethod
    def _lookup(chain, key):
        """The first value of `key` along the chain, or None."""
        return next((entry[key] for _, entry in chain if key in entry), None)

    def _check_cited(self, section: str, ruleset_id: str, clause_ids) -> None:
        problems = [Problem(FILE, 0, f"{section} rules of {ruleset_id} cite {cid}, which is not in the knowledge base")
                    for cid in clause_ids if cid not in self.kb.clauses]
        if problems:
            raise KnowledgeError(problems)

    def ruleset(self, ruleset_id, field: str = "ruleset") -> str:
        """The id of a ruleset this knowledge base has; BadInput naming `field` otherwise."""
        if not isinstance(ruleset_id, str) or ruleset_id not in self.rulesets:
            from referee_app.core.validation import shown

            raise BadInput(field, f"unknown ruleset '{shown(ruleset_id)}' (known: {', '.join(self.rulesets)})")
        return ruleset_id

    def protest(self, ruleset_id: str | None = None) -> ProtestRules:
        rules = self._protest(self.ruleset(ruleset_id or self.default_ruleset))
        self._check_cited("protest", rules.ruleset, [rules.deadline_clause, *rules.steps.values()])
        return rules

    def disqualification(self, ruleset_id: str | None = None) -> DisqualificationRules:
        rules = self._disqualification(self.ruleset(ruleset_id or self.default_ruleset))
        self._check_cited("disqualification", rules.ruleset, [rules.consequence, *(g.clause for g in rules.grounds)])
        return rules

    def _protest(self, rid: str) -> ProtestRules:
        chain = self._chain("protest", rid)
        deadline = self._lookup(chain, "deadline_minutes")
        steps = {step: self._lookup(chain, step) for step in PROTEST_STEPS}
        if deadline is None or None in steps.values():
            raise KnowledgeError([Problem(FILE, 0, f"protest rules of {rid} are incomplete: it needs deadline_minutes "
                                          f"and {', '.join(PROTEST_STEPS)}, its own or included")])
        if not isinstance(deadline, dict) or self.report.refused(deadline):   # the schema says what is wrong
            raise KnowledgeError(self.report.about(next(e for _, e in chain if "deadline_minutes" in e)))
        notes = self._notes(chain)
        return ProtestRules(rid, deadline["value"], str(deadline["clause"]), steps, notes)

    def _disqualification(self, rid: str) -> DisqualificationRules:
        chain = self._chain("disqualification", rid)
        consequence = self._lookup(chain, "consequence")
        grounds: list[Ground] = []
        for _, entry in reversed(chain):  # the included ruleset's grounds first, then the additions
            for _raw, ground in self._grounds(entry):
                if all(g.clause != ground.clause for g in grounds):
                    grounds.append(ground)
        if consequence is None or not grounds:
            raise KnowledgeError([Problem(FILE, 0, f"disqualification rules of {rid} are incomplete: it needs a "
                                          f"consequence and grounds, its own or included")])
        return DisqualificationRules(rid, str(consequence), tuple(grounds), self._notes(chain))

    def _notes(self, chain) -> tuple[dict[str, str], ...]:
        return tuple(dict(e["note"]) for _, e in chain if isinstance(e.get("note"), dict))

    def _grounds(self, entry: dict) -> list[tuple[object, Ground]]:
        """The grounds of one entry the schema accepted, each with its YAML."""
        raws = entry.get("grounds")
        if not isinstance(raws, list):
            return []
        return [(raw, _ground(raw)) for raw in raws
                if isinstance(raw, str) or (isinstance(raw, dict) and not self.report.refused(raw))]

    # -- validation of the whole file -------------------------------------------------------
    def problems(self) -> list[Problem]:
        """Everything wrong with forms.yaml, each naming its line (tests/core/forms/test_forms.py wants none)."""
        out: list[Problem] = list(self.report.problems)
        if self.default_ruleset and self.default_ruleset not in self.rulesets:
            out.append(Problem(FILE, 1, f"default_ruleset {self.default_ruleset} is not a ruleset"))
        for section in SECTIONS:
            for rid, entry in self._section(section).items():
                out += self._entry_problems(section, rid, entry)
            for rid in self.rulesets:  # every ruleset must resolve, through its own entry or another's
                try:
                    (self._protest if section == "protest" else self._disqualification)(rid)
                except KnowledgeError as exc:
                    out += exc.problems
        for kind, entry in self.incident_kinds.items():
            if isinstance(entry, dict) and not self.report.refused(entry):
                out += self._cite_problems(entry, entry["clause"])
            if kind not in self.labels:
                out.append(Problem(FILE, line_of(entry), f"incident kind {kind} has no label"))
        return list(dict.fromkeys(out))   # a refused deadline is found again by every ruleset including it

    def _cite_problems(self, node, clause_id) -> list[Problem]:
        if str(clause_id) in self.kb.clauses:
            return []
        return [Problem(FILE, line_of(node), f"cites {clause_id}, which is not in the knowledge base")]

    def _entry_problems(self, section: str, rid: str, entry) -> list[Problem]:
        """What the schema cannot know of one ruleset's entry: the rulesets and clauses it names."""
        where = f"{section}.{rid}"
        if rid not in self.rulesets:
            return [Problem(FILE, line_of(entry), f"{where}: unknown ruleset {rid}")]
        if not isinstance(entry, dict):
            return []   # the schema said what it should be
        out = []
        included = _included(entry)
        if included and included not in self.rulesets:
            out.append(Problem(FILE, line_of(entry), f"{where}: includes unknown ruleset {included}"))
        if included and included != self.rulesets[rid].extends and not entry.get("note"):
            out.append(Problem(FILE, line_of(entry), f"{where}: borrows from {included} without a note saying so"))
        deadline = entry.get("deadline_minutes")
        if isinstance(deadline, dict) and "clause" in deadline:
            out += self._cite_problems(deadline, deadline["clause"])
        for key in (*PROTEST_STEPS, "consequence"):
            if key in entry:
                out += self._cite_problems(entry, entry[key])
        for raw, ground in self._grounds(entry):
            out += self._cite_problems(raw if isinstance(raw, dict) else entry, ground.clause)
            if ground.count and ground.count.incident not in self.incident_kinds:
                out.append(Problem(FILE, line_of(raw),
                                   f"{where}: {ground.clause} counts an unknown incident kind {ground.count.incident}"))
        return out


def _included(entry: dict) -> str | None:
    """The ruleset an entry includes; a value that is no name is the schema's to report."""
    included = entry.get("include")
    return included if isinstance(included, str) else None


def _ground(raw) -> Ground:
    if isinstance(raw, dict):
        count = raw.get("count")
        return Ground(raw["clause"], Count(count["incident"], count["more_than"]) if count else None,
                      dict(raw["note"]) if raw.get("note") else None)
    return Ground(str(raw))
