"""The records database, over SQLAlchemy 2 Core: the SQLite file of one machine by default, or a
PostgreSQL server that every machine of a tournament shares.

A URL chooses it (`database_url`). SQLite keeps its crash safety: WAL, `synchronous=FULL`, every
write its own transaction begun IMMEDIATE, so that writers are serialised and a crash at any
moment loses nothing a call had returned from. On PostgreSQL, a write that must see the record
it changes locks that row (`FOR UPDATE`), which serialises the same writers.

Whatever the engine's driver raises comes out as one of `errors`: StoreUnavailable (the server
cannot be reached), StoreError (refused, failed, damaged), never a driver's own exception.
"""
from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
import urllib.parse
import weakref
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event, exc as sa_exc

from referee_app.core import validation
from . import location
from .errors import StoreError, StoreUnavailable, VersionConflict  # noqa: F401  (the storage layer's errors)

# Marks a SQLite records file as this app's (application_id, "CRef"), so that another program's
# SQLite file is never written into. user_version 1 was the last schema kept by hand; 2 says
# Alembic keeps it (alembic_version), and makes the versions that kept it by hand refuse it as newer.
APPLICATION_ID = 0x43526566
LEGACY_VERSION = 1
MANAGED_VERSION = 2
# The tables of the versions that did not mark their files yet: an unmarked file holding one of
# these is one of ours and is marked on first use; an unmarked file with other tables is foreign.
UNMARKED_TABLES = frozenset({"matches", "strokes", "forms", "form_history", "incidents", "inspections"})
_SQLITE_HEADER = b"SQLite format 3\x00"
# How long a statement waits for another program's lock (SQLite retries all along) before "busy"
# is said: long enough for any write of this app to finish, short enough to answer within ~3 s.
BUSY_TIMEOUT_MS = 2500


def default_path() -> Path:
    """The SQLite file the records are in when no server is chosen: the one the environment names
    (CARROM_REFEREE_DATABASE, as a path or an sqlite:/// URL), else records.sqlite3 in the user's
    data folder."""
    named = location.from_environment()
    if named and "://" not in named:
        return Path(named)
    if named.startswith("sqlite:"):
        database = parse_url(named).database
        if database:
            return Path(database)
    from platformdirs import user_data_path

    return user_data_path("carrom-referee", appauthor=False) / "records.sqlite3"


def sqlite_url(path: Path | str) -> str:
    return sa.engine.URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)


def database_url(setting: str | None = None) -> str:
    """Which records database to use: CARROM_REFEREE_DATABASE (a URL, or an SQLite file's path),
    else the `database_url` setting of the window's preferences, else the SQLite file in the data
    folder."""
    chosen, _source = location.chosen(setting)   # one rule of precedence, the window's too
    if chosen and "://" not in chosen:
        return sqlite_url(chosen)   # a path names an SQLite file
    return normalize_url(chosen) if chosen else sqlite_url(default_path())


