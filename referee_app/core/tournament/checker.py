"""`tournament check`: every round of a tournament paired again and compared with what was played.

As bbpPairings' and JaVaFo's checkers do for FIDE pairings: the standings before each round are
rebuilt from the results, the round is paired again from them, and any game that differs is a
problem. Round 1 is drawn: with the file's `seed` it is drawn again, without one only its shape
is checked (everybody once, the ghost when the count is odd, which parsing already proves).
Table numbers are compared where the file gives them.

Before any of that, each round is read as stored: every player it pairs plays once, at one
table, and no table holds two games (`seating`). A file is refused by parsing when it breaks
this; a stored tournament may still hold it (a round paired twice by two desks at once in an
older version, a game hidden by hand): it is reported, never a crash, and the round is not
paired again on top of it.

Every rematch is listed (`rematches`) in either mode. With the organiser's `avoid_rematches`,
a rematch is a problem when a round without any existed (`avoidable`); under the text's own rule
(ffc-tournament:1.14), when the bottom of the table was not forced into it (`forced`).
"""
from __future__ import annotations

from referee_app.core.errors import BadInput
from .model import GHOST, Tournament
from .pairing import pairs_for_round
from .standings import after_each_round, finalists


def _name(p) -> str:
    return "the ghost" if p is GHOST else p


def _problem(round_no, message: str, **extra) -> dict:
    return {"round": round_no, "message": message, **extra}


def seating(t: Tournament, r: int, games: list) -> list[dict]:
    """Round `r` as stored: each active player once, each table once, nobody else."""
    problems = []
    seen: dict = {}
    tables: dict = {}
    for i, g in enumerate(games, 1):
        table = g.table if g.table is not None else i
        if table in tables:
            problems.append(_problem(r, f"round {r}: table {table} holds two games", table=table))
        tables[table] = g
        for p in g.players():
            if p in seen and p is not GHOST:
                problems.append(_problem(r, f"round {r}: {p} plays twice (tables {seen[p]} and {table})",
                                         player=p, tables=[seen[p], table]))
            elif p is not GHOST and p not in t.players:
                problems.append(_problem(r, f"round {r}: {p} is not an entry of the tournament", player=p))
            seen.setdefault(p, table)
    try:
        active = t.active(r)
    except (KeyError, TypeError):
        active = []
    for p in active:
        if p not in seen:
            problems.append(_problem(r, f"round {r}: {p} does not play", player=p))
    return problems


def check(t: Tournament) -> dict:
    problems = []
    by_round = after_each_round(t)
    for r, games in enumerate(t.rounds, 1):
        seated = seating(t, r, games)
        if seated:                # the round is not as one pairing: re-pairing it would compare nothing
            problems += seated
            continue
        if r == 1 and t.seed is None:
            continue
        if any(p["round"] != "final" and p["round"] < r for p in problems if "player" in p or "table" in p):
            continue              # standings built on a round stored wrong: nothing to compare against
        try:
            expected = pairs_for_round(t, r, t.seed, by_round[r - 2] if r > 1 else None)
        except BadInput as exc:
            problems.append(_problem(r, f"round {r}: cannot be paired again ({exc.problem})"))
            continue
        problems += compare_round(r, expected, games)
    if t.final is not None:
        try:
            pair = finalists(by_round[-1], t)
        except BadInput as exc:
            problems.append(_problem("final", exc.problem))
        else:
            if set(pair) != set(t.final.players()):
                problems.append(_problem("final", f"the final is between {pair[0]} and {pair[1]}, not "
                                         f"{t.final.first} and {t.final.second}",
                                         expected=list(pair), found=[t.final.first, t.final.second]))
    met_again = [] if any("player" in p or "table" in p for p in problems) else rematches(t)
    for m in met_again:
        if (m["avoidable"] if t.avoid_rematches else not m["forced"]):
            a, b = m["players"]
            why = "the organiser chose avoid_rematches" if t.avoid_rematches else \
                f"a rematch the table did not force ({t.ffc.clauses['pairing']})"
            problems.append(_problem(m["round"], f"round {m['round']}: {_name(a)} meets {_name(b)} again: {why}",
                                     rematch=[a, b]))
    report = {"ok": not problems, "problems": problems}
    if met_again:                 # listed only when there are some: a check without one reads as before
        report["rematches"] = met_again
    return report


def compare_round(r, expected: list[tuple], games: list) -> list[dict]:
    problems = []
    played = {frozenset(g.players()): g for g in games}
    for table, (a, b) in enumerate(expected, 1):
        game = played.get(frozenset((a, b)))
        if game is None:
            found = next((g for g in games if a in g.players()), None)
            if found is None:
                problems.append(_problem(r, f"round {r}: {_name(a)} should meet {_name(b)} at table {table}, "
                                         "but does not play", expected=[a, b], found=None))
                continue
            other = found.second if found.first == a else found.first
            problems.append(_problem(r, f"round {r}: {_name(a)} should meet {_name(b)} at table {table}, "
                                     f"but met {_name(other)}", expected=[a, b], found=[found.first, found.second]))
        elif game.table is not None and game.table != table:
            problems.append(_problem(r, f"round {r}: {_name(a)} v {_name(b)} should be at table {table}, "
                                     f"not {game.table}", expected_table=table, found_table=game.table))
    return problems


def rematches(t: Tournament) -> list[dict]:
    """Every game between two players who had met before, with whether the pairing was forced
    (when the higher of the two was paired, had he met every player still unpaired below him?)
    and whether it was avoidable (could that round have been paired with no rematch at all?)."""
    from .pairing import opponents_met, order_for_round, without_rematches

    out = []
    by_round = after_each_round(t)
    for r in range(2, len(t.rounds) + 1):
        met = opponents_met(t, r - 1)
        order = order_for_round(t, r, by_round[r - 2])
        position = {p: i for i, p in enumerate(order)}
        pairs = sorted((tuple(sorted(g.players(), key=position.__getitem__)) for g in t.rounds[r - 1]),
                       key=lambda pq: position[pq[0]])
        unpaired = set(order)
        avoidable = None
        for a, b in pairs:
            unpaired -= {a, b}
            if b in met.get(a, ()):
                forced = all(q in met.get(a, ()) for q in unpaired | {b})
                if avoidable is None:
                    avoidable = not any(q in met.get(p, ()) for p, q in without_rematches(order, met))
                out.append({"round": r, "players": [a, b], "forced": forced, "avoidable": avoidable,
                            "from_bottom": len(order) - position[a]})
    return out
