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
