"""The role matrix (issue 31, "Roles enforced by the database, column by column"): every write to
every table and column of the records, as raw SQL and through the command line, run as a desk
login and as a table login, with the outcome each must have.

A table may add strokes to an open sheet, enter the result of a game that has none (its row set
aside with the result row that replaces it), link a score sheet, file forms and incidents, save
inspections and its own learning; nothing else. The desk may do everything but rewrite the
journal; some rows are kept by the schema itself for everyone (a stroke is never rewritten nor
deleted, a row others point at stays). Each statement runs in its own transaction, rolled back,
the row checks deferred to the commit made at its end, so every case starts from the same records.
"""
from __future__ import annotations

import json

import psycopg
import pytest

from core.forms.test_forms import PROTEST as FORMS_PROTEST
from core.storage.test_db_roles import Club
from support.cli import run_cli
from support.kbcopy import installed

OK, DENIED, KEPT = "ok", "denied", "kept"
PROTEST = {**FORMS_PROTEST, "round": 1, "table": 1, "players": {"first": "P1", "second": "P2"}}

# (table, row) -> the columns a table's login may UPDATE there; every other column is DENIED
TABLE_UPDATES = {
    ("matches", "open"): {"ruleset", "doubles", "first_name", "second_name", "tournament", "round", "table_no",
                          "referee", "version"},
    ("strokes", "open"): {"superseded_at"},
    ("forms", "filed"): {"status", "fields", "updated_at", "version"},
    ("form_history", "any"): {"new"},
    ("learn_cards", "any"): "all",
    ("tournament_games", "open"): {"match_id", "version"},
}
# what the schema keeps for everyone, the desk included: (table, row, column)
KEPT_FOR_ALL = {
    # a stroke is never rewritten (revision 0002)
    *(("strokes", row, c) for row in ("open", "finished") for c in ("id", "match_id", "seq", "stroke", "ruling",
                                                                     "entered_at")),
    # a form's history is never rewritten but for its new value; a form's kind, status and outcome
    # are one of the known words (revision 0001)
    ("form_history", "any", "field"), ("form_history", "any", "old"),
    *(("forms", row, c) for row in ("filed", "decided") for c in ("kind", "status", "outcome")),
    # an inspection is a record of what was measured: never rewritten (revision 0001)
    *(("inspections", "any", c) for c in ("inspected_at", "inspector", "item", "label", "tournament", "readings",
                                          "result", "compliant", "notes", "photo", "carried_over", "spec", "version")),
    # table 1 moved onto table 2, which has its game: one row in force per table (revision 0004)
    ("tournament_games", "finished", "table_no"),
}


class Records:
    """The club's records as a day leaves them, and the row each case writes to."""

    def __init__(self, club: Club):
        from referee_app.core.forms.store import FormsStore
        from referee_app.core.inspection.store import InspectionStore
        from referee_app.core.play.store import MatchStore
        from referee_app.core.tournament.store import TournamentStore

        from core.storage.test_db_roles import STRIKER

        desk = TournamentStore(installed(), club.desk)
        self.tid = tid = desk.create("Open de Cannes", ["P1", "P2", "P3", "P4"], "icf")
        desk.pair(tid, seed=1)
        matches = MatchStore(installed(), club.desk)
        self.finished_match, self.open_match = (matches.create("icf", first_name="P1", second_name="P2"),
                                                matches.create("icf", first_name="P3", second_name="P4"))
        for m in (self.finished_match, self.open_match):
            matches.add_stroke(m, {"pocketed": {}})
            matches.add_stroke(m, {"pocketed": {"own": 1}})
        desk.link_match(tid, 1, 1, self.finished_match)
        desk.link_match(tid, 1, 2, self.open_match)
        desk.result(tid, 1, 1, [25, 3])
        forms = FormsStore(installed(), club.desk)
        self.filed = forms.create("protest", PROTEST, file=True).id
        self.decided = forms.create("protest", PROTEST, file=True).id
        forms.decide(self.decided, "upheld")
        InspectionStore(club.desk).save(STRIKER, installed().equipment, inspector="É. Mercier", label="striker")
        club.sql(club.url, "INSERT INTO incidents (tournament, round, \"table\", player, kind, at) "
                           "VALUES ('Open', '1', '2', 'P1', 'disturbance', 'x')")
        club.sql(club.url, "INSERT INTO learn_cards (learner, question, ruleset, clause, situation, card, due) "
                           "VALUES ('ada', 'q1', 'icf', 'c', '{}', '{}', '2026-05-15')")
        club.sql(club.url, "INSERT INTO learn_answers (learner, question, answered_at, correct) VALUES ('ada', 'q1', 'x', 1)")
        desk.correct(tid, 1, 1, [25, 5], "misread")
        self.desk = desk

    def rows(self, table: str) -> dict[str, str]:
        """The rows of `table` a case writes to, by kind, as a WHERE clause."""
        t = self.tid
        return {
            "matches": {"open": f"id = {self.open_match}", "finished": f"id = {self.finished_match}"},
            "strokes": {"open": f"match_id = {self.open_match} AND seq = 1",
                        "finished": f"match_id = {self.finished_match} AND seq = 1"},
            "forms": {"filed": f"id = {self.filed}", "decided": f"id = {self.decided}"},
            "tournament_games": {"open": f"tournament_id = {t} AND table_no = 2 AND superseded_at IS NULL",
                                 "finished": f"tournament_id = {t} AND table_no = 1 AND superseded_at IS NULL"},
        }.get(table, {"any": f"ctid = (SELECT ctid FROM {table} LIMIT 1)"})


