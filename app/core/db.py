"""The database: one engine factory for SQLite and Postgres, the declarative base and its naming convention.

SQLite (embedded) loses concurrent read-modify-writes unless every connection uses WAL, a busy timeout and
`BEGIN IMMEDIATE` (design.md, "Money"). The stdlib driver normally decides by itself when to emit BEGIN (and never
for SELECT); we switch that off (`isolation_level = None`) and emit `BEGIN IMMEDIATE` from SQLAlchemy's "begin"
event, as SQLAlchemy's SQLite documentation describes ("Enabling Non-Legacy SQLite Transactional Modes"). Every
transaction then takes the write lock at its start: writers queue on the busy timeout instead of failing or
overwriting each other, and readers still read a consistent snapshot.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

from sqlalchemy import BigInteger, DateTime, Integer, MetaData, event
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect, Engine, IteratorResult, make_url
from sqlalchemy.engine.result import SimpleResultMetaData
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql import Delete, Select, Update
from sqlalchemy.sql.dml import Insert
from sqlalchemy.types import TypeDecorator

from app.core import strict_json

log = logging.getLogger(__name__)

# Names every constraint, so migrations can refer to them and SQLite batch mode can recreate tables faithfully.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_N_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# 64-bit ids on Postgres; on SQLite only INTEGER PRIMARY KEY autoincrements (and is 64-bit anyway).
BigId = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out, on both backends (SQLite keeps no time zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use Clock.now() (aware UTC)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def create_engine(url: str, *, pool_size: int = 10, max_overflow: int = 20, busy_timeout_ms: int = 30_000,
                  echo: bool = False) -> AsyncEngine:
    """An async engine for `sqlite+aiosqlite://` or `postgresql+asyncpg://` URLs, set up for correct concurrency."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, echo=echo, pool_size=pool_size, max_overflow=max_overflow,
                                     json_serializer=strict_json.dumps)
        _make_sqlite_transactional(engine, busy_timeout_ms)
        return engine
    # JSON columns never hold NaN or Infinity (PostgreSQL refuses them; SQLite would store text no browser reads)
    return create_async_engine(url, echo=echo, pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=True,
                               json_serializer=strict_json.dumps)


def _set_up_sqlite_connection(dbapi_connection: Any, busy_timeout_ms: int) -> None:
    """Every SQLite connection of the process, pooled or not: WAL, a busy timeout, foreign keys, our own BEGINs."""
    dbapi_connection.isolation_level = None  # the driver emits no BEGIN of its own; we do
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer, nor it them
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")  # wait for the lock instead of failing
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable at every checkpoint; safe with WAL
    finally:
        cursor.close()


