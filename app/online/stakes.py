"""Staked tables' coins (platform.md, "Staked table"; design.md, "Money"): stakes into the table's pot and refunds
out of it, each one ledger transfer with its own idempotency key.

- A stake is `stake:<table>:<user>:<ticket>` (the ticket numbers each time that player sat down at that forming
  table), its refund `refund:<table>:<user>:<ticket>`. A refund moves exactly what that stake moved, and only if
  that stake exists: a refund can never pay out other players' coins, nor pay twice.
- The pot is paid out by TableStore.finish (key `pot:<table>:payout`), exactly once. A table that is cancelled,
  cannot be created or cannot be resumed refunds every stake still in its pot (`refund_table`).

Like every service, this one never commits: the caller's transaction does.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.ledger import repository as ledger_repo
from app.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction
from app.ledger.service import LedgerService, pot_account_name
from app.tables.models import GameRecord, LiveTable

log = logging.getLogger(__name__)


def stake_key(table_id: str, user_id: int, ticket: int) -> str:
    return f"stake:{table_id}:{user_id}:{ticket}"


def refund_key(table_id: str, user_id: int, ticket: int) -> str:
    return f"refund:{table_id}:{user_id}:{ticket}"


@dataclass(frozen=True)
class Refund:
    user_id: int
    ticket: int
    amount: int


@dataclass(frozen=True)
class PotState:
    table_id: str
    balance: int
    last_moved_at: datetime | None


class StakeLedger:
    def __init__(self, ledger: LedgerService):
        self.ledger = ledger

    async def stake(self, session: AsyncSession, table_id: str, user_id: int, ticket: int, amount: int,
                    title: str) -> None:
        """The stake moves from the player's wallet into the pot. `insufficient_funds` if they lack the coins."""
        wallet = await self.ledger.wallet_id(session, user_id)
        pot = await self.ledger.pot_id(session, table_id)
        await self.ledger.transfer(session, wallet, pot, amount, key=stake_key(table_id, user_id, ticket),
                                   reason=f"{title} staked table: stake")

    async def refund_ticket(self, session: AsyncSession, table_id: str, user_id: int, ticket: int,
                            title: str, why: str | None = None) -> Refund | None:
        """Give back one stake, if it was made (and only once). Returns what was refunded (None: no such stake).
        `why`, when given, goes into the ledger entry's reason (a cancelled table's cause, an operator's void)."""
        staked = await ledger_repo.transaction_by_key(session, stake_key(table_id, user_id, ticket))
        if staked is None:
            return None
        pot = await self.ledger.pot_id(session, table_id)
        amount = sum(entry.delta for entry in await ledger_repo.entries_of(session, staked.id)
                     if entry.account_id == pot)
        wallet = await self.ledger.wallet_id(session, user_id)
        reason = f"{title} staked table: stake refunded" + (f" ({why})" if why else "")
        await self.ledger.transfer(session, pot, wallet, amount, key=refund_key(table_id, user_id, ticket),
                                   reason=reason if len(reason) <= 200 else reason[:199] + "…")
        return Refund(user_id, ticket, amount)

    async def refund_table(self, session: AsyncSession, table_id: str, title: str, why: str | None = None
                           ) -> list[Refund]:
        """Every stake of this table not yet refunded goes back (a cancelled table, or one that cannot finish);
        `why` goes into each refund's reason in the ledger."""
        pot = await self.ledger.pot_id(session, table_id)
        rows = (await session.execute(
            select(LedgerTransaction.key).join(LedgerEntry, LedgerEntry.transaction_id == LedgerTransaction.id)
            .where(LedgerEntry.account_id == pot))).scalars().all()
        keys = set(rows)
        refunds = []
        for key in sorted(keys):
            if not key.startswith(f"stake:{table_id}:"):
                continue
            _, _, user, ticket = key.split(":")
            if refund_key(table_id, int(user), int(ticket)) in keys:
                continue
            refund = await self.refund_ticket(session, table_id, int(user), int(ticket), title, why)
            if refund is not None:
                refunds.append(refund)
        return refunds

    async def pot_balance(self, session: AsyncSession, table_id: str) -> int:
        account_id = await ledger_repo.account_id_by_name(session, pot_account_name(table_id))
        if account_id is None:
            return 0
        return int(await ledger_repo.balance(session, account_id) or 0)

    async def pots_holding_coins(self, session: AsyncSession) -> list[PotState]:
        """Pots with coins in them, with when they last moved (normally: forming or live staked tables)."""
        last_moved = (select(func.max(LedgerEntry.created_at)).where(LedgerEntry.account_id == LedgerAccount.id)
                      .scalar_subquery())
        rows = await session.execute(select(LedgerAccount.name, LedgerAccount.balance, last_moved)
                                     .where(LedgerAccount.kind == "pot", LedgerAccount.balance > 0))
        return [PotState(name.removeprefix("pot:"), int(balance), moved) for name, balance, moved in rows.all()]

    async def table_started(self, session: AsyncSession, table_id: str) -> bool:
        """The table was created (it has a live snapshot) or has finished (it has a record)."""
        return (await session.get(LiveTable, table_id) is not None
                or await session.get(GameRecord, table_id) is not None)

    async def mark_cancelled(self, session: AsyncSession, table_id: str, now: datetime) -> None:
        """A live table's snapshot that will never be played on: not resumed again after a restart."""
        await session.execute(update(LiveTable).where(LiveTable.id == table_id, LiveTable.status == "playing")
                              .values(status="cancelled", updated_at=now))
