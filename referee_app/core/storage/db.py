"""The records database (score sheets, forms, inspections): one SQLite file in the user data folder.

Every write is its own committed transaction, the journal is WAL and `synchronous=FULL`, so a
crash or a power cut at any moment loses nothing that a call had already returned from.
"""
from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable

from referee_app.core.errors import BadInput


def default_path() -> Path:
    override = os.environ.get("CARROM_REFEREE_DB")
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path("carrom-referee", appauthor=False) / "records.sqlite3"


def connect(path: Path | str | None = None) -> sqlite3.Connection:
    """An open connection in autocommit mode; group multi-row writes in `with transaction(conn):`."""
    path = Path(path) if path else default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=10, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def ensure_schema(conn: sqlite3.Connection, statements: str) -> None:
    """Creates a module's tables if they are not there yet (statements use IF NOT EXISTS)."""
    conn.executescript(statements)


@contextmanager
def transaction(conn: sqlite3.Connection):
    """All or nothing: the writes inside are committed together or not at all."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def local_now() -> datetime:
    """The time on the referee's clock, to the second, with its offset."""
    return datetime.now().astimezone().replace(microsecond=0)


class Store:
    """One part of the records (matches, forms, inspections): its tables in the shared database,
    and a clock that tests may set."""

    SCHEMA = ""

    def __init__(self, conn: sqlite3.Connection | None = None, clock: Callable[[], datetime] = local_now):
        self.conn = conn or connect()
        self.clock = clock
        ensure_schema(self.conn, self.SCHEMA)

    def row(self, table: str, record_id, noun: str, field: str = "id") -> sqlite3.Row:
        """The row of `table` numbered `record_id`; a bad or unknown number is refused by name."""
        try:
            key = int(record_id)
        except (TypeError, ValueError):
            raise BadInput(field, f"'{record_id}' is not {'an' if noun[0] in 'aeiou' else 'a'} {noun} number") from None
        found = self.conn.execute(f"SELECT * FROM {table} WHERE id = ?", (key,)).fetchone()
        if found is None:
            raise BadInput(field, f"no {noun} {record_id}")
        return found

    def close(self) -> None:
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
