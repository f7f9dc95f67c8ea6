"""Results from the tables: the score sheet kept at a table (a match of `play.store`) carries the
tournament, the round and the table in its header, and its result flows into the standings.

A tournament match is one game played until the first of three limits (ffc-tournament:1.5):
25 points (1.6), 8 boards (1.7), or the 40 + 5 minute clock (1.8), when the board not finished
is not counted. The limits are read here from the board records of the sheet, whatever the
ruleset's own game would do next (the ICF plays an extra board after 8 level boards; the FFC
records the draw, choice `draw_at_time`).
"""
from __future__ import annotations

from referee_app.core.errors import BadInput
from referee_app.core.play.match import Match
from referee_app.core.play.store import MatchStore
from .ffc import FfcRules
from .model import GHOST
from .store import FINAL, TournamentStore, round_arg


def match_result(ffc: FfcRules, match: Match, time_called: bool = False, final: bool = False) -> dict | None:
    """The match's result under the FFC limits, or None while it goes on:
    `{"score": [first, second], "ended_by": "points"|"boards"|"time", "clause": ...}`.

    The final has no board or time limit (ffc-tournament:1.16): only the points end it."""
    target = ffc.final_points if final else ffc.match_points
    score, boards = [0, 0], 0
    for game in match.games:
        for board in game.boards:
            if board.winner is None:
                continue                      # unfinished: not counted (ffc-tournament:1.8)
            score[0] += board.points["first"]
            score[1] += board.points["second"]
            boards += 1
            if max(score) >= target:
                return {"score": score, "ended_by": "points", "clause": ffc.clauses["final" if final else "points"]}
            if not final and boards >= ffc.match_boards:
                return {"score": score, "ended_by": "boards", "clause": ffc.clauses["boards"]}
    if time_called and not final:
        return {"score": score, "ended_by": "time", "clause": ffc.clauses["minutes"]}
    return None


def open_match(tournaments: TournamentStore, matches: MatchStore, tid, round_no, table: int) -> int:
    """The score sheet of a table: a new match with the players, round and table in its header,
    linked to the tournament's game; the same match when the table already has one. One
    transaction holding the game's row: two tables asking at once get one sheet."""
    round_no = round_arg(round_no)
    with tournaments.transaction():
        game = tournaments.game(tid, round_no, table, lock=True)
        if game["match_id"] is not None:
            return game["match_id"]
        if GHOST in (game["first"], game["second"]):
            raise BadInput("table", "the ghost's game is not played", "ghost_not_played")
        if game["score_first"] is not None:
            where = "the final" if round_no == FINAL else f"round {round_no}"
            raise BadInput("table", f"the result of {where}, table {table} is already entered: its game has no "
                                    "sheet to keep", "result_entered", {"table": table, "round": round_no})
        meta = tournaments.meta(tid)
        with matches.joined(tournaments):
            match_id = matches.create(meta["ruleset"], first_name=game["first"], second_name=game["second"],
                                      tournament=meta["name"], round=str(round_no), table_no=str(table))
        tournaments.link_match(tid, round_no, table, match_id)
    return match_id


def collect(tournaments: TournamentStore, matches: MatchStore, tid, round_no, table: int,
            time_called: bool = False) -> dict | None:
    """Records the result of the table's score sheet once its match has ended (or the clock has
    run out, `time_called`); returns it, or None while the match goes on."""
    round_no = round_arg(round_no)
    game = tournaments.game(tid, round_no, table)
    if game["match_id"] is None:
        raise BadInput("table", f"no score sheet is kept at table {table}", "no_sheet", {"table": table})
    result = match_result(tournaments.knowledge.ffc, matches.load(game["match_id"]), time_called, final=round_no == FINAL)
    if result is not None:
        tournaments.result(tid, round_no, table, result["score"], match_id=game["match_id"])
    return result
