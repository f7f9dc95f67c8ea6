"""The window over a shared records server (issue 18): a server out of reach is said at once (a
banner), what was entered stays, the save is retried (on its own with back-off, and from the
banner's Retry) and nothing is shown as saved before it is committed; a result or a form changed
on another machine meanwhile is shown beside this machine's version and never silently
overwritten; the desk and the forms list see what other machines write without a restart.
Both engines where a database is needed (records_url), and a real PostgreSQL server stopped and
started again."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from referee_app.core.storage import location
from referee_app.core.storage.errors import StoreUnavailable
from referee_app.ui import settings
from referee_app.ui.common.server_state import server_state
from support.gui import make_window
from support.kbcopy import installed

SERVER = "postgresql://desk.club.example/open2026"


class Outage:
    """A store whose writes (or every call) fail as a lost server does, while `down` is set."""

    WRITES = ("create", "add_stroke", "update_header", "set_field", "file", "decide", "result", "correct", "undo")

    def __init__(self, store, url=SERVER, everything=False):
        self._store, self.url, self.everything = store, url, everything
        self.down = False
        self.tries = 0

    def __getattr__(self, name):
        real = getattr(self._store, name)
        if not callable(real) or not (self.everything or name in self.WRITES):
            return real

        def call(*args, **kwargs):
            if self.down:
                self.tries += 1
                raise StoreUnavailable(self.url, "connection refused")
            return real(*args, **kwargs)
        return call


@pytest.fixture
def hall(records_url, gui_env, qtbot):
    """A records database on each engine, and every window of the test gone before the database is
    (a widget left alive would read a dropped database when the next test sets the language)."""
    yield records_url
    for w in QApplication.topLevelWidgets():
        w.close()
        w.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def type_text(widget, text: str) -> None:
    """Types text one key at a time: keyClicks aborts on characters outside ASCII."""
    for ch in text:
        QTest.sendKeyEvent(QTest.KeyAction.Click, widget, Qt.Key.Key_unknown, ch, Qt.KeyboardModifier.NoModifier)


# --- a server out of reach ----------------------------------------------------------------------

def test_a_stroke_waits_for_the_server_and_is_recorded_once_it_answers(gui_env, qtbot):
    window = make_window(qtbot)
    area = window.rulings_area
    state = server_state()
    state.backoff = (0.2, 0.4)
    area._store = outage = Outage(area.store)
    assert window.server_banner.isHidden()
    outage.down = True
    area.form.own.setValue(2)
    area.record()
    assert window.server_banner.isVisible(), "said at once"
    assert "desk.club.example" in window.server_banner.text.text()
    assert "1 change is not saved yet" in window.server_banner.text.text()
    assert area.waiting.isVisible()
    assert area.form.own.value() == 2, "what was ticked stays"
    assert area.match.strokes == [] and area.sheet.strokes.rowCount() == 0, "nothing shown as recorded"
    qtbot.waitUntil(lambda: outage.tries >= 2, timeout=3000)   # tried again on its own
    assert area.sheet.strokes.rowCount() == 0 and window.server_banner.isVisible()
    outage.down = False
    qtbot.waitUntil(lambda: len(area.match.strokes) == 1, timeout=3000)
    assert window.server_banner.isHidden() and area.waiting.isHidden()
    assert area.sheet.strokes.rowCount() == 1 and area.form.own.value() == 0
    assert len(outage._store.strokes(area.match_id)) == 1, "stored once, not once per try"


def test_the_banner_retry_button_saves_at_once(gui_env, qtbot):
    window = make_window(qtbot)
    area = window.rulings_area
    server_state().backoff = (60,)   # no automatic try within the test
    area._store = outage = Outage(area.store)
    outage.down = True
    area.form.own.setValue(1)
    area.record()
    assert "60 seconds" in window.server_banner.text.text()
    window.server_banner.retry_button.click()
    assert outage.tries == 2 and area.match.strokes == []
    outage.down = False
    window.server_banner.retry_button.click()
    assert len(area.match.strokes) == 1 and window.server_banner.isHidden()


def forms_page(qtbot, store):
    from referee_app.ui.forms.page import FormsPage

    page = FormsPage(installed(), store=store)
    qtbot.addWidget(page)
    page.resize(1280, 720)
    page.show()
    return page


def test_a_form_field_typed_while_the_server_is_away_stays_marked_until_saved(gui_env, qtbot):
    from referee_app.core.forms.store import FormsStore

    server_state().backoff = (0.2,)
    store = Outage(FormsStore(installed()))
    page = forms_page(qtbot, store)
    page.new_form("protest")
    form_id = page.current.id
    field = page.editors["protest"].fields["tournament"]
    store.down = True
    field.setFocus()
    type_text(field, "Open de Besançon")
    assert field.text() == "Open de Besançon", "what was typed stays"
    assert field.property("save_state") == "waiting"
    assert page.message.isVisible() and "cannot be reached" in page.message.text()
    assert store._store.get(form_id).fields.get("tournament") in (None, ""), "nothing is saved yet"
    assert server_state().waiting(("form", form_id, "tournament")) and len(server_state().pending) == 1, \
        "one wait per field: the last value typed replaces the earlier ones"
    assert store.tries == 1, "while the server is known lost, typing does not wait on it"
    qtbot.waitUntil(lambda: store.tries >= 2, timeout=3000)   # tried again on its own
    store.down = False
    qtbot.waitUntil(lambda: field.property("save_state") == "saved", timeout=3000)
    assert store._store.get(form_id).fields["tournament"] == "Open de Besançon"
    assert page.message.isHidden() and not server_state().unreachable


# --- the desk sees what other machines write -----------------------------------------------------

def test_the_desk_sees_a_tournament_its_pairing_and_results_arrive_without_a_restart(hall, qtbot):
    from referee_app.core.tournament.store import TournamentStore
    from referee_app.ui.tournament.area import TournamentArea

    desk = TournamentArea(installed(), store=TournamentStore(installed(), hall))
    qtbot.addWidget(desk)
    desk.show()
    desk.poller.timer.setInterval(100)
    other = TournamentStore(installed(), hall)   # another machine of the hall, on the same records
    tid = other.create("Open de Besançon", ["Anne", "Bruno", "Chloé", "David"], "icf")
    qtbot.waitUntil(lambda: desk.tournament_combo.findData(tid) >= 0, timeout=3000)
    desk.tournament_combo.setCurrentIndex(desk.tournament_combo.findData(tid))
    desk.refresh()
    desk.tabs.setCurrentWidget(desk.rounds)
    other.pair(tid, seed=1)
    qtbot.waitUntil(lambda: desk.rounds.table.rowCount() == 2, timeout=3000)
    desk.rounds.select_table(2)
    first = other.round_games(tid, 1)[0]
    other.result(tid, 1, first["table_no"], [25, 7])
    row = next(i for i in range(2) if desk.rounds.table.item(i, 0).text() == str(first["table_no"]))
    qtbot.waitUntil(lambda: desk.rounds.table.item(row, 3).text() == "25", timeout=3000)
    assert desk.rounds.selected_table() == 2, "the desk's place is kept"
    assert desk.tournament_combo.currentData() == tid
    winner = first["first"]
    assert desk.standings.rows and desk.standings.rows[0]["player"] == winner, "the standings follow"


def test_the_forms_list_shows_a_protest_filed_at_a_table(hall, qtbot):
    from referee_app.core.forms.store import FormsStore

    page = forms_page(qtbot, FormsStore(installed(), hall))
    page.poller.timer.setInterval(100)
    assert page.table.rowCount() == 0
    table = FormsStore(installed(), hall)
    table.create("protest", {"tournament": "Open de Besançon", "lang": "fr"})
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=3000)
    assert page.table.item(0, 2).text() == "Open de Besançon"


# --- a version conflict --------------------------------------------------------------------------

def test_the_conflict_dialog_shows_both_versions_differences_first_and_never_overwrites_on_enter(gui_env, qtbot):
    from referee_app.ui.common.conflict_dialog import KEEP_MINE, TAKE_THEIRS, ConflictDialog

    mine = {"tournament": "Open de Besançon", "players": ["Anne", "Bruno"], "round": "3"}
    theirs = {"tournament": "Open de Besançon", "players": ["Anne", "Chloé"], "round": "3", "table": "7"}
    dialog = ConflictDialog("Protest 12", mine, theirs, {"players": "Players", "table": "Table"})
    qtbot.addWidget(dialog)
    dialog.show()
    table = dialog.table
    cells = [[table.item(r, c).text() for c in range(3)] for r in range(table.rowCount())]
    assert cells[:2] == [["Players", "Anne, Bruno", "Anne, Chloé"], ["Table", "—", "7"]], "the differences first"
    assert ["tournament", "Open de Besançon", "Open de Besançon"] in cells
    assert table.item(0, 1).font().bold() and not table.item(3, 1).font().bold()
    assert "Protest 12" in dialog.intro.text()
    QTest.keyClick(dialog, Qt.Key.Key_Return)
    assert dialog.choice == TAKE_THEIRS, "Enter takes theirs: nothing is overwritten by a reflex"
    again = ConflictDialog("Protest 12", mine, theirs)
    qtbot.addWidget(again)
    again.keep_button.click()
    assert again.choice == KEEP_MINE
    later = ConflictDialog("Protest 12", mine, theirs)
    qtbot.addWidget(later)
    later.later_button.click()
    assert later.choice is None and later.result() == 0


@pytest.fixture
def asked(monkeypatch):
    """The conflict dialog's question, answered as the test says; what it showed is kept."""
    from referee_app.ui.common import conflict_dialog

    class Shown(list):
        answer = None

    shown = Shown()

    def answer(parent, record, mine, theirs, labels=None):
        shown.append({"record": record, "mine": mine, "theirs": theirs})
        return shown.answer

    monkeypatch.setattr(conflict_dialog, "ask_conflict", answer)
    return shown


