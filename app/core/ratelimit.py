"""Fixed-window rate limits in Redis, one atomic Lua step per hit (works the same on fakeredis), and the client
address they are counted by."""

from __future__ import annotations

import ipaddress
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


# KEYS[1] counter. Takes one hit back (an attempt that turned out not to count); never below zero, never creating.
_UNDO = """
if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
"""


def address_key(host: str | None) -> str:
    """What a client address is counted as: an IPv4 address as it is, an IPv6 address by its /64 (one household or
    one server holds a whole /64, so counting single IPv6 addresses would count nothing)."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


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
        self._undo = redis.register_script(_UNDO)

    def _key(self, name: str) -> str:
        return f"{self._prefix}:{name}"

    async def hit(self, name: str, window_seconds: int) -> Window:
        count, ttl = await self._hit(keys=[self._key(name)], args=[int(window_seconds)])
        return Window(int(count), max(1, int(ttl)))

    async def peek(self, name: str) -> Window:
        count, ttl = await self._peek(keys=[self._key(name)])
        return Window(int(count), max(1, int(ttl)))

    async def undo(self, name: str) -> None:
        """Take one hit back (an attempt that, in the end, does not count against the limit)."""
        await self._undo(keys=[self._key(name)])

    async def reset(self, name: str) -> None:
        await self._redis.delete(self._key(name))

    async def remember(self, name: str, seconds: int) -> None:
        """Note a fact for `seconds` (e.g. "this address logged in to this account")."""
        await self._redis.set(self._key(name), "1", ex=int(seconds))

    async def remembers(self, name: str) -> bool:
        return bool(await self._redis.exists(self._key(name)))
