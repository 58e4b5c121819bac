"""A real uvicorn serving the app on 127.0.0.1 with a system-chosen port, inside the test's event loop.

    async with live_server(settings) as server:
        async with TablestakesClient(server.url) as client: ...
        server.app.state.realtime.tables  # the live tables, for assertions

Real sockets and a real WebSocket stack, and the same process, so tests can look at the tables directly.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn

from app.config import Settings
from app.core.clock import Clock
from app.main import create_app
from app.commands import uvicorn_options
from tests.support.waiting import eventually


@dataclass
class LiveServer:
    app: Any
    url: str
    server: uvicorn.Server

    @property
    def realtime(self) -> Any:
        return self.app.state.realtime

    @property
    def runtime(self) -> Any:
        return self.app.state.runtime


@asynccontextmanager
async def live_server(settings: Settings, *, clock: Clock | None = None) -> AsyncIterator[LiveServer]:
    app = create_app(settings, clock=clock)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="on", log_level="warning", **uvicorn_options())
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    await eventually(lambda: server.started or task.done(), timeout=60)
    if not server.started:
        task.result()  # startup failed: raise its error
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield LiveServer(app=app, url=f"http://127.0.0.1:{port}", server=server)
    finally:
        server.should_exit = True
        await task
