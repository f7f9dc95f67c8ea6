"""Marks the words of a query in a search snippet, ignoring case and accents.

"reine" marks "Reine", "regle" marks "règle": a referee typing fast on a laptop keyboard does
not type accents. Returns HTML with every piece of the snippet escaped.
"""
from __future__ import annotations

import html
import re
import unicodedata

MIN_TERM = 2  # a one-letter term would mark half the snippet


def _fold(text: str) -> tuple[str, list[int]]:
    """The text without accents, case-folded, and for each folded character its index in `text`."""
    out, index = [], []
    for i, ch in enumerate(text):
        base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c)).casefold()
        out.append(base)
        index.extend([i] * len(base))
    return "".join(out), index


def terms(query: str) -> list[str]:
    words = re.findall(r"\w+", _fold(query)[0])
    return sorted({w for w in words if len(w) >= MIN_TERM}, key=len, reverse=True)


def spans(text: str, query: str) -> list[tuple[int, int]]:
    """Where the query's words start words of `text`, as (start, end) indices of `text`, merged."""
    wanted = terms(query)
    if not wanted:
        return []
    folded, index = _fold(text)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in wanted) + r")\w*")
    found = []
    for m in pattern.finditer(folded):
        if m.end() > m.start():
            found.append((index[m.start()], index[m.end() - 1] + 1))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def highlight_html(text: str, query: str, style: str = "") -> str:
    """`text` escaped, with the words matching `query` in <b> (styled with `style`)."""
    out, pos = [], 0
    open_tag = f'<b style="{html.escape(style)}">' if style else "<b>"
    for start, end in spans(text, query):
        out.append(html.escape(text[pos:start]))
        out.append(open_tag + html.escape(text[start:end]) + "</b>")
        pos = end
    out.append(html.escape(text[pos:]))
    return "".join(out)
