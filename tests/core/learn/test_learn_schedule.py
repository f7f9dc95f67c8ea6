"""Spaced repetition: FSRS schedules each learner's questions, on a clock the test sets."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.learn import schedule
from referee_app.core.learn.questions import Scope, generate
from referee_app.core.learn.store import ProgressStore
from referee_app.core.storage.db import connect
from support.kbcopy import installed

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone(timedelta(hours=1)))


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self):
        return self.now


@pytest.fixture
def store(records_url):
    clock = Clock()
    s = ProgressStore(records_url, clock=clock)
    s.test_clock = clock
    yield s
    s.close()


@pytest.fixture(scope="module")
def questions():
    return generate(installed(), Scope("icf"), 3, seed=4)


def test_intervals_grow_with_right_answers_and_shrink_after_a_wrong_one(store, questions):
    q = questions[0]
    clock = store.test_clock
    intervals = []
    for _ in range(5):
        due = store.record("ada", q, correct=True)
        intervals.append(due - clock.now.astimezone(timezone.utc))
        clock.now = due.astimezone(START.tzinfo)
    assert intervals == sorted(intervals) and intervals[-1] > intervals[0]
    assert intervals[0] <= timedelta(minutes=10)  # a new card's first learning step
    assert intervals[-1] >= timedelta(days=5)
    due = store.record("ada", q, correct=False)
    assert due - clock.now.astimezone(timezone.utc) <= timedelta(minutes=10)  # lapsed: back to relearning


def test_the_same_answers_give_the_same_days(tmp_path, questions):
    """No fuzzing: two learners with the same answers at the same times get the same schedule."""
    dues = []
    for name in ("bea", "carla"):
        clock = Clock()
        with ProgressStore(connect(tmp_path / f"{name}.sqlite3"), clock=clock) as s:
            got = []
            for correct in (True, True, False, True, True):
                due = s.record(name, questions[1], correct)
                got.append(due)
                clock.now = due
            dues.append(got)
    assert dues[0] == dues[1]


def test_what_is_due_and_what_is_mastered(store, questions):
    clock = store.test_clock
    for q in questions:
        store.record("ada", q, correct=True)
    assert store.due("ada") == []  # all three just answered
    clock.now = START + timedelta(hours=1)
    due = store.due("ada")
    assert {d["id"] for d in due} == {q.id for q in questions}
    assert due[0]["situation"] == next(q.situation for q in questions if q.id == due[0]["id"])
    summary = store.summary("ada")
    assert (summary["seen"], summary["due"], summary["mastered"], summary["answers"], summary["correct"]) == (3, 3, 0, 3, 3)
    assert sum(c["seen"] for c in summary["clauses"]) == 3
    assert {c["clause"] for c in summary["clauses"]} == {q.deciding_clause for q in questions}

    # one question answered right, each time it falls due, until FSRS holds it for three weeks
    q = questions[0]
    for _ in range(12):
        due = store.record("ada", q, correct=True)
        clock.now = due
        if store.summary("ada")["mastered"]:
            break
    summary = store.summary("ada")
    assert summary["mastered"] == 1
    card = store.scalar("SELECT card FROM learn_cards WHERE question = :q", {"q": q.id})
    assert schedule.mastered(card) and schedule.recall(card, clock.now) <= 0.91
    assert store.summary("nobody")["seen"] == 0
    assert store.learners() == ["ada"]


def test_a_learner_needs_a_name(store, questions):
    with pytest.raises(BadInput) as err:
        store.record("  ", questions[0], True)
    assert err.value.field == "learner"


def test_progress_survives_reopening(tmp_path, questions):
    path = tmp_path / "records.sqlite3"
    with ProgressStore(connect(path), clock=Clock()) as s:
        s.record("ada", questions[0], correct=True)
    with ProgressStore(connect(path), clock=lambda: START + timedelta(days=1)) as s:
        assert [d["id"] for d in s.due("ada")] == [questions[0].id]
