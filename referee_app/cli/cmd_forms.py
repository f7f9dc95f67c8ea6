"""`forms`: protest and disqualification forms in the records database, and the incidents behind them.

    forms new protest|disqualification [--draft] [--json] FILE   record a form (filed unless --draft)
    forms list [--tournament T] [--status S] [--kind K] [--json]
    forms show ID [--json]                   every field, the deadline and the history
    forms set ID FIELD VALUE [--json]        change one field (VALUE is YAML; '' clears it)
    forms file ID [--json]                   a draft handed in
    forms decide ID upheld|rejected [--director NAME] [--json]
    forms delete ID  (or: withdraw ID)       only a draft; an announced protest never
    forms export ID --pdf OUT [--lang L]
    forms blank protest|disqualification --pdf OUT [--lang L] [--ruleset R]
    forms incident [--json] FILE             record an incident (e.g. a disturbance)
    forms incidents [--tournament T] [--round R] [--table N] [--player P] [--json]
"""
from __future__ import annotations

from referee_app.core import validation
from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .io import knowledge_of, print_json, print_rows, read_document
from .parsers import ID, JSON, arg, command

KINDS = ("protest", "disqualification")
PDF = arg("--pdf", required=True, metavar="OUT")


def add_parsers(sub) -> None:
    forms = sub.add_parser("forms", help="protest and disqualification forms")
    fsub = forms.add_subparsers(dest="forms_command", metavar="ACTION", parser_class=type(forms))
    forms.set_defaults(func=_no_action)

    command(fsub, "new", run_new, "record a form from a YAML or JSON file ('-' = standard input)",
            arg("kind", choices=KINDS), arg("file"),
            arg("--draft", action="store_true", help="keep it as a draft (incomplete fields allowed)"), JSON)
    command(fsub, "list", run_list, "the forms, filtered by tournament, status or kind",
            arg("--tournament"), arg("--status", choices=("draft", "filed", "decided")), arg("--kind", choices=KINDS),
            JSON)
    command(fsub, "show", run_show, "one form: every field, the deadline and the history", ID, JSON)
    command(fsub, "set", run_set, "change one field (e.g. board_ended_at when the board ends)",
            ID, arg("field"), arg("value", help="a YAML value; '' clears the field"), JSON)
    command(fsub, "file", run_file, "a draft handed in: checks it is complete", ID, JSON)
    command(fsub, "decide", run_decide, "the tournament director's decision",
            ID, arg("outcome", choices=("upheld", "rejected")), arg("--director", help="who decided"), JSON)
    command(fsub, "delete", run_delete, "remove a draft (an announced protest never)", ID, aliases=["withdraw"])
    command(fsub, "export", run_export, "the form as PDF", ID, PDF,
            arg("--lang", choices=LANGUAGES, help="default: the form's language, else the interface's"))
    command(fsub, "blank", run_blank, "a blank form to fill in by hand, as PDF",
            arg("kind", choices=KINDS), PDF, arg("--lang", choices=LANGUAGES),
            arg("--ruleset", help="whose deadline and grounds it prints"))
    command(fsub, "incident", run_incident, "record an incident of a match from a YAML or JSON file",
            arg("file"), JSON)
    command(fsub, "incidents", run_incidents, "the recorded incidents",
            arg("--tournament"), arg("--round"), arg("--table"), arg("--player"), JSON)


def _no_action(args) -> int:
    raise BadInput("forms", "which action? new, list, show, set, file, decide, delete, export, blank, "
                            "incident, incidents")


def _store(args):
    from referee_app.core.forms.store import FormsStore

    return FormsStore(knowledge_of(args))


def _rules(form) -> dict:
    """What the form's ruleset says, for the answers of new/show (with the borrowed-rules notes)."""
    from referee_app.core.forms.fields import disqualification_rules, protest_rules

    if form.kind == "protest":
        rules = protest_rules(form.knowledge, form.fields)
        return {"deadline_minutes": rules.deadline_minutes, "deadline_clause": rules.deadline_clause,
                "clauses": rules.steps, "notes": list(rules.notes)}
    rules = disqualification_rules(form.knowledge, form.fields)
    ground = rules.ground(form.fields.get("ground") or "")
    out = {"consequence": rules.consequence, "grounds": [g.clause for g in rules.grounds], "notes": list(rules.notes)}
    if ground and ground.count:
        out["count"] = {"incident": ground.count.incident, "more_than": ground.count.more_than}
    return out


def _answer(form) -> dict:
    return {**form.summary(), "rules": _rules(form)}


