"""Saving what the referee enters, as it is entered: a stroke, a field of the match's header.

The session (core/play/session.py) writes; this module runs its writes through the window's
saving (ui/common/records.py), which asks again after a file's refusal and, while a records
server is out of reach, keeps the write waiting and tries it again on its own. Imported at the
first save, not before the first paint (benchmarks/bench_startup.py)."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.i18n import gettext as _
from referee_app.ui.common.records import saving
from referee_app.ui.common.server_state import server_state


def save_stroke(area, pending) -> None:
    """Appends the stroke to the stored sheet; it joins the sheet on screen only once committed.

    Unsaved (a file that refuses it, a server out of reach), it stays ticked in the form, and a
    server's wait is said beside the Record button; the save is tried again on its own."""
    sides = area._striker_names()   # who struck it, and the opponent, as the ruling names them
    doc = area._ruled_doc()         # the board it was struck on, for its diagram

    def committed(ruling) -> None:
        area.waiting.hide()
        if not pending.commit():   # another match was opened meanwhile: its sheet is not this one
            return
        area.resume.hide()
        if area.form.stroke() == pending.stroke:  # the form still shows it: done with it
            area._stroke_done((ruling, sides, len(area.match.strokes), doc))
        else:
            area.refresh()

    def refused(exc) -> None:
        area.waiting.hide()
        QMessageBox.warning(area, _("Not recorded"), str(exc))

    key = ("stroke", id(pending.match))   # one waiting stroke per match: recorded again, the form's latest wins
    if not saving(area, _("The stroke"), pending.write, key=key, on_saved=committed, on_refused=refused):
        # the stroke stays ticked in the form, to record again
        area.waiting.setVisible(server_state().waiting(key))


def save_header(area, field: str, text: str) -> None:
    """One header field as typed; out of reach, the field keeps what was typed and the last text
    typed is saved once the server answers."""
    write = area.session.header_write(field, text, area.header.values)
    saving(area, _("The match header"), write, key=("header", id(area.match), field),
           on_saved=lambda _done: area.resume.hide())
