#!/usr/bin/env python3
"""Rulebook search, quality and speed: core/search against a plain SQLite FTS5 + porter baseline.

    python benchmarks/bench_search.py [--repeat N] [--cold N] [--count N] [--misses]

Both engines index the same documents (every clause, once per language text it has) in the same
run. Quality, on the evaluation set (tests/core/search/search_eval.yaml: queries as users type them, each
with its judged relevant clauses), on the blind set (tests/core/search/search_blind.yaml: queries written by
someone who never ran the search, which it is not tuned on) and on the public cases
(../shared/cases/search.yaml): MRR@10 and recall@10, by language and kind; and for issue 33
(tests/core/search/search_reader.yaml: queries by failure class, a tuning part and a held-out part,
whose misses the second pass looked at; tests/core/search/search_fresh.yaml: 30 held-out queries
written before any was run, never looked at one by one), the share of hits shown in the query's
language without --lang, and any clause listed twice.
Speed: p50 and p95 latency of the evaluation queries, snippets included, each run --repeat times
after a warm-up; each query's first run in the same process; the first --count queries of --cold
fresh processes (nothing cached yet: what the first searches after opening the
index cost); and building each index. The baseline is what FTS5 gives out of
the box with stemming: the `porter unicode61 remove_diacritics 2` tokenizer, bm25, snippet(), the
query words OR-ed, each clause once; no thesaurus, typo tolerance or cross-language matching.

The index is built in a temporary folder, never in the user's cache.
"""
from __future__ import annotations

import argparse
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from referee_app.core.knowledge.root import Knowledge  # noqa: E402
from referee_app.core.search import Searcher, index_cache  # noqa: E402
from referee_app.core.search.documents import documents  # noqa: E402
from referee_app.core.search.evaluation import evaluate  # noqa: E402

EVAL = REPO / "tests" / "core" / "search" / "search_eval.yaml"
BLIND = REPO / "tests" / "core" / "search" / "search_blind.yaml"   # written blind, never tuned on
READER = REPO / "tests" / "core" / "search" / "search_reader.yaml"  # issue 33's classes: a tuning part and a held-out part
FRESH = REPO / "tests" / "core" / "search" / "search_fresh.yaml"    # issue 33's second held-out set, never looked at
TUNE2 = REPO / "tests" / "core" / "search" / "search_tune2.yaml"    # issue 33's second pass: its tuning set
PUBLIC = REPO.parent / "shared" / "cases" / "search.yaml"


class Fts5:
    """The baseline: SQLite FTS5 with the porter stemmer, the query's words OR-ed."""

    def __init__(self, path: Path):
        self.db = sqlite3.connect(path)

    def build(self, docs) -> None:
        self.db.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, source UNINDEXED, "
                        "lang UNINDEXED, title, body, tokenize='porter unicode61 remove_diacritics 2')")
        self.db.executemany("INSERT INTO docs VALUES (?, ?, ?, ?, ?)",
                            [(d["id"], d["source"], d["lang"], d["title"], d["body"]) for d in docs])
        self.db.commit()

    def search(self, query: str, lang: str | None = None, limit: int = 10) -> list[dict]:
        words = re.findall(r"\w+", query.lower())
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        sql = ("SELECT id, lang, snippet(docs, 4, '**', '**', '…', 24), bm25(docs) FROM docs "
               "WHERE docs MATCH ?" + (" AND lang = ?" if lang else "") + " ORDER BY bm25(docs) LIMIT ?")
        rows = self.db.execute(sql, (match, lang, limit * 4) if lang else (match, limit * 4))
        out, seen = [], set()
        for cid, hlang, snip, score in rows:
            if cid not in seen:
                seen.add(cid)
                out.append({"id": cid, "lang": hlang, "snippet": snip, "score": -score})
        return out[:limit]


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t


def measured(search, query: str) -> tuple[float, float]:
    """(wall clock, CPU time) of one search, in ms: on a loaded machine the wall clock also counts
    the time spent waiting for a core, the CPU time only the search's own work."""
    wall, cpu = time.perf_counter(), time.process_time()
    search(query, limit=10)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def latencies(search, queries: list[str], repeat: int) -> tuple[list, list]:
    """(first runs, later runs): each query's first run reads what no earlier query read (a
    term's postings, a text's words); the later ones are what typing a query again costs."""
    cold = [measured(search, q) for q in queries]
    warm = [measured(search, q) for _ in range(repeat) for q in queries]
    return cold, warm


def cold_worker(folder: str, seed: int, count: int) -> int:
    """In a process of its own (nothing cached by earlier queries, not even the stems of words):
    open the index, then time the first `count` evaluation queries in a shuffled order, snippets
    included; the same on a fresh connection to the FTS5 database. Prints both, in ms, as JSON."""
    import json
    import random

    queries = [c["q"] for c in yaml.safe_load(EVAL.read_text(encoding="utf-8"))]
    random.Random(seed).shuffle(queries)
    queries = queries[:count]
    searcher = Searcher(Knowledge.load(), folder=Path(folder) / "whoosh")
    _, opening = timed(searcher.open)
    ours = [measured(searcher.search, q) for q in queries]
    fts = Fts5(Path(folder) / "fts5.db")
    base = [measured(fts.search, q) for q in queries]
    print(json.dumps({"open": opening * 1000, "ours": ours, "fts5": base}))
    return 0


