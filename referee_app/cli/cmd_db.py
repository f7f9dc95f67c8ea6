"""`db`: the records database as a whole, on either engine.

    carrom-referee db migrate [URL] [--json]   upgrade its schema to this version's
    carrom-referee db check [URL] [--json]     its engine, schema revision and rows per table
    carrom-referee db init URL                 the schema, and on PostgreSQL the desk and table roles (JSON)
    carrom-referee db copy --from URL --to URL [--renumber]   every record into another database (JSON)
    carrom-referee db sync [--json]            send the strokes this table kept while the server was away

URL defaults to the records database in use (CARROM_REFEREE_DATABASE, the preferences, or the
SQLite file in the data folder); a path names a SQLite file. A URL is `postgresql://USER@HOST/DATABASE`
(or `postgresql:///?service=NAME`) or `sqlite:///PATH`; a password never needs to be in it: libpq
reads it from ~/.pgpass (PGPASSFILE), a service file or PGPASSWORD.
"""
from __future__ import annotations

import getpass
import sys

from referee_app.core.errors import BadInput
from .io import print_json

# An upgrade, the roles' grants or a copy of every record may run long statements, and wait for
# the tables' short transactions: bounded still, but by minutes, not a table's seconds.
ADMIN_TIMEOUT_S = 600.0


def add_parsers(sub) -> None:
    p = sub.add_parser("db", help="the records database: migrate, check, create a shared one (init), copy records (copy)")
    dsub = p.add_subparsers(dest="db_command", metavar="ACTION", parser_class=type(p))
    p.set_defaults(func=lambda args: (_ for _ in ()).throw(BadInput("db", "name an action: migrate, check, init, copy")))
    for name, func, text in (("migrate", run_migrate, "upgrade the schema to this version's"),
                             ("check", run_check, "the schema revision and the rows of each table")):
        q = dsub.add_parser(name, help=text)
        q.add_argument("url", nargs="?", help="the database (default: the one in use)")
        q.add_argument("--json", action="store_true")
        q.set_defaults(func=func)
    _add_init(dsub)
    _add_copy(dsub)
    q = dsub.add_parser("sync", help="send the strokes this machine kept while the server was out of reach")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=run_sync)


def run_sync(args) -> int:
    """Sends this machine's waiting strokes to the records server in use, in order, each once:
    {"sent", "waiting", "refused"} (refused: every stroke the server did not take, kept here)."""
    from referee_app.core.play.outbox import Outbox
    from referee_app.core.play.store import MatchStore
    from referee_app.core.storage.database import database_url, shown
    from referee_app.core.storage.errors import StoreUnavailable
    from .io import knowledge_of

    url = database_url()
    with Outbox() as outbox:
        server = shown(url)
        lost = None
        sent = 0
        if outbox.count(server):
            try:
                with MatchStore(knowledge_of(args), url) as store:
                    report = outbox.sync(store)
                sent, lost = report.sent, report.unavailable
            except StoreUnavailable as exc:
                lost = exc.problem
        out = {"sent": sent, "waiting": outbox.count(server), "refused": outbox.refused(server)}
    if args.json:
        print_json(out)
    else:
        print(f"sent: {out['sent']}, waiting: {out['waiting']}, refused: {len(out['refused'])}")
        for r in out["refused"]:
            print(f"  refused (match {r['match']}): {r['problem']}")
    if lost is not None:
        raise StoreUnavailable(server, lost)
    return 0


def _open(url):
    from referee_app.core.storage.database import Database

    return Database(url or None, migrate=False, statement_timeout=ADMIN_TIMEOUT_S)


def run_migrate(args) -> int:
    from referee_app.core.storage import migrations

    with _open(args.url) as database:
        before = database.revision()
        if before is not None and before not in migrations.REVISIONS:
            database.ensure_schema()          # refuses a newer schema, by name
        applied = database.upgrade()
        out = {"database": database.shown, "engine": database.dialect, "revision_before": before,
               "revision": database.revision(), "migrations_applied": applied}
        if applied and database.dialect == "postgresql":
            regranted = _regrant(database)
            if regranted is not None:
                out["roles"] = regranted
    if args.json:
        print_json(out)
    else:
        print(f"{out['database']}: " + (f"upgraded from {before or 'no schema'} to {out['revision']} "
                                        f"({', '.join(applied)})" if applied else f"already at {out['revision']}"))
    return 0


