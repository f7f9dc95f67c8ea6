"""A throwaway PostgreSQL cluster for the tests and the load benchmark.

It is started from the distribution's server binaries (`/usr/lib/postgresql/*/bin`), listens only
on a unix socket in a private temporary folder (never a TCP port, so it cannot clash with a
cluster already running on the machine, such as the one Debian starts when the package is
installed) and runs without fsync: it holds nothing worth a disk flush. PostgreSQL refuses to run
as root, so under root (CI, a container) the server runs as the `postgres` OS user that the
Debian package creates, through `runuser`.

pytest-postgresql was the other choice; its process fixture runs `pg_ctl` as the current user
and so cannot start a cluster under root, which is how CI runs.
"""
from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote


class Unavailable(Exception):
    """PostgreSQL's server cannot be started here; the message says why and what to install."""


def server_bindir() -> Path:
    """The newest installed server's binaries (the folder holding initdb and pg_ctl)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    if found:
        return found[-1].parent
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    raise Unavailable("PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb): "
                      "`./bootstrap test` installs the distribution's postgresql package")


def _runuser() -> str | None:
    # in /usr/sbin, which a plain shell's PATH (env -i ... PATH=/usr/bin:/bin) may leave out
    return shutil.which("runuser", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]))


def _server_user() -> str | None:
    """The OS user the server runs as: None for the current user, `postgres` under root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable("running as root, and there is no `postgres` OS user to run the server as "
                          "(the distribution's postgresql package creates it)") from None
    if not _runuser():
        raise Unavailable("running as root, and `runuser` (util-linux) is missing to run the server as postgres")
    return "postgres"


def reap_orphans() -> None:
    """Stops the clusters of earlier test runs that were killed before their cleanup ran (a kill
    skips pytest's teardown): each folder names the process that owns it, and one whose owner is
    gone would otherwise keep its server running until the machine stops."""
    for folder in Path(tempfile.gettempdir()).glob("carrom-pg-*"):
        try:
            owner = int((folder / "owner.pid").read_text())
        except (OSError, ValueError):
            continue   # still starting, or not one of ours
        try:
            os.kill(owner, 0)
            continue   # its run goes on
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        try:
            Cluster(folder=folder).stop()
        except Unavailable:
            shutil.rmtree(folder, ignore_errors=True)


class Cluster:
    """One server with its data folder and socket in a temporary folder; `stop()` removes it all.

    Local connections are trusted: the roles tests log in as members of each role by name, and
    what they prove is what the grants allow, not the password check.
    """

    SUPERUSER = "postgres"

    def __init__(self, durable: bool = False, folder: Path | None = None) -> None:
        """A new cluster in a new temporary folder, or (`folder`) one an earlier run left there."""
        self.durable = durable    # fsync and synchronous commit on, as on a real server (the load benchmark)
        self.bindir = server_bindir()
        self.user = _server_user()
        self.folder = folder or Path(tempfile.mkdtemp(prefix="carrom-pg-"))
        self.data = self.folder / "data"
        self.running = (self.data / "postmaster.pid").exists()
        self._databases = 0

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user:
            command = [_runuser(), "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise Unavailable(f"{args[0]} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-800:]}")
        return done

    def start(self) -> "Cluster":
        reap_orphans()
        (self.folder / "owner.pid").write_text(str(os.getpid()))
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", self.SUPERUSER, "-A", "trust", "-E", "UTF8",
                  "--locale=C.UTF-8", *(() if self.durable else ("--no-sync",)))
        self.resume()
        return self

    def _options(self) -> str:
        options = f"-k {self.folder} -c listen_addresses= -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        return options

    def halt(self, mode: str = "fast") -> None:
        """Stops the server, keeping its data, its clients cut off at once: `resume` starts it
        again (the outbox's tests). "fast" writes what was committed first, which a cluster without
        synchronous commit needs; a durable one may be stopped "immediate", as a crash would."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-s", "stop")
        self.running = False

    def resume(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-o", self._options(), "-l", str(self.folder / "server.log"),
                  "-w", "-t", "60", "-s", "start")
        self.running = True

    def stop(self) -> None:
        try:
            if self.running:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-s", "stop")
                self.running = False
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = SUPERUSER) -> str:
        """A libpq URL of one database, through the socket (SQLAlchemy reads it too)."""
        return f"postgresql://{quote(user)}@/{quote(database)}?host={quote(str(self.folder), safe='/')}"

    def connect(self, database: str = "postgres", user: str = SUPERUSER, autocommit: bool = True):
        import psycopg

        return psycopg.connect(self.url(database, user), autocommit=autocommit)

    def create_database(self, template: str = "template0", prefix: str = "test") -> str:
        """A new database copied from `template`; returns its name."""
        self._databases += 1
        name = f"{prefix}_{os.getpid()}_{self._databases}"
        with self.connect() as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return name

    def drop_database(self, name: str) -> None:
        with self.connect() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return (self.folder / "server.log").read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def __enter__(self) -> "Cluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
