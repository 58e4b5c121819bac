"""A small Python client for Tablestakes: HTTP for accounts and rooms, one WebSocket for tables.

Used by the tests, `bench/load.py` and any bot that plays over the wire:

    async with TablestakesClient("http://127.0.0.1:8000") as client:
        await client.register("ada", "correct horse")
        table = await client.post("/api/tables", {"game": "pika", "seats": 2, "bot_level": "easy"})
        await client.connect()
        await client.join(table["id"])
        await client.play(table["id"], bot)        # until the game is over
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.games.wire import wire_for
from app.tables import patch

KEEPALIVE_EXPIRY_SECONDS = 2.0  # below the server's 5 s idle keep-alive (see TablestakesClient.__init__)


class ClientError(Exception):
    """The server refused a request: `code` and `message` as it sent them (HTTP or socket)."""

    def __init__(self, code: str, message: str, status: int | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


@dataclass
class TableState:
    """What this client knows of one table, kept current from the socket's full messages and patches
    (docs/protocol.md, "Table messages"): `public` and `private` as sent (app/games/wire.py), `view` and `info` as
    the seat sees them."""

    id: str
    version: int = -1
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict)
    legal: list[dict[str, Any]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)  # with the clock's turn timers as wall-clock times
    sent_info: dict[str, Any] = field(default_factory=dict)  # as sent: the turn timers apart, in `turns`
    turns: dict[str, int] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    messages: int = 0
    received_at: float = 0.0
    node: str | None = None  # the server playing the table, and the seat token it gave (docs/cluster.md)
    seat_token: str | None = None
    _view: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def view(self) -> dict[str, Any]:
        """The seat's whole view (the game's, but for bots' memory), worked out from `public` and `private` when
        asked: a socket that only follows the table never pays for it."""
        if self._view is None:
            info = self.sent_info
            self._view = wire_for(info["game"]).expand(self.public, self.private, info["my_seat"]) if info else {}
        return self._view

    def apply(self, message: dict[str, Any]) -> None:
        """Take one table message: a full state (sync, catch_up) or an update's patches, and its events."""
        kind = message["type"]
        events = message.get("events", [])
        if kind in ("sync", "catch_up"):
            self.public = message["public"]
            self.private = message["private"]
            self.legal = message["legal"]
            self.sent_info = {**message["info"], "my_seat": message["seat"]}
            self.turns = message.get("turns", {})
            self.node = message.get("node", self.node)
            self.seat_token = message.get("seat_token", self.seat_token)
            if kind == "sync":
                self.events.clear()
        else:
            wire = wire_for(self.sent_info["game"])
            seat = self.sent_info["my_seat"]
            # What the events tell first; the patches then carry the rest (app/games/wire.py).
            self.public = patch.apply(wire.follow_public(self.public, events), message.get("public", {}))
            if seat is not None:
                self.private = patch.apply(wire.follow_private(self.private, events, seat), message.get("private", {}))
            if "legal" in message:
                self.legal = message["legal"]
            if "info" in message:
                self.sent_info = patch.apply(self.sent_info, message["info"])
            if "turns" in message:
                self.turns = message["turns"]
        if kind != "update" or "info" in message or "turns" in message:
            self.info = table_info(self.sent_info, self.turns)
        # Events carry no version of their own: they are numbered up to the message's version, one each.
        first = message["version"] - len(events) + 1
        self.events.extend({**event, "version": first + index} for index, event in enumerate(events))
        del self.events[:-200]
        self.version = message["version"]
        self._view = None
        self.messages += 1
        self.received_at = time.perf_counter()

    @property
    def seat(self) -> int | None:
        return self.info.get("my_seat")

    @property
    def over(self) -> bool:
        return self.info.get("status") == "finished"



def table_info(sent: dict[str, Any], turns: dict[str, int]) -> dict[str, Any]:
    """The table's info as sent with its turn timers put back as wall-clock times (docs/protocol.md, "Patches": the
    `turns` count tenths of a second after the clock's `base`)."""
    clock = dict(sent["clock"])
    base = clock.pop("base") * 10
    clock["turn_ends_at"] = {seat: (base + tenths) / 10 for seat, tenths in turns.items()}
    return {**sent, "clock": clock}


