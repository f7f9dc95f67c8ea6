"""Several machines on one database: a version on each record two machines may edit, and strokes
kept by the database itself.

`version` (from 1) on matches (header, singles or doubles, ruleset), forms, tournament_games
(results) and inspections: a writer gives the version it read, and a mismatch is refused instead
of overwriting. A stroke row is never rewritten nor deleted: only its `superseded_at`, once, by
an undo or a correction.

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

VERSIONED = ("matches", "forms", "tournament_games", "inspections")

SQLITE = (
    """CREATE TRIGGER strokes_never_rewritten BEFORE UPDATE ON strokes
    WHEN NEW.match_id IS NOT OLD.match_id OR NEW.seq IS NOT OLD.seq OR NEW.stroke IS NOT OLD.stroke
        OR NEW.ruling IS NOT OLD.ruling OR NEW.entered_at IS NOT OLD.entered_at OR NEW.id IS NOT OLD.id
        OR OLD.superseded_at IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'a stroke is never rewritten: undo or correct it'); END""",
    """CREATE TRIGGER strokes_never_deleted BEFORE DELETE ON strokes
    BEGIN SELECT RAISE(ABORT, 'a stroke is never deleted: undo or correct it'); END""",
    "PRAGMA user_version = 2",
)

POSTGRESQL = (
    """CREATE FUNCTION carrom_keep_stroke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.match_id IS DISTINCT FROM OLD.match_id
            OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.stroke IS DISTINCT FROM OLD.stroke
            OR NEW.ruling IS DISTINCT FROM OLD.ruling OR NEW.entered_at IS DISTINCT FROM OLD.entered_at
            OR OLD.superseded_at IS NOT NULL THEN
        RAISE EXCEPTION 'a stroke is never rewritten: undo or correct it'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$""",
    """CREATE TRIGGER strokes_never_rewritten BEFORE UPDATE ON strokes FOR EACH ROW
    EXECUTE FUNCTION carrom_keep_stroke()""",
    """CREATE TRIGGER strokes_never_deleted BEFORE DELETE ON strokes FOR EACH ROW
    EXECUTE FUNCTION carrom_refuse('a stroke is never deleted: undo or correct it')""",
)


def upgrade() -> None:
    conn = op.get_bind()
    for table in VERSIONED:
        # plain ALTER TABLE on both engines: a batch (copy) of a table would fire its triggers
        conn.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN version INTEGER NOT NULL DEFAULT 1"))
    for statement in SQLITE if conn.dialect.name == "sqlite" else POSTGRESQL:
        conn.execute(sa.text(statement))


def downgrade() -> None:
    raise NotImplementedError("the records schema is never downgraded: a newer file is refused, not rewritten")
