"""Online play: boosts (gold boosters, VIP passes), weekly league standings and closed league weeks.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 15:32:17.368039
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('league_weeks',
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('week', sa.Date(), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('prizes', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('game', 'week', name=op.f('pk_league_weeks'))
    )
    op.create_table('boosts',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('booster', 'vip')", name=op.f('ck_boosts_kind_known')),
    sa.CheckConstraint("source IN ('shop', 'grant')", name=op.f('ck_boosts_source_known')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_boosts_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_boosts')),
    sa.UniqueConstraint('key', name=op.f('uq_boosts_key'))
    )
    with op.batch_alter_table('boosts', schema=None) as batch_op:
        batch_op.create_index('ix_boosts_user_id_ends_at', ['user_id', 'ends_at'], unique=False)

    op.create_table('league_standings',
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('week', sa.Date(), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_league_standings_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game', 'week', 'user_id', name=op.f('pk_league_standings'))
    )
    with op.batch_alter_table('league_standings', schema=None) as batch_op:
        batch_op.create_index('ix_league_standings_game_week_points', ['game', 'week', 'points'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('league_standings', schema=None) as batch_op:
        batch_op.drop_index('ix_league_standings_game_week_points')

    op.drop_table('league_standings')
    with op.batch_alter_table('boosts', schema=None) as batch_op:
        batch_op.drop_index('ix_boosts_user_id_ends_at')

    op.drop_table('boosts')
    op.drop_table('league_weeks')