def _print(form, as_json: bool) -> None:
    if as_json:
        print_json(_answer(form))
        return
    s = form.summary()
    line = f"{form.kind} {form.id}: {form.status}" + (f" ({form.outcome})" if form.outcome else "")
    if s["deadline"]:
        line += f", written report due by {s['deadline']}" + (" (LATE)" if s["late"] else "")
    print(line)


def run_new(args) -> int:
    doc = read_document(args.file)
    store = _store(args)
    form = store.create(args.kind, doc, file=not args.draft)
    _print(form, args.json)
    return 0


def run_list(args) -> int:
    print_rows(_store(args).list(args.tournament, args.status, args.kind), args.json, _list_line,
               doc=lambda f: f.summary())
    return 0


def _list_line(form) -> str:
    s = form.summary()
    late = " LATE" if s["late"] else ""
    return (f"{form.id:5}  {form.kind:16} {form.status:8}{late:5} {s['tournament'] or '':24} "
            f"r{s['round'] or '?'} t{s['table'] or '?'}  {s['subject']}")


def _show_record(store, form) -> dict:
    timing = form.timing()
    return {"id": form.id, "kind": form.kind, "status": form.status, "outcome": form.outcome,
            "decided_at": form.decided_at, "created_at": form.created_at, "updated_at": form.updated_at,
            **form.fields, "ruleset": form.ruleset, **timing, "rules": _rules(form),
            "incidents": store.counted_incidents(form.kind, form.fields), "history": store.history(form.id),
            **({"unreadable": dict(form.unreadable)} if form.unreadable else {})}


def run_show(args) -> int:
    from referee_app.core.storage import db

    store = _store(args)
    record = _show_record(store, store.get(args.id))
    if args.json:
        print_json(record)
        return 0
    for key, value in record.items():
        if key in ("history", "rules", "incidents", "unreadable") or value is None:
            continue
        print(f"{key:16} {value}")
    for key in record.get("unreadable", {}):
        print(f"{key:16} {db.UNREADABLE}")
    print("history:")
    for h in record["history"]:
        print(f"  {h['at']}  {h['field']}: {h['old']!r} -> {h['new']!r}")
    return 0


def run_set(args) -> int:
    from referee_app.core.forms.fields import spec
    from referee_app.core.knowledge.yamlio import load_text

    store = _store(args)
    kind = store.get(args.id).kind
    field = spec(kind, args.field)
    if not args.value.strip():
        value = None
    elif field.type in ("text", "clause", "ruleset"):
        value = args.value          # as typed: YAML would read "no" as false and "1.10" as a number
    else:
        value = validation.document(load_text(validation.text(args.value, field.name), field.name, untrusted=True),
                                    field.name)
    form = store.set_field(args.id, args.field, value)
    _print(form, args.json)
    return 0


def run_file(args) -> int:
    form = _store(args).file(args.id)
    _print(form, args.json)
    return 0


def run_decide(args) -> int:
    form = _store(args).decide(args.id, args.outcome, args.director)
    _print(form, args.json)
    return 0


def run_delete(args) -> int:
    _store(args).delete(args.id)
    print(f"form {args.id} deleted")
    return 0


def run_export(args) -> int:
    from referee_app.core.forms.document import form_document
    from referee_app.printing.pdf import write_pdf

    store = _store(args)
    html, title = form_document(store, store.get(args.id), args.lang)
    print(write_pdf(html, args.pdf, title))
    return 0


def run_blank(args) -> int:
    from referee_app.core.forms.document import blank_document
    from referee_app.printing.pdf import write_pdf

    knowledge = knowledge_of(args)
    if args.ruleset:
        knowledge.ruleset(args.ruleset, "--ruleset")
    html, title = blank_document(knowledge, args.kind, args.lang, args.ruleset)
    print(write_pdf(html, args.pdf, title))
    return 0


def run_incident(args) -> int:
    incident = _store(args).record_incident(read_document(args.file))
    if args.json:
        print_json(incident)
    else:
        print(f"incident {incident['id']} recorded")
    return 0


def run_incidents(args) -> int:
    from referee_app.core.forms.fields import normalize

    # the same normalisation as the stored rows, so that --round 3 finds round "3"
    store = _store(args)
    rnd = normalize(store.knowledge, "disqualification", "round", args.round)
    table = normalize(store.knowledge, "disqualification", "table", args.table)
    print_rows(store.incidents(args.tournament, rnd, table, args.player), args.json,
               lambda i: f"{i['id']:5}  {i['at']}  {i['tournament']} r{i['round']} t{i['table']}  {i['player']}: "
                         f"{i['kind']}" + (f" – {i['note']}" if i["note"] else ""))
    return 0
