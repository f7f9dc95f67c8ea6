"""`rule`, `fouls`, `rulesets` and `verify`: rulings from the knowledge base."""
from __future__ import annotations

from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .io import knowledge_of, print_json, print_rows, read_document
from .parsers import JSON, arg, command


def add_parsers(sub) -> None:
    command(sub, "rule", run_rule, "rule one stroke (a situation file, - for standard input)",
            arg("file"),
            arg("--ruleset",
                help="icf, it, aicf-2009, fr-simplified, fr-house, carom-bi (default: the file's, else the "
                     "knowledge base's default_ruleset)"),
            arg("--all-rulesets", action="store_true",
                help="rule the stroke under every ruleset (the file's ruleset ignored): a list of rulings"),
            JSON,
            arg("--trace", action="store_true",
                help="add the derivation: per part, the deciding rule, the facts it tested, the rules set aside"),
            arg("--lang", choices=LANGUAGES, default="en", help="language of the explanation shown"))
    command(sub, "fouls", run_fouls, "the fouls a referee can call under a ruleset",
            arg("--ruleset", help="default: the knowledge base's default_ruleset"), JSON)
    command(sub, "rulesets", run_rulesets, "the playable rule systems and their parameters", JSON)
    command(sub, "verify", run_verify, "prove every situation gets exactly one ruling (gaps, conflicts, "
            "and where the text contradicts itself, how it is decided)",
            arg("--ruleset", help="one ruleset (default: all)"), JSON,
            arg("--markdown", action="store_true",
                help="print where each ruleset's text contradicts itself and what is ruled, as the "
                     "tables of docs/contradictions.md"))


def _decision_errors(fn):
    from referee_app.core.rules.engine import Conflict, NoRule
    from referee_app.core.rules.ruling import refusal

    try:
        return fn()
    except (NoRule, Conflict) as exc:
        raise refusal(exc) from None


def run_rule(args) -> int:
    from referee_app.core.rules.ruling import rule

    knowledge = knowledge_of(args)
    doc = read_document(args.file)
    if args.all_rulesets:
        return _rule_everywhere(args, knowledge, doc)
    ruling = _decision_errors(lambda: rule(knowledge, doc, args.ruleset, trace=args.trace))
    if args.json:
        print_json(ruling)
        return 0
    _print_ruling(ruling, args.lang)
    return 0


def _rule_everywhere(args, knowledge, doc) -> int:
    from referee_app.core.rules.compare import rule_everywhere

    if args.ruleset:
        raise BadInput("--all-rulesets", "rules under every ruleset: give no --ruleset with it")
    if args.trace:
        raise BadInput("--all-rulesets", "--trace explains one ruling: give it with --ruleset")
    rulings = rule_everywhere(knowledge, doc)
    if args.json:
        print_json(rulings)
        return 0
    for ruling in rulings:
        print(f"== {ruling['ruleset']}: {knowledge.ruleset_name(ruling['ruleset'], args.lang)}")
        if "refused" in ruling:
            print(f"refused: {ruling['refused']}")
        else:
            _print_ruling(ruling, args.lang)
    return 0


def _print_ruling(ruling: dict, lang: str) -> None:
    b = ruling["board"]
    print(ruling["explanation"][lang])
    if b["over"]:
        print(f"board over: {b['winner']} wins, {b['points']['striker']}-{b['points']['opponent']}")
    else:
        print(f"turn {ruling['turn']}; after: {ruling['after']}")
    print("clauses: " + ", ".join(ruling["clauses"]))
    for note in ruling.get("notes", []):
        print(f"note ({note['clause']}): {note.get(lang) or note.get('en')}")
    for part, entries in ruling.get("trace", {}).items():
        for e in entries:
            _print_trace_entry(part, e)


def _print_trace_entry(part: str, e: dict) -> None:
    if "rule" in e:
        tested = ", ".join(f"{k}={v}" for k, v in e["tested"].items())
        print(f"{part}: {e['rule']} ({tested})")
        for o in e["overridden"]:
            print(f"  not {o['rule']}: set aside as {o['how'].replace('_', ' ')} by {', '.join(o['by'])}")
    else:
        kind = "mechanic" if "mechanic" in e else "parameter"
        print(f"{part}: {kind} {e.get('mechanic') or e.get('parameter')} ({e['clause']})")


def run_fouls(args) -> int:
    from referee_app.core.rules.engine import foul_timing

    knowledge = knowledge_of(args)
    rs = knowledge.compiled(knowledge.ruleset(args.ruleset or knowledge.default_ruleset, "--ruleset").id)
    fouls = [{"id": f["id"], "names": dict(f.get("name", {})), "clauses": list(f.get("clauses", [])),
              "timing": foul_timing(f)} for f in rs.fouls.values()]
    print_rows(fouls, args.json, lambda f: f"{f['id']:24} {f['timing']:16} {f['names'].get('en', '')}  "
                                           f"({', '.join(f['clauses'])})")
    return 0


