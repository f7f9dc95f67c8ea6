"""Alt+letter on tournament day: among what can be reached at once (the menu bar's mnemonics, the
area's visible controls, its banners; a dialog's own controls), no letter is taken twice, in
French, Italian and English. A clashing letter only moves the focus between its owners and ticks
nothing, so a referee pressing Alt+S for the striker may land in the Bookmarks menu instead."""
from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QMenu, QTabBar, QWidget

from referee_app import i18n
from referee_app.ui.main_window import EQUIPMENT, LEARN, RULEBOOK, RULINGS, TOURNAMENT
from support.gui import spin

LANGS = ("fr", "it", "en")


def mnemonic(text: str | None) -> str | None:
    """The letter Alt reaches in a control's text ("&&" is a plain ampersand), folded as Qt folds it."""
    m = re.search(r"&([^&])", (text or "").replace("&&", ""))
    return m.group(1).casefold() if m else None


def mnemonics(root: QWidget, menubar=None) -> dict[str, list[str]]:
    """Every Alt+letter reachable at once under `root`, each with what owns it."""
    found: dict[str, list[str]] = {}

    def add(text, what):
        letter = mnemonic(text)
        if letter:
            found.setdefault(letter, []).append(f"{what} {text!r}")

    if menubar is not None:
        for action in menubar.actions():
            if action.isVisible():
                add(action.text(), "menu")
    for w in root.findChildren(QWidget):
        if not w.isVisible() or isinstance(w, QMenu) or w.window() is not root.window():
            continue
        if isinstance(w, QAbstractButton):
            add(w.text(), type(w).__name__ + " " + w.objectName())
        elif isinstance(w, QLabel) and w.buddy() is not None:
            add(w.text(), "label of " + w.buddy().objectName())
        elif isinstance(w, QGroupBox):
            add(w.title(), "group " + w.objectName())
        elif isinstance(w, QTabBar):
            for i in range(w.count()):
                add(w.tabText(i), "tab")
    return found


def clashes(root: QWidget, menubar=None) -> dict[str, list[str]]:
    return {k: v for k, v in mnemonics(root, menubar).items() if len(v) > 1}


def window_states(window):
    """(name, widget) of each state of the window a referee meets, the window set in it."""
    window.show_area(RULINGS)
    area = window.rulings_area
    yield "rulings", window
    area.resume.offer({"id": 1, "first_name": "Élodie", "second_name": "Luca", "strokes": 12,
                       "ruleset": "icf"}, lambda lang: "ICF")
    window.server_banner.show()   # the records server out of reach, said above every area
    yield "rulings, resume banner, server banner", window
    window.server_banner.hide()
    area.resume.hide()
    area.what_if.setChecked(True)
    yield "rulings, what if", window
    area.what_if.setChecked(False)
    area.cancel_button.show()
    area.tie_button.show()
    area.form.set_colours(("white", "black"))
    area.form.own.setValue(1)
    area.form.opponent.setValue(1)
    yield "rulings, correcting, colours open", window
    area.cancel_button.hide()
    area.tie_button.hide()
    area.form.set_colours(None)
    area.form.reset()
    window.show_area(RULEBOOK)
    for i in range(window.rulebook.nav.count()):
        window.rulebook.nav.setCurrentIndex(i)
        yield f"rulebook, panel {i}", window
    window.show_area(EQUIPMENT)
    window.equipment.ensure_pages()
    for i, page in enumerate(window.equipment.pages):
        window.equipment_tabs.setCurrentIndex(i)
        yield f"equipment, {page.objectName()}", window
        if page.objectName() == "forms_page":
            page.new_form("protest", {})
            spin(0.05)
            yield "equipment, a protest being written", window
    window.show_area(LEARN)
    yield "learn", window
    window.learn.exam_box.setChecked(True)
    yield "learn, exam", window
    window.learn.exam_box.setChecked(False)
    window.show_area(TOURNAMENT)
    yield "tournament", window


def dialogs(window):
    from referee_app.ui.preferences import PreferencesDialog
    from referee_app.ui.rulings.compare_view import CompareDialog
    from referee_app.ui.shortcuts_dialog import ShortcutsDialog

    area = window.rulings_area
    yield "preferences", PreferencesDialog(window)
    yield "shortcuts", ShortcutsDialog(window)
    yield "compare rulesets", CompareDialog(window.knowledge, area.situation_doc(), area, reference="icf")
    from referee_app.ui.common.conflict_dialog import ConflictDialog

    yield "changed on another machine", ConflictDialog("Protest – No. 12", {"referee": "A"}, {"referee": "B"},
                                                       parent=window)


@pytest.mark.parametrize("lang", LANGS)
def test_no_alt_letter_is_taken_twice_in_any_area_or_dialog(window, qtbot, lang):
    i18n.set_language(lang)
    found = {}
    for name, root in window_states(window):
        spin(0.02)
        clash = clashes(root.centralWidget(), root.menuBar())
        if clash:
            found[name] = clash
    for name, dialog in dialogs(window):
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        clash = clashes(dialog)
        if clash:
            found[name] = clash
        dialog.close()
    assert not found, "\n".join(f"{lang} {name}: {c}" for name, c in found.items())


def test_the_walk_sees_the_reported_clashes_when_they_are_there(window, qtbot):
    """The test above would see a clash: Alt+S given to the striker and to a menu."""
    window.show_area(RULINGS)
    window.bookmarks_menu.setTitle("&Signets")
    assert "s" in clashes(window.centralWidget(), window.menuBar())


@pytest.mark.parametrize("lang", LANGS)
def test_alt_letters_tick_the_striker_and_the_queen_with_the_resume_banner_shown(window, qtbot, lang):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    i18n.set_language(lang)
    window.show_area(RULINGS)
    area = window.rulings_area
    area.resume.offer({"id": 1, "first_name": "Élodie", "second_name": "Luca", "strokes": 12, "ruleset": "icf"},
                      lambda lang: "ICF")
    for box in (area.form.striker, area.form.queen):
        letter = mnemonic(box.text())
        QTest.keyClick(area.form.own, letter, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(box.isChecked)      # ticked, not merely focused
    assert area.resume.isVisible() and area.resume.match["id"] == 1   # the banner's button not pressed
