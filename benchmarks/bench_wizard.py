"""From a tick in the stroke wizard to the updated ruling on screen, offscreen.

Each sample ticks a control (the own-coins count or the queen box) on a match already 40
strokes long, lets Qt process and paint, and reads the new headline. Target: under 50 ms.
Run: .venv/bin/python benchmarks/bench_wizard.py
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["CARROM_REFEREE_DATABASE"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

from PySide6.QtWidgets import QApplication  # noqa: E402

app = QApplication([])

from referee_app.core.knowledge.root import Knowledge  # noqa: E402
from referee_app.ui.rulings.area import RulingsArea  # noqa: E402


def main():
    area = RulingsArea(Knowledge.load(), "icf")
    area.resize(1366, 740)
    area.show()
    app.processEvents()
    for _ in range(20):  # a long board: misses pass the turn back and forth
        area.form.load({"pocketed": {}})
        area.record()
        area.form.load({"pocketed": {"own": 0}})
        area.record()
    samples = []
    for i in range(200):
        before = area.ruling_view.headline.text()
        t = time.perf_counter()
        if i % 2:
            area.form.queen.setChecked(not area.form.queen.isChecked())
        else:
            area.form.own.setValue(0 if area.form.own.value() else 1)
        area.ruling_view.headline.repaint()
        area.ruling_view.details.repaint()
        app.processEvents()
        samples.append((time.perf_counter() - t) * 1000)
        assert area.ruling_view.headline.text() or before
    samples.sort()
    print(f"tick to ruling on screen: median {statistics.median(samples):.1f} ms, "
          f"p95 {samples[int(len(samples) * 0.95)]:.1f} ms, max {samples[-1]:.1f} ms over {len(samples)} ticks "
          f"(match of {len(area.match.strokes)} strokes)")


if __name__ == "__main__":
    main()
