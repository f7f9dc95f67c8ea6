#!/usr/bin/env python3
"""Regenerate the screenshots of docs/screenshots/: each area of the window in each language.

    .venv/bin/python tools/screenshots.py                 # all of them, offscreen
    .venv/bin/python tools/screenshots.py --lang fr --out /tmp/shots

Runs offscreen at the size of a 1366×768 laptop screen (less the taskbar), with empty settings
and a private search cache in a temporary folder: the referee's own settings are never touched.
Files: <area>-<lang>.png for rulings, rulebook, compare, search, equipment (an inspection half
done) and protest (a protest filled from a stroke), plus rulings-dark-large-<lang>.png,
rulebook-dark-<lang>.png and rulebook-large-<lang>.png.

Then, in French and Italian, every area on a 1280×720 laptop (`<area>-1280x720-<lang>.png`) and on a
1024×600 netbook at the largest type, large type and the last zoom step
(`<area>-1024x600-largest-<lang>.png`): rulings, rulebook, equipment, protest, learn, and the
tournament's entries, rounds (a result refused) and standings. The window is held to the screen's
size, as a window manager holds it, so a screenshot shows what is cut or scrolled.
    .venv/bin/python tools/screenshots.py --sizes-only    # just those
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from referee_app.languages import LANGUAGES  # noqa: E402
SIZE = (1366, 768)
CLAUSE = "icf-fr:3.12.c"  # the queen pocketed too early: several sources say it, differently
QUERIES = {"en": "queen cover", "fr": "reine confirmer", "it": "regina confermare"}



def a_match_under_way(window, rulings, strokes: list[dict]):
    """The Rulings area with a named match, `strokes` recorded, and a disputed stroke ticked but
    not yet recorded (one own coin, the queen and the striker): what every shot of it shows."""
    window.show_area(rulings)
    area = window.rulings_area
    area.header.load({"first_name": "A. Rossi", "second_name": "B. Dubois", "tournament": "Open de Cannes",
                      "round": "3", "table_no": "7", "referee": "C. Martin"})
    for stroke in strokes:
        area.form.load(stroke)
        area.record()
    area.form.load({"pocketed": {"own": 1, "queen": True, "striker": True}})
    return area

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", action="append", choices=LANGUAGES)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--sizes-only", action="store_true", help="only the 1280×720 and 1024×600 shots")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="carrom-shots-")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        os.environ[var] = f"{tmp}/{var.lower()}"
    sys.path.insert(0, str(REPO))

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    os.environ["CARROM_REFEREE_DATABASE"] = f"{tmp}/records.sqlite3"   # the tournament's, never the user's
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, f"{tmp}/settings")
    app = QApplication(["carrom-referee"])
    app.setApplicationName("carrom-referee")

    from referee_app import i18n
    from referee_app.ui.rulebook import search_worker
    from referee_app.ui import settings
    from referee_app.ui import theme
    from referee_app.ui.main_window import EQUIPMENT, RULEBOOK, RULINGS, MainWindow

    def settle(seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

    args.out.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in [] if args.sizes_only else args.lang or LANGUAGES:
        settings.put(settings.LANGUAGE, lang)
        window = MainWindow()
        window.resize(*SIZE)
        window.show()
        settle()

        def shot(name: str, lang: str = lang, window: MainWindow = window) -> None:
            settle()
            path = args.out / f"{name}-{lang}.png"
            window.grab().save(str(path))
            written.append(path)

        area = a_match_under_way(window, RULINGS, [{"pocketed": {"own": 2}}, {"pocketed": {}}, {"pocketed": {"own": 1}}])
        shot("rulings")
        window.set_appearance("dark")
        window.set_large_type(True)
        shot("rulings-dark-large")
        window.set_large_type(False)
        window.set_appearance("system")
        area.form.load({"pocketed": {}, "foul": "improper_stroke"})
        area.record()
        area.sheet.strokes.setCurrentCell(area.sheet.strokes.rowCount() - 1, 0)
        area.protest_stroke()  # the Forms page, a protest filled from the match
        shot("protest")
        area.new_match()
        window.rulebook.open_clause(CLAUSE)
        window.rulebook.nav.setCurrentIndex(0)
        window.show_area(RULEBOOK, focus=False)
        shot("rulebook")
        window.rulebook.compare_action.setChecked(True)
        shot("compare")
        window.focus_search()
        window.rulebook.search.search_box.setText(QUERIES[lang])
        deadline = time.monotonic() + 60  # the first search builds the index
        while window.rulebook.search._status[0] not in ("results", "none", "failed") and time.monotonic() < deadline:
            settle(0.05)
        window.rulebook.search.results.setFocus()
        window.rulebook.open_clause(window.rulebook.search.results.item(0).data(256) or CLAUSE)
        shot("search")
        window.show_area(EQUIPMENT)
        window.equipment_tabs.setCurrentIndex(0)
        inspection = window.equipment.pages[0]
        inspection.set_item("striker")
        inspection.current_form().rows["diameter"].input.setText("1 5/8 in")  # the weight not yet taken
        shot("equipment")
        window.show_area(RULEBOOK, focus=False)
        window.rulebook.nav.setCurrentIndex(0)
        window.rulebook.open_clause(CLAUSE)
        window.set_appearance("dark")
        shot("rulebook-dark")
        window.set_appearance("system")
        window.set_large_type(True)
        shot("rulebook-large")
        window.set_large_type(False)
        window.close()
        search_worker.wait_for_searches()
    for lang in [lang for lang in args.lang or LANGUAGES if lang != "en"]:
        for size, largest in (((1280, 720), False), ((1024, 600), True)):
            written += sized_shots(lang, size, largest, args.out, settle)
    i18n.set_language("en")
    theme.apply_type_size(False, 0)
    for path in written:
        print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


def sized_shots(lang: str, size: tuple[int, int], largest: bool, out: Path, settle) -> list[Path]:
    """Every area at `size`, the window held to it; at the largest type when `largest`."""
    from referee_app.ui import settings
    from referee_app.ui import theme
    from referee_app.ui.main_window import EQUIPMENT, LEARN, RULEBOOK, RULINGS, TOURNAMENT, MainWindow

    settings.put(settings.LANGUAGE, lang)
    settings.put(settings.LARGE_TYPE, largest)
    settings.put(settings.ZOOM, theme.ZOOM_MAX if largest else 0)
    window = MainWindow()
    window.setMaximumSize(*size)   # the screen: a window manager keeps the window within it
    window.resize(*size)
    window.show()
    settle()
    suffix = f"{size[0]}x{size[1]}" + ("-largest" if largest else "")
    written = []

    def shot(name: str) -> None:
        settle()
        path = out / f"{name}-{suffix}-{lang}.png"
        window.grab().save(str(path))
        written.append(path)

    area = a_match_under_way(window, RULINGS, [{"pocketed": {"own": 2}}, {"pocketed": {}}, {"pocketed": {"own": 1}},
                                               {"pocketed": {}, "foul": "improper_stroke"}])
    shot("rulings")
    window.show_area(RULEBOOK, focus=False)
    window.rulebook.open_clause(CLAUSE)
    shot("rulebook")
    window.show_area(EQUIPMENT)
    window.equipment_tabs.setCurrentIndex(0)
    inspection = window.equipment.pages[0]
    inspection.set_item("striker")
    inspection.current_form().rows["diameter"].input.setText("1 5/8 in")
    shot("equipment")
    area.sheet.strokes.setCurrentCell(area.sheet.strokes.rowCount() - 1, 0)
    area.protest_stroke()
    shot("protest")
    window.show_area(LEARN)
    window.learn.start()
    shot("learn")
    window.show_area(TOURNAMENT)
    desk = window.tournament.area
    tid = desk.store.create(f"Open de Cannes ({suffix}, {lang})", [], window.current_ruleset())
    for name in ("Anne Lefèvre", "Bruno Castellani", "Chloé Martin", "David Rossi", "Emma Bianchi"):
        desk.store.add_player(tid, name, checked_in=True)
    desk.store.pair(tid, seed=1)
    desk.store.result(tid, 1, 2, [25, 11])
    desk.fill_tournaments(select=tid)
    desk.tabs.setCurrentWidget(desk.entries)
    shot("tournament-entries")
    desk.tabs.setCurrentWidget(desk.rounds)
    desk.rounds.select_table(1)
    desk.rounds.first_points.setValue(25)
    desk.rounds.second_points.setValue(25)
    desk.rounds.record()   # refused, with its clause, below the tabs
    shot("tournament-rounds")
    desk.tabs.setCurrentWidget(desk.standings)
    shot("tournament-standings")
    window.close()
    settings.put(settings.LARGE_TYPE, False)
    settings.put(settings.ZOOM, 0)
    theme.apply_type_size(False, 0)
    return written


if __name__ == "__main__":
    sys.exit(main())