def _make_sqlite_transactional(engine: AsyncEngine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        _set_up_sqlite_connection(dbapi_connection, busy_timeout_ms)

    event.listen(engine.sync_engine, "begin", _begin_sqlite_transaction)


def _begin_sqlite_transaction(connection: Any) -> None:
    """SQLAlchemy's "begin" on SQLite (every engine of ours, async or the writer's own)."""
    if connection.get_execution_options().get(READ_ONLY):
        # A reader (create_reader): a deferred BEGIN reads a consistent snapshot and, with WAL, never waits
        # for the write lock, so reads do not queue behind writers.
        connection.exec_driver_sql("BEGIN")
        return
    # Take the write lock now: a deferred BEGIN that reads then writes would fail with SQLITE_BUSY, or, with
    # the driver's own transaction handling, read outside any transaction and overwrite a concurrent update.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


READ_ONLY = "tablestakes_read_only"


class _WriterQueue:
    """One SQLite writer at a time in this process, waiting in line on the event loop.

    SQLite lets one connection write at a time; the others wait in its busy handler, which polls with growing sleeps
    (up to 100 ms each). Under load that polling, not the work, was most of a move's latency. Writers of this process
    therefore queue here first, in order, and reach SQLite one by one (the busy timeout still guards against other
    processes). A session joins the queue at its first statement, exactly when SQLite's BEGIN IMMEDIATE would have
    waited, and leaves it when its transaction ends, so nothing that worked before can deadlock here.

    The action log's appends (`urgent`) go before the other writers that are waiting: every move of the node waits
    for its append, while a settlement or a new room waiting a few milliseconds more delays nobody's move.
    """

    def __init__(self, timeout_seconds: float):
        self.timeout_seconds = timeout_seconds
        self._held = False
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._others: deque[asyncio.Future[None]] = deque()

    async def line_up(self, *, urgent: bool = False) -> None:
        """Wait for this process's write turn (give it back with `release()`); refused like a busy SQLite."""
        if not self._held and not self._urgent and not self._others:
            self._held = True
            return
        turn = asyncio.get_running_loop().create_future()
        line = self._urgent if urgent else self._others
        line.append(turn)
        try:
            await asyncio.wait_for(asyncio.shield(turn), self.timeout_seconds)
        except BaseException as error:
            if turn in line:
                line.remove(turn)
            if turn.done() and not turn.cancelled():
                self.release()  # handed the turn just as this waiter gave up: pass it on
            else:
                turn.cancel()
            if isinstance(error, TimeoutError):
                raise OperationalError("BEGIN IMMEDIATE", {}, Exception("database is locked (writers' queue)")) \
                    from None
            raise

    def take_if_free(self) -> bool:
        """Take the turn now if nobody holds it or waits for it (no await: no task needed to line up)."""
        if self._held or self._urgent or self._others:
            return False
        self._held = True
        return True

    def others_waiting(self) -> bool:
        """Whether a writer other than the appends waits for the turn. Read from the writer's thread too: a deque's
        length is read atomically, and a stale answer only moves when a run of appends yields, never correctness."""
        return bool(self._others)

    def release(self) -> None:
        """Give the turn to the next writer waiting (an append first), or free it."""
        for line in (self._urgent, self._others):
            while line:
                turn = line.popleft()
                if not turn.done():
                    turn.set_result(None)  # the turn passes straight on: `_held` stays True
                    return
        self._held = False


class QueuedWriteSession(AsyncSession):
    """An AsyncSession that takes its place in the writers' queue before its first statement (SQLite only)."""

    writers: _WriterQueue

    _in_line = False

    async def _line_up(self) -> None:
        if not self._in_line:
            await self.writers.line_up()
            self._in_line = True

    def _leave(self) -> None:
        if self._in_line:
            self._in_line = False
            self.writers.release()

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        await self._line_up()
        return await super().execute(*args, **kwargs)

    async def scalar(self, *args: Any, **kwargs: Any) -> Any:
        await self._line_up()
        return await super().scalar(*args, **kwargs)

    async def scalars(self, *args: Any, **kwargs: Any) -> Any:
        await self._line_up()
        return await super().scalars(*args, **kwargs)

    async def get(self, *args: Any, **kwargs: Any) -> Any:
        await self._line_up()
        return await super().get(*args, **kwargs)

    async def flush(self, *args: Any, **kwargs: Any) -> None:
        await self._line_up()
        await super().flush(*args, **kwargs)

    async def commit(self) -> None:
        try:
            await super().commit()
        finally:
            self._leave()

    async def rollback(self) -> None:
        try:
            await super().rollback()
        finally:
            self._leave()

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            self._leave()


def create_sessionmaker(engine: AsyncEngine, busy_timeout_ms: int = 30_000) -> async_sessionmaker[AsyncSession]:
    """Sessions that may write. On SQLite they queue for the write lock on the event loop (_WriterQueue)."""
    if engine.dialect.name == "sqlite":
        session_class = type("SQLiteWriteSession", (QueuedWriteSession,),
                             {"writers": _WriterQueue(busy_timeout_ms / 1000)})
        return async_sessionmaker(engine, class_=session_class, expire_on_commit=False, autoflush=False)
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=False)


Result = TypeVar("Result")


CHECKPOINT_SECONDS = 0.5  # the WAL's checkpoints: under load, a few hundred pages each (a few MiB of WAL at most)


