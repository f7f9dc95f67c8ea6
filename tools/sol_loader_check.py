#!/usr/bin/env python3
"""Check our SoL export with SoL's own loader, in a throwaway environment.

    .venv/bin/python tools/sol_loader_check.py FILE.sol [FILE.sol.gz ...] [--venv /tmp/sol-venv]

FILE are files written by `carrom-referee tournament export ID --format sol --out FILE`. SoL
(GPL, by Lele Gaifax) is installed from the package index into the throwaway venv (created when
missing; nothing of SoL comes into this repository), and its `sol.models.bio.load_sol` loads each
file into an empty in-memory SoL database. Then SoL ranks every tourney itself
(`Tourney.computeRanking`), and each player's points, Bucholz and net score must equal our
victories, Bucholz and difference for the same file (read back by our importer). Exit 1 on any
refusal or difference. SoL 5 refuses to rank a game that ended 0-0 (a level game at time, a
draw for the FFC text and for the SoL that played the archive's tourneys): such a file is
reported as loaded but unranked, not as a failure.
"""
from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Run by SoL's interpreter: load each file, print SoL's own ranking of every tourney as JSON.
SOL_SIDE = r"""
import json, sys
from sqlalchemy import create_engine
from sqlalchemy.orm import Session
from sol.models import Base
from sol.models.bio import load_sol

out = []
for path in sys.argv[1:]:
    engine = create_engine('sqlite:///:memory:')
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        try:
            tourneys, skipped = load_sol(session, path)
            session.flush()
        except Exception as exc:
            out.append({"file": path, "refused": f"{type(exc).__name__}: {exc}"})
            continue
        for t in tourneys:
            item = {"file": path, "tourney": t.description, "date": str(t.date),
                    "competitors": len(t.competitors), "matches": len(t.matches), "phantomscore": t.phantomscore}
            try:
                ranked = t.computeRanking()
            except Exception as exc:
                item["unranked"] = f"{type(exc).__name__}: {exc}"
                out.append(item)
                continue
            ranking = {}
            for c, rank in ranked:
                name = ' / '.join(' '.join(x for x in (p.firstname, p.lastname) if x)
                                  for p in (c.player1, c.player2) if p is not None)
                ranking[name] = {"points": rank.points, "bucholz": rank.bucholz, "netscore": rank.netscore}
            item["ranking"] = ranking
            out.append(item)
        session.commit()
print(json.dumps(out))
"""


def sol_python(folder: Path) -> Path:
    python = folder / "bin" / "python"
    if not python.exists():
        print(f"creating {folder} and installing SoL from the package index…", file=sys.stderr)
        venv.create(folder, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "sol"], check=True)
    return python


def ours(path: str) -> dict:
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.tournament import sol
    from referee_app.core.tournament.standings import after_each_round

    entry = sol.tournaments(Knowledge.load().ffc, sol.read_file(path))[0]
    t = entry["tournament"]
    rows = after_each_round(t)[-1] if t.rounds else []
    return {r.player: {"points": r.victories, "bucholz": r.bucholz, "netscore": r.difference} for r in rows}


def main(argv: list[str]) -> int:
    folder = Path("/tmp/sol-venv")
    if "--venv" in argv:
        i = argv.index("--venv")
        folder = Path(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    python = sol_python(folder)
    items = []
    for start in range(0, len(argv), 100):          # a bounded command line
        done = subprocess.run([str(python), "-c", SOL_SIDE, *argv[start:start + 100]], capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        items += json.loads(done.stdout)
    failed = 0
    for item in items:
        if "refused" in item:
            failed += 1
            print(f"REFUSED by SoL: {item['file']}: {item['refused']}")
            continue
        if "unranked" in item:
            # loaded; but SoL 5 will not rank a game that ended 0-0, which the FFC text (a level
            # game at time) and the SoL of the archive's years count as a draw
            zero = "without result" in item["unranked"]
            failed += not zero
            print(f"{'loaded, 0-0 unranked' if zero else 'UNRANKED'}: {item['file']}: SoL loaded "
                  f"'{item['tourney']}' ({item['competitors']} competitors, {item['matches']} matches) "
                  f"but does not rank it: {item['unranked'][:160]}")
            continue
        # SoL normalises the case of names as it loads them (BeltramiTest becomes Beltramitest)
        mine = {p.casefold(): r for p, r in ours(item["file"]).items()}
        differing = {p: (mine.get(p.casefold()), r) for p, r in item["ranking"].items() if mine.get(p.casefold()) != r}
        status = "ok" if not differing and len(mine) == len(item["ranking"]) else "DIFFERS"
        failed += status != "ok"
        print(f"{status}: {item['file']}: SoL loaded '{item['tourney']}' ({item['date']}), "
              f"{item['competitors']} competitors, {item['matches']} matches, phantom score "
              f"{item['phantomscore']}; SoL's own ranking equals ours for {len(item['ranking']) - len(differing)} "
              f"of {len(mine)} players")
        for p, (a, b) in list(differing.items())[:5]:
            print(f"   {p}: ours {a}, SoL's {b}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
