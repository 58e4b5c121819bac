"""One live table: an asyncio actor that owns one game engine (design.md, "A table is an actor").

Everything that changes the table goes through the actor's inbox and is handled strictly in order: human actions,
bot moves, turn-timer and deadline expiries, connects and disconnects. The actor takes what is waiting in its inbox
as one batch and, for the batch:

1. applies each request to the game; every accepted action (and every table notice: a seat connected, went away)
   becomes an entry of the table's action log, and its events get versions, one per event;
2. appends the new entries to the log in the database (TableHooks.append, group-committed with the other tables of
   this node) before anyone hears of them (design.md, "Tables survive crashes"): a crash then loses nothing a
   player saw, and a resumed table replays the log through the deterministic engine, so no card or die already
   drawn is ever drawn again;
3. sends every listener its news as small patches (app/tables/patch.py): the events (with this seat's private
   parts), the change of the public view (the same for everyone, encoded once) and of the seat's private part, each
   against what the events already tell a client (app/games/wire.py), its legal moves only when they changed, the
   turn timers only when they changed, the table's info only when it changed. A full view only on join;
4. answers the requests, and once the game is over, settles it (after its last move has gone out).

Time comes from the table's TimerClock (app/core/clock.py): its turn timers, deadlines, bot delays, grace times and
retries are scheduled there, so tests run them on a ManualClock they advance.

Writes are fenced by the table's owner epoch (app/tables/store.py). An append refused because another node adopted
the table stops this actor at once (its listeners are told `table_moved`). A write that keeps failing is retried a
bounded number of times; then a finished game's settlement or the table's cancellation with every stake refunded
is tried, and failing that, the table is marked failed, so nothing waits for ever.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Protocol

from app import metrics
from app.core import strict_json
from app.core.clock import SystemClock, Timer, TimerClock
from app.games.base import Action, Bot, Event, Game, IllegalAction, Refusal
from app.games.rng import HashRandom
from app.games.wire import wire_for
from app.tables.patch import diff
from app.tables.store import Fenced, Snapshot, json_copy
from app.tables.thinking import THINKING

log = logging.getLogger(__name__)

EVENT_BUFFER = 256  # events kept for reconnecting clients; an older gap gets a full view instead
HISTORY_EVENTS = 5000  # a seat's history (the game's log) holds at most this many, the newest: a whole game
MAX_TIMEOUT_MOVES = 50  # a guard: moves a bot makes for a timed-out seat before the timer starts again
MAX_BATCH = 64  # requests handled between two log appends
SNAPSHOT_EVERY_ENTRIES = 100  # a snapshot at least every this many log entries (and every snapshot_seconds)
# A failing write is tried again after these pauses (about 30 s in all), then the table is given up.
RETRY_DELAYS = (0.1, 0.3, 1.0, 2.0, 4.0, 8.0, 15.0)
FAILED_RETRY_SECONDS = 30.0  # a table that could not even be cancelled tries again this often

# Who made a log entry: a person, the bot playing for a person whose turn ran out or who is away, a bot's own
# seat, the table (a deadline), or a table notice (not a move).
SOURCES = ("player", "timeout", "away", "bot", "table", "notice")
NOTICES = ("seat_connected", "seat_disconnected", "seat_away", "seat_back")
# A seat's connected/disconnected notices logged per minute at most: each is a log entry and an update to everyone,
# so a socket joining and leaving in a loop must not flood the table's log and its players (the seat's `connected`
# in the table info still follows every change; seat_away and seat_back, which change the seat, are always logged).
PRESENCE_NOTICES_PER_MINUTE = 6
# Table-level actions a person takes (source "player"): logged like moves, but the table handles them, not the game.
RESIGN = {"type": "resign"}
PLAYED_FOR = ("timeout", "away")  # sources of the moves a bot made for a person (platform.md: covered turns)
# The events of a move no person chose say why (`auto`): the turn timer ran out, a bot covers a seat whose person is
# away or left, or the table applied it by itself (a deadline: pika.md, the penalty for a Pika not called in time).
AUTO = {"timeout": "timeout", "away": "covering_bot", "table": "automatic"}


class Listener(Protocol):
    """A socket (or test double) following a table. `send_text` must not block: it queues the message."""

    def send_text(self, text: str) -> None: ...


@dataclass
class Seat:
    kind: str  # "human" or "bot"
    name: str
    user_id: int | None = None
    bot_level: str = "medium"  # the level that plays a bot seat, or a human seat when it times out or is away
    away: bool = False  # a human whose seat a bot covers (disconnected past the grace time)
    human_turns: int = 0  # decisions the person made
    covered_turns: int = 0  # decisions a bot made for this human (time-outs and away)
    resigned: bool = False  # the person left the game for good: a bot plays the seat to the end
    rating: dict[str, Any] | None = None  # a rated table: the seat's rating as it sat down (app/ratings/)


    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def left(self) -> bool:
        """platform.md: a seat played by a bot for more than half of the player's turns counts as having left; so
        does a person who resigned (they chose to leave: a bot plays the rest)."""
        total = self.human_turns + self.covered_turns
        return self.kind == "human" and (self.resigned or (total > 0 and self.covered_turns * 2 > total))


@dataclass
class TableTiming:
    turn_seconds: float = 30.0
    grace_seconds: float = 15.0
    bot_delay_seconds: tuple[float, float] = (0.6, 1.4)  # bots "think" for a human-like moment
    snapshot_seconds: float = 30.0
    linger_seconds: float = 300.0  # a finished table stays reachable for its results
    practice_idle_seconds: float = 0.0  # a vs-bots table with no person connected this long ends (0: never)


class LogEntry:
    """One entry of the action log: `action` by `seat` (or a notice), who made it, the version after its events."""

    __slots__ = ("seat", "action", "source", "version")

    def __init__(self, seat: int | None, action: Action, source: str, version: int = 0):
        self.seat = seat
        self.action = action
        self.source = source
        self.version = version

    def __repr__(self) -> str:
        return f"LogEntry({self.seat!r}, {self.action!r}, {self.source!r}, {self.version})"


class Answer:
    """A socket's `act` request, answered inside the update its own move sends that socket: the update carries the
    request's `id` and stands for its `ack` (docs/protocol.md), one frame fewer per move. `carried` says whether it
    did; if not (the socket follows no seat here, or the move sent it nothing), the caller sends the ack."""

    __slots__ = ("listener", "request_id", "carried")

    def __init__(self, listener: Listener, request_id: Any):
        self.listener = listener
        self.request_id = request_id
        self.carried = False


class TableHooks(Protocol):
    async def append(self, table: TableActor, entries: list[LogEntry], first_seq: int) -> None: ...

    async def snapshot(self, table: TableActor, snapshot: Snapshot) -> None: ...

    async def finish(self, table: TableActor) -> dict[int, dict[str, Any]]:
        """Store the record and pay rewards, exactly once. Returns each seat's rewards (coins, xp, ...)."""
        ...

    async def abandon(self, table: TableActor, reason: str) -> int: ...


