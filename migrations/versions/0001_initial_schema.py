"""Initial schema: users and sessions, friends and blocks, the coin ledger.

Revision ID: 0001
Revises:
Create Date: 2026-01-05
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# 64-bit ids on Postgres; INTEGER PRIMARY KEY (the rowid, 64-bit) on SQLite, the only kind that autoincrements.
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table('ledger_transactions',
    sa.Column('id', ID, nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_transactions')),
    sa.UniqueConstraint('key', name=op.f('uq_ledger_transactions_key'))
    )
    op.create_table('users',
    sa.Column('id', ID, nullable=False),
    sa.Column('username', sa.String(length=20), nullable=False),
    sa.Column('username_key', sa.String(length=20), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('xp', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_users')),
    sa.UniqueConstraint('username_key', name=op.f('uq_users_username_key'))
    )
    op.create_table('auth_sessions',
    sa.Column('id', ID, nullable=False),
    sa.Column('user_id', ID, nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_auth_sessions_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_sessions')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_auth_sessions_token_hash'))
    )
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_sessions_user_id'), ['user_id'], unique=False)

    op.create_table('blocks',
    sa.Column('id', ID, nullable=False),
    sa.Column('blocker_id', ID, nullable=False),
    sa.Column('blocked_id', ID, nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('blocker_id <> blocked_id', name=op.f('ck_blocks_not_self')),
    sa.ForeignKeyConstraint(['blocked_id'], ['users.id'], name=op.f('fk_blocks_blocked_id_users'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['blocker_id'], ['users.id'], name=op.f('fk_blocks_blocker_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_blocks')),
    sa.UniqueConstraint('blocker_id', 'blocked_id', name=op.f('uq_blocks_blocker_id_blocked_id'))
    )
    with op.batch_alter_table('blocks', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_blocks_blocked_id'), ['blocked_id'], unique=False)

    op.create_table('friend_requests',
    sa.Column('id', ID, nullable=False),
    sa.Column('sender_id', ID, nullable=False),
    sa.Column('recipient_id', ID, nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('sender_id <> recipient_id', name=op.f('ck_friend_requests_not_to_self')),
    sa.ForeignKeyConstraint(['recipient_id'], ['users.id'], name=op.f('fk_friend_requests_recipient_id_users'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['sender_id'], ['users.id'], name=op.f('fk_friend_requests_sender_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_friend_requests')),
    sa.UniqueConstraint('sender_id', 'recipient_id', name=op.f('uq_friend_requests_sender_id_recipient_id'))
    )
    with op.batch_alter_table('friend_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_friend_requests_recipient_id'), ['recipient_id'], unique=False)

    op.create_table('friendships',
    sa.Column('id', ID, nullable=False),
    sa.Column('user_low_id', ID, nullable=False),
    sa.Column('user_high_id', ID, nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('user_low_id < user_high_id', name=op.f('ck_friendships_ordered_pair')),
    sa.ForeignKeyConstraint(['user_high_id'], ['users.id'], name=op.f('fk_friendships_user_high_id_users'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_low_id'], ['users.id'], name=op.f('fk_friendships_user_low_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_friendships')),
    sa.UniqueConstraint('user_low_id', 'user_high_id', name=op.f('uq_friendships_user_low_id_user_high_id'))
    )
    with op.batch_alter_table('friendships', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_friendships_user_high_id'), ['user_high_id'], unique=False)

    op.create_table('ledger_accounts',
    sa.Column('id', ID, nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('user_id', ID, nullable=True),
    sa.Column('balance', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('user', 'pot')", name=op.f('ck_ledger_accounts_kind_known')),
    sa.CheckConstraint('balance >= 0', name=op.f('ck_ledger_accounts_balance_not_negative')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_ledger_accounts_user_id_users'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_accounts')),
    sa.UniqueConstraint('name', name=op.f('uq_ledger_accounts_name')),
    sa.UniqueConstraint('user_id', name=op.f('uq_ledger_accounts_user_id'))
    )
    op.create_table('ledger_entries',
    sa.Column('id', ID, nullable=False),
    sa.Column('transaction_id', ID, nullable=False),
    sa.Column('account_id', ID, nullable=False),
    sa.Column('delta', sa.BigInteger(), nullable=False),
    sa.Column('balance_after', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('balance_after >= 0', name=op.f('ck_ledger_entries_balance_after_not_negative')),
    sa.CheckConstraint('delta <> 0', name=op.f('ck_ledger_entries_delta_not_zero')),
    sa.ForeignKeyConstraint(['account_id'], ['ledger_accounts.id'], name=op.f('fk_ledger_entries_account_id_ledger_accounts'), ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['transaction_id'], ['ledger_transactions.id'], name=op.f('fk_ledger_entries_transaction_id_ledger_transactions'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_entries'))
    )
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.create_index('ix_ledger_entries_account_id_id', ['account_id', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_entries_transaction_id'), ['transaction_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_entries_transaction_id'))
        batch_op.drop_index('ix_ledger_entries_account_id_id')

    op.drop_table('ledger_entries')
    op.drop_table('ledger_accounts')
    with op.batch_alter_table('friendships', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_friendships_user_high_id'))

    op.drop_table('friendships')
    with op.batch_alter_table('friend_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_friend_requests_recipient_id'))

    op.drop_table('friend_requests')
    with op.batch_alter_table('blocks', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_blocks_blocked_id'))

    op.drop_table('blocks')
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_sessions_user_id'))

    op.drop_table('auth_sessions')
    op.drop_table('users')
    op.drop_table('ledger_transactions')
