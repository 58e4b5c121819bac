"""Resigning at the table (platform.md, "Leaving"): a logged table action (source "player") that replays the same
way, ends a practice table, hands any other seat to a bot for good, and is refused where it does not apply."""

import asyncio

import pytest

from app.core.clock import ManualClock
from app.games.rng import ScriptedRandom
from app.games.base import IllegalAction
from app.tables.actor import LogEntry, Seat, TableActor, TableError, TableTiming
from tests.support.toy_game import Race
from tests.tables.test_actor import TIMING, Hooks, Inbox, humans, looked_at


def race(seats, *, mode="bots", timing=TIMING, hooks=None, clock=None):
    game = Race.create(len(seats), {"target": 12, "bell_seconds": 60.0},
                       ScriptedRandom(ints=[0], rolls=[3, 4, 5, 6]))
    return TableActor(table_id="t1", game=game, seats=seats, mode=mode, timing=timing, hooks=hooks or Hooks(),
                      clock=clock or ManualClock())


class Cancels(Hooks):
    def __init__(self):
        super().__init__()
        self.abandoned = []

    async def abandon(self, table, reason):
        self.abandoned.append(reason)
        return 0


async def test_resigning_a_practice_table_ends_it_and_is_logged_as_the_player_s():
    hooks = Cancels()
    table = race([humans(1)[0], Seat("bot", "b1", bot_level="easy")], hooks=hooks)
    table.start()
    inbox = Inbox()
    await table.connect(inbox, 100, None)
    await table.resign(100)
    assert table.status == "cancelled" and table.finished.is_set() and len(hooks.abandoned) == 1
    resign = [entry for entry in hooks.logged if entry.action == {"type": "resign"}]
    assert len(resign) == 1 and resign[0].seat == 0 and resign[0].source == "player"
    assert table.action_log == []  # the game's record replays moves only: a resignation is the table's
    cancelled = [e for e in inbox.events() if e["type"] == "table_cancelled"]
    assert cancelled and cancelled[0]["code"] == "resigned"
    assert "seat_resigned" in [e["type"] for e in inbox.events()]
    with pytest.raises(TableError) as refused:
        await table.resign(100)
    assert refused.value.code == "game_over"
    await table.stop()


async def test_elsewhere_a_resigned_seat_is_played_by_a_bot_counts_as_left_and_survives_replay():
    hooks = Hooks()
    table = race(humans(2), mode="online", hooks=hooks)
    table.start()
    a, b = Inbox(), Inbox()
    await table.connect(a, 100, None)
    await table.connect(b, 101, None)
    with pytest.raises(TableError) as refused:
        await table.resign(999)
    assert refused.value.code == "not_seated"
    await table.resign(100)
    assert table.status == "playing" and table.seats[0].resigned and table.seats[0].left()
    assert b.state.info["resigned"] == [0]
    for refusal, attempt in (("already_resigned", table.resign(100)),
                             ("resigned", table.act(100, {"type": "add", "amount": 1}))):
        with pytest.raises(TableError) as refused:
            await attempt
        assert refused.value.code == refusal
    # A bot plays seat 0 from now on: the game goes on for the other person.
    while not table.game.is_over:
        if 1 in table.game.acting_seats():
            await table.act(101, {"type": "add", "amount": 2})
        else:
            await b.next()  # the bot's move reaches seat 1
    await asyncio.wait_for(table.finished.wait(), 10)
    assert hooks.finished == 1
    # The log replays to the same table: the seat is resigned again, the versions match.
    again = race([Seat("human", "p0", user_id=100), Seat("human", "p1", user_id=101)], mode="online")
    again.replay([LogEntry(e.seat, e.action, e.source, e.version) for e in hooks.logged])
    assert again.seats[0].resigned and again.seats[0].left() and not again.seats[1].resigned
    assert again.version == max(e.version for e in hooks.logged)
    await table.stop()


async def test_a_resignation_sent_as_a_move_is_refused_and_changes_nothing():
    # Only the resign request resigns: {"type": "resign"} sent as a move is a bad action, never logged.
    hooks = Hooks()
    table = race(humans(2), mode="online", hooks=hooks)
    table.start()
    await table.connect(Inbox(), 100, None)
    version = table.version
    with pytest.raises(IllegalAction) as refused:
        await table.act(100, {"type": "resign"})
    assert refused.value.code == "bad_action"
    assert not table.seats[0].resigned and table.version == version
    assert all(entry.action != {"type": "resign"} for entry in table.entries)
    await table.stop()


async def test_a_practice_table_nobody_follows_ends_after_the_idle_time():
    hooks = Cancels()
    clock = ManualClock()
    timing = TableTiming(turn_seconds=0, grace_seconds=15, bot_delay_seconds=(5, 5), snapshot_seconds=0,
                         practice_idle_seconds=600)
    table = race([humans(1)[0], Seat("bot", "b1", bot_level="easy")], timing=timing, hooks=hooks, clock=clock)
    table.start()
    inbox = Inbox()
    await table.connect(inbox, 100, None)
    clock.advance(seconds=2 * timing.practice_idle_seconds)
    await looked_at(table)
    assert table.status == "playing"  # followed: it plays on
    await table.disconnect(inbox)
    clock.advance(seconds=timing.practice_idle_seconds - 1)
    await looked_at(table)
    assert table.status == "playing"  # nobody follows it, not for long enough yet
    clock.advance(seconds=1)
    await asyncio.wait_for(table.finished.wait(), 5)
    assert table.status == "cancelled" and hooks.abandoned == ["nobody played it for a while"]
    await table.stop()
