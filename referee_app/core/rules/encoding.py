"""How much of the played text is encoded: every clause of kind rule, penalty or scoring in a
source a ruleset plays either carries rules (`decides`), is carried by the ruleset's data (a
parameter, a mechanic or a foul cites it), or says why it is not formalised
(`not_formalised: reason`). check-kb counts each kind and lists any clause that does none.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee_app.core.knowledge.model import Problem

ENCODED_KINDS = ("rule", "penalty", "scoring")


@dataclass
class Encoding:
    with_rules: list = field(default_factory=list)
    as_ruleset_data: list = field(default_factory=list)
    not_formalised: list = field(default_factory=list)
    neither: list = field(default_factory=list)

    def counts(self) -> dict:
        return {"with_rules": len(self.with_rules), "as_ruleset_data": len(self.as_ruleset_data),
                "not_formalised": len(self.not_formalised), "neither": len(self.neither),
                "by_source": self.by_source()}

    def by_source(self) -> dict:
        """The same counts for each played source (`fr-house: 16 with rules, ...`)."""
        out: dict = {}
        for kind in ("with_rules", "as_ruleset_data", "not_formalised", "neither"):
            for cid in getattr(self, kind):
                source = cid.split(":")[0]
                out.setdefault(source, dict.fromkeys(("with_rules", "as_ruleset_data", "not_formalised",
                                                       "neither"), 0))[kind] += 1
        return out


def _cited_by_ruleset_data(rulesets: dict) -> set[str]:
    cited: set = set()
    for rs in rulesets.values():
        raw = rs.raw
        cited |= {p.get("clause") for p in (raw.get("parameters") or {}).values() if isinstance(p, dict)}
        cited |= set((raw.get("mechanics") or {}).values())
        cited |= {c for f in raw.get("fouls") or [] for c in f.get("clauses", [])}
        if raw.get("colours"):   # the clause the first coin pocketed sets the colours by (colours.py)
            cited.add(raw["colours"].get("clause"))
    cited.discard(None)  # a parameter citing no clause
    return cited


def _shared_as(rulesets: dict) -> set[str]:
    """Clauses whose text says what another text's rules say: those rules are cited as them (`shares`)."""
    out = set()
    for rs in rulesets.values():
        for entry in rs.raw.get("shares") or []:
            cite = entry.get("as")
            out |= set(cite if isinstance(cite, list) else [cite])
    return out


def encoding(kb, rulesets: dict) -> Encoding:
    played = {s for rs in rulesets.values() for s in rs.all_sources(rulesets)}
    data = _cited_by_ruleset_data(rulesets)
    shared = _shared_as(rulesets)
    out = Encoding()
    for c in kb.clauses.values():
        if c.source not in played or c.kind not in ENCODED_KINDS:
            continue
        if c.decides or c.id in shared:
            out.with_rules.append(c.id)
        elif c.not_formalised:
            out.not_formalised.append(c.id)
        elif c.id in data:
            out.as_ruleset_data.append(c.id)
        else:
            out.neither.append(c.id)
    return out


def problems(kb, rulesets: dict) -> list[Problem]:
    found = encoding(kb, rulesets)
    return [Problem(kb.clauses[cid].file, kb.clauses[cid].line,
                    f"{cid}: a {kb.clauses[cid].kind} clause of a played ruleset with neither rules nor "
                    "`not_formalised: reason`") for cid in found.neither]
