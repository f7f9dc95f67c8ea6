"""The window is shown before its records are opened (SQLAlchemy, a server's first answer: see
benchmarks/bench_startup.py), and opens them just after: a records problem is still asked about,
over the window, and the app does not go on when the user chooses to quit."""
from __future__ import annotations

import os
import subprocess
import sys

from test_ui_support import gui_env, search_cache  # noqa: F401

PROBE = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(["probe"])
from referee_app.ui.common.records import ensure_records
from referee_app.ui.main_window import MainWindow
window = MainWindow(open_records=ensure_records)
window.show()
def loaded(when):
    print(when, "sqlalchemy" in sys.modules, window.rulings_area.record_button.isEnabled(), flush=True)
QTimer.singleShot(0, lambda: loaded("shown"))
window.ready.connect(lambda: (loaded("ready"), app.quit()))
sys.exit(app.exec())
"""


def test_the_window_is_shown_before_its_records_are_opened_and_opens_them_just_after(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_DATA_HOME=str(tmp_path / "data"),
               CARROM_REFEREE_DB=str(tmp_path / "records.sqlite3"))
    env.pop("CARROM_REFEREE_DATABASE", None)
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    # shown: the Rulings area rules the empty stroke at once (Record is on), with no records opened yet
    assert out.stdout.split("\n")[:2] == ["shown False True", "ready True True"]
    assert (tmp_path / "records.sqlite3").is_file()


def test_records_the_user_will_not_replace_close_the_window_and_the_app_fails(gui_env, tmp_path, monkeypatch):
    from referee_app.ui import app
    from referee_app.ui.common import records

    path = tmp_path / "records.sqlite3"
    path.write_bytes(b"garbage, but someone's garbage" * 100)
    asked = []
    monkeypatch.setattr(records, "ask_new_store", lambda exc, parent=None: asked.append((exc.reason, parent)) or False)
    assert app.run_app() == 1
    (reason, parent), = asked
    assert reason == "damaged" and parent.objectName() == "main_window" and not parent.isVisible()
    assert path.read_bytes() == b"garbage, but someone's garbage" * 100
