"""The table actor with a toy game: ordering, per-seat views, versions, timers, bots, reconnection. Its timers run
on a ManualClock that each test moves: no test waits for real time to pass."""

import asyncio

import pytest

from app.client import TableState
from app.core import strict_json
from app.core.clock import ManualClock
from app.games.base import IllegalAction
from app.games.kapern.game import TREASURE_ISLAND, Kapern
from app.games.rng import HashRandom, ScriptedRandom
from app.tables.actor import EVENT_BUFFER, PRESENCE_NOTICES_PER_MINUTE, Seat, TableActor, TableError, TableTiming
from tests.support.toy_game import Race


class Inbox:
    """A listener that keeps what it is sent (decoded), and the table as a client rebuilds it from full messages
    and patches (`state`: view, legal, info)."""

    def __init__(self):
        self.messages = []
        self.everything = []
        self.arrived = asyncio.Event()
        self.state = TableState("t1")

    def send_text(self, text):
        message = strict_json.loads(text)  # everything sent must be strict JSON
        if message["type"] in ("update", "catch_up", "sync"):
            self.state.apply(message)
        self.messages.append(message)
        self.everything.append(message)
        self.arrived.set()

    async def next(self, timeout=5.0):
        while not self.messages:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), timeout)
        return self.messages.pop(0)

    def events(self):
        return [event for m in self.everything for event in m.get("events", [])]


class Hooks:
    """Storage that counts what it is asked to keep (the log entries, as a database would)."""

    def __init__(self):
        self.snapshots = 0
        self.finished = 0
        self.logged = []

    async def append(self, table, entries, first_seq):
        assert first_seq == len(self.logged) + 1  # appended in order, each entry once
        self.logged.extend(entries)

    async def snapshot(self, table, snapshot):
        self.snapshots += 1

    async def finish(self, table):
        self.finished += 1
        return {seat: {"coins": 0} for seat in range(len(table.seats))}

    async def abandon(self, table, reason):
        return 0


# No turn timer, bots move at once (on the loop's next turn), an absent person has the grace time to come back.
TIMING = TableTiming(turn_seconds=0, grace_seconds=15, bot_delay_seconds=(0, 0), snapshot_seconds=0)


def make_table(seats, *, timing=TIMING, first=0, target=12, hooks=None, clock=None):
    game = Race.create(len(seats), {"target": target, "bell_seconds": 60.0}, ScriptedRandom(ints=[first], rolls=[3, 4, 5, 6]))
    table = TableActor(table_id="t1", game=game, seats=seats, mode="bots", timing=timing, hooks=hooks or Hooks(),
                       clock=clock or ManualClock())
    return table


async def looked_at(table):
    """A spectator comes and goes. The actor handles requests in order, so by then it has handled everything posted
    before (the timers a test's clock just ran): what did not happen did not happen."""
    spectator = Inbox()
    await table.connect(spectator, None, None)
    await table.disconnect(spectator)


def humans(n):
    return [Seat("human", f"p{i}", user_id=100 + i) for i in range(n)]


async def test_each_seat_gets_its_own_view_and_versions_grow_by_one_per_event():
    table = make_table(humans(2))
    table.start()
    a, b = Inbox(), Inbox()
    assert await table.connect(a, 100, None) == 0
    assert await table.connect(b, 101, None) == 1
    sync = await a.next()
    assert sync["type"] == "sync" and sync["private"]["my_secret"] == 3 and a.state.view["my_secret"] == 3
    version = await table.act(100, {"type": "add", "amount": 2})
    update = [m for m in b.messages if m["type"] == "update"][-1]
    assert update["version"] == version
    added = [e for e in update["events"] if e["type"] == "added"][0]
    assert "secret" not in added and b.state.view["my_secret"] == 4
    assert "private" not in update  # seat 1's own part did not change: only the public patch went out
    mine = [m for m in a.messages if m["type"] == "update"][-1]
    assert [e for e in mine["events"] if e["type"] == "added"][0]["secret"] == 3
    versions = [e["version"] for e in a.state.events]
    assert versions == list(range(versions[0], versions[0] + len(versions))) and versions[-1] == table.version
    assert a.state.view == table.game.view(0) and b.state.view == table.game.view(1)
    await table.stop()


