"""The main window: three areas by keystroke, Ctrl+F from anywhere, toolbar combos, type size,
appearance, and what is remembered across windows."""
from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel, QTabWidget

from referee_app import i18n
from referee_app.ui import settings
from referee_app.ui.main_window import EQUIPMENT, RULEBOOK, RULINGS
from support.gui import focused, key, make_window


def test_each_area_is_one_keystroke_away(window, qtbot):
    for keys, index, name in (("Ctrl+1", RULINGS, "Rulings"), ("Ctrl+3", EQUIPMENT, "Equipment & forms"),
                              ("Ctrl+2", RULEBOOK, "Rulebook")):
        key(focused() or window, keys)
        assert window.stack.currentIndex() == index
        assert window.stack.currentWidget().isVisible()
        assert window.windowTitle().startswith(name)
        assert window.area_actions[index].isChecked()


def test_the_rulings_area_rules_a_stroke_and_opens_its_clauses(window, qtbot):
    key(window, "Ctrl+1")
    area = window.rulings_area
    assert area.objectName() == "rulings_area" and area.form.isVisible()
    area.form.own.setValue(2)
    assert area.ruling_view.headline.text().endswith("plays again")
    area.ruling_view.details.linkActivated.emit("clause:icf-fr:3.6.a")
    assert window.stack.currentIndex() == RULINGS  # the clause opens beside the ruling
    area.ruling_view.to_rulebook.click()
    assert window.stack.currentIndex() == RULEBOOK
    window.ruleset_combo.setCurrentIndex(window.ruleset_combo.findData("aicf-2009"))
    assert area.match.ruleset == "aicf-2009"  # no stroke recorded yet: the new match follows the toolbar


def test_equipment_area_holds_inspection_and_forms(window):
    from referee_app.ui.forms.page import FormsPage
    from referee_app.ui.inspection.page import InspectionPage

    assert isinstance(window.equipment_tabs, QTabWidget)
    assert window.equipment_tabs.count() == 0  # not built at startup
    key(window, "Ctrl+3")
    tabs = window.equipment_tabs
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Equipment inspection", "Forms"]
    assert [type(p) for p in window.equipment.pages] == [InspectionPage, FormsPage]
    assert tabs.isVisible() and not window.findChild(QLabel, "equipment_placeholder").isVisible()
    window.language_combo.setCurrentIndex(window.language_combo.findData("fr"))
    assert tabs.tabText(1) == "Formulaires"


def test_ctrl_f_reaches_the_search_box_from_every_area(window):
    box = window.rulebook.search.search_box
    for area_keys in ("Ctrl+1", "Ctrl+3", "Ctrl+2"):
        key(focused() or window, area_keys)
        key(focused() or window, "Ctrl+F")
        assert window.stack.currentIndex() == RULEBOOK
        assert focused() is box and box.isVisible()


def test_ruleset_and_language_are_always_visible(window):
    for area_keys in ("Ctrl+1", "Ctrl+2", "Ctrl+3"):
        key(focused() or window, area_keys)
        for combo in (window.ruleset_combo, window.language_combo):
            assert combo.isVisible()
    assert [window.language_combo.itemText(i) for i in range(3)] == ["Français", "Italiano", "English"]
    assert window.ruleset_combo.currentText() == "International rules (ICF)"


def test_ruleset_combo_puts_its_sources_first_in_the_contents(window, qtbot):
    window.ruleset_combo.setCurrentIndex(window.ruleset_combo.findData("it"))
    tree = window.rulebook.tree
    assert tree.topLevelItem(0).text(0).startswith("IT")
    assert tree.topLevelItem(0).font(0).bold()
    assert window.current_ruleset() == "it"
    assert settings.get_str(settings.RULESET) == "it"


