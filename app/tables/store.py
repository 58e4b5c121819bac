"""The tables' storage: the action log, snapshots, and the one place a table is settled or cancelled.

Every write for a table is fenced (design.md, "Ownership and fencing"): it is conditional on the table's
`owner_epoch` being the one the writing actor holds, checked inside the same transaction as the write (and as the
ledger writes of a settlement or a refund). A write that finds another epoch raises `Fenced` and changes nothing:
the table was adopted by another node.

- `append`: an actor's new log entries, before any seat hears of them. Appends from every table of this node are
  group-committed: whatever arrives while one transaction commits goes into the next (design.md, "Tables survive
  crashes"): one fence check for the batch's tables and one insert, so on SQLite one write lock per batch instead
  of one per move. On SQLite the writer's thread commits the batches back to back in one write turn
  (SQLiteGroupCommits), without a trip through the event loop between them, each batch one statement (the insert
  joined with its tables' rows: the fence). (`live_tables.version` and `log_seq` are brought up to date by the
  snapshots only.)
- `snapshot`: the engine's state after `seq` entries; a shortcut for resuming, never the truth.
- `finish`: the game record, the players' rows, prize coins (through the ledger, one idempotency key per player and
  table), pot shares and XP, in one transaction. A retry after a lost answer finds the record and pays nothing again.
- `abandon`: a table that cannot go on is cancelled and every stake still in its pot refunded, in one transaction.

The layers above add to settlement through one `Settlement` given to the constructor (online play: boosts multiply
prizes, finished tables add league points, cancelled staked tables refund their stakes; app/realtime/setup.py).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.core import strict_json
from app.core.db import SQLiteGroupCommits
from app.games.registry import get_game
from app.tables.models import GameRecord, GameRecordPlayer, LiveTable, TableAction, TableSeat
from app.tables.rewards import Reward, RewardRules, Table, table_rewards

if TYPE_CHECKING:
    from app.runtime import Runtime
    from app.tables.actor import LogEntry, TableActor

log = logging.getLogger(__name__)

MAX_BATCH = 500  # log entries per group commit; more wait for the next one


class Fenced(Exception):
    """The table's owner epoch moved on: another node adopted it, and this write was refused."""

    def __init__(self, table_id: str, epoch: int):
        super().__init__(f"table {table_id} is no longer ours (epoch {epoch} is stale)")
        self.table_id = table_id
        self.epoch = epoch


@dataclass(frozen=True)
class Snapshot:
    """What a restart needs, taken at one instant: the engine's state and the table around it after `seq` entries."""

    seq: int
    version: int
    state: dict[str, Any]
    data: dict[str, Any]


# Per seat, the factor its prize is paid at (boosters, VIP), from the seats' user ids (None: a bot).
MultiplierSource = Callable[[AsyncSession, list[int | None]], Awaitable[list[float]]]
# Told of each finished table, in its settlement's transaction: (session, table, each seat's reward, game title).
SettledListener = Callable[[AsyncSession, "TableActor", list[Reward], str], Awaitable[None]]
# Gives back every stake still in a cancelled table's pot: (session, table id, game title) -> the refunds.
StakeRefunder = Callable[[AsyncSession, str, str, str], Awaitable[Sequence[object]]]  # session, table, title, why


@dataclass(frozen=True)
class Settlement:
    """What the layers above add to the end of a table. Empty: prizes at 1x, nobody told, no stakes to refund."""

    multipliers: MultiplierSource | None = None
    settled_listeners: Sequence[SettledListener] = ()
    refund_stakes: StakeRefunder | None = None


def reward_rules(settings: Settings) -> RewardRules:
    return RewardRules(
        payouts={int(k): list(v) for k, v in settings.payouts.items()},
        friends_prize_ratio=settings.friends_prize_ratio,
        xp_by_place=list(settings.xp_by_place),
        xp_for_finishing=settings.xp_for_finishing,
        league_points=list(settings.league_points),
    )


