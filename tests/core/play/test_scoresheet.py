"""The score sheet: boards, breaks, game ends, undo, corrections, and records that survive a kill."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
import yaml

from referee_app.core.storage import db
from referee_app.core.errors import BadInput
from referee_app.core.play.match import Match
from referee_app.core.play.store import MatchStore
from referee_app.core.play.game import Game, replay

from support.cli import run_cli
from support.kbcopy import installed

# The side that breaks pockets one coin, the queen, covers it, then clears: 9 + 3, capped at 12.
WIN_WITH_QUEEN = [{"pocketed": {"own": 1}}, {"pocketed": {"queen": True}}, {"pocketed": {"own": 1}},
                  {"pocketed": {"own": 7}}]
# The breaker pockets all nine at once with the queen still on the board: the opponent wins 3 (icf-fr 3.7 i).
CLEAR_TOO_SOON = [{"pocketed": {"own": 9}}]


def test_boards_alternate_breaks_and_the_game_ends_at_25():
    report = replay(installed(), {"ruleset": "icf", "boards": [WIN_WITH_QUEEN] * 5})
    assert [b["breaker"] for b in report["boards"]] == ["first", "second", "first", "second", "first"]
    assert [b["winner"] for b in report["boards"]] == ["first", "second", "first", "second", "first"]
    assert report["boards"][0]["points"] == {"first": 12, "second": 0}
    assert report["score"] == {"first": 33, "second": 24}  # at 24 the queen no longer counts (3.7 c)
    assert report["game"] == {"over": True, "winner": "first"}
    assert report["boards"][0]["clauses"] == ["icf-fr:3.7.b"]


def test_a_tie_after_eight_boards_needs_a_deciding_board():
    report = replay(installed(), {"ruleset": "icf", "boards": [CLEAR_TOO_SOON] * 8})
    assert report["score"] == {"first": 12, "second": 12}
    assert report["game"]["over"] is False and report["next"]["board"] == 9
    report = replay(installed(), {"ruleset": "icf", "boards": [CLEAR_TOO_SOON] * 9})
    assert report["game"] == {"over": True, "winner": "second"}


def test_a_stroke_after_the_game_is_refused_naming_board_and_stroke():
    done = run_cli("replay", "--json", "-", input=yaml.safe_dump(
        {"ruleset": "icf", "boards": [WIN_WITH_QUEEN] * 5 + [[{"pocketed": {}}]]}))
    assert done.returncode == 2
    assert "board 6, stroke 1" in done.stderr and "game is already over" in done.stderr


def test_an_impossible_stroke_is_refused_naming_board_and_stroke():
    with pytest.raises(BadInput) as err:
        replay(installed(), {"ruleset": "icf", "boards": [[{"pocketed": {"own": 2}}, {"pocketed": {"own": 8}}]]})
    assert err.value.field == "board 1, stroke 2: stroke.pocketed.own"
    assert "only 7 were on the board" in err.value.problem


def test_a_board_after_one_that_did_not_end_is_refused():
    with pytest.raises(BadInput) as err:
        replay(installed(), {"ruleset": "icf", "boards": [[{"pocketed": {"own": 1}}], [{"pocketed": {}}]]})
    assert err.value.field == "board 2" and "did not end" in err.value.problem


def test_a_failed_break_gives_a_second_try_then_passes():
    game = Game(installed(), "icf")
    assert game.play({"touched_coin": False, "pocketed": {}})["turn"] == "continues"
    assert game.state.turn == "first" and game.state.break_attempt == 2
    assert game.play({"touched_coin": False, "pocketed": {}})["turn"] == "passes"
    assert game.state.turn == "second" and not game.state.break_made


def test_doubles_turn_passes_to_the_right_and_the_break_too():
    game = Game(installed(), "icf", doubles=True)
    seats = []
    for _ in range(4):
        seats.append((game.state.seat, game.state.turn))
        game.play({"pocketed": {}})
    assert seats == [(0, "first"), (1, "second"), (2, "first"), (3, "second")]
    for stroke in CLEAR_TOO_SOON:
        game.play(stroke)  # seat 0 clears too soon: board over
    assert game.state.breaker == "second" and game.state.seat == 1


def test_undo_and_a_correction_that_changes_a_later_ruling():
    match = Match(installed(), "icf")
    for stroke in [{"pocketed": {"own": 1}}, {"pocketed": {"queen": True}}, {"pocketed": {"own": 1}}]:
        match.play(stroke)
    assert match.game.state.queen == "covered"
    match.undo()
    assert match.game.state.queen == "awaiting_cover" and len(match.strokes) == 2
    match.play({"pocketed": {"own": 1}})
    # had the first stroke pocketed nothing, the queen came too early: back to the centre, and
    # the cover stroke that followed is now the opponent's stroke
    new, changes = match.correction(0, {"pocketed": {}})
    assert [c["stroke"] for c in changes] == [1, 2, 3]
    assert changes[1]["after"]["after"]["queen"] == "on_board"


def test_the_store_keeps_every_stroke_and_the_history(user_dirs, records_env):
    store = MatchStore(installed())
    match_id = store.create("icf", first_name="Éloïse", second_name="B")
    for stroke in WIN_WITH_QUEEN[:3]:
        store.add_stroke(match_id, stroke)
    store.undo(match_id)
    assert len(store.load(match_id).strokes) == 2
    store.add_stroke(match_id, WIN_WITH_QUEEN[2])
    changes = store.correct(match_id, 1, {"pocketed": {}})
    assert changes and len(store.load(match_id).strokes) == 3
    export = store.export(match_id)
    assert len(export["history"]) == 3 + 1 + 3  # undone and superseded rows stay in the history
    assert export["match"]["first_name"] == "Éloïse"
    assert store.list()[0]["strokes"] == 3


WRITER = textwrap.dedent("""
    import sys
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.play.store import MatchStore
    store = MatchStore(Knowledge.load())
    match_id = store.create("icf", first_name="kill test")
    print("match", match_id, flush=True)
    n = 0
    while True:
        store.add_stroke(match_id, {"pocketed": {}})
        n += 1
        print("saved", n, flush=True)
