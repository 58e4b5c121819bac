"""Everything a running app holds: settings, clock, database engine and sessions, Redis, and the services.

`open_runtime(settings)` builds it and closes it; `create_app` keeps one on `app.state.runtime`, and the CLI
(`grant`), the bench and the tests open their own. Nothing here is global, so two apps with different settings can
live in one process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.accounts.service import AccountService
from app.config import Settings
from app.core import migrations
from app.core.clock import Clock, SystemClock
from app.core.db import (QueuedWriteSession, Result, SQLiteDirectWriter, create_engine, create_reader,
                         create_sessionmaker)
from app.core.ratelimit import RateLimiter
from app.core.redis import close_redis, create_redis
from app.core.security import PasswordHashing
from app.friends.service import FriendService
from app.ledger.service import LedgerService


@dataclass
class Runtime:
    settings: Settings
    clock: Clock
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    reader: async_sessionmaker[AsyncSession]  # sessions that only read (on SQLite: no write lock, no waiting)
    redis: Any
    secret_key: str
    limiter: RateLimiter
    ledger: LedgerService
    accounts: AccountService
    friends: FriendService

    _direct_writer: SQLiteDirectWriter | None = field(default=None, init=False, repr=False)

    def direct_writer(self) -> SQLiteDirectWriter:
        """SQLite only: the process's writer on a thread of its own (app/core/db.py): the action log's group
        commits and the write transactions that run whole in one trip (`write`). Made on first use."""
        if self._direct_writer is None:
            self._direct_writer = SQLiteDirectWriter.for_engine(self.engine, self.sessionmaker,
                                                                self.settings.sqlite_busy_timeout_ms)
        return self._direct_writer

    async def write(self, work: Callable[[AsyncSession], Awaitable[Result]]) -> Result:
        """One write transaction, `work(session)`, committed when it returns. On an SQLite file it runs whole on
        the direct writer's thread, in one trip (SQLiteDirectWriter.orm_transaction: `work` may await nothing but
        its session), so it holds the write turn only for its own statements, not for a trip through the event
        loop per statement; elsewhere it is `transaction()`."""
        if SQLiteDirectWriter.serves(self.engine):
            return await self.direct_writer().orm_transaction(work)
        async with self.transaction() as session:
            return await work(session)

    async def close_direct_writer(self) -> None:
        if self._direct_writer is not None:
            await self._direct_writer.close()
            self._direct_writer = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """`async with runtime.transaction() as session:` one unit of work, committed on success. On SQLite it
        waits its turn among this process's writers first (app/core/db.py, _WriterQueue)."""
        async with self.sessionmaker.begin() as session:
            if isinstance(session, QueuedWriteSession):
                await session._line_up()
            yield session


@asynccontextmanager
async def open_runtime(settings: Settings, clock: Clock | None = None, *, migrate: bool = False
                       ) -> AsyncIterator[Runtime]:
    clock = clock or SystemClock()
    engine = create_engine(settings.database_url, pool_size=settings.db_pool_size,
                           max_overflow=settings.db_max_overflow, busy_timeout_ms=settings.sqlite_busy_timeout_ms)
    redis = create_redis(settings.redis_url)
    runtime: Runtime | None = None
    try:
        if migrate:
            await migrations.upgrade(engine)
        sessionmaker = create_sessionmaker(engine, settings.sqlite_busy_timeout_ms)
        limiter = RateLimiter(redis)
        ledger = LedgerService(clock)
        passwords = PasswordHashing(settings.argon2_memory_kib, settings.argon2_time_cost,
                                    settings.argon2_parallelism)
        reader = create_reader(engine)
        accounts = AccountService(settings, clock, ledger, passwords, limiter, sessionmaker, reader)
        friends = FriendService(clock, accounts)
        runtime = Runtime(settings=settings, clock=clock, engine=engine, sessionmaker=sessionmaker, reader=reader,
                          redis=redis,
                          secret_key=settings.resolved_secret_key(), limiter=limiter, ledger=ledger,
                          accounts=accounts, friends=friends)
        yield runtime
    finally:
        if runtime is not None:
            await runtime.close_direct_writer()
        await close_redis(redis)
        await engine.dispose()
