"""Forms and incidents in the records database: autosaved field by field, with a full history.

Every call that changes something is one committed transaction (db.py: WAL, synchronous=FULL),
so a crash loses nothing a call had returned from: the window calls `set_field` on every
keystroke. Each change is written to `form_history` with its time; a burst of typing in one field
of a draft is kept as one change (its value before and after) rather than one row per key.

What must never be lost is also guarded by the database itself, not only by this module: an
announced protest or a filed form cannot be deleted, and history rows cannot be deleted at all
except with their draft.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime

from referee_app.core.storage import db
from referee_app.core.errors import BadInput
from .fields import (OUTCOMES, STATUSES, check_complete, check_kind, disqualification_rules, iso, normalize,
                    normalize_all, parse_time, protest_rules, subject, timing, times_of)
from .clauses import forms_data

# Consecutive edits of one field of a draft closer together than this are one change in the history.
TYPING_BURST_SECONDS = 60

SCHEMA = """
CREATE TABLE IF NOT EXISTS forms (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('protest', 'disqualification')),
    status TEXT NOT NULL CHECK (status IN ('draft', 'filed', 'decided')),
    fields TEXT NOT NULL DEFAULT '{}',          -- JSON: the form's fields (core/forms.py FIELDS)
    outcome TEXT CHECK (outcome IN ('upheld', 'rejected')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    decided_at TEXT
);
CREATE INDEX IF NOT EXISTS forms_by_tournament ON forms (json_extract(fields, '$.tournament'), status);
CREATE TABLE IF NOT EXISTS form_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id INTEGER NOT NULL REFERENCES forms(id),
    at TEXT NOT NULL,
    field TEXT NOT NULL,
    old TEXT,                                   -- JSON values
    new TEXT
);
CREATE INDEX IF NOT EXISTS form_history_by_form ON form_history (form_id, id);
CREATE TABLE IF NOT EXISTS incidents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament TEXT NOT NULL,
    round TEXT NOT NULL,
    "table" TEXT NOT NULL,
    player TEXT NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    referee TEXT,
    note TEXT
);
CREATE INDEX IF NOT EXISTS incidents_by_match ON incidents (tournament, round, "table", player);
CREATE TRIGGER IF NOT EXISTS forms_keep_announced_protests BEFORE DELETE ON forms
    WHEN OLD.kind = 'protest' AND json_extract(OLD.fields, '$.announced_at') IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'an announced protest can never be deleted or withdrawn'); END;
CREATE TRIGGER IF NOT EXISTS forms_keep_filed BEFORE DELETE ON forms
    WHEN OLD.status != 'draft'
    BEGIN SELECT RAISE(ABORT, 'a filed form can never be deleted'); END;
CREATE TRIGGER IF NOT EXISTS form_history_keep BEFORE DELETE ON form_history
    WHEN (SELECT status FROM forms WHERE id = OLD.form_id) IS NOT 'draft'
    BEGIN SELECT RAISE(ABORT, 'the history of a filed form can never be deleted'); END;
CREATE TRIGGER IF NOT EXISTS form_history_append_only BEFORE UPDATE OF form_id, field, old ON form_history
    BEGIN SELECT RAISE(ABORT, 'history rows are never rewritten'); END;
