"""Tournament desk speed: pairing the next round and the standings, for 200 players after each of
their 8 rounds (goal: under 50 ms each), the checker on the whole tournament, and
`carrom-referee tournament pair` as a whole process. Medians of repeated runs, side by side in one
run. Run: .venv/bin/python benchmarks/bench_tournament.py"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee_app.core.knowledge.root import Knowledge
from referee_app.core.tournament.checker import check
from referee_app.core.tournament.generator import generate
from referee_app.core.tournament.model import Tournament, parse
from referee_app.core.tournament.pairing import next_round
from referee_app.core.tournament.standings import current

PLAYERS, SEED, REPEAT = 200, 1, 30
GOAL_MS = 50
FFC = Knowledge.load().ffc


def median_ms(fn, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def whole_process(doc: dict, runs: int = 5) -> float:
    exe = Path(sys.executable).parent / "carrom-referee"
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([str(exe), "tournament", "pair", "--json", f.name], check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    full = generate(FFC, PLAYERS, SEED)
    print(f"{PLAYERS} players, {full.rounds_total} rounds (goal: under {GOAL_MS} ms each)")
    print(f"{'after round':>11} {'pair ms':>8} {'standings ms':>13}")
    worst_pair = worst_standings = 0.0
    for r in range(0, full.rounds_total):
        t = Tournament(full.name, full.players, full.rounds[:r], ffc=FFC, seed=full.seed)
        p = median_ms(lambda t=t: next_round(t, SEED))
        s = median_ms(lambda t=t: current(t)) if r else 0.0
        worst_pair, worst_standings = max(worst_pair, p), max(worst_standings, s)
        print(f"{r:>11} {p:8.2f} {s:13.2f}")
    final = median_ms(lambda: next_round(full))
    s = median_ms(lambda: current(full))
    worst_standings = max(worst_standings, s)
    print(f"{full.rounds_total:>11} {final:8.2f} {s:13.2f}   (the final's pairing)")
    doc = full.to_doc()
    print(f"parse the file: {median_ms(lambda: parse(FFC, doc)):.2f} ms; check all {full.rounds_total} rounds: "
          f"{median_ms(lambda: check(full), 10):.2f} ms; generate: {median_ms(lambda: generate(FFC, PLAYERS, SEED), 5):.1f} ms")
    print(f"worst: pair {worst_pair:.2f} ms, standings {worst_standings:.2f} ms -> "
          f"{'within' if max(worst_pair, worst_standings) < GOAL_MS else 'OVER'} the {GOAL_MS} ms goal")
    half = dict(doc, rounds=doc["rounds"][:4])
    print(f"carrom-referee tournament pair, whole process (median of 5): {whole_process(half):.3f} s")


if __name__ == "__main__":
    main()
