"""Board diagrams: what the SVG shows is the situation before the stroke and the engine's ruling after."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee_app.core.learn.diagram import diagram_svg, piece_counts
from referee_app.core.learn.questions import Scope, generate
from referee_app.core.rules.ruling import rule

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools"))
import learn_diagrams  # noqa: E402  (the ten typical situations the screenshots show)
from support.kbcopy import installed  # noqa: E402


def expected(situation: dict, ruling: dict) -> dict:
    before, stroke = situation.get("before") or {}, situation["stroke"]
    own, opp = before.get("own_on_board", 9), before.get("opponent_on_board", 9)
    queen_b = before.get("queen", "on_board")
    after = ruling["after"]
    striker_after = ("pocketed" if stroke["pocketed"].get("striker") else
                     "off-board" if (stroke.get("off_board") or {}).get("striker") else "on-board")
    return {
        "before": {"own": own, "opponent": opp, "own_tray": 9 - own, "opponent_tray": 9 - opp,
                   "queen": queen_b, "striker": "on-board"},
        "after": {"own": after["own_on_board"], "opponent": after["opponent_on_board"],
                  "own_tray": 9 - after["own_on_board"], "opponent_tray": 9 - after["opponent_on_board"],
                  "queen": after["queen"], "striker": striker_after},
    }


def test_ten_typical_situations_are_in_the_screenshots():
    assert len(learn_diagrams.TYPICAL) == 10
    for name, ruleset, situation in learn_diagrams.TYPICAL:
        path = learn_diagrams.svg_path(name)
        assert path.is_file(), f"{path} missing: run tools/learn_diagrams.py"
        assert path.with_suffix(".png").is_file()
        shown = piece_counts(path.read_text(encoding="utf-8"))
        assert shown == expected(situation, rule(installed(), situation, ruleset)), name


def test_the_screenshots_are_up_to_date():
    """The committed SVG is what the core draws today (in English)."""
    for name, ruleset, situation in learn_diagrams.TYPICAL:
        fresh = diagram_svg(situation, rule(installed(), situation, ruleset), "en")
        assert learn_diagrams.svg_path(name).read_text(encoding="utf-8") == fresh, f"{name}: run tools/learn_diagrams.py"


@pytest.mark.parametrize("ruleset", ["icf", "it", "aicf-2009", "fr-simplified"])
def test_generated_questions_draw_their_counts(ruleset):
    for q in generate(installed(), Scope(ruleset), 40, seed=9):
        assert piece_counts(diagram_svg(q.situation, q.ruling, "it")) == expected(q.situation, q.ruling), q.situation


def test_labels_in_the_learners_language():
    name, ruleset, situation = learn_diagrams.TYPICAL[2]
    svg = diagram_svg(situation, rule(installed(), situation, ruleset), "fr")
    assert "Avant le tir" in svg and "Before the stroke" not in svg
