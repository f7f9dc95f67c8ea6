"""Snippets: the passage of a text richest in the query's matches, the matches marked.

Matching re-analyses each word of the text exactly as the index did, so `pénalités` lights up for
a query `penalite`. Not whoosh's highlighter: that one runs the whole analysis chain over every
hit's text and lights the terms matched by any hit; this one looks each word up in the stem
cache (the same words recur from clause to clause) and lights this text's own.
"""
from __future__ import annotations

import html
from collections.abc import Sequence

from .analysis import TOKEN_RE, stem

# Matches are wrapped in these in "snippet": readable in a terminal, and the GUI, which wants
# bold, gets "snippet_html" (escaped text, matches in <b></b>) instead of parsing them.
MARK = "**"
SNIPPET_CHARS = 240


def words(text: str, lang: str, stems: list | None = None) -> list[tuple[int, int, str | None]]:
    """(start, end, stem) of each word of a text: what a snippet looks matches up in. `stems`:
    the words' stems as the index stored them (stemming each word is most of a first search's
    cost); worked out here when absent or not the text's."""
    found = list(TOKEN_RE.finditer(text))
    if stems is None or len(stems) != len(found):
        stems = [stem(lang, m.group()) for m in found]
    return [(m.start(), m.end(), s) for m, s in zip(found, stems)]


def matches(text: str, lang: str, stems: set[str], spans: Sequence[tuple[int, int]] = (),
            tokens: list | None = None) -> list[tuple[int, int]]:
    """(start, end) of each match in the whole text, in order: its words whose stem the query
    asked for, and `spans` (more places to light: a measurement that holds the value asked for);
    `tokens`: the text's words() if already known."""
    found = [(a, b) for a, b, s in (tokens if tokens is not None else words(text, lang)) if s in stems]
    return _merge(sorted(found + list(spans)))


def snippet(text: str, lang: str, stems: set[str], width: int = SNIPPET_CHARS,
            spans: Sequence[tuple[int, int]] = (), tokens: list | None = None) -> tuple[str, str]:
    """The passage richest in matches, as plain text with matches in ** and as HTML in <b>."""
    return passage(text, matches(text, lang, stems, spans, tokens), width)


def passage(text: str, found: list[tuple[int, int]], width: int = SNIPPET_CHARS) -> tuple[str, str]:
    """The `width` characters of the text richest in the matches `found`, as plain text with
    them in ** and as HTML in <b>."""
    start, end = _window(text, found, width)
    found = [(a, b) for a, b in found if a >= start and b <= end]
    head = "…" if start > 0 else ""
    tail = "…" if end < len(text) else ""
    plain, marked, pos = [head], [head], start
    for a, b in found:
        plain += [text[pos:a], MARK, text[a:b], MARK]
        marked += [html.escape(text[pos:a]), "<b>", html.escape(text[a:b]), "</b>"]
        pos = b
    plain += [text[pos:end], tail]
    marked += [html.escape(text[pos:end]), tail]
    return "".join(plain), "".join(marked)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and a < out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def _window(text: str, spans: list[tuple[int, int]], width: int) -> tuple[int, int]:
    """Start and end of the `width` characters holding the most matches (a little context before
    the first of them), cut at word boundaries."""
    if len(text) <= width:
        return 0, len(text)
    lead = width // 5
    start, first, best = 0, 0, -1
    for a, _ in spans:
        s = max(0, a - lead)
        count = sum(1 for x, y in spans if x >= s and y <= s + width)
        if count > best:
            start, first, best = s, a, count
    if start > 0:
        space = text.find(" ", start, first)
        start = space + 1 if space >= 0 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    return start, end