def _columns(conn) -> dict[str, dict[str, str]]:
    rows = conn.execute("SELECT table_name, column_name, data_type FROM information_schema.columns "
                        "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position").fetchall()
    out: dict = {}
    for table, column, kind in rows:
        out.setdefault(table, {})[column] = kind
    return out


def _changed(column: str, kind: str) -> str:
    q = f'"{column}"'
    if kind in ("integer", "bigint"):
        return f"COALESCE({q}, 0) + 1"
    # a JSON value stays JSON (an index reads some of them), any other text gains a letter
    return f"""CASE WHEN {q} LIKE '{{%' THEN '{{"changed": true}}' ELSE COALESCE({q}, '') || 'x' END"""


def _outcome(login_url: str, statement: str) -> str:
    with psycopg.connect(login_url) as conn:
        try:
            conn.execute(statement)
            # the row checks deferred to the commit, made now (retroactively): the case is rolled back
            conn.execute("SET CONSTRAINTS ALL IMMEDIATE")
            return OK
        except psycopg.errors.InsufficientPrivilege:
            return DENIED
        except psycopg.errors.IntegrityError:
            return KEPT
        finally:
            conn.rollback()


@pytest.fixture
def day(pg_cluster, postgresql_url):
    club = Club(pg_cluster, postgresql_url)
    return club, Records(club)


def test_every_update_of_every_column_as_each_role(day):
    club, records = day
    with club.cluster.connect(club.name) as conn:
        columns = _columns(conn)
    assert set(columns) >= {"tournament_games", "tournament_journal", "strokes", "matches"}
    wrong = []
    for table, kinds in sorted(columns.items()):
        if table == "alembic_version":
            continue
        for row, where in records.rows(table).items():
            allowed = TABLE_UPDATES.get((table, row), set())
            for column, kind in kinds.items():
                statement = f'UPDATE {table} SET "{column}" = {_changed(column, kind)} WHERE {where}'
                kept = (table, row, column) in KEPT_FOR_ALL
                expected = {
                    "table": KEPT if kept and column in allowed else
                    OK if allowed == "all" or column in allowed else DENIED,
                    "desk": DENIED if table == "tournament_journal" else KEPT if kept else OK,
                }
                for role, login in (("table", club.table), ("desk", club.desk)):
                    found = _outcome(login, statement)
                    # a new value may clash with a key (an id + 1): the schema's refusal, not the role's
                    if found != expected[role] and not (found == KEPT and expected[role] == OK
                                                        and column in ("id", "seq", "tournament_id", "form_id",
                                                                       "match_id", "previous_id", "learner",
                                                                       "question", "name")):
                        wrong.append((role, table, row, column, found, expected[role]))
    assert wrong == [], "\n".join(map(str, wrong))


