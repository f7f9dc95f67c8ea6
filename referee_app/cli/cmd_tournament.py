"""`tournament`: a Swiss tournament the FFC's way (ffc-tournament), as the contract fixes it.

`standings`, `pair` and `check` read a tournament FILE (or a stored tournament with `--id`);
`generate` writes a random one; `new`, `enter`, `check-in`, `withdraw`, `add-result`, `choose`,
`absent`, `list`, `show`, `import` (SoL's files), `export` and `print` (a round's pairings and
score sheets as PDF, as the window's desk prints them) work on the tournaments of the records
database.
"""
from __future__ import annotations

import sys

from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .io import knowledge_of, print_json, print_rows, read_document
from .parsers import ID, JSON, arg, command

EXPORT_FORMATS = ("text", "standings.csv", "results.csv", "yaml", "json", "sol")


def add_parsers(sub) -> None:
    p = sub.add_parser("tournament", help="Swiss tournaments the FFC's way: standings, pairings, results")
    tsub = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    def file_or_id(name, help_text, fn, *more):
        return command(tsub, name, fn, help_text,
                       arg("file", nargs="?", help="a tournament file (YAML or JSON, - for standard input)"),
                       arg("--id", help="a stored tournament instead of a file"), JSON, *more)

    file_or_id("standings", "the standings, first place first", run_standings)
    file_or_id("pair", "the next round (or the final); with --id it is saved", run_pair,
               arg("--seed", type=int, help="the seed of the round 1 draw, to make it again"),
               arg("--again", metavar="ROUND", help="with --id: pair this round (the last paired, none of its games "
                                                     "begun) again, setting the first pairing aside; needs --reason"),
               arg("--reason", help="why the round is paired again (kept in the journal)"))
    file_or_id("check", "every round paired again and compared", run_check)

    command(tsub, "generate", run_generate, "a random tournament with results, for tests",
            arg("--players", type=int, required=True), arg("--seed", type=int, required=True),
            arg("--rounds", type=int, help="rounds played (default: all)"),
            arg("--final", action="store_true", help="also play the final"),
            arg("--json", action="store_true", help="JSON (the default: any reader of YAML reads it too)"),
            arg("--yaml", action="store_true", help="YAML instead of JSON, for reading by eye"))
    command(tsub, "new", run_new, "store a tournament (FILE: name, players, and any rounds played)",
            arg("file"), arg("--ruleset", help="default: the knowledge base's default_ruleset"), JSON)

    player = (ID, arg("player"))
    command(tsub, "enter", run_enter, "enter a player (a late entry once round 1 is paired)", *player, JSON)
    command(tsub, "check-in", run_check_in, "mark an entry present",
            *player, arg("--absent", action="store_true", help="mark the entry absent instead"), JSON)
    command(tsub, "withdraw", run_withdraw, "a player withdraws: not paired any more (kept in the journal with why)",
            *player, arg("--reason", required=True, help="why the player withdraws"), JSON)
    command(tsub, "add-result", run_add_result,
            "a result typed at the desk: ID ROUND TABLE FIRST_POINTS SECOND_POINTS",
            ID, arg("round", help="a round number, or final"), arg("table", type=int),
            arg("first_points", type=int, nargs="?"), arg("second_points", type=int, nargs="?"),
            arg("--correction", metavar="REASON",
                help="change a result after the next round was paired, recording why"),
            arg("--from-sheet", action="store_true",
                help="take the result from the table's score sheet (`matches new --pairing`), instead of points"),
            arg("--time-called", action="store_true",
                help="with --from-sheet: the match clock ran out (the board being played is not counted)"), JSON)

    command(tsub, "choose", run_choose,
            "change one of the organiser's choices before the round it affects, recording why: "
            "rounds_total N, ghost_points N, avoid_rematches true|false; 'ffc' goes back to the FFC text",
            ID, arg("choice", choices=("rounds_total", "ghost_points", "avoid_rematches")), arg("value"),
            arg("--reason", required=True), JSON)
    command(tsub, "absent", run_absent,
            "a player sits out these rounds and comes back (no game, no points), recording why",
            *player, arg("rounds", nargs="*", type=int, help="the rounds (none: present in every round)"),
            arg("--reason", required=True), JSON)
    command(tsub, "move-table", run_move_table, "move a game not yet played to another table, recording why "
            "(a game already there takes its place): ID ROUND TABLE NEW_TABLE",
            ID, arg("round", help="a round number, or final"), arg("table", type=int), arg("new_table", type=int),
            arg("--reason", required=True), JSON)
    command(tsub, "import", run_import,
            "store the Swiss tourneys of a SoL file (.sol, .sol.gz); round-robin and knockout ones are refused",
            arg("file"), arg("--ruleset", help="default: the knowledge base's default_ruleset"), JSON)
    command(tsub, "list", run_list, "the stored tournaments", JSON)
    command(tsub, "log", run_log, "every change to a stored tournament, oldest first: when, who (the login), what",
            ID, JSON)
    command(tsub, "show", run_show,
            "one stored tournament: entries, rounds, standings, corrections, choices and departures from the FFC text",
            ID, JSON, arg("--lang", choices=LANGUAGES, default="en", help="the language of the departures"))
    command(tsub, "print", run_print, "what the desk prints for a round, as PDF: its pairings, one score sheet "
            "per played table", ID, arg("round", help="a round number, or final"),
            arg("--pairings", metavar="OUT", help="the pairings as a PDF file"),
            arg("--score-sheets", metavar="FOLDER", help="one PDF per played table, in this folder (made if missing)"),
            arg("--lang", choices=LANGUAGES, help="the documents' language (default: English)"))
    command(tsub, "export", run_export, "standings and results as CSV, the plain-text ranking file, or the file",
            ID, arg("--format", choices=EXPORT_FORMATS, default="text"),
            arg("--out", help="write to this file instead of standard output"))


