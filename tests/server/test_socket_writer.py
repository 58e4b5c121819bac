"""A socket's outbound messages (app/realtime/gateway.py, Connection): sent at once while the socket takes them, in a
writer task once it has to wait (flow control), always in order, and a writer cancelled mid-wait stops cleanly."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocketState

from app.realtime.gateway import Connection


class FlowControlledSocket:
    """A WebSocket stand-in whose sends wait while `writable` is clear, like a transport whose buffer is full."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        await self.writable.wait()
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_messages_go_out_at_once_while_the_socket_takes_them():
    socket = FlowControlledSocket()
    connection = Connection(socket, user_id=1, username="ann")  # type: ignore[arg-type]
    for number in range(3):
        connection.send_text(f"m{number}")
    assert socket.sent == ["m0", "m1", "m2"]  # no writer task was needed
    assert connection._writer is None
    assert connection.bytes_sent == 6


async def test_a_socket_that_waits_gets_the_rest_in_order_from_a_writer():
    socket = FlowControlledSocket()
    connection = Connection(socket, user_id=1, username="ann")  # type: ignore[arg-type]
    connection.send_text("first")
    socket.writable.clear()
    connection.send_text("second")  # waits on the socket
    connection.send_text("third")  # queued behind it
    await asyncio.sleep(0)
    assert socket.sent == ["first"]
    assert connection._writer is not None
    socket.writable.set()
    await connection.finished_writing(1)
    assert socket.sent == ["first", "second", "third"]
    assert connection._writer is None
    connection.send_text("fourth")  # the socket takes it at once again
    assert socket.sent[-1] == "fourth"


async def test_close_waits_for_what_is_queued():
    socket = FlowControlledSocket()
    connection = Connection(socket, user_id=1, username="ann")  # type: ignore[arg-type]
    socket.writable.clear()
    connection.send_text("last words")
    await connection.close(4000, "bye")
    socket.writable.set()
    await connection.finished_writing(1)
    assert socket.sent == ["last words"]
    assert socket.closed == (4000, "bye")


async def test_a_writer_cancelled_while_the_socket_waits_stops():
    socket = FlowControlledSocket()
    connection = Connection(socket, user_id=1, username="ann")  # type: ignore[arg-type]
    socket.writable.clear()
    connection.send_text("stuck")
    writer = connection._writer
    assert writer is not None
    await asyncio.sleep(0)
    writer.cancel()
    await asyncio.gather(writer, return_exceptions=True)
    assert writer.cancelled()
    assert socket.sent == []
    assert connection._writer is None