def two_machines_on_a_form(qtbot, url):
    from referee_app.core.forms.store import FormsStore

    page = forms_page(qtbot, FormsStore(installed(), url))
    page.poller.timer.stop()   # the page does not see the other machine's change before it saves
    page.new_form("protest")
    fields = page.editors["protest"].fields
    fields["tournament"].setFocus()
    qtbot.keyClicks(fields["tournament"], "Open")
    other = FormsStore(installed(), url)
    other.set_field(page.current.id, "tournament", "Open de Lyon")
    return page, fields, other


@pytest.mark.parametrize("choice", ["theirs", "mine", None])
def test_a_form_changed_on_another_machine_is_shown_side_by_side_and_never_silently_overwritten(
        hall, qtbot, asked, choice):
    page, fields, other = two_machines_on_a_form(qtbot, hall)
    form_id = page.current.id
    asked.answer = choice
    fields["round"].setFocus()
    qtbot.keyClicks(fields["round"], "3")
    assert len(asked) == 1, "the conflict is shown, once"
    assert asked[0]["mine"]["tournament"] == "Open" and asked[0]["theirs"]["tournament"] == "Open de Lyon"
    assert asked[0]["mine"]["round"] == 3 and not asked[0]["theirs"].get("round")
    stored = other.get(form_id)
    if choice == "theirs":
        assert stored.fields["tournament"] == "Open de Lyon" and not stored.fields.get("round")
        assert fields["tournament"].text() == "Open de Lyon" and fields["round"].text() == "", "theirs on screen"
    elif choice == "mine":
        assert stored.fields["tournament"] == "Open" and stored.fields["round"] == 3, "written knowingly"
        assert page.current.version == stored.version
    else:
        assert stored.fields["tournament"] == "Open de Lyon" and not stored.fields.get("round"), "nothing written"
        assert fields["round"].text() == "3" and fields["round"].property("save_state") == "refused"
        assert page.message.isVisible() and "another machine" in page.message.text()


