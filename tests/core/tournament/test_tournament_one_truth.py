"""One truth per round (issue 31, "What breaks" 1 and 2): desks pairing at the same moment leave
one round, the others told in one line who paired it; `tournament check` reports a round stored
wrong (a player twice, a player missing) instead of crashing; a database where a round was
already doubled is mended by the migration, setting copies aside and saying so in the journal.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import time

import pytest

from core.storage.test_db_roles import Club
from support.cli import cli_command, run_cli
from support.kbcopy import installed

PLAYERS = [f"P{i}" for i in range(1, 9)]


def _store(url):
    from referee_app.core.tournament.store import TournamentStore

    return TournamentStore(installed(), url)


def _waiting(cluster, database: str) -> int:
    with cluster.connect() as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                            (database,)).fetchone()[0]


@pytest.fixture
def club(pg_cluster, postgresql_url):
    return Club(pg_cluster, postgresql_url)


def test_desks_pairing_at_once_leave_one_round_and_the_others_are_told_who_paired_it(club):
    desk = _store(club.desk)
    tid = desk.create("Open de Cannes", PLAYERS, "icf")
    env = dict(os.environ, CARROM_REFEREE_DATABASE=club.desk, QT_QPA_PLATFORM="offscreen")
    # widen the race: every desk reads the tournament while the tables are held, then all go at once
    holder = club.cluster.connect(club.name, autocommit=False)
    holder.execute("LOCK TABLE tournament_games IN ACCESS EXCLUSIVE MODE")
    procs = [subprocess.Popen(cli_command() + ["tournament", "pair", "--id", str(tid), "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(4)]
    try:
        deadline = time.monotonic() + 60
        while _waiting(club.cluster, club.name) < len(procs) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _waiting(club.cluster, club.name) == len(procs), "the desks did not all reach the held tables"
    finally:
        holder.rollback()
        holder.close()
    outputs = [p.communicate(timeout=120) for p in procs]
    done = [(p.returncode, out, err) for p, (out, err) in zip(procs, outputs)]
    paired = [out for code, out, _err in done if code == 0]
    told = [err for code, _out, err in done if code != 0]
    assert len(paired) == 1, done
    assert json.loads(paired[0])["round"] == 1
    assert len(told) == 3 and all(code == 2 for code, _o, _e in done if code != 0), done
    for err in told:
        assert err.count("\n") == 1, err
        assert re.fullmatch(rf"carrom-referee: round 1 was paired meanwhile by {club.desk_login} at \d\d:\d\d: "
                            r"nothing was changed\n", err), err
    games = desk.round_games(tid, 1)
    seated = [p for g in games for p in (g["first"], g["second"])]
    assert len(games) == 4 and sorted(seated) == sorted(PLAYERS)
    assert [e["action"] for e in desk.log(tid)] == ["create", "pair"]
    check = run_cli("tournament", "check", "--id", str(tid), "--json", env={"CARROM_REFEREE_DATABASE": club.desk})
    assert check.returncode == 0 and json.loads(check.stdout)["ok"], check.stdout + check.stderr


def test_two_tables_entering_one_result_at_once_the_second_is_told_who_entered_it(club):
    """What the issue saw as `no table 2 in round 6`."""
    desk = _store(club.desk)
    tid = desk.create("Open de Cannes", PLAYERS[:4], "icf")
    desk.pair(tid, seed=1)
    env = dict(os.environ, CARROM_REFEREE_DATABASE=club.table, QT_QPA_PLATFORM="offscreen")
    holder = club.cluster.connect(club.name, autocommit=False)
    holder.execute("LOCK TABLE tournament_games IN ACCESS EXCLUSIVE MODE")
    procs = [subprocess.Popen(cli_command() + ["tournament", "add-result", str(tid), "1", "2", *score],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for score in (("25", "4"), ("4", "25"))]
    try:
        deadline = time.monotonic() + 60
        while _waiting(club.cluster, club.name) < len(procs) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        holder.rollback()
        holder.close()
    outputs = [p.communicate(timeout=120) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert codes == [0, 2], outputs
    told = next(err for p, (_out, err) in zip(procs, outputs) if p.returncode == 2)
    assert re.fullmatch(rf"carrom-referee: the result of table 2 in round 1 was entered meanwhile by "
                        rf"{club.table_login} at \d\d:\d\d: only the desk may change it\n", told), told
    assert [e["action"] for e in desk.log(tid)] == ["create", "pair", "result"]


def test_a_second_copy_of_a_paired_game_is_refused_by_the_database_itself(records_url):
    """The unique index, whatever a writer does without the store's lock."""
    from referee_app.core.errors import BadInput

    desk = _store(records_url)
    tid = desk.create("Open", PLAYERS[:4], "icf")
    desk.pair(tid, seed=1)
    with pytest.raises(BadInput):
        desk.write("INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, entered_at) "
                   "VALUES (:t, 1, 0, 1, 'P1', 'P2', 'now')", {"t": tid})
    assert len(desk.round_games(tid, 1)) == 2


