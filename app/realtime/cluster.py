"""The nodes' line to each other over Redis pub/sub (design.md, "Several nodes"; docs/cluster.md).

Each node listens on its own channel (`ts:node:<incarnation>`) and on one channel for everyone (`ts:cluster`). Redis
pub/sub ignores database numbers, so on a database other than 0 the channels carry its number (`ts:3:cluster`): two
deployments (or two test runs) sharing a Redis server on different databases never hear each other.

- **Relaying a table.** A socket on node A that joins a table owned by node B: A sends B a `join` request naming
  the socket; B connects a `RemoteListener` for it to the table's actor, exactly as a local socket (same messages,
  same versions, same errors); whatever the actor sends it comes back to A in `deliver` batches and A puts it on the
  socket. `act` and `leave` requests go the same way; when the socket closes A tells B it is `gone`. Messages to one
  node leave in order, through one sender per node, so a table's messages never overtake each other or the reply
  they precede.
- **Requests** carry an id and are answered with a `reply` (the result, or the error code and message a local call
  would have raised). A node that does not answer in time is taken as gone: the caller gets `table_unavailable`.
- **Broadcasts:** a table `moved` (adopted after a crash, or handed off: sockets following it are told
  `table_moved` and join it again), tables `released` (a draining node handed them off: adopt now), a notice for a
  `user` (delivered to their sockets on every node), and sessions that ended.

Per-move traffic of a table never touches Redis unless one of its sockets is on another node.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.core import strict_json
from app.games.base import Refusal

log = logging.getLogger(__name__)

BROADCAST = "ts:cluster"  # on database 0; see channel_prefix
REQUEST_SECONDS = 5.0  # a node that does not answer a request this fast is taken as gone
DELIVER = "D"  # a deliver batch: "D" then one "<socket id>\t<message text>" per line (table messages hold no raw newline)


def channel_prefix(redis: Any) -> str:
    """"ts:" on Redis database 0 (and the in-process stand-in), "ts:<n>:" on database n."""
    pool = getattr(redis, "connection_pool", None)
    database = int((getattr(pool, "connection_kwargs", None) or {}).get("db") or 0)
    return f"ts:{database}:" if database else "ts:"


def broadcast_channel(redis: Any) -> str:
    return channel_prefix(redis) + BROADCAST.removeprefix("ts:")


def node_channel(node_id: str, redis: Any = None) -> str:
    return f"{channel_prefix(redis)}node:{node_id}"


class ClusterError(Refusal):
    """A relayed request refused by the other node, or left unanswered."""


class RemoteListener:
    """A socket on another node, as a table's actor sees it: `send_text` queues the message for that node."""

    def __init__(self, cluster: Cluster, node: str, socket: str, user_id: int):
        self.cluster = cluster
        self.node = node
        self.socket = socket
        self.user_id = user_id

    def send_text(self, text: str) -> None:
        self.cluster.deliver(self.node, self.socket, text)


Handler = Callable[[dict[str, Any]], Awaitable[Any]]


