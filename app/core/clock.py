"""Time, injected: everything that needs 'now' asks a Clock, so tests can fix or advance it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to: `advance(seconds=...)` or `set(when)`."""

    def __init__(self, start: datetime | None = None):
        self._now = _aware(start) if start is not None else datetime(2030, 1, 7, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | None = None, *, seconds: float = 0.0) -> datetime:
        self._now += (delta or timedelta()) + timedelta(seconds=seconds)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = _aware(when)


def _aware(when: datetime) -> datetime:
    if when.tzinfo is None:
        raise ValueError("a clock works in aware UTC datetimes")
    return when.astimezone(UTC)
