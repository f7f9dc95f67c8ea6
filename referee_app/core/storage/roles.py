"""The two PostgreSQL roles of a shared records database, and what each may do.

`carrom_desk` may do everything to the records. `carrom_table`, for the machines at the tables,
may add strokes, match events, matches, results, forms, incidents and inspections and read the
rest (the pairings above all), but may not change pairings, entries, tournaments, corrections, a
decided form or a result already entered. Both are NOLOGIN group roles: a club makes each
machine's login a member of one (`GRANT carrom_table TO table07`).

The grants do the coarse part (which tables, which columns); the row checks that no grant can
express (a table's new result row must copy the pairing of the game it replaces, a finished result
or a decided form stays as it is) are triggers that apply to members of `carrom_table` who are not
also members of `carrom_desk`. Everything here can run again: it resets both roles' grants to
what this module says, so a database upgraded to a later schema gets the new tables' grants by
running it once more (`carrom-referee db init`).
"""
from __future__ import annotations

DESK = "carrom_desk"
TABLE = "carrom_table"

# The record tables the table role writes to: the privileges it has on the whole table, and the
# columns it may not UPDATE (every other column it may; None: no UPDATE at all). Tables not listed
# here (tournaments, tournament_entries, tournament_corrections, and any table a later schema adds
# until it is listed) it may only read.
TABLE_WRITES: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None]] = {
    "matches": (("INSERT",), ("id", "created_at")),
    "strokes": (("INSERT",), ("id", "match_id", "seq", "stroke", "ruling", "entered_at", "client_id", "state")),
    "match_events": (("INSERT",), None),
    # the store writes a form's row whole; the row check keeps `outcome` and `decided_at` empty
    "forms": (("INSERT",), ("id", "kind", "created_at")),
    "form_history": (("INSERT",), ("id", "form_id", "at", "field", "old")),
    "incidents": (("INSERT",), None),
    "inspections": (("INSERT",), None),
    "learn_cards": (("INSERT",), ()),
    "learn_answers": (("INSERT",), None),
    # a result is a new row replacing the game's row (or the same row's score set): the pairing
    # columns are the desk's
    "tournament_games": (("INSERT",), ("id", "tournament_id", "round", "final", "table_no", "first", "second")),
}

# Alembic's table of the schema's revision: read by all, written only by `db migrate` (the owner).
SCHEMA_REVISION = "alembic_version"

PAIRING = ("tournament_id", "round", "final", "table_no", "first", "second")

# Whether the user running a statement is held to the table role's row checks: a member of
# carrom_table and not of carrom_desk (a superuser is a member of every role, so never).
_HELD = f"(pg_has_role(current_user, '{TABLE}', 'MEMBER') AND NOT pg_has_role(current_user, '{DESK}', 'MEMBER'))"


def _refuse(what: str) -> str:
    return (f"RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', "
            f"MESSAGE = 'the table role may not {what}', HINT = 'the desk (role {DESK}) may';")


def _guard(name: str, body: str, declare: str = "") -> str:
    """A trigger function that runs `body` for the members held to the table role's checks only."""
    return f"""
CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
{f"DECLARE {declare};" if declare else ""}
BEGIN
    IF NOT {_HELD} THEN
        RETURN NEW;
    END IF;
{body}
    RETURN NEW;
END $$;
"""


_GAME_GUARD = _guard("carrom_table_result_guard", declare="previous record", body=f"""
    IF TG_OP = 'UPDATE' THEN
        IF OLD.superseded_at IS NOT NULL OR OLD.score_first IS NOT NULL OR OLD.score_second IS NOT NULL THEN
            {_refuse("change a result already entered")}
        END IF;
        IF ({", ".join(f"NEW.{c}" for c in PAIRING)}) IS DISTINCT FROM ({", ".join(f"OLD.{c}" for c in PAIRING)}) THEN
            {_refuse("change a pairing")}
        END IF;
        RETURN NEW;
    END IF;
    -- a new row for a game: a result replacing the game's last row, which it must copy the pairing of
    SELECT * INTO previous FROM tournament_games
        WHERE tournament_id = NEW.tournament_id AND final = NEW.final AND round = NEW.round
              AND table_no = NEW.table_no
        ORDER BY id DESC LIMIT 1;
    IF NOT FOUND THEN
        {_refuse("pair a game")}
    END IF;
    IF (previous.first, previous.second) IS DISTINCT FROM (NEW.first, NEW.second) THEN
        {_refuse("change a pairing")}
    END IF;
    IF previous.score_first IS NOT NULL OR previous.score_second IS NOT NULL THEN
        {_refuse("change a result already entered")}
    END IF;
    IF previous.superseded_at IS NULL OR NEW.superseded_at IS NOT NULL THEN
        {_refuse("add a second row for one game")}
    END IF;""")

# A match whose result is entered (a game linked to it with a score) is finished for the tables.
_MATCH_GUARD = _guard("carrom_table_match_guard", declare="target bigint", body=f"""
    -- one statement per table: a field of NEW is looked up only when its statement runs
    IF TG_TABLE_NAME = 'matches' THEN
        target := OLD.id;
    ELSE
        target := NEW.match_id;
    END IF;
    IF EXISTS (SELECT 1 FROM tournament_games WHERE match_id = target AND superseded_at IS NULL
               AND score_first IS NOT NULL) THEN
        {_refuse("change a match whose result is entered")}
    END IF;""")

