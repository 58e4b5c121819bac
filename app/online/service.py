"""Online play as one unit the app starts and stops: matchmaking, stakes, the shop and the league, and the one
background loop that keeps time for them.

The loop is cheap: every `MATCHMAKING_TICK_SECONDS` one Redis script looks for forming tables past their fill time;
every `LEAGUE_CHECK_SECONDS` one query looks for league weeks to close and pots left holding coins. It reads the
app's injectable clock, so tests move time and call `tick()` / `housekeeping()` (or let the loop see it). It is never
cancelled mid-step: stopping waits for the step in hand (a formed table must be created or cancelled, not forgotten).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from app.online.league import ClosedWeek, LeagueService
from app.online.matchmaking import MatchmakingService, TableFactory
from app.online.shop import ShopService
from app.online.stakes import StakeLedger
from app.ratings.service import RatingService
from app.tables.store import Settlement

if TYPE_CHECKING:
    from app.realtime.hub import Hub
    from app.runtime import Runtime
    from app.tables.manager import TableManager

log = logging.getLogger(__name__)

STOP_TIMEOUT_SECONDS = 30.0


def online_settlement(shop: ShopService, league: LeagueService, stakes: StakeLedger, ratings: RatingService
                      ) -> Settlement:
    """What online play adds to the end of a table (TableStore): boosts multiply prizes, settled online tables add
    league points and move their players' ratings, a cancelled staked table refunds its stakes."""
    return Settlement(multipliers=shop.multipliers, settled_listeners=(league.record, ratings.record),
                      refund_stakes=stakes.refund_table)


class OnlinePlay:
    def __init__(self, runtime: Runtime, tables: TableManager, hub: Hub, *, shop: ShopService, league: LeagueService,
                 stakes: StakeLedger, ratings: RatingService, create_table: TableFactory | None = None):
        self.runtime = runtime
        self.shop = shop
        self.league = league
        self.stakes = stakes
        self.ratings = ratings
        self.matchmaking = MatchmakingService(runtime, tables, hub, self.stakes, create_table=create_table,
                                              ratings=self.ratings)
        tables.listeners.append(self.matchmaking.adopted)  # a table adopted here keeps its players seated
        # More fill times kept by the same loop (rematch waits): each returns how many it handled.
        self.tick_hooks: list[Callable[[], Awaitable[int]]] = []
        # More clean-ups run with the housekeeping (idle friends rooms).
        self.housekeeping_hooks: list[Callable[[], Awaitable[int]]] = []
        self._loop: asyncio.Task | None = None
        self._stopping = asyncio.Event()

    async def start(self, *, background: bool = True) -> None:
        """After this node adopted its tables: refund pots whose table never started, start the loop."""
        try:
            await self.matchmaking.refund_stranded(restarted=True)
        except Exception:
            log.exception("could not check for stranded staked pots")
        if background:
            self._stopping.clear()
            self._loop = asyncio.get_running_loop().create_task(self._run(), name="online-play")

    async def stop(self) -> None:
        """Let the loop finish what it is doing (a table half formed must be created or cancelled), then stop."""
        self._stopping.set()
        if self._loop is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._loop), STOP_TIMEOUT_SECONDS)
            except TimeoutError:
                log.error("the online play loop did not stop in %s s; cancelling it", STOP_TIMEOUT_SECONDS)
                self._loop.cancel()
                await asyncio.gather(self._loop, return_exceptions=True)
            self._loop = None
        await self.matchmaking.close()

    async def tick(self) -> int:
        handled = await self.matchmaking.tick()
        for hook in self.tick_hooks:
            handled += await hook()
        return handled

    async def housekeeping(self) -> list[ClosedWeek]:
        """Close every league week that is over (paying its prizes once), refund stranded pots, delete guests
        older than GUEST_TTL_DAYS that never signed up and close friends rooms idle for ROOM_IDLE_HOURS."""
        closed = await self.close_due_weeks()
        await self.matchmaking.refund_stranded()
        await self.remove_stale_guests()
        for hook in self.housekeeping_hooks:
            await hook()
        return closed

    async def remove_stale_guests(self) -> int:
        async with self.runtime.transaction() as session:
            removed = await self.runtime.accounts.remove_stale_guests(session)
        if removed:
            log.info("removed %s guest accounts older than %s days", removed, self.runtime.settings.guest_ttl_days)
        return removed

    async def close_due_weeks(self) -> list[ClosedWeek]:
        async with self.runtime.reader() as session:
            due = await self.league.weeks_to_close(session)
        closed = []
        for game, week in due:
            async with self.runtime.transaction() as session:
                result = await self.league.close_week(session, game, week)
            if not result.already_closed:
                log.info("league %s week %s closed: %s", game, week, result.prizes)
            closed.append(result)
        return closed

    async def _run(self) -> None:
        settings = self.runtime.settings
        last_housekeeping = float("-inf")
        while not self._stopping.is_set():
            try:
                await asyncio.wait_for(self._stopping.wait(), settings.matchmaking_tick_seconds)
                return
            except TimeoutError:
                pass
            try:
                await self.tick()
                if time.monotonic() - last_housekeeping >= settings.league_check_seconds:
                    last_housekeeping = time.monotonic()
                    await self.housekeeping()
            except Exception:
                log.exception("online play loop failed; trying again")
