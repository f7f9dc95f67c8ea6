"""Issue 32, item 9: what a screen reader says. Every keyboard control of every area and dialog
has a name in French, Italian and English (never its value: a yes/no box is not "—", a unit box
not "cm"), with a description where the name is not enough; the three clocks' buttons say which
clock they start; a ruling that changes is announced."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication

from referee_app.ui.common.conflict_dialog import ConflictDialog
from referee_app.ui.main_window import EQUIPMENT, LEARN, RULEBOOK, RULINGS, TOURNAMENT
from referee_app.ui.preferences import PreferencesDialog
from referee_app.ui.rulings.compare_view import CompareDialog
from referee_app.ui.shortcuts_dialog import ShortcutsDialog
from support.a11y import keyboard_controls, spoken_name, unnamed


def choose_language(window, lang):
    window.language_combo.setCurrentIndex(window.language_combo.findData(lang))


def every_area(window):
    """The window with every area and page built: what a referee, a desk, an inspector, a learner reach."""
    for area in (RULINGS, RULEBOOK, EQUIPMENT, LEARN, TOURNAMENT):
        window.show_area(area)
    window.equipment.ensure_pages()
    assert window.rulings_area.situation is not None   # the what-if board, built when first asked for
    window.show_area(RULINGS)
    return window


def every_dialog(window):
    area = window.rulings_area
    dialogs = [PreferencesDialog(window), ShortcutsDialog(window),
               CompareDialog(window.knowledge, area.situation_doc(), window),
               ConflictDialog("match 3", {"first_name": "Anna"}, {"first_name": "Anne"}, parent=window)]
    for d in dialogs:
        d.show()
    return dialogs


@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_every_keyboard_control_of_every_area_and_dialog_has_a_name(window, lang):
    choose_language(window, lang)
    every_area(window)
    missing = unnamed(window)
    for dialog in every_dialog(window):
        missing += [f"{type(dialog).__name__}: {m}" for m in unnamed(dialog)]
        dialog.close()
    assert missing == [], "\n".join(missing)


def _controls(window, name):
    return [w for w in keyboard_controls(window) if w.objectName() == name]


def test_the_names_are_in_the_users_language_and_never_the_value(window):
    every_area(window)
    page = next(p for p in window.equipment.pages if p.objectName() == "inspection_page")
    page.set_item("lamp")
    said = {}
    for lang in ("en", "fr", "it"):
        choose_language(window, lang)
        yes_no = _controls(window, "field_centred")[0]
        unit = _controls(window, "unit_pocket_diameter")[0]
        picker = _controls(window, "clause_query")[0]
        ticks = [w.accessibleName() for w in _controls(window, "qt_spinbox_lineedit")]  # none: Qt's own part
        assert ticks == []
        said[lang] = (spoken_name(yes_no), spoken_name(unit), spoken_name(picker))
        assert said[lang][0] not in ("—", "") and said[lang][1] not in ("cm", "mm", "in", "")
        assert unit.accessibleDescription() == spoken_name(unit)   # what Linux readers say beside the value
    assert said["fr"] != said["en"] and said["it"] != said["en"] and said["fr"] != said["it"]
    assert "cm" not in said["fr"][1].split() and said["fr"][1].startswith("Unité")


def test_the_protest_forms_times_and_score_are_named_after_their_field(window):
    choose_language(window, "fr")
    every_area(window)
    page = next(p for p in window.equipment.pages if p.objectName() == "forms_page")
    editor = page.editors["protest"]
    announced = editor.fields["announced_at"]
    assert spoken_name(announced.known).startswith(spoken_name(announced.edit))
    assert announced.known.accessibleDescription()          # what ticking it means
    score = editor.fields["score"]
    names = {spoken_name(e) for e in score.edits.values()}
    assert len(names) == 2 and all(n for n in names)


def test_the_three_clocks_buttons_say_which_clock_they_start(window, qtbot):
    area = window.rulings_area
    clocks = (area.stroke_clock, area.break_clock, area.match_clock)
    starts = [c.toggle.accessibleName() for c in clocks]
    resets = [c.reset_button.accessibleName() for c in clocks]
    assert len(set(starts)) == 3 and len(set(resets)) == 3
    assert starts[2] == "Start the match clock" and resets[0] == "Reset the stroke clock"
    area.match_clock.start_pause()
    assert area.match_clock.toggle.accessibleName() == "Pause the match clock"
    area.match_clock.reset()
    choose_language(window, "it")
    assert len({c.toggle.accessibleName() for c in clocks}) == 3
    assert "Start" not in area.match_clock.toggle.accessibleName()


def test_a_changed_ruling_is_announced_without_taking_the_focus(window, qtbot, monkeypatch):
    heard = []
    real = QAccessible.updateAccessibility

    def listen(event):
        heard.append((event.type(), getattr(event, "message", lambda: "")()))
        real(event)

    monkeypatch.setattr(QAccessible, "updateAccessibility", staticmethod(listen))
    area = window.rulings_area
    headline = area.ruling_view.headline
    focus = QApplication.focusWidget()
    area.form.load({"pocketed": {"own": 1}})
    area.update_ruling()
    qtbot.waitUntil(lambda: any(kind == QAccessible.Event.Announcement for kind, _m in heard))
    said = [m for kind, m in heard if kind == QAccessible.Event.Announcement]
    assert said[-1] == headline.text() and headline.accessibleName() == headline.text()
    assert headline.accessibleDescription()                 # the why, for who asks for more
    assert QApplication.focusWidget() is focus
    heard.clear()
    area.update_ruling()                                    # the same ruling again: nothing new to say
    assert not [m for kind, m in heard if kind == QAccessible.Event.Announcement]
    area.form.load({"pocketed": {}})
    area.update_ruling()
    said = [m for kind, m in heard if kind == QAccessible.Event.Announcement]
    assert said and said[-1] == headline.text()
