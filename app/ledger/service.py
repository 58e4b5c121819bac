"""The coin ledger (design.md, "Money"). One posting function, `LedgerService.post`; everything else calls it.

- A posting is `(account_id, delta)`. One `post` is one ledger transaction: one entry per posting, every balance
  updated, all or nothing (inside a SAVEPOINT, so a refused post leaves the caller's transaction usable).
- Debits are conditional updates (`balance = balance - n WHERE balance >= n`): no balance ever goes below zero, and
  an overdraft writes nothing. Accounts are updated in ascending id order, so concurrent posts cannot deadlock.
- Every post has an idempotency key (unique in the database). Repeating a key returns the first result and changes
  nothing; repeating it with different postings is an error.
- Posts need not balance: the welcome coins, prizes and operator grants are credits with no counterpart, a shop
  purchase a debit with none. They are entries all the same, so sum(balances) == sum(entries) always.
  `transfer` and `settle` (coins moving between accounts, a pot paying out) must balance.

Like every service, this one never commits: the caller's unit of work (the request, the table actor) does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import metrics
from app.core.clock import Clock
from app.core.errors import AppError, Conflict, NotFound
from app.ledger import repository as repo


class InsufficientFunds(Conflict):
    code = "insufficient_funds"
    message = "Not enough coins."


class IdempotencyKeyReused(Conflict):
    code = "idempotency_key_reused"
    message = "This idempotency key was already used for different postings."


class UnknownAccount(NotFound):
    code = "unknown_account"
    message = "No such ledger account."


class InvalidPostings(AppError):
    status = 400
    code = "invalid_postings"
    message = "These postings cannot be made."


@dataclass(frozen=True)
class Entry:
    account_id: int
    delta: int
    balance_after: int


@dataclass(frozen=True)
class Posted:
    """The outcome of a post; `replayed` is True when the key had already been posted (nothing changed this time)."""

    transaction_id: int
    key: str
    reason: str
    created_at: datetime
    entries: tuple[Entry, ...]
    replayed: bool = False


@dataclass(frozen=True)
class HistoryItem:
    id: int
    delta: int
    balance_after: int
    reason: str
    created_at: datetime


@dataclass(frozen=True)
class HistoryPage:
    items: list[HistoryItem]
    next_cursor: int | None  # pass as `before` for the next (older) page


@dataclass(frozen=True)
class Totals:
    balances: int
    entries: int
    lowest_balance: int

    @property
    def consistent(self) -> bool:
        return self.balances == self.entries and self.lowest_balance >= 0


@dataclass(frozen=True)
class Transfer:
    """Coins one transaction moved from one account to another (a stake into a pot, a refund out of it)."""

    key: str
    source_id: int
    target_id: int
    amount: int


@dataclass(frozen=True)
class PotBalance:
    """A staked table's pot that holds coins, and when they last moved."""

    table_id: str
    balance: int
    last_moved_at: datetime | None


def user_account_name(user_id: int) -> str:
    return f"user:{user_id}"


POT_PREFIX = "pot:"


def pot_account_name(table_id: str) -> str:
    return f"{POT_PREFIX}{table_id}"


