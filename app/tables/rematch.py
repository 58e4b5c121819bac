"""Rematch (issue 19): from the results, every person who sat at a finished table can ask for the same table again:
same game, options and seats (bots agree at once). The new table starts as soon as every person has answered with at
least one yes, or when REMATCH_WAIT_SECONDS run out; those who did not agree are handled by the mode's rules:

- practice (vs bots) and friends: a seat whose person did not agree is dropped; a friends rematch is a new room with
  the seats that remain, started as a host's room is (too few left: no rematch);
- online: matchmaking seats the people who agreed and simulated players fill the other seats (platform.md);
- staked: only people; each stake is taken again as that person agrees, and every stake is refunded if the rematch
  does not start.

The state of a pending rematch lives on a board (app/tables/rematch_board.py: Redis, or this process's memory on the
embedded set-up) where every step is atomic, so two people agreeing at the same moment (on any node) start exactly
one table: only the call that closes the rematch gets to start or cancel it.
New tables are made by the paths each mode already uses (RoomService.create_table, matchmaking, TableManager.create).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.errors import AppError
from app.games.base import Refusal
from app.games.registry import get_game
from app.online.queues import Queue, Step
from app.rooms.models import Room
from app.rooms.service import require_enough_players
from app.tables.actor import Seat, TableActor, TableError, TableTiming
from app.tables.manager import new_table_id
from app.tables.models import GameRecord, LiveTable
from app.tables.rematch_board import ANSWER_FIELD, rematch_board
from app.tables.store import json_copy, record_seats

if TYPE_CHECKING:
    from app.config import Settings
    from app.realtime.service import Realtime
    from app.rooms.service import RoomService
    from app.runtime import Runtime

log = logging.getLogger(__name__)

STAKE_TICKET = 1  # one stake per person per rematch: who declined cannot agree again (their refund is final)
FINISHED_KEPT = 512  # finished tables whose rematch copy stays in memory (every seat's answer reads it)
# A rematch's room, written already started (built once: building a statement costs more than running it).
_INSERT_ROOM = insert(Room.__table__)


class RematchRefused(TableError):
    pass


@dataclass
class OldRoom:
    """What a friends rematch copies from the finished table's room."""

    host_id: int
    options: dict[str, Any]
    turn_seconds: float


@dataclass
class Finished:
    """What a rematch copies from the finished table: its record and its live row (timing, meta)."""

    id: str
    game: str
    mode: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]  # kind, name, user_id, bot_level
    timing: TableTiming
    meta: dict[str, Any]

    @property
    def humans(self) -> list[int]:
        return [seat["user_id"] for seat in self.seats if seat.get("user_id") is not None]

    def name_of(self, user_id: int) -> str:
        return next(seat["name"] for seat in self.seats if seat.get("user_id") == user_id)