""")


def test_killing_the_process_mid_write_loses_nothing_saved(tmp_path):
    path = tmp_path / "records.sqlite3"
    env = dict(os.environ, CARROM_REFEREE_DATABASE=str(path))
    proc = subprocess.Popen([sys.executable, "-c", WRITER], stdout=subprocess.PIPE, text=True, env=env)
    saved = 0
    deadline = time.monotonic() + 60
    while saved < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("saved"):
            saved = int(line.split()[1])
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # the writer may have reported more strokes than were read before the kill: the last report counts
    for line in proc.stdout.read().splitlines():
        if line.startswith("saved"):
            saved = int(line.split()[1])
    assert saved >= 40
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    store = MatchStore(installed(), db.connect(path))
    strokes = len(store.load(1).strokes)
    assert saved <= strokes <= saved + 1  # every stroke reported saved is there; at most one more


def test_matches_command_round_trip(user_dirs, records_env):
    new = run_cli("matches", "new", "--json", "--first-name", "A", "--second-name", "B")
    match_id = json.loads(new.stdout)["id"]
    played = run_cli("matches", "play", str(match_id), "--json", "-",
                     input=yaml.safe_dump(WIN_WITH_QUEEN))
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)[-1]["board"]["winner"] == "striker"
    shown = json.loads(run_cli("matches", "show", str(match_id), "--json").stdout)
    assert shown["games"][0]["score"] == {"first": 12, "second": 0}
    bad = run_cli("matches", "play", str(match_id), "-", input="{pocketed: {own: 12}}")
    assert bad.returncode == 2 and "stroke 1 of -" in bad.stderr


def test_after_an_early_break_the_board_is_set_up_again_for_the_opponents_break():
    game = Game(installed(), "icf")
    game.play({"touched_coin": True, "pocketed": {"own": 1, "opponent": 2, "queen": True}, "foul": "early_break"})
    st = game.state
    assert st.turn == "second" and not st.break_made
    assert st.coins == {"first": 9, "second": 9} and st.queen == "on_board" and st.dues["first"] == 1
    assert game.play({"touched_coin": True, "pocketed": {"own": 2}})["break_made"] is True


def test_an_aicf_set_level_after_four_boards_is_decided_by_deciding_strokes():
    boards = [WIN_WITH_QUEEN] * 4  # each breaker wins its board 11-0 (9 coins and the queen's 2, capped)
    report = replay(installed(), {"ruleset": "aicf-2009", "boards": boards})
    assert report["score"] == {"first": 22, "second": 22}
    assert report["game"] == {"over": False, "winner": None, "tie_breaker_due": True}
    with pytest.raises(BadInput) as err:
        replay(installed(), {"ruleset": "aicf-2009", "boards": boards + [[{"pocketed": {}}]]})
    assert "deciding strokes" in err.value.problem
    # three chances each: 2 against 2, then sudden death: first misses while second pockets
    done = replay(installed(), {"ruleset": "aicf-2009", "boards": boards,
                   "tie_breaker": {"first": [True, False, True, False], "second": [True, True, False, True]}})
    assert done["game"]["over"] and done["game"]["winner"] == "second"
    with pytest.raises(BadInput) as err:
        replay(installed(), {"ruleset": "aicf-2009", "boards": boards, "tie_breaker": {"first": [True], "second": [True]}})
    assert "3 chances" in err.value.problem


def test_an_icf_game_level_after_eight_boards_plays_a_deciding_board_not_strokes():
    with pytest.raises(BadInput) as err:
        replay(installed(), {"ruleset": "icf", "boards": [CLEAR_TOO_SOON] * 8, "tie_breaker": {"first": [True] * 3,
                                                                                 "second": [False] * 3}})
    assert "no tie to break" in err.value.problem


@pytest.mark.parametrize("ruleset,second_game_opener", [("icf", "first"), ("it", "second")])
def test_who_opens_the_next_game_follows_the_ruleset(ruleset, second_game_opener):
    # board 1 won by its breaker, then seven boards each breaker clears too soon: eight boards,
    # the last broken by `second`, and `first` ahead 24-9 when the eighth ends the game
    match = Match(installed(), ruleset)
    for board in [WIN_WITH_QUEEN] + [CLEAR_TOO_SOON] * 7:
        for stroke in board:
            match.play(stroke)
    first_game = match.games[0]
    assert first_game.winner == "first" and len(first_game.boards) == 8
    assert first_game.boards[-1].breaker == "second"
    # icf-fr 3.5 g: the break goes on alternating, so `first` opens game 2;
    # it 27: game 2 opens with the player who did not open game 1, so `second`
    assert match.games[1].first_breaker == second_game_opener


def test_the_deciding_strokes_are_explained_in_each_language_from_its_catalog():
    from referee_app.core.play.match import Match
    from referee_app.languages import LANGUAGES

    match = Match(installed(), "aicf-2009")
    for stroke in [s for _ in range(4) for s in WIN_WITH_QUEEN]:
        match.play(stroke)
    ruling = match.play({"tie_breaker": {"first": [True, True, True], "second": [True, True, False]}})
    assert ruling["winner"] == "first"
    assert set(ruling["explanation"]) == set(LANGUAGES)
    assert ruling["explanation"]["fr"] == "Les tirs décisifs reviennent au premier camp."
    assert ruling["explanation"]["it"] == "I tiri decisivi vanno al primo giocatore."
    assert ruling["explanation"]["en"] == "The deciding strokes go to the first side."
