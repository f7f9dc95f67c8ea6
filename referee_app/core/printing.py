"""What every printed document shares: user text made literal, and sizes in printer's points.

Documents are HTML rendered by Qt into a PDF (referee_app/printing/pdf.py) laid out on the PDF
writer itself, so a point here is a point on paper.
"""
from __future__ import annotations

import html


def esc(value) -> str:
    """User text as literal HTML (line breaks kept): a name like `<b>` prints as typed, and reads on
    paper as typed whatever direction marks it holds (`isolate`)."""
    text = "" if value is None else str(value)
    return html.escape(isolate(text) if text else "").replace("\n", "<br>")


_OPENS_EMBEDDING = "\u202a\u202b\u202d\u202e"     # LRE RLE LRO RLO, closed by PDF (U+202C)
_OPENS_ISOLATE = "\u2066\u2067\u2068"             # LRI RLI FSI, closed by PDI (U+2069)
_PDF, _PDI, _FSI = "\u202c", "\u2069", "\u2068"


def isolate(text: str) -> str:
    """`text` as a Unicode bidi isolate (FSI ... PDI): an override or embedding typed in it (a
    right-to-left override in a player's name) is closed inside it and cannot turn the text after
    it around; a stray closer that would end the isolate early is dropped."""
    out, open_ = [], []
    for ch in text:
        if ch in _OPENS_EMBEDDING:
            open_.append(_PDF)
        elif ch in _OPENS_ISOLATE:
            open_.append(_PDI)
        elif ch == _PDF:
            if not open_ or open_[-1] != _PDF:
                continue
            open_.pop()
        elif ch == _PDI:
            if _PDI not in open_:
                continue
            while open_[-1] != _PDI:
                out.append(open_.pop())
            open_.pop()
        out.append(ch)
    out.extend(reversed(open_))
    return _FSI + "".join(out) + _PDI


def pt(points: float) -> str:
    return f"{points:g}pt"
