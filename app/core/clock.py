"""Time, injected: everything that needs 'now' asks a Clock, so tests can fix or advance it.

What waits (a table's turn timers, deadlines, bot delays, grace times, retries) asks a TimerClock: seconds that never
go back, the wall clock a client counts down to, timers and sleeps. `SystemClock` is the event loop's; `ManualClock`
moves only when a test says so, and running its timers is part of moving it, so timer tests need no real sleeps.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from time import monotonic as _monotonic, time as _wall_time
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class Timer(Protocol):
    def cancel(self) -> None: ...


class TimerClock(Clock, Protocol):
    def monotonic(self) -> float:
        """Seconds that never go back (timers count on them)."""
        ...

    def time(self) -> float:
        """The wall clock in seconds since the epoch (what a client counts down to)."""
        ...

    def call_later(self, seconds: float, callback: Callable[[T], object], arg: T) -> Timer:
        """`callback(arg)` after `seconds`, on the running event loop, unless cancelled first."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """Real time: the system's clocks and the running event loop's timers."""

    # The functions themselves (no wrapper): a table reads them on every move.
    monotonic = staticmethod(_monotonic)
    time = staticmethod(_wall_time)

    def now(self) -> datetime:
        return datetime.now(UTC)

    def call_later(self, seconds: float, callback: Callable[[T], object], arg: T) -> Timer:
        return asyncio.get_running_loop().call_later(seconds, callback, arg)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that moves only when told to: `advance(seconds=...)`, which runs the timers that come due on the way
    (each at its own moment, in order), or `set(when)`, which moves the wall clock only (like a clock adjusted by
    hand: timers count monotonic seconds). A timer already due runs on the event loop's next turn, as asyncio's do."""

    def __init__(self, start: datetime | None = None):
        self._now = _aware(start) if start is not None else datetime(2030, 1, 7, 12, 0, tzinfo=UTC)
        self._monotonic = 1000.0
        self._timers: list[ManualTimer] = []  # a heap: the next one due first
        self._order = itertools.count()

    def now(self) -> datetime:
        return self._now

    def monotonic(self) -> float:
        return self._monotonic

    def time(self) -> float:
        return self._now.timestamp()

    def call_later(self, seconds: float, callback: Callable[[T], object], arg: T) -> Timer:
        if seconds <= 0:
            return asyncio.get_running_loop().call_soon(callback, arg)
        timer = ManualTimer(self._monotonic + seconds, next(self._order), callback, arg)
        heapq.heappush(self._timers, timer)
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.call_later(seconds, _wake, woken)
        await woken

    def advance(self, delta: timedelta | None = None, *, seconds: float = 0.0) -> datetime:
        step = (delta or timedelta()) + timedelta(seconds=seconds)
        start_now, start_monotonic = self._now, self._monotonic
        end = start_monotonic + step.total_seconds()
        while self._timers and self._timers[0].due <= end:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._monotonic = timer.due
            self._now = start_now + timedelta(seconds=timer.due - start_monotonic)
            timer.callback(timer.arg)
        self._monotonic = end
        self._now = start_now + step
        return self._now

    def set(self, when: datetime) -> None:
        self._now = _aware(when)

    def next_timer(self) -> float | None:
        """Seconds until the next timer that has not been cancelled (None: none is waiting)."""
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0].due - self._monotonic if self._timers else None


class ManualTimer:
    __slots__ = ("due", "order", "callback", "arg", "cancelled")

    def __init__(self, due: float, order: int, callback: Callable[[Any], object], arg: Any):
        self.due = due
        self.order = order
        self.callback = callback
        self.arg = arg
        self.cancelled = False

    def __lt__(self, other: ManualTimer) -> bool:
        return (self.due, self.order) < (other.due, other.order)

    def cancel(self) -> None:
        self.cancelled = True


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _aware(when: datetime) -> datetime:
    if when.tzinfo is None:
        raise ValueError("a clock works in aware UTC datetimes")
    return when.astimezone(UTC)
