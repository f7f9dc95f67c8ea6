"""Shared fixtures. GUI tests run offscreen; tests that read ../shared skip without it, and tests
on PostgreSQL skip without its server, except under CI, where either absence is a failure."""
from __future__ import annotations

import atexit
import inspect
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The whole session (and every command it starts) keeps its caches, records and settings in a
# temporary folder, never in the user's own: set before anything reads them. platformdirs and Qt
# read the XDG variables on Linux and the BSDs; on macOS they derive the folders from HOME, on
# Windows from APPDATA and LOCALAPPDATA. A test wanting a folder of its own still sets these
# (the `user_dirs` fixture).
USER_DIRS = Path(tempfile.mkdtemp(prefix="carrom-referee-tests-"))
atexit.register(shutil.rmtree, USER_DIRS, ignore_errors=True)
_HOMES = {"XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "cache", "XDG_CONFIG_HOME": "config",
          "XDG_STATE_HOME": "state"}
if sys.platform == "darwin":
    _HOMES["HOME"] = "home"
if sys.platform == "win32":
    _HOMES.update(APPDATA="appdata", LOCALAPPDATA="localappdata")
for _var, _sub in _HOMES.items():
    (USER_DIRS / _sub).mkdir(mode=0o700)
    os.environ[_var] = str(USER_DIRS / _sub)

import pytest  # noqa: E402

from support.cli import REPO, SHARED, cli_command, run_cli, shared_path, under_ci  # noqa: E402,F401


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return shared_path()


@pytest.fixture(scope="session")
def knowledge():
    """The installed knowledge root (tests/support/kbcopy.py): one per run, as a program loads one."""
    from support.kbcopy import installed

    return installed()


@pytest.fixture(scope="session")
def kb(knowledge):
    return knowledge.kb


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """Points the user data, cache and config folders at a temporary place."""
    for var, sub in (("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config")):
        (tmp_path / sub).mkdir()
        monkeypatch.setenv(var, str(tmp_path / sub))
    return tmp_path


@pytest.fixture(autouse=True)
def private_qt_settings(request, tmp_path_factory):
    """Every test with a QApplication reads and writes settings of its own, whatever ran before it.
    QSettings keeps the folder it was first given, not XDG_CONFIG_HOME as a later test sets it, so
    without this a test's settings (a server address that cannot be reached) reach the next test
    that builds a widget. A test using `gui_env` sets its own folder again, after this one."""
    if "qapp" not in request.fixturenames:
        yield
        return
    from PySide6.QtCore import QSettings

    from referee_app.ui.common import records_source
    from referee_app.ui.common.server_state import reset_server_state

    folder = tmp_path_factory.mktemp("settings")
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    reset_server_state()   # no save left waiting, no server remembered, by another test
    records_source.forget()
    yield
    reset_server_state()
    records_source.forget()


@pytest.fixture
def records_file(tmp_path, monkeypatch) -> Path:
    """The records database is this machine's own SQLite file, in the test's data folder: its path.
    (The data folder, not CARROM_REFEREE_DATABASE: the window's preferences still decide, as they
    do for a user who sets nothing; gui_env keeps the same folder.)"""
    from referee_app.core.storage.database import default_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("CARROM_REFEREE_DATABASE", raising=False)
    monkeypatch.delenv("CARROM_REFEREE_DB", raising=False)
    path = default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    """One searcher over the installed knowledge per test module, its index in a temporary folder
    (never the user's cache)."""
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.search import Searcher

    s = Searcher(Knowledge.load(), folder=tmp_path_factory.mktemp("search-index"))
    s.open()
    yield s
    s.close()


# PostgreSQL: one throwaway cluster per test session (tests/support/pg_cluster.py), started when a test
# first needs it, and a fresh database per test copied from a template.

def postgresql_required() -> bool:
    """Whether a missing server is a failure: under CI, and after `./bootstrap test`, which installs it."""
    return under_ci() or bool(os.environ.get("CARROM_REFEREE_REQUIRE_POSTGRESQL"))