_FORM_GUARD = _guard("carrom_table_form_guard", body=f"""
    IF NEW.status = 'decided' OR NEW.outcome IS NOT NULL OR NEW.decided_at IS NOT NULL
            OR (TG_OP = 'UPDATE' AND OLD.status = 'decided') THEN
        {_refuse("decide a form or change a decided one")}
    END IF;""")

# (trigger, table, events, function); each needs its table, so a schema without one skips it
TRIGGERS = (
    ("carrom_table_result", "tournament_games", "INSERT OR UPDATE", "carrom_table_result_guard", _GAME_GUARD),
    ("carrom_table_match", "matches", "UPDATE", "carrom_table_match_guard", _MATCH_GUARD),
    ("carrom_table_stroke", "strokes", "INSERT OR UPDATE", "carrom_table_match_guard", _MATCH_GUARD),
    ("carrom_table_event", "match_events", "INSERT", "carrom_table_match_guard", _MATCH_GUARD),
    ("carrom_table_form", "forms", "INSERT OR UPDATE", "carrom_table_form_guard", _FORM_GUARD),
)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _tables(conn) -> dict[str, list[str]]:
    """The tables of the current schema and their columns, in order."""
    rows = conn.exec_driver_sql(
        "SELECT c.relname, a.attname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid "
        "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') "
        "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum").fetchall()
    tables: dict[str, list[str]] = {}
    for table, column in rows:
        tables.setdefault(table, []).append(column)
    return tables


def _ensure_role(conn, name: str) -> bool:
    """Creates the group role if it is missing; True if it was created."""
    if conn.exec_driver_sql("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).first():
        return False
    conn.exec_driver_sql(f"CREATE ROLE {_quote(name)} NOLOGIN")
    return True


def _grant_desk(conn, tables: list[str]) -> list[str]:
    done = []
    for table in tables:
        conn.exec_driver_sql(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {_quote(table)} TO {DESK}")
        done.append(f"{table}: SELECT, INSERT, UPDATE, DELETE")
    conn.exec_driver_sql(f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {_schema(conn)} TO {DESK}")
    return done


def _grant_table(conn, tables: dict[str, list[str]]) -> list[str]:
    done = []
    for table, columns in tables.items():
        privileges, fixed = TABLE_WRITES.get(table, ((), None))
        conn.exec_driver_sql(f"GRANT SELECT ON {_quote(table)} TO {TABLE}")
        granted = ["SELECT", *privileges]
        if privileges:
            conn.exec_driver_sql(f"GRANT {', '.join(privileges)} ON {_quote(table)} TO {TABLE}")
        if fixed is not None:
            editable = [c for c in columns if c not in fixed]
            if editable:
                conn.exec_driver_sql(f"GRANT UPDATE ({', '.join(map(_quote, editable))}) ON {_quote(table)} TO {TABLE}")
                granted.append(f"UPDATE ({', '.join(editable)})")
        done.append(f"{table}: {', '.join(granted)}")
    conn.exec_driver_sql(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {_schema(conn)} TO {TABLE}")
    return done


def _schema(conn) -> str:
    return _quote(conn.exec_driver_sql("SELECT current_schema()").scalar())


def _guards(conn, tables: dict[str, list[str]]) -> list[str]:
    made, functions = [], set()
    for trigger, table, events, function, body in TRIGGERS:
        if table not in tables or (function == "carrom_table_match_guard" and "tournament_games" not in tables):
            continue
        if function not in functions:
            conn.exec_driver_sql(body)
            functions.add(function)
        conn.exec_driver_sql(f"CREATE OR REPLACE TRIGGER {trigger} BEFORE {events} ON {_quote(table)} "
                             f"FOR EACH ROW EXECUTE FUNCTION {function}()")
        made.append(f"{trigger} on {table}")
    return made


def apply(conn) -> dict:
    """Creates the two roles if missing and sets their grants and row checks on every table of the
    current schema; `conn` is a SQLAlchemy connection to PostgreSQL inside a transaction, as the
    database's owner. Returns what it did (the JSON of `db init`)."""
    tables = _tables(conn)
    created = [name for name in (DESK, TABLE) if _ensure_role(conn, name)]
    schema = _schema(conn)
    for role in (DESK, TABLE):
        # reset to exactly what this module says, so that running it again never accumulates
        conn.exec_driver_sql(f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}")
        conn.exec_driver_sql(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role}")
        conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
    record_tables = {t: c for t, c in tables.items() if t != SCHEMA_REVISION}
    if SCHEMA_REVISION in tables:   # every machine checks the schema's revision when it opens the database
        conn.exec_driver_sql(f"GRANT SELECT ON {SCHEMA_REVISION} TO {DESK}, {TABLE}")
    return {
        "created": created,
        "roles": {
            DESK: {"grants": _grant_desk(conn, sorted(record_tables))},
            TABLE: {"grants": _grant_table(conn, dict(sorted(record_tables.items())))},
        },
        "row_checks": _guards(conn, record_tables),
    }
