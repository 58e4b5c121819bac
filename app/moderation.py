"""Operators acting on users and tables (`tablestakes ban`, `unban`, `void`, `tables`; README, "Operating").

The command runs in a process of its own, beside the serving nodes, on the same database and Redis. What it changes
in the database is the truth; running nodes hear of it over the cluster's Redis channels (app/realtime/cluster.py),
like any node's message to the others:

- `ban`: the account is marked banned (it cannot log in: `account_banned`) and every session of it revoked, in one
  transaction; then a `banned` broadcast makes every node close the user's sockets, have a bot cover their seats at
  once (platform.md, "Leaving": the leaver rule then decides what the seat earns) and give up a queued seat (a staked
  one's stake back).
- `void`: a live table's owner, if alive, is asked to end it (`void` request): its actor cancels it, every stake is
  refunded with the reason in the ledger, and its players are told. A table whose owner is gone (or that is stuck
  cancelled with coins still in its pot) is ended here, fenced like an adoption: the epoch moves on in the same
  transaction as the refunds, so an old owner waking up can write nothing more for it.

With `REDIS_URL=memory://` the command's Redis is its own: no running node hears it. The database part is done all
the same, and the commands say so: a running embedded server closes a banned user's sockets when it next re-checks
its sessions (every 20 s), then covers the seat after DISCONNECT_GRACE_SECONDS and gives a queued seat up after
QUEUE_GRACE_SECONDS; a table it plays is voided after that server is stopped.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, literal, select, update

from app.core import strict_json
from app.games.registry import UnknownGame, get_game
from app.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction
from app.ledger.service import pot_account_name
from app.online.queues import Matchmaker
from app.online.stakes import StakeLedger
from app.realtime.cluster import Cluster, ClusterError, broadcast_channel, node_channel
from app.tables.models import ClusterNode, LiveTable, TableAction, TableSeat
from app.tables.ownership import db_now

log = logging.getLogger(__name__)

class OperatorError(Exception):
    """A command that cannot be done as asked; the message says why, for the operator."""


@dataclass(frozen=True)
class BanResult:
    user_id: int
    username: str
    sessions_revoked: int
    nodes_told: int  # running nodes that heard the broadcast (0: none is listening on this Redis)


@dataclass(frozen=True)
class VoidResult:
    table_id: str
    how: str  # "owner" (its owner ended it) or "here" (ended by this command)
    refunded: list[tuple[int, int]]  # (user id, coins) for each stake given back now
    pot_left: int


@dataclass(frozen=True)
class TableLine:
    id: str
    game: str
    mode: str
    seats: list[dict[str, Any]]
    version: int
    owner: str | None
    owner_alive: bool
    created_at: datetime
    stake: int | None
    pot: int


def operator_node_id() -> str:
    """The name this command goes by on the cluster channels (never a table's owner)."""
    return f"operator-{uuid.uuid4().hex[:12]}"


async def _user(runtime: Any, session: Any, username: str) -> Any:
    from app.accounts.service import UnknownUser

    try:
        return await runtime.accounts.user_by_username(session, username)
    except UnknownUser:
        raise OperatorError(f"no user called {username!r}") from None


async def _broadcast(runtime: Any, kind: str, **data: Any) -> int:
    """One message for every node; returns how many listeners got it (0: no node runs on this Redis)."""
    payload = strict_json.dumps({"k": kind, "from": operator_node_id(), **data})
    return int(await runtime.redis.publish(broadcast_channel(runtime.redis), payload))


# ------------------------------------------------------------------------------------------------------ bans

async def ban(runtime: Any, username: str, reason: str) -> BanResult:
    reason = reason.strip()
    if not reason:
        raise OperatorError("--reason must say why")
    async with runtime.transaction() as session:
        user = await _user(runtime, session, username)
        revoked = await runtime.accounts.ban(session, user.id, reason[:200])
        user_id, name = user.id, user.username
    told = await _broadcast(runtime, "banned", user=user_id)
    log.warning("user %s banned: %s", name, reason, extra={"user": user_id})
    return BanResult(user_id, name, revoked, told)


async def unban(runtime: Any, username: str) -> bool:
    """The user may log in again; False if they were not banned."""
    async with runtime.transaction() as session:
        user = await _user(runtime, session, username)
        return await runtime.accounts.unban(session, user.id)


# ------------------------------------------------------------------------------------------------------ voids

async def void(runtime: Any, table_id: str, reason: str) -> VoidResult:
    """End a live or stuck table, every stake back (module docstring). OperatorError when it cannot be done."""
    reason = reason.strip()
    if not reason:
        raise OperatorError("--reason must say why")
    why = f"voided by an operator: {reason}"
    async with runtime.reader() as session:
        row = await session.get(LiveTable, table_id)
        if row is None:
            raise OperatorError(f"no live table {table_id!r} (tablestakes tables lists them)")
        status, owner, epoch = row.status, row.owner, row.owner_epoch
        owner_alive = owner is not None and await _alive(session, owner, runtime.settings.owner_lease_seconds)
    refunds_before = await _refunds(runtime, table_id)
    if status == "finished":
        raise OperatorError(f"table {table_id} is finished: it was settled, there is nothing to void")
    if status == "playing" and owner_alive:
        assert owner is not None
        if not await _listening(runtime, owner):
            raise OperatorError(
                f"table {table_id} is played by node {owner}, which is alive but cannot be reached from here "
                f"(REDIS_URL={runtime.settings.redis_url.split('://')[0]}:// is not the Redis it listens on); run "
                "this where REDIS_URL is the cluster's, or stop that server first")
        cluster = Cluster(runtime.redis, operator_node_id())
        await cluster.start()
        try:
            await cluster.request(owner, "void", table=table_id, reason=why)
        except ClusterError as refused:
            raise OperatorError(f"node {owner} did not void table {table_id}: {refused.message}") from None
        finally:
            await cluster.stop()
        how = "owner"
    else:
        await _void_here(runtime, table_id, status, epoch, why)
        how = "here"
    refunded = [refund for key, refund in sorted((await _refunds(runtime, table_id)).items())
                if key not in refunds_before]
    async with runtime.reader() as session:
        pot_left = await StakeLedger(runtime.ledger).pot_balance(session, table_id)
    log.warning("table %s voided (%s): %s stakes refunded", table_id, reason, len(refunded))
    return VoidResult(table_id, how, refunded, pot_left)


async def _void_here(runtime: Any, table_id: str, status: str, epoch: int, why: str) -> None:
    """The table ended by this command, fenced on the epoch it saw, with its refunds in the same transaction."""
    now = runtime.clock.now()
    async with runtime.transaction() as session:
        result = await session.execute(
            update(LiveTable).where(LiveTable.id == table_id, LiveTable.owner_epoch == epoch,
                                    LiveTable.status == status)
            .values(status="cancelled", owner_epoch=epoch + 1, updated_at=now)
            .execution_options(synchronize_session=False))
        if result.rowcount != 1:
            raise OperatorError(f"table {table_id} changed while voiding it (a node adopted or ended it); run the "
                                "command again")
        row = await session.get(LiveTable, table_id)
        assert row is not None
        try:
            title = get_game(row.game).title
        except UnknownGame:
            title = row.game
        await StakeLedger(runtime.ledger).refund_table(session, table_id, title, why)
        users = [seat.user_id for seat in (await session.scalars(
            select(TableSeat).where(TableSeat.table_id == table_id)))]
    # Its players may queue again (the owner's watcher would have cleared this when the table ended).
    await Matchmaker(runtime.redis).unseat(table_id, users)


async def _alive(session: Any, node: str, lease_seconds: float) -> bool:
    found = await session.scalar(select(ClusterNode.id).where(
        ClusterNode.id == node, ClusterNode.stopped.is_(False),
        ClusterNode.heartbeat >= db_now(session) - lease_seconds))
    return found is not None


async def _listening(runtime: Any, node: str) -> bool:
    counts = await runtime.redis.pubsub_numsub(node_channel(node, runtime.redis))
    return bool(counts) and int(counts[0][1]) > 0


async def _refunds(runtime: Any, table_id: str) -> dict[str, tuple[int, int]]:
    """The refunds out of a table's pot so far: ledger key -> (user id, coins)."""
    async with runtime.reader() as session:
        pot = await session.scalar(select(LedgerAccount.id).where(LedgerAccount.name == pot_account_name(table_id)))
        if pot is None:
            return {}
        rows = await session.execute(
            select(LedgerTransaction.key, LedgerEntry.delta)
            .join(LedgerEntry, LedgerEntry.transaction_id == LedgerTransaction.id)
            .where(LedgerEntry.account_id == pot, LedgerTransaction.key.like(f"refund:{table_id}:%")))
        return {key: (int(key.split(":")[2]), -int(delta)) for key, delta in rows.all()}


# ------------------------------------------------------------------------------------------------------ tables

async def live_tables(runtime: Any) -> list[TableLine]:
    """Every table being played (status playing), oldest first, whichever node plays it."""
    lease = runtime.settings.owner_lease_seconds
    async with runtime.reader() as session:
        logged = (select(TableAction.table_id, func.max(TableAction.version).label("version"))
                  .group_by(TableAction.table_id).subquery())
        rows = (await session.execute(
            select(LiveTable, logged.c.version, ClusterNode.name, ClusterNode.stopped, ClusterNode.heartbeat,
                   db_now(session), LedgerAccount.balance)
            .outerjoin(logged, logged.c.table_id == LiveTable.id)
            .outerjoin(ClusterNode, ClusterNode.id == LiveTable.owner)
            .outerjoin(LedgerAccount, LedgerAccount.name == literal("pot:") + LiveTable.id)
            .where(LiveTable.status == "playing")
            .order_by(LiveTable.created_at))).all()
    lines = []
    for table, log_version, node, stopped, heartbeat, now, pot in rows:
        data = table.table or {}
        meta = data.get("meta") or {}
        lines.append(TableLine(
            id=table.id, game=table.game, mode=table.mode, seats=list(data.get("seats") or []),
            version=max(table.version, log_version or 0), owner=node or table.owner,
            owner_alive=bool(node) and not stopped and heartbeat is not None and heartbeat >= float(now) - lease,
            created_at=table.created_at, stake=meta.get("stake"), pot=int(pot or 0)))
    return lines