def _store(args):
    from referee_app.core.tournament.store import TournamentStore

    return TournamentStore(knowledge_of(args))


def _tournament(args):
    from referee_app.core.tournament.model import parse

    if args.id is not None and args.file is not None:
        raise BadInput("arguments", "give a FILE or --id, not both")
    if args.id is not None:
        return _store(args).load(args.id)
    if args.file is None:
        raise BadInput("arguments", "give a tournament FILE (or --id ID)")
    return parse(knowledge_of(args).ffc, read_document(args.file))


def _ghost(name) -> str:
    return "(ghost)" if name is None else name


def run_standings(args) -> int:
    from referee_app.core.tournament.standings import current

    rows = [r.to_doc() for r in current(_tournament(args))]
    if args.json:
        print_json(rows)
    else:
        print(f"{'':>4}  {'player':20} {'victories':>9} {'bucholz':>8} {'difference':>10} {'played':>6}")
        for r in rows:
            print(f"{r['rank']:>4}  {r['player']:20} {r['victories']:>9} {r['bucholz']:>8} {r['difference']:>10} "
                  f"{r['played']:>6}")
    return 0


def run_pair(args) -> int:
    from referee_app.core.tournament.pairing import next_round

    if args.again is not None or args.reason is not None:
        if args.id is None or args.file is not None:
            raise BadInput("--again", "pairing a round again is done on a stored tournament (--id)")
        if args.again is None or not (args.reason or "").strip():
            raise BadInput("--reason", "pairing a round again needs --again ROUND and --reason")
    if args.again is not None:
        pairing = _store(args).repair(args.id, args.again, args.reason, args.seed)
    elif args.id is not None and args.file is None:
        pairing = _store(args).pair(args.id, args.seed)
    else:
        pairing = next_round(_tournament(args), args.seed)
    if args.json:
        print_json(pairing)
    else:
        title = "Final" if pairing["round"] == "final" else f"Round {pairing['round']}"
        print(title + (f" (seed {pairing['seed']})" if "seed" in pairing else ""))
        for t in pairing["tables"]:
            print(f"{t['table']:>4}  {_ghost(t['first'])} – {_ghost(t['second'])}")
    return 0


def run_check(args) -> int:
    from referee_app.core.tournament.checker import check

    report = check(_tournament(args))
    if args.id is not None:       # a stored tournament: its score sheets against the results entered
        from referee_app.core.play.store import MatchStore
        from referee_app.core.tournament.sheet_status import sheet_problems, tournament_sheets

        store = _store(args)
        disagree = sheet_problems(tournament_sheets(store, MatchStore(store.knowledge, store.database), args.id))
        report = {**report, "ok": report["ok"] and not disagree, "problems": report["problems"] + disagree}
    if args.json:
        print_json(report)
    else:
        print("ok" if report["ok"] else "\n".join(p["message"] for p in report["problems"]))
    return 0


def run_generate(args) -> int:
    from referee_app.core.tournament.generator import generate

    doc = generate(knowledge_of(args).ffc, args.players, args.seed, args.rounds, args.final).to_doc()
    if not args.yaml:
        print_json(doc)
    else:
        import yaml

        sys.stdout.write(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=None, width=120))
    return 0


def run_new(args) -> int:
    from referee_app.core.tournament.model import parse

    knowledge = knowledge_of(args)
    ruleset = knowledge.ruleset(args.ruleset or knowledge.default_ruleset, "--ruleset").id
    tid = _store(args).import_tournament(parse(knowledge.ffc, read_document(args.file)), ruleset)
    print_json({"id": tid}) if args.json else print(tid)
    return 0


def _done(args, answer: dict) -> int:
    print_json(answer) if args.json else print("ok")
    return 0


