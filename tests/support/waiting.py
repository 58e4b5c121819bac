"""Waiting in tests for something the server does on its own tasks (a tick, a socket's close), without sleeping a
fixed time; and moving a ManualClock from timer to timer, for code that waits on one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from app.core.clock import ManualClock

POLL_SECONDS = 0.05
LOOP_TURNS = 1000  # event loop turns the code under test may take to reach its next timer
SETTLE_TURNS = 20  # turns given to what is ready (a task finishing) before the clock moves on


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


def eventually_in_thread(check: Callable[[], bool], timeout: float = 8.0) -> None:
    """`eventually` for code that is not on an event loop (a test driving a server on another thread)."""
    for _ in range(int(timeout / POLL_SECONDS)):
        if check():
            return
        time.sleep(POLL_SECONDS)
    raise AssertionError(f"still not true after {timeout} s: {check}")


async def run_timers_until(clock: ManualClock, check: Callable[[], bool], *, timers: int = 100) -> None:
    """Until `check()` holds: let the event loop run until what is ready has run and something waits on `clock`, then
    move the clock to the next timer (which runs it). No real time passes; fails if nothing is left to wait for, or
    after `timers`."""
    for _ in range(timers):
        for turn in range(LOOP_TURNS):
            if check():
                return
            if turn >= SETTLE_TURNS and clock.next_timer() is not None:
                break
            await asyncio.sleep(0)  # one turn of the loop, not a wait
        else:
            raise AssertionError(f"not true, and nothing waits on the clock: {check}")
        clock.advance(seconds=clock.next_timer() or 0.0)
    raise AssertionError(f"still not true after {timers} timers: {check}")