class GatedHooks(Hooks):
    """Storage whose appends wait until the test opens the gate (a slow disk)."""

    def __init__(self):
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = 0

    async def append(self, table, entries, first_seq):
        self.waiting += 1
        await self.gate.wait()
        await super().append(table, entries, first_seq)


async def test_a_socket_joining_in_the_same_batch_as_a_move_sees_the_move_only_once_it_is_saved():
    hooks = GatedHooks()
    table = make_table(humans(2), hooks=hooks)
    table.start()
    playing, joining = Inbox(), Inbox()
    await table.connect(playing, 100, None)
    hooks.gate.clear()
    waited = hooks.waiting
    # Posted together: the actor takes the move and the join in one batch.
    acting = asyncio.create_task(table.act(100, {"type": "add", "amount": 2}))
    connecting = asyncio.create_task(table.connect(joining, 101, None))
    while hooks.waiting == waited:
        await asyncio.sleep(0)
    for _ in range(20):
        await asyncio.sleep(0)  # everything the actor would do before the append completes
    assert "added" not in [e["type"] for e in playing.events()]
    assert joining.messages == []  # not even the state after the move
    hooks.gate.set()
    version = await acting
    await connecting
    assert [e["type"] for e in playing.events()].count("added") == 1
    assert joining.state.version >= version and joining.state.view == table.game.view(1)
    assert [e.action for e in hooks.logged if e.source == "player"] == [{"type": "add", "amount": 2}]
    await table.stop()


async def test_refusals_are_specific_and_change_nothing():
    table = make_table(humans(2))
    table.start()
    before = table.game.to_state()
    with pytest.raises(IllegalAction) as refused:
        await table.act(101, {"type": "add", "amount": 1})
    assert refused.value.code == "not_your_turn"
    with pytest.raises(TableError) as refused:
        await table.act(999, {"type": "add", "amount": 1})
    assert refused.value.code == "not_seated"
    with pytest.raises(TableError) as refused:
        await table.act(100, {"type": "add", "amount": 1}, seat=1)
    assert refused.value.code == "not_your_seat"
    with pytest.raises(IllegalAction) as refused:
        await table.act(100, {"type": "add", "amount": 7})
    assert refused.value.code == "bad_amount"
    assert table.game.to_state() == before and table.action_log == []
    await table.stop()


async def test_bots_play_their_seats_to_the_end_and_the_table_finishes_once():
    hooks = Hooks()
    table = make_table([Seat("bot", "b0", bot_level="easy"), Seat("bot", "b1", bot_level="hard")], hooks=hooks)
    table.start()
    await asyncio.wait_for(table.finished.wait(), 10)
    assert table.status == "finished" and hooks.finished == 1
    assert table.game.is_over and len(table.action_log) > 3
    await table.stop()


async def test_a_turn_that_times_out_is_played_by_a_bot_and_counted_as_covered():
    clock = ManualClock()
    timing = TableTiming(turn_seconds=30, grace_seconds=60, bot_delay_seconds=(0, 0), snapshot_seconds=0)
    table = make_table(humans(2), timing=timing, clock=clock)
    table.start()
    a = Inbox()
    await table.connect(a, 100, None)
    sync = await a.next()
    # On the wall clock: tenths of a second after the clock's base (docs/protocol.md, "Patches").
    assert {seat: (sync["info"]["clock"]["base"] * 10 + tenths) / 10 for seat, tenths in sync["turns"].items()} == {
        "0": round(clock.time() + 30, 1)}
    assert table.describe()["clock"]["turn_ends_at"] == {"0": round(clock.time() + 30, 1)}
    clock.advance(seconds=29.9)
    await looked_at(table)
    assert table.action_log == []  # the person still has a moment
    clock.advance(seconds=0.1)
    while not table.action_log:
        await a.next()
    assert table.action_log[0][0] == 0
    assert table.seats[0].covered_turns == 1 and table.seats[0].human_turns == 0
    await table.stop()


