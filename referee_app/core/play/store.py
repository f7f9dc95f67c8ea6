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
        with self.transaction():
            meta = self.meta(match_id, lock=True)
            self._refuse_closed(meta["id"])
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

    def events(self, match_id: int, kind: str | None = None) -> list[dict]:
        """The match's history beside its strokes (ruleset changes, corrections), oldest first;
        the clock's states are its own (`clock`) and left out unless asked for by `kind`."""
        where, params = ("kind = :k", {"m": match_id, "k": kind}) if kind else ("kind <> 'clock'", {"m": match_id})
        return [dict(r) | {"detail": db.stored_json(r["detail"], None, shown=True)[0]} for r in self.all(
            f"SELECT at, kind, detail FROM match_events WHERE match_id = :m AND {where} ORDER BY id", params)]

    def save_clock(self, match_id: int, spent_ms: int, running: bool) -> None:
        """The match clock as it stands, saved with the sheet: one committed row, so a crash
        leaves the clock where it was last saved (it is saved at every start, pause and reset,
        and every few seconds while it runs)."""
        spent_ms = int(spent_ms)
        if not 0 <= spent_ms <= 10 ** 9:
            raise BadInput("clock", "the time spent is out of range")
        with self.transaction():
            match_id = self.meta(match_id, lock=True)["id"]
            self.write("INSERT INTO match_events (match_id, at, kind, detail) VALUES (:m, :at, 'clock', :d)",
                       {"m": match_id, "at": now(), "d": json.dumps({"spent_ms": spent_ms, "running": bool(running)})})

    def match_clock(self, match_id: int) -> dict | None:
        """The match clock as last saved ({"spent_ms", "running"}), or None if never saved."""
        row = self.first("SELECT detail FROM match_events WHERE match_id = :m AND kind = 'clock' "
                         "ORDER BY id DESC LIMIT 1", {"m": self.meta(match_id)["id"]})
        detail = db.stored_json(row["detail"], None)[0] if row else None
        return detail if isinstance(detail, dict) and isinstance(detail.get("spent_ms"), int) else None

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
                                                    "the sheet cannot be replayed past it", "stored_unreadable",
                               {"at": row["seq"], "detail": problem})
            strokes.append(stroke)
        return strokes

    def load(self, match_id: int) -> Match:
        meta = self.meta(match_id)
        ruleset = self.knowledge.ruleset(meta["ruleset"], f"match {meta['id']}: ruleset").id
        return replayed(self.knowledge, ruleset, bool(meta["doubles"]), self.strokes(meta["id"]))

    def _last(self, match_id: int):
        """The last stroke in force (its number and the match's state after it), or None: one row
        through the index by match and number, however long the sheet."""
        return self.first("SELECT id, seq, state FROM strokes WHERE match_id = :m AND superseded_at IS NULL "
                          "ORDER BY seq DESC LIMIT 1", {"m": match_id})

    def standing(self, meta: dict) -> tuple[Match, int]:
        """The match as it stands, ready for its next stroke, and that stroke's number: restored
        from the state stored with the last stroke (constant cost), or replayed from the sheet
        when that state is missing, unreadable or of another ruleset (a correction, a change of
        ruleset, a stroke entered by an older version)."""
        last = self._last(meta["id"])
        if last is None:
            return self.load(meta["id"]), 1
        state, _problem = db.stored_json(last["state"], None)
        match = Match.restored(self.knowledge, state)
        if match is None or match.ruleset != meta["ruleset"] or match.doubles != bool(meta["doubles"]) \
                or state.get("strokes") != last["seq"]:
            match = self.load(meta["id"])
        return match, last["seq"] + 1

    def pairing(self, match_id: int) -> dict | None:
        """The paired game this sheet is kept for ({tournament, round, table}; round "final"), or None."""
        game = self.first("SELECT tournament_id, round, final, table_no FROM tournament_games WHERE match_id = :m "
                          "AND superseded_at IS NULL ORDER BY id DESC LIMIT 1", {"m": int(match_id)})
        if game is None:
            return None
        return {"tournament": game["tournament_id"], "round": "final" if game["final"] else game["round"],
                "table": game["table_no"]}

    def closed(self, match_id: int) -> str | None:
        """Why the sheet takes no more strokes from the tables (its game's result is entered), or None."""
        game = self.first("SELECT g.round, g.final, g.table_no, t.name FROM tournament_games g "
                          "JOIN tournaments t ON t.id = g.tournament_id WHERE g.match_id = :m "
                          "AND g.superseded_at IS NULL AND g.score_first IS NOT NULL LIMIT 1", {"m": match_id})
        if game is None:
            return None
        where = "the final" if game["final"] else f"round {game['round']}"
        return f"the result of {where}, table {game['table_no']} of {game['name']} is entered"

    def _refuse_closed(self, match_id: int) -> None:
        """A table's login may not change a sheet whose result is entered (the contract: the sheet
        is closed to the tables); the desk may, as it may change everything. Refused here, before
        any write, in the words of every table refusal; the database's row check says the same to
        a statement run by hand."""
        if self.database.role() == "table" and self.closed(match_id):
            raise NotAllowed("finished_match")

    def add_stroke(self, match_id: int, stroke: dict, client_id: str | None = None) -> dict:
        """Rules the stroke on the match as saved, and saves both, in one write transaction; returns
        the ruling. `client_id`: the id the machine that entered it gave it (a UUID); a stroke
        already stored under that id is not stored again, and its stored ruling is answered."""
        client_id = stroke_id(client_id) if client_id is not None else None
        with self.transaction():
            meta = self.meta(match_id, lock=True)
            if client_id is not None:
                known = self.first("SELECT match_id, ruling FROM strokes WHERE client_id = :c", {"c": client_id})
                if known is not None:
                    if known["match_id"] != meta["id"]:
                        raise BadInput("client_id", f"{client_id} is a stroke of match {known['match_id']}")
                    return db.stored_json(known["ruling"], {}, shown=True)[0]
            self._refuse_closed(meta["id"])
            match, seq = self.standing(meta)
            ruling = match.play(stroke, f"stroke {seq}")
            self.write("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at, client_id, state) "
                       "VALUES (:m, :seq, :stroke, :ruling, :at, :client, :state)",
                       {"m": meta["id"], "seq": seq, "stroke": json.dumps(stroke), "ruling": json.dumps(ruling),
                        "at": now(), "client": client_id, "state": json.dumps(_state_after(match, seq))})
        return ruling

    def add_strokes(self, match_id: int, strokes: list, where: str = "",
                    client_ids: list[str] | None = None) -> list[dict]:
        """Rules and saves a list of strokes all or nothing: one refused stroke (BadInput naming
        it: "stroke 3 of FILE") saves none of them, so the list may be mended and sent again.
        `client_ids`: one per stroke (see `add_stroke`)."""
        ids: list[str | None] = list(client_ids) if client_ids else [None] * len(strokes)
        with self.transaction():
            rulings = []
            for i, (stroke, client_id) in enumerate(zip(strokes, ids), 1):
                try:
                    rulings.append(self.add_stroke(match_id, stroke, client_id))
                except (db.StoreError, NotAllowed):
                    raise   # the records or the login's role refuse the whole list, not this stroke
                except BadInput as exc:
                    label = f"stroke {i}" + (f" of {where}" if where else "")
                    raise BadInput(f"{label}: {exc.field}",
                                   f"{exc.problem}; none of the {len(strokes)} strokes was saved") from None
        return rulings

    def undo(self, match_id: int) -> dict:
        with self.transaction():
            match_id = self.meta(match_id, lock=True)["id"]
            self._refuse_closed(match_id)
            rows = self._active(match_id)
            if not rows:
                raise BadInput("undo", "no stroke to undo")
            self.write("UPDATE strokes SET superseded_at = :at WHERE id = :id", {"at": now(), "id": rows[-1]["id"]})
        return db.stored_json(rows[-1]["stroke"], None, shown=True)[0]

    def correct(self, match_id: int, seq: int, stroke: dict) -> list[dict]:
        """Replaces stroke `seq` (1-based) and re-rules the later ones, all or nothing; returns the
        rulings that changed (the window previews them with `MatchSession.correction_changes`)."""
        with self.transaction():
            match_id = self.meta(match_id, lock=True)["id"]
            self._refuse_closed(match_id)
            match = self.load(match_id)
            new, changes = match.correction(seq - 1, stroke)
            rows = self._active(match_id)
            stamp = now()
            for row in rows[seq - 1:]:
                self.write("UPDATE strokes SET superseded_at = :at WHERE id = :id", {"at": stamp, "id": row["id"]})
            rows_written = []
            for i in range(seq - 1, len(new.strokes)):
                # the state after the last one only: the next stroke reads that row alone
                state = json.dumps(_state_after(new, i + 1)) if i + 1 == len(new.strokes) else None
                rows_written.append(self.write(
                    "INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at, state) "
                    "VALUES (:m, :seq, :stroke, :ruling, :at, :state) RETURNING id",
                    {"m": match_id, "seq": i + 1, "stroke": json.dumps(new.strokes[i]),
                     "ruling": json.dumps(new.rulings[i]), "at": stamp, "state": state}))
            # which stroke the referee corrected (the later ones were only ruled again), for the
            # sheet and its PDF to mark it; `row` ties it to the row written now, so a stroke
            # undone and entered again later is not marked
            self.write("INSERT INTO match_events (match_id, at, kind, detail) VALUES (:m, :at, 'correction', :d)",
                       {"m": match_id, "at": stamp, "d": json.dumps({"stroke": seq, "row": rows_written[0]})})
        return changes

    def corrected(self, match_id: int) -> list[int]:
        """The strokes in force (1-based) that a correction replaced after they were recorded."""
        match_id = self.meta(match_id)["id"]
        marks = [ev["detail"] for ev in self.events(match_id, "correction") if isinstance(ev["detail"], dict)]
        if not marks:   # the usual sheet: one small query, not a read of every stroke
            return []
        in_force = {row["id"] for row in self.all(
            "SELECT id FROM strokes WHERE match_id = :m AND superseded_at IS NULL", {"m": match_id})}
        return sorted({mark["stroke"] for mark in marks if mark.get("row") in in_force})

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
                "events": self.events(match_id), "clock": self.match_clock(match_id)}


def _state_after(match: Match, seq: int) -> dict:
    """The match's snapshot after stroke `seq`, numbered as the sheet numbers it (a match restored
    from a snapshot holds only the strokes played since)."""
    return {**match.snapshot(), "strokes": seq}


def stroke_id(value) -> str:
    """A client-made stroke id as stored: a UUID in its canonical form (so that the same id written
    twice, in capitals or without hyphens, is one id)."""
    import uuid

    try:
        return str(uuid.UUID(str(value)))
    except (ValueError, TypeError, AttributeError):
        raise BadInput("client_id", f"{validation.shown(value)} is not a UUID") from None
