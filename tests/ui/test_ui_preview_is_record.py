"""What the referee sees as a stroke is ticked is what is recorded and stored: the window's
preview and its recording are one computation (MatchSession.preview, Game.preview), colours
open included (issue 28, "One ruling path").

Under fr-house the first coin pocketed sets the colours (fr-house 2.2, core/rules/colours.py):
the strokes are ticked in the window, the ruling shown is read, the stroke recorded, and the
ruling the records keep is compared with it."""
from __future__ import annotations

import json

import pytest

from referee_app.core.play.store import MatchStore
from referee_app.ui.rulings import match_dialogs
from referee_app.ui.rulings.area import RulingsArea
from support.gui import shown
from support.kbcopy import installed


def untraced(ruling: dict) -> dict:
    """The ruling as recorded: the window shows it with its derivation (`trace`) beside it."""
    return json.loads(json.dumps({k: v for k, v in ruling.items() if k != "trace"}))


def stored_rulings(area) -> list[dict]:
    return [h["ruling"] for h in MatchStore(area.knowledge).export(area.match_id)["history"] if h["superseded_at"] is None]


@pytest.mark.parametrize("tick, colours", [
    (lambda form: form.opponent.setValue(2), {"first": "dark", "second": "light"}),     # two black coins
    (lambda form: (form.own.setValue(1), form.opponent.setValue(1),                      # both fell: the referee
                   form.first_colour.setCurrentIndex(form.first_colour.findData("dark"))),  # saw black first
     {"first": "dark", "second": "light"}),
    (lambda form: form.own.setValue(1), {"first": "light", "second": "dark"}),          # one white coin
])
def test_the_ruling_shown_with_colours_open_is_the_ruling_recorded(qtbot, user_dirs, records_file, tick, colours):
    area = shown(qtbot, RulingsArea(installed(), "fr-house"))
    assert area.match.game.colours_open() and area.form.first_colour.isHidden()
    tick(area.form)
    shown_ruling = area.last_ruling
    assert shown_ruling is not None and "trace" in shown_ruling and area.record_button.isEnabled()
    assert shown_ruling["after"]["striker_colour"] == colours["first"]
    area.record()
    assert stored_rulings(area) == [untraced(shown_ruling)]
    assert untraced(area.match.rulings[0]) == untraced(shown_ruling)
    assert area.match.game.state.colours == colours

    # and the next stroke, the colours set, named by side: shown, then recorded, the same
    area.form.own.setValue(1)
    second = area.last_ruling
    area.record()
    assert stored_rulings(area) == [untraced(shown_ruling), untraced(second)]


def test_a_correction_shows_the_ruling_it_records(qtbot, user_dirs, records_file, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(match_dialogs, "ask_over_list", lambda *a: True)   # the correction's rulings: accepted
    area = shown(qtbot, RulingsArea(installed(), "fr-house"))
    area.form.opponent.setValue(2)
    area.record()
    area.form.own.setValue(1)
    area.record()
    area.start_correction(1)                   # it was a white coin, not two black ones
    area.form.opponent.setValue(0)
    area.form.own.setValue(1)
    shown_ruling = area.last_ruling
    assert shown_ruling["after"]["striker_colour"] == "light"
    area.record()
    assert area.correcting is None
    assert stored_rulings(area)[0] == untraced(shown_ruling)


def test_a_stroke_the_rules_leave_undecided_is_said_so_as_the_engine_or_the_game_refuses_it(qapp):
    from referee_app.core.errors import BadInput
    from referee_app.core.rules.engine import NoRule
    from referee_app.ui.rulings.refusal_words import refusal_text

    said = refusal_text(installed(), NoRule("turn", {}), "icf")
    assert said.startswith("The rules leave this stroke undecided")
    # the game (Game.preview) says it as a refusal of the stroke, as `play` always has
    assert refusal_text(installed(), BadInput("stroke", "the rules leave this stroke undecided: no rule decides the turn here"),
                        "icf") == said