def test_the_table_role_may_not_hide_a_pairing_nor_set_aside_a_game(day):
    """The issue's psql session: `UPDATE tournament_games SET superseded_at = …` as a table."""
    club, records = day
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="^only the desk may change a pairing"):
        club.sql(club.table, f"UPDATE tournament_games SET superseded_at = 'now' WHERE tournament_id = {records.tid} "
                             "AND table_no = 2 AND superseded_at IS NULL")
    assert [g["table_no"] for g in records.desk.round_games(records.tid, 1)] == [1, 2]
    assert run_cli("tournament", "check", "--id", str(records.tid),
                   env={"CARROM_REFEREE_DATABASE": club.desk}).returncode == 0


INSERTS = {
    "matches": ("INSERT INTO matches (created_at, ruleset) VALUES ('x', 'icf')", OK, OK),
    "strokes (open sheet)": ("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) "
                             "VALUES ({open_match}, 9, '{{}}', '{{}}', 'x')", OK, OK),
    "strokes (finished sheet)": ("INSERT INTO strokes (match_id, seq, stroke, ruling, entered_at) "
                                 "VALUES ({finished_match}, 9, '{{}}', '{{}}', 'x')", DENIED, OK),
    "match_events": ("INSERT INTO match_events (match_id, at, kind, detail) VALUES ({open_match}, 'x', 'k', '')", OK, OK),
    "forms (filed)": ("INSERT INTO forms (kind, status, fields, created_at, updated_at) "
                      "VALUES ('protest', 'filed', '{{}}', 'x', 'x')", OK, OK),
    "forms (decided)": ("INSERT INTO forms (kind, status, fields, outcome, created_at, updated_at, decided_at) "
                        "VALUES ('protest', 'decided', '{{}}', 'upheld', 'x', 'x', 'x')", DENIED, OK),
    "form_history": ("INSERT INTO form_history (form_id, at, field, new) VALUES ({filed}, 'x', 'status', 'x')", OK, OK),
    "incidents": ("INSERT INTO incidents (tournament, round, \"table\", player, kind, at) "
                  "VALUES ('Open', '1', '2', 'P2', 'disturbance', 'x')", OK, OK),
    "inspections": ("INSERT INTO inspections (inspected_at, inspector, item, label, readings, result, compliant) "
                    "VALUES ('x', 'x', 'striker', 'x', '{{}}', '{{}}', 1)", OK, OK),
    "learn_cards": ("INSERT INTO learn_cards (learner, question, ruleset, clause, situation, card, due) "
                    "VALUES ('bea', 'q1', 'icf', 'c', '{{}}', '{{}}', 'x')", OK, OK),
    "learn_answers": ("INSERT INTO learn_answers (learner, question, answered_at, correct) VALUES ('bea', 'q', 'x', 1)",
                      OK, OK),
    "tournaments": ("INSERT INTO tournaments (name, ruleset, created_at) VALUES ('Other', 'icf', 'x')", DENIED, OK),
    "tournament_entries": ("INSERT INTO tournament_entries (tournament_id, seq, name, checked_in) "
                           "VALUES ({tid}, 9, 'P9', 1)", DENIED, OK),
    "tournament_corrections": ("INSERT INTO tournament_corrections (tournament_id, round, table_no, after, reason, at) "
                               "VALUES ({tid}, '1', 1, '[25, 0]', 'why', 'x')", DENIED, OK),
    "tournament_games (a second round 1 game)": (
        "INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, entered_at) "
        "VALUES ({tid}, 1, 0, 3, 'P1', 'P4', 'x')", DENIED, OK),
    "tournament_games (the open game's result, its row set aside)": (
        "UPDATE tournament_games SET superseded_at = 'x' WHERE tournament_id = {tid} AND table_no = 2 "
        "AND superseded_at IS NULL; INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, "
        "score_first, score_second, entered_at, version) SELECT tournament_id, round, final, table_no, first, second, "
        "25, 4, 'x', version + 1 FROM tournament_games WHERE tournament_id = {tid} AND table_no = 2 "
        "ORDER BY id DESC LIMIT 1", OK, OK),
    "tournament_games (the finished game's result again)": (
        "UPDATE tournament_games SET superseded_at = 'x' WHERE tournament_id = {tid} AND table_no = 1 "
        "AND superseded_at IS NULL", DENIED, OK),
    "tournament_journal (a result)": ("INSERT INTO tournament_journal (tournament_id, at, action) "
                                      "VALUES ({tid}, 'x', 'result')", OK, OK),
    "tournament_journal (a pairing)": ("INSERT INTO tournament_journal (tournament_id, at, action) "
                                       "VALUES ({tid}, 'x', 'pair')", DENIED, OK),
    "tournament_journal (another login)": ("INSERT INTO tournament_journal (tournament_id, at, login, action) "
                                           "VALUES ({tid}, 'x', 'someone', 'result')", DENIED, DENIED),
}


