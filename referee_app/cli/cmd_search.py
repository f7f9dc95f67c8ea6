"""`search`: the whole rulebook, every source and language, for a query in any of them."""
from __future__ import annotations

import re
import sys
import textwrap

from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .io import knowledge_of, print_json



def add_parsers(sub) -> None:
    p = sub.add_parser("search", help="search the rulebook in French, Italian or English",
                       description="Search every clause of every source; a query in one language also "
                                   "finds the clauses written in the others.")
    p.add_argument("query", nargs="+", metavar="QUERY", help="words to look for, in any of the three languages")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="show every hit in this language, its original or the project's translation "
                        "(default: the language the query is written in)")
    p.add_argument("--ruleset", help="only the clauses of this ruleset's sources (see `rulesets`)")
    p.add_argument("--source", help="only the clauses of this source (see `check-kb`)")
    p.add_argument("--limit", type=int, default=10, help="at most this many hits (default 10)")
    p.add_argument("--json", action="store_true", help="one JSON array of hits, best first")
    p.set_defaults(func=run_search)


def run_search(args) -> int:
    if args.limit < 1:
        raise BadInput("--limit", f"must be at least 1, not {args.limit}")
    from referee_app.core.search import Searcher

    try:
        found = Searcher(knowledge_of(args), settle=False).search_detailed(
            " ".join(args.query), lang=args.lang, ruleset=args.ruleset, source=args.source, limit=args.limit)
    except BadInput as exc:  # the core names its parameter; the user typed an option
        if exc.field in ("lang", "ruleset", "source", "limit"):
            raise BadInput(f"--{exc.field}", exc.problem) from None
        raise
    hits = found["hits"]
    # Words that match nothing in any language are said, never silently dropped: on standard
    # error with --json (standard output stays the contract's one JSON array).
    note = f"No match for: {', '.join(found['unmatched'])}\n" if found["unmatched"] else ""
    if args.json:
        sys.stderr.write(note)
        print_json(hits)
    else:
        sys.stdout.write(note)
        _print_hits(hits, sys.stdout)
    return 0


def _print_hits(hits: list[dict], out) -> None:
    if not hits:
        out.write("No clause matches.\n")
        return
    # In a terminal the matches are shown in bold; piped, they keep their ** markers.
    bold = (lambda m: f"\033[1m{m.group(1)}\033[0m") if out.isatty() else (lambda m: m.group(0))
    for n, hit in enumerate(hits, 1):
        note = "" if hit.get("official", True) else f", translation from {hit.get('translation_of') or '?'}"
        fuzzy = ", spelling guessed" if hit.get("match") == "fuzzy" else ""
        cite = f"  {hit['cite']}" if hit.get("cite") else ""
        out.write(f"{n:2}. {hit['id']}{cite}  {hit['title']} ({hit['lang']}{note}{fuzzy})\n")
        text = textwrap.fill(hit["snippet"], 92, initial_indent="    ", subsequent_indent="    ",
                             break_on_hyphens=False)
        out.write(re.sub(r"\*\*(.+?)\*\*", bold, text) + "\n\n")