class SQLiteDirectWriter:
    """SQLite only: one stdlib connection on a thread of its own, for write transactions that run whole in one trip
    to that thread. Through aiosqlite every statement is a trip of its own, each a wake-up of the event loop, and a
    transaction holds SQLite's write lock across all of them: under load each trip waits a turn of the busy loop
    (1-3 ms), so a settlement of a dozen statements held the lock for 20-50 ms while every move's append waited.

    - `transaction(work)`: `work(connection)` with the stdlib connection (the action log's group commits), in the
      write turn ahead of the other writers waiting.
    - `orm_transaction(work)`: an ORM transaction, `work(session)` as for `Runtime.transaction()`, run on this
      thread through a synchronous session over the same connection (a game's settlement, a new table's row).

    Both take this process's write turn first, so SQLite's lock is never waited for in its busy handler.

    Its connection never checkpoints the WAL itself: a `WALCheckpointer` on a thread of its own does, beside it."""

    def __init__(self, path: str, busy_timeout_ms: int, writers: _WriterQueue, *,
                 checkpoint_seconds: float = CHECKPOINT_SECONDS):
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.writers = writers
        self.checkpointer = WALCheckpointer(path, busy_timeout_ms, checkpoint_seconds)
        # A plain thread and queue rather than an executor: a group commit is frequent, and an executor's future,
        # its condition and the asyncio future chained to it cost more than the work they carry.
        self._jobs: queue.SimpleQueue[_WriterJob | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._connection: sqlite3.Connection | None = None
        self._orm_engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None
        self._direct: _DirectStatements | None = None
        self._group_commits: list[SQLiteGroupCommits[Any]] = []

    @staticmethod
    def serves(engine: AsyncEngine) -> bool:
        """Whether the engine is an SQLite file. Every connection to an in-memory database is a database of its
        own, so this writer's own connection needs a file."""
        database = engine.url.database or ""
        return engine.dialect.name == "sqlite" and bool(database) and database != ":memory:"

    @classmethod
    def for_engine(cls, engine: AsyncEngine, sessionmaker: async_sessionmaker[AsyncSession],
                   busy_timeout_ms: int = 30_000) -> SQLiteDirectWriter:
        if not cls.serves(engine):
            raise ValueError(f"the action log needs an SQLite file, not {engine.url.render_as_string()}")
        return cls(engine.url.database or "", busy_timeout_ms, sessionmaker.class_.writers)

    async def transaction(self, work: Callable[[sqlite3.Connection], Result]) -> Result:
        """Run `work(connection)` inside BEGIN IMMEDIATE ... COMMIT on the writer's thread, in this process's write
        turn ahead of the other writers; rolled back if it raises (and the error raised here)."""
        return await self._in_turn(lambda: self._run(work), urgent=True)

    async def orm_transaction(self, work: Callable[[Any], Awaitable[Result]]) -> Result:
        """Run the ORM transaction `work(session)` on the writer's thread, in this process's write turn (behind
        the appends waiting); committed when it returns, rolled back if it raises.

        `work` is an async function of a session, the same code as on PostgreSQL, that awaits nothing but its
        session: here the session's methods complete at once, so the coroutine runs to its end without ever
        suspending, and the lock is held only for its own statements. It may not await anything else (there is
        no event loop on this thread): RuntimeError, rolled back, if it does."""
        return await self._in_turn(lambda: self._run_orm_between_appends(work), urgent=False)

    def _run_orm_between_appends(self, work: Callable[[Any], Awaitable[Result]]) -> Result:
        # In the turn, the appends already waiting go first, and those that queue meanwhile right after: neither
        # waits for this transaction and then for the turn to come back through the loop (many of the slowest
        # moves did). Before it, one batch only: appends that keep coming must not hold the transaction off.
        self._commit_pending_appends(until_none_left=False)
        try:
            return self._run_orm(work)
        finally:
            self._commit_pending_appends(until_none_left=True)

    def _commit_pending_appends(self, *, until_none_left: bool) -> None:
        for commits in self._group_commits:
            commits.commit_pending_now(until_none_left=until_none_left)

    async def _in_turn(self, work: Callable[[], Result], *, urgent: bool) -> Result:
        # The turn is given back when the thread is done with it, even if the caller stopped waiting.
        await self.writers.line_up(urgent=urgent)
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Result] = loop.create_future()
        try:
            self._submit(_WriterJob(work, loop, done, self.writers.release))
        except BaseException:
            self.writers.release()
            raise
        return await asyncio.shield(done)

    def group_commits(self, commit: Callable[[sqlite3.Connection, list[Item]], Any],
                      settle: Callable[[list[Item], Any, BaseException | None], None], *,
                      size: Callable[[Item], int], max_size: int) -> SQLiteGroupCommits[Item]:
        """Items committed on this writer's thread in runs (SQLiteGroupCommits): `commit(connection, items)`, which
        must be atomic on its own (see there), then `settle(items, result, error)` on the event loop."""
        commits = SQLiteGroupCommits(self, commit, settle, size=size, max_size=max_size)
        self._group_commits.append(commits)
        return commits

    def _submit(self, job: _WriterJob | None) -> None:
        if self._worker is None:
            self._worker = threading.Thread(target=self._serve, name="sqlite-writer", daemon=True)
            self._worker.start()
            self.checkpointer.start()
        self._jobs.put(job)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                outcome: tuple[Any, BaseException | None] = (job.work(), None)
            except BaseException as error:
                outcome = (None, error)
            try:
                job.loop.call_soon_threadsafe(job.finish, *outcome)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, check_same_thread=False, uri=self.path.startswith("file:"))
            _set_up_sqlite_connection(connection, self.busy_timeout_ms)
            # The commit that took the WAL past 1,000 pages used to checkpoint it on this thread (copy the pages
            # into the database file, two fsyncs): 1-8 ms, about once a second under load, while every move's
            # append queued behind it. The checkpointer's thread does it instead.
            connection.execute("PRAGMA wal_autocheckpoint=0")
            self._connection = connection
        return self._connection

    def _run_autocommit(self, work: Callable[[sqlite3.Connection], Result]) -> Result:
        """`work(connection)` outside any transaction: each of its statements is a transaction of its own."""
        connection = self._open()
        try:
            return work(connection)
        finally:
            if connection.in_transaction:  # work that began one and failed: never leave the lock held
                connection.execute("ROLLBACK")

    def _run(self, work: Callable[[sqlite3.Connection], Result]) -> Result:
        connection = self._open()
        connection.execute("BEGIN IMMEDIATE")
        try:
            result = work(connection)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return result

    def _run_orm(self, work: Callable[[Any], Awaitable[Result]]) -> Result:
        if self._sessions is None:
            engine = create_sync_engine("sqlite://", creator=self._open, poolclass=StaticPool,
                                        json_serializer=strict_json.dumps)
            event.listen(engine, "begin", _join_the_writers_transaction)  # its connection is set up by _open
            with engine.connect():  # SQLAlchemy's first connect reads the server and rolls back: not inside ours
                pass
            self._orm_engine = engine
            self._sessions = sessionmaker(engine, expire_on_commit=False, autoflush=False)
            self._direct = _DirectStatements(engine.dialect, self._open)
        assert self._orm_engine is not None and self._direct is not None
        connection = self._open()
        # Begun here, on the connection: the Session (made only if the work needs it) joins this transaction.
        connection.execute("BEGIN IMMEDIATE")
        inline = _InlineSession(self._sessions, self._orm_engine, self._direct, connection)
        try:
            coroutine = work(inline)
            try:
                coroutine.send(None)
            except StopIteration as returned:
                result = returned.value
            else:
                coroutine.close()
                raise RuntimeError("a write transaction run on the SQLite writer's thread awaited something else "
                                   "than its session")
            inline.commit()
            return result
        except BaseException:
            inline.rollback()
            raise
        finally:
            inline.close()

    async def close(self) -> None:
        await self.checkpointer.stop()
        if self._worker is None:
            return
        def close_connection() -> None:
            if self._orm_engine is not None:
                self._orm_engine.dispose()
                self._orm_engine = self._sessions = self._direct = None
            if self._connection is not None:
                self._connection.close()
                self._connection = None
        loop = asyncio.get_running_loop()
        closed: asyncio.Future[None] = loop.create_future()
        self._submit(_WriterJob(close_connection, loop, closed, None))
        self._submit(None)
        try:
            await closed
        finally:
            self._worker = None