@pytest.fixture(scope="session")
def pg_cluster():
    from support.pg_cluster import Cluster, Unavailable

    cluster = None
    try:
        cluster = Cluster()
        cluster.start()
    except Unavailable as exc:
        if cluster is not None:
            cluster.stop()
        if postgresql_required():
            pytest.fail(f"PostgreSQL tests must run here, and the server cannot start: {exc}")
        pytest.skip(f"no PostgreSQL server to test against: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def pg_template(pg_cluster) -> str:
    """The database every test's database is copied from (CREATE DATABASE ... TEMPLATE): migrated
    to the schema's head once, so that a test does not pay for the migrations."""
    from referee_app.core.storage.database import Database

    name = pg_cluster.create_database(prefix="records_template")
    Database(pg_cluster.url(name)).close()    # its connections closed: a template must have none
    return name


def _fresh_database(cluster, template: str):
    name = cluster.create_database(template=template)
    try:
        yield cluster.url(name)
    finally:
        cluster.drop_database(name)


@pytest.fixture
def postgresql_url(pg_cluster, pg_template):
    """A fresh records database on the test cluster, at the schema's head and holding no record,
    as the superuser; dropped afterwards."""
    yield from _fresh_database(pg_cluster, pg_template)


@pytest.fixture
def empty_postgresql_url(pg_cluster):
    """A fresh database with no table at all (no schema yet), as the superuser."""
    yield from _fresh_database(pg_cluster, "template0")


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'records.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def records_url(request) -> str:
    """A fresh, empty records database on each engine in turn, as a URL."""
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
def records_env(records_url, monkeypatch) -> str:
    """The records database in use (CARROM_REFEREE_DATABASE, for the stores opened without one and
    the command line) is a fresh one on each engine in turn."""
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", records_url)
    return records_url


# --- the quick set ----------------------------------------------------------------------------
# A test that starts another process (the command line, an install, the PostgreSQL server) is
# marked `slow`, so that `pytest -m "not slow"` runs the rest in a fraction of the time; CI runs
# everything. Marked by reading the test's code and that of the helpers and fixtures it uses, so
# that a new test is marked without anyone having to remember it; a test whose process is started
# by code loaded at run time (a benchmark's, ../shared's) carries @pytest.mark.slow itself.

# cli_command: the command line's argv, built only to be run (../shared/tools/run_cases.py runs it)
_SPAWNS = re.compile(r"\b(subprocess|Popen|run_cli|cli_command|os\.system|os\.popen)\b")
_SPAWNING_FIXTURES = {"pg_cluster"}   # the session's PostgreSQL server, started on first use
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_spawning: dict[object, bool] = {}


def _spawns(func, depth: int = 0) -> bool:
    """Whether `func` starts a process itself or through a function of its module that does."""
    func = inspect.unwrap(func)
    if func in _spawning:
        return _spawning[func]
    _spawning[func] = False   # a cycle among helpers adds nothing
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError):
        return False
    found = bool(_SPAWNS.search(source))
    if not found and depth < 4:
        names = getattr(func, "__globals__", {})
        for name in set(_CALLED.findall(source)):
            helper = names.get(name)
            if inspect.isfunction(helper) and helper is not func and _spawns(helper, depth + 1):
                found = True
                break
    _spawning[func] = found
    return found


def _starts_a_process(item) -> bool:
    if _spawns(getattr(item, "function", None)):
        return True
    info = getattr(item, "_fixtureinfo", None)
    for name, defs in (info.name2fixturedefs.items() if info else ()):
        if name in _SPAWNING_FIXTURES or any(_spawns(d.func) for d in defs):
            return True
    return getattr(item, "callspec", None) is not None and item.callspec.params.get("records_url") == "postgresql"


def pytest_collection_modifyitems(config, items):
    slow = pytest.mark.slow
    for item in items:
        if _starts_a_process(item):
            item.add_marker(slow)
