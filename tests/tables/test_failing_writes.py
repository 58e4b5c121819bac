"""Writes that keep failing (issue 16): retried a bounded number of times, then the table is settled by its rules or
cancelled with every stake refunded; nothing waits for ever, and nobody is shown a move that was not saved. The
retries' pauses run on a ManualClock moved from one to the next (`run_timers_until`): no real time passes."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, update

from app.core.clock import ManualClock
from app.games.rng import HashRandom
from app.tables import actor as actor_module
from app.tables.actor import FAILED_RETRY_SECONDS, RETRY_DELAYS, Seat, TableActor, TableError, TableTiming
from app.tables.models import LiveTable, TableAction
from app.tables.store import Fenced, TableStore
from tests.support.toy_game import Race
from tests.support.waiting import run_timers_until
from tests.tables.test_actor import Inbox

TIMING = TableTiming(turn_seconds=0, grace_seconds=60, bot_delay_seconds=(0, 0), snapshot_seconds=600)
TRIES = 1 + len(RETRY_DELAYS)  # the first try, then one after each pause


class FlakyHooks:
    """Storage whose writes fail while told to; counts what it was asked."""

    def __init__(self, *, append_fails: bool = False, finish_fails: bool = False, abandon_fails: bool = False):
        self.append_fails = append_fails
        self.finish_fails = finish_fails
        self.abandon_fails = abandon_fails
        self.appends = self.finishes = self.abandons = 0
        self.logged = 0
        self.cancelled_for: str | None = None

    async def append(self, table, entries, first_seq):
        self.appends += 1
        if self.append_fails:
            raise ConnectionError("the database is gone")
        self.logged += len(entries)

    async def snapshot(self, table, snapshot):
        return None

    async def finish(self, table):
        self.finishes += 1
        if self.finish_fails:
            raise ConnectionError("the database is gone")
        return {seat: {"coins": 0} for seat in range(len(table.seats))}

    async def abandon(self, table, reason):
        self.abandons += 1
        if self.abandon_fails:
            raise ConnectionError("the database is gone")
        self.cancelled_for = reason
        return 0


def race_table(hooks, *, target: int = 30, clock: ManualClock | None = None, table_id: str = "flaky") -> TableActor:
    options = {"target": target, "bell_seconds": 60.0}
    return TableActor(table_id=table_id, game=Race.create(2, options, HashRandom(b"flaky")), mode="friends",
                      seats=[Seat("human", f"p{s}", user_id=100 + s) for s in range(2)], timing=TIMING, hooks=hooks,
                      seed_hex=b"flaky".hex(), options=options, clock=clock or ManualClock())


async def test_a_move_that_cannot_be_saved_is_never_shown_and_the_table_is_cancelled():
    hooks = FlakyHooks()
    clock = ManualClock()
    table = race_table(hooks, clock=clock)
    table.start()
    listener = Inbox()
    await table.connect(listener, 100, None)
    await table.connect(Inbox(), 101, None)
    total = listener.state.view["total"]
    hooks.append_fails = True
    before, started = hooks.appends, clock.monotonic()
    turn = table.game.acting_seats()[0]
    acting = asyncio.create_task(table.act(100 + turn, {"type": "add", "amount": 2}))
    await run_timers_until(clock, acting.done)
    with pytest.raises(TableError) as refused:
        await acting
    assert refused.value.code == "table_closed"
    assert hooks.appends - before == TRIES and hooks.abandons == 1  # tried, retried, then cancelled
    assert clock.monotonic() - started == pytest.approx(sum(RETRY_DELAYS))  # about 30 s of trying, then no more
    assert table.status == "cancelled" and table.finished.is_set()
    assert hooks.cancelled_for == "its moves could not be saved"
    # The unsaved move never reached anyone, and the table went back to what was saved.
    assert not any(e["type"] == "added" and e.get("amount") == 2 for e in listener.events())
    assert table.game.state["total"] == total and listener.state.view["total"] == total
    assert [e["type"] for e in listener.events()][-1] == "table_cancelled"
    # The cancellation is numbered right after what was saved: no version is missing or skipped.
    versions = [e["version"] for e in listener.state.events]
    assert versions == list(range(versions[0], versions[-1] + 1)) and versions[-1] == table.version
    await table.stop()


async def test_a_table_that_cannot_even_be_cancelled_is_failed_and_tries_again():
    hooks = FlakyHooks(append_fails=True, abandon_fails=True)
    clock = ManualClock()
    table = race_table(hooks, clock=clock)
    table.start()
    # Its notice cannot be saved: the connection is refused, and the table given up.
    connecting = asyncio.create_task(table.connect(Inbox(), 100, None))
    await run_timers_until(clock, lambda: table.status == "failed")
    with pytest.raises(TableError):
        await connecting
    assert table.status == "failed" and hooks.abandons == TRIES
    assert clock.next_timer() == FAILED_RETRY_SECONDS  # it will try again, and only that waits
    hooks.abandon_fails = False  # the database is back: the next try cancels the table
    clock.advance(seconds=FAILED_RETRY_SECONDS)
    await asyncio.wait_for(table.finished.wait(), 5)
    assert table.status == "cancelled" and hooks.abandons == TRIES + 1
    await table.stop()


async def test_a_settlement_that_keeps_failing_cancels_the_table_with_its_stakes_refunded():
    hooks = FlakyHooks(finish_fails=True)
    clock = ManualClock()
    table = race_table(hooks, target=2, clock=clock)
    table.start()
    listener = Inbox()
    await table.connect(listener, 100, None)
    await table.connect(Inbox(), 101, None)
    turn = table.game.acting_seats()[0]
    acting = asyncio.create_task(table.act(100 + turn, {"type": "add", "amount": 2}))  # won: settling fails each time
    await run_timers_until(clock, table.finished.is_set)
    await acting
    assert hooks.finishes == TRIES and hooks.abandons == 1
    assert table.status == "cancelled" and hooks.cancelled_for == "its result could not be saved"
    # The last move was saved and shown before settling began; then the cancellation.
    types = [e["type"] for e in listener.events()]
    assert "game_end" in types and types[-1] == "table_cancelled"
    await table.stop()


async def test_a_late_snapshot_never_reopens_a_cancelled_table(harness):
    store = TableStore(harness.runtime)
    store.node_id = "node-a"
    table = race_table(None)
    await store.insert(table, table.take_snapshot())
    await store.abandon(table, "a test")
    await store.snapshot(table, table.take_snapshot())  # written nothing: the table is no longer played
    with pytest.raises(Fenced):
        await store.append(table, [actor_module.LogEntry(0, {"type": "add", "amount": 1}, "player", 1)], 1)
    async with harness.runtime.reader() as session:
        assert (await session.get(LiveTable, table.id)).status == "cancelled"
    await store.close()


async def test_an_append_writes_only_the_rows_of_tables_still_ours_and_a_retried_one_writes_nothing_twice(harness):
    store = TableStore(harness.runtime)
    store.node_id = "node-a"
    ours, adopted = race_table(None, table_id="ours"), race_table(None, table_id="adopted")
    for table in (ours, adopted):
        await store.insert(table, table.take_snapshot())

    def entry(version: int) -> actor_module.LogEntry:
        return actor_module.LogEntry(0, {"type": "add", "amount": 1}, "player", version)

    await store.append(ours, [entry(1), entry(2)], 1)
    await store.append(ours, [entry(1), entry(2)], 1)  # a retry after a lost answer: already in the log
    # Another node adopts the second table; appends for both arrive together (one batch, or two).
    async with harness.runtime.transaction() as session:
        await session.execute(update(LiveTable).where(LiveTable.id == "adopted")
                              .values(owner_epoch=LiveTable.owner_epoch + 1))
    kept, refused = await asyncio.gather(store.append(ours, [entry(3)], 3), store.append(adopted, [entry(1)], 1),
                                         return_exceptions=True)
    assert kept is None and isinstance(refused, Fenced)
    async with harness.runtime.reader() as session:
        rows = (await session.execute(select(TableAction.table_id, TableAction.seq, TableAction.version)
                                      .order_by(TableAction.table_id, TableAction.seq))).all()
    assert [tuple(row) for row in rows] == [("ours", 1, 1), ("ours", 2, 2), ("ours", 3, 3)]
    assert store.fenced_writes == 1
    await store.close()