def test_every_insert_as_each_role(day):
    club, records = day
    found = {}
    for case, (statement, _as_table, _as_desk) in INSERTS.items():
        sql = statement.format(tid=records.tid, open_match=records.open_match, finished_match=records.finished_match,
                               filed=records.filed)
        found[case] = (_outcome(club.table, sql), _outcome(club.desk, sql))
    assert found == {case: (as_table, as_desk) for case, (_s, as_table, as_desk) in INSERTS.items()}


def test_every_delete_as_each_role(day):
    club, records = day
    with club.cluster.connect(club.name) as conn:
        tables = [t for t in _columns(conn) if t != "alembic_version"]
    # rows other rows point at, and the histories the schema keeps (revision 0001)
    pointed_at = {"matches", "forms", "tournaments", "inspections", "form_history"}
    found = {t: (_outcome(club.table, f"DELETE FROM {t} WHERE {next(iter(records.rows(t).values()))}"),
                 _outcome(club.desk, f"DELETE FROM {t} WHERE {next(iter(records.rows(t).values()))}"))
             for t in tables}
    expected = {t: (DENIED, DENIED if t == "tournament_journal" else KEPT if t in pointed_at or t == "strokes" else OK)
                for t in tables}
    assert found == expected


def _cli(url: str, *args: str):
    return run_cli(*args, env={"CARROM_REFEREE_DATABASE": url})


ENTRIES = "only the desk may enter, check in or withdraw a player"
# as a table's login: the command, and None (it may) or the one line it is refused with
AS_TABLE = [
    (("tournament", "show", "{tid}", "--json"), None),
    (("tournament", "log", "{tid}", "--json"), None),
    (("tournament", "check", "--id", "{tid}"), None),
    (("tournament", "enter", "{tid}", "P5"), ENTRIES),
    (("tournament", "check-in", "{tid}", "P4", "--absent"), ENTRIES),
    (("tournament", "withdraw", "{tid}", "P4", "--reason", "fell ill"), ENTRIES),
    (("tournament", "choose", "{tid}", "rounds_total", "4", "--reason", "short day"),
     "only the desk may create a tournament or change its choices"),
    (("tournament", "absent", "{tid}", "P4", "2", "--reason", "a train"),
     "only the desk may create a tournament or change its choices"),
    (("tournament", "move-table", "{tid}", "1", "2", "3", "--reason", "a board is faulty"),
     "only the desk may move a game to another table"),
    (("tournament", "add-result", "{tid}", "1", "1", "3", "25", "--correction", "read backwards"),
     "only the desk may correct a result"),
    (("forms", "new", "protest", "{protest}"), None),
    (("forms", "incident", "{incident}"), None),
    (("forms", "decide", "{filed}", "upheld"), "only the desk may decide a form or change a decided one"),
    (("matches", "play", "{open_match}", "{stroke}"), None),
    (("matches", "undo", "{open_match}"), None),
    (("matches", "play", "{finished_match}", "{stroke}"),
     "only the desk may change the score sheet of a game whose result is entered"),
    (("matches", "undo", "{finished_match}"), "only the desk may change the score sheet of a game whose result is entered"),
    (("tournament", "add-result", "{tid}", "1", "2", "25", "4"), None),     # a game with no result yet
    (("tournament", "add-result", "{tid}", "1", "2", "4", "25"),
     r"the result of table 2 in round 1 was entered meanwhile by {table} at \d\d:\d\d: only the desk may change it"),
    (("tournament", "pair", "--id", "{tid}"), "only the desk may pair a round"),
    (("tournament", "pair", "--id", "{tid}", "--again", "1", "--reason", "a slip"), "only the desk may pair a round again"),
    (("tournament", "new", "{file}"), "only the desk may create a tournament or change its choices"),
]
# then as the desk's login, every one of them succeeding
AS_DESK = [
    ("tournament", "show", "{tid}", "--json"),
    ("tournament", "check", "--id", "{tid}"),
    ("tournament", "enter", "{tid}", "P5"),
    ("tournament", "check-in", "{tid}", "P5", "--absent"),
    ("tournament", "check-in", "{tid}", "P5"),
    ("tournament", "add-result", "{tid}", "1", "1", "3", "25", "--correction", "read backwards"),
    ("tournament", "add-result", "{tid}", "1", "2", "4", "25"),               # the desk may type over it
    ("tournament", "withdraw", "{tid}", "P4", "--reason", "fell ill"),
    ("tournament", "choose", "{tid}", "rounds_total", "4", "--reason", "short day"),
    ("tournament", "absent", "{tid}", "P3", "3", "--reason", "a train"),
    ("tournament", "pair", "--id", "{tid}"),
    ("tournament", "move-table", "{tid}", "2", "1", "3", "--reason", "a board is faulty"),
    ("tournament", "pair", "--id", "{tid}", "--again", "2", "--reason", "paired before P5 came back"),
    ("tournament", "new", "{file}"),
    ("forms", "decide", "{filed}", "upheld"),
    ("matches", "play", "{finished_match}", "{stroke}"),
    ("matches", "undo", "{finished_match}"),
    ("tournament", "log", "{tid}", "--json"),
]


