"""What the Rulings area opens from the match: the stroke compared across every ruleset, a
protest form filled from the match, the score sheet as PDF. Dialogs of their own, made when
asked for, not for the first paint."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.core.errors import BadInput
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui.retranslate import follow_language


def compare(area) -> None:
    """The stroke as ticked, ruled under every ruleset, beside the match's."""
    try:
        doc = area.situation_doc()
    except BadInput as exc:
        from .refusal_words import refusal_text

        QMessageBox.warning(area, _("Compare rulesets"), refusal_text(area.knowledge, exc, area.what_if_ruleset()))
        return
    from .compare_view import CompareDialog

    dialog = CompareDialog(area.knowledge, doc, area, reference=area.what_if_ruleset())
    follow_language(dialog)
    dialog.show()
    area.compare_dialog = dialog


def protest_stroke(area) -> None:
    """A protest about the stroke chosen in the sheet (the last one if none is chosen): the
    match is stored first, and the window opens the form (`protest`)."""
    if not area.match.strokes:
        QMessageBox.information(area, _("Protest this stroke"), _("No stroke has been recorded yet."))
        return
    row = area.sheet.strokes.currentRow()
    fields = area.session.protest_fields(row + 1 if row >= 0 else None, area.header.values(), current_language())
    area.resume.hide()
    area.protest.emit(fields)


def print_sheet(area) -> None:
    from PySide6.QtWidgets import QFileDialog

    path, _filter = QFileDialog.getSaveFileName(area, _("Save the score sheet as PDF"),
                                                # TRANSLATORS: a file name: lower case, hyphens, no spaces
                                                _("score-sheet") + ".pdf",
                                                "PDF (*.pdf)")
    if path:
        try:
            area.sheet.save_pdf(path, area.session.sheet_meta())
        except BadInput as exc:
            QMessageBox.warning(area, _("Save the score sheet as PDF"), area.refusal(exc))
