"""Moderation: `users.banned_at` and `users.ban_reason` (`tablestakes ban` / `unban`): a banned account cannot log in.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 16:00:00
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('banned_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('ban_reason', sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('ban_reason')
        batch_op.drop_column('banned_at')
