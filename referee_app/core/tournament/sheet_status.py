"""What the desk sees of each game's score sheet: none kept, a table playing, the game finished,
or a sheet that disagrees with the result entered.

A sheet disagrees when what `tournament add-result … --from-sheet` would take from it (the FFC
limits read from its finished boards, `table_matches.match_result`, the board under way not
counted) is not the result entered, typed at the desk or collected before the table played on.
A sheet with no stroke says nothing about the game (opened, then kept on paper): it never
disagrees. The same statuses serve `tournament show`, `tournament check` and the desk's window.
"""
from __future__ import annotations

from referee_app.core.errors import BadInput
from referee_app.core.play.match import Match
from referee_app.core.play.store import MatchStore
from .ffc import FfcRules
from .store import FINAL, TournamentStore, round_arg
from .table_matches import match_result

NONE, PLAYING, FINISHED, DISAGREES = "none", "playing", "finished", "disagrees"
STATUSES = (NONE, PLAYING, FINISHED, DISAGREES)


def sheet_score(ffc: FfcRules, match: Match, final: bool) -> list[int]:
    """The score `--from-sheet` takes from the sheet, the clock called: on a final still under way
    (no clock ends it), the points of its finished boards."""
    result = match_result(ffc, match, time_called=True, final=final)
    if result is not None:
        return list(result["score"])
    boards = [b for g in match.games for b in g.boards if b.winner is not None]
    return [sum(b.points["first"] for b in boards), sum(b.points["second"] for b in boards)]


def round_sheets(tournaments: TournamentStore, matches: MatchStore, tid, round_no) -> list[dict]:
    """Each game of the round, in table order: `{round, table, sheet, match, score, sheet_score}`;
    `sheet` one of STATUSES, `score` the result entered (or None), `sheet_score` what the sheet
    reads (None without a sheet or a stroke on it); `problem` when the sheet cannot be read."""
    round_no = round_arg(round_no)
    out = []
    for g in sorted(tournaments.round_games(tid, round_no), key=lambda g: g["table_no"]):
        score = None if g["score_first"] is None else [g["score_first"], g["score_second"]]
        entry: dict = {"round": round_no, "table": g["table_no"], "sheet": NONE if score is None else FINISHED,
                       "match": g["match_id"], "score": score, "sheet_score": None}
        if g["match_id"] is not None:
            try:
                if matches.strokes(g["match_id"]):
                    entry["sheet_score"] = sheet_score(tournaments.ffc, matches.load(g["match_id"]),
                                                       round_no == FINAL)
            except BadInput as exc:   # a sheet stored unreadably: said, never a crash of show or check
                entry["problem"] = exc.problem
            if entry["sheet_score"] is not None:
                entry["sheet"] = PLAYING if score is None else FINISHED if entry["sheet_score"] == score else DISAGREES
        out.append(entry)
    return out


def tournament_sheets(tournaments: TournamentStore, matches: MatchStore, tid) -> list[dict]:
    """`round_sheets` of every round paired, the final last."""
    t = tournaments.load(tid)
    rounds: list = list(range(1, len(t.rounds) + 1)) + ([FINAL] if t.final is not None else [])
    return [s for r in rounds for s in round_sheets(tournaments, matches, tid, r)]


def sheet_problems(sheets: list[dict]) -> list[dict]:
    """`tournament check`'s problems: a sheet that disagrees with its result, or cannot be read."""
    problems = []
    for s in sheets:
        where = "the final" if s["round"] == FINAL else f"round {s['round']}"
        if s["sheet"] == DISAGREES:
            (a, b), (x, y) = s["sheet_score"], s["score"]
            problems.append({"round": s["round"], "table": s["table"], "match": s["match"],
                             "sheet_score": s["sheet_score"], "score": s["score"],
                             "message": f"{where}: the score sheet of table {s['table']} reads {a}-{b}, "
                                        f"the result entered is {x}-{y}"})
        elif "problem" in s:
            problems.append({"round": s["round"], "table": s["table"], "match": s["match"],
                             "message": f"{where}: the score sheet of table {s['table']} cannot be read "
                                        f"({s['problem']})"})
    return problems
