"""Ratings per game (docs/ratings.md): `ratings`, each person's current rating in each game, and `rating_history`,
how each rated game moved each of its players' ratings (recomputing from the game records must give them back).

Revision ID: 0007
Revises: 0006
Create Date: 2027-02-01 10:00:00
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('rating_history',
    sa.Column('record_id', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('mu_before', sa.Float(), nullable=False),
    sa.Column('sigma_before', sa.Float(), nullable=False),
    sa.Column('mu_after', sa.Float(), nullable=False),
    sa.Column('sigma_after', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['record_id'], ['game_records.id'], name=op.f('fk_rating_history_record_id_game_records'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_rating_history_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('record_id', 'user_id', name=op.f('pk_rating_history'))
    )
    with op.batch_alter_table('rating_history', schema=None) as batch_op:
        batch_op.create_index('ix_rating_history_user_id_game_finished_at', ['user_id', 'game', 'finished_at'], unique=False)

    op.create_table('ratings',
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_ratings_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'game', name=op.f('pk_ratings'))
    )


def downgrade() -> None:
    op.drop_table('ratings')
    with op.batch_alter_table('rating_history', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_history_user_id_game_finished_at')

    op.drop_table('rating_history')
