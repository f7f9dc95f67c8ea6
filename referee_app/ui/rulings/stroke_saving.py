"""Saving what the referee enters, as it is entered: a stroke, a field of the match's header.

The session (core/play/session.py) writes; this module runs its writes through the window's
saving (ui/common/records.py), which asks again after a file's refusal and, while a records
server is out of reach, keeps the write waiting and tries it again on its own. Imported at the
first save, not before the first paint (benchmarks/bench_startup.py)."""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from referee_app.core.errors import BadInput
from referee_app.i18n import gettext as _, ngettext
from referee_app.ui.common.records import saving
from referee_app.ui.common.server_state import server_state


def save_stroke(area, pending) -> None:
    """Appends the stroke to the stored sheet; it joins the sheet on screen only once committed.

    Unsaved (a file that refuses it, a server out of reach), it stays ticked in the form, and a
    server's wait is said beside the Record button; the save is tried again on its own. On a
    shared server, a stroke on a sheet this machine holds is kept on the machine instead (the
    outbox): it joins the sheet at once, and "offline: N strokes waiting" says it until sent."""
    sides = area._striker_names()   # who struck it, and the opponent, as the ruling names them
    doc = area._ruled_doc()         # the board it was struck on, for its diagram

    def committed(ruling) -> None:
        area.waiting.hide()
        if pending.kept_offline:
            # after the server state has taken this "save" as done: it is lost, not found
            QTimer.singleShot(0, lambda: _kept_offline(area, pending.lost))
        if not pending.commit():   # another match was opened meanwhile: its sheet is not this one
            return
        area.resume.hide()
        if area.form.stroke() == pending.stroke:  # the form still shows it: done with it
            area._stroke_done((ruling, sides, len(area.match.strokes), doc))
        else:
            area.refresh()

    def refused(exc) -> None:
        area.waiting.hide()
        QMessageBox.warning(area, _("Not recorded"), area.refusal(exc))

    if server_state().unreachable and pending.can_keep():
        # a server known lost is not waited on again for each stroke: kept at once
        try:
            committed(pending.keep())
        except BadInput as exc:
            refused(exc)
        return
    key = ("stroke", id(pending.match))   # one waiting stroke per match: recorded again, the form's latest wins
    try:
        done = saving(area, _("The stroke"), pending.write, key=key, on_saved=committed, on_refused=refused)
    except BadInput as exc:   # the records refuse it (the sheet closed by the desk): said, the stroke stays ticked
        refused(exc)
        return
    if not done:
        # the stroke stays ticked in the form, to record again
        area.waiting.setVisible(server_state().waiting(key))


OUTBOX_KEY = ("outbox",)


def _kept_offline(area, lost) -> None:
    """The server is away (the banner says so) and the outbox is sent when it answers again,
    through the window's one server state (its backoff and its Retry button)."""
    state = server_state()
    if OUTBOX_KEY not in state.pending:
        state._wait(OUTBOX_KEY, area.session.send_kept, lambda _report: show_kept(area), lambda exc: show_kept(area))
    if lost is not None and not state.unreachable:
        state.lost(lost)
    elif not state.unreachable:   # strokes kept by an earlier run, the server reachable: sent now
        QTimer.singleShot(0, state.retry_now)
    show_kept(area)


def show_kept(area) -> None:
    """'offline: N strokes waiting', and the strokes the server refused (kept on this machine)."""
    waiting, refused = area.session.kept()
    parts = []
    if waiting:
        parts.append(ngettext("offline: {n} stroke waiting", "offline: {n} strokes waiting", waiting).format(n=waiting))
    if refused:
        parts.append(ngettext("{n} stroke refused by the server (the sheet was closed or changed meanwhile); "
                              "kept on this machine", "{n} strokes refused by the server (the sheet was closed or "
                              "changed meanwhile); kept on this machine", len(refused)).format(n=len(refused)))
    area.offline.setText(" · ".join(parts))
    area.offline.setToolTip("\n".join(f"{r['made_at']}: {r['problem']}" for r in refused))
    area.offline.setVisible(bool(parts))
    if not waiting:
        area.refresh()


def save_header(area, field: str, text: str) -> None:
    """One header field as typed; out of reach, the field keeps what was typed and the last text
    typed is saved once the server answers."""
    write = area.session.header_write(field, text, area.header.values)
    saving(area, _("The match header"), write, key=("header", id(area.match), field),
           on_saved=lambda _done: area.resume.hide())