async def test_moves_undone_within_a_turn_neither_restart_its_timer_nor_count_as_turns_played():
    """Kapern's chest: a die put on Treasure Island and taken back, again and again, just before the timer runs out,
    held the turn (and a staked pot) for ever, and counted as turns played against the leaver rule."""
    clock = ManualClock()
    timing = TableTiming(turn_seconds=30, grace_seconds=600, bot_delay_seconds=(0, 0), snapshot_seconds=0)
    game = Kapern.create(2, Kapern.check_options(2, None), HashRandom("chest:2"))  # seat 0 starts
    game.turn["card"] = TREASURE_ISLAND
    table = TableActor(table_id="t1", game=game, seats=humans(2), mode="bots", timing=timing, hooks=Hooks(),
                       clock=clock)
    table.start()
    a, b = Inbox(), Inbox()
    await table.connect(a, 100, None)
    await table.connect(b, 101, None)
    await table.act(100, {"type": "roll", "dice": list(range(8))})
    assert table.game.acting_seats() == [0] and table.seats[0].human_turns == 1
    ends = table.describe()["clock"]["turn_ends_at"]["0"]
    for toggle in ("put_on_chest", "take_from_chest", "put_on_chest", "take_from_chest", "put_on_chest"):
        clock.advance(seconds=5.9)
        await table.act(100, {"type": toggle, "die": 1})
        assert table.describe()["clock"]["turn_ends_at"]["0"] == ends  # the turn's timer runs on
    clock.advance(seconds=0.5)  # 30 s after the roll
    while 0 in table.game.acting_seats():
        await a.next()
    assert table.seats[0].human_turns == 1 and table.seats[0].covered_turns >= 1
    await table.stop()


async def test_a_disconnected_player_is_covered_after_the_grace_and_comes_back_from_another_device():
    clock = ManualClock()
    table = make_table(humans(2), target=200, clock=clock)
    table.start()
    phone, laptop, other = Inbox(), Inbox(), Inbox()
    await table.connect(phone, 100, None)
    await table.connect(other, 101, None)
    await table.disconnect(phone)
    clock.advance(seconds=TIMING.grace_seconds - 1)
    await looked_at(table)
    assert not table.seats[0].away  # still within the grace time
    clock.advance(seconds=1)
    while not table.seats[0].away:
        await other.next()
    # The bot now plays seat 0 whenever it is its turn; seat 1 is a connected human.
    await table.act(101, {"type": "add", "amount": 1}) if 1 in table.game.acting_seats() else None
    while 0 in table.game.acting_seats():
        await other.next()
    assert table.seats[0].covered_turns >= 1
    await table.connect(laptop, 100, table.version)
    assert not table.seats[0].away
    await table.stop()


async def test_a_reconnect_gets_only_the_missed_events_and_a_stale_one_a_full_view():
    table = make_table(humans(2), target=400)
    table.start()
    a = Inbox()
    await table.connect(a, 100, None)
    await table.act(100, {"type": "add", "amount": 1})
    seen = table.version
    await table.disconnect(a)
    await table.act(101, {"type": "add", "amount": 1})
    await table.act(100, {"type": "add", "amount": 2})
    back = Inbox()
    await table.connect(back, 100, seen)
    catch_up = await back.next()
    assert catch_up["type"] == "catch_up" and catch_up["since"] == seen
    assert len(catch_up["events"]) == catch_up["version"] - seen  # exactly the missed ones
    caught = back.state.events[: len(catch_up["events"])]  # (the seat_connected notice comes right after)
    assert [e["version"] for e in caught] == list(range(seen + 1, catch_up["version"] + 1))
    # Push the buffer past its size, then a reconnect from the start gets a full view instead.
    while table.version < EVENT_BUFFER + 10:
        seat = table.game.acting_seats()[0]
        await table.act(100 + seat, {"type": "add", "amount": 1})
        if table.game.is_over:
            break
    stale = Inbox()
    await table.connect(stale, 100, 1)
    assert (await stale.next())["type"] == "sync"
    await table.stop()