def normalize_url(url: str) -> str:
    """postgresql:// (and postgres://) is read as PostgreSQL through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def parse_url(url) -> sa.engine.URL:
    try:
        return sa.engine.make_url(normalize_url(str(url)) if not isinstance(url, sa.engine.URL) else url)
    except (sa_exc.ArgumentError, ValueError) as exc:
        raise StoreError(str(url), "not_a_file", f"is not a database URL ({exc})") from None


def shown(url) -> str:
    """The URL as it may be shown or logged: never its password."""
    return parse_url(url).render_as_string(hide_password=True)


# --- SQLite: the file checks that run before the file is touched --------------------------------

# The SQLite files this process has open, by device and inode, with how many Databases hold each.
# POSIX advisory locks belong to the process: closing any descriptor of a file drops every lock
# the process holds on it, SQLite's included. A file already open here was checked when it was
# first opened, and is never opened by Python again (a second Database on it would otherwise drop
# the first one's locks: another process could then reset the journal under it, and a write made
# here would be lost to every other process).
_OPEN_FILES: dict[tuple[int, int], int] = {}
_OPEN_FILES_LOCK = threading.Lock()


def _opened(identity: tuple[int, int] | None, delta: int) -> None:
    if identity is None:
        return
    with _OPEN_FILES_LOCK:
        count = _OPEN_FILES.get(identity, 0) + delta
        if count > 0:
            _OPEN_FILES[identity] = count
        else:
            _OPEN_FILES.pop(identity, None)


def _release(identity: tuple[int, int] | None, engine) -> None:
    """A SQLite store's end: its journal folded in, its connections closed, its file one count
    less among those open here."""
    try:
        if getattr(engine.pool, "checkedin", lambda: 0)():
            try:
                with engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA busy_timeout = 0")   # best effort: never waits at exit
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            except (sa_exc.DBAPIError, sqlite3.Error):
                pass   # another program reads it: SQLite folds the journal in on its last close
        engine.dispose()
    finally:
        _opened(identity, -1)


def check_file(path: Path) -> None:
    """Refuses, before SQLite touches it, a path that cannot be a records database of ours."""
    try:
        present = path.exists() or path.is_symlink()
    except OSError as exc:   # a path over the system's limit (ENAMETOOLONG), a loop of links
        raise StoreError(validation.shown(str(path), 120), "not_a_file",
                         f"cannot be used ({exc.strerror or exc})") from None
    if present:
        if not path.is_file():
            raise StoreError(path, "not_a_file", "is not a regular file")
        # open here already (checked then): reading it again would drop SQLite's locks (above)
        if file_identity(path) not in _OPEN_FILES:
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


def _read_only_uri(path: Path) -> str:
    """The file opened read-only and as immutable: SQLite then needs no -shm beside it, so a file
    closed cleanly (no journal beside it) can still be read when its disk has no room for one."""
    return "file:" + urllib.parse.quote(str(path)) + "?mode=ro&immutable=1"


def _closed_cleanly(path: Path) -> bool:
    """No journal beside the file (-wal, -shm): the last connection folded it in, nobody has it
    open, and the file alone holds every record."""
    try:
        return not any(path.with_name(path.name + s).exists() for s in ("-wal", "-shm", "-journal"))
    except OSError:
        return False


def check_sqlite(path: Path, read_only: bool = False) -> None:
    """Refuses a foreign, damaged or newer file; marks an unmarked one of ours (or a new file).
    `read_only`: the checks only, on the file opened immutable (a full disk)."""
    try:
        conn = (sqlite3.connect(_read_only_uri(path), uri=True, isolation_level=None) if read_only else
                sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000))
    except sqlite3.Error as exc:
        raise StoreError(path, "unwritable", f"cannot be opened ({exc})") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        tables.discard("sqlite_sequence")
        if app_id == 0 and version == 0 and (not tables or tables & UNMARKED_TABLES) and not read_only:
            conn.execute("BEGIN IMMEDIATE")
            # re-read under the write lock: another process may have marked it meanwhile
            if conn.execute("PRAGMA application_id").fetchone()[0] == 0:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {LEGACY_VERSION}")
            conn.execute("COMMIT")
            app_id, version = APPLICATION_ID, max(version, LEGACY_VERSION)
        if app_id != APPLICATION_ID:
            raise StoreError(path, "foreign", "is not a carrom-referee records database")
        if version > MANAGED_VERSION:
            raise StoreError(path, "newer", f"has schema version {version}, newer than this version's "
                                            f"{MANAGED_VERSION}")
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise StoreError(path, "damaged", f"is damaged ({validation.one_line(problems[0], 120)})")
    except sqlite3.DatabaseError as exc:
        # only SQLite's own verdict makes a file damaged: a lock or a full disk is not
        reason, problem = sqlite_problem(exc, path)
        raise StoreError(path, reason, problem) from None
    finally:
        conn.close()


# --- what a SQLite error means for the user: busy, full, damaged, or a failure ------------------

def sqlite_problem(exc: BaseException | None, path: Path | None) -> tuple[str, str]:
    """The reason (busy, full, damaged, unwritable, failed) and the words of a SQLite error."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = validation.one_line(str(exc), 200)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text \
            or "database table is locked" in text:
        return "busy", f"is in use by another program{holder(path) if path else ''}"
    if name == "SQLITE_FULL" or "disk is full" in text or (name.startswith("SQLITE_IOERR") and path
                                                            and _no_space(path)):
        return "full", f"no space on {mount_point(path) if path else 'its disk'}"
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or name == "SQLITE_IOERR_SHORT_READ" \
            or "malformed" in text or "not a database" in text \
            or (name.startswith("SQLITE_IOERR") and path and _shorter_than_its_header(path)):
        return "damaged", f"is damaged ({text})"
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM")):
        return "unwritable", f"cannot be written ({text})"
    return "failed", text


