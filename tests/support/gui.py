"""Helpers shared by the GUI tests: a small knowledge base, a window, keys and typed text, waiting.
Their fixtures are in tests/ui/conftest.py."""
from __future__ import annotations

import contextlib
import textwrap
import time
from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from referee_app.core.knowledge.rulesets import load_rulesets

REPO_ROOT = Path(__file__).resolve().parents[2]

MINI_SOURCES = """
sources:
  - id: alpha
    lang: fr
    title: "Règles Alpha"
    short: ALPHA
    numbered: true
    order: '^(\\d+)\\.(\\d+)$'
  - id: beta
    lang: it
    title: "Regolamento Beta"
    short: BETA
    numbered: true
    order: '^(\\d+)$'
languages: [fr, it, en]
kinds: [preface, rule, definition, equipment, procedure, conduct, penalty, scoring, tournament, commentary]
"""
MINI_ALPHA = """
source: alpha
lang: fr
clauses:
  - id: alpha:1.1
    paragraph: "1.1 a)"
    title: "La reine"
    kind: rule
    text: "Le joueur <b>loge</b> la reine & la confirme."
    corresponds_to: [beta:7]
    differs:
      - with: beta:7
        note: "Beta gives the turn to the opponent."
    translations: {en: "The player pockets the queen & covers it."}
    examples:
      - name: queen and own coin together
        situation: {before: {own_on_board: 5, queen: on_board}, stroke: {pocketed: {own: 1, queen: true}}}
        expect: {turn: continues, after: {queen: covered_by_striker}}
  - id: alpha:1.2
    paragraph: "1.2"
    title: "La reine"
    kind: penalty
    text: "Deuxième paragraphe sur la reine."
  - id: alpha:2.1
    paragraph: "2.1"
    title: "Le striker"
    kind: equipment
    text: "Le striker mesure au plus 4,13 cm."
"""
MINI_BETA = """
source: beta
lang: it
clauses:
  - id: beta:7
    paragraph: "7"
    title: "La regina"
    kind: rule
    text: "Se un giocatore imbuca la Regina, il turno passa."
"""
MINI_GLOSSARY = """
terms:
  - id: queen
    fr: [reine]
    it: [regina]
    en: [queen]
    defined_in: [alpha:1.1]
"""
MINI_RULESETS = {
    "ra.yaml": "id: ra\nname: {fr: Règles A, it: Regole A, en: Rules A}\nsources: [alpha]\n"
               "parameters: {stroke_clock_seconds: {value: 45, clause: 'alpha:1.1'}}\n",
    "rb.yaml": "id: rb\nname: {fr: Règles B, it: Regole B, en: Rules B}\nsources: [beta]\n"
               "parameters: {stroke_clock_seconds: {value: 30, clause: 'beta:7'}}\n",
}
# What the window reads of a knowledge folder besides its clauses, at its smallest: the one
# parameter the Rulings area sets its clock from, the default ruleset, the match clock.
MINI_FILES = {
    "parameters.yaml": "parameters:\n  stroke_clock_seconds:\n    type: int\n    range: [1, 600]\n"
                       "    meaning: seconds a player has for a stroke\n",
    "forms.yaml": "default_ruleset: ra\n",
    "tournament.yaml": "match_clock: {minutes: 40, extra_minutes: 5, clause: 'alpha:1.1'}\n",
}


def write_mini_kb(root: Path) -> Path:
    (root / "alpha").mkdir(parents=True)
    (root / "beta").mkdir()
    (root / "rulesets").mkdir()
    (root / "sources.yaml").write_text(textwrap.dedent(MINI_SOURCES), encoding="utf-8")
    (root / "alpha" / "01-alpha.yaml").write_text(MINI_ALPHA, encoding="utf-8")
    (root / "beta" / "01-beta.yaml").write_text(MINI_BETA, encoding="utf-8")
    (root / "glossary.yaml").write_text(MINI_GLOSSARY, encoding="utf-8")
    for name, text in MINI_RULESETS.items():
        (root / "rulesets" / name).write_text(text, encoding="utf-8")
    for name, text in MINI_FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def make_window(qtbot, kb=None, size=(1366, 740)):
    """The window over the knowledge base `kb` (the installed one when None), as its own root."""
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.ui.main_window import MainWindow

    knowledge = Knowledge(kb, load_rulesets(kb)) if kb is not None else None
    # size None keeps the geometry the window restored from its settings
    window = shown(qtbot, MainWindow(knowledge), size, active=True)
    qtbot.waitUntil(lambda: window.started)   # what comes just after the first paint has come
    return window


def shown(qtbot, widget, size=(1366, 740), active=False):
    """The widget under qtbot's care, at `size` (a laptop's screen; None leaves it as it is), shown
    and exposed; `active` when window shortcuts must reach it (they only work in the active window)."""
    qtbot.addWidget(widget)
    if size:
        widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    if active:
        widget.activateWindow()
        qtbot.waitUntil(widget.isActiveWindow)
    return widget


def key(widget, keys: str) -> None:
    """Press a key combination (e.g. "Ctrl+F") on `widget`, as a user would."""
    from PySide6.QtGui import QKeySequence

    combo = QKeySequence(keys)[0]
    QTest.keyClick(widget, combo.key(), combo.keyboardModifiers())


def type_text(widget, text: str) -> None:
    """Type text into the widget as a keyboard user does: focus on it, then one character at a time;
    non-ASCII characters go through sendKeyEvent, since keyClicks aborts the process on them."""
    widget.setFocus()
    for ch in text:
        if ch.isascii():
            QTest.keyClicks(widget, ch)
        else:
            QTest.sendKeyEvent(QTest.KeyAction.Press, widget, Qt.Key.Key_unknown, ch, Qt.KeyboardModifier.NoModifier)
            QTest.sendKeyEvent(QTest.KeyAction.Release, widget, Qt.Key.Key_unknown, ch, Qt.KeyboardModifier.NoModifier)


def focused():
    return QApplication.focusWidget()


def wait_for(qtbot, predicate, timeout: int = 10000) -> None:
    qtbot.waitUntil(predicate, timeout=timeout)


def spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.005)


DESK_PLAYERS = ("Anne", "Bruno", "Chloé", "David")


@contextlib.contextmanager
def a_desk_with_a_round(qtbot, records: Path, monkeypatch, name: str = "Open de Cannes"):
    """The Tournament area of a window on the records file `records`: a tournament `name` of four
    players checked in, its first round paired and shown; the window closed and deleted after."""
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(records))
    window = make_window(qtbot)
    key(window, "Ctrl+5")
    area = window.tournament.area
    tid = area.store.create(name, [], "icf")
    for player in DESK_PLAYERS:
        area.store.add_player(tid, player, checked_in=True)
    area.store.pair(tid, seed=1)
    area.fill_tournaments(select=tid)
    area.tabs.setCurrentWidget(area.rounds)
    yield area
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()


def a_table_with_a_paired_tournament(qtbot):
    """A window whose Rulings area is a table, and on its records a tournament of four players,
    its first round paired: (the area, the tournament store, the tournament's id)."""
    from referee_app.core.tournament.store import TournamentStore
    from support.kbcopy import installed

    area = make_window(qtbot).rulings_area
    tournaments = TournamentStore(installed(), area.store.database)
    tid = tournaments.create("Open de Cannes", ["Anna", "Bela", "Carl", "Dora"], "icf")
    tournaments.pair(tid, seed=1)
    return area, tournaments, tid