def json_copy(value: Any) -> Any:
    """A deep copy as the database will store it (and a check that it can: no NaN, nothing that is not JSON)."""
    return strict_json.loads(strict_json.dumps(value))


@dataclass
class _Append:
    table_id: str
    epoch: int
    rows: list[dict[str, Any]]
    version: int
    done: asyncio.Future


class TableStore:
    """The TableHooks of every live table on this node: log, snapshots, settlement, cancellation."""

    def __init__(self, runtime: Runtime, settlement: Settlement = Settlement()):
        self.runtime = runtime
        self.settlement = settlement
        self.fenced_writes = 0  # writes refused because another node had adopted the table
        self.node_id = "local"  # the node incarnation writing (set by the TableManager)
        self._appends: asyncio.Queue[_Append] | None = None
        self._writer: asyncio.Task | None = None
        self._sqlite_commits: SQLiteGroupCommits[_Append] | None = None  # the appends' group commits on SQLite
        # Told of each table once its record is committed (the rematch keeps what it copies, without reading it
        # back from the database); called in the settlement's task, so each must be quick and must not raise.
        self.recorded_listeners: list[Callable[[TableActor], None]] = []

    # ------------------------------------------------------------------------------------------ the log

    async def append(self, table: TableActor, entries: list[LogEntry], first_seq: int) -> None:
        """Make `entries` (numbered from `first_seq`) durable, fenced on the table's epoch. Raises Fenced, or the
        database's error (the caller retries: an append that did commit is not written twice)."""
        rows = [{"table_id": table.id, "seq": first_seq + index, "seat": entry.seat, "action": entry.action,
                 "source": entry.source, "version": entry.version} for index, entry in enumerate(entries)]
        done = asyncio.get_running_loop().create_future()
        item = _Append(table.id, table.epoch, rows, entries[-1].version, done)
        if self.runtime.settings.is_sqlite:
            if self._sqlite_commits is None:
                self._sqlite_commits = self.runtime.direct_writer().group_commits(
                    _append_sqlite, self._settle_appends, size=lambda item: len(item.rows), max_size=MAX_BATCH)
            self._sqlite_commits.add(item)
        else:
            if self._appends is None or self._writer is None or self._writer.done():
                self._appends = asyncio.Queue()
                self._writer = asyncio.get_running_loop().create_task(self._write_appends(), name="action-log")
            self._appends.put_nowait(item)
        await done

    async def _write_appends(self) -> None:
        """PostgreSQL: one group commit at a time; whatever arrives meanwhile goes into the next."""
        queue = self._appends
        assert queue is not None
        while True:
            batch = [await queue.get()]
            while not queue.empty() and sum(len(item.rows) for item in batch) < MAX_BATCH:
                batch.append(queue.get_nowait())
            try:
                self._settle_appends(batch, await self._append_postgres(batch), None)
            except Exception as error:
                if len(batch) == 1:
                    self._settle_appends(batch, None, error)
                    continue
                # One table's rows must not fail the others': try each alone before giving up on any.
                for item in batch:
                    try:
                        self._settle_appends([item], await self._append_postgres([item]), None)
                    except Exception as alone:
                        self._settle_appends([item], None, alone)

    def _settle_appends(self, batch: list[_Append], current: dict[str, tuple[int, str]] | None,
                        error: BaseException | None) -> None:
        """A group commit's outcome, on the event loop: `current` is each table's (epoch, status) read inside the
        transaction (the fence); items refused by it fail with Fenced, the others succeed."""
        for item in batch:
            if error is not None or current is None:
                _fail(item.done, error or RuntimeError("the append was not committed"))
            elif current.get(item.table_id) != (item.epoch, "playing"):
                self.fenced_writes += 1
                log.warning("log append refused: table %s was adopted by another node", item.table_id,
                            extra={"table": item.table_id, "epoch": item.epoch})
                _fail(item.done, Fenced(item.table_id, item.epoch))
            elif not item.done.done():
                item.done.set_result(None)

    async def _append_postgres(self, batch: list[_Append]) -> dict[str, tuple[int, str]]:
        table_ids = sorted({item.table_id for item in batch})
        async with self.runtime.transaction() as session:
            connection = await session.connection()
            # FOR SHARE holds an adoption's UPDATE back until this commits.
            owners = (select(LiveTable.id, LiveTable.owner_epoch, LiveTable.status)
                      .where(LiveTable.id.in_(table_ids)).with_for_update(read=True))
            current = {table_id: (epoch, status) for table_id, epoch, status in (await connection.execute(owners))}
            rows = [row for item in batch if current.get(item.table_id) == (item.epoch, "playing")
                    for row in item.rows]
            if rows:
                # A retry of an append whose commit did land (its answer was lost) writes nothing twice.
                await connection.execute(postgresql.insert(TableAction.__table__).on_conflict_do_nothing(), rows)
        return current

    async def entries(self, table_id: str, after_seq: int = 0) -> list[TableAction]:
        async with self.runtime.reader() as session:
            rows = await session.scalars(select(TableAction).where(TableAction.table_id == table_id,
                                                                   TableAction.seq > after_seq)
                                         .order_by(TableAction.seq))
            return list(rows)

    async def close(self) -> None:
        if self._sqlite_commits is not None:
            self._sqlite_commits.close(ConnectionError("the action log is closing"))
            self._sqlite_commits = None
        if self._writer is not None:
            self._writer.cancel()
            await asyncio.gather(self._writer, return_exceptions=True)
            self._writer = None

    # ------------------------------------------------------------------------------------- snapshots

    async def insert(self, table: TableActor, snapshot: Snapshot) -> None:
        """A new table's row: owned by this node at the table's epoch, with its first snapshot (the deal)."""
        now = self.runtime.clock.now()

        row = {"id": table.id, "game": table.game_name, "mode": table.mode, "seed": table.seed_hex,
               "status": "playing", "version": snapshot.version, "state": snapshot.state, "table": snapshot.data,
               "created_at": now, "updated_at": now, "owner": self.node_id, "owner_epoch": table.epoch,
               "log_seq": snapshot.seq, "snapshot_seq": snapshot.seq}
        seats = [{"table_id": table.id, "user_id": seat.user_id, "seat": index}
                 for index, seat in enumerate(table.seats) if seat.user_id is not None]

        async def insert_rows(session: AsyncSession) -> None:
            await session.execute(_INSERT_LIVE_TABLE, row)
            if seats:
                await session.execute(_INSERT_TABLE_SEATS, seats)

        await self.runtime.write(insert_rows)

    async def snapshot(self, table: TableActor, snapshot: Snapshot) -> None:
        """Store a snapshot, unless a newer one is there; fenced, and never on a table that is no longer played."""
        now = self.runtime.clock.now()

        async def store(session: AsyncSession) -> None:
            result = await session.execute(_STORE_SNAPSHOT, {
                "table_id": table.id, "epoch": table.epoch, "seq": snapshot.seq, "new_state": snapshot.state,
                "new_table": snapshot.data, "new_version": snapshot.version, "now": now})
            if result.rowcount != 1:
                row = await session.get(LiveTable, table.id)
                if row is None or row.owner_epoch != table.epoch:
                    self.fenced_writes += 1
                    raise Fenced(table.id, table.epoch)

        await self.runtime.write(store)

    # ---------------------------------------------------------------------------------- the end of a table

    async def finish(self, table: TableActor) -> dict[int, dict[str, Any]]:
        """Record and pay a finished game, exactly once, fenced. Returns each seat's rewards."""
        runtime = self.runtime
        now = runtime.clock.now()
        outcome = table.game.outcome()

        async def settle(session: AsyncSession) -> dict[int, dict[str, Any]]:
            if not await self._leave_playing(session, table, "finished", now):
                # Recorded by an earlier try of this settlement (its commit went through, its answer did not
                # reach us), or the table is no longer ours.
                existing = await session.get(GameRecord, table.id)
                if existing is None:
                    raise self._fenced(table, "finished")
                return {int(seat): reward for seat, reward in existing.rewards.items()}
            multipliers = await self._multipliers(session, table)
            rewards = table_rewards(
                Table(
                    mode=table.mode,
                    placings=outcome.placings,
                    humans=[not seat.is_bot for seat in table.seats],
                    left=[seat.left() for seat in table.seats],
                    multipliers=multipliers,
                    bot_filled=bool(table.meta.get("bot_filled")),
                    stake=int(table.meta.get("stake", 0)),
                ),
                reward_rules(runtime.settings),
            )
            await self._pay(session, table, outcome.placings, rewards)
            title = get_game(table.game_name).title
            recorded = [reward.as_dict() for reward in rewards]
            await session.execute(_INSERT_RECORD, {
                "id": table.id, "game": table.game_name, "mode": table.mode, "options": table.options,
                "seats": record_seats(table), "seed": table.seed_hex, "action_log": table.action_log,
                "placings": list(outcome.placings), "scores": outcome.scores,
                "rewards": {str(seat): shown for seat, shown in enumerate(recorded)},
                "started_at": datetime.fromisoformat(table.meta["started_at"]) if "started_at" in table.meta else now,
                "finished_at": now})
            players = [{"record_id": table.id, "user_id": player.user_id, "seat": seat,
                        "placing": outcome.placings[seat], "left": player.left(),
                        "coins": rewards[seat].coins + rewards[seat].pot, "xp": rewards[seat].xp, "finished_at": now}
                       for seat, player in enumerate(table.seats) if player.user_id is not None]
            if players:
                await session.execute(_INSERT_RECORD_PLAYERS, players)
            for listener in self.settlement.settled_listeners:
                await listener(session, table, rewards, title)
            shown = [reward.as_dict() for reward in rewards]
            if shown != recorded:
                # What the listeners added to the rewards (a rating's change) is kept with the record too.
                await session.execute(_UPDATE_RECORD_REWARDS, {
                    "record_id": table.id, "new_rewards": {str(seat): reward for seat, reward in enumerate(shown)}})
            return dict(enumerate(shown))

        rewards = await self.runtime.write(settle)
        for listener in self.recorded_listeners:
            try:
                listener(table)
            except Exception:
                log.exception("a recorded-table listener failed for table %s", table.id)
        return rewards

    async def abandon(self, table: TableActor, reason: str) -> int:
        """Cancel a table that cannot go on (its moves or its settlement cannot be saved, it cannot be resumed):
        every stake still in its pot goes back. Fenced. Returns how many stakes were refunded."""
        now = self.runtime.clock.now()
        async with self.runtime.transaction() as session:
            await self._end_fenced(session, table, "cancelled", now)
            refunds: Sequence[object] = ()
            if table.mode == "staked" and self.settlement.refund_stakes is not None:
                refunds = await self.settlement.refund_stakes(session, table.id, get_game(table.game_name).title,
                                                              reason)
        log.warning("table %s cancelled (%s): %s stakes refunded", table.id, reason, len(refunds),
                    extra={"table": table.id})
        return len(refunds)

    async def _end_fenced(self, session: AsyncSession, table: TableActor, status: str, now: datetime) -> None:
        if not await self._leave_playing(session, table, status, now):
            raise self._fenced(table, status)

    async def _leave_playing(self, session: AsyncSession, table: TableActor, status: str, now: datetime) -> bool:
        """The table's status leaves "playing", fenced on its epoch; False if it was not ours and playing."""
        result = await session.execute(_LEAVE_PLAYING, {"table_id": table.id, "epoch": table.epoch,
                                                        "new_status": status, "now": now})
        return result.rowcount == 1

    def _fenced(self, table: TableActor, status: str) -> Fenced:
        self.fenced_writes += 1
        log.warning("%s refused: table %s is no longer ours", status, table.id, extra={"table": table.id})
        return Fenced(table.id, table.epoch)

    async def _multipliers(self, session: AsyncSession, table: TableActor) -> list[float]:
        if self.settlement.multipliers is None:
            return [1.0] * len(table.seats)
        return await self.settlement.multipliers(session, [seat.user_id for seat in table.seats])

    async def _pay(self, session: AsyncSession, table: TableActor, placings: list[int], rewards: list[Reward]) -> None:
        ledger = self.runtime.ledger
        title = get_game(table.game_name).title
        pot_shares: list[tuple[int, int]] = []
        xp: dict[int, int] = {}  # one statement for every player's XP
        for seat, (player, reward) in enumerate(zip(table.seats, rewards)):
            if player.user_id is None:
                continue
            if reward.coins:
                wallet = await ledger.wallet_id(session, player.user_id)
                await ledger.credit(session, wallet, reward.coins, key=f"prize:{table.id}:{player.user_id}",
                                    reason=f"{title} {table.mode} table: prize for place {placings[seat]}")
            if reward.pot:
                pot_shares.append((await ledger.wallet_id(session, player.user_id), reward.pot))
            if reward.xp:
                xp[player.user_id] = xp.get(player.user_id, 0) + reward.xp
        if xp:
            level_ups = await self.runtime.accounts.award_xp(session, xp)
            for player, reward in zip(table.seats, rewards):
                if reward.xp and player.user_id is not None:
                    reward.level_up = level_ups[player.user_id]
        if pot_shares:
            pot = await ledger.pot_id(session, table.id)
            total = sum(amount for _, amount in pot_shares)
            await ledger.settle(session, f"pot:{table.id}:payout", f"{title} staked table: pot shared by the winners",
                                [(pot, -total), *pot_shares])

    async def tables_of(self, user_id: int) -> list[tuple[LiveTable, int]]:
        """The live tables a user sits at, on any node, with their seat."""
        async with self.runtime.reader() as session:
            rows = await session.execute(select(LiveTable, TableSeat.seat)
                                         .join(TableSeat, TableSeat.table_id == LiveTable.id)
                                         .where(TableSeat.user_id == user_id, LiveTable.status == "playing")
                                         .order_by(LiveTable.created_at))
            return [(table, seat) for table, seat in rows.all()]

    async def tables_of_people(self, user_ids: list[int]) -> dict[int, LiveTable]:
        """For each of these users sitting at a live table (any node), the newest one, unless they resigned from it
        (as of its last snapshot): what their friends may watch."""
        if not user_ids:
            return {}
        async with self.runtime.reader() as session:
            rows = await session.execute(select(LiveTable, TableSeat.user_id, TableSeat.seat)
                                         .join(TableSeat, TableSeat.table_id == LiveTable.id)
                                         .where(TableSeat.user_id.in_(user_ids), LiveTable.status == "playing")
                                         .order_by(LiveTable.created_at))
            found: dict[int, LiveTable] = {}
            for table, user_id, seat in rows.all():
                seats = table.table.get("seats", [])
                if not (seat < len(seats) and seats[seat].get("resigned")):
                    found[user_id] = table
            return found

    async def row(self, table_id: str) -> LiveTable | None:
        async with self.runtime.reader() as session:
            return await session.get(LiveTable, table_id)