class RematchService:
    def __init__(self, runtime: Runtime, realtime: Realtime, rooms: RoomService):
        self.runtime = runtime
        self.realtime = realtime
        self.rooms = rooms
        self._board = rematch_board(runtime.redis, runtime.settings.redis_in_process, self._now_ms)
        # A finished table's record and live row never change again, so what a rematch copies is read once.
        # Kept as the read's future: the seats' answers arrive together, and one read serves them all.
        self._finished_kept: OrderedDict[str, asyncio.Future[Finished]] = OrderedDict()
        # A table that finished on this node is kept from the table itself once its record is committed, so the
        # seats' answers read nothing back from the database (a table finished on another node is still read).
        realtime.tables.store.recorded_listeners.append(self._keep_recorded)

    @property
    def settings(self) -> Settings:
        return self.runtime.settings

    def _now_ms(self) -> int:
        return int(self.runtime.clock.now().timestamp() * 1000)

    # --- what players ask ------------------------------------------------------------------------------

    async def answer(self, table_id: str, user_id: int, agree: bool) -> dict[str, Any]:
        """Agree to (or decline) a rematch of the finished table. Returns the rematch as the player sees it now;
        everyone who sat at the table hears it too."""
        finished = await self._finished(table_id)
        if user_id not in finished.humans:
            raise RematchRefused("not_seated", "You had no seat at that table.")
        staked = finished.mode == "staked"
        if agree and finished.mode in ("online", "staked") and (await self._state(table_id)).get("status") in (
                None, "pending"):
            await self._check_free(user_id)  # once it started, answering again changes nothing
        # The new table's id is fixed by whoever asks first (the board keeps the first one it is given).
        new_table = new_table_id()
        ttl_seconds = int(self.settings.rematch_wait_seconds) + 3600
        if staked:
            # With stakes it is fixed before any stake moves into the new table's pot.
            new_table, status_now = await self._board.fix_new_table(table_id, new_table, ttl_seconds)
            if agree and (status_now or "pending") == "pending":
                # The stake is taken before the agreement counts, so a table never starts on a missing stake; it
                # goes back below if the agreement came too late.
                await self._stake(finished, new_table, user_id)
        answered = await self._board.answer(
            table_id, user_id, agree, len(set(finished.humans)),
            self._now_ms() + int(self.settings.rematch_wait_seconds * 1000), new_table, ttl_seconds)
        outcome, status, state = answered.outcome, answered.status, _state(answered.fields)
        # A stake that did not count goes back: a withdrawn agreement, or one taken just as the rematch closed. A
        # stake of someone seated at the rematch being played stays in its pot, whatever they answer now.
        seated = status in ("starting", "started") and str(user_id) in state["agreed"]
        if staked and outcome in ("closed", "declined_before", "withdrew") and not seated:
            await self._refund(finished, new_table, user_id)
        if outcome == "declined_before":
            raise RematchRefused("rematch_declined", "You declined this rematch.")
        if outcome == "closed" and agree and status != "started":
            raise RematchRefused("rematch_closed", "This rematch is over.")
        if answered.decided:
            return await self._close(finished, status, state)
        return self._tell(finished, state)  # what everyone was told is the answer too

    async def _check_free(self, user_id: int) -> None:
        """An online or staked rematch is a matchmade table: one queue or matchmade table at a time (protocol.md,
        Matchmaking), so who waits in a queue or plays at another such table cannot agree to one."""
        where = await self._elsewhere(user_id)
        if where == "waiting":
            raise RematchRefused("already_queued", "You are waiting for another table; leave that queue first.")
        if where == "playing":
            raise RematchRefused("already_seated", "You are playing at another online table; finish that game "
                                 "first.")

    async def _elsewhere(self, user_id: int) -> str:
        """Where matchmaking has the player: `waiting` in a queue, `playing` at a matchmade table, or `idle`."""
        return (await self.realtime.online.matchmaking.status(user_id))["status"]

    async def tick(self) -> int:
        """Close the rematches whose wait ran out (on any node: the board hands each to one caller)."""
        now_ms = self._now_ms()
        if not await self._board.any_due(now_ms):
            return 0  # most ticks: a look, not the closing step
        closed = await self._board.take_due(now_ms)
        for old in closed:
            try:
                finished = await self._finished(old)
                state = await self._state(old)
                await self._close(finished, state.get("status", "cancelled"), state)
            except Exception:
                log.exception("could not close the rematch of table %s", old)
        return len(closed)

    # --- closing ---------------------------------------------------------------------------------------

    async def _close(self, finished: Finished, status: str, state: dict[str, Any]) -> dict[str, Any]:
        """Start the new table (or cancel the rematch) and tell everyone; returns the rematch as told. `state` is
        the rematch as the call that closed it read it: closed, nothing changes it but this."""
        new_table = state["new_table"]
        agreed = [user for user in finished.humans if str(user) in state["agreed"]]
        reason = None
        made: str | None = None
        dropped: dict[str, str] = {}
        if status == "starting" and finished.mode in ("online", "staked"):
            # Who agreed, then sat down in a queue or at another matchmade table before the rematch started, has
            # chosen that one (one queue or matchmade table at a time): it counts as declining, stake back.
            for user_id in [user for user in agreed if await self._elsewhere(user) in ("waiting", "playing")]:
                agreed.remove(user_id)
                state["agreed"].discard(str(user_id))
                state["declined"].add(str(user_id))
                dropped[ANSWER_FIELD + str(user_id)] = "no"
                if finished.mode == "staked":
                    await self._refund(finished, new_table, user_id)
        if status == "starting":
            try:
                made = await self._start(finished, new_table, agreed)
            except Refusal as refused:
                reason = refused.code
            except AppError as refused:
                reason = refused.code
            except Exception:
                log.exception("could not start the rematch of table %s", finished.id)
                reason = "error"
        else:
            reason = "nobody_agreed"
        if made is None and finished.mode == "staked":
            async with self.runtime.transaction() as session:
                await self.realtime.online.stakes.refund_table(session, new_table, get_game(finished.game).title)
                await self.realtime.online.stakes.mark_cancelled(session, new_table, self.runtime.clock.now())
        ended = {"status": "started" if made else "cancelled", "new_table": made or new_table, "reason": reason or ""}
        await self._board.end(finished.id, {**ended, **dropped})
        return self._tell(finished, {**state, **ended})

    async def _start(self, finished: Finished, table_id: str, agreed: list[int]) -> str:
        """Make the new table the way its mode makes tables. Returns its id."""
        mode, game_cls = finished.mode, get_game(finished.game)
        if mode == "bots":
            seats = [_seat(seat) for seat in finished.seats]
            await self.realtime.tables.create(game=finished.game, seats=seats, mode="bots", options=finished.options,
                                              timing=finished.timing, table_id=table_id)
            return table_id
        if mode == "friends":
            return await self._start_room(finished, table_id, agreed)
        matchmaking = self.realtime.online.matchmaking
        user_seats = [seat["user_id"] for seat in finished.seats if seat.get("user_id") in agreed]
        if not user_seats:
            raise RematchRefused("not_enough_players", "Nobody who agreed is free to play it.")
        if mode == "online":
            queue = Queue(finished.game, len(finished.seats), "online", 0)
        else:  # staked: only people, so the table is as big as those who agreed (and staked)
            if len(user_seats) < max(2, game_cls.min_seats) or len(user_seats) > game_cls.max_seats:
                raise RematchRefused("not_enough_players", "Too few players agreed for a staked table.")
            queue = Queue(finished.game, len(user_seats), "staked", int(finished.meta.get("stake", 0)))
        step = Step("formed", table=table_id, queue=queue, members=[(user, STAKE_TICKET) for user in user_seats])
        await matchmaking._start(step)
        async with self.runtime.reader() as session:
            if await session.get(LiveTable, table_id) is None:
                raise RematchRefused("error", "The table could not be made.")
        return table_id

    async def _start_room(self, finished: Finished, table_id: str, agreed: list[int]) -> str:
        """Friends: a new room like the old one with the seats whose people agreed (and the bots), started at once
        with the new table. The old room's host and options come with the table (its meta); a table made before
        they did reads them from the room. The new room is written already started: nobody else can see it yet, so
        there is nothing to claim (RoomService.start's first step)."""
        old = await self._old_room(finished)
        host_id = old.host_id if old is not None and old.host_id in agreed else agreed[0]
        seats: list[dict[str, Any]] = []
        for seat in finished.seats:
            if seat.get("user_id") is not None:
                if seat["user_id"] in agreed:
                    seats.append({"user_id": seat["user_id"], "name": seat["name"]})
            else:
                seats.append({"bot": seat.get("bot_level") or "medium", "name": seat["name"]})
        require_enough_players(finished.game, seats)
        options = old.options if old is not None else finished.options
        turn_seconds = old.turn_seconds if old is not None else finished.timing.turn_seconds
        now = self.runtime.clock.now()
        room_id = uuid.uuid4().hex

        async def insert_room(session: AsyncSession) -> None:
            await session.execute(_INSERT_ROOM, {"id": room_id, "host_id": host_id, "game": finished.game,
                                                 "options": options, "turn_seconds": turn_seconds, "seats": seats,
                                                 "status": "started", "table_id": table_id, "created_at": now,
                                                 "updated_at": now})

        await self.runtime.write(insert_room)  # one trip on SQLite: the appends wait less behind it
        await self.rooms.create_table(room_id, table_id, finished.game, options, turn_seconds, seats,
                                      self.realtime.tables, self.realtime.tables.timing,
                                      on_failure={"status": "closed"}, host_id=host_id)
        return table_id

    async def _old_room(self, finished: Finished) -> OldRoom | None:
        meta = finished.meta
        if "host" in meta and "room_options" in meta:
            return OldRoom(meta["host"], meta["room_options"], finished.timing.turn_seconds)
        async with self.runtime.reader() as session:
            row = (await session.execute(select(Room.host_id, Room.options, Room.turn_seconds)
                                         .where(Room.id == meta.get("room")))).one_or_none()
        return OldRoom(row.host_id, row.options, row.turn_seconds) if row is not None else None

    # --- stakes ----------------------------------------------------------------------------------------

    async def _stake(self, finished: Finished, new_table: str, user_id: int) -> None:
        stakes, title = self.realtime.online.stakes, get_game(finished.game).title
        async with self.runtime.transaction() as session:
            await stakes.stake(session, new_table, user_id, STAKE_TICKET, int(finished.meta.get("stake", 0)), title)

    async def _refund(self, finished: Finished, new_table: str, user_id: int) -> None:
        stakes, title = self.realtime.online.stakes, get_game(finished.game).title
        async with self.runtime.transaction() as session:
            await stakes.refund_ticket(session, new_table, user_id, STAKE_TICKET, title)

    # --- reading and telling ---------------------------------------------------------------------------

    def _keep_recorded(self, table: TableActor) -> None:
        kept: asyncio.Future[Finished] = asyncio.get_running_loop().create_future()
        kept.set_result(Finished(id=table.id, game=table.game_name, mode=table.mode, options=json_copy(table.options),
                                 seats=record_seats(table), timing=table.timing, meta=json_copy(table.meta)))
        self._keep(table.id, kept)

    def _keep(self, table_id: str, kept: asyncio.Future[Finished]) -> None:
        self._finished_kept[table_id] = kept
        self._finished_kept.move_to_end(table_id)
        while len(self._finished_kept) > FINISHED_KEPT:
            self._finished_kept.popitem(last=False)

    async def _finished(self, table_id: str) -> Finished:
        kept = self._finished_kept.get(table_id)
        if kept is None:
            kept = asyncio.ensure_future(self._read_finished(table_id))
            self._keep(table_id, kept)
        else:
            self._finished_kept.move_to_end(table_id)
        try:
            return await asyncio.shield(kept)
        except BaseException:
            if kept.done() and self._finished_kept.get(table_id) is kept:
                del self._finished_kept[table_id]  # a refusal (not finished yet) or a failed read is not kept
            raise

    async def _read_finished(self, table_id: str) -> Finished:
        # The columns a rematch copies, not the whole rows (a record's action log, a live table's engine state).
        async with self.runtime.reader() as session:
            record = (await session.execute(
                select(GameRecord.id, GameRecord.game, GameRecord.mode, GameRecord.options, GameRecord.seats)
                .where(GameRecord.id == table_id))).one_or_none()
            data = await session.scalar(select(LiveTable.table).where(LiveTable.id == table_id))
        if record is None:
            raise RematchRefused("not_finished", "That table has not finished (or is not yours).")
        data = data or {}
        timing = dict(data.get("timing") or {})
        if "bot_delay_seconds" in timing:
            timing["bot_delay_seconds"] = tuple(timing["bot_delay_seconds"])
        return Finished(id=record.id, game=record.game, mode=record.mode, options=record.options, seats=record.seats,
                        timing=TableTiming(**timing) if timing else self.realtime.tables.timing,
                        meta=data.get("meta") or {})

    async def _state(self, table_id: str) -> dict[str, Any]:
        return _state(await self._board.fields(table_id))

    def view(self, finished: Finished, state: dict[str, Any]) -> dict[str, Any]:
        """The rematch as its players see it, from its state (`_state`)."""
        status = state.get("status") or "none"
        humans = list(dict.fromkeys(finished.humans))
        deadline = int(state["deadline"]) if state.get("deadline") else None
        return {
            "table": finished.id,
            "event": {"pending": "waiting", "starting": "waiting"}.get(status, status),
            "agreed": [finished.name_of(u) for u in humans if str(u) in state["agreed"]],
            "declined": [finished.name_of(u) for u in humans if str(u) in state["declined"]],
            "waiting_for": [finished.name_of(u) for u in humans
                            if str(u) not in state["agreed"] and str(u) not in state["declined"]],
            "ends_at": deadline / 1000 if deadline is not None else None,
            "now": round(self.runtime.clock.now().timestamp(), 3),
            "table_id": state.get("new_table") if status == "started" else None,
            "reason": state.get("reason") or None,
        }

    async def status(self, table_id: str, user_id: int) -> dict[str, Any]:
        finished = await self._finished(table_id)
        if user_id not in finished.humans:
            raise RematchRefused("not_seated", "You had no seat at that table.")
        return self.view(finished, await self._state(finished.id))

    def _tell(self, finished: Finished, state: dict[str, Any]) -> dict[str, Any]:
        """Everyone who sat at the table hears the rematch as it is now (`state`); returns it."""
        view = self.view(finished, state)
        message = {"type": "rematch", "data": view}
        for user_id in dict.fromkeys(finished.humans):
            self.realtime.hub.send_to_user(user_id, message)
        return view


def _seat(seat: dict[str, Any]) -> Seat:
    if seat.get("user_id") is not None:
        return Seat("human", seat["name"], user_id=seat["user_id"], bot_level="medium")
    return Seat("bot", seat["name"], bot_level=seat.get("bot_level") or "medium")


def _state(fields: dict[str, str]) -> dict[str, Any]:
    """A rematch's state from its hash: its fields but the answers, and the agreed and declined user ids as text."""
    state: dict[str, Any] = {"agreed": set(), "declined": set()}
    for key, value in fields.items():
        if key.startswith(ANSWER_FIELD):
            state["agreed" if value == "yes" else "declined"].add(key[len(ANSWER_FIELD):])
        else:
            state[key] = value
    return state