class Cluster:
    def __init__(self, redis: Any, node_id: str, *, alone: bool = False):
        self.redis = redis
        self.node_id = node_id
        # On the in-process Redis (memory://) no other node can hear us: broadcasts, which this node ignores itself,
        # are not published.
        self.alone = alone
        self.channel = node_channel(node_id, redis)
        self.broadcast_channel = broadcast_channel(redis)
        self.handlers: dict[str, Handler] = {}  # request or broadcast kind -> coroutine(message)
        self.on_deliver: Callable[[str, str], None] = lambda socket, text: None  # to a local socket
        self.relayed_in = 0  # table messages put on local sockets for tables owned elsewhere
        self.relayed_out = 0  # table messages sent to sockets on other nodes
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self._outboxes: dict[str, asyncio.Queue[str | None]] = {}
        self._senders: dict[str, asyncio.Task] = {}
        self._listening: asyncio.Task | None = None
        self._pubsub: Any = None
        self._tasks: set[asyncio.Task] = set()

    # ------------------------------------------------------------------------------------------- life cycle

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel, self.broadcast_channel)
        self._listening = asyncio.get_running_loop().create_task(self._listen(), name="cluster-listen")

    async def stop(self) -> None:
        for task in (self._listening, *self._senders.values(), *self._tasks):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in (self._listening, *self._senders.values(), *self._tasks) if t),
                             return_exceptions=True)
        self._senders.clear()
        if self._pubsub is not None:
            try:
                await self._pubsub.unsubscribe()
                await self._pubsub.aclose()
            except Exception:
                log.debug("closing the cluster subscription failed", exc_info=True)
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ClusterError("table_unavailable", "This server is shutting down."))

    # ------------------------------------------------------------------------------------------- sending

    def _send(self, node: str, payload: str) -> None:
        """Queue a payload for a node; one sender per node publishes in order, batching what piles up."""
        outbox = self._outboxes.get(node)
        if outbox is None:
            outbox = self._outboxes[node] = asyncio.Queue()
            self._senders[node] = asyncio.get_running_loop().create_task(self._sender(node, outbox),
                                                                         name=f"cluster-send:{node}")
        outbox.put_nowait(payload)

    async def _sender(self, node: str, outbox: asyncio.Queue[str | None]) -> None:
        channel = node_channel(node, self.redis)
        while True:
            payload = await outbox.get()
            # Deliveries queued together go as one batch, in order; a control message goes on its own, after them.
            batch: list[str] = []
            while payload is not None:
                if payload.startswith(DELIVER):
                    batch.append(payload[1:])
                    payload = outbox.get_nowait() if not outbox.empty() else None
                    continue
                if batch:
                    await self._publish(channel, DELIVER + "\n".join(batch))
                    batch = []
                await self._publish(channel, payload)
                payload = outbox.get_nowait() if not outbox.empty() else None
            if batch:
                await self._publish(channel, DELIVER + "\n".join(batch))

    async def _publish(self, channel: str, payload: str) -> None:
        try:
            await self.redis.publish(channel, payload)
        except Exception:
            log.warning("could not publish to %s", channel, exc_info=True)

    def deliver(self, node: str, socket: str, text: str) -> None:
        self.relayed_out += 1
        self._send(node, f"{DELIVER}{socket}\t{text}")

    def tell(self, node: str, kind: str, **data: Any) -> None:
        """A message to one node that needs no answer."""
        self._send(node, strict_json.dumps({"k": kind, "from": self.node_id, **data}))

    async def request(self, node: str, kind: str, **data: Any) -> Any:
        """Ask one node and wait for its answer; raises ClusterError with the code the other node raised."""
        request_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        self._send(node, strict_json.dumps({"k": kind, "q": request_id, "from": self.node_id, **data}))
        try:
            return await asyncio.wait_for(future, REQUEST_SECONDS)
        except TimeoutError:
            raise ClusterError("table_unavailable", "The server playing this table does not answer; "
                                                    "try again in a moment.") from None
        finally:
            self._waiting.pop(request_id, None)

    async def broadcast(self, kind: str, **data: Any) -> None:
        if self.alone:
            return
        await self._publish(self.broadcast_channel, strict_json.dumps({"k": kind, "from": self.node_id, **data}))

    # ------------------------------------------------------------------------------------------- receiving

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self._pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    data = message["data"]
                    self._received(data.decode() if isinstance(data, bytes) else data)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the cluster subscription failed; subscribing again", exc_info=True)
                await asyncio.sleep(0.5)
                try:
                    await self._pubsub.subscribe(self.channel, self.broadcast_channel)
                except Exception:
                    log.warning("subscribing again failed", exc_info=True)

    def _received(self, payload: str) -> None:
        if payload.startswith(DELIVER):
            for line in payload[1:].split("\n"):
                socket, _, text = line.partition("\t")
                self.relayed_in += 1
                self.on_deliver(socket, text)
            return
        message = strict_json.loads(payload)
        kind = message.get("k")
        if kind == "reply":
            future = self._waiting.get(message.get("q"))
            if future is not None and not future.done():
                if "error" in message:
                    future.set_exception(ClusterError(message["error"], message.get("message", "")))
                else:
                    future.set_result(message.get("ok"))
            return
        if message.get("from") == self.node_id and "q" not in message:
            return  # our own broadcast
        handler = self.handlers.get(kind)
        if handler is None:
            log.warning("no handler for cluster message %r", kind)
            return
        task = asyncio.get_running_loop().create_task(self._handle(handler, message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, handler: Handler, message: dict[str, Any]) -> None:
        request_id = message.get("q")
        try:
            result = await handler(message)
        except Exception as error:
            code = getattr(error, "code", None)
            if request_id is None:
                if code is None:
                    log.exception("cluster message %r failed", message.get("k"))
                return
            if code is None:
                log.exception("cluster request %r failed", message.get("k"))
                code, text = "internal_error", "Something went wrong on our side."
            else:
                text = getattr(error, "message", str(error))
            self.tell(message["from"], "reply", q=request_id, error=code, message=text)
            return
        if request_id is not None:
            self.tell(message["from"], "reply", q=request_id, ok=result)
