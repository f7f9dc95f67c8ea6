"""A netbook's 1024×600 screen at the largest type (large type and the last zoom step): every area
and dialog keeps the window on the screen, and every button can be reached, on screen or scrolled
to inside a scroll area. Back to normal type, the combo boxes are their own size again."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, QSize
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QScrollArea, QTabWidget,
                               QToolBar, QWidget)

from referee_app.ui import theme
from referee_app.ui.common import layout
from referee_app.ui.main_window import EQUIPMENT, LEARN, RULEBOOK, RULINGS, TOURNAMENT
from support.gui import make_window

SCREEN = (1024, 600)


def largest_type(window) -> None:
    window._zoom = theme.ZOOM_MAX - 1
    window.zoom(+1)
    window.set_large_type(True)


def settle(qtbot) -> None:
    qtbot.wait(60)   # fonts and layouts settle over a few turns of the event loop


def out_of_reach(top: QWidget) -> list[str]:
    """The buttons of `top` (shown, in the current tab) a user cannot bring into view: outside the
    top-level widget, or outside their scroll area's viewport once scrolled to."""
    missed = []
    screen = QRect(QPoint(0, 0), top.size())
    for button in top.findChildren(QAbstractButton):
        if not button.isVisible() or button.window() is not top or isinstance(button.parent(), QToolBar) \
                or type(button).__name__ in ("QTabBarCloseButton", "QToolBarExtension"):
            continue
        scroll = _scroll_area_of(button, top)
        if scroll is not None:
            scroll.ensureWidgetVisible(button, 0, 0)
            QApplication.processEvents()
            port = scroll.viewport()
            rect = QRect(button.mapTo(port, QPoint(0, 0)), button.size())
            inside = port.rect().contains(rect) and screen.contains(
                QRect(port.mapTo(top, QPoint(0, 0)), port.size()).intersected(screen))
            port_on_screen = screen.intersects(QRect(port.mapTo(top, QPoint(0, 0)), port.size()))
            ok = inside and port_on_screen
        else:
            ok = screen.contains(QRect(button.mapTo(top, QPoint(0, 0)), button.size()))
        if not ok:
            missed.append(f"{button.objectName() or type(button).__name__} {button.text()!r}")
    return missed


def _scroll_area_of(widget: QWidget, top: QWidget) -> QScrollArea | None:
    w = widget.parentWidget()
    while w is not None and w is not top:
        if isinstance(w, QScrollArea) and w.widget() is not None and w.widget().isAncestorOf(widget):
            return w
        w = w.parentWidget()
    return None


def every_tab(top: QWidget):
    """Each page of each tab widget, in turn (nested ones too), the page shown."""
    seen = set()
    def walk(widget):
        for tabs in widget.findChildren(QTabWidget):
            if id(tabs) in seen or not tabs.isVisible():
                continue
            seen.add(id(tabs))
            for i in range(tabs.count()):
                tabs.setCurrentIndex(i)
                QApplication.processEvents()
                yield f"{tabs.objectName()}[{i}]"
                yield from walk(tabs.widget(i))
    yield "main"
    yield from walk(top)


@pytest.fixture
def small(qtbot, gui_env, tmp_path, monkeypatch):
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    # the screen the dialogs keep within (the offscreen platform's own is 800×800)
    monkeypatch.setattr(layout, "screen_room", lambda _widget: QSize(*SCREEN), raising=False)
    window = make_window(qtbot, size=SCREEN)
    window.setMaximumSize(*SCREEN)   # the screen: a window manager keeps the window within it
    yield window
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()


def a_tournament_with_a_round(window) -> None:
    window.show_area(TOURNAMENT)
    desk = window.tournament.area
    tid = desk.store.create("Open de Cannes et de la Côte d'Azur", [], "icf")
    for name in ("Anne Lefèvre-Dubois", "Bruno Castellammare", "Chloé", "David"):
        desk.store.add_player(tid, name, checked_in=True)
    desk.store.pair(tid, seed=1)
    desk.fill_tournaments(select=tid)


