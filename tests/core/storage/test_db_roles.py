"""`db init` on PostgreSQL: the schema and the two roles, and what the database lets each do.

The tests log in as members of each role (the cluster trusts local logins: what is proven is what
the grants and row checks allow) and go through the stores, as the machines would.
"""
from __future__ import annotations

import itertools
import json
import uuid
from urllib.parse import unquote, urlparse

import pytest

from support.cli import run_cli
from core.forms.test_forms import PROTEST as FORMS_PROTEST
from referee_app.core.errors import BadInput
from support.kbcopy import installed

PROTEST = {**FORMS_PROTEST, "round": 1, "table": 1, "players": {"first": "P1", "second": "P2"}}
STRIKER = {"item": "striker", "measurements": {"diameter": {"value": 4.0, "unit": "cm"},
                                               "weight": {"value": 14.0, "unit": "g"}}}
_logins = itertools.count(1)


def db_init(url: str) -> dict:
    from cli.test_schemas import validate

    done = run_cli("db", "init", url)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    validate(answer, "db.json#/$defs/init")
    return answer


class Club:
    """A database after `db init`, with one login in each role."""

    def __init__(self, cluster, url: str):
        self.cluster, self.url = cluster, url
        self.name = unquote(urlparse(url).path.lstrip("/"))
        self.init = db_init(url)
        # this module may be imported twice (by pytest, and by other tests under core.storage):
        # a counter each, so a random part keeps the logins of one cluster apart
        n = f"{next(_logins)}_{uuid.uuid4().hex[:6]}"
        self.desk_login, self.table_login = f"desk_{n}", f"table_{n}"
        with cluster.connect() as conn:
            conn.execute(f"CREATE ROLE {self.desk_login} LOGIN IN ROLE carrom_desk")
            conn.execute(f"CREATE ROLE {self.table_login} LOGIN IN ROLE carrom_table")
        self.desk = cluster.url(self.name, self.desk_login)
        self.table = cluster.url(self.name, self.table_login)

    def sql(self, login_url: str, statement: str):
        import psycopg

        with psycopg.connect(login_url, autocommit=True) as conn:
            return conn.execute(statement)

    def tournament(self):
        """As the desk: four players, round 1 paired; returns (store as desk, store as table, id)."""
        from referee_app.core.tournament.store import TournamentStore

        desk, table = TournamentStore(installed(), self.desk), TournamentStore(installed(), self.table)
        tid = desk.create("Open de Cannes", ["P1", "P2", "P3", "P4"], "icf")
        desk.pair(tid, seed=1)
        return desk, table, tid


@pytest.fixture
def club(pg_cluster, postgresql_url):
    return Club(pg_cluster, postgresql_url)


def refused(call, *words):
    """The call is refused by the database with a clear message (a BadInput, status 2 on the
    command line), naming what was refused."""
    with pytest.raises(BadInput) as caught:
        call()
    message = str(caught.value).lower()
    # one line in the user's words naming who may: never the server's HINT, CONTEXT or PL/pgSQL text
    assert message.startswith("only the desk may"), message
    assert "\n" not in message and not any(w in message for w in ("hint", "context", "pl/pgsql", "permission")), message
    for word in words:
        assert word in message, message
    return message


def test_db_init_creates_the_schema_and_both_roles_and_can_run_again(pg_cluster, empty_postgresql_url):
    postgresql_url = empty_postgresql_url
    first = db_init(postgresql_url)
    assert first["engine"] == "postgresql" and first["revision"] and first["revision_before"] is None
    grants = first["roles"]["roles"]
    assert any(g.startswith("tournament_games: SELECT, INSERT, UPDATE (") for g in grants["carrom_table"]["grants"])
    assert "tournament_entries: SELECT" in grants["carrom_table"]["grants"]
    assert "tournament_entries: SELECT, INSERT, UPDATE, DELETE" in grants["carrom_desk"]["grants"]
    again = db_init(postgresql_url)
    assert again["roles"]["created"] == [] and again["migrations_applied"] == []
    assert again["revision_before"] == again["revision"] == first["revision"]
    assert again["roles"]["roles"] == grants and again["roles"]["row_checks"] == first["roles"]["row_checks"]
    with pg_cluster.connect() as conn:
        found = {r[0]: r[1] for r in conn.execute(
            "SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname IN ('carrom_desk', 'carrom_table')")}
    assert found == {"carrom_desk": False, "carrom_table": False}