def test_a_desk_that_read_an_older_tournament_is_told_the_round_was_paired_meanwhile(records_url):
    from referee_app.core.storage.refusals import Meanwhile

    first, second = _store(records_url), _store(records_url)
    tid = first.create("Open", PLAYERS[:4], "icf")
    seen = second.load(tid)
    real_load = second.load
    calls = iter([seen])
    # the second desk read the tournament before the first paired it (what the lock then sees anew)
    second.load = lambda t: next(calls, None) or real_load(t)
    first.pair(tid, seed=1)
    with pytest.raises(Meanwhile, match=r"^round 1 was paired meanwhile by .* at \d\d:\d\d: nothing was changed$"):
        second.pair(tid, seed=2)
    assert len(first.round_games(tid, 1)) == 2 and first.round_games(tid, 2) == []


def test_check_reports_a_player_twice_or_missing_in_a_stored_round_and_never_crashes(records_url):
    desk = _store(records_url)
    tid = desk.create("Open", PLAYERS[:4], "icf")
    desk.pair(tid, seed=1)
    games = desk.round_games(tid, 1)
    # what the issue found: a game set aside by hand (its players then play nowhere), then another
    # table where a player plays again
    desk.write("UPDATE tournament_games SET superseded_at = 'by hand' WHERE id = :id", {"id": games[1]["id"]})
    done = run_cli("tournament", "check", "--id", str(tid), "--json", env={"CARROM_REFEREE_DATABASE": records_url})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert not report["ok"]
    missing = {games[1]["first"], games[1]["second"]}
    assert {p["player"] for p in report["problems"]} == missing
    assert all(p["message"].endswith("does not play") for p in report["problems"])
    desk.write("INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, entered_at) "
               "VALUES (:t, 1, 0, 3, :a, :b, 'now')", {"t": tid, "a": games[0]["first"], "b": games[1]["first"]})
    report = json.loads(run_cli("tournament", "check", "--id", str(tid), "--json",
                                env={"CARROM_REFEREE_DATABASE": records_url}).stdout)
    twice = [p for p in report["problems"] if "twice" in p["message"]]
    assert [p["player"] for p in twice] == [games[0]["first"]] and twice[0]["tables"] == [games[0]["table_no"], 3]


def test_the_migration_sets_aside_a_round_paired_twice_keeping_the_results(tmp_path):
    """A records database of the version before, where two desks both paired round 1."""
    from referee_app.core.storage import migrations
    from referee_app.core.storage.database import Database

    path = tmp_path / "records.sqlite3"
    database = Database(path, migrate=False)
    with database.begin() as conn:
        migrations.upgrade(conn, "0003")
        conn.exec_driver_sql("INSERT INTO tournaments (id, name, ruleset, created_at) VALUES (1, 'Open', 'icf', 'x')")
        for seq, p in enumerate(PLAYERS[:4], 1):
            conn.exec_driver_sql("INSERT INTO tournament_entries (tournament_id, seq, name, checked_in, first_round) "
                                 f"VALUES (1, {seq}, '{p}', 1, 1)")
        rows = [(1, "P1", "P2", None), (2, "P3", "P4", None),      # the first desk's round 1
                (1, "P1", "P3", None), (2, "P2", "P4", 25)]         # the second's, a result already on it
        for table, a, b, score in rows:
            conn.exec_driver_sql("INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, "
                                 f"score_first, score_second, entered_at) VALUES (1, 1, 0, {table}, '{a}', '{b}', "
                                 f"{score or 'NULL'}, {0 if score else 'NULL'}, 'x')")
    database.close()
    store = _store(path)     # opened at this version: upgraded
    kept = [(g["table_no"], g["first"], g["second"]) for g in store.round_games(1, 1)]
    assert kept == [(1, "P1", "P3"), (2, "P2", "P4")]      # the round that has a result, whole
    aside = [e for e in store.log(1) if e["action"] == "set_aside"]
    assert [(e["table"], e["detail"]["players"]) for e in aside] == [(1, ["P1", "P2"]), (2, ["P3", "P4"])]


