"""`rulebook`, `show` and `check-kb`: reading and checking the knowledge base."""
from __future__ import annotations

import sys
import textwrap

from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .io import knowledge_of, print_json
from .parsers import ID, JSON, arg, command


def add_parsers(sub) -> None:
    command(sub, "rulebook", run_rulebook, "the whole rulebook in reading order",
            arg("--source", help="only this source (see sources in check-kb)"),
            arg("--lang", choices=LANGUAGES, help="reading language (translation where the original is in another)"),
            arg("--json", action="store_true", help="one JSON array of clause records"))
    command(sub, "show", run_show, "one clause by id, e.g. icf-fr:3.12.e", ID, arg("--lang", choices=LANGUAGES), JSON)
    command(sub, "check-kb", run_check, "validate the knowledge base and count its clauses", JSON)


def _record(clause, lang):
    rec = clause.record()
    if lang:
        text, official = clause.text_in(lang)
        rec["reading"] = {"lang": lang if lang in clause.texts else clause.lang, "text": text, "official": official}
    return rec


def _print_clause(clause, lang, out=sys.stdout) -> None:
    text, official = clause.text_in(lang or clause.lang)
    mark = "" if official else "  [translation]"
    out.write(f"{clause.id}  ({clause.paragraph}, {clause.title}){mark}\n")
    out.write(textwrap.indent(textwrap.fill(text, 96), "    ") + "\n\n")


def run_rulebook(args) -> int:
    kb = knowledge_of(args).kb
    if args.source and args.source not in kb.sources:
        raise BadInput("--source", f"unknown source '{args.source}' (known: {', '.join(kb.sources)})")
    clauses = kb.by_source(args.source) if args.source else list(kb.clauses.values())
    if args.json:
        print_json([_record(c, args.lang) for c in clauses])
    else:
        for c in clauses:
            _print_clause(c, args.lang)
    return 0


def run_show(args) -> int:
    from referee_app.core.rulebook.logic import clause_logic

    knowledge = knowledge_of(args)
    clause = knowledge.kb.get(args.id)
    if clause is None:
        raise BadInput("id", f"no clause '{args.id}' in the rulebook")
    logic = clause_logic(knowledge, clause)
    if args.json:
        print_json(dict(_record(clause, args.lang), **logic))
    else:
        _print_clause(clause, args.lang)
        _print_logic(clause, logic, args.lang or "en")
    return 0


def _print_logic(clause, logic: dict, lang: str, out=sys.stdout) -> None:
    """The rest of the clause's page: its other texts, its rules, examples, exceptions, rulesets."""
    shown = {lang, clause.lang}
    for other, entry in clause.texts.items():
        if other not in shown:
            mark = "" if entry["official"] else " (translation)"
            out.write(f"  {other}{mark}:\n" + textwrap.indent(textwrap.fill(entry["text"], 94), "    ") + "\n")
    for r in logic["rules"]:
        out.write(f"  rule {r['id']}\n    when: {r['when'][lang]}\n    then: {r['then'][lang]}\n")
        if r["exception_to"]:
            out.write(f"    exception to: {', '.join(r['exception_to'])}\n")
    for n, ex in enumerate(logic["examples"], 1):
        result = ex["ruling"]["explanation"][lang] if ex.get("ruling") else f"no ruling: {ex.get('error')}"
        status = "as expected" if ex["holds"] else "NOT as expected"
        out.write(f"  example {n} ({ex['ruleset']}): {ex['name']}\n    {result} [{status}]\n")
    if logic["exceptions"]:
        out.write(f"  exceptions to it: {', '.join(logic['exceptions'])}\n")
    out.write(f"  rulesets: {', '.join(logic['rulesets']) or 'none'}\n")


def run_check(args) -> int:
    from referee_app.core.checks.knowledge_base import other_problems
    from referee_app.core.knowledge.loader import load

    kb, problems = load(knowledge_of(args).root, strict=False)
    # each problem once, in the order found (a ruleset's problem is found by several checks)
    problems = list(dict.fromkeys(str(p) for p in list(problems) + other_problems(kb)))
    counts = kb.counts()
    encoded = _encoding(kb)
    if args.json:
        print_json({"problems": [str(p) for p in problems], "clauses": counts, "total": sum(counts.values()),
                    "stamp": kb.stamp, "encoding": encoded})
    else:
        for p in problems:
            print(p)
        for sid, n in counts.items():
            print(f"{sid:20} {n:4} clauses")
        if encoded:
            print("rule, penalty and scoring clauses of the played rulesets: "
                  f"{encoded['with_rules']} with rules, {encoded['as_ruleset_data']} as ruleset data "
                  f"(a parameter, mechanic or foul), {encoded['not_formalised']} not formalised (with the reason), "
                  f"{encoded['neither']} with neither")
            for sid, n in encoded["by_source"].items():
                print(f"rule, penalty and scoring clauses of {sid}: {n['with_rules']} with rules, "
                      f"{n['as_ruleset_data']} as ruleset data, {n['not_formalised']} not formalised, "
                      f"{n['neither']} with neither")
        print(f"{len(problems)} problems, {sum(counts.values())} clauses in {len(counts)} sources")
    return 1 if problems else 0


def _encoding(kb) -> dict:
    from referee_app.core.errors import KnowledgeError
    from referee_app.core.knowledge.rulesets import load_rulesets
    from referee_app.core.rules.encoding import encoding

    try:
        return encoding(kb, load_rulesets(kb)).counts()
    except KnowledgeError:
        return {}  # the rulesets' own problems are reported already

