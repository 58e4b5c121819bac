"""A long random sequence of stakes, payouts, refunds, purchases and league prizes, on every backend: the sum of
balances equals the sum of ledger entries, no balance goes below zero, and every pot ends fully paid out or refunded
(design.md, "Money")."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

from sqlalchemy import update, select

from app.core.errors import AppError
from app.ledger.models import LedgerAccount
from app.tables.models import LiveTable
from tests.online.online_support import (finish, PlayedTable, TableRecorder, assert_ledger_consistent, balance_of, human,
                                         new_id, simulated)
from tests.support.harness import reach_staked_level
from tests.support.waiting import eventually

STEPS = 400
# Refusals a player can meet along the way; anything else is a bug and fails the test.
EXPECTED_REFUSALS = {"already_queued", "already_seated", "insufficient_funds", "booster_active"}


def random_placings(rng: random.Random, seats: int) -> list[int]:
    scores = [rng.randint(0, 3) for _ in range(seats)]  # small range: ties happen
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


async def test_random_stakes_payouts_refunds_purchases_and_league_prizes_keep_the_ledger_whole(quiet, online):
    rng = random.Random(20300107)
    runtime = quiet.runtime
    store = quiet.app.state.realtime.tables.store
    mm = online.matchmaking
    recorder = TableRecorder(quiet.app)
    mm.create_table = recorder
    users = [await quiet.create_user(f"player{n}") for n in range(10)]
    for user in users:
        await reach_staked_level(runtime, user.id)  # players who have played: staked tables are open to them
    by_id = {user.id: user for user in users}
    # What the players' wallets must add up to once every pot is settled: welcome coins, plus prizes (games and
    # league), minus the shop. Stakes only move coins between wallets and pots.
    expected = 1000 * len(users)
    settled: set[str] = set()
    abandoned: set[str] = set()
    counts = {"stakes_cancelled": 0, "pots_paid": 0, "weeks_closed": 0, "purchases": 0, "abandoned": 0}

    async def refused(call) -> object:
        try:
            return await call
        except AppError as error:
            assert error.code in EXPECTED_REFUSALS, error
            return None

    async def queue_someone() -> None:
        user = rng.choice(users)
        queue = mm.queue_for(rng.choice(["pika", "stakes"]), rng.choice([2, 2, 3]), "staked", rng.choice([100, 250]))
        await refused(mm.queue(user.id, queue, connection=f"socket-{user.id}"))

    async def finish_a_table() -> None:
        nonlocal expected
        waiting = [t for t in recorder.tables if t.id not in settled and t.id not in abandoned]
        if not waiting:
            return
        table = rng.choice(waiting)
        table.placings = random_placings(rng, len(table.seats))
        for seat in table.seats:  # some players leave (a bot covers them): their stake still plays
            if rng.random() < 0.15:
                seat.human_turns, seat.covered_turns = 1, 3
        rewards = await finish(store, table)
        assert sum(r["pot"] for r in rewards.values()) == table.meta["stake"] * len(table.seats)
        expected += sum(r["coins"] for r in rewards.values())
        if rng.random() < 0.3:
            assert await finish(store, table) == rewards  # a retried settlement pays nothing more
        settled.add(table.id)
        table.status = "finished"
        table.finished.set()
        counts["pots_paid"] += 1

    async def settle_an_online_or_friends_table() -> None:
        nonlocal expected
        players = rng.sample(users, rng.randint(1, 4))
        seats = [human(user, left=rng.random() < 0.1) for user in players]
        seats += [simulated(n) for n in range(rng.randint(0 if len(seats) > 1 else 1, 2))]
        rng.shuffle(seats)
        mode = rng.choice(["online", "online", "friends"])
        rewards = await finish(store, PlayedTable(new_id(), seats, mode, random_placings(rng, len(seats)),
                                                 meta={"bot_filled": any(s.is_bot for s in seats)},
                                                 game_name=rng.choice(["pika", "piker"])))
        expected += sum(r["coins"] for r in rewards.values())

    async def buy_something() -> None:
        nonlocal expected
        user = rng.choice(users)
        item = rng.choice(["booster", "booster", "vip"])
        before = await balance_of(runtime, user.id)
        async with runtime.transaction() as session:
            bought = await refused(online.shop.buy(session, user.id, item))
        if bought is not None:
            expected -= online.shop.item(item).price
            counts["purchases"] += 1
            assert await balance_of(runtime, user.id) == before - online.shop.item(item).price

    async def let_time_pass() -> None:
        nonlocal expected
        quiet.clock.advance(seconds=rng.choice([5, 30, 61]))
        await online.tick()
        if rng.random() < 0.2:
            quiet.clock.advance(timedelta(days=rng.randint(1, 4)))
            for closed in await online.housekeeping():
                assert not closed.already_closed
                expected += sum(prize["coins"] for prize in closed.prizes)
                counts["weeks_closed"] += 1
                if rng.random() < 0.5:  # closing it again (a second node, a retried command) pays nothing
                    async with runtime.transaction() as session:
                        again = await online.league.close_week(session, closed.game, closed.week)
                    assert again.already_closed

    async def abandon_a_table() -> None:
        """A formed staked table whose owner died and that cannot be resumed: the node adopting it cancels it."""
        waiting = [t for t in recorder.tables if t.id not in settled and t.id not in abandoned]
        if not waiting:
            return
        table = rng.choice(waiting)
        manager = quiet.app.state.realtime.tables
        del manager.tables[table.id]
        async with runtime.transaction() as session:  # its owner is gone (a crash of another node)
            await session.execute(update(LiveTable).where(LiveTable.id == table.id).values(owner=None))
        assert await manager.adopt_orphans() == 0  # adopted, found unresumable (it never had a game), cancelled
        async with runtime.sessionmaker() as session:
            assert (await session.get(LiveTable, table.id)).status == "cancelled"
        abandoned.add(table.id)
        table.finished.set()
        counts["abandoned"] += 1

    async def a_burst_at_once() -> None:
        """Queueing, leaving and the fill time all at once, interleaved."""
        calls = [queue_someone() for _ in range(rng.randint(2, 5))]
        calls += [mm.unqueue(rng.choice(users).id) for _ in range(rng.randint(0, 2))]
        calls.append(online.tick())
        results = await asyncio.gather(*calls, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result

    steps = [queue_someone] * 6 + [finish_a_table] * 3 + [settle_an_online_or_friends_table] * 2 + \
        [buy_something] * 2 + [let_time_pass] * 3 + [a_burst_at_once] * 2 + [abandon_a_table] + \
        [lambda: mm.unqueue(rng.choice(users).id)] * 2
    for number in range(STEPS):
        await rng.choice(steps)()
        if number % 50 == 0:
            await assert_ledger_consistent(runtime)

    # Drain: the fill time cancels every forming table, every formed one is played out, every week is closed.
    quiet.clock.advance(seconds=61)
    await online.tick()
    while any(t.id not in settled and t.id not in abandoned for t in recorder.tables):
        await finish_a_table()
    quiet.clock.advance(timedelta(days=8))
    for closed in await online.housekeeping():
        expected += sum(prize["coins"] for prize in closed.prizes)

    await assert_ledger_consistent(runtime)
    async with runtime.sessionmaker() as session:
        pots = (await session.execute(select(LedgerAccount.name, LedgerAccount.balance)
                                      .where(LedgerAccount.kind == "pot"))).all()
        wallets = (await session.execute(select(LedgerAccount.balance)
                                         .where(LedgerAccount.kind == "user"))).scalars().all()
    assert pots and all(balance == 0 for _, balance in pots), "a pot kept coins"
    assert sum(wallets) == expected
    # Nobody is left waiting or seated: every table is over (the watchers free the seats as tables end).
    async def everyone_idle() -> bool:
        return all(status == {"status": "idle"} for status in [await mm.status(user.id) for user in by_id.values()])

    await eventually(everyone_idle)
    # The sequence did exercise every kind of movement.
    counts["stakes_cancelled"] = sum(1 for name, _ in pots) - len(recorder.tables)
    assert counts["pots_paid"] > 5 and counts["purchases"] > 3 and counts["weeks_closed"] > 0, counts
    assert counts["abandoned"] > 0 and counts["stakes_cancelled"] > 0, counts
