"""Matchmaking (platform.md, "The four modes"): players queue for a game, a number of seats and a mode, and are
seated together when a table forms.

- Online: a table forms when its seats are taken; when the fill time runs out (default 20 s) simulated players take
  the empty seats and the table is marked `bot_filled` (league points halved; the simulated players are paid
  nothing and nobody gets their prize).
- Staked (100, 250, 500 or 1000 coins): only real people. The stake moves into the table's pot as the player sits
  down; nobody sits without the coins. If the table is not full at the fill time (default 60 s) it is cancelled and
  every stake is refunded. Leaving the queue (or closing the socket that queued) refunds one's stake.
- Nobody waits in two queues, nor queues while seated at a matchmade table that is still being played.
- By rating (docs/ratings.md): a player sits at the forming table of similar rating; the window widens while a
  table waits and takes anyone at half its fill time (MATCHMAKING_RATING_*), when the tables of a queue are pulled
  together again (`tick` merges them; a staked player's stake moves with them). The fill time does not change.
- Staked tables open at level STAKED_MIN_LEVEL (default 2: 100 XP, three to five online or friends games played to
  the end). Staked tables are the one way coins pass between players, so without it every new account's welcome
  coins could be lost on purpose to a main account; XP comes only from games actually played (never vs bots, never
  for a seat a bot played most of), so each throwaway account would have to play real games first.

The queues are in Redis (app/online/queues.py); this service does what each step asks: stakes and refunds in the
ledger, the live table, and the players' `matchmaking` notices over their sockets.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app import metrics
from app.accounts.levels import level_for_xp, xp_for_level
from app.accounts.models import User
from app.core.errors import AppError, Conflict, Forbidden
from app.games.base import IllegalAction
from app.games.registry import UnknownGame, game_names, get_game
from app.ledger.service import InsufficientFunds
from app.online.queues import Matchmaker, Queue, RatingWindow, Step
from app.online.stakes import StakeLedger
from app.ratings.rating import bot_shown
from app.ratings.service import RatingService
from app.tables.actor import Seat, TableActor
from app.tables.manager import TableManager, new_table_id

if TYPE_CHECKING:
    from app.realtime.hub import Hub
    from app.runtime import Runtime

log = logging.getLogger(__name__)

MATCHMADE_MODES = ("online", "staked")
STRANDED_AFTER_SECONDS = 300.0  # a pot untouched this long with no table, no record and no queue is stranded
SIMULATED_NAMES = ("Robin", "Sasha", "Kim", "Alex", "Charlie")  # shown as simulated players ("kind": "bot")


class AlreadyQueued(Conflict):
    code = "already_queued"
    message = "You are already waiting for a table; leave that queue first."


class AlreadySeated(Conflict):
    code = "already_seated"
    message = "You are playing at an online table; finish that game first."


class StakedLevelRequired(Forbidden):
    code = "staked_level_required"
    message = "Staked tables open at a higher level."


class BadQueue(AppError):
    status = 422
    code = "bad_queue"


TableFactory = Callable[..., Awaitable[Any]]


class MatchmakingService:
    def __init__(self, runtime: Runtime, tables: TableManager, hub: Hub, stakes: StakeLedger, *,
                 create_table: TableFactory | None = None, ratings: RatingService | None = None):
        self.runtime = runtime
        self.settings = runtime.settings
        self.clock = runtime.clock
        self.tables = tables
        self.hub = hub
        self.stakes = stakes
        self.ratings = ratings or RatingService(runtime.clock)
        self.matchmaker = Matchmaker(runtime.redis)
        self.create_table: TableFactory = create_table or tables.create
        self._watchers: set[asyncio.Task] = set()
        self._watched: set[str] = set()  # table ids

    # --- what players ask --------------------------------------------------------------------------------

    def queue_for(self, game: str, seats: int, mode: str, stake: int | None) -> Queue:
        """Check a queue request against the games and the settings."""
        try:
            cls = get_game(game)
        except UnknownGame:
            raise BadQueue(f"There is no game called {game!r}; the games are {', '.join(game_names())}.",
                           code="unknown_game") from None
        try:
            cls.check_options(seats, {})
        except IllegalAction as refused:
            raise BadQueue(refused.message, code=refused.code) from None
        if mode == "online":
            if stake:
                raise BadQueue("Online tables have no stake; queue for a staked table instead.",
                               code="stake_not_allowed")
            return Queue(game, seats, "online", 0)
        if mode == "staked":
            if stake not in self.settings.stakes:
                amounts = ", ".join(str(amount) for amount in self.settings.stakes)
                raise BadQueue(f"Staked tables are played for {amounts} coins.", code="unknown_stake")
            return Queue(game, seats, "staked", int(stake))
        raise BadQueue("The matchmaking modes are online and staked.", code="unknown_mode")

    async def queue(self, user_id: int, queue: Queue, *, connection: str = "", rejoin_only: bool = False
                    ) -> dict[str, Any]:
        """Sit down at the queue's forming table (staking, for a staked queue). Returns what to tell the player;
        everyone at the table is told too, over their sockets. Already waiting in this queue, the player keeps the
        seat, now held by `connection`; with `rejoin_only`, that is all it does (`idle` when there is no seat)."""
        if self._seated_here(user_id):
            raise AlreadySeated()
        again = await self.matchmaker.rejoin(queue, user_id, connection=connection)
        if again.status == "waiting":
            # Already waiting in this queue (back after a reload, or from another tab): this socket now holds the
            # seat; it keeps its place and nothing is staked twice.
            return self._waiting_data(again)
        if rejoin_only:
            return {"event": "idle"}
        title = get_game(queue.game).title
        staked = queue.mode == "staked"
        if staked:
            await self._check_level(user_id)
            await self._check_funds(user_id, queue.stake)
        fill = self.settings.staked_fill_seconds if staked else self.settings.online_fill_seconds
        step = await self.matchmaker.join(queue, user_id, connection=connection, candidate=new_table_id(),
                                          now_ms=self._now_ms(), fill_ms=int(fill * 1000), staking=staked,
                                          rating=await self._rating(user_id, queue.game), window=self._window(fill))
        if step.status == "already_queued":
            raise AlreadyQueued()
        if step.status == "already_seated":
            raise AlreadySeated(details={"table_id": step.table})
        if staked:
            assert step.table is not None and step.ticket is not None
            ticket = step.ticket
            try:
                async with self.runtime.transaction() as session:
                    await self.stakes.stake(session, step.table, user_id, ticket, queue.stake, title)
            except BaseException:
                # No stake, no seat: give it up (the coins did not move).
                left = await self.matchmaker.leave(user_id, ticket=ticket)
                if left.status == "left":
                    self._tell_waiting(left)
                raise
            step = await self.matchmaker.confirm(step.table, user_id, ticket)
            if step.status == "refund":
                # The seat was given up while the coins moved (the fill time ran out, or another of this player's
                # sockets left the queue): the stake goes back at once.
                await self._refund_ticket(step.table or "", user_id, ticket, title)
                notice = self._notice("cancelled", queue, reason="cancelled", refunded=queue.stake)
                self.hub.send_to_user(user_id, notice)
                return notice["data"]
        return await self._after_step(step, user_id)

    async def unqueue(self, user_id: int, *, connection: str = "") -> dict[str, Any]:
        """Leave the queue (a staked seat's stake comes back). With `connection`, only if that socket queued."""
        step = await self.matchmaker.leave(user_id, connection=connection)
        if step.status != "left" or step.queue is None:
            return {"event": "idle"}
        refunded = 0
        if step.queue.mode == "staked" and not step.pending and step.ticket is not None:
            # (A stake still moving is refunded by the `queue` call moving it, when its confirm finds no seat; that
            # call tells the player.)
            await self._refund_ticket(step.table or "", user_id, step.ticket, get_game(step.queue.game).title)
            refunded = step.queue.stake
        self._tell_waiting(step)
        notice = self._notice("left", step.queue, refunded=refunded)
        self.hub.send_to_user(user_id, notice)
        return notice["data"]

    async def leave_later(self, user_id: int, connection: str) -> None:
        """The socket that holds the seat closed: the seat is given up after the grace time (`queue_grace_seconds`),
        unless the player queues again in the same queue meanwhile, from any socket (a reload, a dropped
        connection), which takes it over. The time is the app's clock; `tick` gives the seat up when it is due."""
        grace = self.settings.queue_grace_seconds
        if grace <= 0:
            await self.unqueue(user_id, connection=connection)
            return
        await self.matchmaker.depart_later(user_id, connection, self._now_ms() + int(grace * 1000))

    async def release_seats_of_gone_nodes(self) -> int:
        """A node that dies never closes its sockets, so the seats they held in a queue would wait for ever (and a
        staked one would be matched with its absent player). Any node's housekeeping finds the seats held by a
        socket that no live node has (presence says where each socket is; the lease whether that node lives) and
        gives each up after the grace time, as if that socket had closed now. A socket with no presence entry
        counts as gone: one that closed has its departure planned already, which keeps its time. Returns how many
        it found."""
        if self.settings.redis_in_process:
            return 0  # one node: its sockets close with it, and a restart refunds what the queue lost
        held = await self.matchmaker.held_seats()
        if not held:
            return 0
        nodes = await self.hub.node_of_sockets(held)
        alive = await self.tables.alive_nodes(sorted({node for node in nodes if node is not None}))
        gone = [seat for seat, node in zip(held, nodes) if node not in alive]
        at_ms = self._now_ms() + int(self.settings.queue_grace_seconds * 1000)
        for user_id, connection in gone:
            await self.matchmaker.depart_later(user_id, connection, at_ms, keep_earlier=True)
        return len(gone)

    async def status(self, user_id: int) -> dict[str, Any]:
        """Where the player is: idle, waiting at a forming table, or playing at a matchmade table."""
        waiting, seated = await self.matchmaker.where(user_id)
        if seated:
            return {"status": "playing", "table_id": seated}
        here = self._seated_here(user_id)
        if here is not None:
            return {"status": "playing", "table_id": here}
        if waiting:
            forming = await self.matchmaker.forming(waiting)
            if forming is not None:
                queue = forming["queue"]
                return {"status": "waiting", "queue": queue.as_dict(), "players": len(forming["members"]),
                        "seats": queue.seats, **self._fill_times(forming["deadline_ms"])}
        return {"status": "idle"}

    async def staked_waiting(self, game: str) -> list[dict[str, Any]]:
        """For each table size and stake of `game`, how many people wait at its forming staked table (a lone
        player can see whether anyone else is waiting, and at which stake)."""
        cls = get_game(game)
        queues = [Queue(game, seats, "staked", stake) for seats in range(cls.min_seats, cls.max_seats + 1)
                  for stake in self.settings.stakes]
        counts = await self.matchmaker.waiting_counts(queues)
        return [{"seats": queue.seats, "stake": queue.stake, "players": count} for queue, count in zip(queues, counts)]

    # --- time ----------------------------------------------------------------------------------------------

    async def tick(self) -> int:
        """Give up the seats whose grace time ran out, then act on every forming table past its fill time: fill
        online ones with simulated players, cancel staked ones. Atomic in Redis, so several nodes may tick at once.
        Returns how many tables it handled."""
        departures, forming, due = await self.matchmaker.work_due(self._now_ms())
        for user_id, connection in await self.matchmaker.departures_due(self._now_ms()) if departures else []:
            try:
                # Gives the seat up only if that socket still holds it (nobody came back for it).
                await self.unqueue(user_id, connection=connection)
            except Exception:
                log.exception("could not take user %s out of the queue", user_id)
        for step in await self.matchmaker.merge(self._now_ms()) if forming else []:
            try:
                if step.status == "moved":
                    await self._moved(step)
                elif step.status == "formed" and step.members:
                    await self._start(step)
            except Exception:
                log.exception("matchmaking could not handle table %s (%s)", step.table, step.status)
        steps = await self.matchmaker.due(self._now_ms()) if due else []
        for step in steps:
            try:
                if step.status == "formed" and step.members:
                    await self._start(step)
                elif step.status == "cancelled":
                    await self._cancel(step, reason="fill_time")
            except Exception:
                log.exception("matchmaking could not handle table %s (%s)", step.table, step.status)
        return len(steps)

    # --- tables ----------------------------------------------------------------------------------------

    async def _after_step(self, step: Step, user_id: int) -> dict[str, Any]:
        assert step.queue is not None
        if step.status == "formed":
            return await self._start(step, asked_by=user_id)
        self._tell_waiting(step)
        return self._waiting_data(step)

    async def _moved(self, step: Step) -> None:
        """Players moved to an older forming table whose rating window reached theirs (queues.py, `merge`): a
        staked one's stake goes from the old pot to the new one in one transaction, then their seat is confirmed;
        everyone at both tables hears how many sit there now."""
        queue, table_id, source = step.queue, step.table, step.source
        assert queue is not None and table_id is not None and source is not None
        if queue.mode == "staked":
            title = get_game(queue.game).title
            for user_id, old_ticket, new_ticket in step.moves:
                try:
                    async with self.runtime.transaction() as session:
                        await self.stakes.refund_ticket(session, source, user_id, old_ticket, title)
                        await self.stakes.stake(session, table_id, user_id, new_ticket, queue.stake, title)
                except Exception:
                    log.exception("could not move the stake of user %s from table %s to %s", user_id, source,
                                  table_id)
                    left = await self.matchmaker.leave(user_id, ticket=new_ticket)
                    if left.status == "left":
                        self._tell_waiting(left)
                    await self._refund_ticket(source, user_id, old_ticket, title)
                    self.hub.send_to_user(user_id, self._notice("cancelled", queue, reason="error",
                                                                refunded=queue.stake))
                    continue
                confirmed = await self.matchmaker.confirm(table_id, user_id, new_ticket)
                if confirmed.status == "refund":  # they left (or the table ended) while the stake moved
                    await self._refund_ticket(table_id, user_id, new_ticket, title)
                elif confirmed.status == "formed":
                    await self._start(confirmed)
                else:
                    self._tell_waiting(confirmed)
        else:
            self._tell_waiting(step)
        if step.left_behind:
            forming = await self.matchmaker.forming(source)
            if forming is not None:
                self._tell_waiting(Step("waiting", table=source, queue=queue, deadline_ms=forming["deadline_ms"],
                                        members=step.left_behind))

    async def _start(self, step: Step, asked_by: int | None = None) -> dict[str, Any]:
        """A table formed: create it with its players (and simulated ones for the empty online seats)."""
        queue, table_id = step.queue, step.table
        assert queue is not None and table_id is not None
        user_ids = step.user_ids
        try:
            async with self.runtime.reader() as session:
                names = await self._usernames(session, user_ids)
                ratings = await self.ratings.ratings_of(session, queue.game, user_ids)
                pot = await self.stakes.pot_balance(session, table_id) if queue.mode == "staked" else 0
        except Exception:
            log.exception("could not read the players of matchmade table %s", table_id)
            return await self._cancel(step, reason="error", asked_by=asked_by)
        if queue.mode == "staked" and (len(user_ids) != queue.seats or pot < queue.stake * queue.seats):
            log.error("staked table %s formed with %s coins of %s in its pot", table_id, pot,
                      queue.stake * queue.seats)
            return await self._cancel(step, reason="stakes_missing", asked_by=asked_by)
        # Each seat shows its rating (the table's info carries it: sent on join and when it changes).
        seats = [Seat("human", names[user_id], user_id=user_id, bot_level="medium",
                      rating=ratings[user_id].shown()) for user_id in user_ids]
        simulated = queue.seats - len(seats)
        names_left = [name for name in SIMULATED_NAMES if name.lower() not in {n.lower() for n in names.values()}]
        level = self.settings.simulated_player_level
        for number in range(simulated):
            seats.append(Seat("bot", f"{names_left[number % len(names_left)]} (simulated)", bot_level=level,
                              rating=bot_shown(level)))
        secrets.SystemRandom().shuffle(seats)  # seat order decides who starts and a pot's odd coins
        meta: dict[str, Any] = {"matchmaking": queue.key, "bot_filled": simulated > 0}
        if queue.mode == "staked":
            meta["stake"] = queue.stake
            meta["tickets"] = {str(user): ticket for user, ticket in step.members}
        try:
            table = await self.create_table(game=queue.game, seats=seats, mode=queue.mode, meta=meta,
                                            table_id=table_id)
        except Exception:
            log.exception("could not create matchmade table %s", table_id)
            return await self._cancel(step, reason="error", asked_by=asked_by)
        self._watch(table, user_ids)
        self._waited(step, "bot_filled" if simulated else "formed")
        mine: dict[str, Any] = {}
        for user_id in user_ids:
            seat = next(index for index, s in enumerate(seats) if s.user_id == user_id)
            notice = self._notice("matched", queue, table_id=table_id, seat=seat, bot_filled=simulated > 0,
                                  players=[s.name for s in seats])
            self.hub.send_to_user(user_id, notice)
            if user_id == asked_by:
                mine = notice["data"]
        return mine

    async def _cancel(self, step: Step, *, reason: str, asked_by: int | None = None) -> dict[str, Any]:
        """The table will not be played: every stake in its pot goes back, and its players are told."""
        queue, table_id = step.queue, step.table
        assert queue is not None and table_id is not None
        if queue.mode == "staked":
            async with self.runtime.transaction() as session:
                await self.stakes.refund_table(session, table_id, get_game(queue.game).title)
                await self.stakes.mark_cancelled(session, table_id, self.clock.now())
        await self.matchmaker.unseat(table_id, step.user_ids)
        self._waited(step, "cancelled")
        mine: dict[str, Any] = {}
        for user_id in step.user_ids:
            notice = self._notice("cancelled", queue, reason=reason,
                                  refunded=queue.stake if queue.mode == "staked" else 0)
            self.hub.send_to_user(user_id, notice)
            if user_id == asked_by:
                mine = notice["data"]
        return mine

    def _watch(self, table: TableActor, user_ids: list[int]) -> None:
        """Once the table finishes, its players may queue again."""
        finished = getattr(table, "finished", None)
        if finished is None or table.id in self._watched:
            return  # played on another node (which watches it), or watched already
        self._watched.add(table.id)

        async def watch() -> None:
            await finished.wait()
            try:
                await self.matchmaker.unseat(table.id, user_ids)
            except Exception:
                log.warning("could not clear the seats of table %s (they expire anyway)", table.id, exc_info=True)

        task = asyncio.get_running_loop().create_task(watch(), name=f"matchmade:{table.id}")
        self._watchers.add(task)
        task.add_done_callback(self._watchers.discard)
        task.add_done_callback(lambda _: self._watched.discard(table.id))

    async def adopted(self, table: TableActor, adopted: bool = True) -> None:
        """A matchmade table this node plays (made here, or adopted after a restart or another node's crash) keeps
        its players seated until it finishes."""
        if table.mode in MATCHMADE_MODES and table.status == "playing":
            user_ids = [seat.user_id for seat in table.seats if seat.user_id is not None]
            await self.matchmaker.seat(table.id, user_ids)
            self._watch(table, user_ids)

    async def refund_stranded(self, *, restarted: bool = False) -> int:
        """Pots holding coins for a table that never started (no live table, no record, no longer forming: a crash
        between a stake and its table), once they have been still for a while, refund every stake. Returns how many
        tables were refunded. A started table is never touched here: whichever node owns it settles or cancels it,
        and a table whose owner is gone is adopted by a live node first (app/tables/manager.py).

        `restarted`: this process has just started. With the in-process Redis stand-in (embedded, one node) every
        forming table, staked queue seat and rematch was lost with the old process and no other node can be making
        one, so their pots are refunded at once instead of after the wait, and the ledger says why."""
        alone = restarted and self.settings.redis_in_process
        still_for = 0.0 if alone else STRANDED_AFTER_SECONDS
        why = "the server restarted before the table started" if alone else None
        now = self.clock.now()
        candidates: set[str] = set()
        async with self.runtime.reader() as session:
            pots = await self.stakes.pots_holding_coins(session)
            for pot in pots:
                if pot.table_id in self.tables.tables:
                    continue
                if pot.last_moved_at is not None and (now - pot.last_moved_at).total_seconds() < still_for:
                    continue  # a table forming, or being created, right now
                if await self.stakes.table_started(session, pot.table_id):
                    continue  # live (here or on another node), or finished
                candidates.add(pot.table_id)
        refunded = 0
        for table_id in sorted(candidates):
            if await self.matchmaker.forming(table_id) is not None:
                continue
            async with self.runtime.transaction() as session:
                title = await self.stakes.staked_title(session, table_id)
                refunds = await self.stakes.refund_table(session, table_id, title, why)
                await self.stakes.mark_cancelled(session, table_id, now)
            if refunds:
                log.warning("staked table %s cannot finish: refunded %s stakes", table_id, len(refunds))
                refunded += 1
        return refunded

    async def close(self) -> None:
        for task in list(self._watchers):
            task.cancel()
        await asyncio.gather(*self._watchers, return_exceptions=True)

    # --- helpers ---------------------------------------------------------------------------------------

    def _seated_here(self, user_id: int) -> str | None:
        for table in self.tables.tables_of(user_id):
            if table.mode in MATCHMADE_MODES and table.status == "playing":
                return table.id
        return None

    async def _check_level(self, user_id: int) -> None:
        needed = self.settings.staked_min_level
        step = self.settings.level_xp_step
        async with self.runtime.reader() as session:
            user = await session.get(User, user_id)
            xp = user.xp if user is not None else 0
        level, xp_needed = level_for_xp(xp, step), xp_for_level(needed, step)
        if level < needed:
            raise StakedLevelRequired(
                f"Staked tables open at level {needed}; you are level {level} ({xp} of {xp_needed} XP). Finish "
                "online or friends games to get there.",
                details={"level": level, "xp": xp, "level_needed": needed, "xp_needed": xp_needed})

    async def _check_funds(self, user_id: int, stake: int) -> None:
        async with self.runtime.reader() as session:
            ledger = self.runtime.ledger
            balance = await ledger.balance(session, await ledger.wallet_id(session, user_id))
        if balance < stake:
            raise InsufficientFunds(f"This table's stake is {stake} coins; you have {balance}.",
                                    details={"needed": stake, "available": balance})

    async def _rating(self, user_id: int, game: str) -> int:
        """The rating matchmaking seats a player by: their shown rating in the game (a new player's: 1000)."""
        async with self.runtime.reader() as session:
            skill = (await self.ratings.ratings_of(session, game, [user_id]))[user_id]
        return int(skill.shown()["rating"])

    def _window(self, fill_seconds: float) -> RatingWindow:
        """A forming table's rating window: it takes anyone once it has waited a fraction of its fill time, so
        rating never keeps a table from filling as it would without it (and the fill time stays what it is)."""
        settings = self.settings
        return RatingWindow(base=settings.matchmaking_rating_window,
                            per_second=settings.matchmaking_rating_widen_per_second,
                            open_ms=int(fill_seconds * 1000 * settings.matchmaking_rating_open_fraction))

    async def _refund_ticket(self, table_id: str, user_id: int, ticket: int, title: str) -> None:
        async with self.runtime.transaction() as session:
            await self.stakes.refund_ticket(session, table_id, user_id, ticket, title)

    async def _usernames(self, session: Any, user_ids: list[int]) -> dict[int, str]:
        from app.accounts.repository import users_by_ids

        users = await users_by_ids(session, user_ids)
        return {user_id: users[user_id].username if user_id in users else f"Player {user_id}"
                for user_id in user_ids}

    def _waited(self, step: Step, outcome: str) -> None:
        """The metric of how long the table's first player waited (its deadline is their arrival + the fill time)."""
        if step.queue is None or step.deadline_ms is None:
            return
        staked = step.queue.mode == "staked"
        fill = self.settings.staked_fill_seconds if staked else self.settings.online_fill_seconds
        waited = (self._now_ms() - step.deadline_ms) / 1000 + fill
        metrics.matchmaking_waited(step.queue.game, step.queue.mode, outcome, waited)

    def _now_ms(self) -> int:
        return int(self.clock.now().timestamp() * 1000)

    def _fill_times(self, deadline_ms: int | None) -> dict[str, float | None]:
        return {"fill_ends_at": deadline_ms / 1000 if deadline_ms is not None else None,
                "now": round(self.clock.now().timestamp(), 3)}

    def _waiting_data(self, step: Step) -> dict[str, Any]:
        assert step.queue is not None
        return {"event": "waiting", "queue": step.queue.as_dict(), "players": len(step.members),
                "seats": step.queue.seats, **self._fill_times(step.deadline_ms)}

    def _tell_waiting(self, step: Step) -> None:
        """Everyone at a forming table hears how many have sat down."""
        if step.queue is None:
            return
        message = {"type": "matchmaking", "data": self._waiting_data(step)}
        for user_id in step.user_ids:
            self.hub.send_to_user(user_id, message)

    def _notice(self, event: str, queue: Queue, **data: Any) -> dict[str, Any]:
        return {"type": "matchmaking", "data": {"event": event, "queue": queue.as_dict(), **data}}