def _append_sqlite(connection: sqlite3.Connection, batch: list[_Append]) -> dict[str, tuple[int, str]]:
    """On SQLite, a group commit on the log's own connection (SQLiteDirectWriter's thread), no ORM: one INSERT of
    the batch's rows joined with their tables' rows, which writes only the rows of the tables still ours and
    playing. It is a transaction of its own that takes the write lock before it reads, so the fence and the rows
    are one atomic step. Reads the batch's rows and epochs, never its futures. Returns each table's (epoch, status)
    as the fence found it, as `_settle_appends` expects."""
    rows = [value for item in batch for row in item.rows
            for value in (row["table_id"], row["seq"], row["seat"], strict_json.dumps(row["action"]), row["source"],
                          row["version"], item.epoch)]
    count = len(rows) // _APPEND_COLUMNS
    # A retry of an append whose commit did land (its answer was lost) writes nothing twice (ON CONFLICT).
    inserted = connection.execute(_append_statement(count), rows).rowcount
    if inserted == count:
        return {item.table_id: (item.epoch, "playing") for item in batch}
    # Some rows were not written: fenced, or already there. Epochs only grow and a table never plays again once it
    # stopped, so a table found at our epoch and playing now was so at the insert: its rows are all in the log.
    table_ids = sorted({item.table_id for item in batch})
    found = connection.execute(
        f"SELECT id, owner_epoch, status FROM live_tables WHERE id IN ({','.join('?' * len(table_ids))})",
        table_ids).fetchall()
    return {table_id: (epoch, status) for table_id, epoch, status in found}


