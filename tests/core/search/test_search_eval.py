"""The search against its evaluation set (tests/core/search/search_eval.yaml): queries as referees and
learners type them, each with the clauses judged relevant. Fails when the search gets worse than
the level it reached; benchmarks/bench_search.py prints the same scores beside an FTS5 baseline."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from referee_app.core.knowledge.root import Knowledge
from referee_app.core.search import Searcher
from referee_app.core.search.evaluation import evaluate

CASES = Path(__file__).with_name("search_eval.yaml")
BLIND = Path(__file__).with_name("search_blind.yaml")
# The level reached (MRR@10 0.921 and recall@10 on the set); raise it when the search improves.
# Every query is answered in the top 10.
MRR_FLOOR = 0.91
RECALL_FLOOR = 1.0


# The blind set (written by someone who never ran the search; the search is not tuned on it): a
# floor below the level reached (MRR@10 0.72, recall@10 75/80), so that a change that helps the
# evaluation set by hurting queries nobody tuned for is seen.
BLIND_MRR_FLOOR = 0.70
BLIND_RECALL_FLOOR = 0.92


@pytest.fixture(scope="module", params=[CASES, BLIND], ids=["evaluation", "blind"])
def cases(request):
    return yaml.safe_load(request.param.read_text(encoding="utf-8"))


def test_the_set_is_large_trilingual_and_judged_against_real_clauses(cases, kb):
    assert len(cases) >= 80
    assert len({c["q"] for c in cases}) == len(cases), "a query is listed twice"
    for case in cases:
        assert case["relevant"] and all(cid in kb.clauses for cid in case["relevant"]), case


def test_no_query_is_copied_from_a_clause(cases, kb):
    fold = lambda s: " ".join(re.findall(r"\w+", s.lower()))  # noqa: E731
    texts = [fold(t["text"]) for c in kb.clauses.values() for t in c.texts.values()]
    for case in cases:
        q = fold(case["q"])
        if len(q.split()) >= 4:
            assert not any(q in t for t in texts), f"{case['q']!r} is a clause's words"


def test_the_evaluation_set_is_at_least_150_queries():
    assert len(yaml.safe_load(CASES.read_text(encoding="utf-8"))) >= 150


def test_no_blind_query_is_in_the_evaluation_set():
    ours = {c["q"].lower() for c in yaml.safe_load(CASES.read_text(encoding="utf-8"))}
    assert not ours & {c["q"].lower() for c in yaml.safe_load(BLIND.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def searcher_for_sets(tmp_path_factory):
    s = Searcher(Knowledge.load(), folder=tmp_path_factory.mktemp("search-index"))
    yield s
    s.close()


@pytest.mark.parametrize("path,mrr,recall", [(CASES, MRR_FLOOR, RECALL_FLOOR),
                                              (BLIND, BLIND_MRR_FLOOR, BLIND_RECALL_FLOOR)], ids=["evaluation", "blind"])
def test_the_search_keeps_the_level_it_reached(searcher_for_sets, path, mrr, recall):
    cases = yaml.safe_load(path.read_text(encoding="utf-8"))
    scores = evaluate(lambda q: [h["id"] for h in searcher_for_sets.search(q, limit=10)], cases)
    assert scores.recall >= recall, f"not in the top 10: {scores.missed()}"
    assert scores.mrr >= mrr, f"MRR@10 {scores.mrr:.3f} < {mrr}"


# Issue 33's sets: tests/core/search/search_reader.yaml, queries by failure class, each with the
# language it is written in, a tuning part and a held-out part (the second pass looked at that
# part's misses, so it is tuned on now); and tests/core/search/search_fresh.yaml, 30 more held-out
# queries written from the sources before any was run, never looked at one by one. Floors below
# the levels reached (MRR@10 0.935, 0.921 and 0.958, every query answered in the top 10, hits in
# the query's language 99% to 100%), so that a change that loses what issue 33 won is seen.
READER = Path(__file__).with_name("search_reader.yaml")
FRESH = Path(__file__).with_name("search_fresh.yaml")
READER_FLOORS = {"tune": 0.90, "held": 0.88, "fresh": 0.92}


def _issue_33_cases(part: str) -> list[dict]:
    if part == "fresh":   # its three queries found in the evaluation set are not measured
        return [c for c in yaml.safe_load(FRESH.read_text(encoding="utf-8")) if c["part"] == "held"]
    return [c for c in yaml.safe_load(READER.read_text(encoding="utf-8")) if c["part"] == part]


def test_the_issue_33_sets_are_trilingual_with_held_out_parts(kb):
    cases = yaml.safe_load(READER.read_text(encoding="utf-8"))
    fresh = _issue_33_cases("fresh")
    assert {c["qlang"] for c in cases} == {"fr", "it", "en"}
    assert {c["part"] for c in cases} == {"tune", "held"}
    assert [sum(c["qlang"] == lang for c in fresh) for lang in ("fr", "it", "en")] == [10, 10, 10]
    for case in cases + fresh:
        assert case["relevant"] and all(cid in kb.clauses for cid in case["relevant"]), case
    others = {c["q"].lower() for path in (CASES, BLIND, READER) for c in yaml.safe_load(path.read_text(encoding="utf-8"))}
    assert not others & {c["q"].lower() for c in fresh}, "a fresh query is in another set"


@pytest.mark.parametrize("part", ["tune", "held", "fresh"])
def test_hits_are_in_the_query_s_language_and_the_level_holds(searcher_for_sets, part):
    cases = _issue_33_cases(part)
    answers = {c["q"]: searcher_for_sets.search(c["q"], limit=10) for c in cases}
    shown = [h["lang"] == c["qlang"] for c in cases for h in answers[c["q"]]]
    assert sum(shown) / len(shown) >= 0.95
    assert all(len({h["id"] for h in hits}) == len(hits) for hits in answers.values()), "a clause listed twice"
    scores = evaluate(lambda q: [h["id"] for h in answers[q]], cases)
    assert scores.recall == 1.0, f"not in the top 10: {scores.missed()}"
    assert scores.mrr >= READER_FLOORS[part], f"MRR@10 {scores.mrr:.3f} < {READER_FLOORS[part]}"
