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
