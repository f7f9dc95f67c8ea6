"""`records`: the records database itself: where it is, whether it can be used, starting a new one.

    carrom-referee records check [--json]        the file, and whether it is sound
    carrom-referee records new-store [--force]   move a damaged, foreign or newer file aside, untouched,
                                                 and start a new one at its path
"""
from __future__ import annotations

from referee_app.core.errors import BadInput
from .io import print_json


def add_parsers(sub) -> None:
    p = sub.add_parser("records", help="the records database: check it, or start a new one")
    rsub = p.add_subparsers(dest="records_command", metavar="ACTION", parser_class=type(p))
    p.set_defaults(func=lambda args: (_ for _ in ()).throw(BadInput("records", "name an action: check, new-store")))
    q = rsub.add_parser("check", help="where the records database is and whether it can be used")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=run_check)
    q = rsub.add_parser("new-store", help="move an unusable records file aside (untouched) and start a new one")
    q.add_argument("--force", action="store_true", help="also when the current file is sound")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=run_new_store)


def _status():
    from referee_app.core.storage import db

    path = db.default_path()
    try:
        database = db.connect(path)
        try:
            # a write lock taken and let go: a file another program is writing is busy, not sound,
            # and never set aside under that program (not even with --force)
            with database.begin():
                pass
        finally:
            database.close()
    except db.StoreError as exc:
        return path, exc
    return path, None


def run_check(args) -> int:
    path, problem = _status()
    if args.json:
        print_json({"path": str(path), "ok": problem is None,
                    "problem": problem.reason if problem else None, "message": str(problem) if problem else None})
    else:
        print(f"{path}: sound" if problem is None else str(problem.problem))
    return 0 if problem is None else 2


def run_new_store(args) -> int:
    from referee_app.core.storage import db

    path, problem = _status()
    if problem is not None and not problem.can_move_aside:
        raise problem
    if problem is None and not args.force:
        raise BadInput("records", f"{path} is sound: nothing to set aside (--force starts a new file anyway)")
    moved = db.start_anew(path, problem.reason if problem else "set-aside")
    if args.json:
        print_json({"path": str(path), "moved_to": str(moved) if moved else None})
    else:
        print(f"new records file: {path}" + (f"; the old one is kept as {moved}" if moved else ""))
    return 0
