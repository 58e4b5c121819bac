"""Staked tables' coins (platform.md, "Staked table"; design.md, "Money"): stakes into the table's pot and refunds
out of it, each one ledger transfer with its own idempotency key.

- A stake is `stake:<table>:<user>:<ticket>` (the ticket numbers each time that player sat down at that forming
  table), its refund `refund:<table>:<user>:<ticket>`. A refund moves exactly what that stake moved, back to where
  it came from, and only if that stake exists: a refund can never pay out other players' coins, nor pay twice.
- The pot is paid out by TableStore.finish (key `pot:<table>:payout`), exactly once. A table that is cancelled,
  cannot be created or cannot be resumed refunds every stake still in its pot (`refund_table`).

Like every service, this one never commits: the caller's transaction does.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.ledger.service import LedgerService, PotBalance, Transfer
from app.tables import store as table_store

log = logging.getLogger(__name__)

STAKE = "stake:"
REFUND = "refund:"


def stake_key(table_id: str, user_id: int, ticket: int) -> str:
    return f"{STAKE}{table_id}:{user_id}:{ticket}"


# A stake's ledger reason names the game ("Pika staked table: stake"): a player's history reads it, and a stranded
# pot's refund, which has no table left to ask, reads the game back from it (`StakeLedger.staked_title`).
STAKE_REASON = " staked table: stake"


def refund_key(stake: str) -> str:
    """A stake's refund has the stake's key with `refund:` for `stake:` (`refund:<table>:<user>:<ticket>`)."""
    return REFUND + stake.removeprefix(STAKE)


@dataclass(frozen=True)
class Refund:
    stake_key: str
    amount: int


class StakeLedger:
    def __init__(self, ledger: LedgerService):
        self.ledger = ledger

    async def stake(self, session: AsyncSession, table_id: str, user_id: int, ticket: int, amount: int,
                    title: str) -> None:
        """The stake moves from the player's wallet into the pot. `insufficient_funds` if they lack the coins."""
        wallet = await self.ledger.wallet_id(session, user_id)
        pot = await self.ledger.pot_id(session, table_id)
        await self.ledger.transfer(session, wallet, pot, amount, key=stake_key(table_id, user_id, ticket),
                                   reason=title + STAKE_REASON)

    async def refund_ticket(self, session: AsyncSession, table_id: str, user_id: int, ticket: int,
                            title: str, why: str | None = None) -> Refund | None:
        """Give back one stake, if it was made (and only once). Returns what was refunded (None: no such stake).
        `why`, when given, goes into the ledger entry's reason (a cancelled table's cause, an operator's void)."""
        staked = await self.ledger.transfer_by_key(session, stake_key(table_id, user_id, ticket))
        return None if staked is None else await self._refund(session, staked, title, why)

    async def refund_table(self, session: AsyncSession, table_id: str, title: str, why: str | None = None
                           ) -> list[Refund]:
        """Every stake of this table not yet refunded goes back (a cancelled table, or one that cannot finish);
        `why` goes into each refund's reason in the ledger."""
        pot = await self.ledger.pot_id(session, table_id)
        moved = await self.ledger.transfers_of(session, pot)
        done = {transfer.key for transfer in moved}
        return [await self._refund(session, staked, title, why) for staked in moved
                if staked.target_id == pot and staked.key.startswith(f"{STAKE}{table_id}:")
                and refund_key(staked.key) not in done]

    async def _refund(self, session: AsyncSession, staked: Transfer, title: str, why: str | None = None) -> Refund:
        """Exactly what the stake moved goes back where it came from, under the refund's own key (once)."""
        reason = f"{title}{STAKE_REASON} refunded" + (f" ({why})" if why else "")
        await self.ledger.transfer(session, staked.target_id, staked.source_id, staked.amount,
                                   key=refund_key(staked.key), reason=reason if len(reason) <= 200 else reason[:199] + "…")
        return Refund(staked.key, staked.amount)

    async def staked_title(self, session: AsyncSession, table_id: str) -> str:
        """The title of the game this table's pot was staked on, read from its stakes' ledger reasons: a stranded
        pot has no table, record or queue left to say."""
        page = await self.ledger.history(session, await self.ledger.pot_id(session, table_id), limit=20)
        for entry in page.items:
            title, staked, _ = entry.reason.partition(STAKE_REASON)
            if staked and title:
                return title
        return "Unknown game"  # never seen: coins reach a pot only through a stake

    async def pot_balance(self, session: AsyncSession, table_id: str) -> int:
        return await self.ledger.pot_balance(session, table_id)

    async def pots_holding_coins(self, session: AsyncSession) -> list[PotBalance]:
        """Pots with coins in them, with when they last moved (normally: forming or live staked tables)."""
        return await self.ledger.pots_holding_coins(session)

    async def table_started(self, session: AsyncSession, table_id: str) -> bool:
        """The table was created (it has a live snapshot) or has finished (it has a record)."""
        return await table_store.table_exists(session, table_id)

    async def mark_cancelled(self, session: AsyncSession, table_id: str, now: datetime) -> None:
        """A live table's snapshot that will never be played on: not resumed again after a restart."""
        await table_store.cancel_unplayed(session, table_id, now)
