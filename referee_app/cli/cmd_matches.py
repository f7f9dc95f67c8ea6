"""`matches`: score sheets saved stroke by stroke in the records database."""
from __future__ import annotations

import json

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
            *(arg(f"--{name}", default="") for name in META), JSON)
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

    return MatchStore(knowledge_of(args))


def run_new(args) -> int:
    meta = {k: getattr(args, k) for k in (name.replace("-", "_") for name in META)}
    match_id = _store(args).create(args.ruleset, args.doubles, **{k: v for k, v in meta.items() if v})
    print_json({"id": match_id}) if args.json else print(match_id)
    return 0


def run_play(args) -> int:
    doc = read_document(args.file)
    strokes = doc if isinstance(doc, list) else [doc]
    # all or nothing: a refused stroke saves none of the list, so that sending it again once
    # mended never saves its first strokes twice
    rulings = _store(args).add_strokes(args.id, strokes, args.file)
    if args.json:
        print_json(rulings)
    else:
        for r in rulings:
            print(r["explanation"]["en"])
    return 0


def run_undo(args) -> int:
    removed = _store(args).undo(args.id)
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
