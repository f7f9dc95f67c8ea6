"""A tournament's tables on one shared store: every table records a match stroke by stroke, enters
its result and files a form, while the desk reads the standings over and over; on PostgreSQL and
on SQLite, side by side in one run.

    .venv/bin/python benchmarks/bench_shared_store.py                       # 32 tables x 40 strokes
    .venv/bin/python benchmarks/bench_shared_store.py --tables 8 --strokes 10

Each table is its own process, as each would be its own machine, and goes through the stores'
public API (MatchStore, TournamentStore, FormsStore). PostgreSQL is a throwaway local cluster
(tests/support/pg_cluster.py) with fsync and synchronous commit on, as a real server has them, set up by
`db init` with one login per table in the table role and one for the desk in the desk role; SQLite
is one records file on the same disk, with the app's WAL and synchronous=FULL. Afterwards every
stroke sent is stored exactly once, in order, each result is the one its table entered, and the
standings the desk reads equal those computed from the stored results. Prints the median and
p95 time to record one stroke (add_stroke: ruled and committed) per engine.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

TOURNAMENT = "Open de Cannes"


def stroke(i: int) -> dict:
    # mostly misses, now and then one own coin: at most 8 pocketed in 40 strokes, so no board ends
    return {"pocketed": {"own": 1}} if i % 5 == 4 else {"pocketed": {}}


def score_of(table: int) -> list[int]:
    """The result a table enters: a different one at each table, some won by either side."""
    points = table % 25
    return [25, points] if table % 2 else [points, 25]


def protest(table: int, match_id: int) -> dict:
    return {"tournament": TOURNAMENT, "round": 1, "table": table, "match": str(match_id),
            "players": {"first": f"P{2 * table - 1:02d}", "second": f"P{2 * table:02d}"},
            "referee": f"referee {table}", "ruleset": "icf", "board": 1,
            "announced_at": "2026-05-14T15:42:00+02:00", "board_ended_at": "2026-05-14T15:49:00+02:00",
            "decision": "Queen returned to the centre after the cover stroke", "clause": "icf-fr:3.12.d",
            "facts": f"Load test, table {table}", "lang": "fr"}


# --- the processes ------------------------------------------------------------------------------

def failure(exc: BaseException) -> str:
    """What failed and in which call of the stores (the innermost frame of the project's code)."""
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "referee_app" in f.filename]
    where = f" (in {frames[-1].name}, {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def table_process(url: str, tid: int, table: int, strokes: int, start, results) -> None:
    from referee_app.core.forms.store import FormsStore
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.play.match import replayed
    from referee_app.core.play.store import MatchStore
    from referee_app.core.tournament.store import TournamentStore

    try:
        knowledge = Knowledge.load()
        matches, tournaments, forms = MatchStore(knowledge, url), TournamentStore(knowledge, url), FormsStore(knowledge, url)
        game = tournaments.game(tid, 1, table)             # the pairing, as the table reads it
        replayed(knowledge, "icf", False, [stroke(0)])                # the ruleset compiled, as a window has it before play
        start.wait()
        match_id = matches.create("icf", first_name=game["first"], second_name=game["second"],
                                  tournament=TOURNAMENT, round="1", table_no=str(table), referee=f"referee {table}")
        tournaments.link_match(tid, 1, table, match_id)
        times = []
        for i in range(strokes):
            began = time.perf_counter()
            matches.add_stroke(match_id, stroke(i))
            times.append(time.perf_counter() - began)
        tournaments.result(tid, 1, table, score_of(table), match_id=match_id)
        form = forms.create("protest", protest(table, match_id), file=True)
        results.put({"table": table, "match": match_id, "form": form.id, "times": times})
    except BaseException as exc:   # the parent reports it; a silent child would look like a lost table
        results.put({"table": table, "error": failure(exc)})


def desk_process(url: str, tid: int, start, done, results) -> None:
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.tournament.store import TournamentStore

    try:
        desk = TournamentStore(Knowledge.load(), url)
        start.wait()
        times = []
        while not done.is_set():
            began = time.perf_counter()
            desk.show(tid)
            times.append(time.perf_counter() - began)
        results.put({"desk": True, "times": times, "standings": desk.show(tid)["standings"]})
    except BaseException as exc:
        results.put({"desk": True, "error": failure(exc)})


# --- one run on one engine ----------------------------------------------------------------------

def prepare(admin_url: str, tables: int) -> int:
    """The tournament, its entries and round 1 paired, by the desk; returns its id."""
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.tournament.store import TournamentStore

    with TournamentStore(Knowledge.load(), admin_url) as desk:
        tid = desk.create(TOURNAMENT, [f"P{n:02d}" for n in range(1, 2 * tables + 1)], "icf")
        desk.pair(tid, seed=7)
    return tid


