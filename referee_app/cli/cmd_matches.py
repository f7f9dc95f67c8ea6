"""`matches`: score sheets saved stroke by stroke in the records database.

On a shared server (PostgreSQL) the table machine keeps an outbox (core/play/outbox.py): every
stroke carries a client-made id; a sheet this machine holds goes on taking strokes while the
server is out of reach (kept here, each ruling marked `kept_offline`), and the waiting strokes
are sent, in order, by the next command that reaches the server, or by `db sync`.
"""
from __future__ import annotations

import json
import sys

from referee_app.core import validation
from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .io import knowledge_of, print_json, print_rows, read_document
from .parsers import JSON, arg, command

# what a match's header holds, as options of `matches new`
META = ("first-name", "second-name", "tournament", "round", "table-no", "referee")


def add_parsers(sub) -> None:
    p = sub.add_parser("matches", help="score sheets: new, play, undo, list, show, export")
    msub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    command(msub, "new", run_new, "start a match; prints its id",
            arg("--ruleset", help="default: the knowledge base's default_ruleset"), arg("--doubles", action="store_true"),
            *(arg(f"--{name}", default="") for name in META),
            arg("--pairing", nargs=3, metavar=("TOURNAMENT_ID", "ROUND", "TABLE"),
                help="the score sheet of that paired game (players, round and table from the pairing; "
                     "ROUND may be final); asking again answers the same sheet"), JSON)
    match = arg("id", type=int)
    command(msub, "play", run_play, "record strokes (a stroke, or a list of strokes, in FILE)", match, arg("file"), JSON)
    command(msub, "undo", run_undo, "take back the last stroke (kept in the history)", match, JSON)
    command(msub, "list", run_list, "every saved match", JSON)
    command(msub, "show", run_show, "show one match", match, JSON)
    command(msub, "export", run_export, "export one match", match, JSON,
            arg("--out", help="write the export to this file instead of standard output"),
            arg("--pdf", metavar="OUT", help="write the full score sheet as a PDF to OUT"),
            arg("--lang", choices=LANGUAGES, help="the PDF's language (default: English)"))


def _store(args):
    from referee_app.core.play.store import MatchStore

    store = MatchStore(knowledge_of(args))
    _send_waiting(store)
    return store


def _outbox(store):
    """This machine's outbox when the records are a shared server; None for a local file."""
    if store.dialect != "postgresql":
        return None
    from referee_app.core.play.outbox import Outbox

    return Outbox()


def _send_waiting(store) -> None:
    """The strokes kept on this machine go first, whenever a command reaches the server."""
    outbox = _outbox(store)
    if outbox is None:
        return
    with outbox:
        server = store.database.shown
        if not outbox.count(server):
            return
        report = outbox.sync(store)
        if report.sent or report.refused:
            print(f"carrom-referee: {report.sent} kept strokes sent to the server"
                  + (f", {len(report.refused)} refused (`carrom-referee db sync` lists them)" if report.refused else ""),
                  file=sys.stderr)
        if report.unavailable is not None:   # nothing may change a sheet there before they are in
            from referee_app.core.storage.errors import StoreUnavailable

            raise StoreUnavailable(server, report.unavailable)


def _hold(store, match_id: int) -> None:
    """This machine holds the sheet: it may keep strokes for it while the server is away."""
    outbox = _outbox(store)
    if outbox is not None:
        with outbox:
            outbox.refresh(store, match_id)


def run_new(args) -> int:
    store = _store(args)
    if args.pairing:
        from referee_app.core.tournament.store import TournamentStore
        from referee_app.core.tournament.table_matches import open_match

        given = [name for name in (*META, "ruleset", "doubles") if getattr(args, name.replace("-", "_"))]
        if given:
            raise BadInput(f"--{given[0]}", "comes from the pairing: give --pairing alone")
        tid, round_no, table = args.pairing
        match_id = open_match(TournamentStore(store.knowledge, store.database), store,
                              validation.record_id(tid, "--pairing TOURNAMENT_ID", "tournament"), round_no,
                              validation.whole_number(table, "--pairing TABLE", 1))
    else:
        meta = {k: getattr(args, k) for k in (name.replace("-", "_") for name in META)}
        match_id = store.create(args.ruleset, args.doubles, **{k: v for k, v in meta.items() if v})
    _hold(store, match_id)
    print_json({"id": match_id}) if args.json else print(match_id)
    return 0