def cold_runs(folder: Path, runs: int, count: int) -> tuple[list[float], list[float], list[float]]:
    """(ours, FTS5, opening) in ms over `runs` fresh processes, each timing its first `count` queries."""
    import json
    import subprocess

    ours, base, opening = [], [], []
    for seed in range(runs):
        out = subprocess.run([sys.executable, __file__, "--cold-worker", str(folder), "--seed", str(seed),
                              "--count", str(count)], capture_output=True, text=True, check=True)
        data = json.loads(out.stdout.strip().splitlines()[-1])
        ours += [tuple(x) for x in data["ours"]]
        base += [tuple(x) for x in data["fts5"]]
        opening.append(data["open"])
    return ours, base, opening


def pct(xs: list[float], p: int) -> float:
    return statistics.quantiles(xs, n=100)[p - 1] if len(xs) > 1 else xs[0]


def arguments():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each query for the latencies (default 5)")
    ap.add_argument("--misses", action="store_true", help="list the queries each engine answers worst")
    ap.add_argument("--cold", type=int, default=8, metavar="N",
                    help="fresh processes timing their first queries after opening the index (default 8)")
    ap.add_argument("--count", type=int, default=25, help="queries each fresh process times (default 25)")
    ap.add_argument("--cold-worker", metavar="FOLDER", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    return ap.parse_args()


def query_languages(path: Path) -> dict[str, str]:
    """query -> the language it is written in: a case's `qlang`, else the `# --- French` (Italian,
    English) section it is listed under; none for the citations and numbers."""
    out, current = {}, None
    names = {"French": "fr", "Italian": "it", "English": "en"}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# --- "):
            current = names.get(line[6:].strip())
        elif line.startswith("- {q:"):
            case = yaml.safe_load(line)[0]
            out[case["q"]] = case.get("qlang") or current
    return out


def quality(searcher, fts, sets: dict, qlangs: dict) -> tuple[list, dict]:
    """Rows of MRR@10 and recall@10 for each set, overall, per language and per kind of query; the
    share of hits shown in the query's language and the clauses listed twice; and the scores."""
    answers: dict[tuple, list] = {}

    def ours(q, lang=None):
        answers["ours", q] = searcher.search(q, lang=lang, limit=10)
        return [h["id"] for h in answers["ours", q]]

    def base(q, lang=None):
        answers["fts5", q] = fts.search(q, lang=lang, limit=10)
        return [h["id"] for h in answers["fts5", q]]

    def mrr(s, qs):
        return sum(1 / s.ranks[q] for q in qs if s.ranks[q]) / len(qs)

    rows, results = [], {}
    for name, set_ in sets.items():
        if not set_:
            continue
        langs = {c["q"]: c.get("lang") for c in set_}
        a = evaluate(lambda q, langs=langs: ours(q, langs[q]), set_)
        b = evaluate(lambda q, langs=langs: base(q, langs[q]), set_)
        results[name] = (a, b)
        rows.append((f"{name} ({len(set_)}): MRR@10", f"{a.mrr:.3f}", f"{b.mrr:.3f}"))
        rows.append((f"{name}: recall@10", f"{a.recall:.1%}", f"{b.recall:.1%}"))
        shares, twice = [], []
        for engine in ("ours", "fts5"):
            shown = [h["lang"] == qlangs.get(c["q"]) for c in set_ if qlangs.get(c["q"]) and not c.get("lang")
                     for h in answers[engine, c["q"]]]
            shares.append(f"{sum(shown) / len(shown):.1%}" if shown else "-")
            twice.append(str(sum(len(answers[engine, c["q"]]) - len({h["id"] for h in answers[engine, c["q"]]})
                                 for c in set_)))
        rows.append((f"{name}: hits in the query's language (no --lang)", *shares))
        rows.append((f"{name}: clauses listed twice", *twice))
        for lang in ("fr", "it", "en"):
            qs = [c["q"] for c in set_ if qlangs.get(c["q"]) == lang]
            if qs:
                rows.append((f"  {lang} ({len(qs)}): MRR@10 / recall@10",
                             f"{mrr(a, qs):.3f} / {sum(1 for q in qs if a.ranks[q]) / len(qs):.0%}",
                             f"{mrr(b, qs):.3f} / {sum(1 for q in qs if b.ranks[q]) / len(qs):.0%}"))
        for kind in sorted({c["kind"] for c in set_ if c.get("kind")}):
            qs = [c["q"] for c in set_ if c.get("kind") == kind]
            rows.append((f"  {kind} ({len(qs)}): MRR@10", f"{mrr(a, qs):.3f}", f"{mrr(b, qs):.3f}"))
    return rows, results


def speed(folder: Path, kb, fts, queries: list[str], args) -> list:
    """Rows of latencies (ms) side by side, with their ratios."""
    searcher = Searcher(Knowledge(kb), folder / "whoosh")  # fresh from opening: nothing of the quality runs cached
    searcher.open()
    w_cold, w = latencies(searcher.search, queries, args.repeat)
    f_cold, f = latencies(fts.search, queries, args.repeat)
    searcher.close()
    fts.db.close()
    fresh, fresh_fts, opening = cold_runs(folder, args.cold, args.count) if args.cold else ([], [], [])
    rows = []
    ms = [("latency p50 / p95 (ms), snippets included", w, f), ("each query's first run", w_cold, f_cold)]
    if fresh:
        ms.append((f"first {args.count} queries of {args.cold} fresh processes", fresh, fresh_fts))
        rows.append(("opening the index in a fresh process (ms, median)", f"{statistics.median(opening):.0f}", "-"))
    for label, a, b in ms:
        for name, i in ((label, 0), ("    CPU time p50 / p95 (ms)", 1)):
            x, y = [t[i] for t in a], [t[i] for t in b]
            rows.append((name, f"{pct(x, 50):.2f} / {pct(x, 95):.2f}", f"{pct(y, 50):.2f} / {pct(y, 95):.2f}"))
            rows.append(("      ratio to FTS5, p50 / p95", f"{pct(x, 50) / pct(y, 50):.1f}x / {pct(x, 95) / pct(y, 95):.1f}x", ""))
    return rows


def misses(a, b) -> None:
    for name, s in (("core/search", a), ("FTS5", b)):
        worst = sorted(s.ranks.items(), key=lambda kv: -(kv[1] or 99))[:25]
        print(f"\n{name}, worst ranks:")
        for q, r in worst:
            if r != 1:
                print(f"  {r or '-':>3}  {q}")


def main() -> int:
    args = arguments()
    if args.cold_worker:
        return cold_worker(args.cold_worker, args.seed, args.count)
    installed = Knowledge.load()
    kb, rulesets = installed.kb, installed.rulesets
    docs = list(documents(kb, rulesets))
    cases = yaml.safe_load(EVAL.read_text(encoding="utf-8"))
    public = []
    if PUBLIC.is_file():
        public = [{"q": c["query"], "relevant": c["any_id"], "lang": c.get("lang")}
                  for c in yaml.safe_load(PUBLIC.read_text(encoding="utf-8")) if "any_id" in c]
    blind = yaml.safe_load(BLIND.read_text(encoding="utf-8"))
    reader = yaml.safe_load(READER.read_text(encoding="utf-8")) if READER.is_file() else []
    fresh = [c for c in yaml.safe_load(FRESH.read_text(encoding="utf-8")) if c.get("part") == "held"] \
        if FRESH.is_file() else []   # not the three found in the evaluation set (`part: dup`)
    qlangs = {**query_languages(EVAL), **query_languages(BLIND), **(query_languages(READER) if reader else {}),
              **(query_languages(FRESH) if fresh else {})}
    tune2 = yaml.safe_load(TUNE2.read_text(encoding="utf-8")) if TUNE2.is_file() else []
    qlangs.update(query_languages(TUNE2) if tune2 else {})
    queries = [c["q"] for c in cases]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _, ours_build = timed(index_cache.build, folder / "whoosh", installed)
        searcher = Searcher(Knowledge(kb), folder / "whoosh")
        _, ours_open = timed(searcher.open)
        fts = Fts5(folder / "fts5.db")
        _, fts_build = timed(fts.build, docs)
        rows = [("build (s)", f"{ours_build:.2f}", f"{fts_build:.2f}"), ("open (ms)", f"{ours_open * 1000:.0f}", "-")]
        found, results = quality(searcher, fts, {
            "evaluation set": cases, "blind set": blind,
            "issue 33, tuning part": [c for c in reader if c.get("part") == "tune"],
            "issue 33, second pass's tuning set": tune2,
            "issue 33, held-out part (looked at)": [c for c in reader if c.get("part") == "held"],
            "issue 33, fresh held-out set": fresh,
            "public cases": public}, qlangs)
        searcher.close()
        rows += found + speed(folder, kb, fts, queries, args)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(kb.clauses)} clauses, {len(docs)} documents; {len(queries)} queries x {args.repeat} runs timed; "
          f"load average {load:.2f} on {os.cpu_count()} cores\n")
    width = max(len(r[0]) for r in rows)
    print(f"{'':{width}}  {'core/search':>14}  {'FTS5 + porter':>14}")
    for label, a, b in rows:
        print(f"{label:{width}}  {a:>14}  {b:>14}")
    if "evaluation set" in results:
        a, b = results["evaluation set"]
        better = sum(1 for q in a.ranks if (b.ranks[q] or 99) < (a.ranks[q] or 99))
        print(f"\nFTS5 ranks the first relevant clause higher on {better} of {len(a.ranks)} queries")
        if args.misses:
            misses(a, b)
    if not public:
        print(f"\n(no public cases: {PUBLIC} is absent)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
