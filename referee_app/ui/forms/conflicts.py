"""A form changed on another machine while it was being edited here (VersionConflict): both versions
side by side, and the user's choice. Keeping theirs shows the stored form; keeping mine writes what
this screen shows over it, field by field, from the version just seen, so that a third change
made meanwhile is caught again rather than overwritten; deciding later leaves the field unsaved."""
from __future__ import annotations

from referee_app.core.errors import BadInput
from referee_app.core.forms.fields import normalize
from referee_app.i18n import gettext as _
from referee_app.ui.common import conflict_dialog
from referee_app.ui.common.conflict_dialog import KEEP_MINE, TAKE_THEIRS, value_text
from .labels import field_label, label_text


def _stored(knowledge, kind: str, name: str, value):
    """A value as the store would keep it, so that a mere difference of form is not shown as a change."""
    try:
        return normalize(knowledge, kind, name, value)
    except (BadInput, ValueError, TypeError):
        return value


def screen_fields(page) -> dict:
    editor = page.editors[page.current.kind]
    return {name: _stored(page.current.knowledge, page.current.kind, name, editor.value(name)) for name in editor.fields}


def resolve(page, form_id: int, name: str, exc) -> None:
    """Asks which version to keep, and does it."""
    form = page.current
    if form is None or form.id != form_id:
        return
    mine = screen_fields(page)
    theirs_doc = exc.theirs or {}
    theirs = {k: _stored(form.knowledge, form.kind, k, v) for k, v in (theirs_doc.get("fields") or {}).items() if k in mine}
    labels = {k: field_label(form.knowledge, form.kind, k) for k in mine}
    mine_shown, theirs_shown = dict(mine), dict(theirs)
    if theirs_doc.get("status") and theirs_doc.get("status") != form.status:
        labels["status"] = _("Status")
        mine_shown["status"] = label_text(form.knowledge, form.status)
        theirs_shown["status"] = label_text(form.knowledge, theirs_doc["status"])
    title = f"{label_text(form.knowledge, form.kind)} {form.id}"
    choice = conflict_dialog.ask_conflict(page, title, mine_shown, theirs_shown, labels)
    if choice == TAKE_THEIRS:
        page.show_form(page.store.get(form_id))
        page.refresh_list()
    elif choice == KEEP_MINE:
        keep_mine(page, form_id, mine, theirs, theirs_doc.get("version"))
    else:
        page.field_not_saved(form_id, name, _("Changed on another machine meanwhile: not saved. Type again to "
                                              "compare the two versions."))


def keep_mine(page, form_id: int, mine: dict, theirs: dict, version) -> None:
    """Writes every field where this screen differs from the stored form, knowingly over it."""
    form = None
    try:
        for name, value in mine.items():
            if value_text(value) == value_text(theirs.get(name)):
                continue
            form = page.store.set_field(form_id, name, value, expected_version=version)
            version = form.version
    except BadInput as exc:   # a second conflict, a decided form: said, never forced
        page.field_not_saved(form_id, "", page._problem(exc))
        return
    page.show_form(form or page.store.get(form_id))
    page.refresh_list()