def run_enter(args) -> int:
    _store(args).add_player(args.id, args.player, checked_in=True)
    return _done(args, {"id": int(args.id), "player": args.player, "entered": True})


def run_check_in(args) -> int:
    _store(args).check_in(args.id, args.player, not args.absent)
    return _done(args, {"id": int(args.id), "player": args.player, "checked_in": not args.absent})


def run_withdraw(args) -> int:
    kept = _store(args).withdraw(args.id, args.player, args.reason)
    return _done(args, {"id": int(args.id), "player": args.player, "withdrawn": True, "reason": kept})


def run_add_result(args) -> int:
    store = _store(args)
    if args.from_sheet:
        return _result_from_sheet(args, store)
    if args.time_called:
        raise BadInput("--time-called", "goes with --from-sheet")
    if args.first_points is None or args.second_points is None:
        raise BadInput("arguments", "give FIRST_POINTS and SECOND_POINTS, or --from-sheet")
    score = [args.first_points, args.second_points]
    if args.correction is not None:
        answer = store.correct(args.id, args.round, args.table, score, args.correction)
    else:
        store.result(args.id, args.round, args.table, score)
        answer = {"round": args.round, "table": args.table, "score": score}
    return _done(args, answer)


def _result_from_sheet(args, store) -> int:
    """The result read from the sheet tied to the pairing; the sheet is closed once it is entered."""
    from referee_app.core.play.store import MatchStore
    from referee_app.core.tournament.table_matches import collect

    if args.first_points is not None or args.correction is not None:
        raise BadInput("--from-sheet", "takes the score from the sheet: give no points and no --correction")
    matches = MatchStore(store.knowledge, store.database)
    result = collect(store, matches, args.id, args.round, args.table, time_called=args.time_called)
    if result is None:
        raise BadInput("--from-sheet", f"the sheet of table {args.table} shows a match still going on: nothing was "
                                       "entered (add --time-called if the clock ran out)")
    return _done(args, {"round": args.round, "table": args.table, "score": result["score"],
                        "ended_by": result["ended_by"], "clause": result["clause"],
                        "match": store.game(args.id, args.round, args.table)["match_id"]})


def _choice_value(choice: str, value: str):
    if value.lower() == "ffc":
        return None
    if choice == "avoid_rematches":
        if value.lower() not in ("true", "false", "yes", "no"):
            raise BadInput("value", "expected true or false (or ffc)")
        return value.lower() in ("true", "yes")
    try:
        return int(value)
    except ValueError:
        raise BadInput("value", f"expected a whole number (or ffc), not {value!r}") from None


def run_choose(args) -> int:
    change = _store(args).set_choice(args.id, args.choice, _choice_value(args.choice, args.value), args.reason)
    return _done(args, change)


def run_absent(args) -> int:
    change = _store(args).set_choice(args.id, "absent", (args.player, list(args.rounds)), args.reason)
    return _done(args, change)


def run_move_table(args) -> int:
    return _done(args, _store(args).move_table(args.id, args.round, args.table, args.new_table, args.reason))


def run_import(args) -> int:
    from referee_app.core.tournament import sol

    entries = sol.tournaments(knowledge_of(args).ffc, sol.read_file(args.file))
    swiss = [e for e in entries if "refused" not in e]
    refused = [{"name": e["name"], "kind": e["kind"], "message": e["refused"]} for e in entries if "refused" in e]
    if not swiss:
        names = "; ".join(r["name"] + f" ({r['kind']})" for r in refused) or "none in the file"
        raise BadInput(args.file, f"no Swiss tourney to import: {names}")
    knowledge = knowledge_of(args)
    ruleset = knowledge.ruleset(args.ruleset or knowledge.default_ruleset, "--ruleset").id
    store = _store(args)
    with store.transaction():     # all the file's tourneys, or none
        ids = [store.import_tournament(e["tournament"], ruleset, e["notes"]) for e in swiss]
    if args.json:
        print_json({"imported": [{"id": i, "name": e["name"], "players": len(e["tournament"].players),
                                  "rounds": len(e["tournament"].rounds), "notes": e["notes"]}
                                 for i, e in zip(ids, swiss)],
                    "refused": refused})
    else:
        for i in ids:
            print(i)
        for r in refused:
            print(r["message"], file=sys.stderr)
    return 0


def run_list(args) -> int:
    print_rows(_store(args).list(), args.json,
               lambda t: f"{t['id']:4}  {t['name']}  ({t['entries']} entries, {t['rounds_paired']} rounds paired)")
    return 0


def run_log(args) -> int:
    from referee_app.core.tournament.journal import entry_text

    entries = _store(args).log(args.id)
    if args.json:
        print_json(entries)
    else:
        for e in entries:
            print(entry_text(e))
    return 0


