"""Tables that keep scoring offline, at a constant cost per stroke (issue 31).

`strokes.client_id`: the id the machine that entered a stroke gave it (a UUID), unique, so that
a stroke sent twice (a table's outbox sending again after it was cut off mid-send) is stored once.
NULL for strokes entered before, and for writers that give none.

`strokes.state`: the match as it stands after the stroke (core/play/match.py `Match.snapshot`),
so that ruling the next stroke reads one row instead of replaying the whole sheet. NULL where
it was not written (strokes entered before, corrections): the sheet is then replayed once.

An index of tournament_games by match: a stroke checks that its sheet is not closed (its game's
result entered) without reading the whole tournament.

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    # plain ALTER TABLE on both engines: a batch (copy) of a table would fire its triggers
    conn.execute(sa.text("ALTER TABLE strokes ADD COLUMN client_id TEXT"))
    conn.execute(sa.text("ALTER TABLE strokes ADD COLUMN state TEXT"))
    # several NULLs are allowed by a unique index on both engines: only given ids must differ
    conn.execute(sa.text("CREATE UNIQUE INDEX strokes_by_client_id ON strokes (client_id)"))
    conn.execute(sa.text("CREATE INDEX tournament_games_by_match ON tournament_games (match_id)"))


def downgrade() -> None:
    raise NotImplementedError("the records schema is never downgraded: a newer file is refused, not rewritten")