class WALCheckpointer:
    """SQLite only: checkpoints the database's WAL every `period` seconds, on a thread and connection of its own.

    A PASSIVE checkpoint copies the committed pages into the database file without waiting for readers or writers,
    and SQLite restarts the WAL from its beginning once everything in it is copied and nobody reads it, so the
    file stays small. The writer's own connection does not checkpoint (SQLiteDirectWriter); other connections keep
    SQLite's automatic checkpoint at 1,000 pages as a backstop, which a WAL this small seldom reaches."""

    def __init__(self, path: str, busy_timeout_ms: int, period: float):
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.period = period
        self.passes = 0
        self.last: tuple[int, int] | None = None  # the last pass: (pages in the WAL, pages of them copied)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="sqlite-checkpointer", daemon=True)
            self._thread.start()

    async def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stopping.set()
            await asyncio.to_thread(thread.join)

    def _run(self) -> None:
        connection = self._connect()
        if connection is None:
            return  # stopped before it could open one
        try:
            while not self._stopping.wait(self.period):
                try:
                    self.checkpoint(connection)
                except sqlite3.Error:  # a busy or failing disk: the next pass tries again, nobody waits for it
                    log.warning("checkpointing the SQLite WAL failed", exc_info=True)
        finally:
            connection.close()

    def _connect(self) -> sqlite3.Connection | None:
        """Its own connection, retried every period until it opens: the writer's connection never checkpoints,
        so a checkpointer that gave up would leave the WAL growing for as long as the process runs."""
        failures = 0
        while not self._stopping.is_set():
            connection: sqlite3.Connection | None = None
            try:
                connection = sqlite3.connect(self.path, check_same_thread=False, uri=self.path.startswith("file:"))
                _set_up_sqlite_connection(connection, self.busy_timeout_ms)
                if failures:
                    log.warning("the SQLite WAL checkpointer opened its connection after %s failed tries", failures)
                return connection
            except sqlite3.Error:
                if connection is not None:
                    connection.close()
                if failures == 0:  # once, not every period
                    log.error("the SQLite WAL checkpointer cannot open %s; trying again every %s s", self.path,
                              self.period, exc_info=True)
                failures += 1
                self._stopping.wait(self.period)
        return None

    def checkpoint(self, connection: sqlite3.Connection) -> None:
        _busy, wal_pages, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.last = (wal_pages, copied)
        self.passes += 1


