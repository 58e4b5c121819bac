"""The realtime gateway: one WebSocket per player at /ws, carrying every table they sit at.

The socket is accepted first and then checked (Origin, session cookie), so a refused client learns why from a
specific close code instead of a bare handshake failure. A message goes to the socket at once while the socket
takes it without waiting (the usual case); once a send has to wait (a slow client), the socket's bounded outbound
queue is drained by a writer task: a table actor hands messages over without ever waiting on a slow client. The
sessions of open sockets are re-checked together, by one timer for the whole node (app/realtime/hub.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import deque
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from app.core import strict_json
from app.core.errors import AppError
from app.core.http import origin_allowed
from app.core.security import SESSION_COOKIE
from app.games.base import Refusal
from app.realtime import protocol

if TYPE_CHECKING:
    from app.config import Settings
    from app.realtime.service import Realtime
    from app.runtime import Runtime

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 64 * 1024
OUTBOUND_QUEUE = 512


class Connection:
    """One open socket of one user. Messages wait in a bounded queue; a writer task exists only while there is
    something to send, so an idle socket holds no task of its own."""

    def __init__(self, websocket: WebSocket, user_id: int, username: str, session_id: int = 0, guest: bool = False):
        self.id = uuid.uuid4().hex
        self.websocket = websocket
        self.user_id = user_id
        self.guest = guest  # as it was when the socket opened: a guest that signs up is looked up again
        self.username = username
        self.session_id = session_id
        self.tables: set[str] = set()
        self.remote: dict[str, str] = {}  # tables joined through another node: table id -> the owner node
        self.watching: set[str] = set()  # the tables of `tables` this socket follows as a spectator (no seat)
        self._pending: deque[str] = deque()
        self._writer: asyncio.Task | None = None
        self._closing: tuple[int, str] | None = None
        self.bytes_sent = 0

    def deliver(self, message: dict[str, Any]) -> None:
        try:
            text = strict_json.dumps(message)
        except ValueError:  # a NaN or infinity slipped into a message: never send JSON a browser cannot read
            log.error("refused to send a message with a non-finite number to user %s: %s", self.user_id,
                      message.get("type"))
            return
        self.send_text(text)

    def send_text(self, text: str) -> None:
        """Queue an encoded message (tables encode once for many sockets); never blocks."""
        if self._closing:
            return
        if len(self._pending) >= OUTBOUND_QUEUE:
            self._request_close(protocol.CLOSE_TOO_SLOW, "too slow", drop_pending=True)
            return
        self._pending.append(text)
        if self._writer is None:
            self._send_now()

    def _send_now(self) -> None:
        """Hand what is queued to the socket at once while it takes it without waiting (the usual case: no task and
        no turn of the event loop per message); the first send that has to wait goes on in a writer task, which
        then sends the rest in order."""
        while self._pending:
            text = self._pending.popleft()
            self.bytes_sent += len(text)
            sending = self.websocket.send_text(text)
            try:
                waiting_on = sending.send(None)
            except StopIteration:
                continue
            except Exception:  # the peer went away mid-send: the read loop sees the close and cleans up
                self._pending.clear()
                return
            self._writer = asyncio.get_running_loop().create_task(self._write(sending, waiting_on),
                                                                  name=f"ws-writer:{self.id}")
            return

    def _wake_writer(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write(), name=f"ws-writer:{self.id}")

    async def _write(self, sending: Coroutine[Any, Any, None] | None = None, waiting_on: Any = None) -> None:
        try:
            if sending is not None:
                await _go_on(sending, waiting_on)
            while self._pending:
                text = self._pending.popleft()
                self.bytes_sent += len(text)
                await self.websocket.send_text(text)
            if self._closing and self.websocket.application_state == WebSocketState.CONNECTED:
                await self.websocket.close(*self._closing)
        except Exception:  # the peer went away mid-send: the read loop sees the close and cleans up
            self._pending.clear()
        finally:
            self._writer = None

    def _request_close(self, code: int, reason: str, *, drop_pending: bool = False) -> None:
        """Close after what is queued has been sent (or at once, dropping it, for a client that does not read)."""
        if self._closing is None:
            self._closing = (code, reason)
            if drop_pending:
                self._pending.clear()
            self._wake_writer()

    async def close(self, code: int, reason: str) -> None:
        self._request_close(code, reason)

    async def finished_writing(self, timeout: float) -> None:
        writer = self._writer
        if writer is not None:
            try:
                await asyncio.wait_for(asyncio.shield(writer), timeout)
            except (asyncio.TimeoutError, Exception):
                writer.cancel()


async def _go_on(coroutine: Coroutine[Any, Any, None], waiting_on: Any) -> None:
    """Run to its end, as a task would, a coroutine started by hand (`coroutine.send(None)`) that gave the event loop
    `waiting_on` to wait for (a future, or None for a bare yield); a cancellation reaches it where it waits."""
    while True:
        try:
            if waiting_on is None:
                await asyncio.sleep(0)
            else:
                await asyncio.wait([waiting_on])
        except BaseException as error:
            try:
                waiting_on = coroutine.throw(error)
            except StopIteration:
                return
            continue
        try:
            waiting_on = coroutine.send(None)
        except StopIteration:
            return


async def _refuse(websocket: WebSocket, code: int, error_code: str, message: str) -> None:
    await websocket.send_text(strict_json.dumps({"type": "error", "code": error_code, "message": message}))
    await websocket.close(code, message[:120])


async def websocket_endpoint(websocket: WebSocket) -> None:
    runtime = websocket.app.state.runtime
    realtime = websocket.app.state.realtime
    connection = await _open(websocket, runtime, realtime)
    if connection is None:
        return
    try:
        await _read_loop(connection, realtime, runtime.settings)
    finally:
        await realtime.disconnect(connection)
        await realtime.hub.unregister(connection)
        connection._request_close(1000, "")
        await connection.finished_writing(5)


async def _open(websocket: WebSocket, runtime: Runtime, realtime: Realtime) -> Connection | None:
    """Accept, check Origin and session, register: the socket's Connection, or None if it was refused. (Apart
    from the read loop, so that nothing of the handshake, the user's row above all, is held for the socket's life.)"""
    await websocket.accept()
    if realtime.draining:
        await _refuse(websocket, protocol.CLOSE_SERVICE_RESTART, "draining", "This server is leaving; reconnect.")
        return None
    origin = websocket.headers.get("origin")
    if origin is not None and not origin_allowed(origin, websocket.headers.get("host"), runtime.settings.allowed_origins):
        await _refuse(websocket, protocol.CLOSE_FORBIDDEN_ORIGIN, "origin_not_allowed",
                      "Connections from this origin are not accepted.")
        return None
    try:
        auth = await runtime.accounts.authenticate_socket(websocket.cookies.get(SESSION_COOKIE))
    except AppError as error:
        await _refuse(websocket, protocol.CLOSE_UNAUTHORIZED, "unauthorized", error.message)
        return None
    connection = Connection(websocket, auth.user_id, auth.username, auth.session_id, auth.guest)
    for oldest in await realtime.hub.register(connection, runtime.settings.ws_max_sockets_per_user):
        oldest.deliver(_error(None, "too_many_sockets",
                              f"You have more than {runtime.settings.ws_max_sockets_per_user} live connections "
                              "open; this one, the oldest, is closed."))
        await oldest.close(protocol.CLOSE_TOO_MANY_SOCKETS, "too many connections")
    connection.deliver(protocol.Hello(type="hello", user={"id": connection.user_id, "username": connection.username},
                                      server_time=time.time(), max_frame_bytes=MAX_FRAME_BYTES,
                                      node=realtime.node_name).model_dump())
    return connection


# WS_REFUSALS_BEFORE_CLOSE refused messages within this many seconds close the socket: a client that keeps flooding.
REFUSAL_WINDOW_SECONDS = 10.0


async def _read_loop(connection: Connection, realtime: Realtime, settings: Settings) -> None:
    websocket = connection.websocket
    # One budget per user, shared by all of their sockets: more sockets buy no more messages.
    bucket = realtime.hub.message_budget(connection.user_id, settings.ws_messages_per_second)
    refusals, counted_since = 0, time.monotonic()
    while True:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is not None and len(text.encode()) > MAX_FRAME_BYTES:
            connection.deliver(_error(None, "message_too_big", f"Messages are limited to {MAX_FRAME_BYTES} bytes."))
            await connection.close(protocol.CLOSE_MESSAGE_TOO_BIG, "message too big")
            return
        # A binary frame is spent from the budget too: its refusal is a reply all the same, so a flood of them is
        # closed like a flood of text.
        if not bucket.take():
            now = time.monotonic()
            if now - counted_since > REFUSAL_WINDOW_SECONDS:
                refusals, counted_since = 0, now  # refusals now and then, hours apart, are not a flood
            refusals += 1
            if refusals >= settings.ws_refusals_before_close:
                await connection.close(protocol.CLOSE_RATE_LIMITED, "rate limited")
                return
            connection.deliver(_error(None if text is None else _request_id(text), "rate_limited",
                                      "Too many messages; slow down."))
            continue
        if text is None:
            connection.deliver(_error(None, "text_only", "Send JSON text frames, not binary."))
            continue
        await _handle_text(connection, realtime, text)


def _request_id(text: str) -> Any:
    try:
        data = strict_json.loads(text)
    except ValueError:
        return None
    return _valid_request_id(data)


def _valid_request_id(data: Any) -> Any:
    """The request's `id` if it is one we can echo (a short string of text or a safe integer), else None."""
    request_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(request_id, str) and len(request_id) <= protocol.MAX_REQUEST_ID_LENGTH and _is_text(request_id):
        return request_id
    if type(request_id) is int and abs(request_id) <= protocol.MAX_SAFE_INTEGER:
        return request_id
    return None


