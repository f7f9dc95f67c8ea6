"""A refusal or a failure of the core, in the window's language.

The core refuses in English for the command line, naming the field; where the window shows a
refusal it says the same thing from what the refusal carries (`BadInput.code` and `values`, a
store error's `reason`, a refusal that says itself: refusals.NotAllowed, Meanwhile), translated,
never from the English. A failure whose words come from a server or a driver, which no catalog
can translate, is said in a translated sentence; its own words are kept as a secondary detail
(`detail`). Imported by the functions that show a message, never before the first paint.
"""
from __future__ import annotations

from referee_app.core.storage.errors import StoreError, StoreUnavailable, VersionConflict
from referee_app.core.storage.refusals import round_words
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.i18n import ngettext


def knows(exc: BaseException) -> bool:
    """Whether `said` says `exc` in the window's words (else it gives the English as raised)."""
    return callable(getattr(exc, "translated", None)) or isinstance(exc, (StoreError, VersionConflict)) or \
        (getattr(exc, "code", None) or "") in _CODES


def said(exc: BaseException, knowledge=None, field: str | None = None) -> str:
    """What the window shows for `exc`. `knowledge` (a Knowledge root) labels the clauses a refusal
    cites as people cite them (without it they are left out) and names a ruleset; `field` is the
    label the window gives the field refused (a form's "Round"), for a refusal about a field."""
    lang = current_language()
    translated = getattr(exc, "translated", None)
    if callable(translated):
        return translated(lang)
    if isinstance(exc, StoreError):
        return store_failure(exc)
    if isinstance(exc, VersionConflict):   # where no dialog shows both versions (a second conflict)
        return _("This was changed on another machine meanwhile: nothing was overwritten. Look at it again, then "
                 "make your change once more.")
    words = _CODES.get(getattr(exc, "code", None) or "")
    if words is not None:
        values = dict(getattr(exc, "values", {}) or {})
        values["_field"] = field or _("This field")
        if knowledge is not None and values.get("ruleset") in getattr(knowledge, "rulesets", ()):
            values["ruleset"] = knowledge.ruleset_name(values["ruleset"], lang)
        clauses = [knowledge.clause_label(c, lang) for c in values.get("clauses", ())] if knowledge else []
        return words(values, ", ".join(clauses), lang)
    return str(exc)


def detail(exc: BaseException) -> str:
    """The failure's own words (a server's, a driver's, the system's), for a secondary place beside
    what `said` says (a dialog's details, a tooltip); empty when `said` says it all."""
    if isinstance(exc, StoreError) or not isinstance(exc, ValueError):
        return str(exc)
    return str((getattr(exc, "values", None) or {}).get("detail", ""))


def store_failure(exc: StoreError) -> str:
    """A records database that refused or failed a change: what happened and what to do."""
    if isinstance(exc, StoreUnavailable):
        return _("The records server cannot be reached: nothing of this change was saved. Check the network and "
                 "the server, then try again.")
    from referee_app.core.storage.location import shown

    path = shown(exc.path) if isinstance(exc.path, str) else str(exc.path)   # a server's address, never its password
    return {
        "not_a_file": _("{path} is not a file: choose a records file in the preferences."),
        "unwritable": _("{path} cannot be written: check that the file and its folder can be written."),
        "damaged": _("{path} is damaged, or is not a records file: start a new records file, or restore a backup."),
        "foreign": _("{path} belongs to another program: choose another records file in the preferences."),
        "newer": _("{path} was written by a newer version of carrom-referee: use that version."),
        "older": _("{path} was written by an older version of carrom-referee: upgrade it with "
                   "“carrom-referee db migrate”."),
        "refused": _("The records database refused this change, which would have rewritten or removed a kept "
                     "record: nothing was changed."),
        "failed": _("The records database failed: nothing of this change was saved. Try again."),
        "busy": _("{path} is in use by another program: nothing was saved. Try again in a moment, or close the "
                  "program that holds it."),
        "full": _("There is no space left on the disk of {path}: nothing was saved. Free some space, then try "
                  "again."),
        "replaced": _("{path} was replaced or moved while the records were open: nothing more was saved. Check "
                      "which file is the right one, then start again."),
        "credentials": _("The records server wants a password that was not found: put it in PostgreSQL's password "
                         "file (~/.pgpass) or a service, never in the address."),
    }.get(exc.reason, _("The records database failed: nothing of this change was saved. Try again.")).format(
        path=path)


