"""The records database refuses what is not its own, damaged or newer, names the file and says what
to do, never writes into it, and can start anew with the old file moved aside untouched
(issue 21, "What failed" 6 and 7). Stored values that can no longer be read never stop a listing."""
from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import sqlite3

import pytest

from referee_app.cli import main
from referee_app.core.storage import database, db
from support.kbcopy import installed


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


RECORD_COMMANDS = [["matches", "list"], ["matches", "new"], ["forms", "list"], ["forms", "incidents"],
                   ["inspections", "list"], ["matches", "show", "1"]]


def a_sound_store(path):
    code, _out, err = run("matches", "new", "--first-name", "A")
    assert code == 0, err
    for _ in range(40):
        run("matches", "new")
    return path.read_bytes()


def assert_refused_untouched(path, words):
    before = path.read_bytes() if path.is_file() else None
    for argv in RECORD_COMMANDS:
        code, _out, err = run(*argv)
        assert code == 2, (argv, err)
        assert err.count("\n") == 1 and "internal error" not in err, err
        assert str(path) in err and words in err, err
        assert "records new-store" in err or "CARROM_REFEREE_DATABASE" in err or "permission" in err or "folder" in err, err
    if before is not None:
        assert path.read_bytes() == before, "a refused file is never written into"


def test_garbage_is_refused(records_file):
    records_file.write_bytes(os.urandom(5000))
    assert_refused_untouched(records_file, "not an SQLite database")


