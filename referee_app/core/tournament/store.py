"""Tournaments in the records database: entries, pairings, results and corrections.

All the SQL of the tournament desk is here (plain statements, so that moving the stores to
another database touches one module). Nothing is deleted: a result typed again, or corrected,
marks the row it replaces superseded, so the desk's whole history stays readable. A result
changed once the next round is paired is refused unless it comes as a correction with its
reason, kept in `tournament_corrections`.
"""
from __future__ import annotations

import json

from referee_app.core.errors import BadInput
from referee_app.core.storage import db
from .ffc import rules
from .model import GHOST, Game, Tournament
from .pairing import next_round
from .standings import current

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    ruleset TEXT NOT NULL DEFAULT 'icf',
    created_at TEXT NOT NULL,
    seed INTEGER
);
CREATE TABLE IF NOT EXISTS tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    checked_in INTEGER NOT NULL DEFAULT 0,
    first_round INTEGER,
    withdrawn_after INTEGER,
    PRIMARY KEY (tournament_id, name)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    final INTEGER NOT NULL DEFAULT 0,
    table_no INTEGER NOT NULL,
    first TEXT,
    second TEXT,
    score_first INTEGER,
    score_second INTEGER,
    match_id INTEGER,
    entered_at TEXT NOT NULL,
    superseded_at TEXT
);
CREATE INDEX IF NOT EXISTS tournament_games_by_round ON tournament_games(tournament_id, round, table_no);
CREATE TABLE IF NOT EXISTS tournament_corrections (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    before TEXT,
    after TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
"""

FINAL = "final"


def _round_key(round_no) -> str:
    return FINAL if round_no == FINAL else str(int(round_no))


def round_arg(round_no):
    """A round as the desk names it: a number from 1, or "final"."""
    if round_no == FINAL:
        return FINAL
    try:
        value = int(round_no)
    except (TypeError, ValueError):
        raise BadInput("round", f"'{round_no}' is not a round number (nor \"final\")") from None
    if value < 1:
        raise BadInput("round", "rounds are numbered from 1")
    return value


class TournamentStore(db.Store):
    SCHEMA = SCHEMA

    # --- tournaments and entries ----------------------------------------------------------
    def create(self, name: str, players=(), ruleset: str = "icf", checked_in: bool = True) -> int:
        if not isinstance(name, str) or not name.strip():
            raise BadInput("name", "a tournament needs a name")
        with db.transaction(self.conn):
            tid = self.conn.execute("INSERT INTO tournaments (name, ruleset, created_at) VALUES (?, ?, ?)",
                                    (name.strip(), ruleset, self.clock().isoformat())).lastrowid
            for p in players:
                self._enter(tid, p, checked_in)
        return tid

    def import_tournament(self, t: Tournament, ruleset: str = "icf") -> int:
        """A tournament file stored as it stands: entries checked in, rounds, results, final."""
        stamp = self.clock().isoformat()
        with db.transaction(self.conn):
            tid = self.conn.execute("INSERT INTO tournaments (name, ruleset, created_at, seed) VALUES (?, ?, ?, ?)",
                                    (t.name.strip() or "?", ruleset, stamp, t.seed)).lastrowid
            for seq, p in enumerate(t.players, 1):
                self.conn.execute("INSERT INTO tournament_entries (tournament_id, seq, name, checked_in, first_round, "
                                  "withdrawn_after) VALUES (?, ?, ?, 1, ?, ?)",
                                  (tid, seq, p, t.late.get(p, 1), t.withdrawn.get(p)))
            games = [(r, 0, g) for r, rnd in enumerate(t.rounds, 1) for g in rnd]
            if t.final is not None:
                games.append((len(t.rounds) + 1, 1, t.final))
            for r, final, g in games:
                tables = [x.table for x in (t.rounds[r - 1] if not final else [g])]
                table = g.table if g.table is not None and len(set(tables)) == len(tables) else \
                    (t.rounds[r - 1].index(g) + 1 if not final else 1)
                self.conn.execute(
                    "INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, score_first, "
                    "score_second, entered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (tid, r, final, table, g.first, g.second, *(g.score or (None, None)), stamp))
        return tid

    def list(self) -> list[dict]:
        out = []
        for row in self.conn.execute("SELECT * FROM tournaments ORDER BY id"):
            n = self.conn.execute("SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?",
                                  (row["id"],)).fetchone()[0]
            rounds = self.conn.execute("SELECT MAX(round) FROM tournament_games WHERE tournament_id = ? AND final = 0",
                                       (row["id"],)).fetchone()[0] or 0
            out.append({"id": row["id"], "name": row["name"], "ruleset": row["ruleset"], "created_at": row["created_at"],
                        "entries": n, "rounds_paired": rounds})
        return out

    def meta(self, tid) -> dict:
        return dict(self.row("tournaments", tid, "tournament", field="tournament"))

    def entries(self, tid) -> list[dict]:
        self.meta(tid)
        return [dict(r) for r in self.conn.execute(
            "SELECT name, checked_in, first_round, withdrawn_after FROM tournament_entries "
            "WHERE tournament_id = ? ORDER BY seq", (tid,))]

    def _enter(self, tid, name, checked_in: bool) -> None:
        if not isinstance(name, str) or not name.strip():
            raise BadInput("player", "expected a name")
        name = name.strip()
        if any(c in name for c in "\t\r\n"):
            raise BadInput("player", "a name cannot hold a tab or a line break")
        if self.conn.execute("SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND name = ?",
                             (tid, name)).fetchone():
            raise BadInput("player", f"'{name}' is already entered")
        seq = self.conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_entries WHERE tournament_id = ?",
                                (tid,)).fetchone()[0]
        self.conn.execute("INSERT INTO tournament_entries (tournament_id, seq, name, checked_in, first_round) "
                          "VALUES (?, ?, ?, ?, ?)",
                          (tid, seq, name, int(checked_in), self._rounds_paired(tid) + 1 if checked_in else None))

    def add_player(self, tid, name: str, checked_in: bool = False) -> None:
        """An entry; once round 1 is paired, a late entry (documented choice `late_entry`)."""
        self.meta(tid)
        self._refuse_after_final(tid, "player")
        self._enter(tid, name, checked_in)

    def check_in(self, tid, name: str, present: bool = True) -> None:
        """Marks an entry present (it is paired from the next round) or absent (before it plays)."""
        entry = self._entry(tid, name)
        paired = self._rounds_paired(tid)
        if not present and entry["first_round"] is not None and entry["first_round"] <= paired:
            raise BadInput("player", f"{name} has already been paired; withdraw him instead")
        self.conn.execute("UPDATE tournament_entries SET checked_in = ?, first_round = ? "
                          "WHERE tournament_id = ? AND name = ?",
                          (int(present), paired + 1 if present else None, tid, name))

    def withdraw(self, tid, name: str) -> None:
        """The player is not paired any more (documented choice `withdrawal`)."""
        entry = self._entry(tid, name)
        if entry["withdrawn_after"] is not None:
            raise BadInput("player", f"{name} has already withdrawn")
        if not entry["checked_in"]:
            raise BadInput("player", f"{name} is not checked in")
        self.conn.execute("UPDATE tournament_entries SET withdrawn_after = ? WHERE tournament_id = ? AND name = ?",
                          (self._rounds_paired(tid), tid, name))

    def _entry(self, tid, name: str) -> dict:
        self.meta(tid)
        row = self.conn.execute("SELECT * FROM tournament_entries WHERE tournament_id = ? AND name = ?",
                                (tid, name)).fetchone()
        if row is None:
            raise BadInput("player", f"no entry named '{name}'")
        return dict(row)

    # --- the tournament as data -----------------------------------------------------------
    def _games(self, tid) -> list:
        return self.conn.execute("SELECT * FROM tournament_games WHERE tournament_id = ? AND superseded_at IS NULL "
                                 "ORDER BY final, round, table_no", (tid,)).fetchall()

    def _rounds_paired(self, tid) -> int:
        return self.conn.execute("SELECT COALESCE(MAX(round), 0) FROM tournament_games WHERE tournament_id = ? "
                                 "AND final = 0", (tid,)).fetchone()[0]

    def load(self, tid) -> Tournament:
        meta = self.meta(tid)
        players, late, withdrawn = [], {}, {}
        for e in self.entries(tid):
            if e["first_round"] is None:
                continue                  # entered but not checked in: not a player (yet)
            players.append(e["name"])
            if e["first_round"] > 1:
                late[e["name"]] = e["first_round"]
            if e["withdrawn_after"] is not None:
                withdrawn[e["name"]] = e["withdrawn_after"]
        t = Tournament(name=meta["name"], players=players, seed=meta["seed"], late=late, withdrawn=withdrawn)
        for row in self._games(tid):
            score = None if row["score_first"] is None else (row["score_first"], row["score_second"])
            game = Game(row["first"], row["second"], score, row["table_no"])
            if row["final"]:
                t.final = game
                continue
            while len(t.rounds) < row["round"]:
                t.rounds.append([])
            t.rounds[row["round"] - 1].append(game)
        return t

    def document(self, tid) -> dict:
        """The tournament in the contract's file format."""
        return self.load(tid).to_doc()

    # --- pairing --------------------------------------------------------------------------
    def pair(self, tid, seed: int | None = None) -> dict:
        """Pairs the next round (or the final) and saves it, all or nothing; returns the pairing."""
        t = self.load(tid)
        if len(t.players) < 2:
            raise BadInput("players", "fewer than two players checked in")
        pairing = next_round(t, seed)
        stamp = self.clock().isoformat()
        final = pairing["round"] == FINAL
        round_no = len(t.rounds) + 1
        ghost = rules().ghost_score
        with db.transaction(self.conn):
            if "seed" in pairing:
                self.conn.execute("UPDATE tournaments SET seed = ? WHERE id = ?", (pairing["seed"], tid))
            for table in pairing["tables"]:
                score = (None, None)
                if table["second"] is GHOST:
                    score = tuple(ghost)            # the ghost's game is decided at once (ffc-tournament:1.15)
                self.conn.execute(
                    "INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, score_first, "
                    "score_second, entered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (tid, round_no, int(final), table["table"], table["first"], table["second"], *score, stamp))
        return pairing

    def round_games(self, tid, round_no) -> list[dict]:
        round_no = round_arg(round_no)
        final = round_no == FINAL
        rows = [r for r in self._games(tid) if bool(r["final"]) == final and (final or r["round"] == int(round_no))]
        return [dict(r) for r in rows]

    def _game_row(self, tid, round_no, table: int):
        self.meta(tid)
        round_no = round_arg(round_no)
        final = round_no == FINAL
        row = self.conn.execute(
            "SELECT * FROM tournament_games WHERE tournament_id = ? AND final = ? AND (? OR round = ?) "
            "AND table_no = ? AND superseded_at IS NULL",
            (tid, int(final), int(final), 0 if final else int(round_no), int(table))).fetchone()
        if row is None:
            raise BadInput("table", f"no table {table} in {'the final' if final else f'round {round_no}'}")
        return row

    # --- results --------------------------------------------------------------------------
    def result(self, tid, round_no, table: int, score, match_id: int | None = None) -> None:
        """A result typed at the desk or read from the table's score sheet. Refused once the next
        round is paired: that takes `correct`, with a reason."""
        round_no = round_arg(round_no)
        row = self._game_row(tid, round_no, table)
        if round_no != FINAL and self._rounds_paired(tid) > int(round_no) or \
                round_no != FINAL and self._final_paired(tid):
            raise BadInput("round", f"the round after round {round_no} is already "
                           "paired: change this result through a recorded correction, with its reason")
        self._write_result(tid, row, score, match_id)

    def correct(self, tid, round_no, table: int, score, reason: str) -> dict:
        """Changes a result at any time, recording what it changes and why (documented choice
        `correction`); the rounds already paired stay as they were."""
        if not isinstance(reason, str) or not reason.strip():
            raise BadInput("reason", "a correction needs its reason")
        round_no = round_arg(round_no)
        row = self._game_row(tid, round_no, table)
        before = None if row["score_first"] is None else [row["score_first"], row["score_second"]]
        with db.transaction(self.conn):
            new = self._write_result(tid, row, score, row["match_id"], in_transaction=True)
            entry = {"round": _round_key(round_no), "table": int(table), "before": before, "after": list(new),
                     "reason": reason.strip(), "at": self.clock().isoformat()}
            self.conn.execute("INSERT INTO tournament_corrections (tournament_id, round, table_no, before, after, reason, at) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (tid, entry["round"], entry["table"], json.dumps(before), json.dumps(entry["after"]),
                               entry["reason"], entry["at"]))
        return entry

    def corrections(self, tid) -> list[dict]:
        return [{"round": r["round"], "table": r["table_no"], "before": json.loads(r["before"]),
                 "after": json.loads(r["after"]), "reason": r["reason"], "at": r["at"]}
                for r in self.conn.execute("SELECT * FROM tournament_corrections WHERE tournament_id = ? ORDER BY id",
                                           (tid,))]

    def _final_paired(self, tid) -> bool:
        return self.conn.execute("SELECT 1 FROM tournament_games WHERE tournament_id = ? AND final = 1",
                                 (tid,)).fetchone() is not None

    def _refuse_after_final(self, tid, field: str) -> None:
        if self._final_paired(tid):
            raise BadInput(field, "the final is paired: the tournament is over")

    def _write_result(self, tid, row, score, match_id, in_transaction: bool = False) -> tuple:
        if GHOST in (row["first"], row["second"]):
            raise BadInput("table", f"the ghost's game is always {rules().ghost_score[0]}-{rules().ghost_score[1]} "
                           f"({rules().clauses['ghost']})")
        if not isinstance(score, (list, tuple)) or len(score) != 2 or \
                not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score):
            raise BadInput("score", "expected the two players' points, like 25 15")
        if row["final"] and score[0] == score[1]:
            raise BadInput("score", f"the final is played to {rules().final_points} points, it cannot end level "
                           f"({rules().clauses['final']})")
        stamp = self.clock().isoformat()
        statements = [
            ("UPDATE tournament_games SET superseded_at = ? WHERE id = ?", (stamp, row["id"])),
            ("INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, score_first, "
             "score_second, match_id, entered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
             (tid, row["round"], row["final"], row["table_no"], row["first"], row["second"], score[0], score[1],
              match_id if match_id is not None else row["match_id"], stamp)),
        ]
        if in_transaction:
            for sql, params in statements:
                self.conn.execute(sql, params)
        else:
            with db.transaction(self.conn):
                for sql, params in statements:
                    self.conn.execute(sql, params)
        return tuple(score)

    # --- matches at the tables ------------------------------------------------------------
    def link_match(self, tid, round_no, table: int, match_id: int) -> None:
        """The score sheet kept at this table (a match of `play.store`)."""
        row = self._game_row(tid, round_no, table)
        self.conn.execute("UPDATE tournament_games SET match_id = ? WHERE id = ?", (int(match_id), row["id"]))

    def game(self, tid, round_no, table: int) -> dict:
        return dict(self._game_row(tid, round_no, table))

    # --- reports --------------------------------------------------------------------------
    def show(self, tid) -> dict:
        t = self.load(tid)
        meta = self.meta(tid)
        pending = [{"round": FINAL if g.get("final") else g["round"], "table": g["table_no"]}
                   for g in (dict(r) for r in self._games(tid)) if g["score_first"] is None]
        return {"id": meta["id"], "name": meta["name"], "ruleset": meta["ruleset"], "created_at": meta["created_at"],
                "tournament": t.to_doc(), "entries": self.entries(tid), "rounds_total": t.rounds_total,
                "standings": [r.to_doc() for r in current(t)] if t.players else [],
                "pending": pending, "corrections": self.corrections(tid),
                "choices": [dict(c) for c in rules().choices]}
