"""Writers at once and writers killed mid-write (issue 21, "What failed" 8; kill -9 per store).

Four `matches play` processes on one match are serialised by the write transaction that reads
the board, rules and appends: eight one-coin strokes leave 8, 7, ... 1 coins, each once. A
writer killed with SIGKILL at a random moment loses nothing it had acknowledged, and the file
stays sound (a few iterations here; `benchmarks/bench_records.py --kill N` runs many).
"""
from __future__ import annotations

import importlib.util
import json
import random
import subprocess
from pathlib import Path

import pytest

from support.cli import cli_command
from support.kbcopy import installed

REPO = Path(__file__).resolve().parents[3]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_records", REPO / "benchmarks" / "bench_records.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_four_concurrent_players_on_one_match_rule_each_stroke_on_the_board_the_last_one_left(tmp_path, records_url):
    import os

    from referee_app.core.play.store import MatchStore

    env = dict(os.environ, CARROM_REFEREE_DATABASE=records_url)
    new = subprocess.run(cli_command() + ["matches", "new"], capture_output=True, text=True, env=env, check=True)
    match_id = new.stdout.strip()
    (tmp_path / "two.yaml").write_text("- {pocketed: {own: 1}}\n- {pocketed: {own: 1}}\n")
    procs = [subprocess.Popen(cli_command() + ["matches", "play", match_id, str(tmp_path / "two.yaml"), "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with MatchStore(installed(), records_url) as store:
        rows = store.all("SELECT seq, ruling FROM strokes WHERE match_id = :m ORDER BY id", {"m": int(match_id)})
    left = [json.loads(r["ruling"])["after"]["own_on_board"] for r in rows]
    assert left == [8, 7, 6, 5, 4, 3, 2, 1]
    assert [r["seq"] for r in rows] == list(range(1, 9))


def test_two_stores_in_one_process_never_rule_on_a_stale_board(records_url):
    from referee_app.core.play.store import MatchStore
    from referee_app.core.storage.database import Database

    a, b = MatchStore(installed(), Database(records_url)), MatchStore(installed(), Database(records_url))
    match_id = a.create("icf")
    seen = []
    for i in range(6):
        store = (a, b)[i % 3 == 0]
        seen.append(store.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"])
    assert seen == [8, 7, 6, 5, 4, 3]
    a.undo(match_id)
    assert b.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 3
    assert a.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 2


def test_a_refused_stroke_leaves_the_match_in_memory_as_stored(records_url):
    from referee_app.core.errors import BadInput
    from referee_app.core.play.store import MatchStore

    store = MatchStore(installed(), records_url)
    match_id = store.create("icf")
    store.add_stroke(match_id, {"pocketed": {"own": 2}})
    with pytest.raises(BadInput):
        store.add_stroke(match_id, {"pocketed": {"own": 9}})
    assert store.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 6


@pytest.mark.slow   # its writers are processes started by the benchmark's code, which conftest does not read
@pytest.mark.parametrize("store", ["matches", "forms", "inspections"])
def test_kill_9_mid_write_loses_nothing_acknowledged(tmp_path, store):
    bench = _bench()
    rng = random.Random(store)
    for i in range(3):
        acked, found = bench.kill_run(store, tmp_path / f"{i}.sqlite3", rng)
        assert acked > 0, "the writer never got going"
        assert found >= acked


def test_a_second_database_on_the_same_file_in_one_process_loses_no_write_of_another_process(tmp_path, monkeypatch):
    """POSIX locks belong to the process: a second Database opening the file (reading its header)
    used to drop the first one's SQLite locks, and a write made here then vanished for the other
    processes (found by issue 31's tests: a desk's store and a table's command line)."""
    import os

    from referee_app.core.play.store import MatchStore
    from referee_app.core.storage.database import Database

    path = tmp_path / "records.sqlite3"
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(path))
    env = dict(os.environ)

    def other_process_writes():
        subprocess.run(cli_command() + ["matches", "new"], capture_output=True, text=True, env=env, check=True)

    here = MatchStore(installed(), path)
    here.create()
    other_process_writes()
    second = Database(path)          # another part of this process opens the same records
    here.create()
    other_process_writes()
    here.create()
    listed = subprocess.run(cli_command() + ["matches", "list", "--json"], capture_output=True, text=True, env=env,
                            check=True)
    assert len(json.loads(listed.stdout)) == len(here.list()) == 5
    second.close()
    here.close()
