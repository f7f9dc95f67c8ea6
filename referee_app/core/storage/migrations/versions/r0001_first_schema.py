"""The records schema as the versions that kept it by hand left it (SQLite user_version 1).

On SQLite it adopts a file of those versions as it is: whatever tables or columns it lacks are
added (every later column had a default), nothing is rewritten. On PostgreSQL it creates the same
tables, with the triggers that keep filed forms and inspection records.

Revision ID: 0001
Revises:
"""
import sqlite3

from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# The tables, the same on both engines but for the type of a generated id (AUTOINCREMENT: a
# number never given twice on SQLite, which SERIAL is on PostgreSQL).
TABLES = """
CREATE TABLE IF NOT EXISTS matches (
    id {id},
    created_at TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    doubles INTEGER NOT NULL DEFAULT 0,
    first_name TEXT NOT NULL DEFAULT '',
    second_name TEXT NOT NULL DEFAULT '',
    tournament TEXT NOT NULL DEFAULT '',
    round TEXT NOT NULL DEFAULT '',
    table_no TEXT NOT NULL DEFAULT '',
    referee TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS strokes (
    id {id},
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    stroke TEXT NOT NULL,
    ruling TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    superseded_at TEXT
);
CREATE TABLE IF NOT EXISTS match_events (
    id {id},
    match_id INTEGER NOT NULL REFERENCES matches(id),
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS forms (
    id {autoid},
    kind TEXT NOT NULL CHECK (kind IN ('protest', 'disqualification')),
    status TEXT NOT NULL CHECK (status IN ('draft', 'filed', 'decided')),
    fields TEXT NOT NULL DEFAULT '{}',
    outcome TEXT CHECK (outcome IN ('upheld', 'rejected')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    decided_at TEXT
);
CREATE TABLE IF NOT EXISTS form_history (
    id {autoid},
    form_id INTEGER NOT NULL REFERENCES forms(id),
    at TEXT NOT NULL,
    field TEXT NOT NULL,
    old TEXT,
    new TEXT
);
CREATE TABLE IF NOT EXISTS incidents (
    id {autoid},
    tournament TEXT NOT NULL,
    round TEXT NOT NULL,
    "table" TEXT NOT NULL,
    player TEXT NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    referee TEXT,
    note TEXT
);
CREATE TABLE IF NOT EXISTS inspections (
    id {autoid},
    inspected_at TEXT NOT NULL,
    inspector TEXT NOT NULL CHECK (inspector <> ''),
    item TEXT NOT NULL,
    label TEXT NOT NULL CHECK (label <> ''),
    tournament TEXT NOT NULL DEFAULT '',
    readings TEXT NOT NULL,
    result TEXT NOT NULL,
    compliant INTEGER NOT NULL CHECK (compliant IN (0, 1)),
    notes TEXT NOT NULL DEFAULT '',
    photo TEXT NOT NULL DEFAULT '',
    previous_id INTEGER REFERENCES inspections(id),
    carried_over TEXT NOT NULL DEFAULT '[]',
    spec TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS tournaments (
    id {id},
    name TEXT NOT NULL,
    ruleset TEXT NOT NULL DEFAULT 'icf',
    created_at TEXT NOT NULL,
    seed {bigint}
);
CREATE TABLE IF NOT EXISTS tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    checked_in INTEGER NOT NULL DEFAULT 0,
    first_round INTEGER,
    withdrawn_after INTEGER,
    PRIMARY KEY (tournament_id, name)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    id {id},
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    final INTEGER NOT NULL DEFAULT 0,
    table_no INTEGER NOT NULL,
    first TEXT,
    second TEXT,
    score_first INTEGER,
    score_second INTEGER,
    match_id INTEGER,
    entered_at TEXT NOT NULL,
    superseded_at TEXT
);
CREATE TABLE IF NOT EXISTS tournament_corrections (
    id {id},
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    before TEXT,
    after TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS learn_cards (
    learner TEXT NOT NULL,
    question TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    clause TEXT NOT NULL,
    situation TEXT NOT NULL,
    card TEXT NOT NULL,
    due TEXT NOT NULL,
    reviews INTEGER NOT NULL DEFAULT 0,
    lapses INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (learner, question)
);
CREATE TABLE IF NOT EXISTS learn_answers (
    id {id},
    learner TEXT NOT NULL,
    question TEXT NOT NULL,
    answered_at TEXT NOT NULL,
    correct INTEGER NOT NULL
);
"""
TYPES = {"sqlite": {"{id}": "INTEGER PRIMARY KEY", "{autoid}": "INTEGER PRIMARY KEY AUTOINCREMENT",
                    "{bigint}": "INTEGER"},
         "postgresql": {"{id}": "SERIAL PRIMARY KEY", "{autoid}": "SERIAL PRIMARY KEY", "{bigint}": "BIGINT"}}

INDEXES = """
CREATE INDEX IF NOT EXISTS strokes_by_match ON strokes(match_id, seq);
CREATE INDEX IF NOT EXISTS form_history_by_form ON form_history (form_id, id);
CREATE INDEX IF NOT EXISTS incidents_by_match ON incidents (tournament, round, "table", player);
CREATE INDEX IF NOT EXISTS tournament_games_by_round ON tournament_games(tournament_id, round, table_no);
CREATE INDEX IF NOT EXISTS learn_cards_due ON learn_cards (learner, due);
"""