def desk_with_a_round(qtbot, url):
    from referee_app.core.tournament.store import TournamentStore
    from referee_app.ui.tournament.area import TournamentArea

    desk = TournamentArea(installed(), store=TournamentStore(installed(), url))
    qtbot.addWidget(desk)
    desk.show()
    desk.poller.timer.stop()
    tid = desk.store.create("Open de Lyon", ["Anne", "Bruno", "Chloé", "David"], "icf")
    desk.store.pair(tid, seed=3)
    desk.fill_tournaments(select=tid)
    desk.tabs.setCurrentWidget(desk.rounds)
    return desk, tid, TournamentStore(installed(), url)


@pytest.mark.parametrize("choice", ["theirs", "mine"])
def test_a_result_given_at_a_table_meanwhile_is_shown_beside_the_desks(hall, qtbot, asked, choice):
    desk, tid, table_machine = desk_with_a_round(qtbot, hall)
    rounds = desk.rounds
    game = rounds.games()[0]
    rounds.select_table(game["table_no"])
    rounds.first_points.setValue(10)
    rounds.second_points.setValue(25)
    table_machine.result(tid, 1, game["table_no"], [25, 5])   # the table's sheet gives it meanwhile
    asked.answer = choice
    rounds.record_button.click()
    assert len(asked) == 1
    assert asked[0]["mine"]["points"] == [10, 25] and asked[0]["theirs"]["points"] == [25, 5]
    stored = next(g for g in table_machine.round_games(tid, 1) if g["table_no"] == game["table_no"])
    assert [stored["score_first"], stored["score_second"]] == ([10, 25] if choice == "mine" else [25, 5])
    row = next(i for i in range(rounds.table.rowCount()) if rounds.table.item(i, 0).text() == str(game["table_no"]))
    assert rounds.table.item(row, 3).text() == str(stored["score_first"]), "the desk shows what is stored"


