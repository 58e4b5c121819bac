"""Redis behind one factory: `redis://` (and `rediss://`, `unix://`) is a real server, `memory://` an in-process
fakeredis server with Lua (design.md, "Coordination"). Same client API either way, Lua scripts included."""

from __future__ import annotations

from typing import Any

import redis.asyncio as redis_asyncio

Redis = redis_asyncio.Redis


def create_redis(url: str) -> Any:
    """A `redis.asyncio.Redis`-compatible client with `decode_responses=True` (str in, str out)."""
    if url.startswith("memory://"):
        import fakeredis

        # A server of its own: two apps in one process (tests) never see each other's keys. A blocking pool, as for
        # a real server: past its size a command waits for a connection instead of failing (thousands of sockets
        # opening at once each touch presence).
        return fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(), decode_responses=True,
                                        connection_pool_class=redis_asyncio.BlockingConnectionPool,
                                        max_connections=200, timeout=10)
    # A blocking pool: past its size a command waits for a free connection instead of failing at once.
    pool = redis_asyncio.BlockingConnectionPool.from_url(url, decode_responses=True, max_connections=200, timeout=10)
    return redis_asyncio.Redis(connection_pool=pool)


async def close_redis(client: Any) -> None:
    close = getattr(client, "aclose", None) or client.close
    await close()
    pool = getattr(client, "connection_pool", None)
    if pool is not None:
        await pool.disconnect()