SQLITE = """
CREATE INDEX IF NOT EXISTS forms_by_tournament ON forms (json_extract(fields, '$.tournament'), status);
CREATE INDEX IF NOT EXISTS inspections_by_item ON inspections (item, label COLLATE NOCASE, tournament, id);
CREATE TRIGGER IF NOT EXISTS forms_keep_announced_protests BEFORE DELETE ON forms
    WHEN OLD.kind = 'protest' AND json_extract(OLD.fields, '$.announced_at') IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'an announced protest can never be deleted or withdrawn'); END;
CREATE TRIGGER IF NOT EXISTS forms_keep_filed BEFORE DELETE ON forms
    WHEN OLD.status != 'draft'
    BEGIN SELECT RAISE(ABORT, 'a filed form can never be deleted'); END;
CREATE TRIGGER IF NOT EXISTS form_history_keep BEFORE DELETE ON form_history
    WHEN (SELECT status FROM forms WHERE id = OLD.form_id) IS NOT 'draft'
    BEGIN SELECT RAISE(ABORT, 'the history of a filed form can never be deleted'); END;
CREATE TRIGGER IF NOT EXISTS form_history_append_only BEFORE UPDATE OF form_id, field, old ON form_history
    BEGIN SELECT RAISE(ABORT, 'history rows are never rewritten'); END;
CREATE TRIGGER IF NOT EXISTS inspections_never_rewritten BEFORE UPDATE ON inspections
    BEGIN SELECT RAISE(ABORT, 'an inspection record is never rewritten: re-inspect instead'); END;
CREATE TRIGGER IF NOT EXISTS inspections_never_deleted BEFORE DELETE ON inspections
    BEGIN SELECT RAISE(ABORT, 'an inspection record is never deleted'); END;
"""

POSTGRESQL = """
CREATE INDEX forms_by_tournament ON forms (((fields::jsonb) ->> 'tournament'), status);
CREATE INDEX inspections_by_item ON inspections (item, lower(label), tournament, id);
CREATE FUNCTION carrom_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation';
END $$;
CREATE FUNCTION carrom_keep_filed_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM forms WHERE id = OLD.form_id) IS DISTINCT FROM 'draft' THEN
        RAISE EXCEPTION 'the history of a filed form can never be deleted'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER forms_keep_announced_protests BEFORE DELETE ON forms FOR EACH ROW
    WHEN (OLD.kind = 'protest' AND ((OLD.fields::jsonb) ->> 'announced_at') IS NOT NULL)
    EXECUTE FUNCTION carrom_refuse('an announced protest can never be deleted or withdrawn');
CREATE TRIGGER forms_keep_filed BEFORE DELETE ON forms FOR EACH ROW
    WHEN (OLD.status <> 'draft')
    EXECUTE FUNCTION carrom_refuse('a filed form can never be deleted');
CREATE TRIGGER form_history_keep BEFORE DELETE ON form_history FOR EACH ROW
    EXECUTE FUNCTION carrom_keep_filed_history();
CREATE TRIGGER form_history_append_only BEFORE UPDATE OF form_id, field, old ON form_history FOR EACH ROW
    EXECUTE FUNCTION carrom_refuse('history rows are never rewritten');
CREATE TRIGGER inspections_never_rewritten BEFORE UPDATE ON inspections FOR EACH ROW
    EXECUTE FUNCTION carrom_refuse('an inspection record is never rewritten: re-inspect instead');
CREATE TRIGGER inspections_never_deleted BEFORE DELETE ON inspections FOR EACH ROW
    EXECUTE FUNCTION carrom_refuse('an inspection record is never deleted');
"""


def tables(dialect: str) -> str:
    script = TABLES
    for token, kind in TYPES[dialect].items():
        script = script.replace(token, kind)
    return script



def statements(script: str, complete=sqlite3.complete_statement):
    """The statements of a script, one by one (a trigger's or a function's body holds semicolons)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if complete(pending):
            yield pending.strip()
            pending = ""
    if pending.strip():
        yield pending.strip()


def _pg_complete(text: str) -> bool:
    # a function body is quoted with $$: a statement ends at a semicolon outside it
    return text.count("$$") % 2 == 0 and text.rstrip().endswith(";")


def _adopt_columns(conn) -> None:
    """Adds to the tables a file already has the columns of this schema it lacks (all have defaults),
    as the versions that kept the schema by hand did on opening a file of an older one."""
    model = sqlite3.connect(":memory:")
    try:
        model.executescript(tables("sqlite"))
        names = [r[0] for r in model.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name NOT LIKE 'sqlite_%'")]
        wanted = {t: model.execute(f'PRAGMA table_info("{t}")').fetchall() for t in names}
    finally:
        model.close()
    for table, columns in wanted.items():
        have = {r[1] for r in conn.exec_driver_sql(f'PRAGMA table_info("{table}")')}
        for _cid, name, kind, notnull, default, _pk in columns:
            if have and name not in have:
                if notnull and default is None:
                    raise ValueError(f"table {table} lacks its column {name}, which cannot be added")
                conn.exec_driver_sql(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {kind}'
                                     + (" NOT NULL" if notnull else "")
                                     + (f" DEFAULT {default}" if default is not None else ""))


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        _adopt_columns(conn)
        for statement in statements(tables("sqlite") + INDEXES + SQLITE):
            conn.exec_driver_sql(statement)
    else:
        for statement in statements(tables("postgresql") + INDEXES + POSTGRESQL, _pg_complete):
            conn.execute(sa.text(statement))


def downgrade() -> None:
    raise NotImplementedError("the records schema is never downgraded: a newer file is refused, not rewritten")
