"""The board before and after a stroke, as SVG text: drawn in the core, without Qt, so the
command line writes it, the window shows it (QtSvg) and a test counts its pieces.

Each piece is an element whose classes say what it is and where: `coin own on-board`,
`coin opponent in-tray`, `queen on-board`, `striker pocketed`… The counts come from the
situation (before) and from the engine's ruling (after), never from the picture's own logic.
The striking side plays the white coins, the opponent the black ones; the legend says so.
"""
from __future__ import annotations

import math
import random
from html import escape

from referee_app.core.rules.situation import COINS_PER_SIDE
from .wording import Words, describe_outcome, outcome

BOARD = 300            # the board's outer side, in SVG units
FRAME = 16             # the wooden frame
POCKET_R, COIN_R, QUEEN_R, STRIKER_R = 11, 8, 8, 11
PANEL_W, TOP = 340, 44
TRAY_Y = TOP + BOARD + 14
HEIGHT = TRAY_Y + 96
TEXT_H = 70  # the outcome and the legend, below both boards
CENTRE = BOARD / 2
COLOURS = {"own": "#f3ead5", "opponent": "#26221f", "queen": "#c3262e", "striker": "#2f6db5"}
STROKES = {"own": "#6b5a3a", "opponent": "#000000", "queen": "#6d0f14", "striker": "#173a63"}
POCKETS = ((FRAME + POCKET_R, FRAME + POCKET_R), (BOARD - FRAME - POCKET_R, FRAME + POCKET_R),
           (FRAME + POCKET_R, BOARD - FRAME - POCKET_R), (BOARD - FRAME - POCKET_R, BOARD - FRAME - POCKET_R))


def _spots(seed: int, n: int) -> list[tuple[float, float]]:
    """`n` places for coins on the playing surface, away from the pockets and the centre circle,
    the same for the same seed (a board mid-game, drawn the same every time)."""
    grid = [(x, y) for x in range(52, 250, 22) for y in range(52, 250, 22)
            if math.hypot(x - CENTRE, y - CENTRE) > 46 and not (y > 226 and 96 < x < 204)]
    random.Random(seed).shuffle(grid)
    return [(x + (i % 3 - 1) * 3, y + (i % 2) * 4 - 2) for i, (x, y) in enumerate(grid[:n])]


def _rosette() -> list[tuple[float, float]]:
    """The opening position: six coins round the queen, twelve round them."""
    inner = [(CENTRE + 17 * math.cos(a), CENTRE + 17 * math.sin(a)) for a in (math.pi / 3 * k for k in range(6))]
    outer = [(CENTRE + 33 * math.cos(a), CENTRE + 33 * math.sin(a)) for a in (math.pi / 6 * k for k in range(12))]
    return inner + outer


def _ring(n: int) -> list[tuple[float, float]]:
    """Places in and round the centre circle for pieces put back there."""
    out = []
    for k in range(n):
        radius, per, index = (18, 8, k) if k < 8 else (34, 14, k - 8)
        a = 2 * math.pi * index / per + (0.2 if radius > 20 else 0)
        out.append((CENTRE + radius * math.cos(a), CENTRE + radius * math.sin(a)))
    return out


def _piece(kind: str, where: str, x: float, y: float, extra: str = "") -> str:
    r = {"queen": QUEEN_R, "striker": STRIKER_R}.get(kind, COIN_R)
    cls = f"{'coin ' if kind in ('own', 'opponent') else ''}{kind} {where}{' ' + extra if extra else ''}"
    return (f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{COLOURS[kind]}" '
            f'stroke="{STROKES[kind]}" stroke-width="1.5"/>')


def _nearest_pocket(x: float, y: float) -> tuple[float, float]:
    return min(POCKETS, key=lambda p: math.hypot(p[0] - x, p[1] - y))


def _board() -> list[str]:
    out = [f'<rect class="frame" x="0" y="0" width="{BOARD}" height="{BOARD}" rx="6" fill="#5b3a1f"/>',
           f'<rect class="surface" x="{FRAME}" y="{FRAME}" width="{BOARD - 2 * FRAME}" height="{BOARD - 2 * FRAME}" '
           f'fill="#ecd2a0"/>']
    for a, b in ((46, 254),):
        for pos in (46, 254):  # the four base lines, where the striker is placed
            out.append(f'<line class="baseline" x1="{a + 20}" y1="{pos}" x2="{b - 20}" y2="{pos}" stroke="#7a5230"/>')
            out.append(f'<line class="baseline" x1="{pos}" y1="{a + 20}" x2="{pos}" y2="{b - 20}" stroke="#7a5230"/>')
    out.append(f'<circle class="centre" cx="{CENTRE}" cy="{CENTRE}" r="42" fill="none" stroke="#7a5230" '
               'stroke-width="1.5"/>')
    out.append(f'<circle class="centre-spot" cx="{CENTRE}" cy="{CENTRE}" r="4" fill="none" stroke="#7a5230"/>')
    for x, y in POCKETS:
        out.append(f'<circle class="pocket" cx="{x}" cy="{y}" r="{POCKET_R}" fill="#111"/>')
    return out


