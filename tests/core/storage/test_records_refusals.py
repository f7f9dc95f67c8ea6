"""Records that are never silently wrong (issue 30): a refusal changes nothing, and a records file
that is only busy, on a full disk or replaced under the app is said to be so, never "damaged".

Each test here failed before its fix: the list of strokes saved its first strokes, a blank name
crashed after saving, a lock or a full disk was called damaged after 10 s, a replaced file took
the writes, 25-25 was accepted, 20-digit numbers and TZ=UTC+24 crashed, the window left -wal/-shm."""
from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest

from referee_app.cli import main
from referee_app.core.storage import db

from support.cli import run_cli
from support.kbcopy import installed

PROTEST = {
    "tournament": "Open de Cannes", "round": 3, "table": 7,
    "players": {"first": "A. Rossi", "second": "B. Dubois"}, "referee": "C. Martin", "ruleset": "icf",
    "board": 4, "announced_at": "2026-05-14T15:42:00+02:00", "board_ended_at": "2026-05-14T15:49:00+02:00",
    "decision": "Queen returned to the centre after the cover stroke", "clause": "icf-fr:3.12.d",
    "facts": "Free text", "lang": "fr",
}
GOOD = {"pocketed": {"own": 1}}


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def ok(*argv):
    code, out, err = run(*argv)
    assert code == 0, (argv, err)
    return out