class LedgerService:
    def __init__(self, clock: Clock):
        self.clock = clock

    # --- the one posting function -----------------------------------------------------------------------------

    async def post(self, session: AsyncSession, key: str, reason: str,
                   postings: Iterable[tuple[int, int]]) -> Posted:
        wanted = _checked(key, reason, postings)
        now = self.clock.now()
        try:
            async with session.begin_nested():
                # The key first: a repeated key fails here (unique), before any balance moves, and is answered as
                # a replay; the common first post pays no look-up for it.
                transaction_id = await repo.insert_transaction(session, key=key, reason=reason, now=now)
                entries: list[Entry] = []
                for account_id, delta in wanted:  # ascending account id: the lock order
                    balance_after = await repo.apply_delta(session, account_id, delta)
                    if balance_after is None:
                        raise await self._refusal(session, account_id, delta)
                    entries.append(Entry(account_id, delta, balance_after))
                await repo.insert_entries(session, [
                    {"transaction_id": transaction_id, "account_id": e.account_id, "delta": e.delta,
                     "balance_after": e.balance_after, "created_at": now} for e in entries])
        except IntegrityError:
            # The key was posted before (a retry), or by a transaction that committed it meanwhile: a replay.
            existing = await repo.transaction_by_key(session, key)
            if existing is None:
                raise
            return await self._replay(session, existing, wanted)
        credited = sum(delta for _, delta in wanted if delta > 0)
        metrics.count_ledger_post(key, max(credited, credited - sum(delta for _, delta in wanted)))
        return Posted(transaction_id, key, reason, now, tuple(entries))

    # --- what the other layers call -----------------------------------------------------------------------

    async def credit(self, session: AsyncSession, account_id: int, amount: int, *, key: str, reason: str) -> Posted:
        """Coins from outside the ledger: the welcome coins, a prize, an operator grant."""
        return await self.post(session, key, reason, [(account_id, _positive(amount))])

    async def debit(self, session: AsyncSession, account_id: int, amount: int, *, key: str, reason: str) -> Posted:
        """Coins leaving the ledger: a shop purchase. Refused with `insufficient_funds` if the balance is short."""
        return await self.post(session, key, reason, [(account_id, -_positive(amount))])

    async def transfer(self, session: AsyncSession, source_id: int, target_id: int, amount: int, *, key: str,
                       reason: str) -> Posted:
        """Coins from one account to another (a stake into a pot, a refund out of it)."""
        if source_id == target_id:
            raise InvalidPostings("A transfer needs two different accounts.")
        amount = _positive(amount)
        return await self.post(session, key, reason, [(source_id, -amount), (target_id, amount)])

    async def settle(self, session: AsyncSession, key: str, reason: str,
                     postings: Iterable[tuple[int, int]]) -> Posted:
        """Several postings that must balance to zero, in one transaction (a pot paid out to its winners)."""
        postings = list(postings)
        if sum(delta for _, delta in postings) != 0:
            raise InvalidPostings("A settlement must balance: its postings add up to zero.")
        return await self.post(session, key, reason, postings)

    async def open_wallet(self, session: AsyncSession, user_id: int) -> int:
        return await repo.ensure_account(session, name=user_account_name(user_id), kind="user", user_id=user_id,
                                         now=self.clock.now())

    async def wallet_id(self, session: AsyncSession, user_id: int) -> int:
        account_id = await repo.account_id_by_user(session, user_id)
        if account_id is None:
            raise UnknownAccount("This user has no wallet.")
        return account_id

    async def pot_id(self, session: AsyncSession, table_id: str) -> int:
        """The pot of a staked table, created (empty) on first use."""
        return await repo.ensure_account(session, name=pot_account_name(table_id), kind="pot", user_id=None,
                                         now=self.clock.now())

    async def balance(self, session: AsyncSession, account_id: int) -> int:
        value = await repo.balance(session, account_id)
        if value is None:
            raise UnknownAccount()
        return value

    async def transfer_by_key(self, session: AsyncSession, key: str) -> Transfer | None:
        """The transfer posted under `key`; None if nothing was (or it was not one account paying another)."""
        rows = await repo.transfers(session, key=key)
        return Transfer(*rows[0]) if len(rows) == 1 else None

    async def transfers_of(self, session: AsyncSession, account_id: int, *, key_prefix: str = "") -> list[Transfer]:
        """The transfers into or out of an account (those whose keys start with `key_prefix`), in the order
        posted."""
        return [Transfer(*row) for row in await repo.transfers(session, account_id=account_id,
                                                               key_prefix=key_prefix)]

    async def pot_balance(self, session: AsyncSession, table_id: str) -> int:
        """What a table's pot holds (0 when it has none)."""
        account_id = await repo.account_id_by_name(session, pot_account_name(table_id))
        return 0 if account_id is None else int(await repo.balance(session, account_id) or 0)

    async def pots_holding_coins(self, session: AsyncSession) -> list[PotBalance]:
        """The pots with coins in them (normally: forming or live staked tables), with when they last moved."""
        return [PotBalance(name.removeprefix(POT_PREFIX), balance, moved)
                for name, balance, moved in await repo.accounts_holding_coins(session, "pot")]

    async def history(self, session: AsyncSession, account_id: int, *, before: int | None = None,
                      limit: int = 50) -> HistoryPage:
        """Entries of one account, newest first; `next_cursor` continues with older ones."""
        limit = max(1, min(int(limit), 200))
        rows = await repo.history(session, account_id, before=before, limit=limit + 1)
        items = [HistoryItem(e.id, e.delta, e.balance_after, reason, e.created_at) for e, reason in rows[:limit]]
        return HistoryPage(items, items[-1].id if len(rows) > limit else None)

    async def totals(self, session: AsyncSession) -> Totals:
        return Totals(*await repo.totals(session))

    # --- internals -----------------------------------------------------------------------------------------

    async def _replay(self, session: AsyncSession, existing: Any, wanted: list[tuple[int, int]]) -> Posted:
        stored = await repo.entries_of(session, existing.id)
        if [(e.account_id, e.delta) for e in stored] != wanted:
            raise IdempotencyKeyReused(details={"key": existing.key})
        return Posted(existing.id, existing.key, existing.reason, existing.created_at,
                      tuple(Entry(e.account_id, e.delta, e.balance_after) for e in stored), replayed=True)

    async def _refusal(self, session: AsyncSession, account_id: int, delta: int) -> AppError:
        balance = await repo.balance(session, account_id)
        if balance is None:
            return UnknownAccount(details={"account_id": account_id})
        return InsufficientFunds(f"Not enough coins: {-delta} needed, {balance} available.",
                                 details={"account_id": account_id, "needed": -delta, "available": balance})


def _positive(amount: int) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise InvalidPostings("An amount of coins is a whole number above zero.")
    return amount


def _checked(key: str, reason: str, postings: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    if not key or len(key) > 200:
        raise InvalidPostings("An idempotency key is 1 to 200 characters.")
    if not reason or len(reason) > 200:
        raise InvalidPostings("A reason is 1 to 200 characters.")
    wanted: list[tuple[int, int]] = []
    for account_id, delta in postings:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (account_id, delta)):
            raise InvalidPostings("Postings are (account id, whole number of coins).")
        if delta == 0:
            raise InvalidPostings("A posting moves at least one coin.")
        wanted.append((account_id, delta))
    if not wanted:
        raise InvalidPostings("A post needs at least one posting.")
    if len({account_id for account_id, _ in wanted}) != len(wanted):
        raise InvalidPostings("Each account appears at most once in a post.")
    return sorted(wanted)


__all__: Sequence[str] = ("Entry", "HistoryItem", "HistoryPage", "IdempotencyKeyReused", "InsufficientFunds",
                          "InvalidPostings", "LedgerService", "PotBalance", "Posted", "Totals", "Transfer",
                          "UnknownAccount",
                          "pot_account_name", "user_account_name")