def test_a_database_cut_in_half_is_refused(records_file):
    data = a_sound_store(records_file)
    for side in ("-wal", "-shm"):
        records_file.with_name(records_file.name + side).unlink(missing_ok=True)
    records_file.write_bytes(data[:len(data) // 2])
    assert_refused_untouched(records_file, "damaged")


def test_a_directory_is_refused(records_file):
    records_file.mkdir()
    assert_refused_untouched(records_file, "not a regular file")


def test_a_foreign_sqlite_file_is_never_written_into(records_file):
    conn = sqlite3.connect(records_file)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    assert_refused_untouched(records_file, "not a carrom-referee records database")
    tables = {r[0] for r in sqlite3.connect(records_file).execute("SELECT name FROM sqlite_master")}
    assert tables == {"photos"}


def test_a_newer_schema_is_refused_not_written_as_if_current(records_file):
    a_sound_store(records_file)
    conn = sqlite3.connect(records_file)
    conn.execute("PRAGMA user_version = 99")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert_refused_untouched(records_file, "schema version 99")


def test_a_read_only_store_is_refused_with_advice(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        # root writes through file modes: a read-only mount is what stops it
        if os.system(f"mount -t tmpfs -o size=1m tmpfs {folder} 2>/dev/null") != 0:
            pytest.skip("running as root without the right to mount a read-only tmpfs")
        try:
            monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(folder / "records.sqlite3"))
            a_sound_store(folder / "records.sqlite3")
            gc.collect()  # the commands' connections, or the mount stays busy
            assert os.system(f"mount -o remount,ro {folder}") == 0
            code, _out, err = run("matches", "list")
            assert code == 2 and "read-only" in err and "internal error" not in err, err
        finally:
            gc.collect()
            os.system(f"umount {folder} 2>/dev/null || umount -l {folder}")
        return
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(folder / "records.sqlite3"))
    a_sound_store(folder / "records.sqlite3")
    folder.chmod(0o500)
    try:
        code, _out, err = run("matches", "list")
        assert code == 2 and "read-only" in err and "internal error" not in err, err
    finally:
        folder.chmod(0o700)


def test_new_store_moves_the_old_file_aside_untouched(records_file):
    records_file.write_bytes(b"not a database at all, but someone's data" * 10)
    before = records_file.read_bytes()
    code, out, err = run("records", "new-store", "--json")
    assert code == 0, err
    moved = json.loads(out)["moved_to"]
    assert open(moved, "rb").read() == before
    assert run("matches", "new")[0] == 0
    assert run("records", "check")[0] == 0


def test_new_store_refuses_to_set_aside_a_sound_file(records_file):
    a_sound_store(records_file)
    code, _out, err = run("records", "new-store")
    assert code == 2 and "sound" in err


def test_a_new_store_is_marked_as_the_apps(records_file):
    a_sound_store(records_file)
    conn = sqlite3.connect(records_file)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == db.APPLICATION_ID
    # user_version 2: the schema is Alembic's (alembic_version), and the versions before refuse it as newer
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    from referee_app.core.storage import migrations
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == migrations.HEAD


def test_an_older_unmarked_store_is_upgraded_in_place(records_file):
    """The first versions wrote no application_id and fewer columns: their records stay readable."""
    conn = sqlite3.connect(records_file)
    conn.executescript("""
        CREATE TABLE matches (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, ruleset TEXT NOT NULL,
                              first_name TEXT NOT NULL DEFAULT '', second_name TEXT NOT NULL DEFAULT '');
        CREATE TABLE strokes (id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL REFERENCES matches(id),
                              seq INTEGER NOT NULL, stroke TEXT NOT NULL, ruling TEXT NOT NULL,
                              entered_at TEXT NOT NULL, superseded_at TEXT);
        INSERT INTO matches VALUES (1, '2025-01-01T10:00:00+01:00', 'icf', 'A. Rossi', 'B. Dubois');
    """)
    conn.commit()
    conn.close()
    code, out, err = run("matches", "list", "--json")
    assert code == 0, err
    [match] = json.loads(out)
    assert match["first_name"] == "A. Rossi" and match["doubles"] == 0 and match["referee"] == ""
    (records_file.parent / "s.yaml").write_text("pocketed: {own: 1}\n")
    assert run("matches", "play", "1", str(records_file.parent / "s.yaml"))[0] == 0
    assert sqlite3.connect(records_file).execute("PRAGMA application_id").fetchone()[0] == db.APPLICATION_ID


# -- what is stored and can no longer be read ------------------------------------------------------

def worst_forms(path):
    """Forms holding what an older version, a hand edit or a damaged page could leave behind."""
    from referee_app.core.forms.store import FormsStore

    with FormsStore(installed(), db.connect(path)) as store:
        good = store.create("protest", {"tournament": "Open", "round": 1, "table": 2}).id
        bad_date = store.create("protest", {"tournament": "Open"}).id
        garbage = store.create("disqualification", {"player": "P"}).id
        wrong_types = store.create("protest").id
        with store.database.begin() as conn:
            conn.exec_driver_sql("UPDATE forms SET fields = json_set(fields, '$.board_ended_at', "
                                 "'9999-12-31T23:59:59+14:00') WHERE id = ?", (bad_date,))
            # valid JSON, or the tournament index (json_extract) would refuse the write itself
            conn.exec_driver_sql("UPDATE forms SET fields = '[\"not\", \"a mapping\"]' WHERE id = ?", (garbage,))
            conn.exec_driver_sql("UPDATE forms SET fields = ? WHERE id = ?",
                                 (json.dumps({"round": [1, 2], "players": "A vs B", "ruleset": "gone",
                                              "score": {"first": -3}, "facts": "\u202eevil", "table": 10 ** 30,
                                              "unknown": 1}), wrong_types))
            conn.exec_driver_sql("UPDATE form_history SET new = '{broken' WHERE form_id = ?", (wrong_types,))
    return good, bad_date, garbage, wrong_types


def test_forms_that_cannot_be_read_do_not_stop_the_others(records_file):
    good, bad_date, garbage, wrong_types = worst_forms(records_file)
    code, out, err = run("forms", "list", "--json")
    assert code == 0, err
    listed = {f["id"]: f for f in json.loads(out)}
    assert set(listed) == {good, bad_date, garbage, wrong_types}
    assert "unreadable" not in listed[good]
    assert listed[bad_date]["unreadable"] == ["board_ended_at"]
    assert listed[garbage]["unreadable"] == ["fields"]
    assert {"round", "players", "ruleset", "score", "table", "unknown"} <= set(listed[wrong_types]["unreadable"])
    assert run("forms", "list")[0] == 0
    for form_id in (good, bad_date, garbage, wrong_types):
        code, out, err = run("forms", "show", str(form_id))
        assert code == 0, err
        code, out, err = run("forms", "show", str(form_id), "--json")
        assert code == 0, err


def test_an_unreadable_value_is_kept_until_the_field_is_given_anew(records_file):
    _good, bad_date, garbage, _wrong = worst_forms(records_file)
    assert run("forms", "set", str(bad_date), "referee", "C. Martin")[0] == 0
    stored = json.loads(sqlite3.connect(records_file).execute("SELECT fields FROM forms WHERE id = ?",
                                                            (bad_date,)).fetchone()[0])
    assert stored["board_ended_at"].startswith("9999") and stored["referee"] == "C. Martin"
    assert run("forms", "set", str(bad_date), "board_ended_at", "2026-05-14T16:00:00+02:00")[0] == 0
    code, out, _err = run("forms", "show", str(bad_date), "--json")
    assert "unreadable" not in json.loads(out)
    code, _out, err = run("forms", "set", str(garbage), "referee", "X")
    assert code == 2 and "kept as it is" in err
    raw = sqlite3.connect(records_file).execute("SELECT fields FROM forms WHERE id = ?", (garbage,)).fetchone()[0]
    assert raw == '["not", "a mapping"]'


# --- one variable names the records: CARROM_REFEREE_DATABASE; CARROM_REFEREE_DB is its old name

@pytest.fixture
def fresh_note(monkeypatch):
    from referee_app.core.storage import location

    monkeypatch.setattr(location, "_noted", False)
    monkeypatch.delenv("CARROM_REFEREE_DATABASE", raising=False)
    monkeypatch.delenv("CARROM_REFEREE_DB", raising=False)
    return location


def test_the_old_name_of_the_records_variable_still_works_with_one_note(fresh_note, tmp_path, monkeypatch, capsys):
    path = tmp_path / "old.sqlite3"
    monkeypatch.setenv("CARROM_REFEREE_DB", str(path))
    assert db.default_path() == path
    assert database.database_url() == db.sqlite_url(path)
    assert fresh_note.chosen("postgresql://desk/open") == (str(path), "environment"), "as the new name, it wins"
    err = capsys.readouterr().err
    assert err.count("\n") == 1, "once a process, however often it is read"
    assert "CARROM_REFEREE_DB is deprecated" in err and "CARROM_REFEREE_DATABASE" in err


def test_the_records_variable_names_a_file_by_its_path_and_wins_over_its_old_name(fresh_note, tmp_path, monkeypatch,
                                                                                 capsys):
    path, old = tmp_path / "new.sqlite3", tmp_path / "old.sqlite3"
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(path))
    monkeypatch.setenv("CARROM_REFEREE_DB", str(old))
    assert db.default_path() == path and database.database_url() == db.sqlite_url(path)
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", db.sqlite_url(path))
    assert db.default_path() == path, "an sqlite:/// URL names the same file"
    assert capsys.readouterr().err == "", "the old name, unread, says nothing"


def test_a_command_run_with_the_old_variable_uses_its_file_and_says_so_once(tmp_path):
    from support.cli import run_cli

    path = tmp_path / "old.sqlite3"
    done = run_cli("records", "check", "--json", env={"CARROM_REFEREE_DB": str(path), "CARROM_REFEREE_DATABASE": ""})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["path"] == str(path) and path.is_file()
    assert done.stderr.count("\n") == 1 and "CARROM_REFEREE_DB is deprecated" in done.stderr, done.stderr
