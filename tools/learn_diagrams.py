#!/usr/bin/env python3
"""Draw the board diagrams of ten typical situations into docs/screenshots/ (SVG and PNG).

    .venv/bin/python tools/learn_diagrams.py [--lang en]

The SVG comes from the core (referee_app/core/learn/diagram.py), ruled by the engine; the PNG is
the same SVG rendered by Qt, as the window shows it. tests/core/learn/test_learn_diagrams.py checks every
SVG here against its situation's pieces and the engine's ruling.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "screenshots"

# name, ruleset, situation (the contract's format): what a learner meets first
TYPICAL = [
    ("break-own-coins", "icf", {"before": {"break": True}, "stroke": {"pocketed": {"own": 2}}}),
    ("break-striker-pocketed", "icf", {"before": {"break": True}, "stroke": {"pocketed": {"own": 1, "striker": True}}}),
    ("queen-too-early", "icf", {"before": {"own_on_board": 9, "opponent_on_board": 8},
                                "stroke": {"pocketed": {"queen": True}}}),
    ("queen-pocketed", "icf", {"before": {"own_on_board": 6, "opponent_on_board": 7},
                               "stroke": {"pocketed": {"queen": True}}}),
    ("queen-covered", "icf", {"before": {"own_on_board": 6, "opponent_on_board": 7, "queen": "awaiting_cover"},
                              "stroke": {"pocketed": {"own": 1}}}),
    ("queen-not-covered", "it", {"before": {"own_on_board": 6, "opponent_on_board": 7, "queen": "awaiting_cover"},
                                 "stroke": {"pocketed": {}}}),
    ("striker-with-own-coin", "icf", {"before": {"own_on_board": 5, "opponent_on_board": 6},
                                      "stroke": {"pocketed": {"own": 1, "striker": True}}}),
    ("opponent-coin-only", "fr-simplified", {"before": {"own_on_board": 5, "opponent_on_board": 6},
                                             "stroke": {"pocketed": {"opponent": 1}}}),
    ("last-coin-board-won", "icf", {"before": {"own_on_board": 1, "opponent_on_board": 4, "queen": "covered_by_striker"},
                                    "stroke": {"pocketed": {"own": 1}}}),
    ("last-coin-before-queen", "aicf-2009", {"before": {"own_on_board": 1, "opponent_on_board": 5},
                                             "stroke": {"pocketed": {"own": 1}}}),
]


def svg_path(name: str) -> Path:
    return OUT / f"diagram-{name}.svg"


def draw(lang: str = "en") -> list[Path]:
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.learn.diagram import diagram_svg
    from referee_app.core.rules.ruling import rule

    knowledge = Knowledge.load()
    written = []
    for name, ruleset, situation in TYPICAL:
        path = svg_path(name)
        path.write_text(diagram_svg(situation, rule(knowledge, situation, ruleset), lang), encoding="utf-8")
        written.append(path)
    return written


def to_png(svg: Path) -> Path:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    from referee_app.printing.image import svg_to_png

    _app = QGuiApplication.instance() or QGuiApplication([])
    return svg_to_png(svg.read_text(encoding="utf-8"), svg.with_suffix(".png"), scale=1.5)


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(REPO))
    lang = argv[argv.index("--lang") + 1] if "--lang" in argv else "en"
    for svg in draw(lang):
        print(svg.relative_to(REPO), to_png(svg).relative_to(REPO))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