def rows(path) -> dict:
    """Every row of every table, in order: what "the store is unchanged" means."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: conn.execute(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall() for t in tables}
    finally:
        conn.close()


def write(path, doc) -> str:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.fixture
def kept(records_file, tmp_path):
    """A store holding a match of two strokes, a filed protest, a draft, a paired tournament."""
    ok("matches", "new")
    ok("matches", "play", "1", write(tmp_path / "two.json", [GOOD, GOOD]))
    ok("forms", "new", "protest", write(tmp_path / "p.json", PROTEST))
    ok("forms", "new", "protest", "--draft", write(tmp_path / "d.json", {"tournament": "T"}))
    (tmp_path / "t.yaml").write_text("name: T\nplayers: [A, B, C, D]\n", encoding="utf-8")
    ok("tournament", "new", str(tmp_path / "t.yaml"))
    ok("tournament", "pair", "--id", "1")
    return records_file


def test_a_refused_stroke_in_a_list_saves_none_and_the_mended_list_saves_once(kept, tmp_path):
    before = rows(kept)
    code, _out, err = run("matches", "play", "1", write(tmp_path / "l.json", [GOOD, GOOD, {"pocketed": {"own": "x"}}]))
    assert code == 2 and err.count("\n") == 1
    assert "stroke 3 of" in err and "pocketed.own" in err and "none of the 3 strokes was saved" in err, err
    assert rows(kept) == before
    ok("matches", "play", "1", write(tmp_path / "l.json", [GOOD, GOOD, GOOD]))
    assert json.loads(ok("matches", "list", "--json"))[0]["strokes"] == 5   # 2 kept + 3, never 7


def bad_inputs(tmp_path) -> list[list[str]]:
    """Every command that writes, each given something it must refuse."""
    long = "x" * 30_000
    bad = write(tmp_path / "bad.json", [GOOD, {"pocketed": {"own": -1}}])
    blank = write(tmp_path / "blank.json", {**PROTEST, "players": {"first": "\u0085", "second": "B"}})
    tab = write(tmp_path / "tab.json", {**PROTEST, "referee": "\t"})
    return [
        ["matches", "new", "--ruleset", "nope"],
        ["matches", "play", "1", bad],
        ["matches", "play", "99", write(tmp_path / "g.json", [GOOD])],
        ["matches", "undo", "99"],
        ["forms", "new", "protest", blank],
        ["forms", "new", "protest", tab],
        ["forms", "new", "protest", write(tmp_path / "c.json", {**PROTEST, "clause": "icf-fr:9.99"})],
        ["forms", "set", "1", "players", "{first: ' ', second: B}"],
        ["forms", "set", "1", "referee", "\t"],
        ["forms", "set", "1", "round", "9" * 20],
        ["forms", "set", "1", "no_such_field", "x"],
        ["forms", "file", "2"],
        ["forms", "decide", "99", "upheld"],
        ["forms", "delete", "1"],
        ["forms", "incident", write(tmp_path / "i.json", {"tournament": "T", "round": "x" * 50})],
        ["tournament", "new", write(tmp_path / "tn.json", {"name": "T", "players": ["A", long]})],
        ["tournament", "enter", "1", long],
        ["tournament", "enter", "1", " "],
        ["tournament", "enter", "1", "\u0085"],
        ["tournament", "check-in", "1", "Z"],
        ["tournament", "withdraw", "1", "Z", "--reason", "x"],
        ["tournament", "add-result", "1", "1", "1", "25", "25"],
        ["tournament", "add-result", "1", "1", "1", "999", "3"],
        ["tournament", "add-result", "1", "1", "99999999999999999999", "5", "3"],
        ["tournament", "add-result", "1", "1", "1", "99999999999999999999", "3"],
        ["tournament", "add-result", "1", "1", "1", "--from-sheet"],
        ["tournament", "add-result", "1", "1", "1", "5", "3", "--from-sheet"],
        ["tournament", "add-result", "1", "1", "1"],
        ["matches", "new", "--pairing", "1", "1", "99"],
        ["matches", "new", "--pairing", "99", "1", "1"],
        ["matches", "new", "--pairing", "1", "1", "x"],
        ["matches", "new", "--pairing", "1", "1", "1", "--referee", "R"],
        ["tournament", "choose", "1", "rounds_total", "-3", "--reason", "x"],
        ["tournament", "absent", "1", "Z", "2", "--reason", "x"],
        ["tournament", "move-table", "1", "1", "1", "99999999999999999999", "--reason", "x"],
        ["tournament", "pair", "--id", "99"],
        ["tournament", "import", write(tmp_path / "s.sol", {"x": 1})],
        ["inspect", "--save", write(tmp_path / "in.json", {"kind": "board", "readings": "x"})],
        ["records", "new-store"],
    ]


def test_every_writing_command_refused_changes_no_row(kept, tmp_path):
    from referee_app.core.play.store import MatchStore

    other = tmp_path / "other.sqlite3"   # another machine's records, numbered as this one's
    with MatchStore(installed(), other) as elsewhere:
        elsewhere.add_stroke(elsewhere.create(first_name="Elsewhere"), GOOD)
    before = rows(kept)
    copies = [["db", "copy", "--from", str(other), "--to", str(kept)],
              ["db", "copy", "--from", str(tmp_path / "bad.json"), "--to", str(kept), "--renumber"]]
    for argv in bad_inputs(tmp_path) + copies:
        code, _out, err = run(*argv)
        assert code == 2, (argv, code, err)
        assert err.count("\n") == 1 and "internal error" not in err, (argv, err)
        assert rows(kept) == before, (argv, "changed the store")
    assert json.loads(ok("forms", "list", "--json"))[0]["subject"] == "A. Rossi – B. Dubois"


def test_a_blank_name_is_refused_and_a_retry_saves_no_copy(records_file, tmp_path):
    for blank in (" ", "\t", "\u0085"):
        doc = write(tmp_path / "p.json", {**PROTEST, "players": {"first": blank, "second": "B. Dubois"}})
        for _ in range(2):
            code, _out, err = run("forms", "new", "protest", doc)
            assert code == 2 and "players.first" in err and "internal error" not in err, err
    assert json.loads(ok("forms", "list", "--json")) == []


def hold(path, mode: str):
    """Another process holding the records file (as sqlite3 in a shell would); returns it, once it holds."""
    script = ("import sqlite3, sys, time\n"
              "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
              + ("c.execute('PRAGMA journal_mode = DELETE'); c.execute('PRAGMA locking_mode = EXCLUSIVE');"
                 " c.execute('BEGIN EXCLUSIVE');"
                 " c.execute('SELECT COUNT(*) FROM matches').fetchall()\n" if mode == "all" else
                 "c.execute('BEGIN EXCLUSIVE')\n")
              + "print('held', flush=True)\ntime.sleep(60)\n")
    p = subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "held"
    return p


@pytest.mark.parametrize("mode", ["writes", "all"])
def test_a_file_held_by_another_program_is_busy_within_seconds_never_damaged(kept, mode):
    before = rows(kept)
    p = hold(kept, mode)
    try:
        for argv in (["matches", "new"], ["records", "new-store"], ["records", "new-store", "--force"]):
            start = time.monotonic()
            code, _out, err = run(*argv)
            took = time.monotonic() - start
            assert code == 2 and err.count("\n") == 1, err
            assert "in use by another program" in err and f"(pid {p.pid})" in err, err
            assert "damaged" not in err and "new-store" not in err, err
            assert took < 5, f"busy said after {took:.1f} s"
        assert [f.name for f in kept.parent.iterdir() if ".busy-" in f.name or ".set-aside" in f.name] == []
    finally:
        p.kill()
        p.wait()
    assert rows(kept) == before
    after = run_cli("matches", "list", "--json")   # a fresh process, once the other program is gone
    assert after.returncode == 0 and json.loads(after.stdout)[0]["strokes"] == 2, after.stderr


@pytest.fixture
def small_disk(tmp_path, monkeypatch):
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or os.system(f"mount -t tmpfs -o size=640k tmpfs {folder} 2>/dev/null") != 0:
        pytest.skip("needs the right to mount a small tmpfs")
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(folder / "records.sqlite3"))
    yield folder
    import gc

    gc.collect()
    os.system(f"umount {folder} 2>/dev/null || umount -l {folder}")


def test_a_full_disk_is_said_reads_still_work_and_new_store_leaves_the_file(small_disk, tmp_path):
    path = small_disk / "records.sqlite3"
    ok("matches", "new")
    ok("matches", "play", "1", write(tmp_path / "two.json", [GOOD, GOOD]))
    before = rows(path)
    # a reader keeps the journal's index (-shm) as the window would; then the disk fills up
    reader = sqlite3.connect(path)
    reader.execute("SELECT COUNT(*) FROM matches").fetchall()
    fd = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT)
    with contextlib.suppress(OSError):
        while True:
            os.write(fd, b"\0" * 4096)
    os.close(fd)
    try:
        code, _out, err = run("matches", "new")
        assert code == 2 and f"no space on {small_disk}" in err and "nothing was saved" in err, err
        assert "damaged" not in err
        assert json.loads(ok("matches", "list", "--json"))[0]["strokes"] == 2     # reads still work
        code, _out, err = run("records", "new-store", "--force")
        assert code == 2 and "no space" in err, err
        assert sorted(p.name for p in small_disk.iterdir() if not p.name.startswith("records.sqlite3-")) == \
            ["filler", "records.sqlite3"]
    finally:
        reader.close()
    assert rows(path) == before


def test_new_store_that_cannot_make_the_new_file_puts_the_old_one_back(records_file, monkeypatch):
    records_file.write_bytes(b"not a database at all" * 10)
    before = records_file.read_bytes()

    real, calls = db.connect, []

    def fails(path=None):
        calls.append(path)
        if len(calls) == 1:
            return real(path)   # the check: damaged
        path.write_bytes(b"")   # what SQLite leaves when the disk fills as it starts the file
        raise db.StoreError(path, "full", "no space on /")

    monkeypatch.setattr(db, "connect", fails)
    code, _out, err = run("records", "new-store")
    assert code == 2 and "no space" in err
    assert records_file.read_bytes() == before
    assert [p.name for p in records_file.parent.iterdir() if "damaged-" in p.name] == []


def test_a_file_replaced_under_the_app_stops_before_acknowledging(records_file, tmp_path):
    from referee_app.core.play.store import MatchStore

    store = MatchStore(installed(), records_file)
    mid = store.create()
    store.add_stroke(mid, GOOD)
    copy = tmp_path / "backup.sqlite3"
    with sqlite3.connect(records_file) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    os.replace(copy, records_file)   # a backup restored over it while the store is open
    with pytest.raises(db.StoreError) as refused:
        store.add_strokes(mid, [GOOD] * 5)
    assert refused.value.reason == "replaced" and "replaced" in str(refused.value)
    os.rename(records_file, tmp_path / "moved.sqlite3")
    with pytest.raises(db.StoreError, match="removed or moved"):
        store.add_stroke(mid, GOOD)
    store.close()


def test_numbers_past_the_store_and_caps_are_one_line(kept, tmp_path):
    cases = [
        (["tournament", "add-result", "1", "1", "99999999999999999999", "5", "3"], "table"),
        (["quiz", "--count", "99999999"], "count"),
        (["quiz", "exam", "--pdf", str(tmp_path / "e.pdf"), "--minutes", "99999999999999999999"], "minutes"),
        (["tournament", "enter", "1", "x" * 30_000], "player"),
    ]
    for argv, field in cases:
        start = time.monotonic()
        code, _out, err = run(*argv)
        assert code == 2 and err.count("\n") == 1 and field in err and "internal error" not in err, err
        assert time.monotonic() - start < 10
    assert not (tmp_path / "e.pdf").exists()


def test_one_name_limit_in_a_file_and_as_an_argument(records_file, tmp_path):
    from referee_app.core import validation

    name = "x" * (validation.MAX_NAME + 1)
    code, _out, err = run("tournament", "new", write(tmp_path / "t.json", {"name": "T", "players": ["A", name]}))
    assert code == 2 and f"at most {validation.MAX_NAME}" in err, err


def test_a_path_over_the_system_limit_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / ("x" * 300) / "r.sqlite3"))
    code, _out, err = run("matches", "list")
    assert code == 2 and err.count("\n") == 1 and "File name too long" in err, err


def test_a_zone_a_day_off_utc_neither_crashes_nor_makes_dates_implausible(records_file, tmp_path):
    env = {"TZ": "UTC+24"}
    r = run_cli("matches", "new", env=env)
    assert r.returncode == 0, r.stderr
    doc = {**PROTEST, "announced_at": "2026-05-14T15:42:00", "board_ended_at": "2026-05-14T15:49:00"}
    r = run_cli("forms", "new", "protest", "--json", write(tmp_path / "p.json", doc), env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["deadline"] == "2026-05-15T16:04:00+00:00"   # 15:49 a day behind UTC, +15 min


def test_the_desk_refuses_both_sides_at_the_end_naming_the_clause(kept):
    end = installed().ffc.match_points
    code, _out, err = run("tournament", "add-result", "1", "1", "1", end, end)
    assert code == 2 and installed().ffc.clauses["points"] in err, err
    ok("tournament", "add-result", "1", "1", "1", end, end - 1)


def test_the_desk_refuses_a_score_over_the_games_cap_naming_the_clauses(kept):
    # a game to 25 (ffc-tournament 1.6) is won from at most 24 by one board of at most 12 (icf-fr
    # 3.7 d, the tournament's ruleset, the default): 36 at most
    k = installed()
    end, rs = k.ffc.match_points, k.compiled(k.default_ruleset)
    most = end - 1 + rs.params["board_cap"]
    before = rows(kept)
    code, _out, err = run("tournament", "add-result", "1", "1", "1", 3, most + 1)
    assert code == 2 and err.count("\n") == 1, err
    assert k.ffc.clauses["points"] in err and rs.param_clauses["board_cap"] in err and str(most) in err, err
    assert rows(kept) == before
    ok("tournament", "add-result", "1", "1", "1", 3, most)


def test_the_window_closes_its_records_without_journal_files(records_file):
    from referee_app.ui.app import close_records
    from referee_app.ui.common import records_source
    from referee_app.core.play.store import MatchStore

    store = MatchStore(installed(), records_source.records_database())
    store.add_stroke(store.create(), GOOD)
    assert records_file.with_name(records_file.name + "-wal").exists()
    close_records()
    assert [p.name for p in records_file.parent.iterdir() if p.name.startswith(records_file.name)] == \
        [records_file.name]


def test_names_have_one_limit_in_a_match_header_and_a_form(records_file, tmp_path):
    from referee_app.core import validation

    name = "x" * (validation.MAX_NAME + 1)
    before = rows(records_file) if records_file.exists() else None
    for argv in (["matches", "new", "--first-name", name],
                 ["forms", "new", "protest", write(tmp_path / "p.json", {**PROTEST, "referee": name})],
                 ["forms", "new", "protest", write(tmp_path / "q.json", {**PROTEST, "players": {"first": name,
                                                                                               "second": "B"}})]):
        code, _out, err = run(*argv)
        assert code == 2 and f"at most {validation.MAX_NAME}" in err, (argv, err)
    assert before is None or rows(records_file) == before
    assert json.loads(ok("forms", "list", "--json")) == [] and json.loads(ok("matches", "list", "--json")) == []


def test_the_window_offers_to_try_again_never_to_set_aside_a_busy_file(records_file, monkeypatch, qapp):
    from referee_app.ui.common import records, records_source

    assert run_cli("matches", "new").returncode == 0   # in another process: this one holds no connection
    records_source.forget()
    p = hold(records_file, "all")
    asked, offered = [], []
    monkeypatch.setattr(records, "ask_new_store", lambda exc, parent=None: offered.append(exc.reason) or True)

    def retry_once_then_quit(exc, parent=None):
        asked.append(exc.reason)
        return len(asked) < 2

    monkeypatch.setattr(records, "ask_retry_open", retry_once_then_quit)
    try:
        assert records.ensure_records() is False
    finally:
        p.kill()
        p.wait()
        records_source.forget()
    assert asked == ["busy", "busy"] and offered == []
    assert [f.name for f in records_file.parent.iterdir() if "-busy-" in f.name or "set-aside" in f.name] == []


def test_a_full_disk_with_the_app_closed_still_reads_every_record(small_disk, tmp_path):
    path = small_disk / "records.sqlite3"
    env = {"CARROM_REFEREE_DATABASE": str(path)}
    # in other processes, closed as a user's commands are: no journal is left beside the file
    assert run_cli("matches", "new", env=env).returncode == 0
    assert run_cli("matches", "play", "1", write(tmp_path / "two.json", [GOOD, GOOD]), env=env).returncode == 0
    assert sorted(p.name for p in small_disk.iterdir()) == ["records.sqlite3"]
    before = rows(path)
    fd = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT)
    with contextlib.suppress(OSError):
        while True:
            os.write(fd, b"\0" * 4096)
    os.close(fd)
    assert json.loads(ok("matches", "list", "--json"))[0]["strokes"] == 2
    assert json.loads(ok("matches", "show", "1", "--json"))["meta"]["id"] == 1
    code, _out, err = run("matches", "new")
    assert code == 2 and "no space on" in err and "damaged" not in err, err
    code, _out, err = run("records", "new-store", "--force")
    assert code == 2 and "no space on" in err, err
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "records.sqlite3"]   # no stub left
    (small_disk / "filler").unlink()
    assert rows(path) == before


@pytest.fixture
def a_day_behind_utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC+24")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_zone_a_day_off_utc_in_this_process_the_window_field_too(a_day_behind_utc, qapp):
    from datetime import datetime, timezone

    from referee_app.core.forms.fields import parse_time
    from referee_app.core.storage.db import local_now
    from referee_app.ui.forms.fields import TimeField   # the window's date and time field

    assert abs((local_now() - datetime.now(timezone.utc)).total_seconds()) < 5
    assert parse_time("2026-05-14T15:42:00", "at") == datetime(2026, 5, 15, 15, 42, tzinfo=timezone.utc)
    field = TimeField(local_now)
    field.set_value("2026-05-14T15:42:00+02:00")   # shown on the wall clock, read back the same moment
    assert parse_time(field.value(), "at") == datetime(2026, 5, 14, 13, 42, tzinfo=timezone.utc)
