"""Slow clients (slowloris): a connection that does not finish a request's headers within the deadline is closed,
while a request sent normally, a kept-alive connection's next request and a WebSocket are not affected."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

import pytest

from app.client import TablestakesClient
from app.core import slow_clients
from tests.support.harness import PASSWORD
from tests.support.live import live_server

pytestmark = pytest.mark.parametrize("backend", ["embedded"])  # the HTTP layer is the same on every backend

DEADLINE = 0.5


async def closed_by_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, within: float) -> bool:
    """Whether the server closed the connection within `within` seconds; our end is closed either way."""
    try:
        return await asyncio.wait_for(reader.read(), within) == b""
    except asyncio.TimeoutError:
        return False
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_headers_sent_too_slowly_close_the_connection_and_others_are_served(settings, monkeypatch):
    monkeypatch.setattr(slow_clients, "HEADER_SECONDS", DEADLINE)
    async with live_server(settings) as server:
        address = urlsplit(server.url)
        # A slowloris: a request line, then a header line now and then, never the end of the headers.
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        for _ in range(3):
            await asyncio.sleep(DEADLINE / 4)
            writer.write(b"X-Slow: 1\r\n")
            await writer.drain()
        assert await closed_by_server(reader, writer, within=DEADLINE * 6)
        # A connection that never sends anything is closed too.
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        assert await closed_by_server(reader, writer, within=DEADLINE * 6)

        # A socket outlives the deadline; a kept-alive connection serves request after request.
        ada = TablestakesClient(server.url)
        await ada.register("ada_slow", PASSWORD)
        await ada.connect()
        await asyncio.sleep(DEADLINE * 3)
        assert (await ada.request({"type": "ping"}))["type"] == "pong"
        for _ in range(3):
            assert (await ada.get("/api/me"))["username"] == "ada_slow"
            await asyncio.sleep(DEADLINE / 2)
        await ada.close()
