"""Who is connected: the sockets of this node by user, and presence in Redis so friends see who is online.

Presence is one Redis hash per user (`presence:<user_id>`: socket id -> node) with a TTL that every open socket
refreshes; the key vanishes by itself when the last socket closes or its node dies.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Iterable
from typing import Any, Protocol

log = logging.getLogger(__name__)

PRESENCE_TTL_SECONDS = 60
PRESENCE_REFRESH_SECONDS = 20


def presence_key(user_id: int) -> str:
    return f"presence:{user_id}"


class Outbound(Protocol):
    id: str
    user_id: int

    def deliver(self, message: dict[str, Any]) -> None: ...


class TokenBucket:
    """`rate` messages per second sustained, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float):
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.updated = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Hub:
    def __init__(self, redis: Any, node_id: str | None = None):
        self.redis = redis
        self.node_id = node_id or uuid.uuid4().hex[:12]
        self._by_user: dict[int, dict[Outbound, None]] = {}  # insertion-ordered: the oldest socket first
        self._budgets: dict[int, TokenBucket] = {}

    async def register(self, connection: Outbound, max_per_user: int | None = None) -> list[Outbound]:
        """Add a socket; returns the user's oldest sockets beyond `max_per_user`, which the caller closes."""
        sockets = self._by_user.setdefault(connection.user_id, {})
        sockets[connection] = None
        surplus: list[Outbound] = []
        if max_per_user is not None and len(sockets) > max_per_user:
            surplus = list(sockets)[: len(sockets) - max_per_user]
            for old in surplus:
                del sockets[old]
        await self._touch(connection)
        return surplus

    def message_budget(self, user_id: int, per_second: float) -> TokenBucket:
        """The user's message budget, shared by all their sockets on this node (bursts up to twice the rate)."""
        bucket = self._budgets.get(user_id)
        if bucket is None:
            bucket = self._budgets[user_id] = TokenBucket(per_second, 2 * per_second)
        return bucket

    async def unregister(self, connection: Outbound) -> None:
        sockets = self._by_user.get(connection.user_id)
        if sockets is not None:
            sockets.pop(connection, None)
            if not sockets:
                del self._by_user[connection.user_id]
                self._budgets.pop(connection.user_id, None)
        try:
            await self.redis.hdel(presence_key(connection.user_id), connection.id)
        except Exception:  # presence is best effort: the TTL cleans up
            log.warning("could not clear presence of user %s", connection.user_id, exc_info=True)

    async def refresh(self, connection: Outbound) -> None:
        await self._touch(connection)

    async def _touch(self, connection: Outbound) -> None:
        key = presence_key(connection.user_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, connection.id, self.node_id)
            pipe.expire(key, PRESENCE_TTL_SECONDS)
            await pipe.execute()

    async def online(self, user_ids: Iterable[int]) -> set[int]:
        ids = list(user_ids)
        if not ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for user_id in ids:
                pipe.exists(presence_key(user_id))
            found = await pipe.execute()
        return {user_id for user_id, exists in zip(ids, found) if exists}

    def send_to_user(self, user_id: int, message: dict[str, Any]) -> int:
        """Deliver to every socket of the user on this node; returns how many got it."""
        sockets = list(self._by_user.get(user_id, ()))
        for connection in sockets:
            connection.deliver(message)
        return len(sockets)

    def connections_of(self, user_id: int) -> list[Outbound]:
        return list(self._by_user.get(user_id, ()))

    async def close_all(self, code: int, reason: str) -> None:
        closers = [getattr(c, "close", None) for sockets in self._by_user.values() for c in sockets]
        await asyncio.gather(*(close(code, reason) for close in closers if close), return_exceptions=True)