@pytest.mark.parametrize("area", [RULINGS, RULEBOOK, EQUIPMENT, LEARN, TOURNAMENT])
def test_every_area_at_1024x600_and_the_largest_type_keeps_its_buttons_in_reach(small, qtbot, area):
    window = small
    if area == TOURNAMENT:
        a_tournament_with_a_round(window)
    largest_type(window)
    window.show_area(area)
    settle(qtbot)
    missed = {}
    for where in every_tab(window.stack.currentWidget()):
        settle(qtbot)
        assert window.minimumSizeHint().width() <= SCREEN[0] and window.minimumSizeHint().height() <= SCREEN[1], \
            (where, window.minimumSizeHint())
        assert (window.width(), window.height()) == SCREEN, (where, window.size())
        gone = out_of_reach(window)
        if gone:
            missed[where] = gone
    assert missed == {}


def test_the_toolbar_and_menus_hide_nothing_behind_the_extension(small, qtbot):
    window = small
    largest_type(window)
    for lang in ("fr", "it", "en"):
        window.language_combo.setCurrentIndex(window.language_combo.findData(lang))
        settle(qtbot)
        for bar in (window.toolbar, window.choices_toolbar):
            hidden = [a.objectName() or a.text() for a in bar.actions()   # shown, yet behind "»"
                      if a.isVisible() and bar.widgetForAction(a) is not None and not bar.widgetForAction(a).isVisible()]
            assert hidden == [], (lang, bar.objectName())
            assert bar.geometry().right() < window.width(), (lang, bar.objectName())
        for combo in (window.ruleset_combo, window.language_combo):   # not squeezed below their size
            assert combo.width() >= combo.sizeHint().width(), (lang, combo.objectName())
        bar = window.menuBar()
        assert all(bar.actionGeometry(m.menuAction()).right() <= bar.width() for m in
                   (window.file_menu, window.view_menu, window.go_menu, window.bookmarks_menu, window.help_menu)), lang


def test_a_long_correction_fits_the_screen_with_its_buttons_in_reach(small, qtbot):
    from PySide6.QtCore import QTimer

    from referee_app.ui.rulings import match_dialogs

    window = small
    largest_type(window)
    area = window.rulings_area
    for _stroke in range(24):   # nothing pocketed: the turn passes every stroke
        area.form.load({"pocketed": {"own": 0}})
        area.record()
    seen = {}

    def look(tries=100):
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            if tries:   # never left running past the test, to close another test's dialog
                QTimer.singleShot(50, lambda: look(tries - 1))
            return
        seen["size"] = (dialog.width(), dialog.height())
        seen["missed"] = out_of_reach(dialog)
        seen["buttons"] = [b.text() for b in dialog.findChildren(QAbstractButton) if b.isVisible()]
        dialog.reject()

    QTimer.singleShot(0, look)
    # the first stroke pockets a coin: the same side plays on, and every later ruling changes
    match_dialogs.confirm_correction(window, area.session, 1, {"pocketed": {"own": 1}}, area.names())
    assert "size" in seen, "no dialog was shown"
    assert seen["size"][0] <= SCREEN[0] and seen["size"][1] <= SCREEN[1], seen["size"]
    assert seen["missed"] == [] and len(seen["buttons"]) >= 2


def test_the_clocks_digits_grow_with_the_type(small, qtbot):
    clock = small.rulings_area.match_clock.display
    before = clock.font().pointSizeF()
    largest_type(small)
    settle(qtbot)
    assert clock.font().pointSizeF() > before * 2


def test_the_combo_boxes_are_their_own_size_again_after_the_largest_type(small, qtbot):
    window = small
    a_tournament_with_a_round(window)

    def visit() -> dict:
        sizes = {}
        for area in (RULINGS, RULEBOOK, EQUIPMENT, LEARN, TOURNAMENT):
            window.show_area(area)
            for where in every_tab(window.stack.currentWidget()):
                settle(qtbot)
                for combo in window.findChildren(QComboBox):
                    if combo.isVisible():
                        sizes.setdefault(combo, (where, combo.width(), combo.sizeHint().width()))
        return sizes

    before = visit()
    largest_type(window)
    visit()
    window.zoom(0)
    window.set_large_type(False)
    after = visit()
    grown = {f"{combo.objectName()} in {where}": (width, hint, after[combo][1:])
             for combo, (where, width, hint) in before.items()
             if combo in after and (after[combo][1] > width + 2 or after[combo][2] > hint + 2)}
    assert grown == {}


