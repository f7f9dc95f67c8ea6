"""The words of the protest and disqualification forms, as the forms page shows them.

Field labels are those of the printed form (the label table of knowledge/forms.yaml) in the
interface language, so the screen and the paper use the same words; times are written as the
interface language writes the time of day, in this computer's zone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee_app import i18n
from referee_app.core.forms.fields import parse_time
from referee_app.core.validation import local
from referee_app.i18n import gettext as _

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge


def label_text(knowledge: Knowledge, key: str) -> str:
    return knowledge.forms.label(key, i18n.current_language())


def field_label(knowledge: Knowledge, kind: str, name: str) -> str:
    return knowledge.forms.field_label(kind, name, i18n.current_language())


def local_time(value, format: str = "short") -> str:
    """A stored time as the interface language writes the time of day, in this computer's zone."""
    return i18n.format_time(local(parse_time(value, "time")), format)


def outcome_text(kind: str, outcome: str) -> str:
    """What the tournament director's decision means for this kind of form."""
    if kind == "protest":
        return _("upheld: the match is replayed") if outcome == "upheld" else _("rejected: the result stands")
    return _("confirmed: the match is lost") if outcome == "upheld" else _("lifted")