class TablestakesClient:
    def __init__(self, base_url: str, *, origin: str | None = None, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.origin = origin
        self.timeout = timeout
        # uvicorn closes an idle keep-alive connection after 5 s, and httpx keeps one for 5 s too: a request sent
        # just as the server closes fails with ReadError. Dropping idle connections sooner avoids that race.
        self.http = httpx.AsyncClient(
            base_url=self.base_url, timeout=timeout, limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY_SECONDS)
        )
        self.socket: ClientConnection | None = None
        self.tables: dict[str, TableState] = {}
        self.notices: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.user: dict[str, Any] | None = None
        self.close_code: int | None = None
        self.received: list[dict[str, Any]] = []  # every socket message, in order (tests read it)
        self.table_messages = 0  # table messages received, and their size in bytes (the load bench reads them)
        self.table_bytes = 0
        self.last_size = 0  # the size of the message being dispatched
        self.node: str | None = None  # the name of the server the socket reached (its hello says)
        self.keep_messages = True
        self._ids = itertools.count(1)
        self._pending: dict[Any, asyncio.Future] = {}
        # wait_for's waiters: (predicate, future), woken after the message that may have made the predicate true
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []
        self._reader: asyncio.Task | None = None
        self._hello = asyncio.Event()
        self._hello_message: dict[str, Any] | None = None
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        # Like the browser: after a dropped socket (a server restarting, a crash, a balancer), connect again and
        # join every table from its last version. Off by default: tests of closing look at the close.
        self.auto_reconnect = False
        self.reconnections = 0
        self._closing = False
        self._connect_args: dict[str, Any] = {}

    async def __aenter__(self) -> TablestakesClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # ------------------------------------------------------------------------------------------------ HTTP

    async def _call(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        response = await self.http.request(method, path, json=body, params=params or None)
        if response.status_code >= 400:
            try:
                error = response.json()["error"]
            except (ValueError, KeyError, TypeError):
                raise ClientError("http_error", response.text, response.status_code) from None
            raise ClientError(error["code"], error["message"], response.status_code)
        return response.json() if response.content else None

    async def get(self, path: str, **params: Any) -> Any:
        return await self._call("GET", path, **params)

    async def post(self, path: str, body: Any = None) -> Any:
        return await self._call("POST", path, body if body is not None else {})

    async def put(self, path: str, body: Any = None) -> Any:
        return await self._call("PUT", path, body)

    async def delete(self, path: str) -> Any:
        return await self._call("DELETE", path)

    async def register(self, username: str, password: str) -> dict[str, Any]:
        self.user = await self.post("/api/auth/register", {"username": username, "password": password})
        return self.user

    async def login(self, username: str, password: str) -> dict[str, Any]:
        self.user = await self.post("/api/auth/login", {"username": username, "password": password})
        return self.user

    @property
    def session_cookie(self) -> str | None:
        return self.http.cookies.get("ts_session")

    # ---------------------------------------------------------------------------------------------- socket

    def ws_url(self) -> str:
        return self.base_url.replace("http://", "ws://").replace("https://", "wss://") + "/ws"

    async def connect(self, *, cookie: str | None = None, origin: str | None = None, node: str | None = None
                      ) -> dict[str, Any] | None:
        """Open the socket (with the session cookie) and wait for the server's hello (None if it refused). `node`:
        the name of the server to reach, a hint a load balancer may follow (docs/cluster.md)."""
        cookie = cookie if cookie is not None else self.session_cookie
        headers = {"Cookie": f"ts_session={cookie}"} if cookie else {}
        self._hello.clear()
        self.close_code = None
        self._closing = False
        self._connect_args = {"cookie": cookie, "origin": origin, "node": node}
        self.socket = await connect(
            self.ws_url() + (f"?node={node}" if node else ""),
            additional_headers=headers,
            origin=origin or self.origin,
            max_size=2**22,
            open_timeout=self.timeout,
        )
        self._reader = asyncio.create_task(self._read())
        done, _ = await asyncio.wait(
            [asyncio.create_task(self._hello.wait()), self._reader], timeout=self.timeout,
            return_when=asyncio.FIRST_COMPLETED,
        )
        return self._hello_message if self._hello.is_set() else None

    async def _read(self) -> None:
        assert self.socket is not None
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                self.last_size = len(raw)
                kind = message.get("type")
                if kind in ("update", "catch_up", "sync"):
                    self.table_messages += 1
                    self.table_bytes += len(raw)
                elif kind == "error" and message.get("code") == "table_moved" and message.get("table"):
                    # The table's new owner has it: join again, from the last version seen.
                    asyncio.get_running_loop().create_task(self._rejoin(message["table"]))
                self._dispatch(message)
        except ConnectionClosed:
            pass
        finally:
            if self.socket is not None and self.socket.close_code is not None:
                self.close_code = self.socket.close_code
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ClientError("connection_closed", f"socket closed ({self.close_code})"))
            self._pending.clear()
            if self.auto_reconnect and not self._closing and self.close_code not in (4401, 4403, 4409):
                asyncio.get_running_loop().create_task(self._reconnect())
            self._wake_waiters(everyone=True)

    def _dispatch(self, message: dict[str, Any]) -> None:
        if self.keep_messages:
            self.received.append(message)
        kind = message.get("type")
        if kind == "hello":
            self._hello_message = message
            self.node = message.get("node")
            self._hello.set()
        elif kind in ("update", "catch_up", "sync"):
            state = self.tables.get(message["table"])
            if state is None and kind != "update":
                state = self.tables[message["table"]] = TableState(message["table"])
            if state is not None:  # an update's patches need the state first (the join brings it in full)
                state.apply(message)
        elif kind in ("invitation", "room", "friend", "matchmaking", "rematch"):
            self.notices.append(message)
        elif kind == "error" and message.get("id") is None:
            self.errors.append(message)
        request_id = message.get("id")
        # An accepted move is answered by its own update, which carries the act's id (docs/protocol.md).
        if kind in ("ack", "error", "pong", "update") and request_id in self._pending:
            self._pending.pop(request_id).set_result(message)
        for listener in self._listeners:
            listener(message)
        if self._waiters:
            self._wake_waiters()

    def _wake_waiters(self, *, everyone: bool = False) -> None:
        """Wake the waiters whose predicate holds now (every one with `everyone`, and those whose predicate raised:
        each looks again itself). Right here, not through a task and a lock per message."""
        still = []
        for predicate, waiter in self._waiters:
            if waiter.done():
                continue
            try:
                woken = everyone or predicate()
            except Exception:
                woken = True  # the waiter evaluates it again and gets the error itself
            if woken:
                waiter.set_result(None)
            else:
                still.append((predicate, waiter))
        self._waiters = still

    def on_message(self, listener: Callable[[dict[str, Any]], None]) -> None:
        self._listeners.append(listener)

    async def send_raw(self, text: str | bytes) -> None:
        assert self.socket is not None
        await self.socket.send(text)

    async def request(self, message: dict[str, Any], *, retries_when_limited: int = 20) -> dict[str, Any]:
        """Send one message and wait for its reply; raises ClientError on an error reply. A `rate_limited` refusal
        changed nothing, so the request is sent again after a pause (a few times)."""
        assert self.socket is not None, "connect() first"
        for attempt in range(retries_when_limited + 1):
            request_id = next(self._ids)
            future = asyncio.get_running_loop().create_future()
            self._pending[request_id] = future
            try:
                await self.socket.send(json.dumps({**message, "id": request_id}))
            except ConnectionClosed:
                self._pending.pop(request_id, None)
                raise ClientError("connection_closed", "the socket is closed") from None
            reply = await asyncio.wait_for(future, self.timeout)
            if reply["type"] == "error" and reply["code"] == "rate_limited" and attempt < retries_when_limited:
                await asyncio.sleep(0.1 * (attempt + 1))
                continue
            break
        if reply["type"] == "error":
            raise ClientError(reply["code"], reply["message"])
        return reply

    async def _rejoin(self, table_id: str) -> None:
        state = self.tables.get(table_id)
        for attempt in range(20):
            try:
                await self.join(table_id, since=state.version if state else None,
                                token=state.seat_token if state else None)
                return
            except ClientError as refused:
                if refused.code not in ("table_unavailable", "no_such_table", "table_moved"):
                    return
            except asyncio.TimeoutError:
                pass
            await asyncio.sleep(0.25 * (attempt + 1))  # the table is being taken over by a live server

    async def join(self, table_id: str, since: int | None = None, token: str | None = None,
                   history: bool = False) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "join", "table": table_id, "since": since}
        if token:
            message["token"] = token
        if history:
            message["history"] = True  # a sync then carries every event so far (docs/protocol.md)
        return await self.request(message)

    async def leave(self, table_id: str) -> dict[str, Any]:
        return await self.request({"type": "leave", "table": table_id})

    async def resign(self, table_id: str) -> dict[str, Any]:
        """Leave the game for good (a practice game ends; elsewhere a bot plays the seat and it counts as left)."""
        return await self.request({"type": "resign", "table": table_id})

    async def act(self, table_id: str, action: dict[str, Any]) -> dict[str, Any]:
        return await self.request({"type": "act", "table": table_id, "action": action})

    async def ping(self) -> dict[str, Any]:
        return await self.request({"type": "ping"})

    async def wait_for(self, predicate: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until `predicate()` holds (checked after every message); it holds when this returns. Raises
        TimeoutError after `timeout` seconds (the client's timeout by default)."""
        if predicate():
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.timeout)
        while True:
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append((predicate, waiter))
            expiry = loop.call_at(deadline, _time_out, waiter)
            try:
                await waiter  # a cancelled wait cancels the waiter too: _wake_waiters then drops it
            finally:
                expiry.cancel()
            if predicate():
                return

    async def wait_closed(self, timeout: float | None = None) -> int | None:
        if self._reader is not None:
            await asyncio.wait_for(asyncio.shield(self._reader), timeout or self.timeout)
        return self.close_code

    async def play(self, table_id: str, choose: Callable[[TableState], dict[str, Any] | None],
                   *, timeout: float = 300.0) -> TableState:
        """Answer every turn of this seat with `choose(state)` until the game is over."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.tables.get(table_id)
            if state is not None and state.over:
                return state
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {table_id} did not finish in {timeout} s")
            version = state.version if state else -1
            if state is not None and state.legal:
                action = choose(state)  # None: an optional move (calling Pika) declined for now
                if action is not None:
                    try:
                        await self.act(table_id, action)
                    except ClientError as refused:
                        if refused.code == "game_over":
                            continue
                        if refused.code in ("connection_closed", "table_unavailable", "table_moved", "not_joined"):
                            # Reconnecting, or the table is moving to another server: look again in a moment.
                            await asyncio.sleep(0.2)
                            continue
                        # The table moved on between our view and our move (a timer, a bot): look again.
                        if self.tables[table_id].version == version:
                            raise
                    continue
            await self.wait_for(lambda: table_id in self.tables and (
                self.tables[table_id].version != version or self.tables[table_id].over), timeout=max(1.0, deadline - time.monotonic()))

    async def _reconnect(self) -> None:
        """Connect again (with back-off) and join every table from the last version seen."""
        for attempt in range(40):
            if self._closing:
                return
            await asyncio.sleep(min(2.0, 0.1 * 2**attempt))
            try:
                if await self.connect(**self._connect_args) is None:
                    continue
            except (OSError, ConnectionClosed, asyncio.TimeoutError, Exception):
                continue
            self.reconnections += 1
            for table_id, state in list(self.tables.items()):
                if not state.over:
                    await self._rejoin(table_id)
            return

    async def disconnect(self) -> None:
        self._closing = True
        if self.socket is not None:
            await self.socket.close()
            if self._reader is not None:
                await self._reader
            self.socket = None

    async def close(self) -> None:
        await self.disconnect()
        await self.http.aclose()


def _time_out(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError("the awaited state did not come in time"))


def bot_chooser(bot: Any) -> Callable[[TableState], dict[str, Any] | None]:
    """Adapt a game Bot (app.games.base.Bot) to `TablestakesClient.play`."""

    def choose(state: TableState) -> dict[str, Any] | None:
        return bot.choose(state.view if bot.needs_view else None, state.legal)

    return choose
