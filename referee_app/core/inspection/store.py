"""Inspection records in the records database: who measured what, when, and the verdict.

A record is written once and never changed: the verdict is the one `inspect()` gave at the
time, under the specification stamp stored beside it, and the database refuses to update or
delete a record (triggers below), so a striker's approval cannot be quietly rewritten. A
correction is a re-inspection: a new record linked to the previous one, which carries over the
checks that failed there and says, for each, whether it passes now.
"""
from __future__ import annotations

import builtins  # `list` is also a method of the store: annotations after it name the type
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee_app.core.storage import db
from referee_app.core.errors import BadInput
from .verdict import RECORD_FIELDS, inspect

if TYPE_CHECKING:
    from .model import Specs

now = db.local_now


@dataclass
class InspectionRecord:
    id: int
    inspected_at: str
    inspector: str
    item: str
    label: str
    tournament: str
    readings: dict
    result: dict
    compliant: bool
    notes: str = ""
    photo: str = ""
    previous_id: int | None = None
    carried_over: list = field(default_factory=list)
    spec: str = ""
    version: int = 1

    @classmethod
    def from_row(cls, row) -> "InspectionRecord":
        """The record as stored; a part that cannot be read (a damaged page, a hand edit) is shown as
        such, and the record still lists with the verdict stored beside it."""
        compliant = bool(row["compliant"])
        readings, _ = db.stored_json(row["readings"], {})
        result, problem = db.stored_json(row["result"], None)
        if not isinstance(result, dict) or not isinstance(result.get("checks", []), list):
            result = {"item": str(row["item"]), "compliant": compliant, "checks": [],
                      "remarks": [db.UNREADABLE + (f": {problem}" if problem else "")]}
        result["checks"] = [c for c in result.get("checks", []) if isinstance(c, dict) and "id" in c]
        carried, _ = db.stored_json(row["carried_over"], [])
        return cls(row["id"], str(row["inspected_at"]), str(row["inspector"]), str(row["item"]), str(row["label"]),
                   str(row["tournament"]), readings if isinstance(readings, dict) else {}, result, compliant,
                   str(row["notes"]), str(row["photo"]), row["previous_id"],
                   carried if isinstance(carried, list) else [], str(row["spec"]), row["version"])

    @property
    def failed(self) -> list[str]:
        """Ids of the checks that failed (missing readings included)."""
        return [c["id"] for c in self.result.get("checks", []) if not c.get("ok")]

    def summary(self) -> dict:
        """The short form of `inspections list`."""
        return {"id": self.id, "inspected_at": self.inspected_at, "inspector": self.inspector, "item": self.item,
                "label": self.label, "tournament": self.tournament, "compliant": self.compliant,
                "failed": self.failed, "previous_id": self.previous_id}

    def to_dict(self) -> dict:
        return dict(self.summary(), readings=self.readings, result=self.result, notes=self.notes,
                    photo=self.photo, carried_over=self.carried_over, spec=self.spec)


def _text(document: dict, name: str, value, required: bool = False) -> str:
    value = value if value is not None else document.get(name)
    text = "" if value is None else str(value).strip()
    if required and not text:
        raise BadInput(name, f"required to save an inspection ({'who measured' if name == 'inspector' else 'which item it is'})")
    return text


def _measurement_name(check_id: str) -> str:
    return check_id.split(".", 1)[1] if "." in check_id else check_id