Item = TypeVar("Item")

RUN_YIELD_SECONDS = 0.010  # a run of group commits gives the write turn back after this long if others wait


class SQLiteGroupCommits(Generic[Item]):
    """SQLite only: group commits (the action log's appends) that the writer's thread runs back to back.

    One write turn covers a run: the thread commits what is pending, hands the results to the event loop, and takes
    whatever arrived meanwhile without waiting for the loop in between. A move that arrives while a batch commits
    goes into the next one at once; before, each batch gave the turn back through the loop and the next one lined up
    again (two trips through a busy loop per batch, most of a slow move's wait). The run ends when nothing is
    pending, or after RUN_YIELD_SECONDS if another writer waits (a settlement, a new table), so those still get
    their turn between runs. A batch that fails is tried again item by item, so that one item's error (a bad row)
    does not fail the others'.

    `commit(connection, items)` gets the connection outside any transaction and must be atomic on its own: one
    statement, which SQLite runs as a transaction of its own (an INSERT takes the write lock before it reads, as
    BEGIN IMMEDIATE would), plus reads if it needs them. One statement is one trip through the sqlite3 module
    where BEGIN, the statements and COMMIT were four or five; each trip gives up the GIL and must win it back from
    the busy event loop, and those waits, not SQLite's work, were most of a slow commit (p99 10 ms, 0.3 ms of CPU).
    """

    def __init__(self, writer: SQLiteDirectWriter, commit: Callable[[sqlite3.Connection, list[Item]], Any],
                 settle: Callable[[list[Item], Any, BaseException | None], None], *, size: Callable[[Item], int],
                 max_size: int):
        self.writer = writer
        self._commit = commit
        self._settle = settle
        self._size = size
        self._max_size = max_size
        self._lock = threading.Lock()  # guards _pending and _running between the loop and the writer's thread
        self._pending: deque[Item] = deque()
        self._running = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._starting: asyncio.Task | None = None

    def add(self, item: Item) -> None:
        """Queue `item` for the next commit (on the event loop); its `settle` comes later, on the loop."""
        self._loop = asyncio.get_running_loop()
        with self._lock:
            self._pending.append(item)
            if self._running:
                return
            self._running = True
        self._start()

    def _start(self) -> None:
        if self.writer.writers.take_if_free():
            self._submit_run()
        else:
            self._starting = asyncio.get_running_loop().create_task(self._line_up(), name="log-commits")

    async def _line_up(self) -> None:
        try:
            await self.writer.writers.line_up(urgent=True)
        except BaseException as error:
            self._fail_pending(error if isinstance(error, Exception) else ConnectionError("the log is closing"))
            raise
        self._submit_run()

    def _submit_run(self) -> None:
        assert self._loop is not None
        try:
            self.writer._submit(_WriterJob(self._run, self._loop, None, self._run_over))
        except BaseException as error:
            self.writer.writers.release()
            self._fail_pending(error)

    def _fail_pending(self, error: BaseException) -> None:
        with self._lock:
            items = list(self._pending)
            self._pending.clear()
            self._running = False
        if items:
            self._settle(items, None, error)

    def _take(self) -> list[Item]:
        """The next batch (under the lock), or [] and the run marked over."""
        with self._lock:
            batch = self._next_batch()
            if not batch:
                self._running = False
            return batch

    def _next_batch(self) -> list[Item]:
        batch: list[Item] = []
        size = 0
        while self._pending and (not batch or size + self._size(self._pending[0]) <= self._max_size):
            item = self._pending.popleft()
            batch.append(item)
            size += self._size(item)
        return batch

    def commit_pending_now(self, *, until_none_left: bool) -> None:
        """On the writer's thread, holding the write turn for another writer's transaction, before it and after
        it: commit what is queued (one batch, or batches until none is left). Those items would otherwise wait
        for that transaction, then for the turn to travel through the busy event loop (the release, their run's
        wake-up, its submission) before the thread took them. The run that lined up for them still comes, finds
        less or nothing, and ends as usual."""
        loop = self._loop
        if loop is None:
            return
        while True:
            with self._lock:
                batch = self._next_batch()
            if not batch or not self._commit_and_settle(batch, loop) or not until_none_left:
                return

    def _run(self) -> None:
        """On the writer's thread, holding the write turn: commit batches until nothing is pending (or yield)."""
        assert self._loop is not None
        loop = self._loop
        started = time.monotonic()
        try:
            while True:
                if time.monotonic() - started > RUN_YIELD_SECONDS and self.writer.writers.others_waiting():
                    with self._lock:
                        self._running = False  # _run_over starts the next run, behind the writer that waits
                    return
                batch = self._take()
                if not batch or not self._commit_and_settle(batch, loop):
                    return
        except BaseException:
            with self._lock:
                self._running = False  # _run_over starts again with what is pending
            raise

    def _commit_and_settle(self, batch: list[Item], loop: asyncio.AbstractEventLoop) -> bool:
        """Commit `batch` (on the writer's thread) and hand each outcome to `settle` on the loop; False if the loop
        is closed (nobody waits any more)."""
        for part, outcome in self._commit_batch(batch):
            try:
                loop.call_soon_threadsafe(self._settle, part, *outcome)
            except RuntimeError:
                return False
        return True

    def _commit_batch(self, batch: list[Item]) -> list[tuple[list[Item], tuple[Any, BaseException | None]]]:
        try:
            return [(batch, (self.writer._run_autocommit(lambda connection: self._commit(connection, batch)), None))]
        except Exception as error:
            if len(batch) == 1:
                return [(batch, (None, error))]
        outcomes: list[tuple[list[Item], tuple[Any, BaseException | None]]] = []
        for item in batch:
            try:
                outcomes.append(([item], (self.writer._run_autocommit(
                    lambda connection: self._commit(connection, [item])), None)))
            except Exception as alone:
                outcomes.append(([item], (None, alone)))
        return outcomes

    def _run_over(self) -> None:
        """Back on the loop once a run ended: give the turn back, and start the next run if items came meanwhile
        (a run that yielded, or items added after the thread found nothing pending and before this)."""
        self.writer.writers.release()
        with self._lock:
            if self._running or not self._pending:
                return
            self._running = True
        self._start()

    def close(self, error: BaseException) -> None:
        """Fail what is still pending (the store is closing); a run on the thread finishes its batch."""
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
        self._fail_pending(error)