_APPEND_COLUMNS = 7  # a row's values, then its table's epoch as the appending actor holds it


@functools.lru_cache(maxsize=128)
def _append_statement(rows: int) -> str:
    values = ",".join(["(?,?,?,?,?,?,?)"] * rows)
    # SQLite names a VALUES list's columns column1, column2, ...; "WHERE true" parses the upsert after a join.
    return ("INSERT INTO table_actions (table_id, seq, seat, action, source, version) "
            "SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6 "
            f"FROM (VALUES {values}) AS v JOIN live_tables AS t "
            "ON t.id = v.column1 AND t.owner_epoch = v.column7 AND t.status = 'playing' "
            "WHERE true ON CONFLICT DO NOTHING")


def record_seats(table: TableActor) -> list[dict[str, Any]]:
    """The seats as a finished game's record keeps them."""
    return [{"kind": s.kind, "name": s.name, "user_id": s.user_id, "bot_level": s.bot_level if s.is_bot else None,
             "left": s.left()} for s in table.seats]


async def table_exists(session: AsyncSession, table_id: str) -> bool:
    """The table was created (it has a live row) or has finished (it has a record)."""
    return (await session.get(LiveTable, table_id) is not None
            or await session.get(GameRecord, table_id) is not None)


async def cancel_unplayed(session: AsyncSession, table_id: str, now: datetime) -> None:
    """A live table that will never be played on (its stakes went back before it started): not resumed after a
    restart. Not fenced: no actor plays it."""
    await session.execute(update(LiveTable).where(LiveTable.id == table_id, LiveTable.status == "playing")
                          .values(status="cancelled", updated_at=now))