"""


@dataclass
class Form:
    id: int
    kind: str
    status: str
    fields: dict
    outcome: str | None
    created_at: str
    updated_at: str
    decided_at: str | None
    unreadable: dict = field(default_factory=dict)   # field -> why its stored value cannot be used
    kept: dict = field(default_factory=dict, repr=False)   # those values as stored, written back untouched

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> "Form":
        """The form as stored; a stored value that no longer passes its field's check (written by an
        older version, or by hand) is set aside in `unreadable`, so the rest of the form still reads."""
        fields, unreadable, kept = {}, {}, {}
        raw, problem = db.stored_json(row["fields"], {})
        if problem or not isinstance(raw, dict):
            unreadable["fields"] = problem or "not a mapping of fields"
            raw = {}
        for name, value in raw.items():
            try:
                stored = normalize(row["kind"], str(name), value)
                if stored is not None:
                    fields[str(name)] = stored
            except (BadInput, ValueError, TypeError, OverflowError, RecursionError) as exc:
                unreadable[str(name)], kept[str(name)] = str(exc), value
        return cls(row["id"], row["kind"], row["status"], fields, row["outcome"],
                   row["created_at"], row["updated_at"], row["decided_at"], unreadable, kept)

    @property
    def ruleset(self) -> str:
        return self.fields.get("ruleset") or forms_data().default_ruleset

    def timing(self, at: datetime | None = None) -> dict:
        try:
            return timing(self.kind, self.fields, self.status, at)
        except (BadInput, ValueError, OverflowError, KeyError) as exc:  # e.g. a ruleset since removed
            self.unreadable.setdefault("deadline", str(exc))
            return {"deadline": None, "remaining_seconds": None, "late": None}

    def announced(self) -> bool:
        return self.kind == "protest" and bool(self.fields.get("announced_at"))

    def summary(self, at: datetime | None = None) -> dict:
        """The short record of `new` and `list`."""
        t = self.timing(at)
        return {"id": self.id, "kind": self.kind, "status": self.status,
                "tournament": self.fields.get("tournament"), "round": self.fields.get("round"),
                "table": self.fields.get("table"), "subject": subject(self.kind, self.fields),
                "ruleset": self.ruleset, "deadline": t["deadline"], "late": t["late"],
                "outcome": self.outcome, "created_at": self.created_at, "updated_at": self.updated_at,
                **({"unreadable": sorted(self.unreadable)} if self.unreadable else {})}


def _dump(value) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


class FormsStore(db.Store):
    """The forms and incidents of one records database."""

    SCHEMA = SCHEMA

    def _stamp(self) -> str:
        return iso(self.clock())

    # -- reading --------------------------------------------------------------------------------
    def get(self, form_id) -> Form:
        return Form.from_row(self.row("forms", form_id, "form"))

    def history(self, form_id: int) -> list[dict]:
        rows = self.conn.execute("SELECT at, field, old, new FROM form_history WHERE form_id = ? ORDER BY id",
                                 (form_id,)).fetchall()
        return [{"at": r["at"], "field": r["field"], "old": db.stored_json(r["old"], None, shown=True)[0],
                 "new": db.stored_json(r["new"], None, shown=True)[0]} for r in rows]

    def list(self, tournament: str | None = None, status: str | None = None, kind: str | None = None) -> list[Form]:
        where, args = [], []
        if tournament:
            where.append("json_extract(fields, '$.tournament') = ?")
            args.append(tournament)
        if status:
            if status not in STATUSES:
                raise BadInput("status", f"unknown status '{status}' (known: {', '.join(STATUSES)})")
            where.append("status = ?")
            args.append(status)
        if kind:
            where.append("kind = ?")
            args.append(check_kind(kind))
        sql = "SELECT * FROM forms" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [Form.from_row(r) for r in self.conn.execute(sql, args)]

    def tournaments(self) -> list[str]:
        rows = self.conn.execute("SELECT DISTINCT json_extract(fields, '$.tournament') AS t FROM forms "
                                 "WHERE t IS NOT NULL UNION SELECT tournament FROM incidents ORDER BY 1")
        return [r[0] for r in rows]

    # -- writing --------------------------------------------------------------------------------
    def _log(self, form_id: int, at: str, field: str, old, new) -> None:
        self.conn.execute("INSERT INTO form_history (form_id, at, field, old, new) VALUES (?, ?, ?, ?, ?)",
                          (form_id, at, field, _dump(old), _dump(new)))

    def _write(self, form: Form, at: str) -> None:
        if "fields" in form.unreadable:
            raise BadInput("fields", f"form {form.id}: its stored fields cannot be read, so it is kept as it is")
        # a stored value that cannot be read is written back as it was, until the field is given anew
        fields = {**{k: v for k, v in form.kept.items() if k not in form.fields}, **form.fields}
        self.conn.execute("UPDATE forms SET fields = ?, status = ?, outcome = ?, decided_at = ?, updated_at = ? "
                          "WHERE id = ?", (_dump(fields), form.status, form.outcome, form.decided_at, at, form.id))

    def create(self, kind: str, fields: dict | None = None, file: bool = False) -> Form:
        """A new form: a draft, or (`file`) a complete form filed at once, as `forms new` does."""
        check_kind(kind)
        values = normalize_all(kind, fields or {})
        at = self._stamp()
        if file:
            values.setdefault("filed_at", at)
            self._prepare_filing(kind, values)
        with db.transaction(self.conn):
            cur = self.conn.execute("INSERT INTO forms (kind, status, fields, created_at, updated_at) "
                                    "VALUES (?, 'draft', '{}', ?, ?)", (kind, at, at))
            form = Form(cur.lastrowid, kind, "draft", values, None, at, at, None)
            self._log(form.id, at, "status", None, "draft")
            for name, value in values.items():
                self._log(form.id, at, name, None, value)
            if file:
                form.status = "filed"
                self._log(form.id, at, "status", "draft", "filed")
            self._write(form, at)
        return form

    def set_field(self, form_id: int, name: str, value) -> Form:
        """Saves one field now (the autosave of every keystroke); a filed form must stay complete."""
        at = self._stamp()
        with db.transaction(self.conn):
            form = self.get(form_id)
            if form.status == "decided":
                raise BadInput(name, f"form {form.id} is decided: it can no longer change")
            stored = normalize(form.kind, name, value)
            old = form.fields.get(name)
            if stored == old and name not in form.kept:
                return form
            form.kept.pop(name, None)   # given anew: the unreadable stored value is replaced
            form.unreadable.pop(name, None)
            if stored is None:
                form.fields.pop(name, None)
            else:
                form.fields[name] = stored
            if form.status != "draft":
                check_complete(form.kind, form.fields, self._recorded(form.kind, form.fields))
            last = self.conn.execute("SELECT id, at, field FROM form_history WHERE form_id = ? "
                                     "ORDER BY id DESC LIMIT 1", (form.id,)).fetchone()
            if (form.status == "draft" and last is not None and last["field"] == name
                    and (parse_time(at, "at") - parse_time(last["at"], "at")).total_seconds() < TYPING_BURST_SECONDS):
                self.conn.execute("UPDATE form_history SET new = ?, at = ? WHERE id = ?",
                                  (_dump(stored), at, last["id"]))
            else:
                self._log(form.id, at, name, old, stored)
            self._write(form, at)
        return form

    def file(self, form_id: int) -> Form:
        """Draft -> filed: the form must be complete; the filing time is now unless already entered."""
        at = self._stamp()
        with db.transaction(self.conn):
            form = self.get(form_id)
            if form.status != "draft":
                raise BadInput("status", f"form {form.id} is already {form.status}")
            before = dict(form.fields)
            form.fields.setdefault("filed_at", at)
            self._prepare_filing(form.kind, form.fields)
            for name, value in form.fields.items():
                if before.get(name) != value:
                    self._log(form.id, at, name, before.get(name), value)
            form.status = "filed"
            self._log(form.id, at, "status", "draft", "filed")
            self._write(form, at)
        return form

    def _prepare_filing(self, kind: str, fields: dict) -> None:
        recorded = self._recorded(kind, fields)
        check_complete(kind, fields, recorded)
        if kind == "disqualification" and recorded:
            fields["times"] = times_of(fields, recorded)

    def decide(self, form_id: int, outcome: str, director: str | None = None) -> Form:
        """The tournament director's decision: filed -> decided, upheld or rejected."""
        if outcome not in OUTCOMES:
            raise BadInput("outcome", f"'{outcome}' is not one of {', '.join(OUTCOMES)}")
        at = self._stamp()
        with db.transaction(self.conn):
            form = self.get(form_id)
            if form.status == "draft":
                raise BadInput("status", f"form {form.id} is a draft: file it before it is decided")
            if form.status == "decided":
                raise BadInput("status", f"form {form.id} was already decided ({form.outcome}) at {form.decided_at}")
            if director:
                name = normalize(form.kind, "director", director)
                self._log(form.id, at, "director", form.fields.get("director"), name)
                form.fields["director"] = name
            form.status, form.outcome, form.decided_at = "decided", outcome, at
            self._log(form.id, at, "outcome", None, outcome)
            self._log(form.id, at, "status", "filed", "decided")
            self._write(form, at)
        return form

    def delete(self, form_id: int) -> None:
        """Removes a draft made by mistake; an announced protest or a filed form is refused."""
        form = self.get(form_id)
        if form.announced():
            clause = protest_rules(form.fields).steps["no_withdrawal"]
            raise BadInput("id", f"protest {form.id} was announced at {form.fields['announced_at']}: it can never be "
                           f"withdrawn or deleted ({clause}); the tournament director decides it "
                           f"(forms decide {form.id} upheld|rejected)")
        if form.status != "draft":
            raise BadInput("id", f"form {form.id} is {form.status}: a filed form is never deleted; "
                           f"the tournament director decides it (forms decide {form.id} upheld|rejected)")
        with db.transaction(self.conn):
            self.conn.execute("DELETE FROM form_history WHERE form_id = ?", (form.id,))
            self.conn.execute("DELETE FROM forms WHERE id = ?", (form.id,))

    # -- incidents ------------------------------------------------------------------------------
    def record_incident(self, fields: dict) -> dict:
        """One incident of a match (e.g. a disturbance), so that a repeated offence can be counted."""
        if not isinstance(fields, dict):
            raise BadInput("", "an incident must be a mapping of fields")
        known = ("tournament", "round", "table", "player", "kind", "at", "referee", "note")
        for name in fields:
            if name not in known:
                raise BadInput(str(name), f"unknown field of an incident (known: {', '.join(known)})")
        # An incident has the same kinds of field as a disqualification form, so it is checked by them.
        row = {name: normalize("disqualification", name, fields.get(name))
               for name in ("tournament", "round", "table", "player", "referee", "at")}
        row["note"] = normalize("disqualification", "facts", fields.get("note"))
        kinds = forms_data().incident_kinds
        row["kind"] = fields.get("kind")
        if row["kind"] not in kinds:
            raise BadInput("kind", f"unknown incident kind '{row['kind']}' (known: {', '.join(kinds)})")
        for name in ("tournament", "round", "table", "player"):
            if row[name] is None:
                raise BadInput(name, "required field is missing")
        row["at"] = row["at"] or self._stamp()
        cur = self.conn.execute('INSERT INTO incidents (tournament, round, "table", player, kind, at, referee, note) '
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                (row["tournament"], str(row["round"]), str(row["table"]), row["player"], row["kind"],
                                 row["at"], row["referee"], row["note"]))
        return {"id": cur.lastrowid, **row}

    def incidents(self, tournament=None, round=None, table=None, player=None, kind=None) -> list[dict]:
        where, args = [], []
        for column, value in (("tournament", tournament), ("round", round), ('"table"', table),
                              ("player", player), ("kind", kind)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(str(value))
        sql = "SELECT * FROM incidents" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY at, id"
        return [dict(r) for r in self.conn.execute(sql, args)]

    def counted_incidents(self, kind: str, fields: dict) -> list[dict]:
        """The incidents a disqualification's counted ground rests on: same match and player, up to its time."""
        if kind != "disqualification" or not fields.get("ground"):
            return []
        try:
            ground = disqualification_rules(fields).ground(fields["ground"])
        except BadInput:
            return []
        match = ("tournament", "round", "table", "player")
        if ground is None or ground.count is None or not all(fields.get(k) for k in match):
            return []
        found = self.incidents(*(fields[k] for k in match), ground.count.incident)
        until = parse_time(fields["at"], "at") if fields.get("at") else None
        return [i for i in found if until is None or parse_time(i["at"], "at") <= until]

    def _recorded(self, kind: str, fields: dict) -> int:
        return len(self.counted_incidents(kind, fields))
