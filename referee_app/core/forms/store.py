"""Forms and incidents in the records database: autosaved field by field, with a full history.

Every call that changes something is one committed transaction, so a crash loses nothing a
call had returned from: the window calls `set_field` on every
keystroke. Each change is written to `form_history` with its time; a burst of typing in one field
of a draft is kept as one change (its value before and after) rather than one row per key.

What must never be lost is also guarded by the database itself, not only by this module: an
announced protest or a filed form cannot be deleted, and history rows cannot be deleted at all
except with their draft (the triggers of the migrations).

A form carries its `version`: a change made from an older version than the stored one (another
machine changed the form meanwhile) is refused with both versions (VersionConflict), never
written over the other.
"""
from __future__ import annotations

import builtins  # `list` is also a method of the store: annotations after it name the type
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from referee_app.core.storage import db
from referee_app.core.errors import BadInput
from .fields import (OUTCOMES, STATUSES, check_complete, check_kind, disqualification_rules, normalize,
                    normalize_all, parse_time, protest_rules, ruleset_of, subject, timing, times_of)

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

# Consecutive edits of one field of a draft closer together than this are one change in the history.
TYPING_BURST_SECONDS = 60

@dataclass
class Form:
    knowledge: Knowledge = field(repr=False, compare=False)   # what its fields are checked against
    id: int
    kind: str
    status: str
    fields: dict
    outcome: str | None
    created_at: str
    updated_at: str
    decided_at: str | None
    version: int = 1
    unreadable: dict = field(default_factory=dict)   # field -> why its stored value cannot be used
    kept: dict = field(default_factory=dict, repr=False)   # those values as stored, written back untouched

    @classmethod
    def from_row(cls, knowledge: Knowledge, row) -> "Form":
        """The form as stored; a stored value that no longer passes its field's check (written by an
        older version, or by hand) is set aside in `unreadable`, so the rest of the form still reads."""
        fields, unreadable, kept = {}, {}, {}
        raw, problem = db.stored_json(row["fields"], {})
        if problem or not isinstance(raw, dict):
            unreadable["fields"] = problem or "not a mapping of fields"
            raw = {}
        for name, value in raw.items():
            try:
                stored = normalize(knowledge, row["kind"], str(name), value)
                if stored is not None:
                    fields[str(name)] = stored
            except (BadInput, ValueError, TypeError, OverflowError, RecursionError) as exc:
                unreadable[str(name)], kept[str(name)] = str(exc), value
        return cls(knowledge, row["id"], row["kind"], row["status"], fields, row["outcome"],
                   row["created_at"], row["updated_at"], row["decided_at"], row["version"], unreadable, kept)

    @property
    def ruleset(self) -> str:
        return ruleset_of(self.knowledge, self.fields)

    def timing(self, at: datetime | None = None) -> dict:
        try:
            return timing(self.knowledge, self.kind, self.fields, self.status, at)
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

    def __init__(self, knowledge: Knowledge, *args, **kwargs):
        """`knowledge`: what the forms are checked against (forms.yaml, the rulebook, the
        rulesets); the rest as db.Store takes it."""
        super().__init__(*args, **kwargs)
        self.knowledge = knowledge

    def _stamp(self) -> str:
        return self.clock().isoformat(timespec="seconds")

    # -- reading --------------------------------------------------------------------------------
    def get(self, form_id, lock: bool = False) -> Form:
        return Form.from_row(self.knowledge, self.row("forms", form_id, "form", lock=lock))

    def history(self, form_id: int) -> list[dict]:
        rows = self.all("SELECT at, field, old, new FROM form_history WHERE form_id = :f ORDER BY id", {"f": form_id})
        return [{"at": r["at"], "field": r["field"], "old": db.stored_json(r["old"], None, shown=True)[0],
                 "new": db.stored_json(r["new"], None, shown=True)[0]} for r in rows]

    def list(self, tournament: str | None = None, status: str | None = None, kind: str | None = None) -> list[Form]:
        where, args = [], {}
        if tournament:
            where.append(f"{self.json_text('fields', 'tournament')} = :tournament")
            args["tournament"] = tournament
        if status:
            if status not in STATUSES:
                raise BadInput("status", f"unknown status '{status}' (known: {', '.join(STATUSES)})")
            where.append("status = :status")
            args["status"] = status
        if kind:
            where.append("kind = :kind")
            args["kind"] = check_kind(kind)
        sql = "SELECT * FROM forms" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [Form.from_row(self.knowledge, r) for r in self.all(sql, args)]

    def tournaments(self) -> builtins.list[str]:
        t = self.json_text("fields", "tournament")
        rows = self.all(f"SELECT DISTINCT {t} AS t FROM forms WHERE {t} IS NOT NULL "
                        "UNION SELECT tournament FROM incidents ORDER BY 1")
        return [r["t"] for r in rows]

    # -- writing --------------------------------------------------------------------------------
    def _log(self, form_id: int, at: str, field: str, old, new) -> None:
        self.write("INSERT INTO form_history (form_id, at, field, old, new) VALUES (:f, :at, :field, :old, :new)",
                   {"f": form_id, "at": at, "field": field, "old": _dump(old), "new": _dump(new)})

    def _write(self, form: Form, at: str) -> None:
        if "fields" in form.unreadable:
            raise BadInput("fields", f"form {form.id}: its stored fields cannot be read, so it is kept as it is",
                           "form_unreadable", {"form": form.id})
        # a stored value that cannot be read is written back as it was, until the field is given anew
        fields = {**{k: v for k, v in form.kept.items() if k not in form.fields}, **form.fields}
        changed = self.write("UPDATE forms SET fields = :fields, status = :status, outcome = :outcome, "
                             "decided_at = :decided_at, updated_at = :at, version = version + 1 "
                             "WHERE id = :id AND version = :version",
                             {"fields": _dump(fields), "status": form.status, "outcome": form.outcome,
                              "decided_at": form.decided_at, "at": at, "id": form.id, "version": form.version})
        if changed != 1:   # the row is locked while read: only a writer outside this module gets here
            raise self._conflict(form.id, form.version, {"fields": fields, "status": form.status})
        form.version += 1
        form.updated_at = at

    def create(self, kind: str, fields: dict | None = None, file: bool = False) -> Form:
        """A new form: a draft, or (`file`) a complete form filed at once, as `forms new` does."""
        check_kind(kind)
        values = normalize_all(self.knowledge, kind, fields or {})
        at = self._stamp()
        if file:
            values.setdefault("filed_at", at)
            self._prepare_filing(kind, values)
        with self.transaction():
            new_id = self.write("INSERT INTO forms (kind, status, fields, created_at, updated_at, version) "
                                "VALUES (:kind, 'draft', '{}', :at, :at, 0) RETURNING id", {"kind": kind, "at": at})
            form = Form(self.knowledge, new_id, kind, "draft", values, None, at, at, None, version=0)
            self._log(form.id, at, "status", None, "draft")
            for name, value in values.items():
                self._log(form.id, at, name, None, value)
            if file:
                form.status = "filed"
                self._log(form.id, at, "status", "draft", "filed")
            self._write(form, at)
        return form

    def _conflict(self, form_id: int, expected: int, mine: dict) -> db.VersionConflict:
        stored = self.get(form_id)
        return db.VersionConflict(f"form {stored.id}", {"version": int(expected), **mine},
                                  {"version": stored.version, "status": stored.status, "fields": stored.fields,
                                   "outcome": stored.outcome, "updated_at": stored.updated_at})

    def _fresh(self, form_id, expected_version: int | None, mine: dict) -> Form:
        """The form as stored, locked until the change commits; refused when it is not the version
        the change was made from."""
        form = self.get(form_id, lock=True)
        if expected_version is not None and int(expected_version) != form.version:
            raise self._conflict(form.id, expected_version, mine)
        return form

    def set_field(self, form_id: int, name: str, value, expected_version: int | None = None) -> Form:
        """Saves one field now (the autosave of every keystroke); a filed form must stay complete.
        Given the version the form was read at, a form changed elsewhere since is refused
        (VersionConflict), not overwritten."""
        at = self._stamp()
        with self.transaction():
            form = self._fresh(form_id, expected_version, {"fields": {name: value}})
            if form.status == "decided":
                raise BadInput(name, f"form {form.id} is decided: it can no longer change", "form_decided",
                               {"form": form.id})
            stored = normalize(self.knowledge, form.kind, name, value)
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
                check_complete(self.knowledge, form.kind, form.fields, self._recorded(form.kind, form.fields))
            last = self.first("SELECT id, at, field FROM form_history WHERE form_id = :f ORDER BY id DESC LIMIT 1",
                              {"f": form.id})
            if (form.status == "draft" and last is not None and last["field"] == name
                    and (parse_time(at, "at") - parse_time(last["at"], "at")).total_seconds() < TYPING_BURST_SECONDS):
                self.write("UPDATE form_history SET new = :new, at = :at WHERE id = :id",
                           {"new": _dump(stored), "at": at, "id": last["id"]})
            else:
                self._log(form.id, at, name, old, stored)
            self._write(form, at)
        return form

    def file(self, form_id: int, expected_version: int | None = None) -> Form:
        """Draft -> filed: the form must be complete; the filing time is now unless already entered."""
        at = self._stamp()
        with self.transaction():
            form = self._fresh(form_id, expected_version, {"status": "filed"})
            if form.status != "draft":
                raise BadInput("status", f"form {form.id} is already {form.status}", "form_not_draft",
                               {"form": form.id, "status": form.status})
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
        check_complete(self.knowledge, kind, fields, recorded)
        if kind == "disqualification" and recorded:
            fields["times"] = times_of(fields, recorded)

    def decide(self, form_id: int, outcome: str, director: str | None = None,
               expected_version: int | None = None) -> Form:
        """The tournament director's decision: filed -> decided, upheld or rejected."""
        if outcome not in OUTCOMES:
            raise BadInput("outcome", f"'{outcome}' is not one of {', '.join(OUTCOMES)}")
        at = self._stamp()
        with self.transaction():
            form = self._fresh(form_id, expected_version, {"status": "decided", "outcome": outcome})
            if form.status == "draft":
                raise BadInput("status", f"form {form.id} is a draft: file it before it is decided", "form_draft",
                               {"form": form.id})
            if form.status == "decided":
                raise BadInput("status", f"form {form.id} was already decided ({form.outcome}) at {form.decided_at}",
                               "form_decided", {"form": form.id, "outcome": form.outcome, "at": form.decided_at})
            if director:
                name = normalize(self.knowledge, form.kind, "director", director)
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
            clause = protest_rules(self.knowledge, form.fields).steps["no_withdrawal"]
            raise BadInput("id", f"protest {form.id} was announced at {form.fields['announced_at']}: it can never be "
                           f"withdrawn or deleted ({clause}); the tournament director decides it "
                           f"(forms decide {form.id} upheld|rejected)", "protest_announced",
                           {"form": form.id, "clauses": [clause]})
        if form.status != "draft":
            raise BadInput("id", f"form {form.id} is {form.status}: a filed form is never deleted; "
                           f"the tournament director decides it (forms decide {form.id} upheld|rejected)",
                           "form_not_draft", {"form": form.id, "status": form.status})
        with self.transaction():
            self.write("DELETE FROM form_history WHERE form_id = :f", {"f": form.id})
            self.write("DELETE FROM forms WHERE id = :f", {"f": form.id})

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
        row = {name: normalize(self.knowledge, "disqualification", name, fields.get(name))
               for name in ("tournament", "round", "table", "player", "referee", "at")}
        row["note"] = normalize(self.knowledge, "disqualification", "facts", fields.get("note"))
        kinds = self.knowledge.forms.incident_kinds
        row["kind"] = fields.get("kind")
        if row["kind"] not in kinds:
            raise BadInput("kind", f"unknown incident kind '{row['kind']}' (known: {', '.join(kinds)})")
        for name in ("tournament", "round", "table", "player"):
            if row[name] is None:
                raise BadInput(name, "required field is missing", "required")
        row["at"] = row["at"] or self._stamp()
        new_id = self.write('INSERT INTO incidents (tournament, round, "table", player, kind, at, referee, note) '
                            "VALUES (:tournament, :round, :table, :player, :kind, :at, :referee, :note) RETURNING id",
                            {**row, "round": str(row["round"]), "table": str(row["table"])})
        return {"id": new_id, **row}

    def incidents(self, tournament=None, round=None, table=None, player=None, kind=None) -> builtins.list[dict]:
        where, args = [], {}
        for column, value in (("tournament", tournament), ("round", round), ("table", table),
                              ("player", player), ("kind", kind)):
            if value is not None:
                where.append(f'"{column}" = :{column}')
                args[column] = str(value)
        sql = "SELECT * FROM incidents" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY at, id"
        return [dict(r) for r in self.all(sql, args)]

    def counted_incidents(self, kind: str, fields: dict) -> builtins.list[dict]:
        """The incidents a disqualification's counted ground rests on: same match and player, up to its time."""
        if kind != "disqualification" or not fields.get("ground"):
            return []
        try:
            ground = disqualification_rules(self.knowledge, fields).ground(fields["ground"])
        except BadInput:
            return []
        match = ("tournament", "round", "table", "player")
        if ground is None or ground.count is None or not all(fields.get(k) for k in match):
            return []
        found = self.incidents(**{k: fields[k] for k in match}, kind=ground.count.incident)
        until = parse_time(fields["at"], "at") if fields.get("at") else None
        return [i for i in found if until is None or parse_time(i["at"], "at") <= until]

    def _recorded(self, kind: str, fields: dict) -> int:
        return len(self.counted_incidents(kind, fields))