def test_every_command_as_each_role(day, tmp_path):
    import re

    club, records = day
    (tmp_path / "t.json").write_text(json.dumps({"name": "Another open", "players": ["A", "B"]}))
    (tmp_path / "protest.json").write_text(json.dumps(PROTEST))
    (tmp_path / "incident.json").write_text(json.dumps({"tournament": "Open de Cannes", "round": 1, "table": 2,
                                                        "player": "P3", "kind": "disturbance",
                                                        "at": "2026-05-14T16:00:00+02:00"}))
    (tmp_path / "stroke.json").write_text(json.dumps({"pocketed": {}}))
    fill = {"tid": str(records.tid), "file": str(tmp_path / "t.json"), "table": club.table_login,
            "protest": str(tmp_path / "protest.json"), "incident": str(tmp_path / "incident.json"),
            "stroke": str(tmp_path / "stroke.json"), "filed": str(records.filed),
            "open_match": str(records.open_match), "finished_match": str(records.finished_match)}
    for args, refusal in AS_TABLE:
        done = _cli(club.table, *(a.format(**fill) for a in args))
        if refusal is None:
            assert done.returncode == 0, (args, done.stderr)
        else:
            assert done.returncode == 2 and re.fullmatch(f"carrom-referee: {refusal.format(**fill)}\n", done.stderr), \
                (args, done.stderr)
    for args in AS_DESK:
        done = _cli(club.desk, *(a.format(**fill) for a in args))
        assert done.returncode == 0, (args, done.stderr)
    log = json.loads(done.stdout)
    by = {(e["action"], e["login"]) for e in log}
    assert ("result", club.table_login) in by
    assert {login for action, login in by if action != "result"} == {club.desk_login}
    assert [e["action"] for e in log] == [
        "create", "pair", "sheet", "sheet", "result", "correction",    # the day's records, then the commands
        "result", "enter", "check_in", "check_in", "correction", "result", "withdraw", "choice", "choice", "pair",
        "move_table", "repair"]


def test_a_game_the_desk_set_aside_is_not_brought_back_by_a_table(pg_cluster, postgresql_url):
    """A round paired again has fewer tables: the old last table's row stays set aside, and a
    table writing a result row for it (its players copied) is refused."""
    from referee_app.core.tournament.store import TournamentStore

    club = Club(pg_cluster, postgresql_url)
    desk = TournamentStore(installed(), club.desk)
    tid = desk.create("Open", ["P1", "P2", "P3", "P4", "P5", "P6"], "icf")
    desk.pair(tid, seed=1)
    old = desk.round_games(tid, 1)
    gone = old[-1]
    for p in (gone["first"], gone["second"]):
        desk.withdraw(tid, p, "left before play")
    desk.repair(tid, 1, "two players left")
    assert len(desk.round_games(tid, 1)) == 2
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="^only the desk may"):
        club.sql(club.table, "INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, "
                             f"score_first, score_second, entered_at) VALUES ({tid}, 1, 0, 3, '{gone['first']}', "
                             f"'{gone['second']}', 25, 0, 'x')")
    assert len(desk.round_games(tid, 1)) == 2
