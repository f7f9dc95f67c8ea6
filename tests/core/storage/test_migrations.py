"""The records schema is Alembic's on both engines: a new database is at the head and matches
schema.py, a file of the versions that kept the schema by hand is upgraded losing nothing, a newer
one is refused. What two machines share is guarded by the database: a stroke is never rewritten,
and an edit made from an older version of a record is refused with both versions."""
from __future__ import annotations

import json
import sqlite3
import warnings

import pytest
import sqlalchemy as sa

from referee_app.core.storage import db, migrations, schema
from referee_app.core.storage.database import Database

from referee_app.core.storage.migrations.versions import r0001_first_schema as LEGACY
from support.kbcopy import installed


def test_the_listed_revisions_are_the_scripts():
    scripts = migrations.script()
    assert scripts.get_heads() == [migrations.HEAD]
    walked = [s.revision for s in scripts.walk_revisions("base", "heads")]
    assert tuple(reversed(walked)) == migrations.REVISIONS


def _differences(database: Database) -> list:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with database.read() as conn, warnings.catch_warnings():
        # the index on a JSON expression (forms by tournament) is each engine's own SQL
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        found = compare_metadata(MigrationContext.configure(conn), schema.metadata)
    # tables and columns: what a store reads and writes (types and defaults are each engine's own)
    return [d for d in found if isinstance(d, tuple) and d[0] in ("add_table", "remove_table", "add_column",
                                                                   "remove_column")]


def test_a_new_database_is_at_the_head_and_holds_every_table_of_the_schema(records_url):
    with Database(records_url) as database:
        assert database.revision() == migrations.HEAD
        assert _differences(database) == []
        with database.read() as conn:
            assert set(migrations.user_tables(conn)) == set(schema.TABLES)
        assert database.upgrade() == []          # at the head: nothing more to run


def test_a_newer_schema_is_refused_untouched(records_url):
    Database(records_url).close()
    with Database(records_url) as database, database.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(db.StoreError, match="newer") as refused:
        Database(records_url)
    assert refused.value.reason == "newer"


def _legacy_file(path):
    """A records file as the versions that kept the schema by hand left it, with a record of each kind."""
    conn = sqlite3.connect(path)
    conn.executescript(LEGACY.tables("sqlite") + LEGACY.INDEXES + LEGACY.SQLITE)
    conn.executescript("""
        PRAGMA application_id = 1129473382;
        PRAGMA user_version = 1;
        INSERT INTO matches (id, created_at, ruleset, first_name) VALUES (1, '2026-05-14T10:00:00+02:00', 'icf', 'Anna');
        INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at)
            VALUES (1, 1, '{"pocketed": {"own": 1}}', '{}', '2026-05-14T10:01:00+02:00');
        INSERT INTO forms (kind, status, fields, created_at, updated_at)
            VALUES ('protest', 'draft', '{"tournament": "Open"}', '2026-05-14T10:02:00+02:00', '2026-05-14T10:02:00+02:00');
        INSERT INTO form_history (form_id, at, field, old, new) VALUES (1, '2026-05-14T10:02:00+02:00', 'status', NULL, '"draft"');
        INSERT INTO incidents (tournament, round, "table", player, kind, at) VALUES ('Open', '1', '2', 'P', 'disturbance', 'x');
        INSERT INTO tournaments (name, created_at) VALUES ('Open', '2026-05-14T09:00:00+02:00');
        INSERT INTO tournament_entries (tournament_id, seq, name, checked_in, first_round) VALUES (1, 1, 'Anna', 1, 1);
        INSERT INTO tournament_games (tournament_id, round, table_no, first, second, score_first, score_second, entered_at)
            VALUES (1, 1, 1, 'Anna', 'Bea', 25, 3, '2026-05-14T11:00:00+02:00');
        INSERT INTO learn_cards (learner, question, ruleset, clause, situation, card, due)
            VALUES ('ada', 'q1', 'icf', 'c', '{}', '{}', '2026-05-15');
        INSERT INTO learn_answers (learner, question, answered_at, correct) VALUES ('ada', 'q1', 'x', 1);
    """)
    conn.commit()
    conn.close()


def _dump(path) -> dict:
    conn = sqlite3.connect(path)
    try:
        present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        # a table a later revision adds (the journal) is not in the older file: nothing of it to keep
        return {t: conn.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in schema.TABLES if t in present}
    finally:
        conn.close()


def test_a_records_file_of_the_hand_kept_schema_is_upgraded_losing_nothing(tmp_path):
    path = tmp_path / "records.sqlite3"
    _legacy_file(path)
    before = _dump(path)
    with Database(path) as database:
        assert database.revision() == migrations.HEAD
        assert _differences(database) == []
    after = _dump(path)
    for table, rows in before.items():
        kept = [row[:len(rows[0])] for row in after[table]] if rows else after[table]
        assert kept == rows, table        # every row as it was; the new columns come after
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert conn.execute("SELECT version FROM forms").fetchall() == [(1,)]
    conn.close()
    from referee_app.core.play.store import MatchStore

    with MatchStore(installed(), path) as store:
        assert store.strokes(1) == [{"pocketed": {"own": 1}}] and store.meta(1)["first_name"] == "Anna"