class NoHooks:
    """Storage that keeps nothing (tests of the actor alone)."""

    async def append(self, table: TableActor, entries: list[LogEntry], first_seq: int) -> None:
        return None

    async def snapshot(self, table: TableActor, snapshot: Snapshot) -> None:
        return None

    async def finish(self, table: TableActor) -> dict[int, dict[str, Any]]:
        return {}

    async def abandon(self, table: TableActor, reason: str) -> int:
        return 0


class TableError(Refusal):
    """A request the table refuses (not seated, closed, moved)."""


@dataclass
class _Request:
    kind: str
    args: dict[str, Any]
    reply: asyncio.Future | None = None


@dataclass
class _Connection:
    listener: Listener
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
        meta: dict[str, Any] | None = None,
        epoch: int = 1,
        version: int = 0,
        clock: TimerClock | None = None,
    ):
        if len(seats) != game.seat_count:
            raise ValueError("one Seat per game seat")
        self.id = table_id
        self.game = game
        self.game_name = type(game).name
        self.seats = seats
        self.mode = mode
        self.timing = timing or TableTiming()
        self.hooks = hooks or NoHooks()
        self.seed_hex = seed_hex
        self.options = options or {}
        self.meta = meta or {}
        self.epoch = epoch  # the owner epoch every write of this table is fenced on
        self.version = version
        self.entries: list[LogEntry] = []  # the whole action log, durable or about to be
        self.status = "playing"  # "playing", "finished", "cancelled", "lost" (adopted elsewhere), "failed"
        self.rewards: dict[int, dict[str, Any]] = {}
        self._durable = 0  # entries known to be in the database
        self._decided: int | None = None  # the seat whose decision the entry just run was (timers stop)
        self._clock = clock or SystemClock()
        # Turn timers go out as tenths of a second after this wall-clock second (a few digits, not a whole time).
        self._clock_base = int(self._clock.time())
        self._wire = wire_for(self.game_name)
        self._events: deque[tuple[int, Event]] = deque(maxlen=EVENT_BUFFER)
        # Every event up to _history_version (the newest HISTORY_EVENTS), built when a seat first asks for the
        # history and brought up to date from _events at the next ask: nothing on the path of a move.
        self._history: deque[Event] = deque(maxlen=HISTORY_EVENTS)
        self._history_version = 0
        self._unsent: list[Event] = []  # numbered events not yet sent (their versions end at self.version)
        self._answers: dict[int, Answer] = {}  # id(listener) -> the move of this batch its next update answers
        self._info_changed = False
        # Only a turn timer started or stopped (most moves): the update sends `turns`, without rebuilding the info.
        self._turns_changed = False
        self._inbox: asyncio.Queue[_Request] = asyncio.Queue()
        self._connections: list[_Connection] = []
        self._bots: dict[int, Bot] = {}
        self._bot_rng = random.Random()
        self._presence_notices: dict[int, deque[float]] = {}  # seat -> when its recent presence notices were logged
        self._turn_timers: dict[int, tuple[Timer, float]] = {}  # (timer, when it started: the clock's monotonic)
        self._bot_moves: dict[int, Timer] = {}
        self._deadlines: dict[str, tuple[Timer, float]] = {}  # (timer, when it ends: the clock's monotonic)
        self._offered_deadlines: set[str] = set()
        self._grace_timers: dict[int, Timer] = {}
        self._idle_timer: Timer | None = None  # a practice table nobody follows (practice_idle_seconds)
        self._ending: tuple[str, str] | None = None  # (code, reason): end the table after this batch is saved
        self._task: asyncio.Task | None = None
        self._snapshot_seq = 0  # entries the newest snapshot includes
        self._last_snapshot = self._clock.monotonic()
        self._snapshot_writer: asyncio.Task | None = None
        # What each listener was last sent, so a change goes out as patches (one baseline per seat: every socket of
        # a seat gets the same messages). None: nobody listens, nothing to keep.
        self._sent_public: dict[str, Any] | None = None
        self._sent_info: dict[str, Any] | None = None
        self._sent_turns: dict[str, int] | None = None
        self._sent_private: dict[int, dict[str, Any]] = {}
        self._sent_legal: dict[int, list[Action]] = {}
        self.node_name = ""  # the name of the node playing it (clients pass it to the load balancer as a hint)
        self.sign_seat: Callable[[TableActor, int], str] | None = None  # a seat token for a seat (tokens.py)
        self.max_spectators: int | None = None  # spectator listeners accepted at once (None: no limit)
        self.finished = asyncio.Event()  # settled or cancelled: the table is over
        self.ended = asyncio.Event()  # the actor stopped running this table (over, lost, failed, stopped)

    # ----------------------------------------------------------------------------------------------- life cycle

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table:{self.id}")
            self._post(_Request("boot", {}))

    async def stop(self) -> None:
        """Stop the actor (server shutdown or hand-off): timers cancelled, a last snapshot taken while playing."""
        if self._task is None:
            return
        if self.running:
            reply = asyncio.get_running_loop().create_future()
            self._post(_Request("stop", {}, reply))
            try:
                await reply
            except (TableError, Fenced):
                pass
        await asyncio.gather(self._task, return_exceptions=True)
        self._task = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def action_log(self) -> list[list[Any]]:
        """The moves as a finished game's record keeps them: [seat, action], notices left out."""
        return [[entry.seat, entry.action] for entry in self.entries
                if entry.source != "notice" and not _table_action(entry)]

    # ------------------------------------------------------------------------------------------- public inputs

    async def act(self, user_id: int, action: Action, seat: int | None = None, *, answer: Answer | None = None
                  ) -> int:
        """A person's move. Returns the table version after it; raises TableError or IllegalAction. With `answer`,
        the socket that asked gets the answer inside its update when it can (Answer.carried)."""
        return await self._ask("act", user_id=user_id, action=action, seat=seat, answer=answer)

    async def resign(self, user_id: int) -> int:
        """A person leaves the game for good (platform.md, leaving): a practice table ends at once; elsewhere a bot
        plays the seat to the end and the seat counts as having left. Returns the version after it."""
        return await self._ask("resign", user_id=user_id)

    async def cover(self, user_id: int) -> None:
        """A person who may not come back (banned): their sockets stop following the table and a bot covers the seat
        now, as after the grace time of a disconnect (platform.md, "Leaving": the leaver rule then applies)."""
        await self._ask("cover", user_id=user_id)

    async def void(self, reason: str) -> int:
        """An operator ends the table (`tablestakes void`): cancelled, every stake refunded, after this batch."""
        return await self._ask("void", reason=reason)

    async def connect(self, listener: Listener, user_id: int | None, since: int | None,
                      history: bool = False) -> int | None:
        """Follow the table; the listener gets what it missed since `since` (with `history`, when that is not
        known, every event so far). Returns the seat (None: spectator)."""
        return await self._ask("connect", listener=listener, user_id=user_id, since=since, history=history)

    async def disconnect(self, listener: Listener) -> None:
        await self._ask("disconnect", listener=listener)

    async def history(self, user_id: int | None) -> tuple[int, list[dict[str, Any]]]:
        """Every event so far (the newest HISTORY_EVENTS) as `user_id`'s seat (or a spectator) may see them:
        (version, events), the events being the versions version - len(events) + 1 .. version."""
        return await self._ask("history", user_id=user_id)

    def seat_of(self, user_id: int | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id is not None and seat.user_id == user_id:
                return index
        return None

    def describe(self, *, turn_ends_at: bool = True) -> dict[str, Any]:
        """The table around the game, the same for every listener: seats, mode, status, clocks, the end (the turn
        timers' ends left out with `turn_ends_at=False`: updates send them apart)."""
        connected = {c.seat for c in self._connections if c.seat is not None}
        over = self.game.outcome()
        return {
            "id": self.id,
            "game": self.game_name,
            "mode": self.mode,
            "status": self.status,
            "seats": [
                {
                    "seat": index,
                    "name": s.name,
                    "kind": s.kind,
                    "bot_level": s.bot_level if s.is_bot else None,
                    "connected": s.is_bot or index in connected,
                    "away": s.away,
                    "rating": s.rating,
                }
                for index, s in enumerate(self.seats)
            ],
            "clock": self._clock_view(turn_ends_at),
            "rewards": {str(k): v for k, v in self.rewards.items()} if self.status == "finished" else None,
            "outcome": over.as_dict() if over is not None else None,
            "stake": self.meta.get("stake"),
            # A staked table forms only when every seat has staked: the pot is every stake (platform.md).
            "pot": self.meta["stake"] * len(self.seats) if self.meta.get("stake") else None,
            "resigned": [index for index, s in enumerate(self.seats) if s.resigned],
            "spectators": self.spectators,
        }

    @property
    def spectators(self) -> int:
        """Listeners that follow the table without a seat (they are sent the spectator view only)."""
        return sum(1 for c in self._connections if c.seat is None)

    def spectator_listeners(self) -> list[Listener]:
        """The listeners that follow the table without a seat."""
        return [c.listener for c in self._connections if c.seat is None]

    def snapshot_data(self) -> dict[str, Any]:
        """What a restart needs besides the game's own state (the log after the snapshot is replayed)."""
        return {
            "seats": [asdict(seat) for seat in self.seats],
            "mode": self.mode,
            "options": self.options,
            "timing": {**asdict(self.timing), "bot_delay_seconds": list(self.timing.bot_delay_seconds)},
            "version": self.version,
            "meta": self.meta,
        }

    def take_snapshot(self) -> Snapshot:
        """The table now, copied (the game plays on while it is written). Only ever taken with nothing unsaved."""
        return Snapshot(seq=len(self.entries), version=self.version, state=json_copy(self.game.to_state()),
                        data=json_copy(self.snapshot_data()))

    # ------------------------------------------------------------------------------------------- resuming

    def replay(self, entries: list[LogEntry], *, applied: int = 0) -> None:
        """Take the log as this table's own, all of it already durable, and run the entries after the first
        `applied` (which the game's state already includes: a snapshot's) through the game, so that the game, the
        seats, the version and the recent events are exactly what they were when the last entry was written."""
        for entry in entries[applied:]:
            events = self._run_entry(entry)
            self._number(events)
            if entry.version and entry.version != self.version:
                log.error("table %s: replaying entry %s gave version %s, the log says %s", self.id,
                          len(self.entries) + 1, self.version, entry.version)
                self.version = entry.version
            entry.version = self.version
            self.entries.append(entry)
        self.entries[:0] = entries[:applied]
        self._durable = len(self.entries)
        self._snapshot_seq = applied
        self._unsent.clear()

    # ---------------------------------------------------------------------------------------------- the loop

    def _post(self, request: _Request) -> None:
        self._inbox.put_nowait(request)

    async def _ask(self, kind: str, **args: Any) -> Any:
        if not self.running:
            raise TableError("table_closed", "this table is not running")
        reply = asyncio.get_running_loop().create_future()
        self._post(_Request(kind, args, reply))
        return await reply

    async def _run(self) -> None:
        try:
            while True:
                batch = [await self._inbox.get()]
                while len(batch) < MAX_BATCH and not self._inbox.empty():
                    batch.append(self._inbox.get_nowait())
                answers: list[tuple[_Request, Any, BaseException | None]] = []
                stopping = False
                for request in batch:
                    if stopping or self.status in ("lost", "failed") and request.kind not in ("stop", "retry"):
                        answers.append((request, None, self._closed_error()))
                        continue
                    try:
                        answers.append((request, await self._handle(request), None))
                        if self.status == "playing" and not self.game.is_over:
                            self._schedule()  # timers follow each change (a joining listener sees them)
                    except Refusal as refused:
                        answers.append((request, None, refused))
                    except Exception as error:  # a bug must not kill the table silently
                        log.exception("table %s failed handling %s", self.id, request.kind)
                        answers.append((request, None, error))
                    stopping = stopping or request.kind == "stop"
                committed = await self._commit()
                self._answers.clear()  # those not carried (nothing was sent to their socket) get an ack of their own
                for request, result, error in answers:
                    if not committed and error is None and request.kind in ("act", "connect", "history"):
                        error = self._closed_error()
                    _answer(request, result, error)
                if stopping or self.status == "lost":
                    return
        finally:
            self._cancel_all_timers()
            self.ended.set()
            while not self._inbox.empty():
                _answer(self._inbox.get_nowait(), None, self._closed_error())

    def _closed_error(self) -> TableError:
        if self.status == "lost":
            return TableError("table_moved", "this table moved to another server: join it again")
        return TableError("table_closed", "this table is not running")

    async def _handle(self, request: _Request) -> Any:
        return await self.HANDLERS[request.kind](self, **request.args)

    async def _commit(self) -> bool:
        """After a batch: make its log entries durable, then tell the listeners, schedule what comes next, and
        settle a game that just ended. False if the entries could not be saved (the table is then given up)."""
        if self._durable < len(self.entries):
            if not await self._persist():
                return False
        self._flush()
        self._maybe_snapshot()
        if self.status == "playing" and self.game.is_over:
            await self._finish()
        elif self.status == "playing" and (self._ending is not None or self._practice_over()):
            code, reason = self._ending or ("resigned", "you left this practice game")
            self._ending = None
            await self._cancel(reason, code=code)
        return True

    def _practice_over(self) -> bool:
        """platform.md: practice has nothing to win or lose, so once its person resigned there is nothing to play."""
        humans = [seat for seat in self.seats if seat.kind == "human"]
        return self.mode == "bots" and bool(humans) and all(seat.resigned for seat in humans)

    async def _persist(self) -> bool:
        entries = self.entries[self._durable:]
        first = self._durable + 1
        for delay in (0.0, *RETRY_DELAYS):
            if delay:
                await self._clock.sleep(delay)
            try:
                await self.hooks.append(self, entries, first)
            except Fenced:
                self._lose()
                return False
            except Exception:
                log.warning("table %s: saving %s log entries failed", self.id, len(entries), exc_info=True,
                            extra={"table": self.id})
                metrics.FAILED_WRITES["append"].inc()
                continue
            self._durable = len(self.entries)
            return True
        await self._give_up("its moves could not be saved")
        return False

    # ---------------------------------------------------------------------------------------------- handlers

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
        self._watch_idle()

    def _watch_idle(self) -> None:
        """A practice table that no person follows ends after practice_idle_seconds (abandoned games do not pile
        up under "Games in progress"); anyone of its people connecting stops the count."""
        if self.mode != "bots" or self.timing.practice_idle_seconds <= 0 or self.status != "playing":
            return
        followed = any(c.seat is not None and self.seats[c.seat].kind == "human" for c in self._connections)
        if followed:
            if self._idle_timer is not None:
                self._idle_timer.cancel()
                self._idle_timer = None
        elif self._idle_timer is None:
            self._idle_timer = self._later(self.timing.practice_idle_seconds, _Request("idle_over", {}))

    async def _on_idle_over(self) -> None:
        self._idle_timer = None
        if self.status == "playing" and self._ending is None:
            self._ending = ("idle", "nobody played it for a while")
            self._watch_idle()  # a person who connected meanwhile restarts nothing: the table ends

    async def _on_stop(self) -> None:
        self._cancel_all_timers()
        if self._snapshot_writer is not None:
            await asyncio.gather(self._snapshot_writer, return_exceptions=True)
        if self.status == "playing" and self._durable == len(self.entries) and self._snapshot_seq < self._durable:
            await self._write_snapshot(self.take_snapshot())

    async def _on_retry(self) -> None:
        """A table whose cancellation failed tries it again (see _give_up)."""
        if self.status == "failed":
            await self._cancel("it could not be saved")

    async def _on_act(self, user_id: int, action: Action, seat: int | None, answer: Answer | None = None) -> int:
        own_seat = self.seat_of(user_id)
        if own_seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        if seat is not None and seat != own_seat:
            raise TableError("not_your_seat", f"you sit in seat {own_seat}, not seat {seat}")
        if self.status != "playing":
            raise IllegalAction("game_over", "this game is over")
        if self.seats[own_seat].resigned:
            raise TableError("resigned", "you left this game; a bot plays your seat to the end")
        if isinstance(action, dict) and action.get("type") == RESIGN["type"]:
            # A resignation is the table's (the resign request), logged as {"type": "resign"}: never a move.
            raise IllegalAction("bad_action", "to leave the game, resign; it is not a move")
        # The shape first (the engine checks it again in apply): unknown fields or types never reach the log.
        type(self.game).check_action(action)
        self._apply(own_seat, action, "player")
        if answer is not None:
            self._answers.setdefault(id(answer.listener), answer)  # a second move of the socket gets its own ack
        # A person acting is present: their seat is no longer covered by a bot.
        if self.seats[own_seat].away:
            self._notice("seat_back", own_seat)
        return self.version

    async def _on_resign(self, user_id: int) -> int:
        own_seat = self.seat_of(user_id)
        if own_seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        if self.status != "playing" or self.game.is_over or self._ending is not None:
            raise TableError("game_over", "this game is over: there is nothing to leave")
        if self.seats[own_seat].resigned:
            raise TableError("already_resigned", "you already left this game")
        timer = self._grace_timers.pop(own_seat, None)
        if timer:
            timer.cancel()
        self._apply(own_seat, dict(RESIGN), "player")
        self._info_changed = True
        self._last_snapshot = 0.0  # a snapshot right after: "Games in progress" elsewhere reads the seat from it
        return self.version

    async def _on_connect(self, listener: Listener, user_id: int | None, since: int | None,
                          history: bool = False) -> int | None:
        seat = self.seat_of(user_id) if user_id is not None else None
        self._connections = [c for c in self._connections if c.listener is not listener]
        if seat is None and self.max_spectators is not None and self.spectators >= self.max_spectators:
            raise TableError("too_many_spectators", f"This table has {self.spectators} spectators already, the "
                                                    "most it takes; try again later.")
        # Moves earlier in this batch are not saved yet: nobody may see them (in the full state either) until they
        # are, so they are saved first.
        if self._durable < len(self.entries) and not await self._persist():
            raise self._closed_error()
        joining = _Connection(listener, seat)
        self._connections.append(joining)
        # The others are sent everything up to now (this connection counted as connected), so every baseline is
        # the current state, which is also what the newcomer is sent in full.
        self._flush(force=True, skip=joining)
        listener.send_text(self._full_message(seat, since, history))
        if seat is not None and self.status == "playing" and not self.seats[seat].resigned:
            timer = self._grace_timers.pop(seat, None)
            if timer:
                timer.cancel()
            if self.seats[seat].away:
                self._notice("seat_back", seat)
            elif not any(c.seat == seat for c in self._connections if c is not joining) and self._presence_ok(seat):
                self._notice("seat_connected", seat)  # (a second device of a connected seat is no news)
            self._info_changed = True  # its `connected`, also when the notice was not logged
        self._watch_idle()
        return seat

    async def _on_disconnect(self, listener: Listener) -> None:
        gone = [c for c in self._connections if c.listener is listener]
        self._connections = [c for c in self._connections if c.listener is not listener]
        self._info_changed = True
        for connection in gone:
            seat = connection.seat
            if seat is None or any(c.seat == seat for c in self._connections):
                continue  # another device still holds the seat
            self._sent_private.pop(seat, None)
            self._sent_legal.pop(seat, None)
            if self.status != "playing" or self.seats[seat].resigned:
                continue
            if seat not in self._grace_timers:
                self._grace_timers[seat] = self._later(
                    self.timing.grace_seconds, _Request("grace_over", {"seat": seat})
                )
            if self._presence_ok(seat):
                self._notice("seat_disconnected", seat)
        if not self._connections:
            self._sent_public = self._sent_info = None
        self._watch_idle()

    def _presence_ok(self, seat: int) -> bool:
        """Whether this seat's connected/disconnected notice may be logged now (PRESENCE_NOTICES_PER_MINUTE)."""
        now = self._clock.monotonic()
        recent = self._presence_notices.setdefault(seat, deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= PRESENCE_NOTICES_PER_MINUTE:
            return False
        recent.append(now)
        return True

    async def _on_cover(self, user_id: int) -> None:
        seat = self.seat_of(user_id)
        if seat is None:
            return
        for connection in [c for c in self._connections if c.seat == seat]:
            await self._on_disconnect(connection.listener)
        await self._on_grace_over(seat)

    async def _on_void(self, reason: str) -> int:
        if self.status != "playing" or self._ending is not None:
            raise TableError("game_over", "this table is not being played")
        self._ending = ("voided", reason)
        return self.version

    async def _on_history(self, user_id: int | None) -> tuple[int, list[dict[str, Any]]]:
        seat = self.seat_of(user_id) if user_id is not None else None
        return self.version, [event.for_seat(seat) for event in self._all_events()]

    def _oldest_kept(self) -> int:
        """The version of the oldest event still kept for catch-ups (one past the current version when none is)."""
        return self._events[0][0] if self._events else self.version + 1

    def _all_events(self) -> deque[Event]:
        """Every event so far (the newest HISTORY_EVENTS), each seat's parts in it: what was kept at the last ask
        and the recent events since, or, when those do not reach back to it (a resumed table, a long while since),
        the whole log replayed from the seed on a scratch table: one game's moves through the engine, giving
        exactly the events the players were sent."""
        oldest = self._oldest_kept()
        if self._history_version + 1 < oldest:
            self._history, self._history_version = self._replayed_events()
        for version, event in self._events:
            if version > self._history_version:
                self._history.append(event)
        self._history_version = self.version
        return self._history

    def _replayed_events(self) -> tuple[deque[Event], int]:
        scratch = TableActor(table_id=self.id, game=type(self.game).create(
            len(self.seats), self.options, HashRandom(bytes.fromhex(self.seed_hex))), mode=self.mode,
            seats=[Seat(s.kind, s.name, s.user_id, s.bot_level) for s in self.seats])
        scratch._events = deque(maxlen=HISTORY_EVENTS)
        try:
            scratch.replay([LogEntry(e.seat, e.action, e.source, e.version) for e in self.entries])
        except IllegalAction:
            # Never expected (the live table got here from the same log); the recent events are then all there
            # is, and the gap before them shows in their versions.
            log.exception("table %s: its log does not replay; the history holds the recent events only", self.id)
            return deque(maxlen=HISTORY_EVENTS), 0
        return deque((event for _, event in scratch._events), maxlen=HISTORY_EVENTS), scratch.version

    async def _on_grace_over(self, seat: int) -> None:
        self._grace_timers.pop(seat, None)
        if (self.status == "playing" and not self.seats[seat].away and not self.seats[seat].resigned
                and not any(c.seat == seat for c in self._connections)):
            self._notice("seat_away", seat)

    async def _on_turn_timeout(self, seat: int, started: float) -> None:
        timer = self._turn_timers.get(seat)
        if timer is None or timer[1] != started or self.status != "playing":
            return  # stale: the seat acted or the turn moved on
        del self._turn_timers[seat]
        # The bot finishes what the seat owes right now (a Pika draw then play-or-keep, a Piker securing of several
        # cards), not just one step, so a player who is away does not cost everyone a full timer per step.
        for _ in range(MAX_TIMEOUT_MOVES):
            if self.status != "playing" or self.game.is_over or seat not in self.game.acting_seats():
                break
            await self._bot_move(seat, optional=False, source="timeout")

    async def _on_bot_move(self, seat: int, optional: bool) -> None:
        self._bot_moves.pop(seat, None)
        if self.status != "playing" or self.game.is_over:
            return
        if not optional and seat not in self.game.acting_seats():
            return
        if not self._bot_plays(seat):
            return
        await self._bot_move(seat, optional=optional, source="bot" if self.seats[seat].is_bot else "away")

    async def _on_deadline(self, key: str, action: Action) -> None:
        self._deadlines.pop(key, None)
        if self.status != "playing" or self.game.is_over or key not in {d.key for d in self.game.deadlines()}:
            return
        self._apply(None, action, "table")

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

    async def _bot_move(self, seat: int, *, optional: bool, source: str) -> None:
        bot = self._bot_for(seat)
        legal = self.game.legal_actions(seat)
        if not legal:
            return
        view = self.game.view(seat) if bot.needs_view else None
        # Searching bots take real CPU: they think in worker processes, so sockets keep flowing (thinking.py).
        action = await THINKING.choose(bot, view, legal)
        if self.status != "playing" or self.game.is_over:
            return
        if action is None:
            if not optional:
                log.error("bot %s passed on a required move at table %s", bot.level, self.id)
                action = legal[0]
            else:
                return
        try:
            self._apply(seat, action, source)
        except IllegalAction:
            log.exception("bot %s chose an illegal move at table %s; playing the first legal one", bot.level, self.id)
            self._apply(seat, legal[0], source)

    def _run_entry(self, entry: LogEntry) -> list[Event]:
        """Apply one log entry to the game and the seats (live or replaying); its events, not yet numbered.
        Raises IllegalAction, changing nothing, if the game refuses the move."""
        seat, action, source = entry.seat, entry.action, entry.source
        if source == "notice":
            kind = action["type"]
            if kind in ("seat_away", "seat_back"):
                self.seats[seat].away = kind == "seat_away"
            return [Event(kind, {"seat": seat})]
        if _table_action(entry):
            # A resignation: a bot covers the seat for good (replayed the same way after a restart).
            self.seats[seat].resigned = True
            self.seats[seat].away = True
            return [Event("seat_resigned", {"seat": seat})]
        self._decided = None
        # A decision is a listed move by a seat the game waits on; housekeeping (reordering a hand) is not a turn,
        # nor is a move that can be undone within the turn (Kapern's chest: `Game.untimed_actions`).
        kind = action.get("type")
        decision = (
            seat is not None
            and not self.seats[seat].is_bot
            and kind not in self.game.untimed_actions
            and seat in self.game.acting_seats()
            and kind in {legal["type"] for legal in self.game.legal_actions(seat)}
        )
        events = self.game.apply(seat, action)
        if decision:
            self._decided = seat
            if source == "player":
                self.seats[seat].human_turns += 1
            elif source in PLAYED_FOR:
                self.seats[seat].covered_turns += 1
        auto = AUTO.get(source)
        if auto is not None:
            # Moves no person chose say so in their events (the log then reads "Time ran out: ...").
            events = [Event(event.type, {**event.public, "auto": auto}, event.private) for event in events]
        return events

    def _apply(self, seat: int | None, action: Action, source: str) -> None:
        entry = LogEntry(seat, action, source)
        self._decided = None
        events = self._run_entry(entry)
        self._number(events)
        entry.version = self.version
        self.entries.append(entry)
        metrics.ACTIONS[self.game_name][source].inc()
        if self._decided is not None:
            # The seat decided: its turn timer stops (the next turn, if it is again this seat's, gets a new one).
            timer = self._turn_timers.pop(self._decided, None)
            if timer:
                timer[0].cancel()
                self._turns_changed = True

    def _notice(self, kind: str, seat: int) -> None:
        """A table notice (a seat connected, left, went away, came back): a log entry of its own, like a move."""
        self._apply(seat, {"type": kind}, "notice")
        self._info_changed = True

    def _number(self, events: list[Event]) -> None:
        for event in events:
            self.version += 1
            self._events.append((self.version, event))
            self._unsent.append(event)

    # ---------------------------------------------------------------------------------------- the end, or not

    async def _finish(self) -> None:
        """The game is over and its last move has gone out: record and pay it (retrying a failing write a few
        times), then tell everyone. A settlement that cannot be saved cancels the table, refunding the stakes."""
        self._cancel_all_timers()
        if self._snapshot_writer is not None:
            await asyncio.gather(self._snapshot_writer, return_exceptions=True)
        for delay in (0.0, *RETRY_DELAYS):
            if delay:
                await self._clock.sleep(delay)
            try:
                self.rewards = await self.hooks.finish(self)
            except Fenced:
                self._lose()
                return
            except Exception:
                log.exception("settling table %s failed", self.id, extra={"table": self.id})
                metrics.FAILED_WRITES["settle"].inc()
                continue
            self.status = "finished"
            self._number([Event("game_over", {"outcome": self.game.outcome().as_dict(),
                                              "rewards": {str(k): v for k, v in self.rewards.items()}})])
            self._info_changed = True
            self._flush()
            self.finished.set()
            return
        await self._cancel("its result could not be saved")

    async def _give_up(self, reason: str) -> None:
        """The log cannot be saved: forget what was not saved (nobody saw it), then cancel the table."""
        self._rewind()
        await self._cancel(reason)

    async def _cancel(self, reason: str, code: str = "failed") -> None:
        self._cancel_all_timers()
        for delay in (0.0, *RETRY_DELAYS):
            if delay:
                await self._clock.sleep(delay)
            try:
                await self.hooks.abandon(self, reason)
            except Fenced:
                self._lose()
                return
            except Exception:
                log.exception("cancelling table %s failed", self.id, extra={"table": self.id})
                metrics.FAILED_WRITES["cancel"].inc()
                continue
            self.status = "cancelled"
            self._number([Event("table_cancelled", {"reason": reason, "code": code})])
            self._info_changed = True
            self._flush()
            self.finished.set()
            return
        log.error("table %s could not be cancelled; trying again in %s s", self.id, FAILED_RETRY_SECONDS,
                  extra={"table": self.id})
        self.status = "failed"
        self._info_changed = True
        self._later(FAILED_RETRY_SECONDS, _Request("retry", {}))

    def _rewind(self) -> None:
        """Back to the last saved entry: the game rebuilt from its seed and the saved log (cheap: one game)."""
        if self._durable == len(self.entries):
            return
        saved = self.entries[: self._durable]
        self.game = type(self.game).create(len(self.seats), self.options, HashRandom(bytes.fromhex(self.seed_hex)))
        for seat in self.seats:
            seat.away, seat.resigned, seat.human_turns, seat.covered_turns = False, False, 0, 0
        self.version = 0
        self.entries = []
        self._events.clear()
        self._history.clear()
        self._history_version = 0
        self.replay(saved)
        self._info_changed = True  # the seats and timers as they were at the last saved entry

    def _lose(self) -> None:
        """Another node adopted this table: stop at once, and tell every listener to join it again."""
        if self.status == "lost":
            return
        log.warning("table %s was adopted by another node; stopping here", self.id, extra={"table": self.id})
        self.status = "lost"
        self._cancel_all_timers()
        message = strict_json.dumps({"type": "error", "code": "table_moved", "table": self.id,
                                     "message": "This table moved to another server; joining it again."})
        for connection in self._connections:
            connection.listener.send_text(message)
        self._connections.clear()

    # ---------------------------------------------------------------------------------------------- snapshots

    def _maybe_snapshot(self) -> None:
        """A periodic snapshot, written beside the actor so play never waits on it; one at a time."""
        if self.status != "playing" or self._durable != len(self.entries):
            return
        behind = len(self.entries) - self._snapshot_seq
        due = self._clock.monotonic() - self._last_snapshot >= self.timing.snapshot_seconds
        if not behind or not (due or behind >= SNAPSHOT_EVERY_ENTRIES):
            return
        if self._snapshot_writer is not None and not self._snapshot_writer.done():
            return  # the next commit takes a newer one
        snapshot = self.take_snapshot()
        self._snapshot_seq = snapshot.seq
        self._last_snapshot = self._clock.monotonic()
        self._snapshot_writer = asyncio.get_running_loop().create_task(self._write_snapshot(snapshot),
                                                                       name=f"snapshot:{self.id}")

    async def _write_snapshot(self, snapshot: Snapshot) -> None:
        try:
            await self.hooks.snapshot(self, snapshot)
            self._snapshot_seq = max(self._snapshot_seq, snapshot.seq)
        except Fenced:
            self._post(_Request("lost", {}))
        except Exception:
            log.warning("snapshot of table %s failed (the log has everything)", self.id, exc_info=True)
            metrics.FAILED_WRITES["snapshot"].inc()

    async def _on_lost(self) -> None:
        self._lose()

    # ------------------------------------------------------------------------------------------------- timers

    def _schedule(self) -> None:
        """Make sure every seat the game waits on will be played: by its person (with a turn timer) or a bot."""
        loop_now = self._clock.monotonic()
        acting = set(self.game.acting_seats())
        for seat in list(self._turn_timers):
            if seat not in acting or self._bot_plays(seat):
                self._turn_timers.pop(seat)[0].cancel()
                self._turns_changed = True
        deadlines = self.game.deadlines()
        for seat in list(self._bot_moves):
            if seat not in acting and seat not in {d.seat for d in deadlines}:
                self._bot_moves.pop(seat).cancel()
        for seat in sorted(acting):
            if self._bot_plays(seat):
                if seat not in self._bot_moves:
                    self._bot_moves[seat] = self._later(self._bot_delay(), _Request("bot_move", {"seat": seat, "optional": False}))
            elif seat not in self._turn_timers and self.timing.turn_seconds > 0:
                handle = self._later(self.timing.turn_seconds, _Request("turn_timeout", {"seat": seat, "started": loop_now}))
                self._turn_timers[seat] = (handle, loop_now)
                self._turns_changed = True
        current = {d.key: d for d in deadlines}
        for key in list(self._deadlines):
            if key not in current:
                self._deadlines.pop(key)[0].cancel()
                self._info_changed = True
        for key, deadline in current.items():
            if key not in self._deadlines:
                handle = self._later(deadline.seconds, _Request("deadline", {"key": key, "action": deadline.action}))
                self._deadlines[key] = (handle, loop_now + deadline.seconds)
                self._info_changed = True
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

    def _later(self, seconds: float, request: _Request) -> Timer:
        return self._clock.call_later(max(0.0, seconds), self._post, request)

    def _cancel_all_timers(self) -> None:
        for handle, _ in self._turn_timers.values():
            handle.cancel()
        for handle in self._bot_moves.values():
            handle.cancel()
        for handle, _ in self._deadlines.values():
            handle.cancel()
        for handle in self._grace_timers.values():
            handle.cancel()
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        if self._turn_timers or self._deadlines:
            self._info_changed = True
        self._turn_timers.clear()
        self._bot_moves.clear()
        self._deadlines.clear()
        self._grace_timers.clear()

    def _turn_tenths(self) -> dict[str, int]:
        """Each turn timer's end as tenths of a second after `_clock_base` (wall clock, server's), by seat."""
        if not self._turn_timers:
            return {}
        since_base = self._clock.time() - self._clock.monotonic() + self.timing.turn_seconds - self._clock_base
        return {str(seat): round((started + since_base) * 10) for seat, (_, started) in self._turn_timers.items()}

    def _clock_view(self, turn_ends_at: bool) -> dict[str, Any]:
        """Timers as wall-clock times (seconds since the epoch, server clock) a client can count down to."""
        loop_now = self._clock.monotonic()
        wall_now = self._clock.time()
        deadlines = []
        for deadline in self.game.deadlines():
            entry = self._deadlines.get(deadline.key)
            if entry:
                deadlines.append(
                    {"key": deadline.key, "seat": deadline.seat, "ends_at": round(wall_now + entry[1] - loop_now, 1)}
                )
        clock: dict[str, Any] = {"deadlines": deadlines, "turn_seconds": self.timing.turn_seconds}
        if turn_ends_at:
            base = self._clock_base * 10
            clock["turn_ends_at"] = {seat: (base + tenths) / 10 for seat, tenths in self._turn_tenths().items()}
        return clock

    # ------------------------------------------------------------------------------------------ broadcasting

    def _flush(self, *, force: bool = False, skip: _Connection | None = None) -> None:
        """Send every listener the news since the last flush, as patches; the shared parts encoded once. `skip`:
        a joining listener, sent the full state right after instead."""
        events, self._unsent = self._unsent, []
        if not any(c is not skip for c in self._connections) or not (
                events or self._info_changed or self._turns_changed or force):
            return
        changed_info = self._info_changed or force
        changed_turns = changed_info or self._turns_changed
        self._info_changed = self._turns_changed = False
        playing = self.status == "playing"
        wire = self._wire
        public_events = [event.for_seat(None) for event in events]
        public = wire.public(self.game)
        sent = self._sent_public
        public_patch = diff(wire.follow_public(sent, public_events), public) if sent is not None else public
        self._sent_public = public
        info_patch: dict[str, Any] = {}
        turns_part = ""
        if changed_info:
            info = self._wire_info()
            info_patch = diff(self._sent_info, info) if self._sent_info is not None else info
            self._sent_info = info
        if changed_turns:
            turns = self._turn_tenths()
            if turns != self._sent_turns:
                self._sent_turns = turns
                turns_part = f',"turns":{strict_json.dumps(turns)}'
        head = f'{{"type":"update","table":"{self.id}","version":{self.version}'
        shared_events = f',"events":{strict_json.dumps(public_events)}' if events else ""
        shared = (("" if not public_patch else f',"public":{strict_json.dumps(public_patch)}')
                  + ("" if not info_patch else f',"info":{strict_json.dumps(info_patch)}') + turns_part)
        shared_text = f"{head}{shared_events}{shared}}}" if (events or shared) else None
        texts: dict[int | None, str | None] = {None: shared_text}
        answered: list[tuple[Listener, str]] = []
        for connection in self._connections:
            if connection is skip:
                continue
            seat = connection.seat
            if seat not in texts:
                texts[seat] = self._seat_text(seat, events, public_events, head, shared_events, shared, shared_text,
                                              playing)
            text = texts[seat]
            if text is None:
                continue
            answer = self._answers.pop(id(connection.listener), None) if self._answers else None
            if answer is not None:
                # Sent last: the answer still comes after every other seat was sent the move.
                answered.append((connection.listener, f'{text[:-1]},"id":{strict_json.dumps(answer.request_id)}}}'))
                answer.carried = True
            else:
                connection.listener.send_text(text)
        for listener, text in answered:
            listener.send_text(text)

    def _wire_info(self) -> dict[str, Any]:
        """`describe()` as sent: the clock without the turn timers (an update's `turns` brings them, counted from
        the clock's `base`)."""
        info = self.describe(turn_ends_at=False)
        info["clock"]["base"] = self._clock_base
        return info

    def _seat_text(self, seat: int, events: list[Event], public_events: list[dict[str, Any]], head: str,
                   shared_events: str, shared: str, shared_text: str | None, playing: bool) -> str | None:
        """One seat's update: the shared one, unless its events have private parts, its private view changed (more
        than its events tell) or its legal moves changed."""
        own_events = shared_events
        seat_events = public_events
        if any(seat in event.private for event in events):
            seat_events = [event.for_seat(seat) for event in events]
            own_events = f',"events":{strict_json.dumps(seat_events)}'
        wire = self._wire
        private = wire.private(self.game, seat)
        before = self._sent_private.get(seat)
        if before is None:
            private_patch = self._sent_private[seat] = private
        else:
            followed = wire.follow_private(before, seat_events, seat)
            private_patch = diff(followed, private)
            if private_patch or followed is not before:
                self._sent_private[seat] = private
            # else the seat's part did not change (most seats, most moves): the baseline kept is the one already
            # sent, and the equal copy just built is freed at once instead of living on to the collector's next pass
        legal = self.game.legal_actions(seat) if playing else []
        legal_part = ""
        if legal != self._sent_legal.get(seat):
            self._sent_legal[seat] = legal
            legal_part = f',"legal":{strict_json.dumps(legal)}'
        if own_events is shared_events and not private_patch and not legal_part:
            return shared_text
        private_part = f',"private":{strict_json.dumps(private_patch)}' if private_patch else ""
        return f"{head}{own_events}{shared}{private_part}{legal_part}}}"

    def _full_message(self, seat: int | None, since: int | None, history: bool = False) -> str:
        """A joining listener's first message: what it missed (catch_up) or, when that is not known, nothing or
        with `history` every event so far (sync), then the whole state; it also sets the baselines the next patches
        are made against."""
        public = self._wire.public(self.game)
        info = self._wire_info()
        turns = self._turn_tenths()
        self._sent_public, self._sent_info, self._sent_turns = public, info, turns  # what everyone has now (_on_connect)
        message: dict[str, Any] = {"type": "sync", "table": self.id, "version": self.version, "seat": seat}
        if self.node_name:
            message["node"] = self.node_name
        if seat is not None and self.sign_seat is not None:
            message["seat_token"] = self.sign_seat(self, seat)
        oldest = self._oldest_kept()
        if since is not None and since <= self.version and since + 1 >= oldest:
            message["type"] = "catch_up"
            message["since"] = since
            message["events"] = [event.for_seat(seat) for version, event in self._events if version > since]
        elif history:
            message["events"] = [event.for_seat(seat) for event in self._all_events()]
        message["public"] = public
        if seat is not None:
            private = self._wire.private(self.game, seat)
            legal = self.game.legal_actions(seat) if self.status == "playing" else []
            self._sent_private[seat], self._sent_legal[seat] = private, legal
            message["private"] = private
            message["legal"] = legal
        else:
            message["private"] = {}
            message["legal"] = []
        message["info"] = info
        message["turns"] = turns
        return strict_json.dumps(message)

    # Each request kind and the handler that runs it in the actor's loop. Requests come from the public inputs
    # (`_ask`), the timers (`_later`) and the actor itself (`_post`); a kind missing here is a KeyError, not a no-op.
    HANDLERS: ClassVar[dict[str, Callable[..., Awaitable[Any]]]] = {
        "boot": _on_boot,
        "stop": _on_stop,
        "retry": _on_retry,
        "lost": _on_lost,
        "act": _on_act,
        "resign": _on_resign,
        "cover": _on_cover,
        "void": _on_void,
        "connect": _on_connect,
        "disconnect": _on_disconnect,
        "history": _on_history,
        "grace_over": _on_grace_over,
        "idle_over": _on_idle_over,
        "turn_timeout": _on_turn_timeout,
        "bot_move": _on_bot_move,
        "deadline": _on_deadline,
    }


def _table_action(entry: LogEntry) -> bool:
    """A table-level action (a resignation) rather than a game move: the table handles it, the game never sees it."""
    return entry.source == "player" and entry.action == RESIGN


def _answer(request: _Request, result: Any, error: BaseException | None) -> None:
    if request.reply is None or request.reply.done():
        return
    if error is not None:
        request.reply.set_exception(error)
    else:
        request.reply.set_result(result)
