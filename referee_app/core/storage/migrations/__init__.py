"""The records schema's migrations (Alembic), run from the program itself: `upgrade(conn)` brings
a database from its stored revision to HEAD inside the caller's transaction.

HEAD and REVISIONS are written here so that opening a database at its head never imports Alembic
(start-up time); tests/core/storage/test_migrations.py keeps them equal to the scripts in `versions/`.
"""
from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

REVISIONS = ("0001", "0002", "0003", "0004", "0005")
HEAD = REVISIONS[-1]
FOLDER = Path(__file__).resolve().parent
# One lock number for every process migrating a PostgreSQL database: they take turns.
_PG_LOCK = 0x43526566


def current(conn) -> str | None:
    """The revision stored in the database, None when it has none (new, or kept by hand before)."""
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def user_tables(conn) -> list[str]:
    return [t for t in sa.inspect(conn).get_table_names() if t != "alembic_version"]


_script = None


def script():
    global _script
    if _script is None:
        from alembic.script import ScriptDirectory

        _script = ScriptDirectory(str(FOLDER))
    return _script


def upgrade(conn, target: str = "head") -> list[str]:
    """Applies the migrations after the stored revision, in the caller's transaction; returns them."""
    from alembic.runtime.environment import EnvironmentContext
    from alembic.config import Config

    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK})
    applied: list[str] = []

    def steps(rev, _context):
        found = script()._upgrade_revs(target, rev)
        applied.extend(step.revision.revision for step in found)
        return found

    config = Config()
    config.set_main_option("script_location", str(FOLDER))
    with EnvironmentContext(config, script(), fn=steps) as env:
        env.configure(connection=conn, transactional_ddl=False)
        env.run_migrations()
    return applied
