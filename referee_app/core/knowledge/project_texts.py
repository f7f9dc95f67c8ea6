"""The knowledge base's own words (a note of difference, an example's title) in a reader's
language. The project writes them in English; `translations` (on a `differs` entry) and `titles`
(on an example) hold its own French and Italian, marked as the project's translations wherever
they are shown, as the rulebook marks its translations of the clauses."""
from __future__ import annotations

from referee_app.languages import FALLBACK


def difference_note(entry: dict, lang: str) -> tuple[str, bool]:
    """(the note in `lang`, whether that is the project's translation) for a `differs` entry."""
    note = str(entry.get("note") or "")
    translated = (entry.get("translations") or {}).get(lang)
    if lang != FALLBACK and translated:
        return str(translated), True
    return note, False


def example_title(example: dict, lang: str) -> tuple[str, bool]:
    """(the example's title in `lang`, whether that is the project's translation)."""
    name = str(example.get("name") or example.get("title") or example.get("id") or "")
    translated = (example.get("titles") or {}).get(lang)
    if lang != FALLBACK and translated:
        return str(translated), True
    return name, False
