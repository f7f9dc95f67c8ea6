"""A protest about one stroke of a match, filled from the match: who, where, which board, what
the referee ruled and on which clause, ready for the official to complete and file."""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput
from referee_app.core.forms.fields import LABEL_MAX
from .match import timeline
from referee_app.core.clause_labels import label
from .sheet_document import catalog, explanation, side_name, stroke_summary

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge


def match_label(meta: dict, lang: str) -> str:
    """The match as people name it on a form: its players and when it began, never the
    records' number ("Élodie – Luca, begun at 14:05")."""
    from datetime import datetime

    from referee_app.i18n import format_time
    from referee_app.core.validation import local

    _ = catalog(lang)
    names = f"{side_name(meta, 'first', lang)} – {side_name(meta, 'second', lang)}"
    try:
        began = format_time(local(datetime.fromisoformat(meta["created_at"])), "short", lang)   # the day is the form's
        full = _("{players}, begun at {time}").format(players=names, time=began)
    except (KeyError, TypeError, ValueError):
        full = names
    for text in (full, names):   # the form's field is short: the start goes first, then the names are cut
        if len(text) <= LABEL_MAX:
            return text
    return names[:LABEL_MAX - 1] + "…"


def protest_fields(knowledge: Knowledge, meta: dict, strokes: list, n: int, lang: str) -> dict:
    """The fields of a protest form (core/forms/fields.py) about stroke `n` (1-based) of the match."""
    ruleset = meta.get("ruleset") or knowledge.default_ruleset
    entries = timeline(knowledge, ruleset, bool(meta.get("doubles")), strokes)
    if not 1 <= n <= len(entries):
        raise BadInput("stroke", f"no stroke {n} (the sheet has {len(entries)})")
    e = entries[n - 1]
    ruling = e["ruling"]
    _ = catalog(lang)
    facts = _("Stroke {n} (game {g}, board {b}), played by {side}: {what}. Ruling: {ruling}").format(
        n=n, g=e["game"], b=e["board"], side=side_name(meta, e["side"], lang),
        what=stroke_summary(knowledge, e["stroke"], ruleset, lang), ruling=explanation(ruling, lang))
    clauses = ruling.get("clauses") or []
    fields = {
        "tournament": meta.get("tournament") or "",
        "round": meta.get("round") or "",
        "table": meta.get("table_no") or "",
        "match": match_label(meta, lang),
        "players": {"first": side_name(meta, "first", lang), "second": side_name(meta, "second", lang)},
        "referee": meta.get("referee") or "",
        "ruleset": ruleset,
        "board": e["board"],
        "score": e["score"],
        "decision": (ruling.get("decision") or {}).get(lang) or explanation(ruling, lang),
        "facts": facts + (" (" + ", ".join(label(c, lang, knowledge.kb) for c in clauses) + ")" if clauses else ""),
        "lang": lang,
    }
    if clauses:
        fields["clause"] = clauses[0]
    return {k: v for k, v in fields.items() if v not in ("", None)}
