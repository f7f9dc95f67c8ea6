"""A table's outbox: strokes kept on the machine while the shared server is out of reach, sent in
order, each exactly once, when it is back (issue 31; the protocol: docs/outbox.md).

Every stroke a table machine enters on a shared (PostgreSQL) sheet gets a client-made id, a UUID,
before it is sent. The server stores a stroke once per id (a unique index; `MatchStore.add_stroke`
answers the stored ruling to a second sending), so the outbox may always send again: after a
cut-off mid-send, after the program was killed between the server's commit and the outbox's mark.

The outbox is a small SQLite file in the user's data folder (`outbox.sqlite3`, beside the records
file), written in autocommit transactions (WAL, synchronous FULL) like the records: a stroke kept
is on disk before the referee is answered. It holds, per server:

- `strokes`: the strokes waiting, sent, or refused (the server no longer takes them, e.g. the desk
  closed the sheet meanwhile; kept and shown, never dropped), in the order they were entered;
- `sheets`: the sheets this machine holds (created, played or read here), as last seen on the
  server, so that a stroke can be ruled here while the server is away;
- `pairings`: each tournament as last seen, readable while the server is away.

Pure Python, no Qt: the window and the command line both use it.
"""
from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput
from referee_app.core.storage.errors import StoreError, StoreUnavailable
from .match import Match, replayed

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge
    from .store import MatchStore

