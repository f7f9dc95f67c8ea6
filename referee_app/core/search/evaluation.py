"""Measuring a search against judged queries: MRR@10 and recall@10.

    scores = evaluate(lambda q: [hit ids, best first], cases)

A case is {"q": query, "relevant": [clause ids]}: the query is answered when one of its relevant
clauses is among the first `k` results; its reciprocal rank is 1 / the rank of the first of
them (0 when none is). Used by benchmarks/bench_search.py and tests/core/search/test_search_eval.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Scores:
    mrr: float
    recall: float
    ranks: dict = field(default_factory=dict)   # query -> rank of its first relevant hit, or None

    def missed(self) -> list[str]:
        return [q for q, r in self.ranks.items() if r is None]


def evaluate(search: Callable[[str], list[str]], cases: list[dict], k: int = 10) -> Scores:
    ranks = {}
    for case in cases:
        ids = search(case["q"])[:k]
        relevant = set(case["relevant"])
        ranks[case["q"]] = next((i for i, cid in enumerate(ids, 1) if cid in relevant), None)
    n = len(cases) or 1
    return Scores(sum(1 / r for r in ranks.values() if r) / n, sum(1 for r in ranks.values() if r) / n, ranks)
