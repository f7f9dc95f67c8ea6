"""The window is shown before its records are opened (SQLAlchemy, a server's first answer: see
benchmarks/bench_startup.py), and opens them just after: a records problem is still asked about,
over the window, and the app does not go on when the user chooses to quit."""
from __future__ import annotations

import gc
import os
import subprocess
import sys

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
    area = window.rulings_area
    print(when, "sqlalchemy" in sys.modules, area.record_button.isEnabled(), area.last_ruling is not None,
          area.ruling_view.headline.text(), flush=True)
QTimer.singleShot(0, lambda: loaded("shown"))
window.ready.connect(lambda: (loaded("ready"), app.quit()))
sys.exit(app.exec())
"""


def test_the_window_is_shown_before_its_records_are_opened_and_opens_them_just_after(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_DATA_HOME=str(tmp_path / "data"),
               CARROM_REFEREE_DATABASE=str(tmp_path / "records.sqlite3"))
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    # shown: the Rulings area takes a stroke (Record is on) and asks for one; the empty stroke is
    # ruled, and the records opened, just after
    shown, ready = out.stdout.split("\n")[:2]
    assert shown == "shown False True False Tick what happened in the stroke"
    assert ready.startswith("ready True True True ") and "Tick what happened" not in ready
    assert (tmp_path / "records.sqlite3").is_file()


def test_records_the_user_will_not_replace_close_the_window_and_the_app_fails(gui_env, records_file, monkeypatch):
    from referee_app.ui import app
    from referee_app.ui.common import records

    path = records_file
    path.write_bytes(b"garbage, but someone's garbage" * 100)
    asked = []
    monkeypatch.setattr(records, "ask_new_store", lambda exc, parent=None: asked.append((exc.reason, parent)) or False)
    assert app.run_app() == 1
    assert gc.isenabled(), "the collector, off while the window was built, runs again"
    (reason, parent), = asked
    assert reason == "damaged" and parent.objectName() == "main_window" and not parent.isVisible()
    assert path.read_bytes() == b"garbage, but someone's garbage" * 100


def test_the_rulebook_is_built_when_first_needed_and_its_menus_act_on_it_before_then(qtbot, gui_env, mini_kb):
    from referee_app.ui import settings
    from support.gui import key, make_window

    settings.put(settings.LAST_CLAUSE, "alpha:1.2")
    settings.put(settings.BOOKMARKS, ["beta:7"])
    window = make_window(qtbot, mini_kb)
    assert window.rulebook_host.area is None, "not built for the first paint"
    actions = window.rulebook_actions
    assert [a.text() for a in window.go_menu.actions()] == ["Back", "Forward", "Contents"]
    assert actions.bookmark.isEnabled() and not actions.bookmark.isChecked() and not actions.back.isEnabled()
    key(window, "Ctrl+D")   # from the Rulings area: bookmarks the clause last read, as it always did
    assert window.rulebook_host.area is not None and window.rulebook.current_clause == "alpha:1.2"
    assert settings.get_list(settings.BOOKMARKS) == ["beta:7", "alpha:1.2"]
    assert actions.bookmark.isChecked() and window.rulebook.bookmark_action is actions.bookmark
    assert window.stack.currentIndex() == 1


def test_the_rulebook_menus_follow_the_language_before_the_area_is_built(qtbot, gui_env, mini_kb):
    from referee_app import i18n
    from support.gui import make_window

    window = make_window(qtbot, mini_kb)
    i18n.set_language("fr")
    french = i18n.translations("fr").gettext
    assert window.rulebook_host.area is None
    texts = [a.text() for a in window.go_menu.actions() + window.bookmarks_menu.actions()]
    assert texts == [french(t) for t in ("Back", "Forward", "Contents", "Bookmark", "Bookmarks", "Copy citation",
                                         "Compare sources")]
    assert "Back" not in texts and "Forward" not in texts
    assert window.rulebook.back_action.text() == french("Back")


def test_the_rulings_area_takes_the_focus_at_the_head_of_its_chain(window):
    from PySide6.QtWidgets import QApplication

    from referee_app.ui.main_window import _focus_first
    from support.gui import key

    assert QApplication.focusWidget() is window.rulings_area.first_name
    key(window, "Ctrl+2")
    key(QApplication.focusWidget(), "Ctrl+1")
    assert QApplication.focusWidget() is window.rulings_area.first_name
    window.stack.currentWidget().setFocus()
    _focus_first(window.stack.currentWidget())   # the walk the other areas take finds the same field
    assert QApplication.focusWidget() is window.rulings_area.first_name


def test_a_clock_turns_red_when_its_time_is_up_and_back_when_reset(qtbot, gui_env):
    from referee_app.ui.rulings.clocks import Countdown

    clock = Countdown("stroke_clock", 0)
    qtbot.addWidget(clock)
    assert clock.display.styleSheet() == ""
    clock.start_pause()
    qtbot.waitUntil(lambda: "c62828" in clock.display.styleSheet(), timeout=2000)
    assert clock.display.text() == "time is up"
    clock.reset()
    assert clock.display.styleSheet() == "" and clock.display.text().strip() == "0.0"


def test_a_window_shown_but_never_painted_still_opens_its_records(qtbot, gui_env, monkeypatch):
    from referee_app.ui import main_window

    monkeypatch.setattr(main_window, "FINISH_START_LATEST_MS", 50)
    monkeypatch.setattr(main_window.MainWindow, "paintEvent", lambda self, event: None)   # minimised, off screen
    opened = []
    window = main_window.MainWindow(open_records=lambda parent: opened.append(parent) or True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.started, timeout=2000)
    assert opened == [window]


def test_a_stroke_ticked_and_recorded_before_the_window_finished_starting_is_ruled_and_saved(qtbot, gui_env):
    from referee_app.core.play.store import MatchStore
    from referee_app.ui.main_window import MainWindow

    window = MainWindow()   # built, not shown yet: nothing of what follows the first paint has run
    qtbot.addWidget(window)
    area = window.rulings_area
    assert not window.started and area.last_ruling is None
    area.form.own.setValue(1)
    assert area.last_ruling is not None, "a tick rules at once"
    area.record()
    assert len(area.match.strokes) == 1 and area.sheet.strokes.rowCount() == 1
    assert [s["pocketed"]["own"] for s in MatchStore(window.knowledge).strokes(area.match_id)] == [1]


def test_the_window_loads_its_knowledge_and_core_before_it_imports_qt(tmp_path):
    probe = ("import sys\n"
             "from referee_app.ui.knowledge_start import start_core\n"
             "knowledge, problems = start_core()\n"
             "print(len(knowledge.kb.clauses) > 100, 'icf' in knowledge.rulesets, problems == [],\n"
             "      'referee_app.core.play.match' in sys.modules,\n"
             "      any(name.startswith(('PySide6', 'shiboken6')) for name in sys.modules))\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True", "True", "False"]


def test_a_warm_window_paints_before_it_reads_the_knowledge_base(tmp_path):
    """The first paint needs the rulesets (compiled) and the sources' titles, which the knowledge
    cache keeps apart from the clauses: reading the clauses (5 ms) waits until the first ruling,
    just after the first paint (core/knowledge/root.py, `_open`)."""
    probe = PROBE.replace("area.ruling_view.headline.text()", "window.knowledge.kb_read")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_DATA_HOME=str(tmp_path / "data"),
               CARROM_REFEREE_DATABASE=str(tmp_path / "records.sqlite3"))
    cold, warm = (subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
                  for _ in range(2))
    assert cold.returncode == 0 and warm.returncode == 0, cold.stderr + warm.stderr
    assert cold.stdout.split("\n")[0].endswith(" True")    # the first start reads everything, to keep it
    shown, ready = warm.stdout.split("\n")[:2]
    assert shown == "shown False True False False"
    assert ready == "ready True True True True"


def test_a_broken_knowledge_base_loaded_before_the_window_is_said_in_it(qtbot, gui_env, tmp_path, monkeypatch):
    from support.gui import write_mini_kb

    from referee_app.ui import knowledge_start
    from referee_app.ui.main_window import MainWindow

    root = write_mini_kb(tmp_path / "kb")
    (root / "glossary.yaml").unlink()
    knowledge, problems = knowledge_start.load_knowledge(root)
    w = MainWindow(knowledge, kb_problems=problems)
    qtbot.addWidget(w)
    w.show()
    assert problems and w.kb_problems == problems
    assert "problem" in w.problems_label.text() and w.problems_label.isVisible()


def test_the_smoke_test_s_window_leaves_when_its_reader_stops_at_the_first_line(tmp_path):
    """The bundle's checks run `carrom-referee | grep -q "window shown"`: grep leaves at that line,
    and the app, told to quit once its records are open, must not stay open because writing
    "window ready" to a closed pipe failed."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CARROM_REFEREE_QUIT_WHEN_SHOWN="1",
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("CARROM_REFEREE_DATABASE", None)
    app = subprocess.Popen([sys.executable, "-m", "referee_app"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, env=env)
    try:
        assert app.stdout.readline().startswith("window shown")
        app.stdout.close()   # the reader is gone
        assert app.wait(timeout=60) == 0
    finally:
        if app.poll() is None:
            app.kill()