@pytest.mark.parametrize("large", [False, True])
def test_no_score_sheet_cell_is_cut_short(small, qtbot, large):
    window = small
    window.setMaximumSize(1280, 720)
    window.resize(1280, 720)
    window.set_large_type(large)
    area = window.rulings_area
    area.first_name.setText("Anna")
    area.second_name.setText("Bruno")
    for stroke in ({"pocketed": {"own": 2}}, {"pocketed": {"own": 1, "queen": True, "striker": True}},
                   {"pocketed": {}, "foul": "improper_stroke"}):
        area.form.load(stroke)
        area.record()
    settle(qtbot)
    table = area.sheet.strokes
    cut = []
    for i in range(table.rowCount()):
        for j in range(table.columnCount()):
            item = table.item(i, j)
            needed = table.sizeHintForIndex(table.model().index(i, j))
            shown = table.visualItemRect(item)
            if needed.height() > shown.height() + 1 or (not table.wordWrap() and needed.width() > shown.width() + 1):
                cut.append((i, j, item.text()))
    assert cut == []


@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_the_protest_form_needs_no_horizontal_scroll_bar_at_1280(qtbot, gui_env, lang):
    window = make_window(qtbot, size=(1280, 720))
    window.language_combo.setCurrentIndex(window.language_combo.findData(lang))
    window.open_protest({})
    settle(qtbot)
    for scroll in window.equipment.findChildren(QScrollArea):
        if scroll.isVisible():
            assert scroll.horizontalScrollBar().maximum() == 0, (lang, scroll.objectName(), scroll.widget().minimumSizeHint())


@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_the_record_button_is_on_screen_at_1024x600_in_normal_type_without_scrolling(small, qtbot, lang):
    from test_ui_one_screen import on_screen, play_some_strokes

    window = small
    window.language_combo.setCurrentIndex(window.language_combo.findData(lang))
    play_some_strokes(window.rulings_area)
    settle(qtbot)
    area = window.rulings_area
    assert (window.width(), window.height()) == SCREEN
    hidden = [name for name, w in (("record", area.record_button), ("stroke form", area.form),
                                   ("ruling", area.ruling_view.headline)) if not on_screen(window, w)]
    assert hidden == []


def test_the_learn_questions_choices_keep_their_whole_text_at_the_largest_type(small, qtbot):
    window = small
    largest_type(window)
    window.show_area(LEARN)
    window.learn.start()
    settle(qtbot)
    labels = [window.learn.prompt] + [row.label for row in window.learn.choice_buttons]
    cut = [label.text()[:30] for label in labels if label.height() < label.heightForWidth(label.width())]
    assert cut == []


def test_every_dialog_at_1024x600_and_the_largest_type_keeps_its_buttons_in_reach(small, qtbot):
    from referee_app.ui.common.conflict_dialog import ConflictDialog
    from referee_app.ui.preferences import PreferencesDialog
    from referee_app.ui.rulings.compare_view import CompareDialog
    from referee_app.ui.shortcuts_dialog import ShortcutsDialog

    window = small
    largest_type(window)
    area = window.rulings_area
    area.form.load({"pocketed": {"own": 1, "queen": True, "striker": True}})
    dialogs = {
        "preferences": lambda: PreferencesDialog(window),
        "shortcuts": lambda: ShortcutsDialog(window),
        "compare": lambda: CompareDialog(area.knowledge, area.situation_doc(), area),
        "conflict": lambda: ConflictDialog("the result of table 2", {"points": [25, 13], "entered_at": ""},
                                           {"points": [25, 11], "entered_at": "2026-11-29T10:02:00"},
                                           {"points": "Points", "entered_at": "Entered at"}, window),
    }
    problems = {}
    for name, make in dialogs.items():
        dialog = make()
        qtbot.addWidget(dialog)
        dialog.show()
        settle(qtbot)
        if dialog.width() > SCREEN[0] or dialog.height() > SCREEN[1]:
            problems[name] = (dialog.width(), dialog.height())
        elif out_of_reach(dialog):
            problems[name] = out_of_reach(dialog)
        dialog.close()
    assert problems == {}


def test_the_desks_lists_keep_rows_in_view_at_the_largest_type(small, qtbot):
    window = small
    a_tournament_with_a_round(window)
    largest_type(window)
    desk = window.tournament.area
    for view in (desk.entries, desk.rounds, desk.standings):
        desk.tabs.setCurrentWidget(view)
        settle(qtbot)
        table = view.table
        assert table.viewport().height() >= 3 * table.rowHeight(0), view.objectName()
