"""The Rulings area's widgets and where they stand: one screen at the table (1280×720 and up),
the stroke, its ruling and the score sheet side by side, none below the fold; its keyboard
actions; its words, re-translated with the interface."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from referee_app.i18n import gettext as _
from referee_app.ui import theme
from referee_app.ui.common.layout import column, tool_row
from .clocks import Countdown
from .match_header import MatchHeader
from .resume_banner import ResumeBanner
from .ruling_view import RulingView
from .scoresheet_view import ScoreSheetView
from .stroke_form import StrokeForm


def build(area) -> None:
    """Makes the area's widgets as its attributes and lays them out."""
    area.header = MatchHeader()
    area.first_name = area.header.fields["first_name"]
    area.second_name = area.header.fields["second_name"]
    area.new_button = QPushButton(objectName="new_match")
    area.open_button = QPushButton(objectName="open_match")
    area.doubles = QCheckBox(objectName="doubles")
    area.what_if = QCheckBox(objectName="what_if")
    area.compare_button = QPushButton(objectName="compare_rulesets")
    area.print_button = QPushButton(objectName="print_scoresheet")
    area.protest_button = QPushButton(objectName="protest_stroke")
    tools = tool_row(area.new_button, area.open_button, area.doubles)
    area.resume = ResumeBanner()
    area.status = QLabel(objectName="board_status")
    theme.keep_scaled(area.status, 1.1)
    area.status.setWordWrap(True)

    area.form = StrokeForm()
    area.ruling_view = RulingView(area.knowledge)
    area.record_button = QPushButton(objectName="record_stroke")
    area.undo_button = QPushButton(objectName="undo_stroke")
    area.cancel_button = QPushButton(objectName="cancel_correction")
    area.cancel_button.hide()
    area.tie_button = QPushButton(objectName="deciding_strokes")
    area.tie_button.hide()
    theme.keep_scaled(area.record_button, 1.15, bold=True)
    area.record_button.setMinimumHeight(40)
    buttons = QGridLayout()
    buttons.addWidget(area.record_button, 0, 0, 1, 2)
    buttons.addWidget(area.undo_button, 1, 0)
    buttons.addWidget(area.cancel_button, 1, 1)
    buttons.addWidget(area.tie_button, 2, 0, 1, 2)
    area.waiting = QLabel(objectName="stroke_waiting", wordWrap=True)
    area.waiting.setStyleSheet("color: #8a4b00; font-weight: bold;")
    area.waiting.hide()
    buttons.addWidget(area.waiting, 3, 0, 1, 2)
    area.offline = QLabel(objectName="offline_outbox", wordWrap=True)   # the strokes kept on this machine
    area.offline.setStyleSheet("color: #8a4b00; font-weight: bold;")
    area.offline.hide()
    buttons.addWidget(area.offline, 4, 0, 1, 2)
    # set from the ruleset's parameters by _apply_ruleset_parameters before any use
    area.stroke_clock = Countdown("stroke_clock", 0)
    area.break_clock = Countdown("break_clock", 0)
    clock = area.session.match_clock()
    area.match_clock = Countdown("match_clock", clock.minutes * 60, clock.extra_minutes * 60)
    area.sheet = ScoreSheetView(area.knowledge)

    left = area._stroke_column = column("stroke_column", (area.form, 1), buttons)
    # the board before the stroke and after the ruling, under the ruling: made with the first
    # ruling, after the window's first paint (QtSvg is not for the start)
    area.board_holder = column("ruling_board_holder")
    area.board = None
    # the ruling as tall as it reads; the board takes what is left, and nothing when nothing is
    middle = column("ruling_column", tool_row(area.what_if, area.compare_button), (area.ruling_view, 0),
                    (area.board_holder, 1), area.stroke_clock, area.break_clock, area.match_clock)
    right = column("sheet_column", tool_row(area.print_button, area.protest_button), (area.sheet, 1))
    area.columns = QSplitter(Qt.Orientation.Horizontal, objectName="rulings_columns")
    area.columns.setChildrenCollapsible(False)
    for w, stretch in ((left, 3), (middle, 4), (right, 4)):
        area.columns.addWidget(w)
        area.columns.setStretchFactor(area.columns.indexOf(w), stretch)
    area.columns.setSizes([300, 450, 450])
    layout = QVBoxLayout(area)
    layout.setContentsMargins(6, 4, 6, 4)
    layout.addWidget(area.header)
    layout.addLayout(tools)
    layout.addWidget(area.resume)
    layout.addWidget(area.status)
    layout.addWidget(area.columns, 1)


