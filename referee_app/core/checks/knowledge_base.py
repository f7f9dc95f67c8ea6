"""Everything `check-kb` reports beyond the loader's problems with the clauses: the rulesets as
the engine compiles them, the citations, the thesaurus, forms.yaml, the worked examples beside
the rules, and the equipment specifications.

Each check returns Problems naming the file and line instead of raising, so that one broken file
never hides the problems of the others.
"""
from __future__ import annotations

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.knowledge import citations, thesaurus
from referee_app.core.knowledge.loader import entry_line
from referee_app.core.knowledge.model import KnowledgeBase, Problem
from referee_app.core.knowledge.rulesets import load_rulesets
from referee_app.core.knowledge.yamlio import YamlError, line_of


def other_problems(kb: KnowledgeBase) -> list[Problem]:
    """What else the knowledge base holds, checked: the rulesets' rules as data, the citations and
    thesaurus, the rules of the forms, the worked examples, the equipment specifications."""
    from referee_app.core.rules import encoding
    from referee_app.core.rules.compile import compile_ruleset

    problems: list[Problem] = []
    try:
        rulesets = load_rulesets(kb)
    except KnowledgeError as exc:   # the rulesets' own problems; nothing that needs them is checked
        return problems + exc.problems + citations.problems(kb) + thesaurus.problems(kb) + equipment_problems(kb)
    for rid in rulesets:
        try:
            compile_ruleset(kb, rulesets, rid)
        except KnowledgeError as exc:
            problems += exc.problems
    problems += citations.problems(kb) + thesaurus.problems(kb)
    problems += encoding.problems(kb, rulesets) + forms_problems(kb, rulesets) + example_problems(kb, rulesets)
    return problems + equipment_problems(kb)


def equipment_problems(kb: KnowledgeBase) -> list[Problem]:
    """The equipment specifications' own problems, and the clauses they cite that the rulebook lacks."""
    from referee_app.core.inspection.spec import dangling_clauses, load_specs

    specs, problems = load_specs(kb.root / "equipment", strict=False)
    return problems + [Problem("equipment/", 0, f"the specifications cite {cid}, which is not in the rulebook")
                       for cid in dangling_clauses(specs, kb.clauses)]


def forms_problems(kb: KnowledgeBase, rulesets: dict) -> list[Problem]:
    """Everything wrong with forms.yaml: its shape, its rulesets' rules, its citations and labels."""
    from referee_app.core.forms.clauses import FILE, FormsData

    try:
        return FormsData(kb, rulesets).problems()
    except KnowledgeError as exc:
        return list(exc.problems)
    except YamlError as exc:
        return [Problem(FILE, exc.line, exc.problem)]
    except OSError as exc:
        return [Problem(FILE, 0, f"cannot be read: {exc.strerror or exc}")]


def subset_problems(expect, got, path: str = "") -> list[str]:
    """What a ruling lacks of what an example expects: each expected value that differs, by its path."""
    if isinstance(expect, dict):
        if not isinstance(got, dict):
            return [f"{path or '.'}: expected a mapping, got {got!r}"]
        out = []
        for k, v in expect.items():
            out += subset_problems(v, got.get(k), f"{path}.{k}" if path else k)
        return out
    return [] if expect == got else [f"{path}: expected {expect!r}, got {got!r}"]


def example_problems(kb: KnowledgeBase, rulesets: dict) -> list[Problem]:
    """Every worked example ruled as the command line would: a ruling that differs from what the
    example expects, or that does not cite the example's clause, is a problem of that clause."""
    from referee_app.core.knowledge.root import Knowledge

    knowledge = Knowledge(kb, rulesets)   # what is checked: the folder as read, compiled once here
    out = []
    for clause in kb.clauses.values():
        for i, example in enumerate(clause.examples, 1):
            where = f"{clause.id} worked example {i}" + (f" ({example.get('name')})" if example.get("name") else "")
            said = _example_problem(knowledge, clause, example, where)
            if said:   # the example's line only now: the file is read again for it (loader.entry_line)
                out.append(Problem(clause.file, line_of(example, 0) or entry_line(kb.root, clause, "examples", i), said))
    return out


def _example_problem(knowledge, clause, example, where: str) -> str | None:
    """What is wrong with one worked example, or None."""
    from referee_app.core.rules.engine import Conflict, NoRule
    from referee_app.core.rules.ruling import rule

    try:
        ruleset = example.get("ruleset") or next(rid for rid, rs in knowledge.rulesets.items()
                                                   if clause.source in rs.sources)
        ruling = rule(knowledge, example["situation"], ruleset)
        expect = dict(example["expect"])
    except StopIteration:
        return f"{where}: no ruleset applies source {clause.source}"
    except (BadInput, NoRule, Conflict, KnowledgeError, KeyError, TypeError) as exc:
        return f"{where}: cannot be ruled: {exc}"
    if ruling["board"]["over"]:
        expect.pop("turn", None)
    wrong = subset_problems(expect, ruling)
    if wrong:
        return f"{where} does not hold: {'; '.join(wrong)}"
    if clause.id not in ruling["clauses"] and not any(r.rsplit("/", 1)[0] == clause.id for r in ruling.get("rules", [])):
        # cited, or (a definition, a base case that says nothing happens) seen deciding
        return f"{where}: no rule of {clause.id} decides it (the ruling cites {', '.join(ruling['clauses'])})"
    return None
