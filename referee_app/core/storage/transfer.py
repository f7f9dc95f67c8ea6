"""Copying every record from one records database to another (`carrom-referee db copy`): a
machine's SQLite file into the tournament's shared server, and back.

Every table of the schema is copied, in an order where a row comes after the rows it points at,
inside one transaction on the target: the copy is whole or nothing. The source is read in one
transaction too, so a machine still recording while it is copied gives a consistent picture.

Numbers (ids) are kept as they are, so that a match is match 12 on both sides. A target already
holding a different record under one of those numbers is refused before anything is written (a
record the same on both sides is simply there already: copying twice changes nothing). Into a
database that already holds other machines' records, `renumber` gives every copied record a new
number on the target and follows it everywhere it is referred to.
"""
from __future__ import annotations

import json

import sqlalchemy as sa

from referee_app.core.errors import BadInput
from . import schema

# References the schema does not declare as foreign keys (a game's score sheet may be kept on
# another machine's records, so the database cannot hold it to one).
EXTRA_REFERENCES = {("tournament_games", "match_id"): "matches"}
# A form names its match in the `match` field, as a label: the number of a match it was filled from.
FORM_MATCH_FIELD = "match"


def _key(table: sa.Table, row: dict) -> tuple:
    return tuple(row[c.name] for c in table.primary_key.columns)


def _rows(conn, table: sa.Table) -> list[dict]:
    return [dict(r._mapping) for r in conn.execute(sa.select(table).order_by(*table.primary_key.columns))]


def _renumbered(table: sa.Table) -> bool:
    """Whether a table's rows get new numbers under `renumber`: those numbered by a plain `id`."""
    return [c.name for c in table.primary_key.columns] == ["id"]


def _references(table: sa.Table) -> dict[str, str]:
    """The columns of `table` that hold another row's number, and that row's table."""
    refs = {c.parent.name: c.column.table.name for c in table.foreign_keys}
    refs.update({column: target for (name, column), target in EXTRA_REFERENCES.items() if name == table.name})
    return refs


def order() -> list[str]:
    """The tables in the order they are written: each after every table its rows refer to, the
    references the schema does not declare (and a form's match) included."""
    needs = {name: set(_references(schema.metadata.tables[name]).values()) - {name} for name in schema.TABLES}
    needs["forms"].add("matches")
    done: list[str] = []
    while len(done) < len(needs):
        ready = [n for n in schema.TABLES if n not in done and needs[n] <= set(done)]
        done.append(ready[0])
    return done


class Copy:
    """One copy between two open databases' connections: planned (conflicts found) then written."""

    def __init__(self, source, target, renumber: bool = False):
        self.source, self.target, self.renumber = source, target, renumber
        self.numbers: dict[str, dict] = {}       # table -> {number on the source: number on the target}
        self.report: dict[str, dict] = {}

    def run(self) -> dict:
        """Table by table; a conflict found in a later table rolls back the earlier ones with it."""
        for name in order():
            table = schema.metadata.tables[name]
            self._write(table, self._plan(table))
        if self.target.dialect.name == "postgresql":
            self._reset_sequences()
        return self.report

    def _plan(self, table: sa.Table) -> list[dict]:
        """The source's rows of `table` still to write; refuses (BadInput) a conflicting target row."""
        rows = _rows(self.source, table)
        self.report[table.name] = {"copied": 0, "already_there": 0}
        if self.renumber and _renumbered(table):
            return rows
        present = {_key(table, r): r for r in _rows(self.target, table)}
        todo = []
        for row in rows:
            found = present.get(_key(table, self._mapped(table, row)))
            if found is None:
                todo.append(row)
            elif found == self._mapped(table, row):
                self.report[table.name]["already_there"] += 1
            else:
                key = ", ".join(f"{c.name} {row[c.name]}" for c in table.primary_key.columns)
                raise BadInput("to", f"the target already holds another record in {table.name} ({key}): nothing "
                                     "was copied; copy into an empty database, or give --renumber to number the "
                                     "copied records anew")
        return todo

    def _mapped(self, table: sa.Table, row: dict) -> dict:
        """The row as written on the target: its references to renumbered rows followed."""
        if not self.renumber:
            return row
        row = dict(row)
        for column, target in _references(table).items():
            numbers = self.numbers.get(target)
            if numbers is not None and row.get(column) is not None:
                row[column] = numbers.get(row[column], row[column])
        if table.name == "forms":
            row["fields"] = self._form_fields(row["fields"])
        elif table.name == "form_history" and row["field"] == FORM_MATCH_FIELD:
            row["old"], row["new"] = self._match_label_json(row["old"]), self._match_label_json(row["new"])
        return row

    def _match_label(self, value):
        numbers = self.numbers.get("matches", {})
        if isinstance(value, int) and not isinstance(value, bool) and value in numbers:
            return numbers[value]
        if isinstance(value, str) and value.isdigit() and int(value) in numbers:
            return str(numbers[int(value)])
        return value

    def _match_label_json(self, text):
        try:
            return json.dumps(self._match_label(json.loads(text)), ensure_ascii=False) if text else text
        except ValueError:
            return text      # an unreadable stored value is copied as it is

    def _form_fields(self, text):
        try:
            fields = json.loads(text)
        except ValueError:
            return text
        if not isinstance(fields, dict) or FORM_MATCH_FIELD not in fields:
            return text
        return json.dumps({**fields, FORM_MATCH_FIELD: self._match_label(fields[FORM_MATCH_FIELD])}, ensure_ascii=False)

    def _write(self, table: sa.Table, rows: list[dict]) -> None:
        if self.renumber and _renumbered(table):
            numbers = self.numbers.setdefault(table.name, {})
            for row in rows:   # one by one: a row may point at one copied just before (inspections)
                values = {k: v for k, v in self._mapped(table, row).items() if k != "id"}
                numbers[row["id"]] = self.target.execute(table.insert().values(**values).returning(table.c.id)).scalar_one()
        elif rows:
            self.target.execute(table.insert(), [self._mapped(table, r) for r in rows])
        self.report[table.name]["copied"] = len(rows)

    def _reset_sequences(self) -> None:
        """PostgreSQL numbers new rows from a sequence that rows written with their numbers leave
        behind: it must go on after the highest number now in the table."""
        for name in schema.TABLES:
            table = schema.metadata.tables[name]
            if _renumbered(table):
                self.target.execute(sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), COALESCE(MAX(id), 0) + 1, false) "
                    f"FROM {name}"))


def copy_records(source, target, renumber: bool = False) -> dict:
    """Copies every record of `source` into `target` (both `Database`s) in one transaction on the
    target; returns, per table, how many rows were copied and how many were there already."""
    if source.where == target.where:
        raise BadInput("to", "the source and the target are the same database")
    with source.read() as src, target.begin() as dst:
        return Copy(src, dst, renumber).run()