def _is_text(value: str) -> bool:
    """False for a string holding a lone surrogate (JSON's "\\ud800"): not text, and protocol.Error refuses it."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def _error(request_id: Any, code: str, message: str, table: str | None = None) -> dict[str, Any]:
    return protocol.Error(type="error", id=request_id, code=code, message=message, table=table).model_dump()


async def _handle_text(connection: Connection, realtime: Realtime, text: str) -> None:
    try:
        data = strict_json.loads(text)
    except ValueError as error:
        connection.deliver(_error(None, "bad_json", f"That message is not valid JSON: {str(error)[:80]}."))
        return
    request_id = _valid_request_id(data)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        connection.deliver(_error(request_id, "bad_message", "A message is a JSON object with a \"type\"."))
        return
    try:
        message = protocol.client_message_adapter.validate_python(data)
    except ValidationError as error:
        if any(e["type"] == "union_tag_invalid" for e in error.errors()):
            connection.deliver(_error(request_id, "unknown_message", f"There is no message type {data['type']!r}."))
        else:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"][1:]) or "message"
            connection.deliver(_error(request_id, "bad_message", f"{where}: {first['msg']}"))
        return
    table = getattr(message, "table", None)
    try:
        reply = await realtime.handle(connection, message)
    except (Refusal, AppError) as error:
        connection.deliver(_error(request_id, error.code, error.message, table))
        return
    except Exception:
        log.exception("socket message %s failed", data.get("type"))
        connection.deliver(_error(request_id, "internal_error", "Something went wrong on our side.", table))
        return
    if reply is not None:
        connection.deliver({**reply, "id": request_id})
