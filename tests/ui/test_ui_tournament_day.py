"""The window on tournament day (issue 32): where the keyboard lands, a new match that loses
nothing, the ruling just recorded kept in view, corrections marked, the match clock and the
window's place kept across a crash, the foul field's Return."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.ui.main_window import RULINGS
from support.gui import focused, key, spin, type_text


def rulings(window):
    key(focused() or window, "Ctrl+1")
    assert window.stack.currentIndex() == RULINGS
    return window.rulings_area


def record(area, stroke):
    area.form.load(stroke)
    key(area.form.own, "Ctrl+Return")


def test_return_in_the_foul_list_takes_the_first_match(window, qtbot):
    area = rulings(window)
    type_text(area.form.foul, "improp")
    popup = area.form.foul.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    key(popup, "Return")   # no Down first
    assert not popup.isVisible()
    assert area.form.foul_id() == "improper_stroke"
    assert area.form.foul.text().startswith("Improper stroke")
    assert not area.match.strokes   # Return completes; it never records


def test_in_a_match_ctrl_1_lands_on_the_stroke_and_never_selects_a_name(window, qtbot):
    from referee_app.core.play.store import MatchStore
    from support.kbcopy import installed

    area = rulings(window)
    assert focused() is area.first_name   # before the match: its first player's name ...
    type_text(area.first_name, "Élodie")
    key(window, "Ctrl+2")
    key(focused(), "Ctrl+1")
    assert focused() is area.form.own      # ... named: the stroke's first tick
    record(area, {"pocketed": {"own": 1}})
    key(window, "Ctrl+2")
    key(focused(), "Ctrl+1")
    assert focused() is area.form.own
    key(focused(), "2")                    # two own coins, as the referee meant
    assert area.form.own.value() == 2
    assert area.first_name.text() == "Élodie"
    assert MatchStore(installed()).meta(area.match_id)["first_name"] == "Élodie"


def test_no_area_is_entered_with_a_field_s_text_selected(window, qtbot):
    """Ctrl+1..5: wherever the keyboard lands, a text already there is kept from the next key."""
    from PySide6.QtWidgets import QLineEdit

    for n in range(1, 6):
        key(focused() or window, f"Ctrl+{n}")
        w = focused()
        if isinstance(w, QLineEdit) and not w.isReadOnly():
            if not w.text():
                w.setText("Anna")
            key(w, "Ctrl+2" if n != 2 else "Ctrl+1")
            key(focused(), f"Ctrl+{n}")
            back = focused()
            assert not (isinstance(back, QLineEdit) and back.hasSelectedText()), back.objectName()


def answer(monkeypatch, button, asked):
    """Answers every question with `button`: a message box's, and a correction's asked over its
    list of changed rulings (match_dialogs.ask_over_list), whose whole text is what `asked` keeps."""
    from referee_app.ui.rulings import match_dialogs

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return button

    def over_list(parent, title, intro, listing, question_text):
        asked.append("\n".join((intro, listing, question_text)))
        return button == QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(match_dialogs, "ask_over_list", over_list)


def test_new_match_asks_before_clearing_a_typed_header_and_leaves_no_empty_duplicate(window, qtbot, monkeypatch):
    from referee_app.core.play.store import MatchStore
    from support.kbcopy import installed

    area = rulings(window)
    type_text(area.first_name, "Élodie")
    type_text(area.second_name, "Luca")
    store = MatchStore(installed())
    qtbot.waitUntil(lambda: area.match_id is not None)
    asked: list[str] = []
    answer(monkeypatch, QMessageBox.StandardButton.No, asked)
    area.new_button.click()
    assert asked and "Élodie" in asked[0]
    assert (area.first_name.text(), area.second_name.text()) == ("Élodie", "Luca")   # kept
    answer(monkeypatch, QMessageBox.StandardButton.Yes, asked)
    area.new_button.click()
    assert (area.first_name.text(), area.second_name.text()) == ("", "")
    area.new_button.click()                  # nothing typed: nothing asked, nothing made
    assert len(asked) == 2
    type_text(area.first_name, "Anna")
    matches = store.list()
    assert len(matches) == 1 and matches[0]["first_name"] == "Anna"   # one match, the same one
    record(area, {"pocketed": {"own": 1}})
    area.new_button.click()                  # a match begun is kept; the next one starts blank
    assert len(asked) == 2 and area.match_id is None and area.first_name.text() == ""
    assert [m["first_name"] for m in store.list()] == ["Anna"]


def test_after_ctrl_enter_the_headline_keeps_the_ruling_just_recorded(window, qtbot):
    area = rulings(window)
    type_text(area.first_name, "Élodie")
    type_text(area.second_name, "Luca")
    record(area, {"pocketed": {"own": 1}})
    view = area.ruling_view
    assert view.headline.text() == "Élodie plays again"        # not the blank next stroke's
    assert view.recorded.isVisible() and "1" in view.recorded.text()
    record(area, {})                                            # a stroke with nothing pocketed
    assert view.headline.text() == "Turn passes to Luca" and "2" in view.recorded.text()
    area.form.own.setValue(1)                                   # the next stroke ticked: its ruling
    assert view.headline.text() == "Luca plays again" and not view.recorded.isVisible()


def test_a_correction_is_marked_on_the_sheet_and_its_pdf_and_names_the_players(window, qtbot, monkeypatch):
    from referee_app import i18n

    area = rulings(window)
    type_text(area.first_name, "Élodie")
    type_text(area.second_name, "Luca")
    for stroke in ({"pocketed": {"own": 1}}, {"pocketed": {"own": 2}}, {}, {"pocketed": {"own": 1}}):
        record(area, stroke)
    i18n.set_language("fr")
    asked: list[str] = []
    answer(monkeypatch, QMessageBox.StandardButton.Yes, asked)
    area.sheet.correct_stroke.emit(2)
    area.form.own.setValue(0)                                   # stroke 2 pocketed nothing after all
    key(area.form.own, "Ctrl+Return")
    assert asked, "the correction changes later rulings: it is asked"
    text = asked[0]
    assert "de le" not in text and "di il" not in text and "Élodie" in text, text
    assert "Dettes" not in text, text    # no dues before or after: a stroke changing hands is no change
    assert "✎" in area.sheet.strokes.item(1, 0).text()          # the corrected stroke, and only it
    assert all("✎" not in area.sheet.strokes.item(r, 0).text() for r in (0, 2, 3))
    html = area.sheet.html(area.session.sheet_meta())
    assert html.count("corrigé") == 1
    i18n.set_language("it")
    area.sheet.correct_stroke.emit(3)
    asked.clear()
    area.form.own.setValue(1)
    key(area.form.own, "Ctrl+Return")
    assert asked and "di il" not in asked[0] and "di chi" not in asked[0], asked[0]


def killed(window) -> None:
    """What a kill leaves: nothing more written, no close event (the window is only hidden)."""
    from PySide6.QtCore import QTimer

    for timer in window.findChildren(QTimer):   # its clocks' ticks and saves, the window's own
        timer.stop()
    window.hide()


def test_the_match_clock_comes_back_after_a_crash_where_it_was(qtbot, gui_env, monkeypatch):
    from referee_app.ui.rulings.clocks import Countdown
    from support.gui import make_window, spin

    monkeypatch.setattr(Countdown, "SAVE_EVERY_MS", 100, raising=False)   # saved while it runs, as often as a test waits
    first = make_window(qtbot)
    area = first.rulings_area
    record(area, {"pocketed": {"own": 1}})
    clock = area.match_clock
    clock._spent_ms = 11_000                     # twelve seconds gone, which a test cannot wait for
    clock.toggle.click()
    spin(0.2)
    clock.toggle.click()                         # paused: saved at once
    shown = clock.display.text()
    assert shown == "39:48"
    killed(first)
    second = make_window(qtbot)
    second.rulings_area.resume.resume_button.click()
    assert second.rulings_area.match_clock.display.text() == "39:48"   # not 40:00

    again = second.rulings_area.match_clock     # running when the window died
    again.toggle.click()
    spin(0.5)
    before = again.remaining()
    killed(second)
    third = make_window(qtbot)
    third.rulings_area.resume.resume_button.click()
    after = third.rulings_area.match_clock
    # paused where it was last saved (every 100 ms here): a moment before the kill, never 40:00
    assert not after.running and 0 <= after.remaining() - before <= 1.0, (before, after.remaining())


def test_the_window_comes_back_maximised_after_a_crash(qtbot, gui_env):
    from support.gui import make_window, spin

    first = make_window(qtbot)
    first.showMaximized()
    qtbot.waitUntil(first.isMaximized)
    spin(0.8)                                    # settled: saved without any close
    killed(first)
    second = make_window(qtbot, size=None)       # the geometry it restores, as a start does
    assert second.isMaximized()


def test_a_ruleset_chosen_in_the_learn_area_leaves_the_match_alone(window, qtbot, monkeypatch):
    from referee_app.ui.main_window import LEARN

    area = rulings(window)
    record(area, {"pocketed": {"own": 1}})
    asked: list[str] = []
    answer(monkeypatch, QMessageBox.StandardButton.Yes, asked)
    key(focused(), "Ctrl+4")
    assert window.stack.currentIndex() == LEARN
    combo = window.ruleset_combo
    combo.setCurrentIndex(combo.findData("it"))
    assert not asked                                 # nothing offered about the match's rules
    assert window.learn.ruleset == "it" and area.match.ruleset == "icf"
    key(focused() or window, "Ctrl+1")
    assert combo.currentData() == "icf"              # the toolbar says the match's rules here ...
    key(focused(), "Ctrl+4")
    assert combo.currentData() == "it"               # ... and the ruleset studied there


def test_no_chapter_is_listed_twice_in_the_learn_area(window, qtbot):
    from referee_app import i18n

    key(focused() or window, "Ctrl+4")
    for lang in ("fr", "it", "en"):
        i18n.set_language(lang)
        scope = window.learn.scope
        texts = [scope.itemText(i) for i in range(scope.count())]
        assert len(texts) == len(set(texts)), [t for t in texts if texts.count(t) > 1]


def test_the_board_diagram_stands_beside_the_ruling(window, qtbot):
    from referee_app.core.learn.diagram import piece_counts

    area = rulings(window)
    area.form.own.setValue(2)
    board = area.board
    assert board is not None and board.isVisible() and board.svg
    assert area.columns.widget(1).isAncestorOf(board)    # in the ruling's column
    counts = piece_counts(board.svg)
    assert (counts["before"]["own"], counts["after"]["own"], counts["after"]["own_tray"]) == (9, 7, 2)
    window.resize(1280, 720)                              # the board takes the room left, no more:
    qtbot.waitUntil(lambda: window.width() == 1280)
    spin(0.2)
    assert window.stack.widget(RULINGS).verticalScrollBar().maximum() == 0   # the clocks stay in view
    record(area, {"pocketed": {"own": 2}})
    recorded = board.svg
    assert recorded                                       # the stroke just recorded, drawn
    area.form.own.setValue(1)
    assert board.svg and board.svg != recorded


def test_the_exam_paper_prints_each_answer_s_board(window, qtbot, tmp_path):
    key(focused() or window, "Ctrl+4")
    learn = window.learn
    learn.count.setValue(2)
    path = learn.print_exam(str(tmp_path / "exam.pdf"))
    assert path
    data = (tmp_path / "exam.pdf").read_bytes()
    assert data.count(b"/Subtype /Image") >= 2, "the answer key draws each question's board"