def run_show(args) -> int:
    report = _shown_here_or_kept(args)
    if args.json:
        print_json(report)
    else:
        import yaml

        sys.stdout.write(yaml.safe_dump(report, allow_unicode=True, sort_keys=False, width=120))
    return 0


def _stored_report(store, args) -> dict:
    """The store's report and each game's score sheet as the desk sees it (sheet_status)."""
    from referee_app.core.play.store import MatchStore
    from referee_app.core.tournament.sheet_status import tournament_sheets

    report = store.show(args.id, args.lang)
    return {**report, "sheets": tournament_sheets(store, MatchStore(store.knowledge, store.database), report["id"])}


def _shown_here_or_kept(args) -> dict:
    """The tournament as the server has it (kept on this machine when the records are a shared
    server), or, while the server is out of reach, as this machine last saw it, with a notice."""
    from referee_app.core.storage.database import database_url, shown
    from referee_app.core.storage.errors import StoreUnavailable

    url = database_url()
    if not url.startswith("postgresql"):
        return _stored_report(_store(args), args)
    from referee_app.core.play.outbox import Outbox

    try:
        store = _store(args)
        report = _stored_report(store, args)
    except StoreUnavailable:
        with Outbox() as outbox:
            kept = outbox.pairings(shown(url), args.id) if str(args.id).isdigit() else None
        if kept is None or kept["doc"].get("lang", args.lang) != args.lang:
            raise
        print(f"carrom-referee: the server cannot be reached: tournament {args.id} as this machine last saw it, "
              f"at {kept['seen_at']}", file=sys.stderr)
        return kept["doc"]["report"]
    with Outbox() as outbox:
        outbox.keep_pairings(store.database.shown, int(report.get("id", args.id)), {"lang": args.lang, "report": report})
    return report


def run_export(args) -> int:
    from referee_app.core.tournament import export

    store = _store(args)
    t = store.load(args.id)
    if args.format == "sol":
        return _export_sol(args, store, t)
    if args.format == "text":
        text = export.to_text(t, store.meta(args.id)["created_at"][:10])
    elif args.format == "standings.csv":
        text = export.standings_csv(t)
    elif args.format == "results.csv":
        text = export.results_csv(t)
    elif args.format == "json":
        import json

        text = json.dumps(t.to_doc(), ensure_ascii=False, indent=1) + "\n"
    else:
        import yaml

        text = yaml.safe_dump(t.to_doc(), allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)
    if args.out:
        from referee_app.core.storage import files

        files.write_text(args.out, text, "--out")
    else:
        sys.stdout.write(text)
    return 0


def _export_sol(args, store, t) -> int:
    """SoL's file: gzipped when --out ends in .gz (SoL's .sol.gz), YAML text otherwise."""
    import datetime

    from referee_app.core.tournament import sol

    try:
        date = datetime.date.fromisoformat(store.meta(args.id)["created_at"][:10])
    except ValueError:
        date = None
    gzipped = bool(args.out) and args.out.endswith(".gz")
    data = sol.dump_bytes(t, gzipped, date)
    if not args.out:
        sys.stdout.write(data.decode("utf-8"))
        return 0
    from referee_app.core.storage import files

    with files.replacing(args.out, "--out") as tmp:
        tmp.write_bytes(data)
    return 0


def run_print(args) -> int:
    """The documents the window's Rounds tab prints (core/tournament/documents.py), written by the
    same PDF writer (referee_app/printing); prints each file written, a line each."""
    from pathlib import Path

    from referee_app.core.tournament import documents
    from referee_app.core.tournament.store import round_arg

    if not args.pairings and not args.score_sheets:
        raise BadInput("arguments", "give --pairings OUT, --score-sheets FOLDER, or both")
    store, round_no, lang = _store(args), round_arg(args.round), args.lang or "en"
    meta = store.meta(args.id)
    games = store.round_games(meta["id"], round_no)
    if not games:
        raise BadInput("round", f"{args.round} is not paired in tournament {meta['id']}")
    from referee_app.printing.pdf import write_pdf  # Qt only now, to print

    written = []
    if args.pairings:
        html, title = documents.pairings_document(meta["name"], round_no, games, lang)
        written.append(write_pdf(html, args.pairings, title, "--pairings"))
    if args.score_sheets:
        folder = Path(args.score_sheets)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BadInput("--score-sheets", f"cannot make {folder}: {exc.strerror or exc}") from None
        written += [write_pdf(html, folder / name, title, "--score-sheets")
                    for name, html, title in documents.score_sheet_documents(
                        store.ffc, meta["name"], round_no, games, store.knowledge.ruleset_name(meta["ruleset"], lang), lang,
                        lambda c: store.knowledge.clause_label(c, lang))]
    print("\n".join(str(path) for path in written))
    return 0