WAITING, SENT, REFUSED = "waiting", "sent", "refused"

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS strokes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, client_id TEXT NOT NULL UNIQUE, server TEXT NOT NULL,
        match_id INTEGER NOT NULL, stroke TEXT NOT NULL, ruling TEXT, made_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'waiting', problem TEXT, sent_at TEXT)""",
    "CREATE INDEX IF NOT EXISTS strokes_waiting ON strokes (server, status, seq)",
    """CREATE TABLE IF NOT EXISTS sheets (
        server TEXT NOT NULL, match_id INTEGER NOT NULL, meta TEXT NOT NULL, strokes TEXT NOT NULL,
        through INTEGER NOT NULL DEFAULT 0, seen_at TEXT NOT NULL, PRIMARY KEY (server, match_id))""",
    """CREATE TABLE IF NOT EXISTS pairings (
        server TEXT NOT NULL, tournament_id INTEGER NOT NULL, doc TEXT NOT NULL, seen_at TEXT NOT NULL,
        PRIMARY KEY (server, tournament_id))""",
)


def default_path() -> Path:
    from referee_app.core.storage.database import default_path as records_path
    from platformdirs import user_data_path

    records = records_path()
    folder = records.parent if records.name == "records.sqlite3" else user_data_path("carrom-referee", appauthor=False)
    return folder / "outbox.sqlite3"


def new_id() -> str:
    return str(uuid.uuid4())


def _now() -> str:
    return datetime.now().astimezone().replace(microsecond=0).isoformat()


@dataclass
class SyncReport:
    """What one sending did: `sent` strokes stored (or found stored) on the server, `waiting` still
    kept, `refused` (each {client_id, match, stroke, problem}), `unavailable` the server's words
    when it could not be reached."""

    sent: int = 0
    waiting: int = 0
    refused: list = field(default_factory=list)
    unavailable: str | None = None

    def as_json(self) -> dict:
        return {"sent": self.sent, "waiting": self.waiting, "refused": self.refused}


class Outbox:
    """The outbox file of this machine (see the module's text)."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=2.5, check_same_thread=False)
            for pragma in ("journal_mode = WAL", "synchronous = FULL", "busy_timeout = 2500"):
                self._conn.execute(f"PRAGMA {pragma}")
            for statement in _SCHEMA:
                self._conn.execute(statement)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(self.path, "unwritable", f"the outbox cannot be opened ({exc})") from None

    def close(self) -> None:
        self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _run(self, sql: str, params=()) -> list:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(self.path, "failed", f"the outbox: {exc}") from None

    # --- the sheets and pairings this machine holds ----------------------------------------
    def hold(self, server: str, match_id: int, meta: dict, strokes: list) -> None:
        """Keeps the sheet as the server has it now (its header and strokes in force), which
        holds every stroke this outbox has sent to it so far (`through`: the last of them)."""
        through = self._run("SELECT COALESCE(MAX(seq), 0) FROM strokes WHERE server = ? AND match_id = ? "
                            "AND status = ?", (server, int(match_id), SENT))[0][0]
        self._run("INSERT INTO sheets (server, match_id, meta, strokes, through, seen_at) VALUES (?, ?, ?, ?, ?, ?) "
                  "ON CONFLICT (server, match_id) DO UPDATE SET meta = excluded.meta, strokes = excluded.strokes, "
                  "through = excluded.through, seen_at = excluded.seen_at",
                  (server, int(match_id), json.dumps(meta, default=str), json.dumps(strokes), through, _now()))

    def held(self, server: str, match_id: int) -> dict | None:
        """The sheet as last seen ({meta, strokes, through, seen_at}), or None if this machine
        does not hold it."""
        rows = self._run("SELECT meta, strokes, through, seen_at FROM sheets WHERE server = ? AND match_id = ?",
                         (server, int(match_id)))
        if not rows:
            return None
        return {"meta": json.loads(rows[0][0]), "strokes": json.loads(rows[0][1]), "through": rows[0][2],
                "seen_at": rows[0][3]}

    def held_sheets(self, server: str) -> list[int]:
        return [r[0] for r in self._run("SELECT match_id FROM sheets WHERE server = ? ORDER BY match_id", (server,))]

    def keep_pairings(self, server: str, tournament_id: int, doc: dict) -> None:
        self._run("INSERT INTO pairings (server, tournament_id, doc, seen_at) VALUES (?, ?, ?, ?) "
                  "ON CONFLICT (server, tournament_id) DO UPDATE SET doc = excluded.doc, seen_at = excluded.seen_at",
                  (server, int(tournament_id), json.dumps(doc, default=str), _now()))

    def pairings(self, server: str, tournament_id: int) -> dict | None:
        """The tournament as last seen here ({doc, seen_at}), or None."""
        rows = self._run("SELECT doc, seen_at FROM pairings WHERE server = ? AND tournament_id = ?",
                         (server, int(tournament_id)))
        return {"doc": json.loads(rows[0][0]), "seen_at": rows[0][1]} if rows else None

    # --- strokes ---------------------------------------------------------------------------
    def waiting(self, server: str, match_id: int | None = None) -> list[dict]:
        sql = "SELECT seq, client_id, match_id, stroke, ruling FROM strokes WHERE server = ? AND status = ?"
        params: list = [server, WAITING]
        if match_id is not None:
            sql += " AND match_id = ?"
            params.append(int(match_id))
        return [{"seq": r[0], "client_id": r[1], "match_id": r[2], "stroke": json.loads(r[3]),
                 "ruling": json.loads(r[4]) if r[4] else None}
                for r in self._run(sql + " ORDER BY seq", params)]

    def count(self, server: str) -> int:
        return self._run("SELECT COUNT(*) FROM strokes WHERE server = ? AND status = ?", (server, WAITING))[0][0]

    def refused(self, server: str) -> list[dict]:
        return [{"client_id": r[0], "match": r[1], "stroke": json.loads(r[2]), "problem": r[3], "made_at": r[4]}
                for r in self._run("SELECT client_id, match_id, stroke, problem, made_at FROM strokes "
                                   "WHERE server = ? AND status = ? ORDER BY seq", (server, REFUSED))]

    def standing(self, knowledge: Knowledge, server: str, match_id: int) -> Match:
        """The held sheet with its waiting strokes played on it: the board a stroke entered now is
        ruled on, while the server is away (BadInput if this machine does not hold the sheet)."""
        sheet = self.held(server, match_id)
        if sheet is None:
            raise BadInput(f"match {match_id}", "this machine does not hold the sheet, so it cannot keep strokes "
                                                "for it while the server is out of reach")
        meta = sheet["meta"]
        # what was sent since the sheet was last seen (the program stopped before reading it
        # back), then what waits
        later = self._run("SELECT stroke FROM strokes WHERE server = ? AND match_id = ? AND seq > ? "
                          "AND status IN (?, ?) ORDER BY seq", (server, int(match_id), sheet["through"], SENT, WAITING))
        strokes = sheet["strokes"] + [json.loads(r[0]) for r in later]
        return replayed(knowledge, meta["ruleset"], bool(meta["doubles"]), strokes)

    def keep(self, knowledge: Knowledge, server: str, match_id: int, strokes: list,
             client_ids: list[str] | None = None) -> list[dict]:
        """Rules the strokes on the held sheet (with the strokes already waiting) and keeps them,
        all or nothing; returns their rulings, each marked `kept_offline`."""
        match = self.standing(knowledge, server, match_id)
        client_ids = client_ids or [new_id() for _ in strokes]
        rulings = []
        for i, stroke in enumerate(strokes, 1):
            try:
                rulings.append(match.play(stroke, f"stroke {len(match.strokes) + 1}"))
            except BadInput as exc:
                raise BadInput(f"stroke {i}: {exc.field}",
                               f"{exc.problem}; none of the {len(strokes)} strokes was kept") from None
        made = _now()
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            for client_id, stroke, ruling in zip(client_ids, strokes, rulings):
                self._conn.execute("INSERT INTO strokes (client_id, server, match_id, stroke, ruling, made_at) "
                                   "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (client_id) DO NOTHING",
                                   (client_id, server, int(match_id), json.dumps(stroke), json.dumps(ruling), made))
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise StoreError(self.path, "failed", f"the outbox: {exc}; nothing was kept") from None
        return [dict(r, kept_offline=True) for r in rulings]

    def sync(self, store: MatchStore) -> SyncReport:
        """Sends the waiting strokes of the store's server, in the order they were entered, each
        in its own transaction under its client id, and marks each once the server has it. Stops
        at the first sign the server is away (the rest wait). A stroke the server refuses is kept
        as refused, with the server's words, and so are the later strokes of its sheet (they were
        ruled after it)."""
        server = store.database.shown
        report = SyncReport()
        blocked: dict[int, str] = {}
        touched: set[int] = set()
        for item in self.waiting(server):
            if item["match_id"] in blocked:
                self._mark(item["client_id"], REFUSED, f"entered after a refused stroke ({blocked[item['match_id']]})")
                report.refused.append(self._refusal(item, blocked[item["match_id"]]))
                continue
            try:
                store.add_stroke(item["match_id"], item["stroke"], client_id=item["client_id"])
            except StoreUnavailable as exc:
                report.unavailable = exc.problem
                break
            except StoreError:
                raise
            except BadInput as exc:
                problem = f"{exc.field}: {exc.problem}" if exc.field else exc.problem
                self._mark(item["client_id"], REFUSED, problem)
                blocked[item["match_id"]] = problem
                report.refused.append(self._refusal(item, problem))
                continue
            self._mark(item["client_id"], SENT)
            report.sent += 1
            touched.add(item["match_id"])
        if report.unavailable is None:
            for match_id in sorted(touched | set(blocked)):
                try:
                    self.refresh(store, match_id)
                except StoreUnavailable as exc:
                    report.unavailable = exc.problem
                    break
        report.waiting = self.count(server)
        return report

    def refresh(self, store: MatchStore, match_id: int) -> None:
        """Reads the sheet back from the server and holds it as it is there now."""
        meta = store.meta(match_id)
        self.hold(store.database.shown, meta["id"], meta, store.strokes(meta["id"]))

    @staticmethod
    def _refusal(item: dict, problem: str) -> dict:
        return {"client_id": item["client_id"], "match": item["match_id"], "stroke": item["stroke"], "problem": problem}

    def _mark(self, client_id: str, status: str, problem: str | None = None) -> None:
        self._run("UPDATE strokes SET status = ?, problem = ?, sent_at = ? WHERE client_id = ?",
                  (status, problem, _now() if status == SENT else None, client_id))
