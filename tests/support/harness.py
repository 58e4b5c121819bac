"""An app on a storage backend, with an httpx client on it (ASGITransport) and direct access to its services.

    async def test_something(harness):
        alice = await harness.user("alice")                  # a user with a session, no argon2 cost
        response = await alice.get("/api/me")
        async with harness.runtime.transaction() as session:  # straight to the services
            ...

Make another with other settings: `async with open_harness(settings) as other: ...`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache

import httpx
from argon2 import PasswordHasher, Type
from fastapi import FastAPI
from sqlalchemy import update

from app.accounts.levels import xp_for_level
from app.accounts.models import User
from app.config import Settings
from app.core.clock import ManualClock
from app.core.security import SESSION_COOKIE
from app.main import create_app
from app.models import metadata
from app.runtime import Runtime

PASSWORD = "correct horse battery"
BASE_URL = "http://testserver"


@cache
def password_hash(settings_key: tuple[int, int, int] = (19456, 2, 1)) -> str:
    """PASSWORD hashed once per run with the app's parameters (a real argon2id hash, reused to keep tests fast)."""
    memory, time_cost, parallelism = settings_key
    return PasswordHasher(time_cost=time_cost, memory_cost=memory, parallelism=parallelism, hash_len=32,
                          salt_len=16, type=Type.ID).hash(PASSWORD)


@dataclass
class Harness:
    app: FastAPI
    settings: Settings
    clock: ManualClock
    runtime: Runtime
    client: httpx.AsyncClient  # anonymous
    _clients: list[httpx.AsyncClient] = field(default_factory=list)

    def new_client(self, *, base_url: str = BASE_URL, address: str = "127.0.0.1", **kwargs: object
                   ) -> httpx.AsyncClient:
        """A client at `address` (what the app sees as the client's address: rate limits count by it)."""
        transport = httpx.ASGITransport(app=self.app, raise_app_exceptions=False, client=(address, 40000))
        client = httpx.AsyncClient(transport=transport, base_url=base_url, **kwargs)  # type: ignore[arg-type]
        self._clients.append(client)
        return client

    async def create_user(self, username: str) -> User:
        """A committed user with wallet and welcome coins, password PASSWORD (hashed once per run)."""
        async with self.runtime.transaction() as session:
            return await self.runtime.accounts.create_user(session, username, password_hash())

    async def session_token(self, user_id: int) -> str:
        async with self.runtime.transaction() as session:
            return await self.runtime.accounts.start_session(session, user_id)

    async def user(self, username: str) -> httpx.AsyncClient:
        """A client logged in as a new user `username` (created directly; use /api/auth/* to test those)."""
        user = await self.create_user(username)
        client = self.new_client()
        client.cookies.set(SESSION_COOKIE, await self.session_token(user.id))
        return client

    async def close(self) -> None:
        for client in self._clients:
            await client.aclose()


async def reach_staked_level(runtime: Runtime, user_id: int) -> None:
    """Give an account the XP that opens staked tables (STAKED_MIN_LEVEL), as finishing that many online or friends
    games would: the rule against throwaway accounts (app/online/matchmaking.py) applies to tests' players too."""
    settings = runtime.settings
    async with runtime.transaction() as session:
        await session.execute(update(User).where(User.id == user_id, User.xp < xp_for_level(
            settings.staked_min_level, settings.level_xp_step)).values(
            xp=xp_for_level(settings.staked_min_level, settings.level_xp_step)))


async def wipe(runtime: Runtime) -> None:
    """Empty every table and the Redis database: a clean slate on a shared services database."""
    async with runtime.engine.begin() as connection:
        for table in reversed(metadata.sorted_tables):
            await connection.execute(table.delete())
    await runtime.redis.flushdb()


@asynccontextmanager
async def open_harness(settings: Settings, *, clean: bool = False, clock: ManualClock | None = None
                       ) -> AsyncIterator[Harness]:
    clock = clock or ManualClock()
    app = create_app(settings, clock=clock)
    async with app.router.lifespan_context(app):
        runtime: Runtime = app.state.runtime
        if clean:
            await wipe(runtime)
        harness = Harness(app=app, settings=settings, clock=clock, runtime=runtime, client=None)  # type: ignore[arg-type]
        harness.client = harness.new_client()
        try:
            yield harness
        finally:
            await harness.close()
