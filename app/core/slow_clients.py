"""A deadline for a request's headers, which uvicorn does not have: a client that opens a connection and sends its
headers a byte at a time (slowloris) held the connection for ever, and a few thousand of them used up the process's
open files, so nobody else could connect. Each HTTP connection now has HEADER_SECONDS to finish the headers of each
request (from when it opens, and from the end of each response on a kept-alive connection), or it is closed. A
request whose headers arrived (a slow upload, a long response) and a WebSocket (the connection has changed
protocol) are not limited by it. Behind HAProxy, its `timeout http-request` does the same at the edge.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

HEADER_SECONDS = 10.0


class HeaderDeadlineProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's HTTP protocol (httptools, or h11 without it) with the header deadline."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm_header_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().connection_lost(exc)

    def _arm_header_deadline(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        # The request being waited for is the one after `cycle` (None: the first): a new cycle is made as soon as
        # the next request's headers are complete.
        self._header_timer = self.loop.call_later(HEADER_SECONDS, self._header_deadline_passed, self.cycle)

    def _header_deadline_passed(self, waiting_after: Any) -> None:
        self._header_timer = None
        transport = self.transport
        if self.cycle is not waiting_after or transport.is_closing() or transport.get_protocol() is not self:
            return  # its headers came in time, it is closing anyway, or it became a WebSocket
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a pipelined request is still being answered: its own end arms the deadline again
        transport.close()