def _shorter_than_its_header(path: Path) -> bool:
    """The file holds fewer pages than its own header counts: cut short, so damaged."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
        size = os.path.getsize(path)
    except OSError:
        return False
    if len(head) < 100 or not head.startswith(_SQLITE_HEADER):
        return False
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    return size < page * int.from_bytes(head[28:32], "big")


def _no_space(path: Path) -> bool:
    try:
        return os.statvfs(path.parent).f_bavail == 0
    except OSError:
        return False


def mount_point(path: Path) -> str:
    """The mount point of the disk that holds `path`, as `df` names it."""
    try:
        here = Path(os.path.realpath(path.parent))
        device = here.stat().st_dev
        while here.parent != here and here.parent.stat().st_dev == device:
            here = here.parent
        return str(here)
    except OSError:
        return str(path.parent)


def holder(path: Path) -> str:
    """", held by NAME (pid N)" for the other processes that hold a lock on the file or its journal,
    when the system tells (Linux's /proc/locks); "" otherwise."""
    try:
        inodes = set()
        for suffix in ("", "-shm", "-wal"):
            try:
                st = os.stat(f"{path}{suffix}")
                inodes.add((os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))
            except OSError:
                continue
        with open("/proc/locks") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    pids = []
    for line in lines:
        parts = line.split()
        if "->" in parts:   # a lock waiting for another: not a holder
            continue
        try:
            pid, where = int(parts[4]), parts[5].split(":")
            key = (int(where[0], 16), int(where[1], 16), int(where[2]))
        except (IndexError, ValueError):
            continue
        if key in inodes and pid != os.getpid() and pid not in pids:
            pids.append(pid)
    named = []
    for pid in pids[:3]:
        try:
            with open(f"/proc/{pid}/comm") as f:
                named.append(f"{f.read().strip()} (pid {pid})")
        except OSError:
            named.append(f"pid {pid}")
    return f", held by {', '.join(named)}" if named else ""


def file_identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _sqlite_connected(dbapi_conn, _record) -> None:
    dbapi_conn.isolation_level = None    # BEGIN is ours (below): the driver's own begins too late
    for pragma in (f"busy_timeout = {BUSY_TIMEOUT_MS}", "journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
        dbapi_conn.execute(f"PRAGMA {pragma}")


def _sqlite_begin(conn) -> None:
    # a write takes the write lock at once, so that what it reads stays true until it commits
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("carrom_write") else "BEGIN")


# --- bounded waits (PostgreSQL) -------------------------------------------------------------------

# A table's write is a few milliseconds; a statement still running after this is waiting for a
# server or a lock that will not come back in time for the referee: the server ends it (statement
# and lock timeouts) and the command says so in one line.
STATEMENT_TIMEOUT_S = 5.0
LOCK_TIMEOUT_S = 3.0
CONNECT_TIMEOUT_S = 5
# A server that has stopped answering (a stalled backend, a Wi-Fi drop without a reset) ends no
# statement itself, and TCP keepalives are answered by its kernel: the client cuts the connection
# when the server has been silent this much longer than the statement timeout.
WATCHDOG_MARGIN_S = 3.0
# A pooled connection is asked `SELECT 1` before use (it may have been dropped by a restart): a
# healthy server answers in a millisecond, so a silent one is given up on sooner.
PING_LIMIT_S = 2.0


def _pg_connect_args(url: sa.engine.URL, statement_timeout: float) -> dict:
    """libpq's connection parameters: a bounded connect, TCP keepalives (a peer gone without a
    word is noticed within ~20 s even between statements), and the server's statement, lock and
    idle-in-transaction timeouts, added to the options the URL may already carry."""
    settings = f"-c statement_timeout={int(statement_timeout * 1000)} -c lock_timeout={int(LOCK_TIMEOUT_S * 1000)} " \
               f"-c idle_in_transaction_session_timeout={int(max(60, statement_timeout * 4) * 1000)}"
    given = url.query.get("options")
    given = " ".join(given) if isinstance(given, tuple) else given
    return {"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "carrom-referee",
            "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 3, "keepalives_count": 3,
            "options": f"{given} {settings}" if given else settings}


class Watchdog:
    """Cuts the connections whose server has been silent past their deadline.

    One thread per database, started on first use, sleeping until the nearest deadline. Cutting
    is a shutdown of the connection's socket: the driver's wait ends at once with a lost
    connection, which the storage layer says as StoreUnavailable. Nothing of the transaction was
    committed unless its commit had reached the server, which is why a table's strokes carry
    their own ids (sent again, stored once)."""

    def __init__(self, limit: float):
        self.limit = limit
        self._deadlines: dict[int, tuple[float, object]] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self.cuts = 0

    def arm(self, dbapi_conn, limit: float | None = None) -> None:
        with self._cond:
            self._deadlines[id(dbapi_conn)] = (time.monotonic() + (limit or self.limit), dbapi_conn)
            if self._thread is None:
                self._stopped = False
                self._thread = threading.Thread(target=self._watch, name="carrom-db-watchdog", daemon=True)
                self._thread.start()
            self._cond.notify()

    def disarm(self, dbapi_conn) -> None:
        with self._cond:
            self._deadlines.pop(id(dbapi_conn), None)

    def stop(self) -> None:
        """Ends the thread (the database is closed): nothing is left to watch."""
        with self._cond:
            self._deadlines.clear()
            self._stopped = True
            self._thread = None
            self._cond.notify()

    def _watch(self) -> None:
        with self._cond:
            # a watchdog used again after `stop` has a new thread: this one then ends
            while not self._stopped and self._thread is threading.current_thread():
                now = time.monotonic()
                for key, (deadline, dbapi_conn) in list(self._deadlines.items()):
                    if deadline <= now:
                        del self._deadlines[key]
                        self.cuts += 1
                        _cut(dbapi_conn)
                nearest = min((d for d, _c in self._deadlines.values()), default=None)
                self._cond.wait(None if nearest is None else max(0.05, nearest - now))


def _cut(dbapi_conn) -> None:
    """Shuts the connection's socket down, both ways: the driver's read or write fails at once."""
    try:
        fd = dbapi_conn.pgconn.socket
        with socket.socket(fileno=os.dup(fd)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except (OSError, AttributeError, ValueError, Exception):   # already closed: nothing waits on it
        pass


# --- errors -----------------------------------------------------------------------------------

_LOST = ("server closed the connection", "connection refused", "could not connect", "connection timeout",
         "terminating connection", "no route to host", "could not translate host", "connection is lost",
         "the connection is closed", "consuming input failed", "timeout expired", "connection to server",
         "failed to resolve host", "server closed the connection unexpectedly", "bad file descriptor",
         "canceling statement due to statement timeout", "canceling statement due to lock timeout",
         # a server restarting: up again in a moment, not a failure of the call
         "the database system is starting up", "the database system is shutting down",
         "the database system is in recovery mode")
# libpq asked for a secret it was not given, or the server refused it: not an outage, and no
# retry will mend it (both messages also say "connection to server")
_CREDENTIALS = ("no password supplied", "password authentication failed")


def _denied_table(message: str) -> str | None:
    """The table of "permission denied for table X" (the server names it only in the message)."""
    prefix = "permission denied for table "
    return message[len(prefix):].strip() if message.startswith(prefix) else None


def _lost_connection(error: sa_exc.DBAPIError) -> bool:
    if error.connection_invalidated or isinstance(error, sa_exc.InterfaceError):
        return True
    text = str(error.orig).lower()
    return any(s in text for s in _LOST)


class Database:
    """One records database, opened from a URL (a path is a SQLite file), at this version's schema.

    A SQLite file is checked before it is touched, and upgraded to the schema of this version at
    once (losing nothing). A PostgreSQL database is given the schema when it is empty; an older
    schema there is upgraded by `carrom-referee db migrate`, since other machines share it.
    """

    def __init__(self, url: str | Path | None = None, *, migrate: bool = True,
                 statement_timeout: float = STATEMENT_TIMEOUT_S):
        """`statement_timeout` (PostgreSQL): how long one statement may run or wait before the
        server ends it; the connection is cut when the server has not answered for a few seconds
        more (a stalled server cannot end anything itself). `db migrate`, `init` and `copy` give
        more."""
        if isinstance(url, Path) or isinstance(url, str) and url and "://" not in url:
            url = sqlite_url(url)   # a path names a SQLite file
        self.url = parse_url(url or database_url())
        self.dialect = self.url.get_backend_name()
        self.shown = self.url.render_as_string(hide_password=True)
        self.path = Path(self.url.database) if self.dialect == "sqlite" and self.url.database else None
        self.full: StoreError | None = None   # a SQLite file opened read-only: its disk is full
        self.watchdog: Watchdog | None = None   # PostgreSQL: cuts a connection the server left silent
        self._unregister: weakref.finalize | None = None
        if self.dialect == "sqlite":
            if self.path is None or str(self.path) == ":memory:":
                raise StoreError(self.shown, "not_a_file", "a records database is a file: give its path")
            check_file(self.path)
            if self.path.exists() and _closed_cleanly(self.path) and _no_space(self.path):
                # no room on its disk for a journal (-wal, -shm), and none beside the file: the
                # file alone holds every record, so it is read as it is and every write says full
                # (opened as usual, SQLite would leave journal stubs and read nothing)
                self.full = StoreError(self.path, "full", f"no space on {mount_point(self.path)}")
                try:
                    check_sqlite(self.path, read_only=True)
                except StoreError:
                    raise self.full from None   # whatever else it finds, the answer stays "full"
            else:
                check_sqlite(self.path)
            # the file opened, by device and inode: a file restored over it or moved away while the
            # records are open would take every later write into a file no longer at the path
            self.identity = file_identity(self.path)
            if self.full is not None:
                path = self.path   # not `self`: the finalizer below keeps the engine, which must not keep the store
                self.engine = sa.create_engine("sqlite://", creator=lambda: sqlite3.connect(
                    _read_only_uri(path), uri=True, check_same_thread=False, isolation_level=None))
            else:
                self.engine = sa.create_engine(self.url, connect_args={"check_same_thread": False,
                                                                       "timeout": BUSY_TIMEOUT_MS / 1000})
                event.listen(self.engine, "connect", _sqlite_connected)
            event.listen(self.engine, "begin", _sqlite_begin)
            _opened(self.identity, +1)
            # the journal folded in, the connections closed and the file no longer counted as open
            # here: when closed, when dropped unclosed, and at the latest when the process exits (a
            # command's store, which the collector is not asked to find then: cli/__init__.py)
            self._unregister = weakref.finalize(self, _release, self.identity, self.engine)
        elif self.dialect == "postgresql":
            self.watchdog = Watchdog(statement_timeout + WATCHDOG_MARGIN_S)
            # no pool_pre_ping: its ping would wait unbounded on a stalled server; `_ping` does it
            # under the watchdog
            self.engine = sa.create_engine(self.url, connect_args=_pg_connect_args(self.url, statement_timeout))
            event.listen(self.engine, "checkout", self._ping)
            event.listen(self.engine, "before_cursor_execute", self._statement_sent)
        else:
            raise StoreError(self.shown, "not_a_file", f"'{self.dialect}' is not a known database (sqlite, postgresql)")
        self._migrate_lock = threading.Lock()
        self.identity = getattr(self, "identity", None)
        if migrate:
            self.ensure_schema()

    def __repr__(self) -> str:
        return f"Database({self.shown!r})"

    @property
    def where(self) -> str:
        """The database as named in messages: the file's path, or the URL without its password."""
        return str(self.path) if self.path else self.shown

    # --- connections ------------------------------------------------------------------------
    @contextmanager
    def begin(self, write: bool = True):
        """A connection in one transaction, committed when the block ends, rolled back on error."""
        if write and self.full is not None:
            raise self.full   # read as it is, never written: its disk has no room
        with self.translated():
            with self.engine.connect() as conn:
                if write:
                    conn = conn.execution_options(carrom_write=True)
                with self._watched(conn), conn.begin():
                    if write:
                        self.check_same_file()
                    yield conn
                    if write:   # before the commit that would acknowledge it
                        self.check_same_file()

    # --- bounded waits (PostgreSQL) -----------------------------------------------------------
    @contextmanager
    def _watched(self, conn):
        """The connection under the watchdog from its first statement to its commit (or rollback):
        a server that stops answering meanwhile has its connection cut, and the call ends with
        StoreUnavailable instead of waiting as long as the stall lasts."""
        if self.watchdog is None:
            yield
            return
        dbapi = conn.connection.dbapi_connection
        self.watchdog.arm(dbapi)
        try:
            yield
        finally:
            self.watchdog.disarm(dbapi)

    def _statement_sent(self, conn, _cursor, _statement, _parameters, _context, _executemany) -> None:
        # each statement gets the whole limit again: the limit is on the server's silence
        assert self.watchdog is not None   # listened to on PostgreSQL only
        self.watchdog.arm(conn.connection.dbapi_connection)

    def _ping(self, dbapi_conn, _record, _proxy) -> None:
        """What pool_pre_ping does (a connection the server dropped, after a restart, is replaced),
        under the watchdog."""
        assert self.watchdog is not None   # listened to on PostgreSQL only
        self.watchdog.arm(dbapi_conn, PING_LIMIT_S)
        try:
            with dbapi_conn.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception:
            raise sa_exc.DisconnectionError() from None   # the pool opens a new connection (bounded by connect_timeout)
        finally:
            self.watchdog.disarm(dbapi_conn)

    def check_same_file(self) -> None:
        """Refuses to go on writing when the file at the path is no longer the one opened."""
        if self.path is None or self.identity is None:
            return
        now = file_identity(self.path)
        if now != self.identity:
            raise StoreError(self.path, "replaced", "was removed or moved away" if now is None
                             else "was replaced by another file")

    def read(self):
        return self.begin(write=False)

    @contextmanager
    def translated(self):
        """The driver's errors as the storage layer's: unavailable, refused or failed."""
        try:
            yield
        except sa_exc.DBAPIError as error:
            message = validation.one_line(str(error.orig), 200)
            diag = getattr(error.orig, "diag", None)
            if diag is not None and diag.message_primary:
                # the server's own sentence only: its DETAIL, HINT and CONTEXT (PL/pgSQL lines) are not the user's
                message = validation.one_line(diag.message_primary, 200)
                from .refusals import from_server

                refused = from_server(diag.sqlstate, diag.message_primary, diag.table_name or _denied_table(message))
                if refused is not None:
                    raise refused from error
            if self.dialect == "postgresql" and any(s in message.lower() for s in _CREDENTIALS):
                raise StoreError(self.shown, "credentials", message) from error
            if self.dialect == "postgresql" and _lost_connection(error):
                raise StoreUnavailable(self.shown, message) from error
            if isinstance(error, sa_exc.IntegrityError):
                raise StoreError(self.where, "refused", message) from error
            if self.dialect == "sqlite":
                reason, problem = sqlite_problem(error.orig, self.path)
                raise StoreError(self.where, reason, problem) from error
            raise StoreError(self.where, "failed", message) from error

    # --- who is writing ---------------------------------------------------------------------
    def role(self) -> str:
        """"table" for a login held to the table role (a member of carrom_table and not of
        carrom_desk, roles.py), else "desk": a SQLite file, the database's owner, a desk login."""
        if self.dialect != "postgresql":
            return "desk"
        if getattr(self, "_role", None) is None:
            with self.read() as conn:
                held = conn.exec_driver_sql(
                    "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'carrom_table' "
                    "AND pg_has_role(current_user, oid, 'MEMBER')) AND NOT EXISTS (SELECT 1 FROM pg_roles "
                    "WHERE rolname = 'carrom_desk' AND pg_has_role(current_user, oid, 'MEMBER'))").scalar()
            self._role = "table" if held else "desk"
        return self._role

    def login(self) -> str:
        """Who writes, as the journal names it: the server's login, or the system user of a file."""
        if getattr(self, "_login", None) is None:
            if self.dialect == "postgresql":
                with self.read() as conn:
                    self._login = str(conn.exec_driver_sql("SELECT current_user").scalar())
            else:
                import getpass

                try:
                    self._login = getpass.getuser()
                except (KeyError, OSError):
                    self._login = ""
        return self._login

    # --- schema -----------------------------------------------------------------------------
    def revision(self) -> str | None:
        from . import migrations

        with self.read() as conn:
            return migrations.current(conn)

    def ensure_schema(self) -> None:
        """Brings the database to this version's schema, or refuses one it must not touch."""
        from . import migrations

        with self._migrate_lock:
            with self.read() as conn:
                found = migrations.current(conn)
                if found == migrations.HEAD:
                    return
                empty = self.dialect == "sqlite" or not migrations.user_tables(conn)
            if found is not None and found not in migrations.REVISIONS:
                raise StoreError(self.where, "newer", f"has schema revision {found}, newer than this version's "
                                                      f"{migrations.HEAD}")
            if self.dialect == "postgresql" and found is None and not empty:
                raise StoreError(self.where, "foreign", "holds tables but no carrom-referee schema")
            if self.dialect == "postgresql" and found is not None:
                raise StoreError(self.where, "older", f"has schema revision {found}, older than this version's "
                                                      f"{migrations.HEAD}")
            self.upgrade()

    def upgrade(self) -> list[str]:
        """Runs the migrations from the stored revision to the head, in one transaction; returns the
        revisions applied."""
        from . import migrations

        with self.begin() as conn:
            return migrations.upgrade(conn)

    def close(self) -> None:
        """Closes every connection; a SQLite file is checkpointed first, so that its journal
        (-wal, -shm) is folded in and removed with the last connection."""
        if self._unregister is not None:
            self._unregister()   # _release, once: a finalizer runs at most once
        else:
            self.engine.dispose()
        if self.watchdog is not None:
            self.watchdog.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_database(database=None) -> tuple[Database, bool]:
    """A Database from what a store is given (a Database, a URL, a path, or None for the default),
    and whether the caller made it (and so closes it)."""
    if isinstance(database, Database):
        return database, False
    return Database(database), True
