"""What every record store shares: the database it is given (database.py), its transactions, its
clock, and reading stored JSON that may have been damaged.

Every write is one transaction, committed before the call returns; a crash or a power cut at any
moment loses nothing that a call had already returned from.
"""
from __future__ import annotations

import json
import os
import threading
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable

import sqlalchemy as sa

from referee_app.core import validation
from referee_app.core.errors import BadInput
from .database import (APPLICATION_ID, Database, check_file, default_path, open_database,  # noqa: F401
                       sqlite_url)
from .errors import StoreError, StoreUnavailable, VersionConflict  # noqa: F401


def connect(path: Path | str | None = None) -> Database:
    """The records database at `path` (a SQLite file; the default one when None), checked and at
    this version's schema (StoreError otherwise): never written into unless it is ours and sound."""
    return Database(Path(path) if path else default_path())


def move_aside(path: Path | str | None = None, reason: str = "set-aside") -> Path:
    """Renames a records database (and its journal) out of the way, untouched, so that a new one
    can start at its path; returns where the old one now is."""
    path = Path(path) if path else default_path()
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.{reason}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{reason}-{stamp}-{n}")
    for suffix in ("-wal", "-shm"):   # the journal goes with its file, or it would be replayed into the new one
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    os.replace(path, target)
    return target


def start_anew(path: Path | str | None = None, reason: str = "set-aside") -> Path | None:
    """Moves the records file at `path` aside (`move_aside`) and starts a new one there; returns
    where the old one is (None when there was none). A new file that cannot be made (a full disk)
    is never left in the old one's place: the empty file would list no records once space is
    freed, so the old file is put back and the error raised."""
    path = Path(path) if path else default_path()
    moved = move_aside(path, reason) if path.exists() else None
    try:
        connect(path).close()
    except BaseException:
        for suffix in ("", "-wal", "-shm", "-journal"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)
        if moved is not None:
            for suffix in ("-wal", "-shm"):
                side = moved.with_name(moved.name + suffix)
                if side.exists():
                    os.replace(side, path.with_name(path.name + suffix))
            os.replace(moved, path)
        raise
    return moved


UNREADABLE = "(unreadable stored value)"


def stored_json(text, default, shown: bool = False):
    """A JSON value as stored, and None, or the default and why it cannot be read (or, with
    `shown`, a mark saying so in its place): one damaged value never stops a listing."""
    if text is None or text == "":
        return default, None
    try:
        return json.loads(text), None
    except (TypeError, ValueError, RecursionError) as exc:
        return (UNREADABLE if shown else default), f"unreadable stored value ({type(exc).__name__})"


def local_now() -> datetime:
    """The time on the referee's clock, to the second, with its offset."""
    return validation.local().replace(microsecond=0)


def _statement(sql):
    return sa.text(sql) if isinstance(sql, str) else sql


class Store:
    """One part of the records (matches, forms, inspections, ...): the database it is given (a
    Database, a URL, a path; the default one when None), and a clock that tests may set.

    Statements run through `all`, `first`, `scalar` and `write`: inside `with self.transaction():`
    they share its one transaction; outside, each is its own.
    """

    def __init__(self, database=None, clock: Callable[[], datetime] = local_now):
        self.database, self._owned = open_database(database)
        self.clock = clock
        self._local = threading.local()

    @property
    def dialect(self) -> str:
        return self.database.dialect

    @contextmanager
    def transaction(self):
        """All or nothing: the statements inside are committed together or not at all (a block
        inside another joins it)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            yield conn
            return
        with self.database.begin() as conn:
            self._local.conn = conn
            try:
                yield conn
            finally:
                self._local.conn = None

    @contextmanager
    def joined(self, other: "Store"):
        """This store's statements inside `other`'s transaction, when both are on one database:
        committed together or not at all."""
        conn = getattr(other._local, "conn", None)
        if conn is None or other.database is not self.database:
            yield
            return
        before = getattr(self._local, "conn", None)
        self._local.conn = conn
        try:
            yield
        finally:
            self._local.conn = before

    def _run(self, work, write: bool):
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            with self.database.translated():
                return work(conn)
        with self.database.begin(write=write) as conn:
            return work(conn)

    def all(self, sql, params=None) -> list:
        return self._run(lambda c: c.execute(_statement(sql), params or {}).mappings().all(), write=False)

    def first(self, sql, params=None):
        return self._run(lambda c: c.execute(_statement(sql), params or {}).mappings().first(), write=False)

    def scalar(self, sql, params=None):
        return self._run(lambda c: c.execute(_statement(sql), params or {}).scalar(), write=False)

    def write(self, sql, params=None) -> int:
        """Runs one write; returns the rows it changed, or the id it returned (`RETURNING id`)."""
        def work(c):
            result = c.execute(_statement(sql), params or {})
            return result.scalar() if result.returns_rows else result.rowcount
        return self._run(work, write=True)

    def json_text(self, column: str, key: str) -> str:
        """SQL for the text of `key` in the JSON object stored in `column` (the form of the index)."""
        if self.dialect == "sqlite":
            return f"json_extract({column}, '$.{key}')"
        return f"(({column}::jsonb) ->> '{key}')"

    def same_text(self, column: str, param: str) -> str:
        """SQL comparing `column` with the parameter, ignoring the case of ASCII letters."""
        if self.dialect == "sqlite":
            return f"{column} = :{param} COLLATE NOCASE"
        return f"lower({column}) = lower(:{param})"

    def row(self, table: str, record_id, noun: str, field: str = "id", lock: bool = False):
        """The row of `table` numbered `record_id`; a bad or unknown number is refused by name.
        With `lock`, inside a transaction, no other writer changes it until this one commits."""
        key = validation.record_id(record_id, field, noun)
        suffix = " FOR UPDATE" if lock and self.dialect == "postgresql" else ""
        found = self.first(f"SELECT * FROM {table} WHERE id = :id{suffix}", {"id": key})
        if found is None:
            raise BadInput(field, f"no {noun} {key}", "no_record", {"record": noun, "number": key})
        return found

    def close(self) -> None:
        if self._owned:
            self.database.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