def test_every_action_has_a_shortcut_and_says_it(window):
    from PySide6.QtGui import QAction

    for action in window.findChildren(QAction):
        if action.parent() not in (window, window.rulebook):
            continue  # the pages of the other areas answer for their own actions
        if action.objectName().startswith("appearance_") or action.menu() or action.isSeparator() or not action.text():
            continue
        if action.objectName() == "about_action":
            continue  # reached through the Help menu (Alt+H)
        assert action.shortcut().toString(), action.objectName()
        assert action.shortcut().toString() in action.toolTip(), action.objectName()


def test_tab_goes_from_search_box_to_results_and_from_contents_to_the_text(window, qtbot):
    key(window, "Ctrl+F")
    key(focused(), "Tab")
    assert focused() is window.rulebook.search.results
    key(focused(), "Ctrl+E")
    assert focused() is window.rulebook.tree
    key(focused(), "Tab")
    assert focused() is window.rulebook.view


def test_large_type_and_zoom_change_the_text_size(window, qtbot):
    base = QApplication.font().pointSizeF()
    key(window, "Ctrl+Shift+T")
    assert window.large_type_action.isChecked()
    large = QApplication.font().pointSizeF()
    assert large >= base * 1.25
    key(focused() or window, "Ctrl++")
    assert QApplication.font().pointSizeF() > large
    key(focused() or window, "Ctrl+-")
    key(focused() or window, "Ctrl+-")
    assert QApplication.font().pointSizeF() < large
    key(focused() or window, "Ctrl+0")
    assert abs(QApplication.font().pointSizeF() - large) < 0.01
    # Qt passes the application font on to every widget at the next turn of the event loop.
    qtbot.waitUntil(lambda: window.rulebook.view.font().pointSizeF() == QApplication.font().pointSizeF())


def test_dark_appearance_gives_a_dark_page_with_light_text(mini_window, qtbot):
    w = mini_window
    w.rulebook.open_clause("alpha:1.1")
    w.appearance_actions["dark"].trigger()
    palette = QApplication.palette()
    assert palette.color(QPalette.ColorRole.Window).lightness() < 100
    assert palette.color(QPalette.ColorRole.Text).lightness() > 180
    qtbot.wait(20)  # the palette reaches the widgets at the next turn of the event loop
    dark, light = _lightness(w.rulebook.view.viewport().grab().toImage())
    assert dark > 0.8 and light > 0.002  # a dark page, and light text on it
    w.appearance_actions["light"].trigger()
    qtbot.wait(20)
    dark, light = _lightness(w.rulebook.view.viewport().grab().toImage())
    assert dark < 0.2
    assert settings.get_str(settings.APPEARANCE) == "light"


def _lightness(image) -> tuple[float, float]:
    """Shares of dark (< 80) and light (> 180) pixels, sampled."""
    dark = light = n = 0
    for y in range(0, image.height(), 3):
        for x in range(0, image.width(), 3):
            v = image.pixelColor(x, y).lightness()
            dark += v < 80
            light += v > 180
            n += 1
    return dark / n, light / n


def test_settings_are_remembered_by_the_next_window(qtbot, gui_env):
    w = make_window(qtbot)
    w.ruleset_combo.setCurrentIndex(w.ruleset_combo.findData("aicf-2009"))
    w.language_combo.setCurrentIndex(w.language_combo.findData("it"))
    key(w, "Ctrl+Shift+T")
    w.resize(700, 500)  # the offscreen test screen is 800×800: stay inside it
    w.move(40, 30)
    key(w, "Ctrl+3")
    settings.remember_search("reine")
    w.rulebook.open_clause("icf-fr:3.12.e")
    qtbot.wait(20)
    saved = (w.width(), w.height())  # as the window manager left it: large type may widen some pages
    w.close()
    i18n.set_language("en")  # a new process would start in English

    again = make_window(qtbot, size=None)
    assert again.current_ruleset() == "aicf-2009"
    assert i18n.current_language() == "it" and again.language_combo.currentData() == "it"
    assert again.large_type_action.isChecked()
    assert again.stack.currentIndex() == EQUIPMENT
    assert again.rulebook.current_clause == "icf-fr:3.12.e"
    assert again.rulebook.search.results.item(0).text() == "reine"
    assert (again.width(), again.height()) == saved
    assert again.height() == 500


