"""Constant cost per stroke (issue 31, "What breaks" 8): a stroke is ruled on the match's state
stored with the last stroke, never by replaying the sheet, whichever store (machine) wrote the
stroke before; and the ruling is the one the whole sheet replayed gives (one ruling path)."""
from __future__ import annotations

import json
import random

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.play.match import Match, replayed
from referee_app.core.play.store import MatchStore
from referee_app.core.storage.database import Database
from support.kbcopy import installed

FOULS = [None, None, None, None, "improper_stroke", "striker_pocketed"]


def _random_stroke(rng: random.Random) -> dict:
    pocketed: dict = {}
    for key, top in (("own", 3), ("opponent", 2)):
        n = rng.choice([0, 0, 0, 1, 1, top])
        if n:
            pocketed[key] = n
    if rng.random() < 0.08:
        pocketed["queen"] = True
    stroke: dict = {"pocketed": pocketed}
    foul = rng.choice(FOULS)
    if foul:
        stroke["foul"] = foul
    return stroke


def _random_sheet(knowledge, ruleset: str, doubles: bool, rng: random.Random, length: int):
    """A match played with random strokes (those the rules refuse are left out): the whole match,
    and after each stroke, the snapshot taken then."""
    match = Match(knowledge, ruleset, doubles)
    snapshots = [match.snapshot()]
    tries = 0
    while len(match.strokes) < length and not match.over and tries < length * 20:
        tries += 1
        try:
            match.play(_random_stroke(rng))
        except BadInput:
            continue
        snapshots.append(json.loads(json.dumps(match.snapshot())))   # as stored: through JSON
    return match, snapshots


@pytest.mark.parametrize("ruleset", ["icf", "fr-house", "aicf-2009", "carom-bi", "it"])
def test_a_match_restored_from_its_snapshot_rules_every_next_stroke_as_the_replayed_sheet(ruleset):
    knowledge = installed()
    if ruleset not in knowledge.rulesets:
        pytest.skip(f"no ruleset {ruleset} in this knowledge base")
    for seed in range(2):
        rng = random.Random(seed)
        match, snapshots = _random_sheet(knowledge, ruleset, seed % 2 == 1, rng, 120)
        assert len(match.strokes) > 20
        for n, snapshot in enumerate(snapshots[:-1]):
            restored = Match.restored(knowledge, snapshot)
            assert restored is not None
            stroke = match.strokes[n]
            assert restored.play(stroke) == match.rulings[n], (ruleset, seed, n)
            assert restored.snapshot()["games"] == snapshots[n + 1]["games"], (ruleset, seed, n)


def test_a_snapshot_of_another_form_is_not_read():
    knowledge = installed()
    assert Match.restored(knowledge, {"snapshot": 99}) is None
    assert Match.restored(knowledge, {"snapshot": 1, "ruleset": "icf"}) is None   # damaged: replayed
    assert Match.restored(knowledge, "text") is None


def test_a_second_machine_rules_a_stroke_without_replaying_the_sheet(records_url, monkeypatch):
    knowledge = installed()
    first, second = MatchStore(knowledge, Database(records_url)), MatchStore(knowledge, Database(records_url))
    match_id = first.create("icf")
    for _ in range(5):
        first.add_stroke(match_id, {"pocketed": {"own": 1}})

    def no_replay(*_args):
        raise AssertionError("the whole sheet was replayed to rule one stroke")

    monkeypatch.setattr(MatchStore, "load", no_replay)
    # the other machine's store has never seen this match: it reads the state stored with stroke 5
    assert second.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 3
    assert first.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 2
    monkeypatch.undo()
    rows = first.all("SELECT seq FROM strokes WHERE match_id = :m ORDER BY id", {"m": match_id})
    assert [r["seq"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]


def test_after_an_undo_a_correction_and_a_new_ruleset_the_next_stroke_is_ruled_as_the_replayed_sheet(records_url):
    knowledge = installed()
    store = MatchStore(knowledge, records_url)
    match_id = store.create("icf")
    for _ in range(4):
        store.add_stroke(match_id, {"pocketed": {"own": 1}})
    store.undo(match_id)
    assert store.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 5
    store.correct(match_id, 2, {"pocketed": {"own": 2}})
    assert store.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 3
    store.change_ruleset(match_id, "it")
    ruling = store.add_stroke(match_id, {"pocketed": {"own": 1}})
    assert ruling == replayed(knowledge, "it", False, store.strokes(match_id)[:-1]).play({"pocketed": {"own": 1}})
    # a stored state that cannot be read is never trusted: the sheet is replayed
    store.database.engine.dispose()
    with store.database.begin() as conn:
        conn.exec_driver_sql("DROP TRIGGER IF EXISTS strokes_never_rewritten" if store.dialect == "sqlite" else
                             "ALTER TABLE strokes DISABLE TRIGGER strokes_never_rewritten")
        conn.exec_driver_sql("UPDATE strokes SET state = '{not json' WHERE superseded_at IS NULL")
    assert store.add_stroke(match_id, {"pocketed": {"own": 1}})["after"]["own_on_board"] == 1