async def test_a_deadline_runs_out_through_the_table():
    clock = ManualClock()
    game = Race.create(2, {"target": 30, "bell_seconds": 2.0}, ScriptedRandom(ints=[0]))
    game.state["total"] = 3
    # Seat 1 stays its person's (a long grace): nobody but the bell's deadline changes the total meanwhile.
    timing = TableTiming(turn_seconds=0, grace_seconds=60, bot_delay_seconds=(0, 0), snapshot_seconds=0)
    table = TableActor(table_id="t2", game=game, seats=humans(2), mode="bots", timing=timing, hooks=Hooks(),
                       clock=clock)
    table.start()
    a = Inbox()
    await table.connect(a, 100, None)
    await table.act(100, {"type": "add", "amount": 2})  # total 5: a bell opens for seat 0
    (bell,) = a.state.info["clock"]["deadlines"]
    assert bell["seat"] == 0 and bell["ends_at"] == round(clock.time() + 2.0, 1)
    clock.advance(seconds=1.9)
    await looked_at(table)
    assert table.game.state["total"] == 5  # the bell is still open
    clock.advance(seconds=0.1)
    while not any(e["type"] == "bell_missed" for e in a.events()):
        await a.next()
    assert table.game.state["total"] == 4 and a.state.view["total"] == 4
    await table.stop()


async def test_history_is_every_event_so_far_as_the_seat_may_see_it():
    seed = b"history"  # the history is replayed from the table's seed, as a live table's is
    options = {"target": 400, "bell_seconds": 60.0}
    table = TableActor(table_id="t3", game=Race.create(2, options, HashRandom(seed)), seats=humans(2), mode="bots",
                       timing=TIMING, hooks=Hooks(), seed_hex=seed.hex(), options=options, clock=ManualClock())
    table.start()
    a, b = Inbox(), Inbox()
    await table.connect(a, 100, None)
    await table.connect(b, 101, None)
    for _ in range(EVENT_BUFFER):  # more events than the table keeps for catching up
        seat = table.game.acting_seats()[0]
        await table.act(100 + seat, {"type": "add", "amount": 1})
    version, events = await table.history(100)
    assert version == table.version and len(events) == version
    assert events[-len(a.state.events):] == [{k: v for k, v in e.items() if k != "version"} for e in a.state.events]
    mine = [e for e in events if e["type"] == "added" and e["seat"] == 0]
    theirs = [e for e in events if e["type"] == "added" and e["seat"] == 1]
    assert all("secret" in e for e in mine) and not any("secret" in e for e in theirs)
    _, spectated = await table.history(None)
    assert not any("secret" in e for e in spectated)
    await table.stop()


def test_every_request_the_table_is_asked_or_posts_has_a_handler():
    """The handler table is explicit (greppable callers): a request kind without an entry would fail at run time."""
    import inspect
    import re

    from app.tables import actor

    source = inspect.getsource(actor)
    asked = set(re.findall(r'_ask\("([a-z_]+)"', source)) | set(re.findall(r'_Request\("([a-z_]+)"', source))
    assert asked and asked <= set(actor.TableActor.HANDLERS), asked - set(actor.TableActor.HANDLERS)


async def test_a_seat_joining_and_leaving_in_a_loop_does_not_flood_the_log_but_its_connected_follows():
    clock = ManualClock()
    table = make_table(humans(2), target=200, clock=clock)
    table.start()
    other = Inbox()
    await table.connect(other, 101, None)
    phone, laptop = Inbox(), Inbox()
    await table.connect(phone, 100, None)
    await table.connect(laptop, 100, None)  # a second device of a connected seat is no news
    await table.disconnect(laptop)  # nor is one of two devices leaving
    for _ in range(50):
        await table.disconnect(phone)
        await table.connect(phone, 100, None)
    await looked_at(table)
    notices = [e.action["type"] for e in table.entries if e.source == "notice" and e.seat == 0]
    assert notices and set(notices) <= {"seat_connected", "seat_disconnected"}
    assert len(notices) <= PRESENCE_NOTICES_PER_MINUTE
    await table.disconnect(phone)  # the last change is still shown: seat 0 is not connected
    await looked_at(table)
    assert table.describe()["seats"][0]["connected"] is False
    assert other.state.info["seats"][0]["connected"] is False
    await table.connect(phone, 100, None)
    await looked_at(table)
    assert other.state.info["seats"][0]["connected"] is True
    clock.advance(seconds=61)  # a minute on, its notices are logged again
    await table.disconnect(phone)
    await looked_at(table)
    assert table.entries[-1].action["type"] == "seat_disconnected"
    await table.stop()
