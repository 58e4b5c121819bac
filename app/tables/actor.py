"""One live table: an asyncio actor that owns one game engine (design.md, "A table is an actor").

Everything that changes the table goes through the actor's inbox and is handled strictly in order: human actions,
bot moves, turn-timer and deadline expiries, connects and disconnects. Each change is broadcast to every connected
seat as that seat's own events and view, with a version that grows by one per event, so a client that reconnects
asks "since version v" and gets the missed events, or a full view when they are too old.

The actor does no I/O of its own besides calling its `TableHooks` (snapshots, the final record and payouts) and
handing messages to subscribers, whose `deliver` never blocks.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from app.games.base import Action, Bot, Event, Game, IllegalAction

log = logging.getLogger(__name__)

EVENT_BUFFER = 200  # events kept for reconnecting clients; an older gap gets a full view instead
MAX_TIMEOUT_MOVES = 50  # a guard: moves a bot makes for a timed-out seat before the timer starts again


class Subscriber(Protocol):
    """A socket (or test double) listening to a table. `deliver` must not block: it queues the message."""

    def deliver(self, message: dict[str, Any]) -> None: ...


@dataclass
class Seat:
    kind: str  # "human" or "bot"
    name: str
    user_id: int | None = None
    bot_level: str = "medium"  # the level that plays a bot seat, or a human seat when it times out or is away
    away: bool = False  # a human whose seat a bot covers (disconnected past the grace time)
    human_turns: int = 0  # decisions the person made
    covered_turns: int = 0  # decisions a bot made for this human (time-outs and away)

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def left(self) -> bool:
        """platform.md: a seat played by a bot for more than half of the player's turns counts as having left."""
        total = self.human_turns + self.covered_turns
        return self.kind == "human" and total > 0 and self.covered_turns * 2 > total


@dataclass
class TableTiming:
    turn_seconds: float = 30.0
    grace_seconds: float = 15.0
    bot_delay_seconds: tuple[float, float] = (0.6, 1.4)  # bots "think" for a human-like moment
    snapshot_seconds: float = 5.0
    linger_seconds: float = 300.0  # a finished table stays reachable for its results


class TableHooks(Protocol):
    async def snapshot(self, table: TableActor) -> None: ...

    async def finish(self, table: TableActor) -> dict[int, dict[str, Any]]:
        """Store the record and pay rewards, exactly once. Returns each seat's rewards (coins, xp, ...)."""
        ...


class NoHooks:
    async def snapshot(self, table: TableActor) -> None:
        return None

    async def finish(self, table: TableActor) -> dict[int, dict[str, Any]]:
        return {}


class TableError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class _Request:
    kind: str
    args: dict[str, Any]
    reply: asyncio.Future | None = None


@dataclass
class _Connection:
    subscriber: Subscriber
    seat: int | None


