"""A reason the desk gives (a withdrawal, a round paired again) is kept as it was typed or refused
naming the field: never cut short without a word, and the answer says what the journal keeps."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from support.kbcopy import installed

PLAYERS = ["A", "B", "C", "D", "E", "F"]


@pytest.fixture
def store(tmp_path):
    from referee_app.core.tournament.store import TournamentStore

    return TournamentStore(installed(), str(tmp_path / "records.sqlite3"))


def _journal_reasons(store, tid):
    return [e["detail"].get("reason") for e in store.log(tid) if e["action"] in ("withdraw", "repair")]


def test_a_reason_too_long_to_keep_is_refused_and_changes_nothing(store):
    tid = store.create("Open", PLAYERS, "icf")
    store.pair(tid, 1)
    before = store.log(tid)
    with pytest.raises(BadInput) as refused:
        store.repair(tid, 1, "x" * 100_000)
    assert refused.value.field == "reason" and "100000" in refused.value.problem
    with pytest.raises(BadInput) as refused:
        store.withdraw(tid, "B", "y" * 501)
    assert refused.value.field == "reason"
    assert store.log(tid) == before
    assert store.withdraw(tid, "B", "y" * 500) == "y" * 500
    assert _journal_reasons(store, tid) == ["y" * 500]


def test_a_withdrawal_answers_the_reason_the_journal_keeps(store):
    tid = store.create("Open", PLAYERS, "icf")
    kept = store.withdraw(tid, "B", "  fell ill\nat noon ")
    assert kept == "fell ill at noon" and _journal_reasons(store, tid) == [kept]


def test_every_reason_the_journal_keeps_is_one_line_of_bounded_length(store):
    from referee_app.core.tournament.journal import entry_text

    tid = store.create("Open", PLAYERS, "icf")
    store.pair(tid, 1)
    moved = store.move_table(tid, 1, 1, 9, "board 1\nfound warped")
    assert moved["reason"] == "board 1 found warped"
    store.result(tid, 1, 2, (25, 3))
    assert store.correct(tid, 1, 2, (25, 4), "misread\r\nthe sheet")["reason"] == "misread the sheet"
    for refused in (lambda: store.move_table(tid, 1, 3, 8, "z" * 501),
                    lambda: store.correct(tid, 1, 2, (25, 5), "z" * 501),
                    lambda: store.set_choice(tid, "avoid_rematches", False, "z" * 501)):
        with pytest.raises(BadInput) as e:
            refused()
        assert e.value.field == "reason"
    lines = [entry_text(e) for e in store.log(tid)]
    assert all("\n" not in line and "\r" not in line for line in lines), lines
    # a reason written before the bound (or by hand) is still shown on one line
    assert "\n" not in entry_text({"at": "2026-11-29T14:02:00+01:00", "login": "desk", "action": "withdraw",
                                   "round": None, "table": None,
                                   "detail": {"player": "B", "after_round": 1, "reason": "a\nb"}})
