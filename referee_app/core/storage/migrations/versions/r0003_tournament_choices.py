"""The organiser's choices of a tournament (issue 34): `choices`, a JSON mapping on the
tournament's row holding the contract's keys (rounds_total, ghost_points, absent,
avoid_rematches) and `changes`, each change made at the desk with its reason and time. NULL is
the FFC text, as every tournament stored before.

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().execute(sa.text("ALTER TABLE tournaments ADD COLUMN choices TEXT"))


def downgrade() -> None:
    raise NotImplementedError("the records schema is never downgraded: a newer file is refused, not rewritten")
