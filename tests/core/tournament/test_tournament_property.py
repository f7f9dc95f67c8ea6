"""On a thousand random tournaments of 4 to 80 players (`generate`, seeds 0-999): `check`
re-pairs every round identically, everybody plays exactly once per round, and nobody meets the
same opponent twice unless the pairing was forced (he had met everyone still unpaired below
him). Bounded: about ten seconds on a 2-core machine."""
from __future__ import annotations

import json
import random

from referee_app.core.tournament.checker import check, rematches
from referee_app.core.tournament.generator import generate
from referee_app.core.tournament.model import GHOST, parse

from support.cli import run_cli
from support.kbcopy import installed

TOURNAMENTS = 1000


def sizes():
    rng = random.Random(2026)
    return [(rng.randint(4, 80), seed) for seed in range(TOURNAMENTS)]


def test_a_thousand_random_tournaments_re_pair_identically():
    forced = 0
    for players, seed in sizes():
        t = generate(installed().ffc, players, seed)
        where = f"{players} players, seed {seed}"
        # Through the file format, as `check` reads it.
        t = parse(installed().ffc, json.loads(json.dumps(t.to_doc())))
        assert len(t.rounds) == t.rounds_total, where
        report = check(t)
        assert report["ok"] and report["problems"] == [], where
        assert report.get("rematches", []) == rematches(t), where
        for r, games in enumerate(t.rounds, 1):
            seen = [p for g in games for p in g.players() if p is not GHOST]
            assert sorted(seen) == sorted(t.players), f"{where}, round {r}"
            assert sum(GHOST in g.players() for g in games) == players % 2, f"{where}, round {r}"
        again = rematches(t)
        assert all(x["forced"] for x in again), (where, [x for x in again if not x["forced"]])
        forced += len(again)
    assert forced > 0  # the small tournaments do force rematches: the property was put to the test


def test_generate_then_check_on_the_command_line(tmp_path):
    for players, seed in ((4, 1), (13, 2), (80, 3)):
        out = run_cli("tournament", "generate", "--players", str(players), "--seed", str(seed),
                      *(["--yaml"] if players == 13 else []))
        assert out.returncode == 0, out.stderr
        if players != 13:
            assert json.loads(out.stdout)["players"][0] == f"P{1:0{len(str(players))}d}"
        path = tmp_path / f"t{players}.yaml"
        path.write_text(out.stdout, encoding="utf-8")
        report = run_cli("tournament", "check", str(path), "--json")
        assert report.returncode == 0, report.stderr
        answer = json.loads(report.stdout)
        assert answer["ok"] is True and answer["problems"] == [], answer
        assert all(m["forced"] for m in answer.get("rematches", [])), answer