def run(engine: str, admin_url: str, table_urls: list[str], desk_url: str, strokes: int) -> dict:
    tables = len(table_urls)
    tid = prepare(admin_url, tables)
    ctx = multiprocessing.get_context("fork")
    start, done, results = ctx.Barrier(tables + 2), ctx.Event(), ctx.Queue()
    desk = ctx.Process(target=desk_process, args=(desk_url, tid, start, done, results))
    workers = [ctx.Process(target=table_process, args=(url, tid, n, strokes, start, results))
               for n, url in enumerate(table_urls, 1)]
    for p in [desk, *workers]:
        p.start()
    start.wait()
    began = time.perf_counter()
    answers = [results.get(timeout=600) for _ in workers]
    elapsed = time.perf_counter() - began
    done.set()
    desk_answer = results.get(timeout=600)
    for p in [desk, *workers]:
        p.join(timeout=60)
    errors = [a["error"] for a in [*answers, desk_answer] if "error" in a]
    if errors:
        raise SystemExit(f"{engine}: {len(errors)} process(es) failed, first: {errors[0]}")
    check(engine, admin_url, tid, answers, desk_answer, strokes)
    per_stroke = sorted(t for a in answers for t in a["times"])
    return {"engine": engine, "tables": tables, "strokes": len(per_stroke), "seconds": elapsed,
            "median_ms": 1000 * statistics.median(per_stroke), "p95_ms": 1000 * quantile(per_stroke, 0.95),
            "desk_reads": len(desk_answer["times"]),
            "desk_read_median_ms": 1000 * statistics.median(desk_answer["times"]) if desk_answer["times"] else None}


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def check(engine: str, url: str, tid: int, answers: list[dict], desk_answer: dict, strokes: int) -> None:
    """No stroke lost or stored twice, every result as entered, standings as the stored results give."""
    import sqlalchemy as sa

    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.storage.database import Database
    from referee_app.core.tournament.model import Game, Tournament
    from referee_app.core.tournament.standings import current

    with Database(url) as database, database.read() as conn:
        for a in answers:
            seqs = [r[0] for r in conn.execute(sa.text("SELECT seq FROM strokes WHERE match_id = :m ORDER BY seq, id"),
                                               {"m": a["match"]})]
            assert seqs == list(range(1, strokes + 1)), f"{engine}: table {a['table']}'s strokes are {seqs}"
            stored = [json.loads(r[0]) for r in conn.execute(
                sa.text("SELECT stroke FROM strokes WHERE match_id = :m ORDER BY seq"), {"m": a["match"]})]
            assert stored == [stroke(i) for i in range(strokes)], f"{engine}: table {a['table']}'s strokes differ"
        rows = conn.execute(sa.text("SELECT table_no, first, second, score_first, score_second, match_id FROM "
                                    "tournament_games WHERE tournament_id = :t AND superseded_at IS NULL "
                                    "ORDER BY round, table_no"), {"t": tid}).all()
        players = [r[0] for r in conn.execute(sa.text("SELECT name FROM tournament_entries WHERE tournament_id = :t "
                                                      "ORDER BY seq"), {"t": tid})]
        forms = conn.execute(sa.text("SELECT COUNT(*) FROM forms WHERE status = 'filed'")).scalar()
    by_table = {a["table"]: a for a in answers}
    assert len(rows) == len(answers), f"{engine}: {len(rows)} games stored for {len(answers)} tables"
    for table_no, _first, _second, a, b, match_id in rows:
        assert [a, b] == score_of(table_no) and match_id == by_table[table_no]["match"], \
            f"{engine}: table {table_no}'s result is stored as {a}-{b} (match {match_id})"
    assert forms == len(answers), f"{engine}: {forms} forms filed by {len(answers)} tables"
    t = Tournament(name=TOURNAMENT, players=players, ffc=Knowledge.load().ffc,
                   rounds=[[Game(first, second, (a, b), table) for table, first, second, a, b, _m in rows]])
    expected = [r.to_doc() for r in current(t)]
    assert desk_answer["standings"] == expected, f"{engine}: the desk's standings differ from the stored results'"


# --- the two engines ----------------------------------------------------------------------------

def on_postgresql(tables: int, strokes: int) -> dict:
    from support.pg_cluster import Cluster

    with Cluster(durable=True) as cluster:
        name = cluster.create_database(prefix="load")
        admin = cluster.url(name)
        from referee_app.cli import main

        if main(["db", "init", admin]) != 0:
            raise SystemExit("db init failed")
        with cluster.connect() as conn:
            conn.execute("CREATE ROLE load_desk LOGIN IN ROLE carrom_desk")
            for n in range(1, tables + 1):
                conn.execute(f"CREATE ROLE load_table{n:02d} LOGIN IN ROLE carrom_table")
        return run("postgresql", admin, [cluster.url(name, f"load_table{n:02d}") for n in range(1, tables + 1)],
                   cluster.url(name, "load_desk"), strokes)


def on_sqlite(tables: int, strokes: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="carrom-load-") as folder:   # the disk the cluster's folder is on
        url = f"sqlite:///{Path(folder) / 'records.sqlite3'}"
        return run("sqlite", url, [url] * tables, url, strokes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--strokes", type=int, default=40)
    args = parser.parse_args()
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):   # db init's JSON is not the benchmark's
        figures = [on_postgresql(args.tables, args.strokes), on_sqlite(args.tables, args.strokes)]
    print(f"{args.tables} tables x {args.strokes} strokes, a form and a result each, the desk reading standings "
          f"meanwhile; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'engine':<11}{'median/stroke':>15}{'p95/stroke':>12}{'wall':>8}{'desk reads':>12}{'read median':>13}")
    for f in figures:
        print(f"{f['engine']:<11}{f['median_ms']:>12.1f} ms{f['p95_ms']:>9.1f} ms{f['seconds']:>7.1f}s"
              f"{f['desk_reads']:>12}{f['desk_read_median_ms'] or 0:>10.1f} ms")
    pg, lite = figures
    print(f"postgresql / sqlite: median {pg['median_ms'] / lite['median_ms']:.2f}x, p95 {pg['p95_ms'] / lite['p95_ms']:.2f}x; "
          "no stroke lost or doubled, results and standings as stored")


if __name__ == "__main__":
    main()
