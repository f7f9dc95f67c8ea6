"""A destructive desk action (a withdrawal, a round paired again) is confirmed with its reason,
which the journal keeps."""
from __future__ import annotations

from referee_app.core.tournament.store import MAX_REASON
from referee_app.core.validation import one_line
from referee_app.i18n import gettext as _


def ask_reason(parent, title: str, question: str) -> str | None:
    """The reason typed, or None when the desk cancels (or gives none: nothing is done). One the
    journal would refuse as too long is asked again, with what was typed, to shorten: the store's
    refusal would come too late, and in English."""
    from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox   # the dialogs' classes: not for the first paint

    prompt = question + "\n\n" + _("Reason (kept in the journal):")
    text = ""
    while True:
        text, ok = QInputDialog.getText(parent, title, prompt, QLineEdit.EchoMode.Normal, text)
        if not ok or not text.strip():
            return None
        length = len(one_line(text.strip(), len(text) + 1))
        if length <= MAX_REASON:
            return text.strip()
        QMessageBox.warning(parent, title, _("At most {most} characters are kept in the journal; this text has "
                                             "{length}. Shorten it.").format(most=MAX_REASON, length=length))