def _join_the_writers_transaction(connection: Any) -> None:
    """SQLAlchemy's "begin" on the writer's own engine: the transaction was begun on the connection already
    (SQLiteDirectWriter._run_orm), and the Session joins it."""
    if not connection.connection.dbapi_connection.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


class _InlineSession:
    """The AsyncSession methods the services use, on the writer's thread, inside the transaction `_run_orm` began on
    the connection: each completes at once (see SQLiteDirectWriter.orm_transaction). Prebuilt Core statements run
    straight on the connection (_DirectStatements); a synchronous ORM Session is made only when something needs it
    (an ORM statement, `get`, `add`), and joins the transaction. A Session made, begun and committed costs ~0.25 ms
    of CPU while the write lock is held: more than most of these transactions' statements together."""

    def __init__(self, sessions: sessionmaker[Session], engine: Engine, direct: _DirectStatements,
                 connection: sqlite3.Connection):
        self._sessions = sessions
        self._engine = engine
        self._direct = direct
        self._connection = connection
        self._session: Session | None = None
        self._savepoints = 0  # savepoints opened on the connection (before any Session), still open

    @property
    def sync_session(self) -> Session:
        if self._session is None:
            self._session = self._sessions()
            self._session.begin()
        return self._session

    async def execute(self, statement: Any, params: Any = None, **kwargs: Any) -> Any:
        if not kwargs:
            plan = self._direct.plan(statement, params)
            if plan is not None:
                return self._direct.run(plan, params)
        return self.sync_session.execute(statement, params, **kwargs)

    async def scalar(self, statement: Any, params: Any = None, **kwargs: Any) -> Any:
        return (await self.execute(statement, params, **kwargs)).scalar()

    async def scalars(self, statement: Any, params: Any = None, **kwargs: Any) -> Any:
        return (await self.execute(statement, params, **kwargs)).scalars()

    async def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.sync_session.get(*args, **kwargs)

    async def flush(self, *args: Any, **kwargs: Any) -> None:
        self._no_orm_writes_in_a_connection_savepoint()
        self.sync_session.flush(*args, **kwargs)

    def add(self, instance: Any) -> None:
        self._no_orm_writes_in_a_connection_savepoint()
        self.sync_session.add(instance)

    def add_all(self, instances: Any) -> None:
        self._no_orm_writes_in_a_connection_savepoint()
        self.sync_session.add_all(instances)

    def get_bind(self, *args: Any, **kwargs: Any) -> Any:
        return self._engine

    @asynccontextmanager
    async def begin_nested(self) -> AsyncIterator[None]:
        if self._session is not None:
            with self._session.begin_nested():
                self._session.connection()  # the Session emits SAVEPOINT lazily: a direct statement would come first
                yield
            return
        # No Session yet: the savepoint is the connection's. Rolling it back would not tell a Session's identity map,
        # so nothing may be added to one inside it (_no_orm_writes_in_a_connection_savepoint).
        name = f"direct_{self._savepoints}"
        self._connection.execute(f"SAVEPOINT {name}")
        self._savepoints += 1
        try:
            yield
        except BaseException:
            self._connection.execute(f"ROLLBACK TO {name}")
            raise
        finally:
            self._savepoints -= 1
            self._connection.execute(f"RELEASE {name}")

    def _no_orm_writes_in_a_connection_savepoint(self) -> None:
        if self._savepoints:
            raise RuntimeError("an ORM write inside a savepoint begun before the transaction's Session: use Core "
                               "statements there")

    def commit(self) -> None:
        if self._session is not None:
            self._session.commit()  # flushes what was added, then COMMIT on the same connection
        else:
            self._connection.execute("COMMIT")

    def rollback(self) -> None:
        if self._session is not None:
            self._session.rollback()
        if self._connection.in_transaction:
            self._connection.execute("ROLLBACK")

    def close(self) -> None:
        if self._session is not None:
            self._session.close()


