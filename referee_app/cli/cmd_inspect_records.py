"""`inspections`: the saved inspection records.

    carrom-referee inspections list [--item K] [--label L] [--tournament T] [--json]
    carrom-referee inspections show ID [--json]
    carrom-referee inspections reinspect ID [--json]      the draft of a re-inspection
    carrom-referee inspections approved-strikers [--tournament T] [--json]
    carrom-referee inspections certificate ID --pdf OUT [--lang fr|it|en]
"""
from __future__ import annotations

import sys

from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .cmd_inspect import print_verdict
from .io import knowledge_of, print_json, print_rows
from .parsers import ID, JSON, arg, command


def add_parsers(sub) -> None:
    p = sub.add_parser("inspections", help="saved equipment inspections: list, show, certificates")
    records = p.add_subparsers(dest="inspections_command", metavar="ACTION")
    p.set_defaults(func=lambda args: (_ for _ in ()).throw(BadInput("inspections", "name an action: list, show, "
                                                                      "reinspect, approved-strikers, certificate")))

    command(records, "list", run_list, "every inspection, oldest first",
            arg("--item", help="only this kind of item (striker, board, ...)"), arg("--label", help="only this item"),
            arg("--tournament"), JSON)
    command(records, "show", run_show, "one inspection with its readings and verdicts", ID, JSON)
    command(records, "reinspect", run_reinspect, "the document to re-inspect an item: failed readings cleared",
            ID, JSON)
    command(records, "approved-strikers", run_approved, "strikers whose latest inspection is compliant",
            arg("--tournament"), JSON)
    command(records, "certificate", run_certificate, "write an inspection's certificate as PDF",
            ID, arg("--pdf", required=True, metavar="OUT", help="the PDF file to write"),
            arg("--lang", choices=LANGUAGES, default="en", help="the certificate's language"))


def _store():
    from referee_app.core.inspection.store import InspectionStore

    return InspectionStore()


def _line(r) -> str:
    verdict = "compliant" if r.compliant else "NOT compliant: " + ", ".join(r.failed)
    again = f" (re-inspects {r.previous_id})" if r.previous_id else ""
    where = f" [{r.tournament}]" if r.tournament else ""
    return f"{r.id:>5}  {r.inspected_at}  {r.item:<9} {r.label}{where} by {r.inspector}: {verdict}{again}"


def run_list(args) -> int:
    with _store() as store:
        records = store.list(item=args.item, label=args.label, tournament=args.tournament)
    print_rows(records, args.json, _line, doc=lambda r: r.summary(), empty="no inspections recorded")
    return 0


def run_show(args) -> int:
    with _store() as store:
        record = store.get(args.id)
    if args.json:
        print_json(record.to_dict())
    else:
        print(_line(record))
        print_verdict(record.result)
        for label, value in (("notes", record.notes), ("photo", record.photo)):
            if value:
                print(f"  {label}: {value}")
    return 0


def run_reinspect(args) -> int:
    with _store() as store:
        draft = store.reinspection_draft(args.id)
    if args.json:
        print_json(draft)
    else:
        import yaml

        sys.stdout.write(f"# re-inspection of {draft['previous_id']}; measure again: "
                         f"{', '.join(draft['to_remeasure']) or 'nothing failed'}\n")
        sys.stdout.write(yaml.safe_dump(draft["document"], allow_unicode=True, sort_keys=False))
    return 0


def run_approved(args) -> int:
    with _store() as store:
        records = store.approved_strikers(args.tournament)
    print_rows(records, args.json, _line, doc=lambda r: dict(r.summary(), readings=r.readings.get("measurements", {})),
               empty="no approved striker")
    return 0


def run_certificate(args) -> int:
    from referee_app.core.inspection.certificate import certificate_html, certificate_title
    from referee_app.printing.pdf import write_pdf

    with _store() as store:
        record = store.get(args.id)
    knowledge = knowledge_of(args)
    html = certificate_html(record, args.lang, knowledge.equipment, knowledge.kb)
    path = write_pdf(html, args.pdf, title=certificate_title(record, args.lang))
    print(path)
    return 0
