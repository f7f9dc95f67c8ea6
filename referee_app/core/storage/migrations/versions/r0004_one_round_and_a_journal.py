"""One truth per round, and a journal of every change to a tournament (issue 31).

- `tournament_games_one_live_row`: at most one row in force (superseded_at NULL) per game
  (tournament, final, round, table), so that two desks pairing the same round at once cannot
  both write it, whatever the lock around pairing does. A database where a round was already
  paired twice (the race this closes) keeps, per round, one row per table and per player in
  force: rows holding a result first, then the first paired; the others are set aside
  (superseded, never deleted) and said in the journal.
- `tournament_journal`: who changed what and when (login, at, action, round, table, detail as
  JSON). On PostgreSQL the login is the server's (`current_user`, a default the table role may
  not write: see roles.py).

Revision ID: 0004
Revises: 0003
"""
from datetime import datetime, timezone
import json

from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _set_aside_doubled_rounds(conn) -> None:
    rows = conn.execute(sa.text(
        "SELECT id, tournament_id, final, round, table_no, first, second, score_first FROM tournament_games "
        "WHERE superseded_at IS NULL ORDER BY tournament_id, final, round, "
        "CASE WHEN score_first IS NULL THEN 1 ELSE 0 END, id")).mappings().all()
    kept: dict = {}
    aside = []
    for r in rows:
        key = (r["tournament_id"], r["final"], r["round"])
        tables, players = kept.setdefault(key, (set(), set()))
        seated = {p for p in (r["first"], r["second"]) if p is not None}
        if r["table_no"] in tables or seated & players:
            aside.append(r)
            continue
        tables.add(r["table_no"])
        players.update(seated)
    stamp = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    for r in aside:
        conn.execute(sa.text("UPDATE tournament_games SET superseded_at = :at WHERE id = :id"),
                     {"at": stamp, "id": r["id"]})
        conn.execute(sa.text(
            "INSERT INTO tournament_journal (tournament_id, at, login, action, round, table_no, detail) "
            "VALUES (:t, :at, 'schema 0004', 'set_aside', :round, :table, :detail)"),
            {"t": r["tournament_id"], "at": stamp, "round": "final" if r["final"] else str(r["round"]),
             "table": r["table_no"],
             "detail": json.dumps({"players": [r["first"], r["second"]],
                                   "reason": "the round was paired twice at once: this copy is set aside"})})


def upgrade() -> None:
    conn = op.get_bind()
    login = "current_user" if conn.dialect.name == "postgresql" else "''"
    key = "SERIAL PRIMARY KEY" if conn.dialect.name == "postgresql" else "INTEGER PRIMARY KEY AUTOINCREMENT"
    conn.execute(sa.text(
        f"CREATE TABLE tournament_journal (id {key}, "
        "tournament_id INTEGER NOT NULL REFERENCES tournaments (id), at TEXT NOT NULL, "
        f"login TEXT NOT NULL DEFAULT {login}, action TEXT NOT NULL, round TEXT, table_no INTEGER, "
        "detail TEXT NOT NULL DEFAULT '{}')"))
    conn.execute(sa.text("CREATE INDEX tournament_journal_by_tournament ON tournament_journal (tournament_id, id)"))
    _set_aside_doubled_rounds(conn)
    if conn.dialect.name == "postgresql":
        # the rows set aside queued the roles' deferred row check (roles.py): run now, as an index
        # cannot be made over a table with checks pending
        conn.execute(sa.text("SET CONSTRAINTS ALL IMMEDIATE"))
    conn.execute(sa.text(
        "CREATE UNIQUE INDEX tournament_games_one_live_row ON tournament_games (tournament_id, final, round, table_no) "
        "WHERE superseded_at IS NULL"))


def downgrade() -> None:
    raise NotImplementedError("the records schema is never downgraded: a newer file is refused, not rewritten")
