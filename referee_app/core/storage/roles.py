"""The two PostgreSQL roles of a shared records database, and what each may do.

`carrom_desk` may do everything to the records but rewrite the journal. `carrom_table`, for the
machines at the tables, may add strokes to an open score sheet, enter the result of a game that
has none, link a score sheet to its game, file forms and incidents, save inspections and its
own learning, and read the rest (the pairings above all); nothing else: not pair, not change a
pairing (nor hide one by setting a game aside without its result), an entry, a tournament, a
correction, a decided form, a result already entered, or write the journal but for its results.
tests/core/storage/test_role_matrix.py runs every write as each role. The journal's login is the
server's (`current_user`), a column neither role may write. Both are NOLOGIN group roles: a club makes each
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
# columns it may UPDATE (ALL: every one; None: no UPDATE at all); a column a later schema adds is
# the desk's until it is listed here. Tables not listed (tournaments, tournament_entries,
# tournament_corrections, and any table a later schema adds until it is listed) it may only read.
ALL = ("*",)
TABLE_WRITES: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None]] = {
    "matches": (("INSERT",), ("ruleset", "doubles", "first_name", "second_name", "tournament", "round", "table_no",
                              "referee", "version")),
    # an undo or a correction sets a stroke's superseded_at, once (the schema's own trigger)
    "strokes": (("INSERT",), ("superseded_at",)),
    "match_events": (("INSERT",), None),
    # the store writes a form's row whole; the row check keeps `outcome` and `decided_at` empty
    "forms": (("INSERT",), ("status", "fields", "outcome", "updated_at", "decided_at", "version")),
    "form_history": (("INSERT",), ("new",)),
    "incidents": (("INSERT",), None),
    "inspections": (("INSERT",), None),
    "learn_cards": (("INSERT",), ALL),
    "learn_answers": (("INSERT",), None),
    # a result is a new row replacing the game's open row (set aside by its superseded_at, which
    # the row checks allow only with that replacement); a score sheet is linked by match_id
    "tournament_games": (("INSERT",), ("superseded_at", "match_id", "version")),
}

# Tables whose INSERT is granted column by column, the others' columns taking their defaults: the
# journal's login is the server's `current_user`, never what a machine writes.
INSERT_COLUMNS = {
    "tournament_journal": ("tournament_id", "at", "action", "round", "table_no", "detail"),
}
# The journal is written, never rewritten: neither role may UPDATE or DELETE it.
APPEND_ONLY = ("tournament_journal",)
# What a table's login may write in the journal: what it may do.
TABLE_JOURNAL_ACTIONS = ("result", "sheet")

# Alembic's table of the schema's revision: read by all, written only by `db migrate` (the owner).
SCHEMA_REVISION = "alembic_version"

PAIRING = ("tournament_id", "round", "final", "table_no", "first", "second")

# Whether the user running a statement is held to the table role's row checks: a member of
# carrom_table and not of carrom_desk (a superuser is a member of every role, so never).
_HELD = f"(pg_has_role(current_user, '{TABLE}', 'MEMBER') AND NOT pg_has_role(current_user, '{DESK}', 'MEMBER'))"


def _refuse(what: str) -> str:
    # the message is the store's own sentence (refusals.ONLY_THE_DESK), read back by its words
    return (f"RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', "
            f"MESSAGE = 'only the desk may {what}';")


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
        IF (NEW.score_first, NEW.score_second, NEW.entered_at) IS DISTINCT FROM
                (OLD.score_first, OLD.score_second, OLD.entered_at) THEN
            {_refuse("change a result already entered")}
        END IF;
        IF ({", ".join(f"NEW.{c}" for c in PAIRING)}) IS DISTINCT FROM ({", ".join(f"OLD.{c}" for c in PAIRING)}) THEN
            {_refuse("change a pairing")}
        END IF;
        RETURN NEW;
    END IF;
    -- a new row for a game: a result replacing the game's open row, set aside in this same
    -- transaction (the deferred check below makes sure of it) and copied pairing and all. The
    -- unique index keeps one row in force per table: the row replaced is the game's own.
    IF NEW.superseded_at IS NOT NULL THEN
        {_refuse("add a second row for one game")}
    END IF;
    IF NOT EXISTS (SELECT 1 FROM tournament_games WHERE tournament_id = NEW.tournament_id AND final = NEW.final
                   AND round = NEW.round AND table_no = NEW.table_no) THEN
        {_refuse("pair a round")}
    END IF;
    SELECT * INTO previous FROM tournament_games
        WHERE tournament_id = NEW.tournament_id AND final = NEW.final AND round = NEW.round
              AND table_no = NEW.table_no AND superseded_at IS NOT NULL
              AND first IS NOT DISTINCT FROM NEW.first AND second IS NOT DISTINCT FROM NEW.second
              -- set aside by this transaction (its row version is this transaction's): a game
              -- the desk set aside earlier (a round paired again) is not brought back
              AND xmin::text::bigint = mod(pg_current_xact_id()::text::bigint, 4294967296)
        ORDER BY id DESC LIMIT 1;
    IF NOT FOUND THEN
        {_refuse("change a pairing")}
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
        {_refuse("change the score sheet of a game whose result is entered")}
    END IF;""")