def test_waiting_saves_go_in_the_order_made_with_back_off_and_a_refusal_goes_to_its_page(gui_env, qtbot):
    from referee_app.core.errors import BadInput
    from referee_app.ui.common.server_banner import ServerBanner
    from referee_app.ui.common.server_state import ServerState

    state = ServerState(backoff=(60, 120))
    banner = ServerBanner(state)
    qtbot.addWidget(banner)
    banner.show()
    down, written, refused = [True], [], []

    def write(what):
        def action():
            if down[0]:
                raise StoreUnavailable(SERVER, "connection refused")
            if what == "refused":
                raise BadInput("round", "no such round")
            written.append(what)
            return what
        return action

    assert not state.save("a", write("a"), on_saved=lambda r: None)
    assert state.seconds_to_next_try() == 60 and banner.isVisible()
    assert not state.save("b", write("refused"), on_refused=refused.append)
    assert not state.save("c", write("c"))
    assert not state.save("a", write("a2"))   # typed again: replaces, and goes after the others
    state.retry_now()
    assert state.seconds_to_next_try() == 120, "each try that fails waits longer"
    down[0] = False
    state.retry_now()
    assert written == ["c", "a2"] and [e.field for e in refused] == ["round"]
    assert not state.unreachable and not state.pending and banner.isHidden()


# --- at start, and before any save ---------------------------------------------------------------

def test_a_server_out_of_reach_at_start_is_said_and_can_be_retried_or_left(gui_env, monkeypatch):
    from referee_app.ui.common import records

    monkeypatch.setenv(location.ENV_VAR, "postgresql://127.0.0.1:1/carrom")   # a closed port
    answers = ["retry", "quit"]
    asked = []
    monkeypatch.setattr(records, "ask_unreachable", lambda exc, parent=None: asked.append(exc) or answers.pop(0))
    assert records.ensure_records() is False
    assert len(asked) == 2 and all(isinstance(e, StoreUnavailable) for e in asked)
    assert "127.0.0.1:1" in asked[0].url


def test_a_password_put_into_the_settings_by_hand_is_not_used(gui_env, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from referee_app.ui.common import records

    settings.put(settings.DATABASE_URL, "postgresql://referee:s3cret@127.0.0.1:1/carrom")
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text, *a: said.append(text)))
    monkeypatch.setattr(records, "_choose_database", lambda parent: False)
    assert records.ensure_records() is False
    assert said and "PGPASSFILE" in said[0] and "s3cret" not in said[0]


