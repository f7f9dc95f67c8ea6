"""The records database (score sheets, forms, inspections): one SQLite file in the user data folder.

Every write is its own committed transaction, the journal is WAL and `synchronous=FULL`, so a
crash or a power cut at any moment loses nothing that a call had already returned from.
"""
from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable

from referee_app.core import validation
from referee_app.core.errors import BadInput


def default_path() -> Path:
    override = os.environ.get("CARROM_REFEREE_DB")
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path("carrom-referee", appauthor=False) / "records.sqlite3"


# Marks a records database as this app's (SQLite's application_id, "CRef"), so that another
# program's SQLite file is never written into, and numbers its schema (user_version).
APPLICATION_ID = 0x43526566
SCHEMA_VERSION = 1
# The tables of the versions that did not mark their databases yet: an unmarked file holding one
# of these is one of ours (whatever else later versions added beside them), and is marked on
# first use; an unmarked file with tables but none of these is another program's.
UNMARKED_TABLES = frozenset({"matches", "strokes", "forms", "form_history", "incidents", "inspections"})
_SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(BadInput):
    """A records database that cannot be used as it is: names the file, says why and what to do.

    `reason` is one of not_a_file, unwritable, damaged, foreign, newer; `can_move_aside` says
    whether starting a new store beside it (`move_aside`) is the way out.
    """

    ADVICE = {
        "not_a_file": "give the path of a file (CARROM_REFEREE_DB)",
        "unwritable": "check that the file and its folder can be written, or set CARROM_REFEREE_DB to another file",
        "damaged": "start a new records file with `carrom-referee records new-store` (the damaged one is kept "
                   "aside, untouched), or restore a backup",
        "foreign": "it belongs to another program and is left untouched: set CARROM_REFEREE_DB to another file, "
                   "or move it aside with `carrom-referee records new-store`",
        "newer": "a newer version of carrom-referee wrote it: use that version, or start a new records file with "
                 "`carrom-referee records new-store` (the file is kept aside, untouched)",
    }

    def __init__(self, path, reason: str, problem: str):
        self.path, self.reason = Path(path), reason
        self.can_move_aside = reason in ("damaged", "foreign", "newer")
        super().__init__("records", f"{path}: {problem}; {self.ADVICE[reason]}")


def check_file(path: Path) -> None:
    """Refuses, before SQLite touches it, a path that cannot be a records database of ours."""
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise StoreError(path, "not_a_file", "is not a regular file")
        try:
            with open(path, "rb") as f:
                head = f.read(100)
        except OSError as exc:
            raise StoreError(path, "unwritable", f"cannot be read ({exc.strerror or exc})") from None
        if head and (len(head) < 100 or not head.startswith(_SQLITE_HEADER)):
            raise StoreError(path, "damaged", "is not an SQLite database (damaged, or another kind of file)")
        if not os.access(path, os.W_OK):
            raise StoreError(path, "unwritable", "is read-only")
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(path, "unwritable", f"its folder cannot be created ({exc.strerror or exc})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        # the journal (WAL) lives beside the file: a read-only folder cannot hold a records database
        raise StoreError(path, "unwritable", "its folder is read-only")


def check_database(conn: sqlite3.Connection, path: Path) -> None:
    """Refuses a foreign, damaged or newer database; marks an unmarked one of ours (or a new file)."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        tables.discard("sqlite_sequence")
        if app_id == 0 and version == 0 and (not tables or tables & UNMARKED_TABLES):
            with transaction(conn):
                # re-read under the write lock: another process may have marked it meanwhile
                if conn.execute("PRAGMA application_id").fetchone()[0] == 0:
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            app_id, version = APPLICATION_ID, SCHEMA_VERSION
        if app_id != APPLICATION_ID:
            raise StoreError(path, "foreign", "is not a carrom-referee records database")
        if version > SCHEMA_VERSION:
            raise StoreError(path, "newer", f"has schema version {version}, newer than this version's "
                                            f"{SCHEMA_VERSION}")
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise StoreError(path, "damaged", f"is damaged ({validation.one_line(problems[0], 120)})")
    except sqlite3.DatabaseError as exc:
        raise StoreError(path, "damaged", f"is damaged ({exc})") from None


def connect(path: Path | str | None = None) -> sqlite3.Connection:
    """An open connection in autocommit mode; group multi-row writes in `with transaction(conn):`.

    The file is checked first (StoreError): never written into unless it is ours, of a schema
    this version knows, and sound.
    """
    path = Path(path) if path else default_path()
    check_file(path)
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=10, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(path, "unwritable", f"cannot be opened ({exc})") from None
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 10000")
        check_database(conn, path)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(path, "damaged", f"is damaged ({exc})") from None
    except BaseException:
        conn.close()
        raise
    return conn


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


def path_of(conn: sqlite3.Connection) -> str:
    row = conn.execute("PRAGMA database_list").fetchone()
    return row[2] if row and row[2] else "the records database"


def _statements(script: str):
    """The statements of a schema script, one by one (a trigger's body holds semicolons)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""
    if pending.strip():
        yield pending.strip()


def ensure_schema(conn: sqlite3.Connection, statements: str) -> None:
    """Brings a module's tables to this version's schema, in one write transaction: creates what is
    missing and adds the columns an older version's tables lack (every later column has a default),
    before the indexes that may use them."""
    model = sqlite3.connect(":memory:")
    try:
        model.executescript(statements)
        tables = [r[0] for r in model.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                              "AND name NOT LIKE 'sqlite_%'")]
        wanted = {t: model.execute(f'PRAGMA table_info("{t}")').fetchall() for t in tables}
    finally:
        model.close()
    with transaction(conn):
        for table, columns in wanted.items():
            have = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
            if not have:
                continue
            for _cid, name, kind, notnull, default, _pk in columns:
                if name in have:
                    continue
                if notnull and default is None:
                    raise StoreError(path_of(conn), "damaged",
                                     f"table {table} lacks its column {name}, which cannot be added")
                conn.execute(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {kind}'
                             + (" NOT NULL" if notnull else "") + (f" DEFAULT {default}" if default is not None else ""))
        for statement in _statements(statements):
            conn.execute(statement)


@contextmanager
def transaction(conn: sqlite3.Connection):
    """All or nothing: the writes inside are committed together or not at all."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # SQLite has already rolled back after some errors (a full disk)
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


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
        key = validation.record_id(record_id, field, noun)
        found = self.conn.execute(f"SELECT * FROM {table} WHERE id = ?", (key,)).fetchone()
        if found is None:
            raise BadInput(field, f"no {noun} {key}")
        return found

    def close(self) -> None:
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
