"""Plain text put into Qt's rich text (labels, tooltips, the ruling's page) with its markup
characters escaped.

It is what `html.escape` does, without importing the `html` package for it: the package brings
its table of 2,000 entity names for unescaping, which the app never does, and that cost the
window's first paint 1.2 ms (benchmarks/bench_startup.py). tests/ui/test_ui_rich_text.py holds it
to html.escape's answers."""
from __future__ import annotations

_MARKUP = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(text: str) -> str:
    return text.translate(_MARKUP)