class InspectionStore(db.Store):
    """The inspection records of one records database."""

    # -- reading --------------------------------------------------------------------------------
    def get(self, record_id) -> InspectionRecord:
        return InspectionRecord.from_row(self.row("inspections", record_id, "inspection"))

    def list(self, item: str | None = None, label: str | None = None,
             tournament: str | None = None) -> list[InspectionRecord]:
        where, args = [], {}
        for column, value in (("item", item), ("label", label), ("tournament", tournament)):
            if value is not None:
                where.append(self.same_text(column, column))
                args[column] = value.strip()
        sql = "SELECT * FROM inspections" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [InspectionRecord.from_row(r) for r in self.all(sql, args)]

    def chain(self, record_id) -> builtins.list[InspectionRecord]:
        """The record and the inspections it re-inspects, oldest first."""
        out = [self.get(record_id)]
        while out[0].previous_id is not None:
            out.insert(0, self.get(out[0].previous_id))
        return out

    def approved_strikers(self, tournament: str | None = None) -> builtins.list[InspectionRecord]:
        """Each striker whose latest inspection (for the tournament, if given) is compliant.

        Only the latest counts: a striker approved in the morning and failed at a re-check after
        a board (icf-fr 4.e) is not approved any more."""
        if self.dialect == "sqlite":
            same = "j.label = i.label COLLATE NOCASE AND j.tournament = i.tournament COLLATE NOCASE"
            order = "label COLLATE NOCASE, tournament"
        else:
            same = "lower(j.label) = lower(i.label) AND lower(j.tournament) = lower(i.tournament)"
            order = "lower(label), tournament"
        sql = ("SELECT * FROM inspections AS i WHERE item = 'striker' AND id = (SELECT MAX(id) FROM inspections AS j "
               f"WHERE j.item = i.item AND {same})")
        args: dict = {}
        if tournament is not None:
            sql += " AND " + self.same_text("tournament", "tournament")
            args["tournament"] = tournament.strip()
        rows = self.all(f"{sql} ORDER BY {order}", args)
        return [r for r in map(InspectionRecord.from_row, rows) if r.compliant]

    # -- writing --------------------------------------------------------------------------------
    def save(self, document, specs: Specs, *, inspector: str | None = None, label: str | None = None, tournament: str | None = None,
             notes: str | None = None, photo: str | None = None, previous_id: int | None = None) -> InspectionRecord:
        """Judges `document` with inspect() against `specs` (the knowledge root's `equipment`)
        and records it; the arguments win over the document's
        own `inspector`, `label`, ... fields. Bad readings are refused before anything is written."""
        result = inspect(document, specs)  # raises BadInput for anything it cannot judge
        if result["status"] in ("not_measured", "incomplete"):
            # what was not measured is not a failure: an incomplete inspection is not recorded at all
            raise BadInput("measurements", f"{result['status'].replace('_', ' ')}: not measured yet: "
                                           f"{', '.join(result['missing'])}", "not_measured",
                           {"missing": list(result["missing"])})
        if previous_id is None and document.get("previous") is not None:
            previous_id = document.get("previous")
        previous = None
        if previous_id is not None:
            previous = self.get(previous_id)
            if previous.item != result["item"]:
                raise BadInput("previous", f"inspection {previous.id} is of a {previous.item}, not of a {result['item']}",
                               "other_item", {"number": previous.id})
        inspector = _text(document, "inspector", inspector, required=True)
        label = _text(document, "label", label if label is not None else (previous.label if previous else None),
                      required=True)
        tournament = _text(document, "tournament",
                           tournament if tournament is not None else (previous.tournament if previous else None))
        carried = previous.failed if previous else []
        if previous is not None:
            result = dict(result, reinspection=self._compare(previous, result))
        readings = {k: v for k, v in document.items() if k not in RECORD_FIELDS}
        at = self.clock().isoformat()
        new_id = self.write(
            "INSERT INTO inspections (inspected_at, inspector, item, label, tournament, readings, result, compliant, "
            "notes, photo, previous_id, carried_over, spec) VALUES (:at, :inspector, :item, :label, :tournament, "
            ":readings, :result, :compliant, :notes, :photo, :previous_id, :carried_over, :spec) RETURNING id",
            {"at": at, "inspector": inspector, "item": result["item"], "label": label, "tournament": tournament,
             "readings": json.dumps(readings, ensure_ascii=False, default=str),
             "result": json.dumps(result, ensure_ascii=False), "compliant": int(result["compliant"]),
             "notes": _text(document, "notes", notes), "photo": _text(document, "photo", photo),
             "previous_id": previous.id if previous else None, "carried_over": json.dumps(carried),
             "spec": result.get("spec", "")})
        return self.get(new_id)

    @staticmethod
    def _compare(previous: InspectionRecord, result: dict) -> dict:
        """For each check that failed last time: its value then and now, and whether it passes now."""
        now_by_id = {c["id"]: c for c in result.get("checks", [])}
        before_by_id = {c["id"]: c for c in previous.result.get("checks", [])}
        items = []
        for cid in previous.failed:
            before, after = before_by_id[cid], now_by_id.get(cid)
            items.append({"id": cid, "before": {"value": before.get("value"), "ok": False,
                                                "missing": bool(before.get("missing"))},
                          "now": None if after is None else {"value": after.get("value"), "ok": after["ok"],
                                                             "missing": bool(after.get("missing"))},
                          "resolved": bool(after and after["ok"])})
        return {"previous_id": previous.id, "carried_over": items,
                "resolved": sum(1 for i in items if i["resolved"]), "outstanding": sum(1 for i in items if not i["resolved"])}

    def reinspection_draft(self, record_id) -> dict:
        """A document to re-inspect record `record_id`: its readings that passed, kept; those that
        failed, removed so that they must be measured again (`to_remeasure` names them)."""
        previous = self.get(record_id)
        failed = {_measurement_name(cid) for cid in previous.failed}
        draft = json.loads(json.dumps(previous.readings))
        if "coins" in draft and isinstance(draft["coins"], list):
            per_coin = previous.result.get("coins", [])
            for coin, verdict in zip(draft["coins"], per_coin):
                bad = {_measurement_name(c["id"]) for c in verdict.get("checks", []) if not c.get("ok")}
                target = coin.get("measurements", coin) if isinstance(coin, dict) else {}
                for name in bad:
                    target.pop(name, None)
            to_remeasure = sorted(f"coins[{v['index']}].{_measurement_name(c['id'])}" for v in per_coin
                                  for c in v.get("checks", []) if not c.get("ok"))
        else:
            measurements = draft.get("measurements") or {}
            to_remeasure = sorted(n for n in failed if n in measurements or n in previous.result.get("missing", []))
            for name in failed:
                measurements.pop(name, None)
        draft.update(previous=previous.id, label=previous.label, tournament=previous.tournament)
        return {"document": draft, "previous_id": previous.id, "carried_over": previous.failed,
                "to_remeasure": to_remeasure, "notes": previous.notes, "photo": previous.photo}

    def tournaments(self) -> builtins.list[str]:
        rows = self.all("SELECT DISTINCT tournament FROM inspections WHERE tournament <> '' ORDER BY 1")
        return [r["tournament"] for r in rows]
