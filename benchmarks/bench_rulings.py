"""Ruling speed: in-process median and 99th percentile, `verify` wall time per ruleset, and
`carrom-referee rule` as a whole process. Run: .venv/bin/python benchmarks/bench_rulings.py"""
from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee_app.core.knowledge.root import Knowledge
from referee_app.core.rules.ruling import carry_out
from referee_app.core.rules.verify import situations, verify

KNOWLEDGE = Knowledge.load()

RULESETS = ["icf", "it", "aicf-2009", "fr-simplified"]


def in_process(ruleset: str, n: int = 5000) -> tuple[float, float]:
    rs = KNOWLEDGE.compiled(ruleset)
    sample = [s for s, _ in situations(rs)]
    random.seed(1)
    picks = random.sample(sample, min(n, len(sample)))
    times = []
    for s in picks:
        t = time.perf_counter()
        facts = s.facts()   # what rule() does once the situation is parsed and found possible
        carry_out(KNOWLEDGE, rs, s, facts, rs.decide(facts))
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def whole_process(runs: int = 10) -> float:
    exe = Path(sys.executable).parent / "carrom-referee"
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write("ruleset: icf\nbefore: {own_on_board: 1, opponent_on_board: 3, queen: covered_by_striker}\n"
                "stroke: {pocketed: {own: 1}}\n")
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([str(exe), "rule", "--json", f.name], check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    print(f"{'ruleset':14} {'median ms':>10} {'p99 ms':>8} {'verify s':>9} {'situations':>11}")
    total = 0.0
    for r in RULESETS:
        med, p99 = in_process(r)
        t = time.perf_counter()
        report = verify(KNOWLEDGE, r)
        wall = time.perf_counter() - t
        total += wall
        print(f"{r:14} {med:10.3f} {p99:8.3f} {wall:9.2f} {report.situations:11}")
    print(f"verify, all rulesets: {total:.1f} s")
    print(f"carrom-referee rule, whole process (median of 10): {whole_process():.3f} s")


if __name__ == "__main__":
    main()