# A game set aside by a table must have its result row in force by the end of the transaction:
# otherwise the table would hide a pairing (checked at commit, once the replacement is written).
_REPLACED_GUARD = f"""
CREATE OR REPLACE FUNCTION carrom_table_replaced_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT {_HELD} OR NEW.superseded_at IS NULL OR OLD.superseded_at IS NOT NULL THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM tournament_games WHERE tournament_id = OLD.tournament_id AND final = OLD.final
                   AND round = OLD.round AND table_no = OLD.table_no AND superseded_at IS NULL
                   AND first IS NOT DISTINCT FROM OLD.first AND second IS NOT DISTINCT FROM OLD.second
                   AND score_first IS NOT NULL) THEN
        {_refuse("change a pairing")}
    END IF;
    RETURN NULL;
END $$;
"""

_JOURNAL_GUARD = _guard("carrom_table_journal_guard", body=f"""
    IF NEW.action NOT IN ({", ".join(f"'{a}'" for a in TABLE_JOURNAL_ACTIONS)}) THEN
        {_refuse("change the journal")}
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
    ("carrom_table_journal", "tournament_journal", "INSERT", "carrom_table_journal_guard", _JOURNAL_GUARD),
)
# (trigger, table, function): checked when the transaction commits
DEFERRED = (
    ("carrom_table_replaced", "tournament_games", "carrom_table_replaced_guard", _REPLACED_GUARD),
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


def _grant_insert(conn, table: str, role: str) -> str:
    columns = INSERT_COLUMNS.get(table)
    if columns is None:
        conn.exec_driver_sql(f"GRANT INSERT ON {_quote(table)} TO {role}")
        return "INSERT"
    conn.exec_driver_sql(f"GRANT INSERT ({', '.join(map(_quote, columns))}) ON {_quote(table)} TO {role}")
    return f"INSERT ({', '.join(columns)})"


def _grant_desk(conn, tables: list[str]) -> list[str]:
    done = []
    for table in tables:
        if table in APPEND_ONLY:
            conn.exec_driver_sql(f"GRANT SELECT ON {_quote(table)} TO {DESK}")
            done.append(f"{table}: SELECT, {_grant_insert(conn, table, DESK)}")
            continue
        conn.exec_driver_sql(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {_quote(table)} TO {DESK}")
        done.append(f"{table}: SELECT, INSERT, UPDATE, DELETE")
    conn.exec_driver_sql(f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {_schema(conn)} TO {DESK}")
    return done


def _grant_table(conn, tables: dict[str, list[str]]) -> list[str]:
    done = []
    for table, columns in tables.items():
        privileges, updatable = TABLE_WRITES.get(table, ((), None))
        if table in INSERT_COLUMNS:
            privileges = ("INSERT",)
        conn.exec_driver_sql(f"GRANT SELECT ON {_quote(table)} TO {TABLE}")
        granted = ["SELECT", *(_grant_insert(conn, table, TABLE) for p in privileges if p == "INSERT")]
        if updatable is not None:
            editable = [c for c in columns if updatable == ALL or c in updatable]
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
    for trigger, table, function, body in DEFERRED:
        if table not in tables:
            continue
        conn.exec_driver_sql(body)
        # a constraint trigger cannot be replaced in place: dropped and made again, so that init runs again
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger} ON {_quote(table)}")
        conn.exec_driver_sql(f"CREATE CONSTRAINT TRIGGER {trigger} AFTER UPDATE ON {_quote(table)} "
                             f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.superseded_at IS NULL AND "
                             f"NEW.superseded_at IS NOT NULL) EXECUTE FUNCTION {function}()")
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