class TableActor:
    def __init__(
        self,
        *,
        table_id: str,
        game: Game,
        seats: list[Seat],
        mode: str,
        timing: TableTiming | None = None,
        hooks: TableHooks | None = None,
        seed_hex: str = "",
        options: dict[str, Any] | None = None,
        version: int = 0,
        action_log: list[list[Any]] | None = None,
        status: str = "playing",
        rewards: dict[int, dict[str, Any]] | None = None,
        meta: dict[str, Any] | None = None,
        wall_clock: Callable[[], float] = time.time,
    ):
        if len(seats) != game.seat_count:
            raise ValueError("one Seat per game seat")
        self.id = table_id
        self.game = game
        self.game_name = type(game).name
        self.seats = seats
        self.mode = mode
        self.timing = timing or TableTiming()
        self.hooks: TableHooks = hooks or NoHooks()
        self.seed_hex = seed_hex
        self.options = options or {}
        self.version = version
        self.action_log: list[list[Any]] = action_log if action_log is not None else []
        self.status = status  # "playing", "finished"
        self.rewards: dict[int, dict[str, Any]] = rewards or {}
        self.meta = meta or {}
        self._wall_clock = wall_clock
        self._events: deque[tuple[int, Event]] = deque(maxlen=EVENT_BUFFER)
        self._inbox: asyncio.Queue[_Request] = asyncio.Queue()
        self._connections: list[_Connection] = []
        self._bots: dict[int, Bot] = {}
        self._bot_rng = random.Random()
        self._turn_timers: dict[int, tuple[asyncio.TimerHandle, float]] = {}
        self._bot_moves: dict[int, asyncio.TimerHandle] = {}
        self._deadlines: dict[str, tuple[asyncio.TimerHandle, float]] = {}
        self._offered_deadlines: set[str] = set()
        self._grace_timers: dict[int, asyncio.TimerHandle] = {}
        self._task: asyncio.Task | None = None
        self._last_snapshot = 0.0
        self._dirty = False
        self._snapshot_writer: asyncio.Task | None = None  # the periodic snapshot in flight, if any
        self._snapshot_again = False
        self._unsent_from: int | None = None  # first version not yet sent to the connections
        self.finished = asyncio.Event()
        if status == "finished":
            self.finished.set()

    # ----------------------------------------------------------------------------------------------- life cycle

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table:{self.id}")
            self._post(_Request("boot", {}))

    async def stop(self) -> None:
        """Stop the actor (server shutdown): timers cancelled, a last snapshot taken if it is still playing."""
        if self._task is None:
            return
        reply = asyncio.get_running_loop().create_future()
        self._post(_Request("stop", {}, reply))
        await reply
        await self._task
        self._task = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    # ------------------------------------------------------------------------------------------- public inputs

    async def act(self, user_id: int, action: Action, seat: int | None = None) -> int:
        """A person's move. Returns the table version after it; raises TableError or IllegalAction."""
        return await self._ask("act", user_id=user_id, action=action, seat=seat)

    async def connect(self, subscriber: Subscriber, user_id: int | None, since: int | None) -> int | None:
        """Subscribe a socket; it receives what it missed since `since`. Returns the seat (None: spectator)."""
        return await self._ask("connect", subscriber=subscriber, user_id=user_id, since=since)

    async def disconnect(self, subscriber: Subscriber) -> None:
        await self._ask("disconnect", subscriber=subscriber)

    def seat_of(self, user_id: int | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id is not None and seat.user_id == user_id:
                return index
        return None

    def describe(self, seat: int | None = None) -> dict[str, Any]:
        """The table around the game: seats, mode, status, clocks. Sent with every view."""
        connected = {c.seat for c in self._connections if c.seat is not None}
        return {
            "id": self.id,
            "game": self.game_name,
            "mode": self.mode,
            "status": self.status,
            "version": self.version,
            "my_seat": seat,
            "seats": [
                {
                    "seat": index,
                    "name": s.name,
                    "kind": s.kind,
                    "bot_level": s.bot_level if s.is_bot else None,
                    "connected": s.is_bot or index in connected,
                    "away": s.away,
                }
                for index, s in enumerate(self.seats)
            ],
            "clock": self._clock_view(),
            "rewards": {str(k): v for k, v in self.rewards.items()} if self.status == "finished" else None,
            "outcome": self.game.outcome().as_dict() if self.game.is_over else None,
        }

    def snapshot_data(self) -> dict[str, Any]:
        """What a restart needs besides the game's own state."""
        return {
            "seats": [asdict(seat) for seat in self.seats],
            "mode": self.mode,
            "options": self.options,
            "timing": {**asdict(self.timing), "bot_delay_seconds": list(self.timing.bot_delay_seconds)},
            "version": self.version,
            "action_log": self.action_log,
            "status": self.status,
            "rewards": {str(k): v for k, v in self.rewards.items()},
            "meta": self.meta,
        }

    # ---------------------------------------------------------------------------------------------- internals

    def _post(self, request: _Request) -> None:
        self._inbox.put_nowait(request)

    async def _ask(self, kind: str, **args: Any) -> Any:
        if not self.running:
            raise TableError("table_closed", "this table is not running")
        reply = asyncio.get_running_loop().create_future()
        self._post(_Request(kind, args, reply))
        return await reply

    async def _run(self) -> None:
        while True:
            request = await self._inbox.get()
            try:
                result = await self._handle(request)
            except (TableError, IllegalAction) as error:
                if request.reply and not request.reply.done():
                    request.reply.set_exception(error)
                continue
            except Exception as error:  # a bug must not kill the table silently
                log.exception("table %s failed handling %s", self.id, request.kind)
                if request.reply and not request.reply.done():
                    request.reply.set_exception(error)
                continue
            if request.reply and not request.reply.done():
                request.reply.set_result(result)
            if request.kind == "stop":
                return

    async def _handle(self, request: _Request) -> Any:
        handler = getattr(self, f"_on_{request.kind}")
        result = await handler(**request.args)
        if request.kind != "stop":
            await self._after_change()
        return result

    async def _on_schedule(self) -> None:
        return None

    async def _on_boot(self) -> None:
        """A table that starts (or resumes after a restart) gives every absent person the grace time to arrive."""
        if self.status != "playing":
            return
        present = {c.seat for c in self._connections}
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and not seat.away and index not in present and index not in self._grace_timers:
                self._grace_timers[index] = self._later(
                    self.timing.grace_seconds, _Request("grace_over", {"seat": index})
                )

    async def _on_stop(self) -> None:
        self._cancel_all_timers()
        if self.status == "playing":
            await self._snapshot()
        elif self._snapshot_writer is not None:
            await self._snapshot_writer

    async def _on_act(self, user_id: int, action: Action, seat: int | None) -> int:
        own_seat = self.seat_of(user_id)
        if own_seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        if seat is not None and seat != own_seat:
            raise TableError("not_your_seat", f"you sit in seat {own_seat}, not seat {seat}")
        if self.status != "playing":
            raise IllegalAction("game_over", "this game is over")
        type(self.game).check_action(action)  # the shape first: unknown fields or types never reach the engine
        self._apply(own_seat, action, by_bot=False)
        # A person acting is present: their seat is no longer covered by a bot.
        if self.seats[own_seat].away:
            self._set_away(own_seat, False)
        return self.version

    async def _on_connect(self, subscriber: Subscriber, user_id: int | None, since: int | None) -> int | None:
        seat = self.seat_of(user_id) if user_id is not None else None
        self._connections = [c for c in self._connections if c.subscriber is not subscriber]
        self._connections.append(_Connection(subscriber, seat))
        self._flush()  # anything pending goes out first, so the catch-up below is the newest state
        self._send_catch_up(subscriber, seat, since)
        if seat is not None:
            timer = self._grace_timers.pop(seat, None)
            if timer:
                timer.cancel()
            if self.seats[seat].away:
                self._set_away(seat, False)
            else:
                self._broadcast_table_event("seat_connected", {"seat": seat})
        return seat

    async def _on_disconnect(self, subscriber: Subscriber) -> None:
        gone = [c for c in self._connections if c.subscriber is subscriber]
        self._connections = [c for c in self._connections if c.subscriber is not subscriber]
        for connection in gone:
            seat = connection.seat
            if seat is None or any(c.seat == seat for c in self._connections):
                continue  # another device still holds the seat
            if self.status == "playing" and seat not in self._grace_timers:
                self._grace_timers[seat] = self._later(
                    self.timing.grace_seconds, _Request("grace_over", {"seat": seat})
                )
            self._broadcast_table_event("seat_disconnected", {"seat": seat})

    async def _on_grace_over(self, seat: int) -> None:
        self._grace_timers.pop(seat, None)
        if self.status == "playing" and not any(c.seat == seat for c in self._connections):
            self._set_away(seat, True)

    async def _on_turn_timeout(self, seat: int, started: float) -> None:
        timer = self._turn_timers.get(seat)
        if timer is None or timer[1] != started or self.status != "playing":
            return  # stale: the seat acted or the turn moved on
        del self._turn_timers[seat]
        # The bot finishes what the seat owes right now (a Pika draw then play-or-keep, a Piker securing of several
        # cards), not just one step, so a player who is away does not cost everyone a full timer per step.
        for _ in range(MAX_TIMEOUT_MOVES):
            if self.status != "playing" or seat not in self.game.acting_seats():
                break
            await self._bot_move(seat, optional=False)

    async def _on_bot_move(self, seat: int, optional: bool) -> None:
        self._bot_moves.pop(seat, None)
        if self.status != "playing":
            return
        if not optional and seat not in self.game.acting_seats():
            return
        if not self._bot_plays(seat):
            return
        await self._bot_move(seat, optional=optional)

    async def _on_deadline(self, key: str, action: Action) -> None:
        self._deadlines.pop(key, None)
        if self.status != "playing" or key not in {d.key for d in self.game.deadlines()}:
            return
        self._apply(None, action, by_bot=False)

    # --------------------------------------------------------------------------------------------- the game

    def _bot_plays(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.is_bot or s.away

    def _bot_for(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        level = self.seats[seat].bot_level
        if bot is None or bot.level != level:
            bot_cls = type(self.game).bots.get(level) or next(iter(type(self.game).bots.values()))
            bot = bot_cls(seat, random.Random(self._bot_rng.random()))
            self._bots[seat] = bot
        return bot

    async def _bot_move(self, seat: int, *, optional: bool) -> None:
        bot = self._bot_for(seat)
        legal = self.game.legal_actions(seat)
        if not legal:
            return
        view = self.game.view(seat) if bot.needs_view else None
        # Searching bots take real CPU: think in a thread so sockets keep flowing meanwhile.
        action = await asyncio.to_thread(bot.choose, view, legal)
        if self.status != "playing":
            return
        if action is None:
            if not optional:
                log.error("bot %s passed on a required move at table %s", bot.level, self.id)
                action = legal[0]
            else:
                return
        try:
            self._apply(seat, action, by_bot=True)
        except IllegalAction:
            log.exception("bot %s chose an illegal move at table %s; playing the first legal one", bot.level, self.id)
            self._apply(seat, legal[0], by_bot=True)

    def _apply(self, seat: int | None, action: Action, *, by_bot: bool) -> None:
        # A decision is a listed move by a seat the game waits on; housekeeping (reordering a hand) is not a turn
        # and must not reset the turn timer.
        decision = (
            seat is not None
            and seat in self.game.acting_seats()
            and action.get("type") in {legal["type"] for legal in self.game.legal_actions(seat)}
        )
        events = self.game.apply(seat, action)
        self.action_log.append([seat, action])
        if decision:
            if not self.seats[seat].is_bot:
                if by_bot:
                    self.seats[seat].covered_turns += 1
                else:
                    self.seats[seat].human_turns += 1
            timer = self._turn_timers.pop(seat, None)
            if timer:
                timer[0].cancel()
        self._dirty = True
        self._broadcast(events)

    async def _after_change(self) -> None:
        if self.status == "playing" and self.game.is_over:
            await self._finish()
            return
        if self.status != "playing":
            self._flush()
            return
        self._schedule()
        self._flush()
        now = time.monotonic()
        if self._dirty and now - self._last_snapshot >= self.timing.snapshot_seconds:
            self._snapshot_soon()

    def _snapshot_soon(self) -> None:
        """A periodic snapshot, written beside the actor so play never waits on the database; one at a time."""
        self._last_snapshot = time.monotonic()
        self._dirty = False
        if self._snapshot_writer is not None and not self._snapshot_writer.done():
            self._snapshot_again = True
            return

        async def write() -> None:
            while True:
                self._snapshot_again = False
                await self._snapshot_now()
                if not self._snapshot_again:
                    return

        self._snapshot_writer = asyncio.get_running_loop().create_task(write(), name=f"snapshot:{self.id}")

    async def _snapshot(self) -> None:
        """A snapshot at a status change: after any periodic one in flight, so the newest state is written last."""
        if self._snapshot_writer is not None:
            await self._snapshot_writer
            self._snapshot_writer = None
        self._last_snapshot = time.monotonic()
        self._dirty = False
        await self._snapshot_now()

    async def _snapshot_now(self) -> None:
        try:
            await self.hooks.snapshot(self)
        except Exception:
            log.exception("snapshot of table %s failed", self.id)

    async def _finish(self) -> None:
        self._cancel_all_timers()
        if self._snapshot_writer is not None:
            await self._snapshot_writer  # an older snapshot must not land after the record marks the table finished
            self._snapshot_writer = None
        self.status = "finished"
        try:
            self.rewards = await self.hooks.finish(self)
        except Exception:
            # The record and payouts are idempotent, so trying again later cannot pay twice.
            log.exception("finishing table %s failed; retrying shortly", self.id)
            self.status = "playing"
            self._later(5.0, _Request("schedule", {}))
            self._flush()
            return
        self._broadcast_table_event(
            "game_over",
            {
                "outcome": self.game.outcome().as_dict(),
                "rewards": {str(k): v for k, v in self.rewards.items()},
            },
        )
        self._flush()
        await self._snapshot()
        self.finished.set()

    def _schedule(self) -> None:
        """Make sure every seat the game waits on will be played: by its person (with a turn timer) or a bot."""
        loop_now = time.monotonic()
        acting = set(self.game.acting_seats())
        for seat in list(self._turn_timers):
            if seat not in acting or self._bot_plays(seat):
                self._turn_timers.pop(seat)[0].cancel()
        for seat in list(self._bot_moves):
            if seat not in acting and seat not in {d.seat for d in self.game.deadlines()}:
                self._bot_moves.pop(seat).cancel()
        for seat in sorted(acting):
            if self._bot_plays(seat):
                if seat not in self._bot_moves:
                    self._bot_moves[seat] = self._later(self._bot_delay(), _Request("bot_move", {"seat": seat, "optional": False}))
            elif seat not in self._turn_timers and self.timing.turn_seconds > 0:
                handle = self._later(self.timing.turn_seconds, _Request("turn_timeout", {"seat": seat, "started": loop_now}))
                self._turn_timers[seat] = (handle, loop_now)
        current = {d.key: d for d in self.game.deadlines()}
        for key in list(self._deadlines):
            if key not in current:
                self._deadlines.pop(key)[0].cancel()
        for key, deadline in current.items():
            if key not in self._deadlines:
                handle = self._later(deadline.seconds, _Request("deadline", {"key": key, "action": deadline.action}))
                self._deadlines[key] = (handle, loop_now + deadline.seconds)
            if (
                deadline.seat is not None
                and key not in self._offered_deadlines
                and self._bot_plays(deadline.seat)
                and deadline.seat not in self._bot_moves
            ):
                self._offered_deadlines.add(key)
                self._bot_moves[deadline.seat] = self._later(
                    min(self._bot_delay(), deadline.seconds / 2),
                    _Request("bot_move", {"seat": deadline.seat, "optional": True}),
                )

    def _bot_delay(self) -> float:
        low, high = self.timing.bot_delay_seconds
        return low if high <= low else self._bot_rng.uniform(low, high)

    def _later(self, seconds: float, request: _Request) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(max(0.0, seconds), self._post, request)

    def _cancel_all_timers(self) -> None:
        for handle, _ in self._turn_timers.values():
            handle.cancel()
        for handle in self._bot_moves.values():
            handle.cancel()
        for handle, _ in self._deadlines.values():
            handle.cancel()
        for handle in self._grace_timers.values():
            handle.cancel()
        self._turn_timers.clear()
        self._bot_moves.clear()
        self._deadlines.clear()
        self._grace_timers.clear()

    def _set_away(self, seat: int, away: bool) -> None:
        self.seats[seat].away = away
        self._dirty = True
        self._broadcast_table_event("seat_away" if away else "seat_back", {"seat": seat})

    def _clock_view(self) -> dict[str, Any]:
        """Timers as wall-clock times a client can count down to."""
        loop_now = time.monotonic()
        wall_now = self._wall_clock()
        turns = {}
        for seat, (_, started) in self._turn_timers.items():
            turns[str(seat)] = round(wall_now + started + self.timing.turn_seconds - loop_now, 3)
        deadlines = []
        for deadline in self.game.deadlines():
            entry = self._deadlines.get(deadline.key)
            if entry:
                deadlines.append(
                    {"key": deadline.key, "seat": deadline.seat, "ends_at": round(wall_now + entry[1] - loop_now, 3)}
                )
        return {"now": round(wall_now, 3), "turn_ends_at": turns, "deadlines": deadlines,
                "turn_seconds": self.timing.turn_seconds}

    # ------------------------------------------------------------------------------------------ broadcasting

    def _broadcast(self, events: list[Event]) -> None:
        """Number the events; they go out at the next flush, once timers are rescheduled."""
        for event in events:
            self.version += 1
            self._events.append((self.version, event))
            if self._unsent_from is None:
                self._unsent_from = self.version

    def _broadcast_table_event(self, kind: str, data: dict[str, Any]) -> None:
        self._broadcast([Event(kind, data)])

    def _flush(self) -> None:
        """Queue one message per connection: its seat's new events, its view, its legal moves."""
        if self._unsent_from is None:
            return
        first, self._unsent_from = self._unsent_from, None
        pending = [(v, e) for v, e in self._events if v >= first]
        for connection in list(self._connections):
            connection.subscriber.deliver(self._update_message(connection.seat, pending))

    def _update_message(self, seat: int | None, events: list[tuple[int, Event]]) -> dict[str, Any]:
        return {
            "type": "update",
            "table": self.id,
            "version": self.version,
            "events": [{"version": v, **event.for_seat(seat)} for v, event in events],
            "view": self.game.view(seat),
            "legal": self.game.legal_actions(seat) if seat is not None and self.status == "playing" else [],
            "table_info": self.describe(seat),
        }

    def _send_catch_up(self, subscriber: Subscriber, seat: int | None, since: int | None) -> None:
        oldest = self._events[0][0] if self._events else self.version + 1
        if since is not None and since <= self.version and since + 1 >= oldest:
            missed = [(v, e) for v, e in self._events if v > since]
            message = self._update_message(seat, missed)
            message["type"] = "catch_up"
            message["since"] = since
        else:
            message = self._update_message(seat, [])
            message["type"] = "sync"
        subscriber.deliver(message)


HookFactory = Callable[[TableActor], Awaitable[None]]