def _tray(w: Words, own_in: int, opp_in: int, queen_with: str | None) -> list[str]:
    """Each side's pocketed pieces, below the board: the coins it has pocketed and kept, and the
    queen where it has covered it."""
    out = []
    for row, (side, n, label) in enumerate((("own", own_in, w._("Pocketed by the striking side")),
                                            ("opponent", opp_in, w._("Pocketed by the opponent")))):
        y = TRAY_Y + 12 + row * 44
        out.append(f'<text class="tray-label" x="0" y="{y}" font-size="11" fill="currentColor">{escape(label)}</text>')
        for i in range(n):
            out.append(_piece(side, "in-tray", 10 + i * 19, y + 16))
        if queen_with == side:
            out.append(_piece("queen", "in-tray", 10 + n * 19 + 6, y + 16, side))
    return out


def _panel(w: Words, title: str, x0: float, pieces: list[str], tray: list[str]) -> str:
    body = [f'<g class="panel" transform="translate({x0},0)">',
            f'<text class="title" x="0" y="18" font-size="15" font-weight="bold" fill="currentColor">{escape(title)}</text>']
    body.append(f'<g class="board" transform="translate(0,{TOP})">')
    body += _board() + pieces + ["</g>"] + tray + ["</g>"]
    return "\n".join(body)


STRIKER_AT = (CENTRE + 30, 254)
_HOLDER = {"covered_by_striker": "own", "covered_by_opponent": "opponent"}   # the queen's state -> whose tray


def diagram_svg(situation: dict, ruling: dict, lang: str) -> str:
    """The board before the stroke and after the ruling, side by side, as an SVG document.

    `situation` is the contract's document, `ruling` the engine's ruling of it."""
    w = Words(lang)
    before, stroke = situation.get("before") or {}, situation["stroke"]
    pocketed, off = stroke.get("pocketed") or {}, stroke.get("off_board") or {}
    own_b, opp_b = before.get("own_on_board", COINS_PER_SIDE), before.get("opponent_on_board", COINS_PER_SIDE)
    queen_b = before.get("queen", "on_board")
    opening = before.get("break", False)
    places = _places(opening, own_b, opp_b)
    moves = {side: (pocketed.get(side, 0), off.get(side, 0)) for side in ("own", "opponent")}
    pieces_b = _pieces_before(places, moves, queen_b, pocketed, off)
    tray_b = _tray(w, COINS_PER_SIDE - own_b, COINS_PER_SIDE - opp_b, _HOLDER.get(queen_b))
    after = ruling["after"]
    pieces_a = _pieces_after(places, moves, after, opening, queen_b, pocketed, off)
    tray_a = _tray(w, COINS_PER_SIDE - after["own_on_board"], COINS_PER_SIDE - after["opponent_on_board"],
                   _HOLDER.get(after["queen"]))
    banner = describe_outcome(w, outcome(ruling), queen_b, bool(pocketed.get("queen")))

    legend = (w._("White: the striking side. Black: the opponent. Red: the queen. Blue: the striker. "
                        "A dashed ring: pocketed by this stroke; a bright ring: put back in the centre."))
    width = 2 * PANEL_W + 20
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" class="carrom-diagram" width="{width}" height="{HEIGHT + TEXT_H}" '
        f'viewBox="-10 -4 {width} {HEIGHT + TEXT_H}" font-family="sans-serif" color="#222">',
        "<style>.to-pocket{stroke-dasharray:3 2;stroke:#c3262e}.to-off{stroke-dasharray:1 2;stroke:#8a4}"
        ".back{stroke:#f0a500;stroke-width:3}.way{stroke:#c3262e;stroke-dasharray:4 3;fill:none}</style>",
        f'<rect x="-10" y="-4" width="{width}" height="{HEIGHT + TEXT_H}" fill="#fbf8f2"/>',
        _panel(w, w._("Before the stroke"), 0, pieces_b, tray_b),
        _panel(w, w._("After the ruling"), PANEL_W + 10, pieces_a, tray_a),
        _lines("outcome", banner, 0, HEIGHT + 4, 12, 110),
        _lines("legend", legend, 0, HEIGHT + 4 + 16 * len(_wrap(banner, 110)) + 4, 10, 130),
        "</svg>",
    ]) + "\n"


def _places(opening: bool, own: int, opponent: int) -> dict[str, list]:
    """Where each side's coins lie before the stroke: the opening rosette, or a board mid-game."""
    if opening:
        spots = _rosette()
        return {"own": spots[0::2][:own], "opponent": spots[1::2][:opponent]}
    spots = _spots(own * 10 + opponent, own + opponent)
    return {"own": spots[:own], "opponent": spots[own:]}


def _mark(side: str, pocketed: dict, off: dict) -> str:
    return "to-pocket" if pocketed.get(side) else "to-off" if off.get(side) else ""