def test_first_window_fits_a_1366x768_laptop(qtbot, gui_env):
    from referee_app.ui.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    screen = QApplication.primaryScreen().availableGeometry()
    assert w.width() <= max(1280, screen.width()) and w.height() <= max(820, screen.height())
    assert w.minimumSizeHint().width() <= 1366 and w.minimumSizeHint().height() <= 768


def test_a_broken_knowledge_base_still_opens_and_says_so(qtbot, gui_env, tmp_path, monkeypatch):
    from support.gui import write_mini_kb

    from referee_app.core.knowledge.loader import KNOWLEDGE_ENV
    from referee_app.ui import main_window

    root = write_mini_kb(tmp_path / "kb")
    (root / "glossary.yaml").unlink()
    monkeypatch.setenv(KNOWLEDGE_ENV, str(root))   # the window given no knowledge loads the one chosen so
    w = main_window.MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.kb_problems and "alpha:1.1" in w.kb.clauses
    assert "problem" in w.problems_label.text() and w.problems_label.isVisible()


def test_window_shows_cited_clauses_for_other_areas(window):
    key(window, "Ctrl+1")
    assert window.open_clause("icf-fr:3.12.e")
    assert window.stack.currentIndex() == RULEBOOK
    assert "ICF 3.12 e" in window.rulebook.view.toPlainText()
    assert focused() is window.rulebook.view
    assert not window.open_clause("icf-fr:99.99")
    assert "icf-fr:99.99" in window.statusBar().currentMessage()


def test_shortcuts_help_lists_every_shortcut(window):
    from referee_app.ui.shortcuts_dialog import shortcut_rows

    rows = dict(shortcut_rows(window))
    assert rows["Back"] == "Alt+Left"
    assert rows["Search"] == "Ctrl+F"
    assert "Ctrl+2" in rows.values() and "Ctrl+Shift+C" in rows.values()


def test_f1_opens_the_list_of_shortcuts(window):
    from PySide6.QtCore import QTimer

    seen = {}

    def look():
        dialog = QApplication.activeModalWidget()
        seen.update(title=dialog.windowTitle(), rows=dialog.table.rowCount())
        dialog.reject()

    QTimer.singleShot(50, look)
    key(window, "F1")
    assert seen["title"] == "Keyboard shortcuts" and seen["rows"] >= 15


def test_following_the_system_gives_the_palette_back_to_the_platform(mini_window):
    platform = QApplication.palette().color(QPalette.ColorRole.Window).name()
    mini_window.set_appearance("dark")
    assert QApplication.palette().color(QPalette.ColorRole.Window).name() != platform
    mini_window.set_appearance("system")
    assert QApplication.palette().color(QPalette.ColorRole.Window).name() == platform
    assert QApplication.palette().resolveMask() == 0  # nothing of ours left: the platform decides


def test_no_two_shortcuts_of_the_window_clash(window):
    """Qt fires neither of two shortcuts on the same keys: each key does one thing."""
    from PySide6.QtGui import QAction, QShortcut

    window.show_area(EQUIPMENT)  # builds the pages of every area
    window.show_area(RULINGS)
    owners: dict[str, set] = {}
    for action in window.findChildren(QAction):
        for keys in action.shortcuts():
            owners.setdefault(keys.toString(), set()).add(action.objectName() or action.text())
    for shortcut in window.findChildren(QShortcut):
        for keys in shortcut.keys():
            owners.setdefault(keys.toString(), set()).add(f"QShortcut of {shortcut.parent().objectName()}")
    clashes = {k: v for k, v in owners.items() if len(v) > 1}
    assert not clashes, clashes


def test_a_first_window_opens_on_the_rulings_area(window):
    assert window.stack.currentIndex() == RULINGS
    assert window.windowTitle().startswith("Rulings")
