"""What every printed document shares: user text made literal, and sizes in printer's points.

Documents are HTML rendered by Qt into a PDF (referee_app/ui/common/pdf.py) laid out on the PDF
writer itself, so a point here is a point on paper.
"""
from __future__ import annotations

import html


def esc(value) -> str:
    """User text as literal HTML (line breaks kept): a name like `<b>` prints as typed."""
    return html.escape("" if value is None else str(value)).replace("\n", "<br>")


def pt(points: float) -> str:
    return f"{points:g}pt"
