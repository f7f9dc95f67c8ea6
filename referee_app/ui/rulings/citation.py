"""Clauses as a referee cites them ("ICF 3.12 a"), never as their ids (`icf-fr:3.12.a`), with the
clause's text for a tooltip in the reader's language."""
from __future__ import annotations

from referee_app.core.clause_labels import label
from referee_app.i18n import current_language
from referee_app.ui.common.rich_text import escape


def human_citation(kb, clause_id: str) -> str:
    return label(clause_id, current_language(), kb)


def clause_tooltip(kb, clause_id: str) -> str:
    """The clause's text in the interface language when the project translated it, else as printed."""
    clause = kb.clauses.get(clause_id)
    if clause is None:
        return human_citation(kb, clause_id)
    text = clause.translations.get(current_language()) or clause.text
    return f"<p><b>{escape(human_citation(kb, clause_id))}</b> — {escape(clause.title or '')}</p>" \
           f"<p>{escape(text)}</p>"