def _score(values: dict) -> dict:
    a, b = (list(values.get("score") or ["?", "?"]) + ["?", "?"])[:2]
    return {"a": a, "b": b}


def _cited(text: str, clauses: str) -> str:
    return f"{text} ({clauses})" if clauses else text


# code (as the core raises it) -> its words, from the refusal's values, the clauses it cites
# (already labelled) and the window's language
_CODES = {
    "reason_missing": lambda v, c, lang: _("This change needs its reason: type it first."),
    "reason_too_long": lambda v, c, lang: _("This reason is {length} characters long: the journal keeps at most "
                                            "{most}.").format(length=v.get("length"), most=v.get("most")),
    "name_missing": lambda v, c, lang: _("Type the name of the new tournament first."),
    "player_entered": lambda v, c, lang: _("{name} is already entered.").format(name=v.get("name")),
    "player_paired": lambda v, c, lang: _("{name} has already been paired: withdraw the player instead.").format(
        name=v.get("name")),
    "player_withdrawn": lambda v, c, lang: _("{name} has already withdrawn.").format(name=v.get("name")),
    "player_absent": lambda v, c, lang: _("{name} is not checked in: there is nothing to withdraw from.").format(
        name=v.get("name")),
    "player_unknown": lambda v, c, lang: _("No player named {name} is entered.").format(name=v.get("name")),
    "table_number": lambda v, c, lang: _("Tables are numbered from 1."),
    "table_played": lambda v, c, lang: _("Table {table} has its result: its game has been played.").format(
        table=v.get("table")),
    "too_few_players": lambda v, c, lang: _("At least two players must be checked in to pair a round."),
    "no_round": lambda v, c, lang: _("No round is paired yet."),
    "repair_not_last": lambda v, c, lang: _("Only the last round paired ({round}) may be paired again.").format(
        round=round_words(v.get("round"), lang)),
    "round_begun": lambda v, c, lang: _("Table {table} has begun or finished its game: {round} is being played. "
                                        "Change its results through recorded corrections.").format(
        table=v.get("table"), round=round_words(v.get("round"), lang)),
    "no_table": lambda v, c, lang: _("There is no table {table} in {round}.").format(
        table=v.get("table"), round=round_words(v.get("round"), lang)),
    "next_round_paired": lambda v, c, lang: _("The round after {round} is already paired: change this result "
                                              "through a recorded correction, with its reason.").format(
        round=round_words(v.get("round"), lang)),
    "tournament_over": lambda v, c, lang: _("The tournament is over: the final has been paired."),
    "score_shape": lambda v, c, lang: _("Type both players' points first."),
    "ghost_game": lambda v, c, lang: _cited(_("The ghost's game is always {a}–{b}").format(**_score(v)), c) + ".",
    "ghost_not_played": lambda v, c, lang: _("The ghost's game is not played: it has no score sheet."),
    "score_both_at_end": lambda v, c, lang: _cited(
        _("{a}–{b} is not a result: no game ends with both sides at {end} points or more").format(
            end=v.get("end"), **_score(v)), c) + ".",
    "score_above_most": lambda v, c, lang: _cited(
        _("{a}–{b} is not a result: a game played to {end} points ends with {most} at most, {before} and one "
          "board's {board}").format(end=v.get("end"), most=v.get("most"), board=v.get("board"),
                                   before=int(v.get("end") or 1) - 1, **_score(v)), c) + ".",
    "final_level": lambda v, c, lang: _cited(_("The final is played to {points} points: it cannot end level").format(
        points=v.get("end")), c) + ".",
    "result_entered": lambda v, c, lang: _("The result of table {table} in {round} is already entered: its game has "
                                           "no score sheet to keep.").format(table=v.get("table"),
                                                                            round=round_words(v.get("round"), lang)),
    "no_sheet": lambda v, c, lang: _("No score sheet is kept at table {table}.").format(table=v.get("table")),
    # a match's sheet
    "stored_unreadable": lambda v, c, lang: _("Stroke {n} of this match is stored in a form that cannot be read: "
                                              "the sheet cannot be replayed past it, so the match stays closed.").format(
        n=v.get("at")),
    # a field of a form, or any field a person types (core/validation.py, core/forms/fields.py)
    "required": lambda v, c, lang: _("Fill in “{field}” first.").format(field=v["_field"]),
    "not_text": lambda v, c, lang: _("“{field}” must be a text.").format(field=v["_field"]),
    "too_long": lambda v, c, lang: _("“{field}”: {length} characters is too long (at most {most}).").format(
        field=v["_field"], length=v.get("length"), most=v.get("most")),
    "name_breaks": lambda v, c, lang: _("“{field}”: a name cannot hold a tab or a line break.").format(
        field=v["_field"]),
    "not_a_choice": lambda v, c, lang: _("“{field}”: “{value}” is not one of the choices offered.").format(
        field=v["_field"], value=v.get("value")),
    "not_a_number": lambda v, c, lang: _("“{field}” must be a whole number.").format(field=v["_field"]),
    "number_too_long": lambda v, c, lang: _("“{field}”: a number of {digits} digits is not plausible here.").format(
        field=v["_field"], digits=v.get("digits")),
    "too_small": lambda v, c, lang: (_("“{field}” cannot be negative.") if not v.get("least") else
                                     _("“{field}” must be at least {least}.")).format(field=v["_field"],
                                                                                    least=v.get("least")),
    "too_large": lambda v, c, lang: _("“{field}” must be at most {most}.").format(field=v["_field"],
                                                                                 most=v.get("most")),
    "not_a_time": lambda v, c, lang: _("“{field}”: “{value}” is not a date and time (e.g. 2026-05-14 15:42).").format(
        field=v["_field"], value=v.get("value")),
    "no_time": lambda v, c, lang: _("“{field}”: give a date and time (e.g. 2026-05-14 15:42).").format(
        field=v["_field"]),
    "implausible_year": lambda v, c, lang: _("“{field}”: the year {year} is not plausible (give a date between "
                                             "{first} and {last}).").format(field=v["_field"], year=v.get("year"),
                                                                           first=v.get("first"), last=v.get("last")),
    "implausible_time": lambda v, c, lang: _("“{field}” is not a plausible date and time.").format(field=v["_field"]),
    "no_clause": lambda v, c, lang: _("“{field}”: “{value}” is not a clause of the rulebook.").format(
        field=v["_field"], value=v.get("value")),
    "board_before_announcement": lambda v, c, lang: _(
        "“{field}” is before the oral announcement, which comes right after the incident, during the board.").format(
        field=v["_field"]),
    "board_too_long": lambda v, c, lang: ngettext(
        "“{field}” is more than {days} day after the oral announcement, made during the board: a board never "
        "lasts that long.",
        "“{field}” is more than {days} days after the oral announcement, made during the board: a board never "
        "lasts that long.", int(v.get("days") or 1)).format(field=v["_field"], days=v.get("days")),
    "not_a_ground": lambda v, c, lang: _("{clause} is not a ground for disqualification under {ruleset}.").format(
        clause=c, ruleset=v.get("ruleset")),
    "times_missing": lambda v, c, lang: ngettext(
        "{clause} needs the offence more than {n} time: record the incidents, or give the number of times.",
        "{clause} needs the offence more than {n} times: record the incidents, or give the number of times.",
        int(v.get("more_than") or 0)).format(clause=c, n=v.get("more_than")),
    "times_too_few": lambda v, c, lang: ngettext(
        "{clause} needs the offence more than {n} time, not {times}.",
        "{clause} needs the offence more than {n} times, not {times}.",
        int(v.get("more_than") or 0)).format(clause=c, n=v.get("more_than"), times=v.get("times")),
    # a form as a whole (core/forms/store.py)
    "form_unreadable": lambda v, c, lang: _("The fields of form {form} as stored cannot be read: it is kept as it "
                                            "is.").format(form=v.get("form")),
    "form_not_draft": lambda v, c, lang: _("Form {form} is no longer a draft: it is never filed again nor deleted; "
                                           "the tournament director decides it.").format(form=v.get("form")),
    "form_draft": lambda v, c, lang: _("Form {form} is a draft: file it before it is decided.").format(
        form=v.get("form")),
    "form_decided": lambda v, c, lang: _("Form {form} is decided: it can no longer change.").format(
        form=v.get("form")),
    "protest_announced": lambda v, c, lang: _("Protest {form} was announced: it can never be withdrawn or deleted "
                                              "({clauses}); the tournament director decides it.").format(
        form=v.get("form"), clauses=c),
    # a record asked by its number (core/storage/db.py): removed meanwhile, or never saved
    "no_record": lambda v, c, lang: {
        "inspection": _("There is no inspection no. {number} in the records."),
        "match": _("There is no match no. {number} in the records."),
        "form": _("There is no form no. {number} in the records: it was deleted meanwhile."),
        "tournament": _("There is no tournament no. {number} in the records."),
    }.get(v.get("record") or "", _("There is no record no. {number} of this kind in the records.")).format(
        number=v.get("number")),
    # learning (core/learn/)
    "too_few_questions": lambda v, c, lang: ngettext(
        "This selection holds only {available} different question; {asked} were asked. Choose fewer questions or a "
        "wider selection.",
        "This selection holds only {available} different questions; {asked} were asked. Choose fewer questions or "
        "a wider selection.", int(v.get("available") or 0)).format(available=v.get("available"), asked=v.get("asked")),
    "learner_missing": lambda v, c, lang: _("Type the learner's name first."),
    # an inspection (core/inspection/store.py)
    "not_measured": lambda v, c, lang: _("Some measurements are not taken yet: an inspection is saved once every "
                                         "one is measured."),
    "other_item": lambda v, c, lang: _("Inspection no. {number} is of another kind of item: a re-inspection is of "
                                       "the same item.").format(number=v.get("number")),
    # a document written to a file (core/storage/files.py): nothing of the old file is lost
    "no_file_named": lambda v, c, lang: _("Name the file first."),
    "system_file": lambda v, c, lang: _("{path} is a system file, not a place for a document: choose another "
                                        "file.").format(path=v.get("path")),
    "cannot_use": lambda v, c, lang: _("{path} cannot be used: choose another file.").format(path=v.get("path")),
    "is_folder": lambda v, c, lang: _("{path} is a folder: give a file name in it.").format(path=v.get("path")),
    "not_regular": lambda v, c, lang: _("{path} is not a regular file (a device or a pipe): choose another "
                                        "file.").format(path=v.get("path")),
    "read_only": lambda v, c, lang: _("{path} is read-only: choose another file.").format(path=v.get("path")),
    "no_folder": lambda v, c, lang: _("The folder {path} does not exist.").format(path=v.get("path")),
    "folder_unwritable": lambda v, c, lang: _("The folder {path} cannot be written: choose another folder.").format(
        path=v.get("path")),
    "cannot_write": lambda v, c, lang: _("{path} could not be written; the previous file, if any, is "
                                         "unchanged.").format(path=v.get("path")),
    "incomplete": lambda v, c, lang: _("{path} could not be written completely (is the disk full?); the previous "
                                       "file, if any, is unchanged.").format(path=v.get("path")),
    "incomplete_pdf": lambda v, c, lang: _("The PDF could not be written completely (is the disk full?); the "
                                           "previous file, if any, is unchanged."),
}
