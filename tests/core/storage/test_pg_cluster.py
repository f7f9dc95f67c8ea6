"""The throwaway PostgreSQL cluster the tests run on: private, and a fresh database per test."""
from __future__ import annotations

import pytest


def _tables(url: str) -> set[str]:
    import psycopg

    with psycopg.connect(url) as conn:
        return {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}


@pytest.mark.parametrize("round_", [1, 2])
def test_each_test_gets_a_fresh_database(postgresql_url, round_):
    import psycopg

    # both rounds create the same table: the second would fail if it saw the first's database
    assert "left_behind" not in _tables(postgresql_url)
    with psycopg.connect(postgresql_url) as conn:
        conn.execute("CREATE TABLE left_behind (x integer)")
    assert "left_behind" in _tables(postgresql_url)


def test_the_cluster_listens_on_its_own_socket_only(pg_cluster):
    with pg_cluster.connect() as conn:
        assert conn.execute("SHOW listen_addresses").fetchone()[0] == ""
        socket_dirs = conn.execute("SHOW unix_socket_directories").fetchone()[0]
        assert socket_dirs == str(pg_cluster.folder)
        assert conn.execute("SHOW fsync").fetchone()[0] == "off"



def _running(pid: int) -> bool:
    """Whether a process runs (a zombie whose parent has not reaped it yet has ended)."""
    try:
        status = open(f"/proc/{pid}/status").read()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def _server_pid(folder) -> int:
    return int((folder / "data" / "postmaster.pid").read_text().split()[0])


def test_a_killed_run_leaves_no_server_behind(pg_cluster):
    import subprocess
    import sys
    import time
    from pathlib import Path

    from support.pg_cluster import reap_orphans

    # a test run killed outright (no teardown) while its cluster is up: its process is gone
    starter = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, 'tests'); from support.pg_cluster import Cluster; "
                               "print(Cluster().start().folder, flush=True)"],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[3])
    folder = Path(starter.stdout.strip())
    assert (folder / "data" / "postmaster.pid").exists(), starter.stderr
    server = _server_pid(folder)
    assert _running(server)
    reap_orphans()
    assert not folder.exists()
    deadline = time.monotonic() + 10
    while _running(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(server), "the killed run's server was left running"
    assert pg_cluster.folder.exists() and _running(_server_pid(pg_cluster.folder))   # a live run's is left alone
