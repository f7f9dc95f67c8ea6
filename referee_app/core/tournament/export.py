"""A tournament's standings and results, exported for a national ranking.

Two CSV files (standings, results) for a spreadsheet, and one plain-text file that a ranking
routine can read back, as the FFC's routine read Scarry's `nom_du_tournoi.scr`
(ffc-tournament:1.24). The text format is documented in docs/tournament.md; `read_text`
reads it back (the tests do, and so can the national ranking's routine).
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from referee_app.core.errors import BadInput
from .model import GHOST, Tournament
from .standings import current

HEADER = "# carrom-referee tournament ranking file, version 1 (docs/tournament.md)"
STANDINGS_COLUMNS = ("rank", "player", "victories", "bucholz", "difference", "played")
RESULTS_COLUMNS = ("round", "table", "first", "second", "first_score", "second_score")


def _cell(value) -> str:
    return "" if value is None else str(value)


def standings_csv(t: Tournament) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(STANDINGS_COLUMNS)
    for row in current(t):
        w.writerow([getattr(row, c) for c in STANDINGS_COLUMNS])
    return out.getvalue()


def _result_rows(t: Tournament):
    for r, games in enumerate(t.rounds, 1):
        for i, g in enumerate(games, 1):
            yield r, g.table or i, g
    if t.final is not None:
        yield "final", t.final.table or 1, t.final


def results_csv(t: Tournament) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(RESULTS_COLUMNS)
    for r, table, g in _result_rows(t):
        w.writerow([r, table, _cell(g.first), _cell(g.second), *(g.score if g.done else ("", ""))])
    return out.getvalue()


def to_text(t: Tournament, date: str = "") -> str:
    """The plain-text ranking file: one record per line, fields separated by tabs, the record's
    kind first (T tournament, P player, R game, F final, S standing); the ghost is an empty name."""
    lines = [HEADER, "\t".join(("T", t.name, date, str(t.rounds_total), _cell(t.seed)))]
    for key, value in t.choices_doc().items():        # the organiser's choices, one C record each
        lines.append("\t".join(("C", key, json.dumps(value, ensure_ascii=False, separators=(",", ":")))))
    for p in t.players:
        lines.append("\t".join(("P", p, str(t.late.get(p, 1)), _cell(t.withdrawn.get(p)))))
    for r, table, g in _result_rows(t):
        kind, where = ("F", []) if r == "final" else ("R", [str(r)])
        lines.append("\t".join((kind, *where, str(table), _cell(g.first), _cell(g.second),
                                *((str(s) for s in g.score) if g.done else ("", "")))))
    for row in current(t):
        lines.append("\t".join(("S", *(str(getattr(row, c)) for c in STANDINGS_COLUMNS))))
    return "\n".join(lines) + "\n"


def read_text(text: str) -> dict:
    """The tournament document (the contract's file format) and the standings of a ranking file:
    `{"tournament": {...}, "date": ..., "rounds_total": N, "standings": [...]}`."""
    lines = text.splitlines()
    if not lines or lines[0] != HEADER:
        raise BadInput("line 1", "not a carrom-referee ranking file (version 1)")
    doc: dict[str, Any] = {"name": "", "players": [], "rounds": []}
    out: dict[str, Any] = {"tournament": doc, "date": "", "rounds_total": None, "standings": []}
    for n, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        f = line.split("\t")
        kind, want = f[0], {"T": 5, "C": 3, "P": 4, "R": 7, "F": 6, "S": 7}.get(f[0])
        if want is None or len(f) != want:
            raise BadInput(f"line {n}", f"expected a T, C, P, R, F or S record with its fields, got {line!r}")
        try:
            if kind == "T":
                doc["name"], out["date"], out["rounds_total"] = f[1], f[2], int(f[3])
                if f[4]:
                    doc["seed"] = int(f[4])
            elif kind == "C":
                doc[f[1]] = json.loads(f[2])
            elif kind == "P":
                doc["players"].append(f[1])
                if int(f[2]) > 1:
                    doc.setdefault("late", {})[f[1]] = int(f[2])
                if f[3]:
                    doc.setdefault("withdrawn", {})[f[1]] = int(f[3])
            elif kind in ("R", "F"):
                fields = f[1:] if kind == "R" else ["final", *f[1:]]
                game: dict[str, Any] = {"first": fields[2] or GHOST, "second": fields[3] or GHOST, "table": int(fields[1])}
                if fields[4] != "":
                    game["score"] = [int(fields[4]), int(fields[5])]
                if kind == "F":
                    doc["final"] = game
                else:
                    r = int(fields[0])
                    while len(doc["rounds"]) < r:
                        doc["rounds"].append([])
                    doc["rounds"][r - 1].append(game)
            else:
                out["standings"].append({"rank": int(f[1]), "player": f[2], "victories": int(f[3]),
                                         "bucholz": int(f[4]), "difference": int(f[5]), "played": int(f[6])})
        except ValueError:
            raise BadInput(f"line {n}", f"a number was expected in {line!r}") from None
    return out


def read_csv(text: str) -> list[dict]:
    """The rows of one of the CSV exports, numbers as numbers."""
    rows = list(csv.DictReader(io.StringIO(text)))
    return [{k: (int(v) if v.lstrip("-").isdigit() else v) for k, v in row.items()} for row in rows]
