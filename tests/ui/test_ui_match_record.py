"""The match at the table, on the real window: one ruleset (the match's), a header saved as typed,
the unfinished match offered at start, a protest filled from the stroke, and corrections that
say only what changes."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.core.play.store import MatchStore
from referee_app.ui.main_window import EQUIPMENT, RULINGS
from referee_app.ui.rulings import match_dialogs
from support.gui import focused, key, make_window, type_text
from support.kbcopy import installed


def record(area, stroke):
    area.form.load(stroke)
    key(area.form.own, "Ctrl+Return")


def fill_header(area, fields: dict) -> None:
    """The match header as typed, each field saved as the window saves it."""
    for name, text in fields.items():
        area.header.fields[name].setText(text)
        area._header_edited(name, text)


def reopened_with_an_unfinished_match(qtbot):
    """A window closed after two strokes of Anna's match, and the window opened after it."""
    first = make_window(qtbot)
    area = first.rulings_area
    fill_header(area, {"first_name": "Anna"})
    record(area, {"pocketed": {"own": 2}})
    record(area, {"pocketed": {}})
    first.close()
    return make_window(qtbot)


def answer_with(monkeypatch, button, asked):
    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    # a correction's rulings are asked over a list that scrolls (match_dialogs.ask_over_list)
    monkeypatch.setattr(match_dialogs, "ask_over_list", lambda parent, title, intro, listing, question_text:
                        asked.append(f"{intro}\n\n{listing}\n\n{question_text}") or button == QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: asked.append(text))


def test_the_open_match_decides_the_ruleset_and_a_change_is_asked_and_recorded(window, qtbot, monkeypatch):
    area = window.rulings_area
    combo = window.ruleset_combo
    assert combo.currentText() == "International rules (ICF)"  # outside a match: by its human name
    record(area, {"pocketed": {"own": 2}})
    asked = []
    answer_with(monkeypatch, QMessageBox.StandardButton.No, asked)
    combo.setCurrentIndex(combo.findData("it"))
    assert asked and "International rules (ICF)" in asked[0]
    assert area.match.ruleset == "icf" and combo.currentData() == "icf"  # refused: the toolbar says the match's
    answer_with(monkeypatch, QMessageBox.StandardButton.Yes, asked)
    combo.setCurrentIndex(combo.findData("it"))
    assert area.match.ruleset == "it" and combo.currentData() == "it"
    assert MatchStore(installed()).meta(area.match_id)["ruleset"] == "it"
    assert MatchStore(installed()).events(area.match_id)[0]["detail"]["from"] == "icf"
    # what-if rules under the match's ruleset too: one ruleset everywhere
    assert area.what_if_ruleset() == "it"


def test_opening_a_match_brings_its_ruleset_to_the_toolbar(window, qtbot):
    store = MatchStore(installed())
    mid = store.create("aicf-2009", first_name="Anna", second_name="Bruno")
    store.add_stroke(mid, {"pocketed": {"own": 1}})
    window.rulings_area.open_match(mid)
    assert window.ruleset_combo.currentData() == "aicf-2009"
    assert window.rulebook.tree.topLevelItem(0).text(0).startswith("AICF")


def test_the_header_is_saved_as_typed_even_after_the_first_stroke(window, qtbot):
    area = window.rulings_area
    record(area, {"pocketed": {"own": 1}})
    for name, text in (("first_name", "Anna"), ("tournament", "Open de Cannes"), ("round", "3"),
                       ("table_no", "7"), ("referee", "C. Martin")):
        field = area.header.fields[name]
        field.setFocus()
        type_text(field, text)
    meta = MatchStore(installed()).meta(area.match_id)
    assert (meta["first_name"], meta["tournament"], meta["round"], meta["table_no"], meta["referee"]) == \
        ("Anna", "Open de Cannes", "3", "7", "C. Martin")
    assert len(area.match.strokes) == 1
    assert "Anna" in area.status.text()


def test_the_unfinished_match_is_offered_when_the_window_opens(qtbot, gui_env):
    second = reopened_with_an_unfinished_match(qtbot)
    banner = second.rulings_area.resume
    assert banner.isVisible() and "Anna" in banner.label.text() and "2 strokes" in banner.label.text()
    banner.resume_button.click()
    assert len(second.rulings_area.match.strokes) == 2 and not banner.isVisible()
    assert second.rulings_area.first_name.text() == "Anna"


def test_protest_this_stroke_opens_a_protest_filled_from_the_match(window, qtbot):
    area = window.rulings_area
    fill_header(area, {"first_name": "Anna", "second_name": "Bruno", "tournament": "Open de Cannes",
                       "round": "3", "table_no": "7", "referee": "C. Martin"})
    record(area, {"pocketed": {"own": 1}})
    record(area, {"pocketed": {}, "foul": "improper_stroke"})
    record(area, {"pocketed": {}})
    area.sheet.strokes.setCurrentCell(1, 0)  # the stroke with the foul
    area.protest_button.click()
    assert window.stack.currentIndex() == EQUIPMENT
    page = next(p for p in window.equipment.pages if p.objectName() == "forms_page")
    form = page.current
    assert form.kind == "protest"
    f = form.fields
    assert (f["tournament"], f["referee"], f["players"]) == ("Open de Cannes", "C. Martin",
                                                             {"first": "Anna", "second": "Bruno"})
    assert f["clause"] == "icf-fr:4.1.2" and f["board"] == 1 and "Stroke 2" in f["facts"]
    key(window, "Ctrl+1")
    assert window.stack.currentIndex() == RULINGS


def test_a_correction_lists_only_what_changes_and_leaves_no_cancel_behind(window, qtbot, monkeypatch):
    area = window.rulings_area
    for stroke in ({"pocketed": {"own": 1}}, {"pocketed": {"own": 0, "queen": True}}, {"pocketed": {"own": 1}}):
        record(area, stroke)
    asked = []
    answer_with(monkeypatch, QMessageBox.StandardButton.Yes, asked)
    area.sheet.correct_stroke.emit(1)
    assert area.cancel_button.isVisible()
    area.form.own.setValue(0)
    key(area.form.own, "Ctrl+Return")
    assert asked
    for line in asked[0].splitlines():
        if "→" in line:
            old, new = line.split(":", 1)[1].split("→")
            assert old.strip() != new.strip(), line
    assert not area.cancel_button.isVisible() and area.correcting is None
    assert focused() is area.form.own
