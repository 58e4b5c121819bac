"""Live table snapshots, finished game records (with each player's part), friends rooms and invitations.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 15:09:34.978932
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('game_records',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('mode', sa.String(length=16), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('seed', sa.String(length=128), nullable=False),
    sa.Column('action_log', sa.JSON(), nullable=False),
    sa.Column('placings', sa.JSON(), nullable=False),
    sa.Column('scores', sa.JSON(), nullable=True),
    sa.Column('rewards', sa.JSON(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_records'))
    )
    op.create_table('live_tables',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('mode', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('table', sa.JSON(), nullable=False),
    sa.Column('seed', sa.String(length=128), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_live_tables'))
    )
    with op.batch_alter_table('live_tables', schema=None) as batch_op:
        batch_op.create_index('ix_live_tables_status', ['status'], unique=False)

    op.create_table('game_record_players',
    sa.Column('record_id', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('placing', sa.Integer(), nullable=False),
    sa.Column('left', sa.Boolean(), nullable=False),
    sa.Column('coins', sa.Integer(), nullable=False),
    sa.Column('xp', sa.Integer(), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['record_id'], ['game_records.id'], name=op.f('fk_game_record_players_record_id_game_records'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_game_record_players_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('record_id', 'user_id', name=op.f('pk_game_record_players'))
    )
    with op.batch_alter_table('game_record_players', schema=None) as batch_op:
        batch_op.create_index('ix_game_record_players_user_id_finished_at', ['user_id', 'finished_at'], unique=False)

    op.create_table('rooms',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('host_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('turn_seconds', sa.Float(), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['host_id'], ['users.id'], name=op.f('fk_rooms_host_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rooms'))
    )
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rooms_host_id'), ['host_id'], unique=False)

    op.create_table('room_invitations',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('room_id', sa.String(length=32), nullable=False),
    sa.Column('from_user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('to_user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('responded_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['from_user_id'], ['users.id'], name=op.f('fk_room_invitations_from_user_id_users'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['room_id'], ['rooms.id'], name=op.f('fk_room_invitations_room_id_rooms'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['to_user_id'], ['users.id'], name=op.f('fk_room_invitations_to_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_room_invitations')),
    sa.UniqueConstraint('room_id', 'to_user_id', name=op.f('uq_room_invitations_room_id_to_user_id'))
    )
    with op.batch_alter_table('room_invitations', schema=None) as batch_op:
        batch_op.create_index('ix_room_invitations_to_user_id_status', ['to_user_id', 'status'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('room_invitations', schema=None) as batch_op:
        batch_op.drop_index('ix_room_invitations_to_user_id_status')

    op.drop_table('room_invitations')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rooms_host_id'))

    op.drop_table('rooms')
    with op.batch_alter_table('game_record_players', schema=None) as batch_op:
        batch_op.drop_index('ix_game_record_players_user_id_finished_at')

    op.drop_table('game_record_players')
    with op.batch_alter_table('live_tables', schema=None) as batch_op:
        batch_op.drop_index('ix_live_tables_status')

    op.drop_table('live_tables')
    op.drop_table('game_records')