def test_the_window_says_at_once_when_the_server_goes_away_before_any_save(gui_env, qtbot, monkeypatch):
    from referee_app.ui import main_window
    from referee_app.ui.common import records_source

    monkeypatch.setattr(main_window, "HEARTBEAT_MS", 50)
    monkeypatch.setattr(records_source, "shared", lambda: True)
    window = make_window(qtbot)
    assert window.heartbeat.isActive() and window.server_banner.isHidden()

    def gone():
        raise StoreUnavailable(SERVER, "server closed the connection unexpectedly")

    monkeypatch.setattr(records_source, "probe", gone)
    qtbot.waitUntil(window.server_banner.isVisible, timeout=2000)
    assert "What you enter stays on screen" in window.server_banner.text.text()
    monkeypatch.setattr(records_source, "probe", lambda: None)
    qtbot.waitUntil(window.server_banner.isHidden, timeout=2000)


# --- against a real server that stops and comes back ------------------------------------------------

@pytest.fixture
def own_server(pg_cluster):
    """A PostgreSQL server of this test alone, which the test may stop and start again (the
    session's server is shared by every test and stays up)."""
    from support.pg_cluster import Cluster

    with Cluster() as cluster:
        name = cluster.create_database(prefix="records")
        options = (f"-k {cluster.folder} -c listen_addresses= -c fsync=off")

        def stop():   # "fast": the clients are cut off, and what was committed is written first (the
            # cluster runs with synchronous_commit off, which an immediate stop would lose)
            cluster._run("pg_ctl", "-D", str(cluster.data), "-m", "fast", "-w", "-s", "stop")

        def start():
            cluster._run("pg_ctl", "-D", str(cluster.data), "-o", options, "-l", str(cluster.folder / "server.log"),
                         "-w", "-t", "60", "-s", "start")

        yield cluster.url(name), stop, start


def test_strokes_entered_while_the_real_server_is_down_are_kept_shown_and_sent_once_it_is_back(
        gui_env, qtbot, monkeypatch, own_server):
    """Issue 31: a table keeps scoring offline; "offline: N strokes waiting" until they are sent,
    in order, each once."""
    from referee_app.core.play.store import MatchStore

    url, stop, start = own_server
    monkeypatch.setenv(location.ENV_VAR, url)
    server_state().backoff = (0.3,)
    window = make_window(qtbot)
    area = window.rulings_area
    area.form.own.setValue(1)
    area.record()
    assert len(area.match.strokes) == 1 and area.sheet.strokes.rowCount() == 1
    assert area.offline.isHidden()
    stop()
    for n in (2, 1):
        area.form.own.setValue(n)
        area.record()
    assert area.sheet.strokes.rowCount() == 3 and area.form.own.value() == 0, "kept, and shown on the sheet"
    qtbot.waitUntil(window.server_banner.isVisible, timeout=3000)
    assert area.offline.isVisible() and area.offline.text() == "offline: 2 strokes waiting"
    assert area.waiting.isHidden()
    start()
    qtbot.waitUntil(area.offline.isHidden, timeout=15000)
    qtbot.waitUntil(window.server_banner.isHidden, timeout=5000)
    with MatchStore(installed(), url) as other:
        assert [s["pocketed"]["own"] for s in other.strokes(area.match_id)] == [1, 2, 1]
    area.form.own.setValue(1)
    area.record()
    with MatchStore(installed(), url) as other:
        assert [s["pocketed"]["own"] for s in other.strokes(area.match_id)] == [1, 2, 1, 1]
    assert area.sheet.strokes.rowCount() == 4


