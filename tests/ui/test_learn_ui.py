"""The Learn area: a quiz taken from the keyboard in the window, in Italian; an exam timed and scored."""
from __future__ import annotations


from referee_app.core.learn.store import ProgressStore
from referee_app.core.storage.db import connect
from referee_app.ui.main_window import LEARN
from support.gui import focused, key, type_text


def test_a_learner_takes_a_quiz_in_italian_from_the_keyboard(window, qtbot, records_file):
    window.language_combo.setCurrentIndex(window.language_combo.findData("it"))
    key(focused() or window, "Ctrl+4")
    assert window.stack.currentIndex() == LEARN
    area = window.learn
    assert window.windowTitle().startswith("Impara")
    assert area.start_button.text().replace("&", "") == "Inizia"
    area.learner.setFocus()
    type_text(area.learner, "Niccolò")
    area.count.setValue(3)
    area.start_button.click()
    assert len(area.questions) == 3 and focused() is area.panel

    given = []
    for n in range(3):
        q = area.current()
        assert area.status.text().startswith(f"Domanda {n + 1} di 3")
        assert "Che cosa succede?" in area.prompt.text()
        assert area.board.svg == ""  # the board after the ruling would give the answer away
        key(focused(), "Return")  # Enter before answering moves nothing
        assert area.current() is q
        choice = q.answer if n < 2 else (q.answer + 1) % len(q.choices)
        key(focused(), str(choice + 1))
        given.append(choice)
        assert area.answers[n] == choice
        key(focused(), str(((choice + 1) % len(q.choices)) + 1))  # a second key changes nothing
        assert area.answers[n] == choice
        assert area.feedback.text().startswith("Giusto." if choice == q.answer else "Non questa")
        assert "Prima del tiro" in area.board.svg and "Dopo la decisione" in area.board.svg
        html = area.why.toHtml()
        clause = q.deciding_clause
        from support.kbcopy import installed
        text = installed().kb.clauses[clause].text_in("it")[0]
        assert text[:40] in area.why.toPlainText(), clause
        assert "decide" in html
        if n == 0:  # the board, for teaching material
            png = area.save_board(str(records_file.parent / "board.png"))
            assert png and open(png, "rb").read(4) == b"\x89PNG"
            assert area.save_board(str(records_file.parent / "board.svg")) and "Prima del tiro" in open(
                records_file.parent / "board.svg", encoding="utf-8").read()
        key(focused(), "Return")

    assert area.current() is None
    assert area.feedback.text().startswith("2 risposte giuste su 3")
    with ProgressStore(connect(records_file)) as store:
        summary = store.summary("Niccolò", area.ruleset)
    assert (summary["seen"], summary["answers"], summary["correct"]) == (3, 3, 2)
    assert area.mastery.topLevelItem(0).text(1) == "3"


def test_an_exam_hides_the_answers_until_the_end_and_scores_them(window, qtbot, records_file):
    key(focused() or window, "Ctrl+4")
    area = window.learn
    area.exam_box.setChecked(True)
    area.count.setValue(4)
    area.pass_mark.setValue(50)
    area.start_button.click()
    assert area.exam["pass_mark"] == 2
    qtbot.waitUntil(lambda: area.timer_label.text().startswith("Time left"), timeout=3000)
    for n in range(4):
        q = area.current()
        key(focused(), str((q.answer if n < 2 else (q.answer + 1) % len(q.choices)) + 1))
        assert area.why.toPlainText() == ""  # no answer shown during the exam
        if n < 3:
            key(focused(), "Return")
    assert area.current() is None
    assert "2 right answers of 4" in area.feedback.text() and "Passed" in area.feedback.text()


def test_an_exam_paper_printed_from_the_area(window, records_file):
    import shutil
    import subprocess

    key(focused() or window, "Ctrl+4")
    area = window.learn
    area.count.setValue(3)
    path = area.print_exam(str(records_file.parent / "paper.pdf"))
    assert path and "Exam paper saved" in area.feedback.text()
    assert shutil.which("pdftotext")
    text = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True, check=True).stdout
    assert "Referee examination" in text and "Answer key" in text


def test_nothing_due_is_said_not_raised(window, records_file):
    key(focused() or window, "Ctrl+4")
    area = window.learn
    area.scope.setCurrentIndex(area.scope.findData("due"))
    area.start_button.click()
    assert area.feedback.isVisible() and "nothing is due" in area.feedback.text()


def test_an_exam_ends_when_its_time_is_up(window, qtbot, records_file):
    key(focused() or window, "Ctrl+4")
    area = window.learn
    area.exam_box.setChecked(True)
    area.count.setValue(3)
    area.start_button.click()
    key(focused(), str(area.current().answer + 1))  # one answered, two left when the time runs out
    area.exam["seconds"] = 1  # the paper's minutes, shortened for the test
    qtbot.waitUntil(lambda: area.current() is None, timeout=5000)
    assert area.feedback.text().startswith("1 right answer of 3") and "Not passed" in area.feedback.text()
    key(focused() or area, "1")  # the paper is closed: a key records nothing
    assert len(area.answers) == 1
