"""The words of the protest and disqualification forms, as the forms page shows them.

Field labels are those of the printed form (the label table of knowledge/forms.yaml) in the
interface language, so the screen and the paper use the same words; times are written as the
interface language writes the time of day, in this computer's zone.
"""
from __future__ import annotations

from referee_app import i18n
from referee_app.core.forms.fields import parse_time
from referee_app.core.forms.installed import forms_data
from referee_app.core.validation import local
from referee_app.i18n import gettext as _


def label_text(key: str) -> str:
    return forms_data().label(key, i18n.current_language())


def field_label(kind: str, name: str) -> str:
    return forms_data().field_label(kind, name, i18n.current_language())


def local_time(value, format: str = "short") -> str:
    """A stored time as the interface language writes the time of day, in this computer's zone."""
    return i18n.format_time(local(parse_time(value, "time")), format)


def outcome_text(kind: str, outcome: str) -> str:
    """What the tournament director's decision means for this kind of form."""
    if kind == "protest":
        return _("upheld: the match is replayed") if outcome == "upheld" else _("rejected: the result stands")
    return _("confirmed: the match is lost") if outcome == "upheld" else _("lifted")
