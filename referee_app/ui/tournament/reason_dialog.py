"""A destructive desk action (a withdrawal, a round paired again) is confirmed with its reason,
which the journal keeps."""
from __future__ import annotations

from referee_app.i18n import gettext as _


def ask_reason(parent, title: str, question: str) -> str | None:
    """The reason typed, or None when the desk cancels (or gives none: nothing is done)."""
    from PySide6.QtWidgets import QInputDialog   # the dialogs' classes: not for the first paint

    text, ok = QInputDialog.getText(parent, title, question + "\n\n" + _("Reason (kept in the journal):"))
    return text.strip() if ok and text.strip() else None
