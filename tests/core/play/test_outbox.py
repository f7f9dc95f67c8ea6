"""Tables keep scoring offline (issue 31, "What breaks" 5): strokes on a sheet the machine holds
are kept in its outbox while the server is out of reach, sent in order, each exactly once, when
it is back (even when the sender is killed mid-send); what the server refuses meanwhile is kept
and shown, never dropped; pairings seen stay readable offline."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time

import pytest

from referee_app.core.play.outbox import Outbox
from referee_app.core.play.store import MatchStore
from referee_app.core.storage.database import Database, shown
from support.cli import cli_command, run_cli
from support.kbcopy import installed

ONE = {"pocketed": {"own": 1}}


@pytest.fixture
def table(tmp_path, pg_cluster, postgresql_url):
    """A table machine: its own data folder (the outbox), the shared server's URL."""
    env = {"CARROM_REFEREE_DATABASE": postgresql_url, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    (tmp_path / "one.yaml").write_text("{pocketed: {own: 1}}\n")
    yield env
    if not pg_cluster.running:
        pg_cluster.resume()


def validate(document, pointer: str) -> None:
    """The document against a schema of referee_app/schemas (`db.json#/$defs/sync`)."""
    import jsonschema
    from referencing import Registry, Resource

    from support.cli import REPO

    schemas = [json.loads(p.read_text(encoding="utf-8")) for p in (REPO / "referee_app" / "schemas").glob("*.json")]
    registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in schemas])
    validator = jsonschema.Draft202012Validator({"$ref": "https://carrom-referee.example/schemas/" + pointer},
                                                registry=registry)
    assert not list(validator.iter_errors(document))


def _cli(env, *args, timeout=60):
    return run_cli(*args, env=env, timeout=timeout)


def _server_strokes(url, match_id):
    with MatchStore(installed(), Database(url)) as store:
        return store.all("SELECT seq, client_id, ruling FROM strokes WHERE match_id = :m AND superseded_at IS NULL "
                         "ORDER BY seq", {"m": match_id})


def _outbox(env) -> Outbox:
    return Outbox(os.path.join(env["XDG_DATA_HOME"], "carrom-referee", "outbox.sqlite3"))


def test_through_a_server_stop_and_restart_every_stroke_is_sent_exactly_once(table, tmp_path, pg_cluster,
                                                                             postgresql_url):
    match_id = int(_cli(table, "matches", "new").stdout)
    one = str(tmp_path / "one.yaml")
    assert _cli(table, "matches", "play", str(match_id), one).returncode == 0
    pg_cluster.halt()
    for n in range(3):
        done = _cli(table, "matches", "play", str(match_id), one, "--json")
        assert done.returncode == 0, done.stderr
        ruling = json.loads(done.stdout)[0]
        assert ruling["kept_offline"] is True and ruling["after"]["own_on_board"] == 7 - n
        assert len(done.stderr.strip().splitlines()) == 1 and "kept on this machine" in done.stderr
    # a sheet the machine does not hold cannot be kept: said in one line, nothing kept
    other = _cli(table, "matches", "play", str(match_id + 1), one)
    assert other.returncode == 2 and len(other.stderr.strip().splitlines()) == 1
    waiting = _cli(table, "db", "sync", "--json")
    assert waiting.returncode == 2 and json.loads(waiting.stdout)["waiting"] == 3
    pg_cluster.resume()
    sent = _cli(table, "db", "sync", "--json")
    assert sent.returncode == 0, sent.stderr
    assert json.loads(sent.stdout) == {"sent": 3, "waiting": 0, "refused": []}
    assert json.loads(_cli(table, "db", "sync", "--json").stdout)["sent"] == 0
    rows = _server_strokes(postgresql_url, match_id)
    assert [json.loads(r["ruling"])["after"]["own_on_board"] for r in rows] == [8, 7, 6, 5]
    assert len({r["client_id"] for r in rows}) == 4 and all(r["client_id"] for r in rows)


