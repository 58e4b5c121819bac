"""Where bots think (design.md: bots never block the event loop).

Easy and medium bots choose in microseconds: they choose right in the table's actor. Hard bots search (rollouts,
playouts) for tens of milliseconds of pure Python: in a thread they would hold the interpreter lock and slow every
socket of the process, so they think in a small pool of worker processes. A bot is sent to a worker whole (its
class, seat and random generator pickle), with its view and legal moves, and only its choice comes back. If the pool
cannot be used (it broke, or this platform cannot start one), the bot thinks in a thread instead.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app import metrics
from app.games.base import Action, Bot, View

log = logging.getLogger(__name__)

HARD_LEVELS = frozenset({"hard"})


def _choose(bot: Bot, view: View | None, legal: list[Action]) -> Action | None:
    return bot.choose(view, legal)


WORKER_NICENESS = 10


def _yield_to_the_tables() -> None:
    """A worker runs below the server's priority: a bot has a second of slack before its move shows, the sockets
    of every table have none, so on a machine with few cores the scheduler should run the event loop first."""
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):  # no nice on this platform, or not allowed: think at the same priority
        pass


class BotThinking:
    def __init__(self, workers: int | None = None):
        # One core is the event loop's: the others think.
        self.workers = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server has threads (database drivers), which a forked child would inherit broken.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_yield_to_the_tables)
        return self._pool

    async def choose(self, bot: Bot, view: View | None, legal: list[Action]) -> Action | None:
        started = time.perf_counter()
        if bot.level not in HARD_LEVELS:
            action = bot.choose(view, legal)
            metrics.bot_thought(bot, time.perf_counter() - started)
            return action
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self._executor(), _choose, bot, view, legal)
        except (BrokenProcessPool, OSError, RuntimeError):
            log.warning("the bots' worker processes are not available; thinking in a thread", exc_info=True)
            self.close()
            action = await asyncio.to_thread(bot.choose, view, legal)
        metrics.bot_thought(bot, time.perf_counter() - started)
        return action

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


THINKING = BotThinking()  # one pool per process, shared by its tables