@pytest.mark.parametrize("seed", range(12))
def test_check_and_show_never_crash_on_rows_written_by_hand(tmp_path, seed):
    """Rows hidden, doubled, naming a stranger, a player against himself, in a round never paired,
    scored anyhow: `check` reports, `show` shows, neither crashes."""
    import random

    from referee_app.core.errors import BadInput
    from referee_app.core.tournament.checker import check

    rnd = random.Random(seed)
    store = _store(tmp_path / "records.sqlite3")
    tid = store.create("T", PLAYERS[:rnd.randint(2, 7)], "icf")
    store.pair(tid, seed=seed)
    for _ in range(rnd.randint(1, 5)):
        games = store.all("SELECT * FROM tournament_games WHERE tournament_id = :t AND superseded_at IS NULL",
                          {"t": tid})
        if not games:
            break
        g = rnd.choice(games)
        op = rnd.choice(["hide", "double", "stranger", "himself", "ghosts", "round 3", "score"])
        if op == "hide":
            store.write("UPDATE tournament_games SET superseded_at = 'x' WHERE id = :i", {"i": g["id"]})
        elif op == "score":
            store.write("UPDATE tournament_games SET score_first = :a, score_second = :b WHERE id = :i",
                        {"i": g["id"], "a": rnd.randint(0, 30), "b": rnd.randint(0, 30)})
        else:
            a, b = {"double": (g["first"], g["second"]), "stranger": ("Zed", g["first"]),
                    "himself": (g["first"], g["first"]), "ghosts": (None, None),
                    "round 3": (g["first"], g["second"])}[op]
            store.write("INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, "
                        "score_first, score_second, entered_at) VALUES (:t, :r, 0, :table, :a, :b, :sa, :sb, 'x')",
                        {"t": tid, "r": 3 if op == "round 3" else 1, "table": 10 + rnd.randint(0, 40), "a": a, "b": b,
                         "sa": rnd.choice([None, 25]), "sb": 3})
    try:
        report = check(store.load(tid))
    except BadInput:
        return                    # said in one line: a refusal, not a crash
    assert isinstance(report["ok"], bool)
    store.show(tid)


def test_db_migrate_on_a_shared_server_mends_a_doubled_round_and_the_tables_keep_entering_results(
        pg_cluster, empty_postgresql_url):
    """A club's server at the version before: `db init` made the roles, two desks paired round 1
    at once. `db migrate` sets one copy aside and gives the journal its grants, so that a table
    enters its result as before."""
    from referee_app.core.storage import migrations, roles
    from referee_app.core.storage.database import Database
    from urllib.parse import unquote, urlparse

    url = empty_postgresql_url
    database = Database(url, migrate=False)
    with database.begin() as conn:
        migrations.upgrade(conn, "0003")
    with database.begin() as conn:
        roles.apply(conn)
        conn.exec_driver_sql("INSERT INTO tournaments (id, name, ruleset, created_at) VALUES (1, 'Open', 'icf', 'x')")
        for seq, p in enumerate(PLAYERS[:4], 1):
            conn.exec_driver_sql("INSERT INTO tournament_entries (tournament_id, seq, name, checked_in, first_round) "
                                 f"VALUES (1, {seq}, '{p}', 1, 1)")
        for table, a, b in ((1, "P1", "P2"), (2, "P3", "P4"), (1, "P1", "P3"), (2, "P2", "P4")):
            conn.exec_driver_sql("INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, "
                                 f"entered_at) VALUES (1, 1, 0, {table}, '{a}', '{b}', 'x')")
    database.close()
    done = run_cli("db", "migrate", url, "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["migrations_applied"] == list(migrations.REVISIONS[3:]) and answer["roles"]["created"] == []
    name = unquote(urlparse(url).path.lstrip("/"))
    with pg_cluster.connect() as conn:
        conn.execute("CREATE ROLE table_after_migrate LOGIN IN ROLE carrom_table")
    table = _store(pg_cluster.url(name, "table_after_migrate"))
    assert [(g["first"], g["second"]) for g in table.round_games(1, 1)] == [("P1", "P2"), ("P3", "P4")]
    table.result(1, 1, 2, [25, 11])
    log = _store(url).log(1)
    assert [e["action"] for e in log] == ["set_aside", "set_aside", "result"]
    assert log[-1]["login"] == "table_after_migrate"