def _pieces_before(places: dict, moves: dict, queen: str, pocketed: dict, off: dict) -> list[str]:
    """Every piece where it lies; those the stroke pockets marked, with their way to a pocket."""
    pieces = []
    for side in ("own", "opponent"):
        n_pocketed, n_off = moves[side]
        for i, (x, y) in enumerate(places[side]):
            mark = "to-pocket" if i < n_pocketed else "to-off" if i < n_pocketed + n_off else ""
            pieces.append(_arrow(x, y, mark) + _piece(side, "on-board", x, y, mark))
    if queen == "on_board":
        mark = _mark("queen", pocketed, off)
        pieces.append(_arrow(CENTRE, CENTRE, mark) + _piece("queen", "on-board", CENTRE, CENTRE, mark))
    if queen == "awaiting_cover":
        pieces.append(_piece("queen", "pocketed", *POCKETS[0]))
    smark = _mark("striker", pocketed, off)
    pieces.append(_arrow(*STRIKER_AT, smark) + _piece("striker", "on-board", *STRIKER_AT, smark))
    return pieces


def _pieces_after(places: dict, moves: dict, after: dict, opening: bool, queen_before: str, pocketed: dict,
                  off: dict) -> list[str]:
    """The coins left where they were, the ones put back in the centre, the queen as ruled."""
    pieces, back = [], []
    for side in ("own", "opponent"):
        n_after = after[f"{side}_on_board"]
        n_pocketed, n_off = moves[side]
        stayed = places[side][n_pocketed + n_off:][:n_after]
        for x, y in stayed:
            pieces.append(_piece(side, "on-board", x, y))
        n_back = n_after - len(stayed)
        if opening:  # back where they stood in the opening position
            pieces += [_piece(side, "on-board", x, y, "back") for x, y in places[side][:n_pocketed + n_off][:n_back]]
            n_back -= len(places[side][:n_pocketed + n_off][:n_back])
        back += [side] * n_back
    for side, (x, y) in zip(back, _ring(len(back))):
        pieces.append(_piece(side, "on-board", x, y, "back"))
    return pieces + _queen_and_striker_after(after["queen"], queen_before, pocketed, off)


def _queen_and_striker_after(queen: str, queen_before: str, pocketed: dict, off: dict) -> list[str]:
    pieces = []
    if queen == "on_board":
        queen_back = queen_before != "on_board" or pocketed.get("queen") or off.get("queen")
        pieces.append(_piece("queen", "on-board", CENTRE, CENTRE, "back" if queen_back else ""))
    if queen == "awaiting_cover":
        pieces.append(_piece("queen", "pocketed", *POCKETS[0]))
    if pocketed.get("striker"):
        pieces.append(_piece("striker", "pocketed", *POCKETS[3]))
    elif off.get("striker"):
        pieces.append(_piece("striker", "off-board", BOARD + 4 + STRIKER_R, 254))
    else:
        pieces.append(_piece("striker", "on-board", *STRIKER_AT))
    return pieces


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width) or [""]


def _lines(cls: str, text: str, x: float, y: float, size: int, width: int) -> str:
    return "\n".join(f'<text class="{cls}" x="{x}" y="{y + i * (size + 4)}" font-size="{size}" '
                     f'fill="currentColor">{escape(line)}</text>' for i, line in enumerate(_wrap(text, width)))


def _arrow(x: float, y: float, mark: str) -> str:
    if mark == "to-pocket":
        px, py = _nearest_pocket(x, y)
        return f'<line class="way" x1="{x:.1f}" y1="{y:.1f}" x2="{px}" y2="{py}"/>'
    if mark == "to-off":
        return f'<line class="way" x1="{x:.1f}" y1="{y:.1f}" x2="{x:.1f}" y2="-8"/>'
    return ""


def piece_counts(svg: str) -> dict:
    """What a diagram shows, counted from its elements' classes: `{"before": {...}, "after": {...}}`
    with `own`, `opponent` (coins on the board), `own_tray`, `opponent_tray`, `queen` (its state,
    None when off the board) and `striker` (on-board, pocketed, off-board). Used by the tests and by anyone
    checking a diagram against its ruling."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    panels = [g for g in root.iter(f"{ns}g") if g.get("class") == "panel"]
    out = {}
    for name, panel in zip(("before", "after"), panels):
        counts: dict = {"own": 0, "opponent": 0, "own_tray": 0, "opponent_tray": 0, "queen": None, "striker": None}
        for el in panel.iter(f"{ns}circle"):
            classes = set((el.get("class") or "").split())
            for side in ("own", "opponent"):
                if {"coin", side, "on-board"} <= classes:
                    counts[side] += 1
                if {"coin", side, "in-tray"} <= classes:
                    counts[side + "_tray"] += 1
            for piece in ("queen", "striker"):
                if piece in classes:
                    place: str = next(c for c in ("on-board", "in-tray", "pocketed", "off-board") if c in classes)
                    if piece == "queen":  # as the situation and the ruling name the queen's states
                        place = {"on-board": "on_board", "pocketed": "awaiting_cover",
                                 "in-tray": "covered_by_striker" if "own" in classes else "covered_by_opponent"}[place]
                    counts[piece] = place
        out[name] = counts
    return out
