"""Fixed-window rate limits in Redis, one atomic Lua step per hit (works the same on fakeredis)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# KEYS[1] counter; ARGV[1] window seconds. Returns {count after the hit, seconds until the window resets}.
_HIT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
"""

# KEYS[1] counter. Returns {count, ttl} without counting.
_PEEK = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('TTL', KEYS[1])
return {count, ttl}
"""


@dataclass(frozen=True)
class Window:
    count: int
    retry_after: int  # seconds until the window resets


class RateLimiter:
    def __init__(self, redis: Any, prefix: str = "ratelimit"):
        self._redis = redis
        self._prefix = prefix
        self._hit = redis.register_script(_HIT)
        self._peek = redis.register_script(_PEEK)

    def _key(self, name: str) -> str:
        return f"{self._prefix}:{name}"

    async def hit(self, name: str, window_seconds: int) -> Window:
        count, ttl = await self._hit(keys=[self._key(name)], args=[int(window_seconds)])
        return Window(int(count), max(1, int(ttl)))

    async def peek(self, name: str) -> Window:
        count, ttl = await self._peek(keys=[self._key(name)])
        return Window(int(count), max(1, int(ttl)))

    async def reset(self, name: str) -> None:
        await self._redis.delete(self._key(name))
