#!/usr/bin/env python3
"""Rulebook search speed and recall: core/search.py (whoosh) against a plain SQLite FTS5 baseline.

    python benchmarks/bench_search.py [--repeat N]

Both engines index the same documents (every clause, once per language text it has) in the same
run. Timed: building each index, and queries by kind (one word, several words, typos,
cross-lingual), snippets included, each query run --repeat times after a warm-up. Recall: the
share of the public cases (../shared/cases/search.yaml) and of their translations whose
expected clause is in the top N. The baseline is what FTS5 gives out of the box: the
`unicode61 remove_diacritics 2` tokenizer, bm25, snippet(), the query words OR-ed, each clause
once; no stemming, glossary or typo tolerance.

The index is built in a temporary folder, never in the user's cache.
"""
from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from referee_app.core.search import engine as S  # noqa: E402
from referee_app.core.knowledge.loader import default  # noqa: E402
from referee_app.core.knowledge.rulesets import default_rulesets  # noqa: E402

CASES = REPO.parent / "shared" / "cases" / "search.yaml"

# (query, lang filter) by kind. Cross-lingual: the words are in one language, the texts sought in another.
QUERIES = {
    "one word": [("reine", None), ("regina", None), ("queen", None), ("filet", None), ("striker", None),
                 ("foul", None), ("pénalité", None), ("arbitro", None)],
    "several words": [("reine confirmer", None), ("pedine fuori board", None), ("time between sets", None),
                      ("jetons hors du plateau", None), ("regina confermare", None),
                      ("penalty coin due", None)],
    "fuzzy": [("stricker", None), ("penallty", None), ("regnia", None), ("arbittre", None),
              ("confremare", None), ("pedinna", None)],
    "cross-lingual": [("queen", "fr"), ("regina", "en"), ("net", "fr"), ("cover", "it"),
                      ("queen cover", None), ("coins off the board", None)],
}

# The public queries in the two other languages, as in tests/test_search_cli.py.
TRANSLATIONS = {
    "reine confirmer": ["regina confermare", "queen cover"],
    "queen": ["reine", "regina"],
    "pedine fuori board": ["jetons hors du plateau", "coins off the board"],
    "time between sets": ["temps entre les sets", "tempo tra i set"],
    "filet": ["retina", "net"],
}


# --- The FTS5 baseline -------------------------------------------------------------------------

class Fts5:
    def __init__(self, path: Path):
        self.db = sqlite3.connect(path)

    def build(self, docs) -> None:
        self.db.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, source UNINDEXED, "
                        "lang UNINDEXED, title, body, tokenize='unicode61 remove_diacritics 2')")
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


# --- Measuring ---------------------------------------------------------------------------------

def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t


def latencies(search, queries, repeat: int) -> list[float]:
    for q, lang in queries:  # warm-up: caches, first reads
        search(q, lang=lang, limit=10)
    out = []
    for _ in range(repeat):
        for q, lang in queries:
            out.append(timed(search, q, lang=lang, limit=10)[1])
    return out


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[-1] if len(xs) > 1 else xs[0]


def recall(search, cases) -> tuple[int, int]:
    found = 0
    for case in cases:
        ids = [h["id"] for h in search(case["query"], lang=case.get("lang"), limit=case.get("top", 10))]
        found += bool(set(ids) & set(case["any_id"]))
    return found, len(cases)


def load_cases() -> tuple[list[dict], list[dict]]:
    if not CASES.is_file():
        return [], []
    import yaml

    public = [c for c in yaml.safe_load(CASES.read_text(encoding="utf-8")) if "any_id" in c]
    translated = [dict(c, query=t) for c in public for t in TRANSLATIONS.get(c["query"], [])]
    return public, translated


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30, help="runs of each query (default 30)")
    args = ap.parse_args()

    kb, rulesets = default(), default_rulesets()
    docs = list(S._documents(kb, rulesets))
    with tempfile.TemporaryDirectory() as tmp:
        _, whoosh_build = timed(S._build, Path(tmp) / "whoosh", kb)
        searcher, whoosh_open = timed(lambda: S.Searcher(kb, Path(tmp) / "whoosh"))
        _, t = timed(searcher.open)
        whoosh_open += t
        fts = Fts5(Path(tmp) / "fts5.db")
        _, fts_build = timed(fts.build, docs)

        rows = [("build (s)", f"{whoosh_build:.3f}", f"{fts_build:.3f}"),
                ("open (ms)", f"{whoosh_open * 1000:.1f}", "-")]
        for kind, queries in QUERIES.items():
            w = latencies(searcher.search, queries, args.repeat)
            f = latencies(fts.search, queries, args.repeat)
            rows.append((f"{kind}: median / p95 (ms)",
                         f"{statistics.median(w) * 1000:.2f} / {p95(w) * 1000:.2f}",
                         f"{statistics.median(f) * 1000:.2f} / {p95(f) * 1000:.2f}"))
        public, translated = load_cases()
        for name, cases in (("recall, public cases", public), ("recall, translated cases", translated)):
            if cases:
                rows.append((name, "%d/%d" % recall(searcher.search, cases), "%d/%d" % recall(fts.search, cases)))
        searcher.close()
        fts.db.close()

    print(f"{len(kb.clauses)} clauses, {len(docs)} documents; {args.repeat} runs of each query, snippets included\n")
    width = max(len(r[0]) for r in rows)
    print(f"{'':{width}}  {'whoosh (core/search.py)':>26}  {'SQLite FTS5':>16}")
    for label, a, b in rows:
        print(f"{label:{width}}  {a:>26}  {b:>16}")
    if not public:
        print(f"\n(no recall: {CASES} is absent)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
