"""Matches in the records database, saved stroke by stroke as the referee enters them.

Each stroke is one committed insert: once `add_stroke` returns, a crash cannot lose it. A stroke
row is never rewritten (the database refuses it): an undo or a correction marks rows superseded,
so the sheet's whole history stays readable. The header, singles or doubles and the ruleset carry
the match's `version`: an edit made from an older version is refused (VersionConflict).
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from referee_app.core import validation
from referee_app.core.storage import db
from referee_app.core.storage.refusals import NotAllowed
from referee_app.core.errors import BadInput
from .match import Match, replayed

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

META = ("ruleset", "doubles", "first_name", "second_name", "tournament", "round", "table_no", "referee")
# The header of the sheet: what the referee may write or mend at any time, saved at once.
HEADER = ("first_name", "second_name", "tournament", "round", "table_no", "referee")


def _header_value(field: str, value) -> str:
    """A header field as stored: text, on one limit of names (a 30,000-character name is a slip)."""
    return validation.name_length(validation.text(str(value), field), field)


def now() -> str:
    return db.local_now().isoformat()


class MatchStore(db.Store):
    """The matches of one records database, stroke by stroke.

    A stroke is ruled on the board as stored and appended in one write transaction holding the
    match's row (SQLite: the write lock; PostgreSQL: the row locked), so writers on one match (two
    windows, two machines, scripts) are serialised: each rules on the board the previous one left.
    The match last played is kept in memory with the mark of its strokes as stored (how many rows,
    the last one, how many superseded, the match's version); while that mark is unchanged, the next
    stroke is ruled on it without replaying the sheet, so a stroke costs the same on the 300th as on
    the first, on either engine.
    """

    def __init__(self, knowledge: Knowledge, *args, **kwargs):
        """`knowledge`: what the strokes are ruled with; the rest as db.Store takes it."""
        super().__init__(*args, **kwargs)
        self.knowledge = knowledge
        self._cached: tuple[tuple, Match] | None = None   # (mark of the stored sheet, match)

    def create(self, ruleset: str | None = None, doubles: bool = False, **meta) -> int:
        unknown = set(meta) - set(META)
        if unknown:
            raise BadInput(sorted(unknown)[0], "unknown match field")
        # refused before anything is written; none named: the knowledge base's default
        ruleset = self.knowledge.ruleset(ruleset or self.knowledge.default_ruleset, "ruleset").id
        values = {"created_at": now(), "ruleset": ruleset, "doubles": int(doubles),
                  **{k: _header_value(k, v) for k, v in meta.items()}}
        return self.write(f"INSERT INTO matches ({', '.join(values)}) VALUES ({', '.join(':' + k for k in values)}) "
                          "RETURNING id", values)

    def _check_version(self, meta: dict, expected_version: int | None, mine: dict) -> None:
        if expected_version is not None and int(expected_version) != meta["version"]:
            raise db.VersionConflict(f"match {meta['id']}", {**mine, "version": int(expected_version)},
                                     {**{k: meta[k] for k in ("ruleset", "doubles", *HEADER)},
                                      "version": meta["version"]})

    def update_header(self, match_id: int, expected_version: int | None = None, **fields) -> int:
        """Saves header fields (names, tournament, round, table, referee) as soon as they are typed;
        returns the match's new version. Given the version the fields were read at, a match changed
        elsewhere since is refused (VersionConflict) rather than overwritten."""
        unknown = set(fields) - set(HEADER)
        if unknown:
            raise BadInput(sorted(unknown)[0], f"not a header field (known: {', '.join(HEADER)})")
        values = {k: _header_value(k, v).strip() for k, v in fields.items()}
        with self.transaction():
            meta = self.meta(match_id, lock=True)  # refuses a match that does not exist
            self._check_version(meta, expected_version, values)
            if not values:
                return meta["version"]
            sets = ", ".join(f"{k} = :{k}" for k in values)
            self.write(f"UPDATE matches SET {sets}, version = version + 1 WHERE id = :id",
                       {**values, "id": meta["id"]})
            return meta["version"] + 1

    def set_doubles(self, match_id: int, doubles: bool, expected_version: int | None = None) -> None:
        """Singles or doubles, while no stroke is recorded (the seats decide every turn after)."""
        self._cached = None
        with self.transaction():
            meta = self.meta(match_id, lock=True)
            self._check_version(meta, expected_version, {"doubles": int(bool(doubles))})
            if self._active(meta["id"]):
                raise BadInput("doubles", "the match has begun: singles or doubles cannot change")
            self.write("UPDATE matches SET doubles = :d, version = version + 1 WHERE id = :id",
                       {"d": int(bool(doubles)), "id": meta["id"]})

    def change_ruleset(self, match_id: int, ruleset: str) -> Match:
        """Plays the whole match again under `ruleset` and keeps the change in the match's history.

        Refused (BadInput naming the stroke) when a recorded stroke cannot happen under it."""
        self._cached = None
        with self.transaction():
            meta = self.meta(match_id, lock=True)
            if ruleset == meta["ruleset"]:
                return self.load(match_id)
            strokes = self.strokes(match_id)
            match = replayed(self.knowledge, ruleset, bool(meta["doubles"]), strokes)
            self.write("UPDATE matches SET ruleset = :r, version = version + 1 WHERE id = :id",
                       {"r": ruleset, "id": meta["id"]})
            self.write("INSERT INTO match_events (match_id, at, kind, detail) VALUES (:m, :at, 'ruleset', :d)",
                       {"m": meta["id"], "at": now(), "d": json.dumps({"from": meta["ruleset"], "to": ruleset,
                                                                      "after_stroke": len(strokes)})})
        return match

    def events(self, match_id: int) -> list[dict]:
        return [dict(r) | {"detail": db.stored_json(r["detail"], None, shown=True)[0]} for r in self.all(
            "SELECT at, kind, detail FROM match_events WHERE match_id = :m ORDER BY id", {"m": match_id})]

    def unfinished(self) -> dict | None:
        """The last match begun and not over, to offer to resume it when the window opens."""
        for m in reversed(self.list()[-20:]):
            try:
                if m["strokes"] and not self.load(m["id"]).over:
                    return m
            except BadInput:  # a match stored unreadably is not offered; the others still are
                continue
        return None

    def meta(self, match_id: int, lock: bool = False) -> dict:
        return dict(self.row("matches", match_id, "match", field="match", lock=lock))

    def _active(self, match_id: int) -> list:
        return self.all("SELECT * FROM strokes WHERE match_id = :m AND superseded_at IS NULL ORDER BY seq",
                        {"m": match_id})

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
        ruleset = self.knowledge.ruleset(meta["ruleset"], f"match {meta['id']}: ruleset").id
        return replayed(self.knowledge, ruleset, bool(meta["doubles"]), self.strokes(meta["id"]))

    def _mark(self, meta: dict) -> tuple:
        """What changes whenever the match's sheet as stored changes, whoever wrote it."""
        found = self.first("SELECT COUNT(*) AS n, MAX(id) AS last, COUNT(superseded_at) AS superseded "
                           "FROM strokes WHERE match_id = :m", {"m": meta["id"]})
        return meta["id"], meta["version"], found["n"], found["last"], found["superseded"]

    def add_stroke(self, match_id: int, stroke: dict) -> dict:
        """Rules the stroke on the match as saved, and saves both, in one write transaction; returns
        the ruling."""
        cached, self._cached = self._cached, None   # until committed, memory is not the database
        with self.transaction():
            meta = self.meta(match_id, lock=True)
            mark = self._mark(meta)
            match = cached[1] if cached and cached[0] == mark else self.load(meta["id"])
            ruling = match.play(stroke)
            new_id = self.write("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) "
                                "VALUES (:m, :seq, :stroke, :ruling, :at) RETURNING id",
                                {"m": meta["id"], "seq": len(match.strokes), "stroke": json.dumps(stroke),
                                 "ruling": json.dumps(ruling), "at": now()})
        self._cached = ((meta["id"], meta["version"], mark[2] + 1, new_id, mark[4]), match)
        return ruling

    def add_strokes(self, match_id: int, strokes: list, where: str = "") -> list[dict]:
        """Rules and saves a list of strokes all or nothing: one refused stroke (BadInput naming
        it: "stroke 3 of FILE") saves none of them, so the list may be mended and sent again."""
        try:
            with self.transaction():
                rulings = []
                for i, stroke in enumerate(strokes, 1):
                    try:
                        rulings.append(self.add_stroke(match_id, stroke))
                    except (db.StoreError, NotAllowed):
                        raise   # the records or the login's role refuse the whole list, not this stroke
                    except BadInput as exc:
                        label = f"stroke {i}" + (f" of {where}" if where else "")
                        raise BadInput(f"{label}: {exc.field}",
                                       f"{exc.problem}; none of the {len(strokes)} strokes was saved") from None
        except BaseException:
            self._cached = None   # the strokes played in memory were never committed
            raise
        return rulings

    def undo(self, match_id: int) -> dict:
        self._cached = None
        with self.transaction():
            match_id = self.meta(match_id, lock=True)["id"]
            rows = self._active(match_id)
            if not rows:
                raise BadInput("undo", "no stroke to undo")
            self.write("UPDATE strokes SET superseded_at = :at WHERE id = :id", {"at": now(), "id": rows[-1]["id"]})
        return db.stored_json(rows[-1]["stroke"], None, shown=True)[0]

    def correct(self, match_id: int, seq: int, stroke: dict) -> list[dict]:
        """Replaces stroke `seq` (1-based) and re-rules the later ones, all or nothing; returns the
        rulings that changed (the window previews them with `MatchSession.correction_changes`)."""
        self._cached = None
        with self.transaction():
            match_id = self.meta(match_id, lock=True)["id"]
            match = self.load(match_id)
            new, changes = match.correction(seq - 1, stroke)
            rows = self._active(match_id)
            stamp = now()
            for row in rows[seq - 1:]:
                self.write("UPDATE strokes SET superseded_at = :at WHERE id = :id", {"at": stamp, "id": row["id"]})
            for i in range(seq - 1, len(new.strokes)):
                self.write("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) "
                           "VALUES (:m, :seq, :stroke, :ruling, :at)",
                           {"m": match_id, "seq": i + 1, "stroke": json.dumps(new.strokes[i]),
                            "ruling": json.dumps(new.rulings[i]), "at": stamp})
        return changes

    def list(self) -> list[dict]:
        rows = self.all("SELECT m.*, (SELECT COUNT(*) FROM strokes s WHERE s.match_id = m.id "
                        "AND s.superseded_at IS NULL) AS strokes FROM matches m ORDER BY m.id")
        return [dict(r) for r in rows]

    def export(self, match_id: int) -> dict:
        match = self.load(match_id)
        match_id = self.meta(match_id)["id"]
        history = [dict(r) | {"stroke": db.stored_json(r["stroke"], None, shown=True)[0],
                              "ruling": db.stored_json(r["ruling"], None, shown=True)[0]}
                   for r in self.all("SELECT * FROM strokes WHERE match_id = :m ORDER BY id", {"m": match_id})]
        return {"match": self.meta(match_id), "report": match.report(), "history": history,
                "events": self.events(match_id)}
