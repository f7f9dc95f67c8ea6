"""What each ruleset says about protests and disqualifications, read from knowledge/forms.yaml.

No ruleset value lives in Python: the protest deadline, the clauses behind each step of the
procedure and the grounds for disqualification are data, each citing its clause. A ruleset whose
own text is silent borrows from the ruleset it `include`s (saying so in a note) or `extends`.

Clause references are checked when a ruleset's rules are resolved, so that a clause missing from
one source's files stops the forms of that ruleset only; `problems()` checks the whole file.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.knowledge.files import load_file
from referee_app.core.knowledge.model import KnowledgeBase, Problem
from referee_app.core.knowledge.rulesets import Ruleset
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
        self.raw = load_file(self.path, FILE)
        self.default_ruleset: str = self.raw["default_ruleset"]
        self.labels: dict[str, dict[str, str]] = dict(self.raw.get("labels") or {})
        self.incident_kinds: dict[str, dict] = dict(self.raw.get("incidents") or {})

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
            entry = (self.raw.get(section) or {}).get(current) or {}
            out.append((current, entry))
            rs = self.rulesets.get(current)
            current = entry.get("include") or (rs.extends if rs else None)
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
        minutes = deadline.get("value")
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0:
            raise KnowledgeError([Problem(FILE, line_of(deadline), f"protest rules of {rid}: deadline_minutes "
                                          f"must be a positive whole number, not {minutes!r}")])
        notes = tuple(dict(e["note"]) for _, e in chain if e.get("note"))
        return ProtestRules(rid, minutes, str(deadline["clause"]), steps, notes)

    def _disqualification(self, rid: str) -> DisqualificationRules:
        chain = self._chain("disqualification", rid)
        consequence = self._lookup(chain, "consequence")
        grounds: list[Ground] = []
        for _, entry in reversed(chain):  # the included ruleset's grounds first, then the additions
            for raw in entry.get("grounds") or []:
                ground = _ground(raw)
                if all(g.clause != ground.clause for g in grounds):
                    grounds.append(ground)
        if consequence is None or not grounds:
            raise KnowledgeError([Problem(FILE, 0, f"disqualification rules of {rid} are incomplete: it needs a "
                                          f"consequence and grounds, its own or included")])
        notes = tuple(dict(e["note"]) for _, e in chain if e.get("note"))
        return DisqualificationRules(rid, str(consequence), tuple(grounds), notes)

    # -- validation of the whole file -------------------------------------------------------
    def problems(self) -> list[Problem]:
        """Everything wrong with forms.yaml, each naming its line (tests/test_forms.py wants none)."""
        out: list[Problem] = []
        if self.default_ruleset not in self.rulesets:
            out.append(Problem(FILE, 1, f"default_ruleset {self.default_ruleset} is not a ruleset"))
        for section in SECTIONS:
            for rid, entry in (self.raw.get(section) or {}).items():
                out += self._entry_problems(section, rid, entry)
            for rid in self.rulesets:  # every ruleset must resolve, through its own entry or another's
                try:
                    (self._protest if section == "protest" else self._disqualification)(rid)
                except KnowledgeError as exc:
                    out += exc.problems
        for kind, entry in self.incident_kinds.items():
            out += self._cite_problems(entry, entry.get("clause"))
            if kind not in self.labels:
                out.append(Problem(FILE, line_of(entry), f"incident kind {kind} has no label"))
        for key, entry in self.labels.items():
            out += self._language_problems(entry, f"label {key}")
        return out

    def _cite_problems(self, node, clause_id) -> list[Problem]:
        if str(clause_id) in self.kb.clauses:
            return []
        return [Problem(FILE, line_of(node), f"cites {clause_id}, which is not in the knowledge base")]

    def _language_problems(self, texts, what: str) -> list[Problem]:
        missing = sorted(set(self.kb.languages) - set(texts or {}))
        return [Problem(FILE, line_of(texts), f"{what} lacks {', '.join(missing)}")] if missing else []

    def _entry_problems(self, section: str, rid: str, entry: dict) -> list[Problem]:
        where = f"{section}.{rid}"
        if rid not in self.rulesets:
            return [Problem(FILE, line_of(entry), f"{where}: unknown ruleset {rid}")]
        out = []
        included = entry.get("include")
        if included and included not in self.rulesets:
            out.append(Problem(FILE, line_of(entry), f"{where}: includes unknown ruleset {included}"))
        if included and included != self.rulesets[rid].extends and not entry.get("note"):
            out.append(Problem(FILE, line_of(entry), f"{where}: borrows from {included} without a note saying so"))
        if entry.get("note"):
            out += self._language_problems(entry["note"], f"{where}: the note")
        if entry.get("deadline_minutes") is not None:   # its value is checked when the rulesets resolve
            out += self._cite_problems(entry["deadline_minutes"], entry["deadline_minutes"].get("clause"))
        for key in (*PROTEST_STEPS, "consequence"):
            if key in entry:
                out += self._cite_problems(entry, entry[key])
        for raw in entry.get("grounds") or []:
            ground = _ground(raw)
            out += self._cite_problems(raw if isinstance(raw, dict) else entry, ground.clause)
            if ground.note:
                out += self._language_problems(raw["note"], f"{where}: the note on {ground.clause}")
            if ground.count and ground.count.incident not in self.incident_kinds:
                out.append(Problem(FILE, line_of(raw),
                                   f"{where}: {ground.clause} counts an unknown incident kind {ground.count.incident}"))
        return out


def _ground(raw) -> Ground:
    if isinstance(raw, dict):
        count = raw.get("count")
        return Ground(str(raw["clause"]), Count(str(count["incident"]), int(count["more_than"])) if count else None,
                      dict(raw["note"]) if raw.get("note") else None)
    return Ground(str(raw))
