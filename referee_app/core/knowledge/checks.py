"""What `check-kb` checks beyond the clauses: forms.yaml, and the worked examples beside the rules.

Each check returns Problems naming the file and line instead of raising, so that one broken file
never hides the problems of the others.
"""
from __future__ import annotations

from referee_app.core.errors import BadInput, KnowledgeError
from .loader import entry_line
from .model import KnowledgeBase, Problem
from .yamlio import YamlError, line_of


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
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        # the file's shape is not the one forms.yaml has (a missing section, a list for a mapping)
        return [Problem(FILE, 0, f"not a forms file as knowledge/README.md describes it ({type(exc).__name__}: "
                                 f"{exc})")]


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
    out = []
    for clause in kb.clauses.values():
        for i, example in enumerate(clause.examples, 1):
            where = f"{clause.id} worked example {i}" + (f" ({example.get('name')})" if example.get("name") else "")
            said = _example_problem(clause, example, where, rulesets)
            if said:   # the example's line only now: the file is read again for it (loader.entry_line)
                out.append(Problem(clause.file, line_of(example, 0) or entry_line(kb.root, clause, "examples", i), said))
    return out


def _example_problem(clause, example, where: str, rulesets: dict) -> str | None:
    """What is wrong with one worked example, or None."""
    from referee_app.core.rules.engine import Conflict, NoRule
    from referee_app.core.rules.ruling import rule

    try:
        ruleset = example.get("ruleset") or next(rid for rid, rs in rulesets.items() if clause.source in rs.sources)
        ruling = rule(example["situation"], ruleset)
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