class _DirectResult(IteratorResult[Any]):
    """A statement's rows as SQLAlchemy's own Result (scalar_one(), all()...), and its rowcount."""

    rowcount = -1


class _DirectPlan:
    """A Core statement compiled once for SQLite: its SQL, and per `?` the parameter's name and bind processor."""

    __slots__ = ("statement", "compiled", "sql", "positions", "columns", "expanding")

    def __init__(self, statement: Any, compiled: Any, columns: list[str] | None):
        self.statement = statement  # held, so that its id() is not reused while the plan is kept
        self.compiled = compiled
        self.sql: str = compiled.string
        processors = compiled._bind_processors
        self.positions = [(name, processors.get(name)) for name in compiled.positiontup]
        self.columns = columns
        # An IN list's `?`s depend on its length: rendered for each call, as SQLAlchemy does.
        self.expanding = bool(compiled.post_compile_params or compiled.literal_execute_params)


class _DirectStatements:
    """SQLite writer's thread only: prebuilt Core statements (module constants, run again and again) executed
    straight on the sqlite3 connection, inside the transaction `_run_orm` began. Through the Session a statement
    costs ~50-150 us of SQLAlchemy's Python around ~5-20 us of SQLite, all of it while the write lock is held and
    every move's append waits (a settlement runs about a dozen). The SQL, the parameters' order and their bind
    processors (dates, JSON) are SQLAlchemy's own, compiled once per statement object and parameter names; an IN
    list's `?`s are rendered per call, as SQLAlchemy does.

    Anything else goes through the Session: ORM statements (entities, identity map), Python-side column defaults the
    parameters leave out, result columns that need converting (dates, JSON, booleans), IN lists in an executemany,
    and statements built afresh for each call (planned only when the same object comes back, so a one-off is never
    compiled)."""

    KEPT = 512

    def __init__(self, dialect: Dialect, connection: Callable[[], sqlite3.Connection]):
        self.dialect = dialect
        self._connection = connection
        self._plans: dict[tuple[int, tuple[str, ...], bool], _DirectPlan | None] = {}
        self._seen: dict[tuple[int, tuple[str, ...], bool], Any] = {}

    def plan(self, statement: Any, params: Any) -> _DirectPlan | None:
        many = isinstance(params, list)
        if many:
            if not params or not isinstance(params[0], dict):
                return None
            names = tuple(params[0])
            if any(tuple(row) != names for row in params):
                return None
        elif params is None or isinstance(params, dict):
            names = tuple(params or ())
        else:
            return None
        key = (id(statement), names, many)
        try:
            return self._plans[key]
        except KeyError:
            pass
        if key not in self._seen:  # the first time: maybe a one-off statement, not worth compiling
            if len(self._seen) >= self.KEPT:
                self._seen.clear()
            self._seen[key] = statement
            return None
        del self._seen[key]
        if len(self._plans) >= self.KEPT:
            self._plans.clear()
        plan = self._plans[key] = self._compile(statement, names, many)
        return plan

    def _compile(self, statement: Any, names: tuple[str, ...], many: bool) -> _DirectPlan | None:
        if statement._propagate_attrs or not isinstance(statement, (Insert, Update, Delete, Select)):
            return None  # ORM-enabled, or text: the Session's business
        compiled = statement.compile(dialect=self.dialect, column_keys=list(names))
        if (compiled.insert_prefetch or compiled.update_prefetch or compiled.implicit_returning
                or not compiled.positional or many and (compiled.post_compile_params or compiled.literal_execute_params)):
            return None
        entries = compiled._result_columns
        if entries and (many or any(entry.type._cached_result_processor(self.dialect, None) is not None
                                    for entry in entries)):
            return None
        return _DirectPlan(statement, compiled, [entry.keyname for entry in entries] if entries else None)

    def run(self, plan: _DirectPlan, params: Any) -> _DirectResult:
        connection = self._connection()
        try:
            if isinstance(params, list):
                cursor = connection.executemany(plan.sql, [self._values(plan, row) for row in params])
            elif plan.expanding:
                cursor = connection.execute(*self._expanded(plan, params))
            else:
                cursor = connection.execute(plan.sql, self._values(plan, params))
            rows = cursor.fetchall() if plan.columns is not None else []
        except sqlite3.Error as error:
            raise DBAPIError.instance(plan.sql, params, error, sqlite3.Error, dialect=self.dialect) from error
        result = _DirectResult(SimpleResultMetaData(plan.columns or []), iter(rows))
        result.rowcount = cursor.rowcount
        return result

    @staticmethod
    def _values(plan: _DirectPlan, params: dict[str, Any] | None) -> list[Any]:
        values = plan.compiled.construct_params(params, escape_names=False)
        return [values[name] if process is None else process(values[name]) for name, process in plan.positions]

    @staticmethod
    def _expanded(plan: _DirectPlan, params: dict[str, Any] | None) -> tuple[str, list[Any]]:
        compiled = plan.compiled
        values = compiled.construct_params(params, escape_names=False)
        expanded = compiled._process_parameters_for_postcompile(values)  # adds the expanded names to `values`
        processors = compiled._bind_processors
        extra = expanded.processors
        out = []
        for name in expanded.positiontup:
            process = extra.get(name) or processors.get(name)
            out.append(values[name] if process is None else process(values[name]))
        return expanded.statement, out