def test_an_older_file_missing_some_tables_and_columns_is_completed(tmp_path):
    """The first versions created a store's tables only when it was opened, with fewer columns."""
    path = tmp_path / "records.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE matches (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, ruleset TEXT NOT NULL);
        INSERT INTO matches VALUES (1, '2025-01-01T10:00:00+01:00', 'icf');
    """)
    conn.commit()
    conn.close()
    with Database(path) as database:
        assert _differences(database) == []
        with database.read() as c:
            assert c.execute(sa.text("SELECT referee, version FROM matches")).all() == [("", 1)]


# -- what the database guards itself ----------------------------------------------------------------

def test_a_stroke_is_never_rewritten_nor_deleted(records_url):
    from referee_app.core.play.store import MatchStore

    with MatchStore(installed(), records_url) as store:
        mid = store.create("icf")
        store.add_stroke(mid, {"pocketed": {"own": 1}})
        store.add_stroke(mid, {"pocketed": {"own": 2}})
        first = store.first("SELECT * FROM strokes WHERE seq = 1")
        for statement in ("UPDATE strokes SET stroke = '{}' WHERE id = :id", "UPDATE strokes SET seq = 5 WHERE id = :id",
                          "DELETE FROM strokes WHERE id = :id"):
            with pytest.raises(db.StoreError, match="never") as refused:
                store.write(statement, {"id": first["id"]})
            assert refused.value.reason == "refused"
        store.undo(mid)
        undone = store.first("SELECT * FROM strokes WHERE seq = 2")
        with pytest.raises(db.StoreError, match="never rewritten"):   # superseded once, for good
            store.write("UPDATE strokes SET superseded_at = NULL WHERE id = :id", {"id": undone["id"]})
        store.add_stroke(mid, {"pocketed": {"own": 3}})
        rows = store.all("SELECT seq, stroke, superseded_at FROM strokes ORDER BY id")
        assert [(r["seq"], json.loads(r["stroke"]), r["superseded_at"] is None) for r in rows] == [
            (1, {"pocketed": {"own": 1}}, True), (2, {"pocketed": {"own": 2}}, False), (2, {"pocketed": {"own": 3}}, True)]
        assert dict(store.first("SELECT * FROM strokes WHERE id = :id", {"id": first["id"]})) == dict(first)


def test_two_machines_on_one_match_each_rule_on_the_board_the_other_left(records_url):
    from referee_app.core.play.store import MatchStore

    a, b = MatchStore(installed(), Database(records_url)), MatchStore(installed(), Database(records_url))
    mid = a.create("icf")
    seen = []
    for store in (a, b, a, a, b):
        seen.append(store.add_stroke(mid, {"pocketed": {"own": 1}})["after"]["own_on_board"])
    assert seen == [8, 7, 6, 5, 4]
    b.undo(mid)
    assert a.add_stroke(mid, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 4
    assert [r["seq"] for r in a._active(mid)] == [1, 2, 3, 4, 5]


def test_a_form_edited_on_two_machines_is_never_overwritten(records_url):
    from referee_app.core.forms.store import FormsStore

    desk, table = FormsStore(installed(), Database(records_url)), FormsStore(installed(), Database(records_url))
    form = desk.create("protest", {"tournament": "Open"})
    read_at_table = table.get(form.id)
    desk.set_field(form.id, "referee", "C. Martin", expected_version=form.version)
    with pytest.raises(db.VersionConflict) as conflict:
        table.set_field(form.id, "referee", "D. Rossi", expected_version=read_at_table.version)
    assert conflict.value.mine["version"] == read_at_table.version
    assert conflict.value.mine["fields"] == {"referee": "D. Rossi"}
    assert conflict.value.theirs["version"] == read_at_table.version + 1
    assert conflict.value.theirs["fields"]["referee"] == "C. Martin"
    assert "form" in str(conflict.value) and "overwritten" in str(conflict.value)
    assert desk.get(form.id).fields["referee"] == "C. Martin"
    # taking theirs and writing again from the version now stored succeeds
    table.set_field(form.id, "referee", "D. Rossi", expected_version=conflict.value.theirs["version"])
    assert desk.get(form.id).fields["referee"] == "D. Rossi"


def test_a_match_header_edited_on_two_machines_is_never_overwritten(records_url):
    from referee_app.core.play.store import MatchStore

    a, b = MatchStore(installed(), Database(records_url)), MatchStore(installed(), Database(records_url))
    mid = a.create("icf")
    version = b.meta(mid)["version"]
    assert a.update_header(mid, expected_version=version, referee="C. Martin") == version + 1
    with pytest.raises(db.VersionConflict) as conflict:
        b.update_header(mid, expected_version=version, referee="D. Rossi")
    assert conflict.value.theirs["referee"] == "C. Martin" and conflict.value.mine["referee"] == "D. Rossi"
    assert a.meta(mid)["referee"] == "C. Martin"


def test_a_result_typed_at_two_desks_is_never_overwritten(records_url):
    from referee_app.core.tournament.store import TournamentStore

    a = TournamentStore(installed(), Database(records_url))
    b = TournamentStore(installed(), Database(records_url))
    tid = a.create("Open", ["Anna", "Bea", "Cleo", "Dora"], "icf")
    a.pair(tid, seed=1)
    version = b.game(tid, 1, 1)["version"]
    a.result(tid, 1, 1, [25, 3], expected_version=version)
    with pytest.raises(db.VersionConflict) as conflict:
        b.result(tid, 1, 1, [3, 25], expected_version=version)
    assert conflict.value.theirs["score"] == [25, 3] and conflict.value.mine["score"] == [3, 25]
    assert conflict.value.theirs["version"] == version + 1
    assert a.game(tid, 1, 1)["score_first"] == 25
