"""Writers on a shared PostgreSQL server: the cost of a stroke on one's own match and on a match
shared with another writer as its sheet grows; then the table's outbox through random server stops.

    .venv/bin/python benchmarks/bench_writers.py                  # 16 own + 2 shared, 20 stops
    .venv/bin/python benchmarks/bench_writers.py --own 4 --strokes 20 --stops 3   # a quick look

Part 1: 16 processes each record strokes on their own match, while 2 more record on one shared
match (each stroke ruled on the board the other left), all at once, through MatchStore.add_stroke
(ruled and committed), against a throwaway cluster with fsync and synchronous commit on
(tests/support/pg_cluster.py). Prints p50/p95 per stroke on the own matches, and on the shared
match the p95 of its first quarter of strokes against its last quarter: a stroke reads the state
stored with the last stroke, so the ratio stays near 1 however long the sheet (before issue 31,
each stroke replayed the whole sheet: 12 writers, p95 630 ms on the shared match).

Part 2: one table enters strokes on its sheet while the server is stopped (immediately, as a
pulled cable) and started again at random moments, N times; a stroke the server cannot take is
kept in the outbox (core/play/outbox.py) and sent by the next stroke that reaches the server.
Afterwards the server holds every stroke entered, in order, each once: prints strokes entered,
kept offline, sent from the outbox, and duplicated (must be 0) and lost (must be 0).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))


def stroke(i: int) -> dict:
    # mostly misses, now and then one own coin: a board never ends, however long the sheet
    return {"pocketed": {"own": 1}} if i % 9 == 8 else {"pocketed": {}}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def writer(url: str, match_id: int, strokes: int, start, results, label: str) -> None:
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.play.match import replayed
    from referee_app.core.play.store import MatchStore

    try:
        knowledge = Knowledge.load()
        store = MatchStore(knowledge, url)
        replayed(knowledge, "icf", False, [stroke(0)])   # the ruleset compiled, as a window has it before play
        store.meta(match_id)                             # connected, as a table is before its first stroke
        start.wait()
        times = []
        for i in range(strokes):
            began = time.perf_counter()
            ruling = store.add_stroke(match_id, stroke(i))
            times.append((time.perf_counter() - began, ruling is not None))
        results.put({"label": label, "match": match_id, "times": [t for t, _ok in times]})
    except BaseException as exc:   # noqa: BLE001 - the parent reports it; a silent child would look like a lost writer
        results.put({"label": label, "error": f"{type(exc).__name__}: {exc}"})


def part1(url: str, own: int, strokes: int, shared_strokes: int) -> dict:
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.play.store import MatchStore

    with MatchStore(Knowledge.load(), url) as store:
        own_ids = [store.create("icf") for _ in range(own)]
        shared = store.create("icf")
        before = len(store.strokes(shared))
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(own + 3), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(url, m, strokes, start, results, "own")) for m in own_ids]
    procs += [ctx.Process(target=writer, args=(url, shared, shared_strokes, start, results, "shared")) for _ in range(2)]
    for p in procs:
        p.start()
    start.wait()
    began = time.perf_counter()
    answers = [results.get(timeout=1800) for _ in procs]
    wall = time.perf_counter() - began
    for p in procs:
        p.join(timeout=60)
    errors = [a["error"] for a in answers if "error" in a]
    if errors:
        raise SystemExit(f"{len(errors)} writer(s) failed, first: {errors[0]}")
    own_times = [t for a in answers if a["label"] == "own" for t in a["times"]]
    shared_times = [a["times"] for a in answers if a["label"] == "shared"]
    with MatchStore(Knowledge.load(), url) as store:
        rows = store.all("SELECT seq, ruling FROM strokes WHERE match_id = :m AND superseded_at IS NULL ORDER BY seq",
                         {"m": shared})
        own_counts = [len(store.strokes(m)) for m in own_ids]
    assert [r["seq"] for r in rows] == list(range(1, 2 * shared_strokes + 1 + before)), "the shared sheet has a gap"
    assert own_counts == [strokes] * own, "an own match lost or doubled a stroke"
    # the early and late strokes of the shared sheet: each writer's first and last quarter
    quarter = max(1, shared_strokes // 4)
    early = [t for times in shared_times for t in times[:quarter]]
    late = [t for times in shared_times for t in times[-quarter:]]
    return {"own_p50": 1000 * statistics.median(own_times), "own_p95": 1000 * quantile(own_times, 0.95),
            "shared_p50": 1000 * statistics.median([t for ts in shared_times for t in ts]),
            "shared_p95": 1000 * quantile([t for ts in shared_times for t in ts], 0.95),
            "early_p95": 1000 * quantile(early, 0.95), "late_p95": 1000 * quantile(late, 0.95),
            "sheet": len(rows), "own_strokes": len(own_times), "wall": wall}


def part2(cluster, url: str, strokes: int, stops: int, seed: int) -> dict:
    """One table's strokes through `stops` immediate stops and restarts of the server."""
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.play.outbox import Outbox, new_id
    from referee_app.core.play.store import MatchStore
    from referee_app.core.storage.database import Database
    from referee_app.core.storage.errors import StoreUnavailable

    rng = random.Random(seed)
    knowledge = Knowledge.load()
    store = MatchStore(knowledge, Database(url))
    server = store.database.shown
    match_id = store.create("icf")
    folder = tempfile.mkdtemp(prefix="carrom-outbox-")
    outbox = Outbox(Path(folder) / "outbox.sqlite3")
    outbox.refresh(store, match_id)
    entered: list[str] = []
    kept = sent_from_outbox = 0
    stopped = threading.Event()
    done = threading.Event()

    def outages() -> None:
        for _ in range(stops):
            time.sleep(rng.uniform(0.2, 1.2))
            cluster.halt("immediate")   # as a crash would: the cluster commits synchronously
            stopped.set()
            time.sleep(rng.uniform(0.2, 1.5))
            cluster.resume()
            stopped.clear()
        done.set()

    chaos = threading.Thread(target=outages, daemon=True)
    chaos.start()
    i = 0
    while not done.is_set() or i < strokes:
        s, client_id = stroke(i), new_id()
        i += 1
        try:
            synced = False
            if outbox.count(server):
                report = outbox.sync(store)
                sent_from_outbox += report.sent
                synced = True
                if report.refused:
                    raise SystemExit(f"the server refused kept strokes: {report.refused[0]['problem']}")
                if report.unavailable:
                    raise StoreUnavailable(server, report.unavailable)
            store.add_stroke(match_id, s, client_id=client_id)
            if synced:   # the sheet as the server has it, the kept strokes in it (as the window does)
                outbox.refresh(store, match_id)
            else:
                local = outbox.held(server, match_id)
                outbox.hold(server, match_id, local["meta"], local["strokes"] + [s])
        except StoreUnavailable:
            outbox.keep(knowledge, server, match_id, [s], [client_id])
            kept += 1
        entered.append(client_id)
        time.sleep(0.01)
    chaos.join()
    while outbox.count(server):
        report = outbox.sync(store)
        sent_from_outbox += report.sent
        if report.refused:
            raise SystemExit(f"the server refused kept strokes: {report.refused[0]['problem']}")
        if report.unavailable:
            time.sleep(0.5)
    rows = store.all("SELECT seq, client_id FROM strokes WHERE match_id = :m AND superseded_at IS NULL ORDER BY seq",
                     {"m": match_id})
    stored = [r["client_id"] for r in rows]
    store.close()
    outbox.close()
    return {"entered": len(entered), "kept": kept, "sent": sent_from_outbox, "stored": len(stored),
            "duplicated": len(stored) - len(set(stored)), "lost": len(set(entered) - set(stored)),
            "in_order": stored == entered, "stops": stops}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--own", type=int, default=16, help="writers on their own matches")
    parser.add_argument("--strokes", type=int, default=60, help="strokes per own-match writer")
    parser.add_argument("--shared", type=int, default=150, help="strokes per writer on the shared match")
    parser.add_argument("--stops", type=int, default=20, help="server stops in part 2")
    parser.add_argument("--outbox-strokes", type=int, default=200, help="at least this many strokes in part 2")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    import contextlib
    import io

    from support.pg_cluster import Cluster

    with Cluster(durable=True) as cluster:
        name = cluster.create_database(prefix="writers")
        url = cluster.url(name)
        with contextlib.redirect_stdout(io.StringIO()):
            from referee_app.core.storage.database import Database

            Database(url).close()
        one = part1(url, args.own, args.strokes, args.shared)
        two = part2(cluster, url, args.outbox_strokes, args.stops, args.seed)
    print(f"PostgreSQL {cluster.bindir.parent.name}, fsync on; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    print(f"{args.own} writers on their own matches ({one['own_strokes']} strokes): "
          f"p50 {one['own_p50']:.1f} ms, p95 {one['own_p95']:.1f} ms per stroke (target p95 < 50 ms)")
    print(f"2 writers on one shared match ({one['sheet']} strokes): p50 {one['shared_p50']:.1f} ms, "
          f"p95 {one['shared_p95']:.1f} ms; first quarter p95 {one['early_p95']:.1f} ms, last quarter p95 "
          f"{one['late_p95']:.1f} ms (late/early {one['late_p95'] / one['early_p95']:.2f}x); wall {one['wall']:.1f} s")
    print(f"outbox through {two['stops']} server stops: {two['entered']} strokes entered, {two['kept']} kept offline, "
          f"{two['sent']} sent from the outbox, {two['stored']} stored, duplicated {two['duplicated']}, "
          f"lost {two['lost']}, in order: {two['in_order']}")
    if two["duplicated"] or two["lost"] or not two["in_order"]:
        raise SystemExit("the outbox lost, doubled or reordered a stroke")


if __name__ == "__main__":
    main()