def run_play(args) -> int:
    from referee_app.core.play.outbox import new_id
    from referee_app.core.play.store import MatchStore
    from referee_app.core.storage.database import Database, database_url, shown
    from referee_app.core.storage.errors import StoreUnavailable

    doc = read_document(args.file)
    strokes = doc if isinstance(doc, list) else [doc]
    knowledge = knowledge_of(args)
    url = database_url()
    shared = url.startswith("postgresql")
    ids = [new_id() for _ in strokes] if shared else None   # made before the first try: sent again, stored once
    try:
        store = MatchStore(knowledge, Database(url))
        _send_waiting(store)
        # all or nothing: a refused stroke saves none of the list, so that sending it again once
        # mended never saves its first strokes twice
        rulings = store.add_strokes(args.id, strokes, args.file, client_ids=ids)
        if shared:
            _hold(store, args.id)
    except StoreUnavailable as lost:
        if not shared:
            raise
        from referee_app.core.play.outbox import Outbox

        with Outbox() as outbox:
            server = shown(url)
            if outbox.held(server, args.id) is None:
                raise
            rulings = outbox.keep(knowledge, server, args.id, strokes, ids)
            waiting = outbox.count(server)
        print(f"carrom-referee: the server cannot be reached ({validation.one_line(lost.problem, 160)}): "
              f"{len(strokes)} stroke(s) kept on this machine, {waiting} waiting; they are sent by the next "
              "command that reaches the server, or by `carrom-referee db sync`", file=sys.stderr)
    if args.json:
        print_json(rulings)
    else:
        for r in rulings:
            print(r["explanation"]["en"])
    return 0


def run_undo(args) -> int:
    store = _store(args)   # the strokes kept here are sent first: the undo takes back the last one
    removed = store.undo(args.id)
    _hold(store, args.id)
    print_json({"undone": removed}) if args.json else print(f"undone: {json.dumps(removed)}")
    return 0


def run_list(args) -> int:
    print_rows(_store(args).list(), args.json,
               lambda m: f"{m['id']:4}  {m['created_at']}  {m['ruleset']:13} {m['first_name']} – {m['second_name']}"
                         f"  ({m['strokes']} strokes)")
    return 0


def run_show(args) -> int:
    store = _store(args)
    report = {"meta": store.meta(args.id), **store.load(args.id).report()}
    pairing = store.pairing(args.id)
    if pairing is not None:
        report["pairing"] = pairing
    _hold(store, args.id)
    print_json(report) if args.json else print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0


def run_export(args) -> int:
    if args.pdf is not None:
        return _export_pdf(args)
    data = _store(args).export(args.id)
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.out is not None:
        from referee_app.core.storage import files

        files.write_text(args.out, text + "\n", "--out")
    else:
        print(text)
    return 0


def _export_pdf(args) -> int:
    """The score sheet the window prints: header, strokes with rulings and clauses, boards, result,
    signatures (core/play/sheet_document.py), through Qt's PDF writer."""
    from referee_app.core.play.sheet_document import sheet_html
    from referee_app.printing.pdf import write_pdf

    store = _store(args)
    meta = dict(store.meta(args.id), corrected=store.corrected(args.id))   # marked on the sheet
    document, title = sheet_html(store.knowledge, meta, store.strokes(args.id), args.lang or "en", store.events(args.id))
    path = write_pdf(document, args.pdf, title)
    print_json({"id": args.id, "pdf": str(path)}) if args.json else print(path)
    return 0