def what_if_board(area):
    """The what-if board, put above the stroke form, hidden."""
    from .situation_editor import SituationEditor

    editor = SituationEditor()
    editor.hide()
    area._stroke_column.layout().insertWidget(0, editor)
    # A widget made now would come last in the Tab order: its fields go where the board
    # stands on screen, after the match's tools and before the stroke's ticks.
    chain = [area.doubles, *editor.fields()]
    for before, after in zip(chain, chain[1:]):
        QWidget.setTabOrder(before, after)
    editor.changed.connect(area.refresh)
    return editor


def make_actions(area) -> None:
    """A stroke is recorded by its own action only (the button or Ctrl+Enter): Enter belongs to
    the field it is pressed in (a completer, a name, the list of strokes) and records nothing."""
    area.actions_by_name = {}
    for name, keys, slot in (("record_action", ("Ctrl+Return", "Ctrl+Enter"), area.record),
                             ("undo_action", ("Ctrl+Z",), area.undo),
                             ("what_if_action", ("Ctrl+W",), area.what_if.toggle),
                             ("compare_action", ("Ctrl+K",), area.compare),
                             ("stroke_clock_action", ("Ctrl+T",), area.stroke_clock.restart),
                             ("cancel_correction_action", ("Escape",), area.cancel_correction)):
        action = QAction(area, objectName=name)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        area.addAction(action)
        area.actions_by_name[name] = action


def retranslate_texts(area) -> None:
    """The area's own words (its parts re-translate themselves)."""
    area.new_button.setText(_("New match"))
    area.open_button.setText(_("Open match…"))
    area.doubles.setText(_("Doubles"))
    area.doubles.setToolTip(_("Two players a side, partners face to face; for a match not yet begun"))
    area.what_if.setText(_("What if (Ctrl+W)"))
    area.what_if.setToolTip(_("Rule a stroke on a situation you set by hand, without recording it"))
    area.compare_button.setText(_("Compare rulesets (Ctrl+K)"))
    area.print_button.setText(_("Score sheet PDF…"))
    area.protest_button.setText(_("Protest this stroke…"))
    area.protest_button.setToolTip(_("A protest form filled from the match: the stroke chosen in the score "
                                     "sheet, or the last one"))
    area.record_button.setText(_("Record stroke (Ctrl+Enter)"))
    area.undo_button.setText(_("Undo last stroke (Ctrl+Z)"))
    area.cancel_button.setText(_("Cancel correction (Esc)"))
    area.tie_button.setText(_("Deciding strokes…"))
    area.waiting.setText(_("Not recorded yet: the records server cannot be reached. The stroke stays ticked "
                           "and is recorded as soon as the server answers."))
    for name, text in (("record_action", _("Record the stroke")), ("undo_action", _("Undo the last stroke")),
                       ("what_if_action", _("What if: rule without recording")),
                       ("compare_action", _("Compare rulesets")),
                       ("stroke_clock_action", _("Restart the stroke clock")),
                       ("cancel_correction_action", _("Cancel the correction"))):
        area.actions_by_name[name].setText(text)
    area.record_button.setAccessibleName(_("Record stroke"))
    area.ruling_view.setAccessibleName(_("Ruling"))
    area.sheet.strokes.setAccessibleName(_("Score sheet"))
    area.sheet.boards.setAccessibleName(_("Boards of the score sheet"))
    area.first_name.setAccessibleName(_("First player or team"))
    area.second_name.setAccessibleName(_("Second player or team"))
    area.stroke_clock.set_title(lambda: _("Stroke clock"), start=lambda: _("Start the stroke clock"),
                                pause=lambda: _("Pause the stroke clock"), reset=lambda: _("Reset the stroke clock"))
    area.break_clock.set_title(lambda: _("Break clock"), start=lambda: _("Start the break clock"),
                               pause=lambda: _("Pause the break clock"), reset=lambda: _("Reset the break clock"))
    area.match_clock.set_title(lambda: _("Match clock"), start=lambda: _("Start the match clock"),
                               pause=lambda: _("Pause the match clock"), reset=lambda: _("Reset the match clock"))


def show_board(area, doc: dict | None, ruling: dict | None) -> None:
    """The diagram of the stroke ruled (`doc`, the situation as ruled) beside its ruling; empty
    when there is no ruling to draw."""
    if area.board is None:
        if ruling is None:
            return
        from referee_app.ui.learn.board_view import BoardView

        area.board = BoardView(hint=QSize(300, 0))
        area.board.setObjectName("ruling_board")
        area.board.setMinimumHeight(0)
        area.board_holder.layout().addWidget(area.board)
    if ruling is None or doc is None or "after" not in ruling:
        area.board.set_svg("")
        area.board.setAccessibleDescription("")
        return
    from referee_app.core.learn.diagram import diagram_svg
    from referee_app.i18n import current_language

    area.board.set_svg(diagram_svg(doc, ruling, current_language()))
    area.board.setAccessibleName(_("Board before the stroke and after the ruling"))