def _regrant(database):
    """A shared database whose roles `db init` made: the tables a migration added get their grants
    and row checks at once (a table's results would otherwise be refused by the new journal)."""
    from referee_app.core.storage import roles

    with database.begin() as conn:
        found = conn.exec_driver_sql("SELECT count(*) FROM pg_roles WHERE rolname IN (%s, %s)",
                                     (roles.DESK, roles.TABLE)).scalar()
        return roles.apply(conn) if found == 2 else None


def run_check(args) -> int:
    from referee_app.core.storage import migrations, schema
    import sqlalchemy as sa

    with _open(args.url) as database, database.read() as conn:
        revision = migrations.current(conn)
        present = set(migrations.user_tables(conn))
        rows = {t: conn.execute(sa.select(sa.func.count()).select_from(schema.metadata.tables[t])).scalar()
                for t in schema.TABLES if t in present}
        out = {"database": database.shown, "engine": database.dialect, "revision": revision,
               "head": migrations.HEAD, "up_to_date": revision == migrations.HEAD,
               "missing_tables": sorted(set(schema.TABLES) - present), "rows": rows}
    if args.json:
        print_json(out)
    else:
        state = "up to date" if out["up_to_date"] else f"behind ({revision or 'no schema'}; `db migrate` upgrades it)"
        print(f"{out['database']} ({out['engine']}): schema {revision or 'none'}, head {out['head']}: {state}")
        for table, count in rows.items():
            print(f"  {table}: {count}")
    return 0 if out["up_to_date"] else 2


# --- init ---------------------------------------------------------------------------------------

def _add_init(dsub) -> None:
    q = dsub.add_parser("init", help="create the schema and, on PostgreSQL, the desk and table roles with their grants")
    q.add_argument("url", metavar="URL", help="the database, e.g. postgresql://desk@server/carrom")
    q.set_defaults(func=run_init)


def _open_asking(url: str, migrate: bool = True):
    """The database at `url`; asks for the login's password at the terminal when the server wants
    one that libpq found nowhere (it is used for this command only, never kept)."""
    from referee_app.core.storage.database import Database, StoreError, parse_url

    try:
        database = Database(url, migrate=migrate, statement_timeout=ADMIN_TIMEOUT_S)
        database.revision()
        return database
    except StoreError as exc:
        if exc.reason != "credentials" or "no password supplied" not in str(exc):
            raise
        if not sys.stdin.isatty():
            raise BadInput("URL", f"{exc.path}: the server asks for a password and libpq found none: put it in "
                                  "~/.pgpass (or the file PGPASSFILE names), a pg_service.conf service or "
                                  "PGPASSWORD") from None
    parsed = parse_url(url)
    secret = getpass.getpass(f"password of {parsed.username or 'the login'} for {parsed.database}: ")
    return Database(parsed.set(password=secret), migrate=migrate, statement_timeout=ADMIN_TIMEOUT_S)


def _refuse_foreign(database) -> None:
    """A PostgreSQL database holding tables but not our schema is another program's: left alone."""
    from referee_app.core.storage import migrations

    with database.read() as conn:
        others = migrations.user_tables(conn) if migrations.current(conn) is None else []
    if others:
        raise BadInput("URL", f"{database.shown} holds tables ({', '.join(sorted(others)[:3])}) but no carrom-referee "
                              "schema: it is left untouched; give an empty database")


def run_init(args) -> int:
    from referee_app.core.storage import roles

    with _open_asking(args.url, migrate=False) as database:
        before = database.revision()
        if database.dialect == "postgresql":
            _refuse_foreign(database)
        applied = database.upgrade()
        out = {"database": database.shown, "engine": database.dialect, "revision_before": before,
               "revision": database.revision(), "migrations_applied": applied, "roles": None}
        if database.dialect == "postgresql":
            with database.begin() as conn:
                out["roles"] = roles.apply(conn)
    print_json(out)
    return 0


# --- copy ---------------------------------------------------------------------------------------

def _add_copy(dsub) -> None:
    q = dsub.add_parser("copy", help="copy every record from one records database into another, all or nothing")
    q.add_argument("--from", dest="source", metavar="URL", required=True, help="the database read")
    q.add_argument("--to", dest="target", metavar="URL", required=True, help="the database written")
    q.add_argument("--renumber", action="store_true",
                   help="give the copied records new numbers on the target (one that holds others' records)")
    q.set_defaults(func=run_copy)


def run_copy(args) -> int:
    from referee_app.core.storage.transfer import copy_records

    with _open_asking(args.source) as source, _open_asking(args.target) as target:
        tables = copy_records(source, target, renumber=args.renumber)
        print_json({"from": source.shown, "to": target.shown, "ids": "renumbered" if args.renumber else "kept",
                    "tables": tables, "copied": sum(t["copied"] for t in tables.values())})
    return 0
