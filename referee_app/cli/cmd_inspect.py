"""`inspect`: the verdict on one piece of equipment, and with `--save` its record.

    carrom-referee inspect [--json] FILE
    carrom-referee inspect --save --inspector NAME --label "board 7" [--tournament T]
                           [--notes TEXT] [--photo PATH] [--reinspect ID] FILE

The records themselves (list, show, approved strikers, certificates) are `inspections`
(cmd_inspect_records.py).
"""
from __future__ import annotations

import sys

from referee_app.core.errors import BadInput
from .io import knowledge_of, print_json, read_document


def add_parsers(sub) -> None:
    p = sub.add_parser("inspect", help="check a piece of equipment against the rules' limits")
    p.add_argument("file", metavar="FILE", help="the readings, YAML or JSON; - for standard input")
    p.add_argument("--json", action="store_true", help="one JSON document in the contract's format")
    p.add_argument("--save", action="store_true", help="also record the inspection in the records database")
    p.add_argument("--inspector", help="who measured (required with --save, unless the file says)")
    p.add_argument("--label", help='which item: "striker of A. Rossi", "board 7" (required with --save, unless the file says)')
    p.add_argument("--tournament", help="the tournament the item is approved for")
    p.add_argument("--notes", help="free notes for the record")
    p.add_argument("--photo", help="path of a photo of the item")
    p.add_argument("--reinspect", type=int, metavar="ID", help="this is a re-inspection of record ID")
    p.set_defaults(func=run_inspect)


def _record_options(args, document) -> dict:
    out = {}
    for name in ("inspector", "label", "tournament", "notes", "photo"):
        value = getattr(args, name)
        out[name] = value if value is not None else (document.get(name) if isinstance(document, dict) else None)
    out["previous_id"] = args.reinspect
    return out


def run_inspect(args) -> int:
    from referee_app.core.inspection.verdict import inspect

    document = read_document(args.file)
    specs = knowledge_of(args).equipment
    saved = None
    if args.save:
        from referee_app.core.inspection.store import InspectionStore

        with InspectionStore() as store:
            saved = store.save(document, specs, **_record_options(args, document))
        answer = saved.result
    else:
        if args.reinspect is not None:
            raise BadInput("--reinspect", "only meaningful with --save")
        answer = inspect(document, specs)
    if saved is not None:
        answer = dict(answer, record={"id": saved.id, "previous_id": saved.previous_id,
                                      "inspected_at": saved.inspected_at})
    if args.json:
        print_json(answer)
    else:
        print_verdict(answer)
    return 0


def _bounds(check) -> str:
    unit = f" {check['unit']}" if check.get("unit") else ""
    lo, hi = check.get("min"), check.get("max")
    if lo is not None and hi is not None:
        return f"{lo:g}-{hi:g}{unit}" if lo != hi else f"{lo:g}{unit}"
    if hi is not None:
        return f"max {hi:g}{unit}"
    if lo is not None:
        return f"min {lo:g}{unit}"
    if "expected" in check and check["expected"] is not None:
        return "must be " + ("yes" if check["expected"] else "no")
    return ""


def print_verdict(answer, out=sys.stdout) -> None:
    """The answer for a person at a terminal: one line per check, marked, then what is missing."""
    verdict = "COMPLIANT" if answer["compliant"] else "NOT COMPLIANT"
    out.write(f"{answer['item']}: {verdict}\n")
    for check in answer["checks"]:
        mark = "ok  " if check["ok"] else "FAIL"
        out.write(f"  {mark} {check['id']:<34} {check.get('message', '')}"
                  f"  [{_bounds(check)}; {', '.join(check.get('clauses', []))}]\n")
        for notice in check.get("notices", []):
            out.write(f"         note: {notice}\n")
    for remark in answer.get("remarks", []):
        out.write(f"  - {remark}\n")
    if answer.get("approval"):
        out.write(f"  Approval: {answer['approval']['note']['en']}\n")
    if answer.get("record"):
        out.write(f"Saved as inspection {answer['record']['id']}.\n")
