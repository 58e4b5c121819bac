"""The ledger audit (`tablestakes audit`): the money rules of design.md, "Money", checked on the database itself.

1. The sum of all balances equals the sum of all entries; and for each account, its balance equals the sum of its
   entries and its newest entry's `balance_after` (entries are written in the order their balances moved: each post
   holds its accounts' row locks until it commits).
2. No balance is below zero.
3. Every pot holding coins belongs to a table being played (and then holds exactly stake x seats), or to a table
   still forming in the matchmaking queues (`forming`, read from Redis by the caller) or being made: a pot with no
   table that moved within STRANDED_AFTER_SECONDS, as for the refund of stranded pots.
4. Every finished staked game was paid exactly once: one payout (`pot:<table>:payout`) that took the whole pot and
   gave each winner the share its record says, and nothing left in the pot.

Read-only, in one read transaction per check; the caller prints the differences and exits non-zero on any.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction
from app.tables.models import GameRecord, LiveTable

STRANDED_AFTER_SECONDS = 300.0  # app/online/matchmaking.py: a pot still this long, with no table, is stranded
SHOWN_PER_CHECK = 50  # differences listed per check; the count says how many more there are


@dataclass
class Difference:
    check: str  # "totals", "account", "negative", "pot", "payout"
    what: str  # a sentence for the operator

    def __str__(self) -> str:
        return f"{self.check}: {self.what}"


@dataclass
class AuditReport:
    accounts: int = 0
    entries: int = 0
    balances_total: int = 0
    entries_total: int = 0
    pots_holding_coins: int = 0
    staked_games: int = 0
    differences: list[Difference] = field(default_factory=list)
    more: dict[str, int] = field(default_factory=dict)  # check -> differences not listed

    @property
    def clean(self) -> bool:
        return not self.differences

    def add(self, check: str, what: str) -> None:
        if sum(1 for d in self.differences if d.check == check) >= SHOWN_PER_CHECK:
            self.more[check] = self.more.get(check, 0) + 1
            return
        self.differences.append(Difference(check, what))

    def summary(self) -> str:
        return (f"{self.accounts} accounts, {self.entries} entries, {self.pots_holding_coins} pots holding coins, "
                f"{self.staked_games} finished staked games")


async def audit_ledger(session: AsyncSession, now: datetime, forming: Collection[str] | None = None
                       ) -> AuditReport:
    report = AuditReport()
    await _totals(session, report)
    await _accounts(session, report)
    await _pots(session, report, now, forming)
    await _payouts(session, report)
    return report


async def _totals(session: AsyncSession, report: AuditReport) -> None:
    accounts, balances = (await session.execute(
        select(func.count(), func.coalesce(func.sum(LedgerAccount.balance), 0)))).one()
    entries, deltas = (await session.execute(
        select(func.count(), func.coalesce(func.sum(LedgerEntry.delta), 0)))).one()
    report.accounts, report.entries = int(accounts), int(entries)
    report.balances_total, report.entries_total = int(balances), int(deltas)
    if report.balances_total != report.entries_total:
        report.add("totals", f"the balances add up to {balances} coins, the entries to {deltas} "
                             f"(difference {int(balances) - int(deltas)})")


async def _accounts(session: AsyncSession, report: AuditReport) -> None:
    sums = (select(LedgerEntry.account_id, func.sum(LedgerEntry.delta).label("total"),
                   func.max(LedgerEntry.id).label("newest"))
            .group_by(LedgerEntry.account_id).subquery())
    newest = LedgerEntry.__table__.alias("newest")
    rows = await session.execute(
        select(LedgerAccount.name, LedgerAccount.balance, sums.c.total, newest.c.balance_after)
        .outerjoin(sums, sums.c.account_id == LedgerAccount.id)
        .outerjoin(newest, newest.c.id == sums.c.newest)
        .order_by(LedgerAccount.id))
    for name, balance, total, balance_after in rows.all():
        total = int(total or 0)
        if balance < 0:
            report.add("negative", f"{name} has a balance of {balance}")
        if balance != total:
            report.add("account", f"{name} has a balance of {balance} but its entries add up to {total}")
        elif balance_after is not None and balance_after != balance:
            report.add("account", f"{name} has a balance of {balance} but its newest entry left it at "
                                  f"{balance_after}")


async def _pots(session: AsyncSession, report: AuditReport, now: datetime, forming: Collection[str] | None) -> None:
    last_moved = (select(func.max(LedgerEntry.created_at)).where(LedgerEntry.account_id == LedgerAccount.id)
                  .scalar_subquery())
    rows = await session.execute(
        select(LedgerAccount.name, LedgerAccount.balance, last_moved, LiveTable.status, LiveTable.mode,
               LiveTable.table)
        .outerjoin(LiveTable, LedgerAccount.name == "pot:" + LiveTable.id)
        .where(LedgerAccount.kind == "pot", LedgerAccount.balance != 0)
        .order_by(LedgerAccount.id))
    for name, balance, moved, status, mode, data in rows.all():
        report.pots_holding_coins += 1
        table_id = name.removeprefix("pot:")
        if status == "playing":
            meta = (data or {}).get("meta") or {}
            seats = len((data or {}).get("seats") or [])
            if mode == "staked" and meta.get("stake") and seats and balance != meta["stake"] * seats:
                report.add("pot", f"{name} holds {balance} coins; its live table's pot is {meta['stake']} x "
                                  f"{seats} = {meta['stake'] * seats}")
            continue
        if status is None:
            if forming is not None and table_id in forming:
                continue
            if moved is not None and (now - moved).total_seconds() < STRANDED_AFTER_SECONDS:
                continue  # a table forming or being made now, as far as the database can tell
        where = f"its table is {status}" if status else "no table was made for it and none is forming"
        report.add("pot", f"{name} holds {balance} coins but {where}")


async def _payouts(session: AsyncSession, report: AuditReport) -> None:
    records = (await session.execute(
        select(GameRecord.id, GameRecord.seats, GameRecord.rewards).where(GameRecord.mode == "staked")
        .order_by(GameRecord.finished_at))).all()
    report.staked_games = len(records)
    if not records:
        return
    # Every payout's entries, by table: account name -> delta.
    payouts: dict[str, dict[str, int]] = {}
    rows = await session.execute(
        select(LedgerTransaction.key, LedgerAccount.name, LedgerEntry.delta)
        .join(LedgerEntry, LedgerEntry.transaction_id == LedgerTransaction.id)
        .join(LedgerAccount, LedgerAccount.id == LedgerEntry.account_id)
        .where(LedgerTransaction.key.like("pot:%:payout")))
    for key, account, delta in rows.all():
        payouts.setdefault(key.removeprefix("pot:").removesuffix(":payout"), {})[account] = int(delta)
    pots = dict((await session.execute(
        select(LedgerAccount.name, LedgerAccount.balance).where(LedgerAccount.kind == "pot"))).all())
    for table_id, seats, rewards in records:
        pot_name = f"pot:{table_id}"
        shares: dict[str, int] = {}
        for seat, reward in (rewards or {}).items():
            user_id = seats[int(seat)].get("user_id") if int(seat) < len(seats) else None
            if reward.get("pot") and user_id is not None:
                shares[f"user:{user_id}"] = shares.get(f"user:{user_id}", 0) + int(reward["pot"])
        paid = payouts.get(table_id)
        if paid is None:
            report.add("payout", f"staked game {table_id} finished but its pot was never paid out "
                                 f"({sum(shares.values())} coins owed)")
            continue
        if paid.get(pot_name, 0) != -sum(shares.values()):
            report.add("payout", f"staked game {table_id}: the payout took {-paid.get(pot_name, 0)} coins from "
                                 f"the pot, the record's shares add up to {sum(shares.values())}")
        received = {account: delta for account, delta in paid.items() if account != pot_name}
        if received != shares:
            report.add("payout", f"staked game {table_id}: the payout gave {_shares(received)}, the record says "
                                 f"{_shares(shares)}")
        if pots.get(pot_name, 0) != 0:
            report.add("payout", f"staked game {table_id} was paid but its pot still holds {pots[pot_name]} coins")


def _shares(shares: dict[str, int]) -> str:
    return ", ".join(f"{coins} to {account}" for account, coins in sorted(shares.items())) or "nothing"
