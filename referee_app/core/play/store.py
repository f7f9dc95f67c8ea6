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
CREATE TABLE IF NOT EXISTS match_events (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
"""
META = ("ruleset", "doubles", "first_name", "second_name", "tournament", "round", "table_no", "referee")
# The header of the sheet: what the referee may write or mend at any time, saved at once.
HEADER = ("first_name", "second_name", "tournament", "round", "table_no", "referee")


def now() -> str:
    return db.local_now().isoformat()


class MatchStore(db.Store):
    """The matches of one records database, stroke by stroke.

    A stroke is ruled on the board as stored and appended in one write transaction, so writers on
    one match (two windows, scripts) are serialised: each rules on the board the previous one left.
    The match last played is kept in memory with the database's data version; while no other
    connection has written, the next stroke is ruled on it without replaying the sheet, so a
    stroke costs the same on the 300th as on the first.
    """

    SCHEMA = SCHEMA

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._cached: tuple[int, int, Match] | None = None   # (match id, data_version, match)

    def create(self, ruleset: str = "icf", doubles: bool = False, **meta) -> int:
        unknown = set(meta) - set(META)
        if unknown:
            raise BadInput(sorted(unknown)[0], "unknown match field")
        from referee_app.core.knowledge.rulesets import get_ruleset

        ruleset = get_ruleset(ruleset, "ruleset").id  # refused before anything is written
        cols = ["created_at", "ruleset", "doubles", *meta]
        cur = self.conn.execute(f"INSERT INTO matches ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                [now(), ruleset, int(doubles), *[str(v) for v in meta.values()]])
        return cur.lastrowid

    def update_header(self, match_id: int, **fields) -> None:
        """Saves header fields (names, tournament, round, table, referee) as soon as they are typed."""
        unknown = set(fields) - set(HEADER)
        if unknown:
            raise BadInput(sorted(unknown)[0], f"not a header field (known: {', '.join(HEADER)})")
        self.meta(match_id)  # refuses a match that does not exist
        if fields:
            sets = ", ".join(f"{k} = ?" for k in fields)
            self.conn.execute(f"UPDATE matches SET {sets} WHERE id = ?",
                              [str(v).strip() for v in fields.values()] + [match_id])

    def set_doubles(self, match_id: int, doubles: bool) -> None:
        """Singles or doubles, while no stroke is recorded (the seats decide every turn after)."""
        self._cached = None
        if self._active(match_id):
            raise BadInput("doubles", "the match has begun: singles or doubles cannot change")
        self.conn.execute("UPDATE matches SET doubles = ? WHERE id = ?", (int(bool(doubles)), match_id))

    def change_ruleset(self, match_id: int, ruleset: str) -> Match:
        """Plays the whole match again under `ruleset` and keeps the change in the match's history.

        Refused (BadInput naming the stroke) when a recorded stroke cannot happen under it."""
        self._cached = None
        meta = self.meta(match_id)
        if ruleset == meta["ruleset"]:
            return self.load(match_id)
        strokes = self.strokes(match_id)
        match = replayed(ruleset, bool(meta["doubles"]), strokes)
        with db.transaction(self.conn):
            self.conn.execute("UPDATE matches SET ruleset = ? WHERE id = ?", (ruleset, match_id))
            self.conn.execute("INSERT INTO match_events (match_id, at, kind, detail) VALUES (?, ?, 'ruleset', ?)",
                              (match_id, now(), json.dumps({"from": meta["ruleset"], "to": ruleset,
                                                            "after_stroke": len(strokes)})))
        return match

    def events(self, match_id: int) -> list[dict]:
        return [dict(r) | {"detail": db.stored_json(r["detail"], None, shown=True)[0]} for r in self.conn.execute(
            "SELECT at, kind, detail FROM match_events WHERE match_id = ? ORDER BY id", (match_id,))]

    def unfinished(self) -> dict | None:
        """The last match begun and not over, to offer to resume it when the window opens."""
        for m in reversed(self.list()[-20:]):
            try:
                if m["strokes"] and not self.load(m["id"]).over:
                    return m
            except BadInput:  # a match stored unreadably is not offered; the others still are
                continue
        return None

    def meta(self, match_id: int) -> dict:
        return dict(self.row("matches", match_id, "match", field="match"))

    def _active(self, match_id: int) -> list:
        return self.conn.execute("SELECT * FROM strokes WHERE match_id = ? AND superseded_at IS NULL ORDER BY seq",
                                 (match_id,)).fetchall()

    def strokes(self, match_id: int) -> list[dict]:
        """The strokes in force, as entered, in order; one stored unreadably is refused by name."""
        match_id = self.meta(match_id)["id"]
        strokes = []
        for row in self._active(match_id):
            stroke, problem = db.stored_json(row["stroke"], None)
            if problem:
                raise BadInput(f"match {match_id}", f"stroke {row['seq']} as stored cannot be read ({problem}); "
                                                    "the sheet cannot be replayed past it")
            strokes.append(stroke)
        return strokes

    def load(self, match_id: int) -> Match:
        meta = self.meta(match_id)
        from referee_app.core.knowledge.rulesets import get_ruleset

        ruleset = get_ruleset(meta["ruleset"], f"match {meta['id']}: ruleset").id
        return replayed(ruleset, bool(meta["doubles"]), self.strokes(meta["id"]))

    def _data_version(self) -> int:
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def _current(self, match_id: int) -> tuple[int, Match]:
        """The match as stored, inside a write transaction: the one in memory while nobody else wrote."""
        key = self.meta(match_id)["id"]
        version = self._data_version()
        if self._cached and self._cached[0] == key and self._cached[1] == version:
            return key, self._cached[2]
        self._cached = None
        return key, self.load(key)

    def add_stroke(self, match_id: int, stroke: dict) -> dict:
        """Rules the stroke on the match as saved, and saves both, in one write transaction; returns
        the ruling."""
        try:
            with db.transaction(self.conn):
                key, match = self._current(match_id)
                self._cached = None   # played on below: until committed, memory is not the database
                ruling = match.play(stroke)
                self.conn.execute("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) "
                                  "VALUES (?, ?, ?, ?, ?)",
                                  (key, len(match.strokes), json.dumps(stroke), json.dumps(ruling), now()))
                version = self._data_version()
        except BaseException:
            self._cached = None
            raise
        self._cached = (key, version, match)
        return ruling

    def undo(self, match_id: int) -> dict:
        self._cached = None
        with db.transaction(self.conn):
            match_id = self.meta(match_id)["id"]
            rows = self._active(match_id)
            if not rows:
                raise BadInput("undo", "no stroke to undo")
            self.conn.execute("UPDATE strokes SET superseded_at = ? WHERE id = ?", (now(), rows[-1]["id"]))
        return db.stored_json(rows[-1]["stroke"], None, shown=True)[0]

    def correct(self, match_id: int, seq: int, stroke: dict) -> list[dict]:
        """Replaces stroke `seq` (1-based) and re-rules the later ones, all or nothing; returns the
        rulings that changed (preview them first with `preview_correction`)."""
        self._cached = None
        with db.transaction(self.conn):
            match = self.load(match_id)
            match_id = self.meta(match_id)["id"]
            new, changes = match.correction(seq - 1, stroke)
            rows = self._active(match_id)
            stamp = now()
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
        match_id = self.meta(match_id)["id"]
        history = [dict(r) | {"stroke": db.stored_json(r["stroke"], None, shown=True)[0],
                              "ruling": db.stored_json(r["ruling"], None, shown=True)[0]}
                   for r in self.conn.execute("SELECT * FROM strokes WHERE match_id = ? ORDER BY id", (match_id,))]
        return {"match": self.meta(match_id), "report": match.report(), "history": history,
                "events": self.events(match_id)}
