"""Writing records: the cost of one stroke as the sheet grows, and a long kill -9 run per store.

    .venv/bin/python benchmarks/bench_records.py            # per-stroke cost, 10 vs 300 strokes
    .venv/bin/python benchmarks/bench_records.py --disk     # the same with the disk's fsync
    .venv/bin/python benchmarks/bench_records.py --kill 100 # also 100 kill -9s per store
    .venv/bin/python benchmarks/bench_records.py --postgresql URL  # also through a PostgreSQL server

Per stroke: `matches play` given a file of 10 strokes and one of 300, in one run, side by side;
then each stroke of one 300-stroke sheet timed through the store, the 2nd-11th against the
291st-300th. Each stroke is
one committed write transaction (fsynced), so the figure includes the disk; the ratio is what
must stay near 1.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def strokes(n: int) -> list[dict]:
    # misses, so that a board never ends however long the sheet
    return [{"pocketed": {}} for _ in range(n)]


def run(*argv) -> str:
    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert code == 0, err.getvalue()
    return out.getvalue()


def per_stroke(folder: Path, n: int, already: int = 0) -> float:
    match_id = run("matches", "new").strip()
    if already:
        (folder / "pre.yaml").write_text(yaml.safe_dump(strokes(already)))
        run("matches", "play", match_id, str(folder / "pre.yaml"))
    path = folder / f"s{n}.yaml"
    path.write_text(yaml.safe_dump(strokes(n)))
    started = time.perf_counter()
    run("matches", "play", match_id, str(path))
    return (time.perf_counter() - started) / n


def store_strokes(database, n: int = 300) -> tuple[float, float]:
    """Stroke by stroke through the store: the median cost of the 2nd-11th strokes of a sheet
    against its last ten."""
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.play.store import MatchStore

    with MatchStore(Knowledge.load(), database) as store:
        match_id = store.create("icf")
        times = []
        for _ in range(n):
            started = time.perf_counter()
            store.add_stroke(match_id, {"pocketed": {}})
            times.append(time.perf_counter() - started)
    return statistics.median(times[1:11]), statistics.median(times[-10:])


def bench_postgresql(url: str) -> None:
    """The same strokes through the store against a PostgreSQL server (its URL; an empty database,
    or one at the schema's head) and against a SQLite file on the disk, in one run."""
    folder = Path(tempfile.mkdtemp())
    try:
        sqlite = store_strokes(str(folder / "records.sqlite3"))
        postgresql = store_strokes(url)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for name, (early, late) in (("SQLite (disk)", sqlite), ("PostgreSQL", postgresql)):
        print(f"{name:14} strokes 2-11: {early * 1000:6.2f} ms, 291-300: {late * 1000:6.2f} ms per stroke (median)")
    print(f"PostgreSQL / SQLite, strokes 2-11: {postgresql[0] / sqlite[0]:.2f}; load {os.getloadavg()[0]:.1f}")


def bench_strokes(disk: bool) -> None:
    # On a tmpfs by default: the disk's fsync, the same for every stroke but noisy on a busy
    # machine, is left out, so what is measured is what grows, or not, with the sheet.
    shm = None if disk or not os.access("/dev/shm", os.W_OK) else "/dev/shm"
    folder = Path(tempfile.mkdtemp(dir=shm))
    print(f"records in {folder} ({'memory' if shm else 'disk'})")
    try:
        _bench_strokes(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _bench_strokes(folder: Path) -> None:
    os.environ["CARROM_REFEREE_DATABASE"] = str(folder / "records.sqlite3")
    run("matches", "new")  # warm: knowledge base, compiled rules
    per_stroke(folder, 5)
    short, long_ = per_stroke(folder, 10), per_stroke(folder, 300)
    print(f"matches play, a file of 10 strokes:  {short * 1000:6.2f} ms per stroke")
    print(f"matches play, a file of 300 strokes: {long_ * 1000:6.2f} ms per stroke  (ratio {long_ / short:.2f})")
    early, late = store_strokes(None)
    print(f"strokes 2-11 of a sheet:             {early * 1000:6.2f} ms per stroke (median)")
    print(f"strokes 291-300 of the same sheet:   {late * 1000:6.2f} ms per stroke (median, ratio {late / early:.2f})")


WRITERS = {
    "matches": """
import sys
from referee_app.core.storage import db
from referee_app.core.knowledge.root import Knowledge
from referee_app.core.play.store import MatchStore
store = MatchStore(Knowledge.load(), db.connect(sys.argv[1]))
match_id = store.create("icf")
n = 0
while True:
    store.add_stroke(match_id, {"pocketed": {}})
    n += 1
    print(n, flush=True)
""",
    "forms": """
import sys
from referee_app.core.storage import db
from referee_app.core.forms.store import FormsStore
from referee_app.core.knowledge.root import Knowledge
store = FormsStore(Knowledge.load(), db.connect(sys.argv[1]))
form = store.create("protest")
n = 0
while True:
    n += 1
    store.set_field(form.id, "facts", "x" * n)
    print(n, flush=True)
""",
    "inspections": """
import sys
from referee_app.core.storage import db
from referee_app.core.inspection.store import InspectionStore
from referee_app.core.knowledge.root import Knowledge
store = InspectionStore(db.connect(sys.argv[1]))
specs = Knowledge.load().equipment
n = 0
while True:
    store.save({"item": "chair", "measurements": {"seat_height": {"value": 42, "unit": "cm"}}}, specs,
               inspector="I", label=f"chair {n}")
    n += 1
    print(n, flush=True)
""",
}
COUNT = {"matches": "SELECT COUNT(*) FROM strokes", "inspections": "SELECT COUNT(*) FROM inspections",
         "forms": "SELECT COALESCE(MAX(length(json_extract(fields, '$.facts'))), 0) FROM forms"}


def kill_run(store: str, path: Path, rng: random.Random) -> tuple[int, int]:
    """Starts a writer, kills it with SIGKILL mid-write; returns (acknowledged, found)."""
    proc = subprocess.Popen([sys.executable, "-c", WRITERS[store], str(path)], stdout=subprocess.PIPE, text=True,
                            cwd=REPO)
    acked, deadline = 0, time.monotonic() + rng.uniform(0.5, 1.5)
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    for line in proc.stdout:  # acknowledged before the kill landed
        acked = int(line)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    found = conn.execute(COUNT[store]).fetchone()[0]
    conn.close()
    return acked, found


def bench_kills(iterations: int) -> None:
    rng = random.Random(21)
    for store in WRITERS:
        folder = Path(tempfile.mkdtemp())
        total_acked = total_found = 0
        for i in range(iterations):
            path = folder / f"{i}.sqlite3"
            acked, found = kill_run(store, path, rng)
            assert found >= acked, f"{store}: {acked} acknowledged, only {found} found after kill -9"
            total_acked += acked
            total_found += found
        print(f"{store:12} {iterations} kill -9s: {total_acked} writes acknowledged, none lost, integrity ok")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--kill", type=int, default=0, help="kill -9 iterations per store")
    parser.add_argument("--disk", action="store_true", help="records on the disk, fsync included")
    parser.add_argument("--postgresql", metavar="URL", help="also strokes through this PostgreSQL database")
    args = parser.parse_args()
    bench_strokes(args.disk)
    if args.postgresql:
        bench_postgresql(args.postgresql)
    if args.kill:
        bench_kills(args.kill)
