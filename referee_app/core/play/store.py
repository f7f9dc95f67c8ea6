"""Matches in the records database, saved stroke by stroke as the referee enters them.

Each stroke is one committed insert (WAL, synchronous=FULL): once `add_stroke` returns, a crash
cannot lose it. An undo or a correction never deletes: it marks rows superseded, so the sheet's
whole history stays readable.
"""
from __future__ import annotations

import json

from referee_app.core.storage import db
from referee_app.core.errors import BadInput
from .match import Match, replayed

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    doubles INTEGER NOT NULL DEFAULT 0,
    first_name TEXT NOT NULL DEFAULT '',
    second_name TEXT NOT NULL DEFAULT '',
    tournament TEXT NOT NULL DEFAULT '',
    round TEXT NOT NULL DEFAULT '',
    table_no TEXT NOT NULL DEFAULT '',
    referee TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS strokes (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    stroke TEXT NOT NULL,
    ruling TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    superseded_at TEXT
);
CREATE INDEX IF NOT EXISTS strokes_by_match ON strokes(match_id, seq);
"""
META = ("ruleset", "doubles", "first_name", "second_name", "tournament", "round", "table_no", "referee")


def now() -> str:
    return db.local_now().isoformat()


class MatchStore(db.Store):
    """The matches of one records database, stroke by stroke."""

    SCHEMA = SCHEMA

    def create(self, ruleset: str = "icf", doubles: bool = False, **meta) -> int:
        unknown = set(meta) - set(META)
        if unknown:
            raise BadInput(sorted(unknown)[0], "unknown match field")
        Match(ruleset, doubles)  # refuses an unknown ruleset before anything is written
        cols = ["created_at", "ruleset", "doubles", *meta]
        cur = self.conn.execute(f"INSERT INTO matches ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                [now(), ruleset, int(doubles), *[str(v) for v in meta.values()]])
        return cur.lastrowid

    def meta(self, match_id: int) -> dict:
        return dict(self.row("matches", match_id, "match", field="match"))

    def _active(self, match_id: int) -> list:
        return self.conn.execute("SELECT * FROM strokes WHERE match_id = ? AND superseded_at IS NULL ORDER BY seq",
                                 (match_id,)).fetchall()

    def load(self, match_id: int) -> Match:
        meta = self.meta(match_id)
        return replayed(meta["ruleset"], bool(meta["doubles"]), [json.loads(r["stroke"]) for r in self._active(match_id)])

    def add_stroke(self, match_id: int, stroke: dict) -> dict:
        """Rules the stroke on the match as saved, and saves both; returns the ruling."""
        match = self.load(match_id)
        ruling = match.play(stroke)
        self.conn.execute("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) VALUES (?, ?, ?, ?, ?)",
                          (match_id, len(match.strokes), json.dumps(stroke), json.dumps(ruling), now()))
        return ruling

    def undo(self, match_id: int) -> dict:
        rows = self._active(match_id)
        if not rows:
            raise BadInput("undo", "no stroke to undo")
        self.conn.execute("UPDATE strokes SET superseded_at = ? WHERE id = ?", (now(), rows[-1]["id"]))
        return json.loads(rows[-1]["stroke"])

    def correct(self, match_id: int, seq: int, stroke: dict) -> list[dict]:
        """Replaces stroke `seq` (1-based) and re-rules the later ones, all or nothing; returns the
        rulings that changed (preview them first with `preview_correction`)."""
        match = self.load(match_id)
        new, changes = match.correction(seq - 1, stroke)
        rows = self._active(match_id)
        stamp = now()
        with db.transaction(self.conn):
            for row in rows[seq - 1:]:
                self.conn.execute("UPDATE strokes SET superseded_at = ? WHERE id = ?", (stamp, row["id"]))
            for i in range(seq - 1, len(new.strokes)):
                self.conn.execute(
                    "INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) VALUES (?, ?, ?, ?, ?)",
                    (match_id, i + 1, json.dumps(new.strokes[i]), json.dumps(new.rulings[i]), stamp))
        return changes

    def preview_correction(self, match_id: int, seq: int, stroke: dict) -> list[dict]:
        return self.load(match_id).correction(seq - 1, stroke)[1]

    def list(self) -> list[dict]:
        out = []
        for row in self.conn.execute("SELECT * FROM matches ORDER BY id"):
            n = self.conn.execute("SELECT COUNT(*) FROM strokes WHERE match_id = ? AND superseded_at IS NULL",
                                  (row["id"],)).fetchone()[0]
            out.append({**dict(row), "strokes": n})
        return out

    def export(self, match_id: int) -> dict:
        match = self.load(match_id)
        history = [dict(r) | {"stroke": json.loads(r["stroke"]), "ruling": json.loads(r["ruling"])}
                   for r in self.conn.execute("SELECT * FROM strokes WHERE match_id = ? ORDER BY id", (match_id,))]
        return {"match": self.meta(match_id), "report": match.report(), "history": history}