def run_rulesets(args) -> int:
    knowledge = knowledge_of(args)
    out = []
    for rid, rs in knowledge.rulesets.items():
        c = knowledge.compiled(rid)
        out.append({"id": rid, "names": dict(rs.name), "sources": rs.all_sources(knowledge.rulesets),
                    "extends": rs.extends,
                    "parameters": {k: _parameter(c, k) for k in c.params},
                    **({"colours": spec} if (spec := knowledge.colours(rid)) else {})})
    if args.json:
        print_json(out)
    else:
        for r in out:
            params = ", ".join(f"{k}={v['value']}" for k, v in r["parameters"].items())
            print(f"{r['id']:14} {r['names'].get('en', '')}\n               {params}")
    return 0


def _parameter(c, name: str) -> dict:
    out = {"value": c.params[name], "clause": c.param_clauses[name]}
    if name in c.assumptions:
        out["assumption"] = c.assumptions[name]  # the text is silent: the reason, for the referee
    return out


def _verify_one(root: str, ruleset_id: str) -> dict:
    """One ruleset's proof, in a process of its own: the knowledge is loaded there (from the cache)."""
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.rules.verify import verify

    return verify(Knowledge.load(root), ruleset_id).as_dict()


def run_verify(args) -> int:
    import os
    from concurrent.futures import ProcessPoolExecutor

    from referee_app.core.rules.verify import verify

    if args.markdown and args.json:
        # two answers for one output: the one not printed would be dropped without a word
        raise BadInput("--markdown", "prints the tables of docs/contradictions.md; give --markdown or --json, not both")
    knowledge = knowledge_of(args)
    ids = [knowledge.ruleset(args.ruleset, "--ruleset").id] if args.ruleset else list(knowledge.rulesets)
    if len(ids) > 1 and (os.cpu_count() or 1) > 1:
        # one ruleset per core: each proof is independent of the others
        with ProcessPoolExecutor(max_workers=min(len(ids), os.cpu_count())) as pool:
            reports = list(pool.map(_verify_one, [str(knowledge.root)] * len(ids), ids))
    else:
        reports = [verify(knowledge, rid).as_dict() for rid in ids]
    ok = all(d["ok"] for d in reports)
    if args.markdown:
        from referee_app.core.rules.contradictions import markdown

        print(markdown(knowledge, reports), end="")
        return 0 if ok else 1
    if args.json:
        print_json(reports)
        return 0 if ok else 1
    for d in reports:
        _print_report(d)
    print("verify: " + ("every situation gets exactly one ruling" if ok else "FAILED"))
    return 0 if ok else 1


def _print_report(d: dict) -> None:
    print(f"{d['ruleset']}: {d['situations']} situations in {d['seconds']} s, {len(d['gaps'])} gaps, "
          f"{len(d['conflicts'])} conflicts, {len(d['never_decisive'])} rules never decisive")
    for name, f in d["facts"].items():
        span = "{}..{}".format(*f["range"]) if "range" in f else "|".join(map(str, f.get("values", [])))
        print(f"  {name}: {span or 'ruleset ids'} -> {', '.join(map(str, f['representatives']))}")
    for g in d["gaps"]:
        print(f"  gap: nothing decides the {g['aspect']} in {g['count']} situations, e.g. {g['example']}")
    for c in d["conflicts"]:
        print(f"  conflict on the {c['aspect']} between {', '.join(c['rules'])} "
              f"({c['count']} situations), e.g. {c['example']}")
    n = d["contradiction_counts"]
    print(f"  where the text contradicts itself: {n['self_contradictions']} regions, {n['stated']} resolved by "
          f"its own words, {n['readings']} by the project's reading, {n['borrowed']} by a borrowed text, "
          f"{n['silent']} silent; "
          f"{n['own_text_first']} where the own text prevails over a borrowed one (verify --markdown lists them)")
    for c in d["contradictions"]:
        if c["ground"] == "silent":
            print(f"  contradiction decided without saying why: {c['rule']} over {c['over']} on the "
                  f"{', '.join(c['aspects'])} ({c['count']} situations): give its exception a priority")
    for rid in d["never_decisive"]:
        print(f"  never decisive, and the knowledge base does not say why: {rid}")
    for e in d["never_decisive_explained"]:
        print(f"  never decisive here, as the knowledge base says: {e['rule']} ({e['reason']})")
