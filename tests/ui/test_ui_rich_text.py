"""The rich-text escape the first paint uses instead of importing the html package."""
from __future__ import annotations

import html

from referee_app.ui.common.rich_text import escape


def test_it_escapes_as_html_escape_does():
    for text in ("", "plain", "a < b > c", "Tom & Jerry", "l'arbitre dit \"non\"", "<a href='x'>&amp;</a>",
                 "é, à, ç, –, «»", "&&<<>>''\"\"", "ICF 3.12 a — Pion situé sur la ligne"):
        assert escape(text) == html.escape(text)