def test_db_init_leaves_another_programs_database_alone(empty_postgresql_url):
    import psycopg

    postgresql_url = empty_postgresql_url
    with psycopg.connect(postgresql_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id integer)")
    done = run_cli("db", "init", postgresql_url)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "invoices" in done.stderr, done.stderr
    with psycopg.connect(postgresql_url) as conn:
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert tables == {"invoices"}


def test_db_init_on_sqlite_creates_the_schema_without_roles(tmp_path):
    answer = db_init(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    assert answer["engine"] == "sqlite" and answer["roles"] is None and answer["revision"]
    assert db_init(f"sqlite:///{tmp_path / 'records.sqlite3'}")["migrations_applied"] == []


def test_the_table_role_is_refused_when_it_edits_pairings(club):
    import psycopg

    desk, table, tid = club.tournament()
    before = desk.round_games(tid, 1)
    for statement in (f"UPDATE tournament_games SET second = 'P4' WHERE tournament_id = {tid}",
                      f"UPDATE tournament_games SET table_no = 9 WHERE tournament_id = {tid}",
                      f"DELETE FROM tournament_games WHERE tournament_id = {tid}",
                      f"INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, entered_at) "
                      f"VALUES ({tid}, 1, 0, 3, 'P1', 'P4', 'now')"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            club.sql(club.table, statement)
    # a result row carrying another pairing than its game's, written as the store writes a result
    game = before[0]
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="pairing"):
        with psycopg.connect(club.table) as conn:
            conn.execute(f"UPDATE tournament_games SET superseded_at = 'now' WHERE id = {game['id']}")
            conn.execute(f"INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, "
                         f"score_first, score_second, entered_at) VALUES ({tid}, 1, 0, {game['table_no']}, "
                         f"'{game['first']}', 'P9', 25, 0, 'now')")
    assert desk.round_games(tid, 1) == before
    # every result in, the next round is due: pairing it is still the desk's
    table.result(tid, 1, 1, [25, 3])
    table.result(tid, 1, 2, [12, 25])
    refused(lambda: table.pair(tid, seed=2))
    assert desk.round_games(tid, 2) == []
    assert [(g["first"], g["second"]) for g in desk.round_games(tid, 1)] == \
        [(g["first"], g["second"]) for g in before]


def test_the_table_role_enters_a_result_once_and_may_not_change_it(club):
    desk, table, tid = club.tournament()
    table.result(tid, 1, 1, [25, 3])
    assert desk.game(tid, 1, 1)["score_first"] == 25
    with pytest.raises(BadInput, match=r"^the result of table 1 in round 1 was entered meanwhile by table_\w+ at "
                                       r"\d\d:\d\d: only the desk may change it$"):
        table.result(tid, 1, 1, [3, 25])
    refused(lambda: table.correct(tid, 1, 1, [3, 25], "typed the wrong way round"))
    assert (desk.game(tid, 1, 1)["score_first"], desk.game(tid, 1, 1)["score_second"]) == (25, 3)
    desk.result(tid, 1, 1, [3, 25])                      # the desk may retype it
    assert desk.game(tid, 1, 1)["score_second"] == 25


def test_the_table_role_may_not_change_entries_tournaments_or_corrections(club):
    desk, table, tid = club.tournament()
    refused(lambda: table.add_player(tid, "P5", checked_in=True))
    refused(lambda: table.withdraw(tid, "P1", "fell ill"))
    refused(lambda: table.create("Another open", ["A", "B"], "icf"))
    import psycopg

    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        club.sql(club.table, "UPDATE tournaments SET name = 'Renamed'")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        club.sql(club.table, f"INSERT INTO tournament_corrections (tournament_id, round, table_no, after, reason, at) "
                             f"VALUES ({tid}, '1', 1, '[25, 0]', 'why not', 'now')")
    assert [e["name"] for e in desk.entries(tid)] == ["P1", "P2", "P3", "P4"]
    assert not any(e["withdrawn_after"] for e in desk.entries(tid))


def test_the_table_role_records_a_match_files_a_form_and_saves_an_inspection(club):
    from referee_app.core.forms.store import FormsStore
    from referee_app.core.inspection.store import InspectionStore
    from referee_app.core.play.store import MatchStore

    desk_t, table_t, tid = club.tournament()
    matches = MatchStore(installed(), club.table)
    match = matches.create("icf", first_name="P1", second_name="P2", tournament="Open de Cannes", round="1",
                           table_no="1")
    for stroke in ({"pocketed": {}}, {"pocketed": {"own": 1}}, {"pocketed": {}}):
        matches.add_stroke(match, stroke)
    matches.undo(match)
    matches.update_header(match, referee="C. Martin")
    table_t.link_match(tid, 1, 1, match)
    form = FormsStore(installed(), club.table).create("protest", {**PROTEST, "match": str(match)}, file=True)
    record = InspectionStore(club.table).save(STRIKER, installed().equipment, inspector="É. Mercier", label="striker of P1")
    assert len(MatchStore(installed(), club.desk).strokes(match)) == 2
    assert FormsStore(installed(), club.desk).get(form.id).status == "filed"
    assert InspectionStore(club.desk).get(record.id).compliant
    # deciding the protest is the desk's
    refused(lambda: FormsStore(installed(), club.table).decide(form.id, "upheld"))
    assert FormsStore(installed(), club.desk).decide(form.id, "upheld").outcome == "upheld"


def test_a_match_whose_result_is_entered_is_closed_to_the_table_role(club):
    from referee_app.core.play.store import MatchStore

    desk_t, table_t, tid = club.tournament()
    matches = MatchStore(installed(), club.table)
    match = matches.create("icf", first_name="P1", second_name="P2")
    matches.add_stroke(match, {"pocketed": {}})
    table_t.result(tid, 1, 1, [25, 3], match_id=match)
    refused(lambda: matches.add_stroke(match, {"pocketed": {}}), "result")
    refused(lambda: matches.undo(match), "result")
    assert len(MatchStore(installed(), club.desk).strokes(match)) == 1


def test_the_desk_role_may_do_everything(club):
    from referee_app.core.forms.store import FormsStore
    from referee_app.core.play.store import MatchStore

    desk, _table, tid = club.tournament()
    desk.result(tid, 1, 1, [25, 3])
    desk.result(tid, 1, 2, [10, 25])
    desk.add_player(tid, "P5", checked_in=True)
    desk.pair(tid, seed=3)
    entry = desk.correct(tid, 1, 1, [3, 25], "the sheet was read the wrong way round")
    assert entry["after"] == [3, 25] and len(desk.round_games(tid, 2)) == 3
    matches = MatchStore(installed(), club.desk)
    match = matches.create("icf")
    matches.add_stroke(match, {"pocketed": {}})
    form = FormsStore(installed(), club.desk).create("protest", PROTEST, file=True)
    FormsStore(installed(), club.desk).decide(form.id, "rejected")
    club.sql(club.desk, f"UPDATE tournaments SET name = 'Open de Cannes 2026' WHERE id = {tid}")
    assert desk.meta(tid)["name"] == "Open de Cannes 2026"


def test_a_table_opens_its_pairings_sheet_keeps_it_and_enters_the_result_from_it(club, tmp_path):
    """Issue 31, sheets tied to pairings, as a table login: the sheet made once, strokes with
    their client ids, the result taken from the sheet, then the sheet closed to the table."""
    env = {"CARROM_REFEREE_DATABASE": club.table, "XDG_DATA_HOME": str(tmp_path / "data")}
    _desk, _table, tid = club.tournament()
    made = run_cli("matches", "new", "--pairing", str(tid), "1", "1", "--json", env=env)
    assert made.returncode == 0, made.stderr
    match_id = json.loads(made.stdout)["id"]
    (tmp_path / "s.yaml").write_text("- {pocketed: {own: 2}}\n- {pocketed: {}}\n")
    assert run_cli("matches", "play", str(match_id), str(tmp_path / "s.yaml"), env=env).returncode == 0
    entered = run_cli("tournament", "add-result", str(tid), "1", "1", "--from-sheet", "--time-called", "--json",
                      env=env)
    assert entered.returncode == 0, entered.stderr
    assert json.loads(entered.stdout)["score"] == [0, 0]
    closed = run_cli("matches", "play", str(match_id), str(tmp_path / "s.yaml"), env=env)
    assert closed.returncode == 2 and len(closed.stderr.strip().splitlines()) == 1
    assert "only the desk may change the score sheet of a game whose result is entered" in closed.stderr
    rows = club.sql(club.desk, f"SELECT client_id, state IS NOT NULL FROM strokes WHERE match_id = {match_id}").fetchall()
    assert len(rows) == 2 and all(cid and has_state for cid, has_state in rows)
