"""The window's side of the records database: an unusable file at start, a write that fails later.

At start, a records file that cannot be used (damaged, another program's, written by a newer
version, not a file) is named in a dialog that offers to start a new one, moving the old file
aside untouched, or to quit. Later, a save that fails (a full disk, a file damaged under the
window) shows a dialog; what was entered stays where it was typed, and Retry tries again.
"""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.core.storage import db
from referee_app.i18n import gettext as _


def _reason(exc: db.StoreError) -> str:
    path = str(exc.path)
    return {
        "not_a_file": _("{path} is not a file."),
        "unwritable": _("{path} cannot be written: check that the file and its folder can be written."),
        "damaged": _("{path} is damaged, or is not a records file."),
        "foreign": _("{path} belongs to another program."),
        "newer": _("{path} was written by a newer version of carrom-referee."),
    }.get(exc.reason, "{path}").format(path=path)


def ask_new_store(exc: db.StoreError, parent=None) -> bool:
    """Asks whether to start a new records file; True to start one. Tests replace this."""
    box = QMessageBox(QMessageBox.Icon.Warning, _("Records"), _("The records file cannot be used."), parent=parent)
    box.setInformativeText(_reason(exc) + "\n\n" + (
        _("A new records file can be started; the old one is kept beside it, untouched.") if exc.can_move_aside
        else _("Correct this, then start carrom-referee again.")))
    start = box.addButton(_("Start a new records file"), QMessageBox.ButtonRole.AcceptRole) if exc.can_move_aside else None
    box.addButton(_("Quit"), QMessageBox.ButtonRole.RejectRole)
    box.exec()
    return start is not None and box.clickedButton() is start


def ensure_records(parent=None) -> bool:
    """True when the records database can be used, after starting a new one if the user chose to;
    False when the app should not open."""
    try:
        db.connect().close()
        return True
    except db.StoreError as exc:
        if not exc.can_move_aside or not ask_new_store(exc, parent):
            return False
        moved = db.move_aside(exc.path, exc.reason)
        db.connect().close()
        QMessageBox.information(parent, _("Records"), _("A new records file was started. The old one is kept as "
                                                        "{path}.").format(path=str(moved)))
        return True


def ask_retry(parent, what: str, problem: str) -> bool:
    """Says that `what` was not saved and why; True to try again. Tests replace this."""
    answer = QMessageBox.critical(parent, _("Not saved"),
                                  _("{what} was not saved: {problem}\nWhat you entered is kept.").format(
                                      what=what, problem=problem),
                                  QMessageBox.StandardButton.Retry | QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Retry


def saving(parent, what: str, action):
    """Runs `action` (a write); on a failed write asks to retry. Returns (True, result), or (False,
    None) once the user gives up: the caller then keeps what was entered as it is."""
    while True:
        try:
            return True, action()
        except (db.StoreError, OSError) as exc:
            if not ask_retry(parent, what, str(exc)):
                return False, None
