"""Bounded waits (issue 31, "What breaks" 4): a stalled server (its backend or its postmaster
stopped, what a Wi-Fi drop looks like from the client) ends a write within seconds, as one line
saying the server cannot be reached, never a hang."""
from __future__ import annotations

import os
import signal
import time

import pytest

from referee_app.core.play.store import MatchStore
from referee_app.core.storage.database import Database
from referee_app.core.storage.errors import StoreUnavailable
from support.cli import run_cli
from support.stall import resume_later
from support.kbcopy import installed


def _postmaster(cluster) -> int:
    return int((cluster.data / "postmaster.pid").read_text().split()[0])


def test_every_connection_carries_the_timeouts(postgresql_url):
    with Database(postgresql_url) as database, database.read() as conn:
        settings = {name: conn.exec_driver_sql(f"SHOW {name}").scalar()
                    for name in ("statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout")}
    assert settings == {"statement_timeout": "5s", "lock_timeout": "3s", "idle_in_transaction_session_timeout": "1min"}


def test_a_backend_stopped_mid_write_ends_the_write_within_seconds(postgresql_url):
    store = MatchStore(installed(), Database(postgresql_url, statement_timeout=1))
    match_id = store.create("icf")
    store.add_stroke(match_id, {"pocketed": {"own": 1}})
    backend = None
    started = time.monotonic()
    try:
        with pytest.raises(StoreUnavailable) as lost:
            with store.transaction():
                backend = store.scalar("SELECT pg_backend_pid()")
                os.kill(backend, signal.SIGSTOP)    # the server stalls with the write begun
                resume_later(backend, 20)
                started = time.monotonic()
                store.add_stroke(match_id, {"pocketed": {"own": 1}})
        waited = time.monotonic() - started
    finally:
        if backend:
            os.kill(backend, signal.SIGCONT)
    assert waited < 8, waited           # statement timeout 1 s + the watchdog's 3 s margin
    assert "\n" not in str(lost.value) and "cannot be reached" in str(lost.value)
    # the connection cut is replaced: the table goes on, and the stroke cut off was not stored
    assert store.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 7


def test_a_backend_stalled_between_writes_is_given_up_and_the_next_write_stored(postgresql_url):
    store = MatchStore(installed(), Database(postgresql_url))
    match_id = store.create("icf")
    backend = store.scalar("SELECT pg_backend_pid()")   # the pooled connection the next write takes
    os.kill(backend, signal.SIGSTOP)
    resume_later(backend, 20)
    try:
        started = time.monotonic()
        assert store.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 8
        waited = time.monotonic() - started
    finally:
        os.kill(backend, signal.SIGCONT)
    assert waited < 4, waited           # the ping's 2 s, then a new connection


def test_a_stopped_server_ends_a_command_within_seconds_with_one_line(pg_cluster, postgresql_url, tmp_path):
    # a sheet this machine does not hold (made elsewhere): nothing can be kept for it here
    with MatchStore(installed(), Database(postgresql_url)) as elsewhere:
        match_id = elsewhere.create("icf")
    (tmp_path / "s.yaml").write_text("{pocketed: {own: 1}}\n")
    postmaster = _postmaster(pg_cluster)
    os.kill(postmaster, signal.SIGSTOP)
    try:
        started = time.monotonic()
        done = run_cli("matches", "play", str(match_id), str(tmp_path / "s.yaml"), timeout=60,
                       env={"CARROM_REFEREE_DATABASE": postgresql_url})
        waited = time.monotonic() - started
    finally:
        os.kill(postmaster, signal.SIGCONT)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert waited < 15, waited          # connect timeout 5 s, and the program's start
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be reached" in lines[0], done.stderr


def test_the_watchdog_thread_ends_with_its_database(postgresql_url):
    import threading

    database = Database(postgresql_url)
    with database.read() as conn:
        conn.exec_driver_sql("SELECT 1")
    watcher = database.watchdog._thread
    assert watcher is not None and watcher.is_alive()
    database.close()
    watcher.join(timeout=2)
    assert not watcher.is_alive()
    assert not [t for t in threading.enumerate() if t is watcher]
