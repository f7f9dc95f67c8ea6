"""The window's side of the records database: an unusable file at start, a write that fails later.

At start, a records file that cannot be used (damaged, another program's, written by a newer
version, not a file) is named in a dialog that offers to start a new one, moving the old file
aside untouched, or to quit. Later, a save that fails (a full disk, a file damaged under the
window) shows a dialog; what was entered stays where it was typed, and Retry tries again. A shared
server that cannot be reached is said by the window's banner instead (server_state.py).
"""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.core.storage import location
from referee_app.core.storage.errors import StoreError, StoreUnavailable
from referee_app.i18n import gettext as _
from .records_source import records_database
from .server_state import server_state


def _reason(exc: StoreError) -> str:
    path = str(exc.path)
    return {
        "not_a_file": _("{path} is not a file."),
        "unwritable": _("{path} cannot be written: check that the file and its folder can be written."),
        "damaged": _("{path} is damaged, or is not a records file."),
        "foreign": _("{path} belongs to another program."),
        "newer": _("{path} was written by a newer version of carrom-referee."),
        "busy": _("{path} is in use by another program (a second carrom-referee, a backup, sqlite3)."),
        "full": _("There is no space left on the disk of {path}."),
        "replaced": _("{path} was replaced or moved while the records were open."),
    }.get(exc.reason, "{path}").format(path=path)


def ask_new_store(exc: StoreError, parent=None) -> bool:
    """Asks whether to start a new records file; True to start one. Tests replace this."""
    box = QMessageBox(QMessageBox.Icon.Warning, _("Records"), _("The records file cannot be used."), parent=parent)
    box.setInformativeText(_reason(exc) + "\n\n" + (
        _("A new records file can be started; the old one is kept beside it, untouched.") if exc.can_move_aside
        else _("Correct this, then start carrom-referee again.")))
    start = box.addButton(_("Start a new records file"), QMessageBox.ButtonRole.AcceptRole) if exc.can_move_aside else None
    box.addButton(_("Quit"), QMessageBox.ButtonRole.RejectRole)
    box.exec()
    return start is not None and box.clickedButton() is start


def ask_unreachable(exc, parent=None) -> str:
    """The records server cannot be reached as the window opens: "retry", "preferences" (to choose
    another database) or "quit". Tests replace this."""
    box = QMessageBox(QMessageBox.Icon.Warning, _("Records"), _("The records server cannot be reached."),
                      parent=parent)
    box.setInformativeText(location.shown(exc.url) + "\n\n" + _("Check the network and the server, then try "
                                                                  "again; or choose another records database in "
                                                                  "the preferences."))
    box.setDetailedText(str(exc))   # the driver's own words, for whoever runs the server
    retry = box.addButton(_("Try again"), QMessageBox.ButtonRole.AcceptRole)
    prefs = box.addButton(_("Preferences…"), QMessageBox.ButtonRole.ActionRole)
    box.addButton(_("Quit"), QMessageBox.ButtonRole.RejectRole)
    box.exec()
    return {retry: "retry", prefs: "preferences"}.get(box.clickedButton(), "quit")


def ensure_records(parent=None) -> bool:
    """True when the records database can be used, after starting a new one if the user chose to;
    False when the app should not open."""
    while True:
        try:
            records_database()
            return True
        except StoreUnavailable as exc:
            choice = ask_unreachable(exc, parent)
            if choice == "quit":
                return False
            if choice == "preferences" and not _choose_database(parent):
                return False
        except location.UrlRefused as exc:   # a password written into the settings file by hand
            from referee_app.ui.preferences import refusal_text

            QMessageBox.warning(parent, _("Records"), refusal_text(exc))
            if not _choose_database(parent):
                return False
        except StoreError as exc:
            if exc.reason in ("busy", "full"):   # a sound file: never offered to be set aside
                if ask_retry_open(exc, parent):
                    continue
                return False
            return _start_new_file(exc, parent)


def ask_retry_open(exc: StoreError, parent=None) -> bool:
    """The records file is sound but in use by another program, or its disk is full: says so,
    offers to try again or quit (never to set the file aside); True to try again. Tests replace this."""
    text = (_("{path} is in use by another program (a second carrom-referee, a backup, sqlite3).")
            if exc.reason == "busy" else _("There is no space left on the disk of {path}."))
    box = QMessageBox(QMessageBox.Icon.Warning, _("Records"), text.format(path=str(exc.path)), parent=parent)
    box.setInformativeText(_("The file is sound and stays where it is. Nothing was saved."))
    box.setDetailedText(str(exc))
    retry = box.addButton(_("Try again"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(_("Quit"), QMessageBox.ButtonRole.RejectRole)
    box.exec()
    return box.clickedButton() is retry


def _choose_database(parent) -> bool:
    from referee_app.ui.preferences import PreferencesDialog

    return bool(PreferencesDialog(parent).exec())


def _start_new_file(exc: StoreError, parent) -> bool:
    if not exc.can_move_aside or not ask_new_store(exc, parent):
        return False
    from referee_app.core.storage.db import start_anew

    from .records_source import forget

    forget()
    try:
        moved = start_anew(exc.path, exc.reason)   # the old file back in place if the new one fails
    except StoreError as failed:
        from .refusal_words import store_failure

        box = QMessageBox(QMessageBox.Icon.Warning, _("Records"), store_failure(failed), parent=parent)
        box.setDetailedText(str(failed))   # the system's own words, for whoever looks after the machine
        box.exec()
        return False
    records_database()
    QMessageBox.information(parent, _("Records"), _("A new records file was started. The old one is kept as "
                                                    "{path}.").format(path=str(moved)))
    return True


def ask_retry(parent, what: str, problem: str, detail: str = "") -> bool:
    """Says that `what` was not saved and why (`problem`, in the window's language; `detail`, the
    driver's or the system's own words, under the dialog's details); True to try again. Tests
    replace this."""
    box = QMessageBox(QMessageBox.Icon.Critical, _("Not saved"),
                      "\n".join((_("{what} was not saved.").format(what=what), problem, _("What you entered is kept."))),
                      QMessageBox.StandardButton.Retry | QMessageBox.StandardButton.Cancel, parent)
    if detail:
        box.setDetailedText(detail)
    return box.exec() == QMessageBox.StandardButton.Retry


class _GaveUp(Exception):
    """The user chose not to retry a failed write."""


def saving(parent, what: str, action, key=None, on_saved=None, on_refused=None) -> bool:
    """Runs `action` (a write) and, once it is committed, `on_saved(result)`; True if that happened now.

    A write the file refuses (a full disk, a file damaged under the window) asks to retry, and
    returns False once the user gives up. A server that cannot be reached returns False at once:
    the write waits in the window's server state under `key` (the banner says so) and `on_saved`
    runs when it goes through. Either way the caller keeps what was entered as it is."""
    def attempt():
        while True:
            try:
                return action()
            except StoreUnavailable:
                raise   # not the file's fault: the server state keeps the write waiting
            except (StoreError, OSError) as exc:
                from .refusal_words import detail, said

                problem = said(exc) if isinstance(exc, StoreError) else \
                    _("The file could not be written: check that there is free space on the disk, then try again.")
                if not ask_retry(parent, what, problem, detail(exc)):
                    raise _GaveUp from None

    try:
        return server_state().save(key if key is not None else what, attempt, on_saved, on_refused)
    except _GaveUp:
        return False
