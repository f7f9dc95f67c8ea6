"""What one machine may not do, and what another did meanwhile, in the user's words.

A refusal names who may ("only the desk may pair a round"), in one line: never the server's
HINT, CONTEXT or PL/pgSQL text. The same sentence comes from the store (which knows the login's
role before it writes) and from the database (a grant or a row check of roles.py that refused
a statement run by hand or by an older version): `from_server` reads the server's refusal back
into it. Each error carries its English text (the command line's) and says itself in another
language (`translated(lang)`, the window's).
"""
from __future__ import annotations

from referee_app.core.errors import BadInput
from referee_app.i18n import N_, translations

# key -> the sentence, for the desk-only actions; the row checks of roles.py raise these same
# English sentences, so that a refusal by the database reads as one by the store.
ONLY_THE_DESK = {
    "pair": N_("only the desk may pair a round"),
    "repair": N_("only the desk may pair a round again"),
    "pairing": N_("only the desk may change a pairing"),
    "result_entered": N_("only the desk may change a result already entered"),
    "correct": N_("only the desk may correct a result"),
    "entries": N_("only the desk may enter, check in or withdraw a player"),
    "tournament": N_("only the desk may create a tournament or change its choices"),
    "move": N_("only the desk may move a game to another table"),
    "finished_match": N_("only the desk may change the score sheet of a game whose result is entered"),
    "decide": N_("only the desk may decide a form or change a decided one"),
    "journal": N_("only the desk may change the journal"),
    "other": N_("only the desk may make this change"),
}

# the tables whose every write is the desk's: a "permission denied" on one says which action it is
_TABLE_ACTION = {
    "tournaments": "tournament",
    "tournament_entries": "entries",
    "tournament_corrections": "correct",
    "tournament_games": "pairing",
    "tournament_journal": "journal",
}


class NotAllowed(BadInput):
    """The login's role may not do this: one line naming who may."""

    def __init__(self, key: str):
        self.key = key if key in ONLY_THE_DESK else "other"
        super().__init__("", ONLY_THE_DESK[self.key])

    def translated(self, lang: str) -> str:
        return translations(lang).gettext(ONLY_THE_DESK[self.key])


MEANWHILE = {
    "result": N_("the result of table {table} in {round} was entered meanwhile by {login} at {time}: "
                 "only the desk may change it"),
    "paired": N_("{round} was paired meanwhile by {login} at {time}: nothing was changed"),
    "paired_unknown": N_("{round} was paired meanwhile on another machine: nothing was changed"),
    "changed": N_("table {table} in {round} was changed meanwhile by {login} at {time}: nothing was changed"),
}
ROUND = N_("round {n}")
THE_FINAL = N_("the final")


def round_words(round_no, lang: str = "en") -> str:
    _ = translations(lang).gettext
    return _(THE_FINAL) if str(round_no) == "final" else _(ROUND).format(n=round_no)


class Meanwhile(BadInput):
    """Another machine did it first: who, and when (hours and minutes of its clock)."""

    def __init__(self, key: str, round_no, table: int | None = None, login: str | None = None,
                 at: str | None = None):
        if key == "paired" and not login:
            key = "paired_unknown"
        self.key, self.round_no, self.table, self.login, self.at = key, round_no, table, login, at
        super().__init__("", self.translated("en"))

    def translated(self, lang: str) -> str:
        _ = translations(lang).gettext
        return _(MEANWHILE[self.key]).format(table=self.table, round=round_words(self.round_no, lang),
                                            login=self.login or "?", time=_clock(self.at))


def _clock(at: str | None) -> str:
    """14:02 out of an ISO time as stored; the text as it is when it is not one."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(at or "").strftime("%H:%M")
    except ValueError:
        return at or "?"


def from_server(sqlstate: str | None, primary: str, table: str | None) -> NotAllowed | None:
    """The store's refusal for a privilege the server refused (42501), from its primary message
    and the table it names; None for any other error."""
    if sqlstate != "42501":
        return None
    for key, sentence in ONLY_THE_DESK.items():
        if primary.startswith(sentence):
            return NotAllowed(key)
    return NotAllowed(_TABLE_ACTION.get(table or "", "other"))


def said(exc: BaseException, lang: str) -> str:
    """An error as the window shows it: translated when it can say itself, else as raised."""
    translated = getattr(exc, "translated", None)
    return translated(lang) if callable(translated) else str(exc)
