"""Every ledger query. Plain Core statements: balances change only through `apply_delta` (a conditional update for
debits), called only by `LedgerService.post`. The statements of a post are built once, with bound parameters: building
a statement (and its cache key) costs several times what executing it does."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import insert_ignoring_conflicts
from app.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction

accounts = LedgerAccount.__table__
transactions = LedgerTransaction.__table__
entries = LedgerEntry.__table__

_ACCOUNT_ID_BY_USER = select(accounts.c.id).where(accounts.c.user_id == bindparam("user_id"))
_BALANCE = select(accounts.c.balance).where(accounts.c.id == bindparam("account_id"))
_INSERT_TRANSACTION = insert(transactions).returning(transactions.c.id)
_CREDIT = (update(accounts).where(accounts.c.id == bindparam("account_id"))
           .values(balance=accounts.c.balance + bindparam("delta")).returning(accounts.c.balance))
# A debit only where the balance covers it: `... WHERE balance >= :needed`.
_DEBIT = (update(accounts).where(accounts.c.id == bindparam("account_id"), accounts.c.balance >= bindparam("needed"))
          .values(balance=accounts.c.balance - bindparam("needed")).returning(accounts.c.balance))
_INSERT_ENTRIES = insert(entries)


async def account(session: AsyncSession, account_id: int) -> LedgerAccount | None:
    return (await session.execute(select(LedgerAccount).where(LedgerAccount.id == account_id))).scalar_one_or_none()


async def account_id_by_name(session: AsyncSession, name: str) -> int | None:
    return (await session.execute(select(accounts.c.id).where(accounts.c.name == name))).scalar_one_or_none()


async def account_id_by_user(session: AsyncSession, user_id: int) -> int | None:
    return (await session.execute(_ACCOUNT_ID_BY_USER, {"user_id": user_id})).scalar_one_or_none()


async def ensure_account(session: AsyncSession, *, name: str, kind: str, user_id: int | None, now: datetime) -> int:
    """The account called `name`, created with a zero balance if missing (safe against a concurrent create)."""
    await session.execute(insert_ignoring_conflicts(session, accounts),
                          {"name": name, "kind": kind, "user_id": user_id, "balance": 0, "created_at": now})
    account_id = await account_id_by_name(session, name)
    assert account_id is not None
    return account_id


async def balance(session: AsyncSession, account_id: int) -> int | None:
    return (await session.execute(_BALANCE, {"account_id": account_id})).scalar_one_or_none()


async def transaction_by_key(session: AsyncSession, key: str) -> LedgerTransaction | None:
    return (await session.execute(select(LedgerTransaction).where(LedgerTransaction.key == key))).scalar_one_or_none()


async def entries_of(session: AsyncSession, transaction_id: int) -> list[LedgerEntry]:
    result = await session.execute(select(LedgerEntry).where(LedgerEntry.transaction_id == transaction_id)
                                   .order_by(LedgerEntry.account_id))
    return list(result.scalars())


async def transfers(session: AsyncSession, *, key: str | None = None, account_id: int | None = None,
                    key_prefix: str = "") -> list[tuple[str, int, int, int]]:
    """(key, source account, target account, amount) of the transactions that moved coins from one account to
    another: the one posted under `key`, or those touching `account_id` whose key starts with `key_prefix`; in the
    order they were posted."""
    source, target = entries.alias("source"), entries.alias("target")
    statement = (select(transactions.c.key, source.c.account_id, target.c.account_id, target.c.delta)
                 .join(source, (source.c.transaction_id == transactions.c.id) & (source.c.delta < 0))
                 .join(target, (target.c.transaction_id == transactions.c.id) & (target.c.delta > 0))
                 .order_by(transactions.c.id, target.c.account_id))
    if key is not None:
        statement = statement.where(transactions.c.key == key)
    if account_id is not None:
        statement = statement.where((source.c.account_id == account_id) | (target.c.account_id == account_id))
    if key_prefix:
        statement = statement.where(transactions.c.key.startswith(key_prefix, autoescape=True))
    return [(row[0], row[1], row[2], row[3]) for row in (await session.execute(statement)).all()]


async def accounts_holding_coins(session: AsyncSession, kind: str) -> list[tuple[str, int, datetime | None]]:
    """(name, balance, when its last entry was made) of the accounts of this kind whose balance is above zero."""
    last_moved = (select(func.max(entries.c.created_at)).where(entries.c.account_id == accounts.c.id)
                  .scalar_subquery())
    rows = await session.execute(select(accounts.c.name, accounts.c.balance, last_moved)
                                 .where(accounts.c.kind == kind, accounts.c.balance > 0))
    return [(name, int(balance), moved) for name, balance, moved in rows.all()]


async def insert_transaction(session: AsyncSession, *, key: str, reason: str, now: datetime) -> int:
    result = await session.execute(_INSERT_TRANSACTION, {"key": key, "reason": reason, "created_at": now})
    return int(result.scalar_one())


async def apply_delta(session: AsyncSession, account_id: int, delta: int) -> int | None:
    """Add `delta` to the balance and return the new balance; None if the account is missing or, for a debit, if
    it holds less than the debit (`... WHERE balance >= :n`: correct under concurrency on Postgres and SQLite)."""
    if delta < 0:
        result = await session.execute(_DEBIT, {"account_id": account_id, "needed": -delta})
    else:
        result = await session.execute(_CREDIT, {"account_id": account_id, "delta": delta})
    return result.scalar_one_or_none()


async def insert_entries(session: AsyncSession, rows: Sequence[dict[str, object]]) -> None:
    await session.execute(_INSERT_ENTRIES, list(rows))


async def history(session: AsyncSession, account_id: int, *, before: int | None, limit: int
                  ) -> list[tuple[LedgerEntry, str]]:
    statement = (select(LedgerEntry, LedgerTransaction.reason)
                 .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
                 .where(LedgerEntry.account_id == account_id)
                 .order_by(LedgerEntry.id.desc()).limit(limit))
    if before is not None:
        statement = statement.where(LedgerEntry.id < before)
    return [(row[0], row[1]) for row in (await session.execute(statement)).all()]


async def totals(session: AsyncSession) -> tuple[int, int, int]:
    """(sum of balances, sum of entries, lowest balance) over the whole ledger."""
    balances = (await session.execute(select(func.coalesce(func.sum(accounts.c.balance), 0)))).scalar_one()
    lowest = (await session.execute(select(func.coalesce(func.min(accounts.c.balance), 0)))).scalar_one()
    deltas = (await session.execute(select(func.coalesce(func.sum(entries.c.delta), 0)))).scalar_one()
    return int(balances), int(deltas), int(lowest)
