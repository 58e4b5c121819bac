"""Who is connected: the sockets of this node by user, one message budget per user, presence in Redis so friends see
who is online, and one timer for all sockets (their sessions re-checked, this node's presence kept alive).

Presence is one Redis hash per user (`presence:<user_id>`: socket id -> node id), written when a socket opens and
cleared when it closes, plus one key per node (`node:<node id>:alive`) with a TTL that this node refreshes. A user
is online if one of their sockets is on a node that is alive, so an idle socket costs nothing, and the sockets of a
node that died stop counting when its key expires (and are swept from the hashes when read).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from app.realtime.cluster import Cluster

log = logging.getLogger(__name__)

NODE_ALIVE_TTL_SECONDS = 60
HOUSEKEEPING_SECONDS = 20  # sessions re-checked and this node's presence refreshed this often (docs/protocol.md)
SESSION_CHECK_CHUNK = 5000  # session ids per query: 4 queries for 20,000 sockets (both databases allow 32,766)


def presence_key(user_id: int) -> str:
    return f"presence:{user_id}"


def node_alive_key(node_id: str) -> str:
    return f"node:{node_id}:alive"


class Outbound(Protocol):
    id: str
    user_id: int
    session_id: int

    def deliver(self, message: dict[str, Any]) -> None: ...

    async def close(self, code: int, reason: str) -> None: ...


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


# Given session ids, the ones that are no longer valid (revoked, expired, user gone).
SessionCheck = Callable[[list[int]], Awaitable[set[int]]]


class Hub:
    def __init__(self, redis: Any, node_id: str, cluster: Cluster | None = None):
        self.redis = redis
        self.node_id = node_id
        self.cluster = cluster  # notices for users reach their sockets on every node
        self.housekeeping_hooks: list[Callable[[], Awaitable[Any]]] = []  # more work for the one timer
        self._by_user: dict[int, dict[Outbound, None]] = {}  # insertion-ordered: the oldest socket first
        self._by_id: dict[str, Outbound] = {}
        self._tasks: set[asyncio.Task] = set()
        self._budgets: dict[int, TokenBucket] = {}
        self._housekeeping: asyncio.Task | None = None
        self._stopping = asyncio.Event()

    # ------------------------------------------------------------------------------------------- sockets

    async def register(self, connection: Outbound, max_per_user: int | None = None) -> list[Outbound]:
        """Add a socket; returns the user's oldest sockets beyond `max_per_user`, which the caller closes."""
        sockets = self._by_user.setdefault(connection.user_id, {})
        sockets[connection] = None
        self._by_id[connection.id] = connection
        surplus: list[Outbound] = []
        if max_per_user is not None and len(sockets) > max_per_user:
            surplus = list(sockets)[: len(sockets) - max_per_user]
            for old in surplus:
                del sockets[old]
        try:
            await self.redis.hset(presence_key(connection.user_id), connection.id, self.node_id)
        except Exception:  # presence is best effort
            log.warning("could not record the presence of user %s", connection.user_id, exc_info=True)
        return surplus

    def message_budget(self, user_id: int, per_second: float) -> TokenBucket:
        """The user's message budget, shared by all their sockets on this node (bursts up to twice the rate)."""
        bucket = self._budgets.get(user_id)
        if bucket is None:
            bucket = self._budgets[user_id] = TokenBucket(per_second, 2 * per_second)
        return bucket

    async def unregister(self, connection: Outbound) -> None:
        self._by_id.pop(connection.id, None)
        sockets = self._by_user.get(connection.user_id)
        if sockets is not None:
            sockets.pop(connection, None)
            if not sockets:
                del self._by_user[connection.user_id]
                self._budgets.pop(connection.user_id, None)
        try:
            await self.redis.hdel(presence_key(connection.user_id), connection.id)
        except Exception:  # presence is best effort: a dead node's entries stop counting with its key
            log.warning("could not clear presence of user %s", connection.user_id, exc_info=True)

    def send_to_user(self, user_id: int, message: dict[str, Any], *, everywhere: bool = True) -> int:
        """Deliver to every socket of the user: here at once, and (`everywhere`) on the other nodes through the
        cluster. Returns how many sockets on this node got it."""
        sockets = list(self._by_user.get(user_id, ()))
        for connection in sockets:
            connection.deliver(message)
        if everywhere and self.cluster is not None and not self.cluster.alone:
            self.keep(asyncio.get_running_loop().create_task(
                self.cluster.broadcast("user", user=user_id, message=message)))
        return len(sockets)

    def keep(self, task: asyncio.Task) -> None:
        """Hold a background task until it is done (the event loop keeps only weak references)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def connection(self, socket_id: str) -> Outbound | None:
        return self._by_id.get(socket_id)

    def connections_of(self, user_id: int) -> list[Outbound]:
        return list(self._by_user.get(user_id, ()))

    def connections(self) -> list[Outbound]:
        return [connection for sockets in self._by_user.values() for connection in sockets]

    async def close_all(self, code: int, reason: str) -> None:
        closers = [getattr(c, "close", None) for c in self.connections()]  # test stand-ins may not close
        await asyncio.gather(*(close(code, reason) for close in closers if close), return_exceptions=True)

    # ------------------------------------------------------------------------------------------- presence

    async def online(self, user_ids: Iterable[int]) -> set[int]:
        ids = list(user_ids)
        if not ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for user_id in ids:
                pipe.hgetall(presence_key(user_id))
            found = await pipe.execute()
        sockets = {user_id: {_text(k): _text(v) for k, v in entries.items()} for user_id, entries in zip(ids, found)}
        nodes = sorted({node for entries in sockets.values() for node in entries.values()})
        if not nodes:
            return set()
        alive_flags = await self.redis.mget([node_alive_key(node) for node in nodes])
        alive = {node for node, flag in zip(nodes, alive_flags) if flag is not None} | {self.node_id}
        stale = [(user_id, socket) for user_id, entries in sockets.items() for socket, node in entries.items()
                 if node not in alive]
        if stale:  # sockets of nodes that died: forget them
            async with self.redis.pipeline(transaction=False) as pipe:
                for user_id, socket in stale:
                    pipe.hdel(presence_key(user_id), socket)
                await pipe.execute()
        return {user_id for user_id, entries in sockets.items() if any(node in alive for node in entries.values())}

    async def node_of_sockets(self, sockets: list[tuple[int, str]]) -> list[str | None]:
        """The node each (user, socket) is on, by presence; None: no entry (the socket closed, or it was a dead
        node's and `online` forgot it)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for user_id, socket in sockets:
                pipe.hget(presence_key(user_id), socket)
            found = await pipe.execute()
        return [None if node is None else _text(node) for node in found]

    async def sockets_by_node(self, user_ids: Iterable[int]) -> dict[str, int]:
        """For each node, how many of these users have a socket there (presence)."""
        ids = list(user_ids)
        if not ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for user_id in ids:
                pipe.hvals(presence_key(user_id))
            found = await pipe.execute()
        counts: dict[str, int] = {}
        for nodes in found:
            for node in {_text(node) for node in nodes}:
                counts[node] = counts.get(node, 0) + 1
        return counts

    # ------------------------------------------------------------------------------------------- one timer

    def start(self, check_sessions: SessionCheck, *, every: float = HOUSEKEEPING_SECONDS) -> None:
        if self._housekeeping is None:
            self._housekeeping = asyncio.get_running_loop().create_task(self._keep(check_sessions, every),
                                                                        name="hub-housekeeping")

    async def stop(self) -> None:
        if self._housekeeping is not None:
            # An event, not only a cancel: a Redis client may swallow the cancellation of a call in flight.
            self._stopping.set()
            self._housekeeping.cancel()
            await asyncio.gather(self._housekeeping, return_exceptions=True)
            self._housekeeping = None
        try:
            await self.redis.delete(node_alive_key(self.node_id))
        except Exception:
            log.warning("could not clear this node's presence key (it expires)", exc_info=True)

    async def _keep(self, check_sessions: SessionCheck, every: float) -> None:
        while not self._stopping.is_set():
            try:
                await self.redis.set(node_alive_key(self.node_id), "1", ex=NODE_ALIVE_TTL_SECONDS)
            except Exception:
                log.warning("could not refresh this node's presence", exc_info=True)
            try:
                await self.close_ended_sessions(check_sessions)
            except Exception:
                log.warning("could not re-check the sockets' sessions", exc_info=True)
            for hook in self.housekeeping_hooks:
                try:
                    await hook()
                except Exception:
                    log.warning("a housekeeping step failed", exc_info=True)
            try:
                await asyncio.wait_for(self._stopping.wait(), every)
            except TimeoutError:
                pass

    async def close_ended_sessions(self, check_sessions: SessionCheck) -> int:
        """Close (4401) every socket whose session was revoked or expired meanwhile. Returns how many."""
        from app.realtime import protocol

        # Only ints and one set per tick: 20,000 idle sockets must not mean 20,000 new objects (and the collections
        # they trigger) every 20 s. The sockets of an ended session are looked up when there is one.
        ids = sorted({session_id for sockets in self._by_user.values() for connection in sockets
                      if (session_id := getattr(connection, "session_id", None)) is not None})
        closed = 0
        for start in range(0, len(ids), SESSION_CHECK_CHUNK):
            ended = await check_sessions(ids[start:start + SESSION_CHECK_CHUNK])
            if not ended:
                continue
            for connection in [c for c in self.connections() if getattr(c, "session_id", None) in ended]:
                connection.deliver({"type": "error", "code": "unauthorized", "message": "Your session has ended."})
                await connection.close(protocol.CLOSE_UNAUTHORIZED, "session ended")
                closed += 1
        return closed


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
