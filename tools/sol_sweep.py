#!/usr/bin/env python3
"""Sweep real SoL tournaments: every Swiss tourney of the given `.sol`/`.sol.gz` files imported,
and our standings compared with the ranking SoL stored for each player.

    .venv/bin/python tools/sol_sweep.py /tmp/solarchive/everything.sol [more files...] [--json] [--store]

SoL's test archive (its sdist's tests/scr/2018-07-10.zip, 499 tourneys of 2000-2018) is the
reference the issue names; it is not stored here (SoL is GPL and the data is theirs). For each
Swiss tourney: it imports (the organiser's choices read from it), and for every player our
victories, Bucholz and difference after SoL's ranked round equal SoL's points, bucholz and
netscore; the order is ours but for players level on all three (the FFC text breaks those ties
by the previous standings, SoL by total points). Round-robin and knockout tourneys are counted
as refused, each named. With --store, each tourney is also stored in a throwaway records
database (as `tournament import` does) and read back, and the standings compared are those of
the stored tournament. Exit 1 when any Swiss tourney fails to import or to match.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_app.core.errors import BadInput  # noqa: E402
from referee_app.core.knowledge.root import Knowledge  # noqa: E402
from referee_app.core.tournament import sol  # noqa: E402
from referee_app.core.tournament.choices import departures  # noqa: E402
from referee_app.core.tournament.standings import Row, after_each_round  # noqa: E402

FFC = Knowledge.load().ffc   # the rules a sweep imports by: the installed tournament.yaml


def compare(entry: dict) -> list[str]:
    """What differs between our standings and SoL's for one imported tourney; a difference for a
    player whose total score SoL stored is not the sum of his own matches in the file is marked
    "stale" (SoL's stored ranking was not recomputed after a result changed: SoL's own
    computeRanking of such a tourney gives ours)."""
    t = entry["tournament"]
    if not t.rounds:
        return []
    if entry["ranked_round"] == 0:      # nothing ranked yet in SoL: everybody at nought
        rows = [Row(i, p, 0, 0, 0, 0) for i, p in enumerate(t.players, 1)]
    else:
        rows = after_each_round(t, entry["ranked_round"])[-1]
    problems = []
    for r in rows:
        theirs = dict(entry["sol"][r.player])
        total = theirs.pop("totscore", None)
        ours = {"points": r.victories, "bucholz": r.bucholz, "netscore": r.difference}
        for k in [k for k, v in theirs.items() if v is None]:    # not stored by older SoLs
            del theirs[k], ours[k]
        if ours != theirs:
            scored = points_scored(t, r.player, entry["ranked_round"])
            stale = f" (SoL's stored total score {total}, its own matches add up to {scored})" \
                if total is not None and total != scored else ""
            problems.append(f"{'stale: ' if stale else ''}{r.player}: ours {ours}, SoL's {theirs}{stale}")
    key = [(-r.victories, -r.bucholz, -r.difference) for r in rows]
    if key != sorted(key):
        problems.append("our order is not by victories, Bucholz, difference")
    return problems


def points_scored(t, player: str, upto: int) -> int:
    """The points a player scored in the rounds SoL ranked (SoL's `totscore`)."""
    return sum(s for games in t.rounds[:upto] for g in games if g.done for p, s in zip(g.players(), g.score)
               if p == player)


def throwaway_store():
    import tempfile

    from referee_app.core.storage.database import Database
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.tournament.store import TournamentStore

    folder = tempfile.mkdtemp(prefix="sol-sweep-")
    return TournamentStore(Knowledge.load(), Database(str(Path(folder) / "records.sqlite3")))


def sweep(paths: list[str], store=None) -> dict:
    counts: Counter = Counter()
    failures, refused = [], []
    players = 0
    for path in paths:
        docs = sol.read_file(path)
        for n, doc in enumerate(docs[1:], 1):
            counts["tourneys"] += 1
            try:
                entry = sol.tournaments(FFC, [docs[0], doc])[0]
            except BadInput as exc:
                counts["swiss refused"] += 1
                failures.append(f"{path} #{n} {sol.tourney_name(doc)}: not imported: {exc}")
                continue
            if "refused" in entry:
                counts[f"refused ({entry['kind']})"] += 1
                refused.append(entry["refused"])
                continue
            counts["swiss imported"] += 1
            t = entry["tournament"]
            if store is not None:
                stored = store.load(store.import_tournament(t, notes=entry["notes"]))
                if stored.to_doc() != t.to_doc():
                    counts["swiss stored differently"] += 1
                    failures.append(f"{path} #{n} {entry['name']}: read back from the records, not the same")
                entry["tournament"] = t = stored
            players += len(t.players)
            for choice in sorted({d["choice"] for d in departures(t)}):
                counts[f"tourneys with {choice}"] += 1
            problems = compare(entry)
            if problems and all(p.startswith("stale: ") for p in problems):
                counts["swiss equal but where SoL's stored ranking is stale"] += 1
                failures.append(f"(not a failure) {path} #{n} {entry['name']}: " + "; ".join(problems[:3]))
            elif problems:
                counts["swiss differing"] += 1
                failures.append(f"{path} #{n} {entry['name']}: " + "; ".join(problems[:3]))
            else:
                counts["swiss equal"] += 1
    return {"counts": dict(counts), "players compared": players, "failures": failures, "refused": refused}


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    paths = [a for a in argv if a not in ("--json", "--store")]
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    report = sweep(paths, throwaway_store() if "--store" in argv else None)
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        for k, v in sorted(report["counts"].items()):
            print(f"{v:6}  {k}")
        print(f"{report['players compared']:6}  player standings compared")
        for line in report["refused"]:
            print("refused:", line)
        for line in report["failures"]:
            print(line if line.startswith("(not a failure)") else f"FAILED: {line}")
    failed = sum(report["counts"].get(k, 0) for k in ("swiss refused", "swiss differing", "swiss stored differently"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