class _WriterJob:
    """One piece of work for the writer's thread; `finish` runs back on the event loop."""

    __slots__ = ("work", "loop", "done", "after")

    def __init__(self, work: Callable[[], Any], loop: asyncio.AbstractEventLoop, done: asyncio.Future[Any] | None,
                 after: Callable[[], None] | None):
        self.work, self.loop, self.done, self.after = work, loop, done, after

    def finish(self, result: Any, error: BaseException | None) -> None:
        if self.after is not None:
            self.after()
        if self.done is None:
            if error is not None:
                log.error("a job on the SQLite writer's thread failed", exc_info=error)
            return
        if self.done.done():
            return
        if error is not None:
            self.done.set_exception(error)
        else:
            self.done.set_result(result)


def create_reader(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for work that only reads (GET requests, session checks, loading a log). On SQLite they do not take
    the write lock; they must not write (a write there could fail with SQLITE_BUSY instead of waiting)."""
    return async_sessionmaker(engine.execution_options(**{READ_ONLY: True}), expire_on_commit=False,
                              autoflush=False)


def insert_ignoring_conflicts(session: AsyncSession, table: Any) -> Insert:
    """`INSERT ... ON CONFLICT DO NOTHING` into `table` in the session's dialect (Postgres and SQLite share the
    syntax); execute it with the row's values as parameters. Built once per dialect and table: building a statement
    costs several times what executing it does."""
    return _insert_ignoring_conflicts(session.get_bind().dialect.name, table)


@functools.lru_cache(maxsize=64)
def _insert_ignoring_conflicts(dialect: str, table: Any) -> Insert:
    return (postgresql if dialect == "postgresql" else sqlite).insert(table).on_conflict_do_nothing()