def test_an_inspection_saved_while_the_server_is_away_keeps_its_readings_and_is_saved_once_back(gui_env, qtbot):
    from referee_app.core.inspection.store import InspectionStore
    from referee_app.ui.common.records_source import records_database
    from referee_app.ui.inspection.page import InspectionPage

    server_state().backoff = (0.2,)
    page = InspectionPage(installed())
    page._store = store = Outage(InspectionStore(records_database()), everything=False)
    store.WRITES = ("save",)
    qtbot.addWidget(page)
    page.show()
    page.set_item("striker")
    form = page.current_form()
    form.rows["diameter"].input.setText("4")
    form.rows["weight"].input.setText("14")
    form.rows["metal_visible"].input.setCurrentIndex(form.rows["metal_visible"].input.findData(False))
    page.label_edit.setText("striker of A. Rossi")
    page.inspector_edit.setText("C. Martin")
    store.down = True
    assert page.save() is None
    assert "cannot be reached" in page.status.text() and page.record_id is None
    assert form.rows["diameter"].input.text() == "4", "the readings stay"
    assert page.history.rowCount() == 0
    store.down = False
    qtbot.waitUntil(lambda: page.record_id is not None, timeout=3000)
    assert page.history.rowCount() == 1 and "Saved as inspection no. 1" in page.status.text()


def test_a_waiting_stroke_goes_to_its_own_match_even_if_another_is_opened_meanwhile(gui_env, qtbot):
    window = make_window(qtbot)
    area = window.rulings_area
    server_state().backoff = (60,)
    area._store = outage = Outage(area.store)
    area.first_name.setText("Anne")
    area.header.edited.emit("first_name", "Anne")
    first_match = area.match_id
    outage.down = True
    area.form.own.setValue(2)
    area.record()
    area.new_match()   # the referee moves on to the next match before the server is back
    area.form.own.setValue(1)
    area.record()
    assert len(server_state().pending) == 2, "both wait: the second does not replace the first"
    outage.down = False
    window.server_banner.retry_button.click()
    store = outage._store
    assert [s["pocketed"]["own"] for s in store.strokes(first_match)] == [2]
    second_match = area.match_id
    assert second_match != first_match and [s["pocketed"]["own"] for s in store.strokes(second_match)] == [1]
    assert area.sheet.strokes.rowCount() == 1 and store.meta(first_match)["first_name"] == "Anne"


def test_a_stalled_server_never_freezes_the_window_for_long(gui_env, qtbot, monkeypatch, own_server):
    """Issue 31, bounded waits: every process of the server stopped (what a Wi-Fi drop looks like
    from the table), a stroke is answered within seconds, kept on the machine, and the banner
    says the server is away."""
    import os
    import signal
    import time

    import psycopg

    url, _stop, _start = own_server
    monkeypatch.setenv(location.ENV_VAR, url)
    server_state().backoff = (0.5,)
    window = make_window(qtbot)
    area = window.rulings_area
    area.form.own.setValue(1)
    area.record()
    assert len(area.match.strokes) == 1
    with psycopg.connect(url, autocommit=True) as conn:
        pids = [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()")]
        folder = conn.execute("SHOW data_directory").fetchone()[0]
    postmaster = int(open(os.path.join(folder, "postmaster.pid")).read().split()[0])
    stalled = [postmaster, *pids]
    from support.stall import resume_later

    for pid in stalled:
        os.kill(pid, signal.SIGSTOP)
        resume_later(pid, 30)   # never a hung test
    try:
        began = time.monotonic()
        area.form.own.setValue(1)
        area.record()
        waited = time.monotonic() - began
    finally:
        for pid in stalled:
            os.kill(pid, signal.SIGCONT)
    assert waited < 10, waited     # the ping's 2 s and the connect timeout's 5 s, never the stall's length
    assert len(area.match.strokes) == 2, "kept, and on the sheet at once"
    # kept: said beside Record, and sent as soon as the server answers (the heartbeat finds it
    # at once here, so the label may come and go within one turn of the event loop)
    assert area.session.outbox._run("SELECT status FROM strokes") == [("waiting",)], "kept on the machine"
    qtbot.waitUntil(lambda: area.session.outbox._run("SELECT status FROM strokes") == [("sent",)], timeout=15000)
    assert area.offline.isHidden()
    from referee_app.core.play.store import MatchStore

    with MatchStore(installed(), url) as other:
        assert len(other.strokes(area.match_id)) == 2
