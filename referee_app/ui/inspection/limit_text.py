"""The limits beside a measurement's field: the clause as it is cited, and the printed limit(s)
behind the field, the one applied and the others the sources print.
"""
from __future__ import annotations

from referee_app.core.clause_labels import label
from referee_app.core.inspection import wording as fmt
from referee_app.core.inspection.verdict import choose_limit
from referee_app.core.inspection.model import Measurement
from referee_app import i18n
from referee_app.i18n import gettext as _


def clause_text(clause_id: str, kb=None) -> str:
    """The clause as people cite it ("ICF 2 cote C"), from the knowledge base `kb`."""
    return label(clause_id, i18n.current_language(), kb) if kb is not None else clause_id.replace(":", " ")


def limit_tooltip(m: Measurement, facts: dict, kb=None) -> str:
    """The printed limit(s) behind a field: the one applied and the others the sources print."""
    lim, _remark = choose_limit(m, facts)
    lines = [f"{clause_text(lim.clause, kb)}: « {lim.printed} »"]
    if lim.note:
        lines.append(fmt.localized(lim.note, i18n.current_language()))
    for other in m.limits:
        if other is not lim:
            lines.append(f"{clause_text(other.clause, kb)} ({_('not applied')}): « {other.printed} »")
            if other.note:
                lines.append(fmt.localized(other.note, i18n.current_language()))
    return "\n".join(lines)
