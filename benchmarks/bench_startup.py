#!/usr/bin/env python3
"""How long the app and the command line take to start, as ratios to a bare start measured in the
same run, so that a slow or busy machine slows both sides alike.

    .venv/bin/python benchmarks/bench_startup.py              # 7 rounds, offscreen
    .venv/bin/python benchmarks/bench_startup.py --runs 3 --platform xcb

Three figures, each a whole fresh process timed from launch, runs of both sides interleaved:

- the window: `carrom-referee` until its window is shown, against a bare PySide6 window
  (QApplication, one QWidget, shown), both timed to the first event after `show()`; goal at most
  2x. What the window does just after its first paint (the empty stroke's ruling, then opening
  the records) is timed too, as "window ready", and printed beside it, not counted;
- `carrom-referee rule --json FILE` against `python -c pass`; goal at most 6x;
- `carrom-referee search QUERY` against `python -c pass`; goal at most 6x.

Settings, records and caches point at an empty temporary folder. A first round, not counted,
starts each once, as the first start after an install does: it writes the knowledge cache and
the search index, and the modules' byte code (into a temporary prefix). The first start's own
figure is printed too. The window must not build the search index to appear.
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
GOALS = {"window": 2.0, "rule": 6.0, "search": 6.0}

BARE_WINDOW = r"""
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication(["bare"])
window = QWidget()
window.resize(1024, 700)
window.show()
def shown():
    print("window shown", flush=True)
    app.quit()
QTimer.singleShot(0, shown)
app.exec()
"""

SITUATION = {"ruleset": "icf", "before": {"own_on_board": 6, "opponent_on_board": 7, "queen": "on_board"},
             "stroke": {"pocketed": {"own": 2, "queen": True}}}


def timed(cmd: list[str], env: dict, until: str | None = None, marks: dict | None = None) -> float:
    """Seconds from launch to exit, or to the first line starting with `until`; `marks`, a dict of
    line prefixes, receives the seconds to each such line printed later (None if none was)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
    if until:
        for line in proc.stdout:
            if line.startswith(until):
                break
        else:
            raise SystemExit(f"{cmd[-1][:40]!r} ended without printing {until!r} (status {proc.wait()})")
        took = time.perf_counter() - start
        for line in proc.stdout:
            for prefix in marks or ():
                if line.startswith(prefix) and marks[prefix] is None:
                    marks[prefix] = time.perf_counter() - start
    else:
        proc.stdout.read()
        took = time.perf_counter() - start
    if proc.wait(timeout=60) != 0:
        raise SystemExit(f"{' '.join(cmd[:4])} failed with status {proc.returncode}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--platform", default=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(QT_QPA_PLATFORM=args.platform, XDG_CONFIG_HOME=f"{tmp}/config", XDG_CACHE_HOME=f"{tmp}/cache",
                   XDG_DATA_HOME=f"{tmp}/data", PYTHONPYCACHEPREFIX=f"{tmp}/pycache",
                   CARROM_REFEREE_QUIT_WHEN_SHOWN="1")
        situation = Path(tmp, "situation.json")
        situation.write_text(json.dumps(SITUATION))
        commands = {
            "window": ([py, "-m", "referee_app"], "window shown"),
            "bare window": ([py, "-c", BARE_WINDOW], "window shown"),
            "rule": ([py, "-m", "referee_app", "rule", "--json", str(situation)], None),
            "search": ([py, "-m", "referee_app", "search", "reine confirmer"], None),
            "python": ([py, "-c", "pass"], None),
        }
        first = {name: timed(cmd, env, until) for name, (cmd, until) in commands.items()}
        times: dict[str, list[float]] = {name: [] for name in commands}
        ready: list[float] = []   # the empty stroke ruled and the records opened, just after the first paint
        for _ in range(args.runs):
            for name, (cmd, until) in commands.items():
                marks = {"window ready": None} if name == "window" else None
                times[name].append(timed(cmd, env, until, marks))
                if marks and marks["window ready"] is not None:
                    ready.append(marks["window ready"])
        # the window alone, on an empty cache: does it build the search index to appear?
        with tempfile.TemporaryDirectory() as fresh:
            alone = dict(env, XDG_CACHE_HOME=f"{fresh}/cache")
            timed(commands["window"][0], alone, "window shown")
            index_built_by_window = any(p.is_file() for p in Path(fresh, "cache").rglob("search/**/*"))
    median = {name: statistics.median(t) for name, t in times.items()}
    ratios = {"window": median["window"] / median["bare window"], "rule": median["rule"] / median["python"],
              "search": median["search"] / median["python"]}
    base = {"window": "bare window", "rule": "python", "search": "python"}
    print(f"start-up, median of {args.runs} interleaved rounds ({args.platform}, {os.cpu_count()} cores):")
    for name, ratio in ratios.items():
        ok = "ok" if ratio <= GOALS[name] else "OVER"
        print(f"  {name:7} {median[name]:6.3f} s  vs {base[name]:12} {median[base[name]]:6.3f} s   "
              f"ratio {ratio:4.2f}x  (goal <= {GOALS[name]:.0f}x) {ok}")
    if ready:
        print(f"  window ready (the empty stroke ruled, the records opened, after the first paint): "
              f"{statistics.median(ready):.3f} s")
    print("  first start after install (writes the knowledge cache, the index, the byte code): "
          + ", ".join(f"{name} {first[name]:.3f} s" for name in ("window", "rule", "search")))
    print(f"  search index built by the window to appear: {'YES (it must not be)' if index_built_by_window else 'no'}")
    ok = all(ratios[n] <= GOALS[n] for n in GOALS) and not index_built_by_window
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
