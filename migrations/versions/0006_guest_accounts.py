"""Guest play: `users.guest` marks an account made by "Play now" on the front page (no password, no coins) until it
signs up; the index serves the clean-up of guests older than GUEST_TTL_DAYS.

Revision ID: 0006
Revises: 0005
Create Date: 2027-01-20 10:00:00
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('guest', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.create_index('ix_users_guest_created_at', ['guest', 'created_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_index('ix_users_guest_created_at')
        batch_op.drop_column('guest')
