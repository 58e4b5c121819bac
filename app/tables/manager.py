"""The live tables of this node: creating them, finding them, adopting the tables of nodes that are gone (after a
crash, or at a restart), handing them off at a clean stop, dropping them when done.

Each node keeps its incarnation's heartbeat (app/tables/ownership.py) and, as often, looks for tables whose owner is
gone. Adopting one is a conditional UPDATE that bumps its epoch, then the table is rebuilt from its last snapshot and
the log after it, and its actor starts here (its players are told nothing: they rejoin, naming their last version).
A table that cannot be rebuilt is cancelled and its stakes refunded.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from app.core.clock import SystemClock, TimerClock
from app.games.registry import get_game
from app.games.rng import HashRandom, new_seed
from app.tables import tokens
from app.tables.actor import LogEntry, Seat, TableActor, TableTiming
from app.tables.models import LiveTable
from app.tables.ownership import Ownership
from app.tables.store import TableStore
from app.tables.thinking import THINKING

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)

# Told of each table this node starts playing: (table, adopted: True when it came from another node).
TableListener = Callable[[TableActor, bool], Awaitable[None]]

JANITOR_SECONDS = 30.0
ALIVE_CACHE_SECONDS = 1.0


def new_table_id() -> str:
    """A short random id (16 characters, 96 bits): it is in every table message, so its length is paid per move.
    Never one that starts with "-": an operator types it after a command (`tablestakes replay ID`), where it would
    read as an option."""
    while True:
        table_id = secrets.token_urlsafe(12)
        if not table_id.startswith("-"):
            return table_id


class TableManager:
    def __init__(self, runtime: Runtime, store: TableStore, timing: TableTiming, ownership: Ownership | None = None,
                 table_clock: TimerClock | None = None):
        self.runtime = runtime
        self.store = store
        self.timing = timing
        self.ownership = ownership
        # The tables' timers run on real time even where the runtime's clock is a test's (that one dates records).
        self.table_clock = table_clock or SystemClock()
        store.node_id = self.node_id
        self.tables: dict[str, TableActor] = {}
        self._finished_at: dict[str, float] = {}
        self._tasks: set[asyncio.Task] = set()
        self._janitor: asyncio.Task | None = None
        self._keeper: asyncio.Task | None = None
        self._stopping = asyncio.Event()
        self._alive_seen: dict[str, tuple[bool, float]] = {}  # node -> (alive, until when that answer holds)
        # Called with each table this node starts playing, made here or adopted (matchmaking keeps its players
        # seated; the cluster tells sockets following an adopted table through its old owner to join it again).
        self.listeners: list[TableListener] = []

    @property
    def node_id(self) -> str:
        return self.ownership.node_id if self.ownership is not None else "local"

    # -------------------------------------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Register this node, adopt what has no live owner, and keep both up to date in the background."""
        if self.ownership is not None:
            await self.ownership.register()
            await self._check_cluster()
            await self.adopt_orphans()
            self._keeper = asyncio.get_running_loop().create_task(self._keep_ownership(), name="table-ownership")

    async def _check_cluster(self) -> None:
        """Other live nodes on this database make this a cluster: they must share SECRET_KEY (seat tokens) and a
        real Redis (relays, notices, matchmaking). Refuse to start otherwise, rather than play tables apart."""
        assert self.ownership is not None
        others = await self.ownership.others_alive()
        if not others:
            return
        settings = self.runtime.settings
        problems = []
        if settings.secret_key is None or not settings.secret_key.get_secret_value():
            problems.append("set SECRET_KEY explicitly, the same on every node")
        elif any(node.key_fingerprint != self.ownership.key_fingerprint for node in others):
            problems.append("SECRET_KEY differs from the other nodes' (it must be the same on every node)")
        if settings.redis_in_process:
            problems.append("set REDIS_URL to the Redis server the other nodes use (memory:// is this process's own)")
        if problems:
            await self.ownership.stop()
            names = ", ".join(sorted({node.name for node in others}))
            raise RuntimeError(f"other nodes ({names}) use this database, so this node is part of a cluster: "
                               + "; ".join(problems))

    async def _keep_ownership(self) -> None:
        assert self.ownership is not None
        period = self.ownership.lease_seconds / 3
        while not self._stopping.is_set():
            try:
                await asyncio.wait_for(self._stopping.wait(), period)
                return
            except TimeoutError:
                pass
            try:
                if not await self.ownership.heartbeat(self.owned()):
                    log.error("this node's incarnation row is gone or stopped; its tables are not its own any more")
                await self.adopt_orphans()
            except Exception:
                log.warning("heartbeat or adoption failed; trying again", exc_info=True)

    async def hand_off(self) -> int:
        """Give every table up: its actor stops (after a last snapshot), then the table is released, fenced, so a
        live node adopts it at once. This node adopts nothing more. Returns how many tables were released."""
        self._stopping.set()  # besides the cancel: a database call in flight may swallow it
        for task in (self._keeper, self._janitor):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self._keeper = self._janitor = None
        tables = list(self.tables.values())
        await asyncio.gather(*(table.stop() for table in tables), return_exceptions=True)
        released = 0
        if self.ownership is not None:
            for table in tables:
                if table.status != "playing":
                    continue
                try:
                    async with self.runtime.transaction() as session:
                        released += await self.ownership.release(session, table.id, table.epoch)
                except Exception:
                    log.warning("could not release table %s (it is adopted after the lease)", table.id,
                                exc_info=True)
        self.tables.clear()
        return released

    async def shutdown(self) -> None:
        """A clean stop: the tables handed off (a restarted process, or another node, adopts them at once), then
        this incarnation is marked stopped."""
        await self.hand_off()
        THINKING.close()
        if self.ownership is not None:
            try:
                await self.ownership.stop()
            except Exception:
                log.warning("could not mark this node stopped (its tables are adopted after the lease)",
                            exc_info=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.store.close()

    # --------------------------------------------------------------------------------------------- tables

    async def create(
        self,
        *,
        game: str,
        seats: list[Seat],
        mode: str,
        options: dict[str, Any] | None = None,
        timing: TableTiming | None = None,
        meta: dict[str, Any] | None = None,
        table_id: str | None = None,
    ) -> TableActor:
        game_cls = get_game(game)
        options = game_cls.check_options(len(seats), options)
        seed = new_seed()
        engine = game_cls.create(len(seats), options, HashRandom(seed))
        table = TableActor(
            table_id=table_id or new_table_id(),
            game=engine,
            seats=seats,
            mode=mode,
            timing=timing or self.timing,
            hooks=self.store,
            clock=self.table_clock,
            seed_hex=seed.hex(),
            options=options,
            meta={**(meta or {}), "started_at": self.runtime.clock.now().isoformat()},
            epoch=1,
        )
        # The deal is on disk, owned by this node, before anyone plays.
        await self.store.insert(table, table.take_snapshot())
        self._run(table)
        await self._tell_listeners(table)
        return table

    def get(self, table_id: str) -> TableActor | None:
        return self.tables.get(table_id)

    def tables_of(self, user_id: int) -> list[TableActor]:
        return [t for t in self.tables.values() if t.seat_of(user_id) is not None]

    def _run(self, table: TableActor) -> None:
        self.tables[table.id] = table
        settings = getattr(self.runtime, "settings", None)
        if settings is not None:
            table.max_spectators = settings.spectators_per_table
        if self.ownership is not None:
            table.node_name = self.ownership.identity.name
            table.sign_seat = self._sign_seat
        table.start()
        self._spawn(self._watch(table))
        if self._janitor is None:
            self._janitor = asyncio.get_running_loop().create_task(self._sweep(), name="table-janitor")

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _watch(self, table: TableActor) -> None:
        """A finished table lingers for its results; a lost or failed one is dropped from this node at once."""
        finished = asyncio.ensure_future(table.finished.wait())
        ended = asyncio.ensure_future(table.ended.wait())
        await asyncio.wait([finished, ended], return_when=asyncio.FIRST_COMPLETED)
        finished.cancel()
        ended.cancel()
        if table.status in ("finished", "cancelled"):
            self._finished_at[table.id] = time.monotonic()
        elif self.tables.get(table.id) is table and table.status == "lost":
            del self.tables[table.id]

    async def _sweep(self) -> None:
        """Stop finished tables once nobody needs their results screen any more."""
        while True:
            await asyncio.sleep(JANITOR_SECONDS)
            now = time.monotonic()
            for table_id, finished in list(self._finished_at.items()):
                table = self.tables.get(table_id)
                if table is None or now - finished >= table.timing.linger_seconds:
                    self._finished_at.pop(table_id, None)
                    gone = self.tables.pop(table_id, None)
                    if gone is not None:
                        await gone.stop()

    # ------------------------------------------------------------------------------------------- adoption

    async def adopt_orphans(self) -> int:
        """Adopt every live table whose owner is gone. Returns how many were adopted here."""
        if self.ownership is None or self._stopping.is_set():
            return 0
        adopted = 0
        for table_id, epoch in await self.ownership.adoptable():
            if table_id in self.tables and self.tables[table_id].running:
                continue
            try:
                if await self.adopt(table_id, epoch) is not None:
                    adopted += 1
            except Exception:
                log.exception("could not adopt table %s", table_id)
        return adopted

    async def adopt(self, table_id: str, seen_epoch: int) -> TableActor | None:
        """Take one table over (if nobody else did since `seen_epoch`) and resume it here."""
        assert self.ownership is not None
        started = time.monotonic()
        async with self.runtime.transaction() as session:
            epoch = await self.ownership.adopt(session, table_id, seen_epoch)
            if epoch is None:
                return None
            row = await session.get(LiveTable, table_id)
            assert row is not None
            await _keep_legacy_log(session, row)
        try:
            table = await self._resume(row, epoch)
        except Exception:
            log.exception("table %s cannot be resumed; cancelling it", table_id, extra={"table": table_id})
            await self._cancel_unresumable(row, epoch)
            return None
        self._run(table)
        await self._tell_listeners(table, adopted=True)
        log.info("adopted table %s (epoch %s, version %s) in %.0f ms", table_id, epoch, table.version,
                 (time.monotonic() - started) * 1000, extra={"table": table_id})
        return table

    async def _tell_listeners(self, table: TableActor, *, adopted: bool = False) -> None:
        for listener in self.listeners:
            try:
                await listener(table, adopted)
            except Exception:
                log.exception("a listener failed for table %s", table.id)

    async def _resume(self, row: LiveTable, epoch: int) -> TableActor:
        """The table as it was after its last logged entry: the snapshot, then the log after it replayed."""
        data = row.table
        game = get_game(row.game).from_state(row.state)
        timing_data = dict(data["timing"])
        timing_data["bot_delay_seconds"] = tuple(timing_data["bot_delay_seconds"])
        timing = replace(self.timing, **{k: v for k, v in timing_data.items() if hasattr(self.timing, k)})
        table = TableActor(
            table_id=row.id,
            game=game,
            seats=[Seat(**seat) for seat in data["seats"]],
            mode=data["mode"],
            timing=timing,
            hooks=self.store,
            clock=self.table_clock,
            seed_hex=row.seed,
            options=data["options"],
            meta=data.get("meta", {}),
            epoch=epoch,
            version=data["version"],
        )
        rows = await self.store.entries(row.id)
        entries = [LogEntry(r.seat, r.action, r.source, r.version) for r in rows]
        if [r.seq for r in rows] != list(range(1, len(rows) + 1)) or len(entries) < row.snapshot_seq:
            raise RuntimeError(f"table {row.id}: its log has gaps or is shorter than its snapshot")
        table.replay(entries, applied=row.snapshot_seq)
        return table

    async def _cancel_unresumable(self, row: LiveTable, epoch: int) -> None:
        seats = [Seat(**seat) for seat in row.table.get("seats", [])]
        stand_in = _Unresumable(row, epoch, seats)
        try:
            await self.store.abandon(stand_in, "it could not be resumed")  # type: ignore[arg-type]
        except Exception:
            log.exception("could not cancel unresumable table %s", row.id)

    def _sign_seat(self, table: TableActor, seat: int) -> str:
        return tokens.sign(self.runtime.secret_key, table=table.id, user=table.seats[seat].user_id or 0, seat=seat,
                           node=self.node_id, epoch=table.epoch)

    async def alive_nodes(self, node_ids: list[str]) -> set[str]:
        """Of these incarnations, the live ones; an answer is reused for a second (joins ask it often)."""
        if self.ownership is None:
            return {self.node_id} & set(node_ids)
        now = time.monotonic()
        unknown = [node for node in node_ids if self._alive_seen.get(node, (False, 0.0))[1] < now]
        if unknown:
            alive = await self.ownership.alive_nodes(unknown)
            for node in unknown:
                self._alive_seen[node] = (node in alive, now + ALIVE_CACHE_SECONDS)
        return {node for node in node_ids if self._alive_seen[node][0]}

    def owned(self) -> int:
        return sum(1 for table in self.tables.values() if table.status == "playing")

    def failed(self) -> list[str]:
        return sorted(table.id for table in self.tables.values() if table.status == "failed")


class _Unresumable:
    """What `TableStore.abandon` reads of a table that could not be rebuilt."""

    def __init__(self, row: LiveTable, epoch: int, seats: list[Seat]):
        self.id = row.id
        self.epoch = epoch
        self.mode = row.mode
        self.game_name = row.game
        self.seats = seats


async def _keep_legacy_log(session: Any, row: LiveTable) -> None:
    """A table saved before the action log existed kept its moves in the snapshot: they become its first log
    entries (the snapshot's state includes them)."""
    legacy = row.table.get("action_log")
    if legacy is None or row.log_seq:
        return
    from sqlalchemy import update

    from app.tables.models import TableAction

    session.add_all([TableAction(table_id=row.id, seq=index + 1, seat=seat, action=action, source="player",
                                 version=0) for index, (seat, action) in enumerate(legacy)])
    row.table = {key: value for key, value in row.table.items() if key != "action_log"}
    await session.execute(update(LiveTable).where(LiveTable.id == row.id)
                          .values(log_seq=len(legacy), snapshot_seq=len(legacy), table=row.table))
    row.log_seq = row.snapshot_seq = len(legacy)
