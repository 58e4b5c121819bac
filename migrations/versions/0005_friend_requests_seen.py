"""Live social notices: when the recipient saw a friend request (`friend_requests.seen_at`), so the Friends badge
counts only the requests they have not looked at yet, across reloads and devices.

Revision ID: 0005
Revises: 0004
Create Date: 2027-01-10 10:00:00
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('friend_requests', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seen_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('friend_requests', schema=None) as batch_op:
        batch_op.drop_column('seen_at')
