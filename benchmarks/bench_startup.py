#!/usr/bin/env python3
"""How long from launching the app to a window a referee can use.

    .venv/bin/python benchmarks/bench_startup.py            # 7 cold starts, offscreen
    .venv/bin/python benchmarks/bench_startup.py --runs 3 --platform xcb

Each run is a fresh process, as when the referee starts the app: the clock starts before the
interpreter is launched and stops when the window has been shown and the event loop has
painted it and become idle (the child then prints a line and quits). Settings and the search
cache point at empty temporary folders, so nothing of the user's is read or written, and no
search index exists: starting must not build one. Target: under 1 s on a 2-core machine.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = 1.0

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import referee_app.ui  # noqa: F401  (the interpreter fix comes first, as in the app)
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[1])
t_qt = time.perf_counter()
app = QApplication(["carrom-referee"])
from referee_app.ui.main_window import MainWindow
t_import = time.perf_counter()
window = MainWindow()
t_built = time.perf_counter()
window.show()

def ready():
    t_ready = time.perf_counter()
    from referee_app.ui.rulebook import search_worker
    index_built = search_worker._backend is not None and search_worker._backend.ready
    print(json.dumps({"qt_import": t_qt - t0, "app_import": t_import - t_qt, "build": t_built - t_import,
                      "show": t_ready - t_built, "in_process": t_ready - t0, "index_built": index_built,
                      "clauses": len(window.kb.clauses)}), flush=True)
    app.quit()

QTimer.singleShot(0, ready)  # runs once the first show and paint events are processed
app.exec()
"""


def one_run(platform: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM=platform, XDG_CONFIG_HOME=f"{tmp}/config",
                   XDG_CACHE_HOME=f"{tmp}/cache", XDG_DATA_HOME=f"{tmp}/data")
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", CHILD, f"{tmp}/settings"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
        line = proc.stdout.readline()
        wall = time.perf_counter() - start
        proc.wait(timeout=30)
        if not line:
            raise SystemExit(f"the app did not start (exit status {proc.returncode})")
        out = json.loads(line)
        out["wall"] = wall
        out["index_left"] = any(Path(tmp, "cache").rglob("*"))
        return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--platform", default=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    args = parser.parse_args()
    one_run(args.platform)  # warm the disk cache: the first start after a build is not the usual one
    runs = [one_run(args.platform) for _ in range(args.runs)]
    walls = sorted(r["wall"] for r in runs)
    median = statistics.median(walls)
    print(f"start to usable window, {args.runs} cold processes ({args.platform}, {os.cpu_count()} cores):")
    print(f"  median {median:.3f} s   min {walls[0]:.3f} s   max {walls[-1]:.3f} s   target < {TARGET:.1f} s")
    parts = ("qt_import", "app_import", "build", "show")
    means = {p: statistics.mean(r[p] for r in runs) for p in parts}
    interp = median - statistics.median(r["in_process"] for r in runs)
    print("  of which: interpreter start {:.3f} s, Qt import {:.3f} s, app modules {:.3f} s, "
          "window built {:.3f} s, shown and painted {:.3f} s".format(interp, *means.values()))
    print(f"  knowledge base: {runs[0]['clauses']} clauses; search index built at startup: "
          f"{'YES (it must not be)' if any(r['index_built'] or r['index_left'] for r in runs) else 'no'}")
    ok = median < TARGET and not any(r["index_built"] or r["index_left"] for r in runs)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