# Built once, executed with the rows as parameters: building a statement (or an ORM flush) costs several times what
# executing a prebuilt one does, and on SQLite these run while the action log's appends wait for the write lock.
_live_tables = LiveTable.__table__
_INSERT_LIVE_TABLE = insert(_live_tables)
_INSERT_TABLE_SEATS = insert(TableSeat.__table__)
_records = GameRecord.__table__
_INSERT_RECORD = insert(_records)
_INSERT_RECORD_PLAYERS = insert(GameRecordPlayer.__table__)
_UPDATE_RECORD_REWARDS = (update(_records).where(_records.c.id == bindparam("record_id"))
                          .values(rewards=bindparam("new_rewards")))
# A newer snapshot replaces the stored one, fenced on the epoch and only while the table is played.
_STORE_SNAPSHOT = (update(_live_tables)
                   .where(_live_tables.c.id == bindparam("table_id"), _live_tables.c.owner_epoch == bindparam("epoch"),
                          _live_tables.c.status == "playing", _live_tables.c.snapshot_seq <= bindparam("seq"))
                   .values(state=bindparam("new_state"), table=bindparam("new_table"), snapshot_seq=bindparam("seq"),
                           log_seq=bindparam("seq"), version=bindparam("new_version"), updated_at=bindparam("now")))
_LEAVE_PLAYING = (update(_live_tables)
                  .where(_live_tables.c.id == bindparam("table_id"), _live_tables.c.owner_epoch == bindparam("epoch"),
                         _live_tables.c.status == "playing")
                  .values(status=bindparam("new_status"), updated_at=bindparam("now")))


def _fail(future: asyncio.Future, error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