def test_the_next_command_that_reaches_the_server_sends_the_waiting_strokes_first(table, tmp_path, pg_cluster,
                                                                                  postgresql_url):
    match_id = int(_cli(table, "matches", "new").stdout)
    one = str(tmp_path / "one.yaml")
    pg_cluster.halt()
    assert _cli(table, "matches", "play", str(match_id), one).returncode == 0
    pg_cluster.resume()
    done = _cli(table, "matches", "play", str(match_id), one, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["after"]["own_on_board"] == 7 and "kept_offline" not in done.stdout
    assert [json.loads(r["ruling"])["after"]["own_on_board"] for r in _server_strokes(postgresql_url, match_id)] == [8, 7]


def test_a_sender_killed_mid_send_sends_each_stroke_once(table, pg_cluster, postgresql_url):
    knowledge = installed()
    store = MatchStore(knowledge, Database(postgresql_url))
    match_id = store.create("icf")
    outbox = _outbox(table)
    server = shown(postgresql_url)
    outbox.refresh(store, match_id)
    for _ in range(12):   # strokes that leave the board as it was: a sheet as long as one likes
        outbox.keep(knowledge, server, match_id, [{"pocketed": {}}])
    # killed between the server's commit and the outbox's mark: the server has it, the outbox does not know
    real_mark = Outbox._mark
    calls = []

    def killed(self, client_id, status, problem=None):
        calls.append(client_id)
        if len(calls) == 2:
            raise KeyboardInterrupt   # the process ends here, as a kill would end it
        real_mark(self, client_id, status, problem)

    Outbox._mark = killed
    try:
        with pytest.raises(KeyboardInterrupt):
            outbox.sync(store)
    finally:
        Outbox._mark = real_mark
    # and killed for real (SIGKILL) at random moments while sending
    rng = random.Random(31)
    env = dict(os.environ, **table)
    for _ in range(4):
        proc = subprocess.Popen(cli_command() + ["db", "sync", "--json"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    final = _cli(table, "db", "sync", "--json")
    assert final.returncode == 0, final.stderr
    assert json.loads(final.stdout)["waiting"] == 0
    rows = _server_strokes(postgresql_url, match_id)
    assert len(rows) == 12 and [r["seq"] for r in rows] == list(range(1, 13))
    assert len(calls) >= 2                      # the first sending did reach the server
    assert sorted(r["client_id"] for r in rows) == sorted(r["client_id"] for r in kept_ids(outbox, server))


def kept_ids(outbox, server):
    return [{"client_id": r[0]} for r in outbox._run("SELECT client_id FROM strokes WHERE server = ?", (server,))]


def test_a_stroke_the_server_refuses_meanwhile_is_kept_and_shown(table, tmp_path, pg_cluster, postgresql_url):
    from core.storage.test_db_roles import Club

    club = Club(pg_cluster, postgresql_url)      # a table's login, and the desk's
    table = dict(table, CARROM_REFEREE_DATABASE=club.table)
    desk, _as_table, tid = club.tournament()
    made = _cli(table, "matches", "new", "--pairing", str(tid), "1", "1", "--json")
    assert made.returncode == 0, made.stderr
    match_id = json.loads(made.stdout)["id"]
    assert _cli(table, "matches", "new", "--pairing", str(tid), "1", "1").stdout.strip() == str(match_id)
    pg_cluster.halt()
    assert _cli(table, "matches", "play", str(match_id), str(tmp_path / "one.yaml")).returncode == 0
    pg_cluster.resume()
    desk.result(tid, 1, 1, [13, 0])    # the desk types the result meanwhile: the sheet is closed to the tables
    synced = _cli(table, "db", "sync", "--json")
    assert synced.returncode == 0, synced.stderr
    out = json.loads(synced.stdout)
    validate(out, "db.json#/$defs/sync")
    assert (out["sent"], out["waiting"], len(out["refused"])) == (0, 0, 1)
    assert "only the desk may change the score sheet of a game whose result is entered" in out["refused"][0]["problem"]
    assert out["refused"][0]["stroke"] == ONE
    # never dropped: still shown by the next sync
    assert len(json.loads(_cli(table, "db", "sync", "--json").stdout)["refused"]) == 1
    assert _server_strokes(postgresql_url, match_id) == []


def test_pairings_seen_stay_readable_offline(table, pg_cluster, postgresql_url):
    from referee_app.core.tournament.store import TournamentStore

    tournaments = TournamentStore(installed(), Database(postgresql_url))
    tid = tournaments.create("Open", ["Anna", "Bela", "Carl", "Dora"], "icf")
    tournaments.pair(tid, seed=1)
    online = _cli(table, "tournament", "show", str(tid), "--json")
    assert online.returncode == 0, online.stderr
    pg_cluster.halt()
    offline = _cli(table, "tournament", "show", str(tid), "--json")
    assert offline.returncode == 0, offline.stderr
    assert json.loads(offline.stdout) == json.loads(online.stdout)
    assert "last saw" in offline.stderr


def test_an_undo_takes_back_the_stroke_on_the_sheet_not_one_the_server_held_before(table, tmp_path, pg_cluster,
                                                                                   postgresql_url):
    match_id = int(_cli(table, "matches", "new").stdout)
    (tmp_path / "two.yaml").write_text("{pocketed: {own: 2}}\n")
    assert _cli(table, "matches", "play", str(match_id), str(tmp_path / "one.yaml")).returncode == 0
    pg_cluster.halt()
    assert _cli(table, "matches", "play", str(match_id), str(tmp_path / "two.yaml")).returncode == 0
    refused = _cli(table, "matches", "undo", str(match_id))
    assert refused.returncode == 2 and "cannot be reached" in refused.stderr     # nothing undone while away
    pg_cluster.resume()
    undone = _cli(table, "matches", "undo", str(match_id), "--json")
    assert undone.returncode == 0, undone.stderr
    assert json.loads(undone.stdout)["undone"] == {"pocketed": {"own": 2}}, "the kept stroke, sent first, then undone"
    assert [json.loads(r["ruling"])["after"]["own_on_board"] for r in _server_strokes(postgresql_url, match_id)] == [8]
    # the sheet as held here follows: a stroke kept now is ruled on 8 coins left, not 6
    pg_cluster.halt()
    kept = _cli(table, "matches", "play", str(match_id), str(tmp_path / "one.yaml"), "--json")
    assert json.loads(kept.stdout)[0]["after"]["own_on_board"] == 7
