"""The Tournament area as each machine sees it (issue 31): a table's login is not offered the
desk's actions and opens on the round being played, following the desk to the next; the desk's
destructive actions ask for a reason that the Journal tab then shows; a refusal reads in the
interface language."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QInputDialog

from referee_app import i18n
from support.kbcopy import installed

PLAYERS = ["Anne", "Bruno", "Chloé", "David"]


def _area(qtbot, url):
    from referee_app.core.tournament.store import TournamentStore
    from referee_app.ui.tournament.area import TournamentArea

    area = TournamentArea(installed(), store=TournamentStore(installed(), url))
    qtbot.addWidget(area)
    area.show()
    return area


def _played_round(store, tid, round_no):
    for g in store.round_games(tid, round_no):
        if g["score_first"] is None:
            store.result(tid, round_no, g["table_no"], [25, 3])


@pytest.fixture
def club(pg_cluster, postgresql_url):
    from core.storage.test_db_roles import Club

    return Club(pg_cluster, postgresql_url)


def test_a_tables_window_hides_the_desks_actions_and_follows_the_round_being_played(gui_env, qtbot, club):
    from referee_app.core.tournament.store import TournamentStore

    desk = TournamentStore(installed(), club.desk)
    tid = desk.create("Open de Besançon", PLAYERS, "icf")
    desk.pair(tid, seed=1)
    _played_round(desk, tid, 1)
    desk.pair(tid)
    table = _area(qtbot, club.table)
    table.poller.timer.setInterval(100)
    rounds = table.rounds
    for hidden in (table.create_button, table.new_name, rounds.pair_button, rounds.again_button,
                   table.entries.enter_button, table.entries.withdraw_button):
        assert hidden.isHidden(), hidden.objectName()
    for offered in (rounds.open_button, rounds.record_button, rounds.print_button):
        assert not offered.isHidden(), offered.objectName()
    assert rounds.round_no == 2, "it opens on the round being played"
    _played_round(desk, tid, 2)
    desk.pair(tid)
    qtbot.waitUntil(lambda: rounds.round_no == 3, timeout=5000)   # and follows it when the desk pairs the next
    rounds.round_combo.setCurrentIndex(0)
    rounds.round_combo.activated.emit(0)
    table.arrived()
    assert rounds.round_no == 1, "a round the referee chose stays chosen"
    desk_window = _area(qtbot, club.desk)
    assert not desk_window.rounds.pair_button.isHidden() and not desk_window.create_button.isHidden()


def test_a_refusal_reads_in_the_interface_language(gui_env, qtbot, club):
    from referee_app.core.tournament.store import TournamentStore

    desk = TournamentStore(installed(), club.desk)
    tid = desk.create("Open de Besançon", PLAYERS, "icf")
    desk.pair(tid, seed=1)
    i18n.set_language("fr")
    try:
        table = _area(qtbot, club.table)
        table.run(lambda: table.store.pair(tid))
        assert table.message.text() == "seule la table de marque peut apparier un tour"
        assert "\n" not in table.message.text()
    finally:
        i18n.set_language("en")


def test_a_withdrawal_and_a_round_paired_again_ask_their_reason_and_are_journaled(gui_env, qtbot, tmp_path,
                                                                                  monkeypatch):
    from referee_app.core.tournament.store import TournamentStore

    url = str(tmp_path / "records.sqlite3")
    store = TournamentStore(installed(), url)
    tid = store.create("Open de Besançon", PLAYERS + ["Émile"], "icf")
    store.pair(tid, seed=1)
    area = _area(qtbot, url)
    entries = area.entries
    entries.refresh()
    entries.table.selectRow(1)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("", False))     # cancelled
    entries.withdraw()
    assert store.entries(tid)[1]["withdrawn_after"] is None
    assert "needs its reason" in area.message.text()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("fell ill", True))
    entries.table.selectRow(1)
    entries.withdraw()
    assert store.entries(tid)[1]["withdrawn_after"] == 1
    area.rounds.refresh()
    assert area.rounds.again_button.isEnabled()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Bruno withdrew before play", True))
    area.rounds.pair_again()
    seated = {p for g in store.round_games(tid, 1) for p in (g["first"], g["second"])}
    assert "Bruno" not in seated and None not in seated          # four players left: no ghost
    area.tabs.setCurrentWidget(area.journal)
    lines = [area.journal.list.item(i).text() for i in range(area.journal.list.count())]
    assert [line.split("  ", 2)[2] for line in lines] == [
        "created the tournament", "paired round 1", "withdrew Bruno after round 1: fell ill",
        "paired round 1 again: Bruno withdrew before play"]


def test_a_table_typing_a_result_another_table_entered_meanwhile_is_told_who(gui_env, qtbot, club, monkeypatch):
    from referee_app.core.tournament.store import TournamentStore
    from referee_app.ui.common import conflict_dialog

    desk = TournamentStore(installed(), club.desk)
    tid = desk.create("Open de Besançon", PLAYERS, "icf")
    desk.pair(tid, seed=1)
    table = _area(qtbot, club.table)
    rounds = table.rounds
    rounds.select_table(1)
    rounds.first_points.setValue(25)
    rounds.second_points.setValue(9)
    TournamentStore(installed(), club.table).result(tid, 1, 1, [25, 2])     # the other table, first
    monkeypatch.setattr(conflict_dialog, "ask_conflict", lambda *a, **k: pytest.fail("a table never chooses"))
    rounds.record()
    assert table.message.text().startswith(f"the result of table 1 in round 1 was entered meanwhile by "
                                           f"{club.table_login} at ")
    assert table.message.text().endswith(": only the desk may change it")
    assert desk.game(tid, 1, 1)["score_second"] == 2


def test_pair_this_round_again_is_offered_only_while_none_of_its_games_has_begun(gui_env, qtbot, tmp_path):
    from referee_app.core.tournament.store import TournamentStore

    url = str(tmp_path / "records.sqlite3")
    store = TournamentStore(installed(), url)
    tid = store.create("Open de Besançon", PLAYERS, "icf")
    store.pair(tid, seed=1)
    area = _area(qtbot, url)
    area.rounds.refresh()
    assert area.rounds.again_button.isEnabled()
    table = store.round_games(tid, 1)[0]["table_no"]
    store.result(tid, 1, table, (25, 9))
    area.rounds.refresh()
    # offered, it could only be refused (and in the store's English words, in a French window)
    assert not area.rounds.again_button.isEnabled()


def test_a_reason_too_long_is_asked_again_in_the_users_words_not_refused_by_the_store(gui_env, qtbot, tmp_path,
                                                                                      monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from referee_app.core.tournament.store import MAX_REASON, TournamentStore

    url = str(tmp_path / "records.sqlite3")
    store = TournamentStore(installed(), url)
    tid = store.create("Open de Besançon", PLAYERS, "icf")
    area = _area(qtbot, url)
    answers = iter([("x" * (MAX_REASON + 1), True), ("malade", True)])
    offered = []
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (offered.append(a[4:5]), next(answers))[1])
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: warned.append(text))
    i18n.set_language("fr")
    try:
        area.entries.refresh()
        area.entries.table.selectRow(1)
        area.entries.withdraw()
    finally:
        i18n.set_language("en")
    assert store.entries(tid)[1]["withdrawn_after"] == 0 and not area.message.isVisible()
    assert len(warned) == 1 and warned[0].startswith(f"Au plus {MAX_REASON} caractères"), warned
    assert offered[1] == ("x" * (MAX_REASON + 1),)     # asked again with what was typed, to shorten
