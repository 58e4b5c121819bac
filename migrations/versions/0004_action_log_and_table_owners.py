"""Crash-safe tables: the action log (table_actions), node incarnations (cluster_nodes) and each live table's owner
and epoch (design.md, "Tables survive crashes", "Ownership and fencing").

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 10:00:00
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('cluster_nodes',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('host', sa.String(length=255), nullable=False),
    sa.Column('pid', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('heartbeat', sa.Float(), nullable=False),
    sa.Column('stopped', sa.Boolean(), nullable=False),
    sa.Column('key_fingerprint', sa.String(length=32), nullable=False),
    sa.Column('tables', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cluster_nodes'))
    )
    op.create_table('table_actions',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('action', sa.JSON(), nullable=False),
    sa.Column('source', sa.String(length=8), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('table_id', 'seq', name=op.f('pk_table_actions'))
    )
    op.create_table('table_seats',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('table_id', 'user_id', name=op.f('pk_table_seats'))
    )
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.create_index('ix_table_seats_user_id', ['user_id'], unique=False)
    with op.batch_alter_table('live_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owner', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('owner_epoch', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('log_seq', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('snapshot_seq', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('live_tables', schema=None) as batch_op:
        batch_op.drop_column('snapshot_seq')
        batch_op.drop_column('log_seq')
        batch_op.drop_column('owner_epoch')
        batch_op.drop_column('owner')
    op.drop_table('table_actions')
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_table_seats_user_id')
    op.drop_table('table_seats')
    op.drop_table('cluster_nodes')
