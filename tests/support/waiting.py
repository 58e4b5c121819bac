"""Waiting in tests for something the server does on its own tasks (a tick, a socket's close), without sleeping a
fixed time."""

from __future__ import annotations

import asyncio

POLL_SECONDS = 0.05


async def eventually(check, timeout: float = 8.0) -> None:
    """Wait until `check()` (plain or async) is true; fail after `timeout` seconds."""
    for _ in range(int(timeout / POLL_SECONDS)):
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        await asyncio.sleep(POLL_SECONDS)
    raise AssertionError(f"still not true after {timeout} s: {check}")
