"""The matchmaking queues in Redis, step by step (each an atomic Lua script), on fakeredis and on a real Redis."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from app.online.queues import Matchmaker, Queue

ONLINE3 = Queue("pika", 3, "online")
STAKED2 = Queue("stakes", 2, "staked", 250)
FILL = 20_000
T0 = 1_000_000


def matchmaker(quiet) -> Matchmaker:
    return Matchmaker(quiet.runtime.redis)


async def join(mm: Matchmaker, queue: Queue, user: int, *, now: int = T0, conn: str = "", staking: bool = False):
    return await mm.join(queue, user, connection=conn or f"socket-{user}", candidate=f"table-{user}-{now}",
                         now_ms=now, fill_ms=FILL, staking=staking)


async def test_a_table_forms_when_its_seats_are_taken_in_arrival_order(quiet):
    mm = matchmaker(quiet)
    first = await join(mm, ONLINE3, 1)
    assert (first.status, first.table, first.deadline_ms, first.user_ids) == ("waiting", "table-1-1000000",
                                                                              T0 + FILL, [1])
    assert (await join(mm, ONLINE3, 2, now=T0 + 5)).user_ids == [1, 2]
    formed = await join(mm, ONLINE3, 3, now=T0 + 9)
    assert formed.status == "formed" and formed.table == first.table and formed.user_ids == [1, 2, 3]
    assert formed.queue == ONLINE3
    for user in (1, 2, 3):
        assert await mm.where(user) == (None, first.table)
    # The next player starts a new table; the formed one is no longer due.
    fourth = await join(mm, ONLINE3, 4, now=T0 + 10)
    assert fourth.table != first.table and fourth.user_ids == [4]
    assert [step.table for step in await mm.due(T0 + FILL + 100)] == [fourth.table]


async def test_nobody_waits_twice_nor_queues_while_seated(quiet):
    mm = matchmaker(quiet)
    await join(mm, ONLINE3, 1)
    again = await join(mm, STAKED2, 1, staking=True)
    assert again.status == "already_queued" and again.table == "table-1-1000000"
    await join(mm, ONLINE3, 2)
    formed = await join(mm, ONLINE3, 3)
    assert formed.status == "formed"
    seated = await join(mm, ONLINE3, 1)
    assert (seated.status, seated.table) == ("already_seated", formed.table)
    assert await mm.unseat(formed.table, [1, 2, 3]) == 3
    assert (await join(mm, ONLINE3, 1)).status == "waiting"


async def test_leaving_frees_the_seat_and_only_the_socket_that_queued_leaves_on_close(quiet):
    mm = matchmaker(quiet)
    await join(mm, ONLINE3, 1, conn="phone")
    await join(mm, ONLINE3, 2)
    assert (await mm.leave(1, connection="laptop")).status == "other_connection"
    left = await mm.leave(1, connection="phone")
    assert left.status == "left" and left.user_ids == [2] and left.queue == ONLINE3
    assert (await mm.leave(1)).status == "not_queued"
    assert (await join(mm, ONLINE3, 3)).user_ids == [2, 3]
    # The last one out removes the forming table altogether.
    await mm.leave(2)
    await mm.leave(3)
    assert await mm.due(T0 + 10 * FILL) == []
    assert await mm.forming("table-2-1000000") is None


async def test_coming_back_to_the_same_queue_moves_the_seat_to_the_new_socket_and_keeps_its_place(quiet):
    mm = matchmaker(quiet)
    await join(mm, ONLINE3, 1, conn="tab-one")
    await join(mm, ONLINE3, 2, now=T0 + 5)
    assert (await mm.rejoin(ONLINE3, 3, connection="x")).status == "not_queued"
    assert (await mm.rejoin(STAKED2, 1, connection="tab-two")).status == "other_queue"
    back = await mm.rejoin(ONLINE3, 1, connection="tab-two")
    assert (back.status, back.table, back.deadline_ms, back.user_ids) == ("waiting", "table-1-1000000", T0 + FILL,
                                                                          [1, 2])
    # The old socket no longer holds the seat: its closing gives nothing up; the new one's does.
    assert (await mm.leave(1, connection="tab-one")).status == "other_connection"
    assert (await mm.leave(1, connection="tab-two")).status == "left"


async def test_departures_are_handed_out_once_when_due(quiet):
    mm = matchmaker(quiet)
    await mm.depart_later(1, "tab-one", T0 + 100)
    await mm.depart_later(2, "tab-two", T0 + 200)
    assert await mm.departures_due(T0 + 99) == []
    due = await asyncio.gather(mm.departures_due(T0 + 150), mm.departures_due(T0 + 150))
    assert sorted(due, key=len) == [[], [(1, "tab-one")]]
    assert await mm.departures_due(T0 + 1000) == [(2, "tab-two")]
    assert await mm.departures_due(T0 + 1000) == []


async def test_at_the_fill_time_an_online_table_forms_with_whoever_is_there_and_a_staked_one_is_cancelled(quiet):
    mm = matchmaker(quiet)
    online = await join(mm, ONLINE3, 1)
    await join(mm, ONLINE3, 2, now=T0 + 15_000)
    staked = await join(mm, STAKED2, 3, now=T0 + 1, staking=True)
    await mm.confirm(staked.table, 3, staked.ticket)
    assert await mm.due(T0 + FILL - 1) == []  # the fill time counts from the first player's arrival
    steps = {step.table: step for step in await mm.due(T0 + FILL + 1)}
    assert steps[online.table].status == "formed" and steps[online.table].user_ids == [1, 2]
    assert steps[staked.table].status == "cancelled" and steps[staked.table].user_ids == [3]
    assert await mm.where(1) == (None, online.table)
    assert await mm.where(3) == (None, None)
    assert await mm.due(T0 + 10 * FILL) == []  # handled once


async def test_a_staked_table_never_forms_while_a_stake_is_moving(quiet):
    mm = matchmaker(quiet)
    a = await join(mm, STAKED2, 1, staking=True)
    b = await join(mm, STAKED2, 2, staking=True)
    assert b.status == "waiting"  # both seats taken, neither stake confirmed
    assert (await mm.confirm(a.table, 1, a.ticket)).status == "waiting"
    formed = await mm.confirm(b.table, 2, b.ticket)
    assert formed.status == "formed" and formed.members == [(1, a.ticket), (2, b.ticket)]


async def test_a_stake_that_arrives_after_its_seat_was_given_up_is_recognised_even_if_the_player_sat_again(quiet):
    mm = matchmaker(quiet)
    await join(mm, Queue("stakes", 3, "staked", 250), 2, staking=True)
    first = await join(mm, Queue("stakes", 3, "staked", 250), 1, staking=True)
    left = await mm.leave(1)
    assert left.pending and left.ticket == first.ticket
    second = await join(mm, Queue("stakes", 3, "staked", 250), 1, now=T0 + 1, staking=True)
    assert second.table == first.table and second.ticket != first.ticket
    late = await mm.confirm(first.table, 1, first.ticket)
    assert late.status == "refund"  # the first sitting-down's stake goes back
    assert (await mm.confirm(second.table, 1, second.ticket)).status == "waiting"
    # A stake that could not be made gives up exactly its own seat.
    assert (await mm.leave(1, ticket=first.ticket)).status == "other_ticket"
    assert (await mm.leave(1, ticket=second.ticket)).status == "left"


async def test_a_full_table_whose_player_leaves_opens_again(quiet):
    mm = matchmaker(quiet)
    a = await join(mm, STAKED2, 1, staking=True)
    await join(mm, STAKED2, 2, staking=True)  # full, stakes moving
    await mm.leave(2)
    c = await join(mm, STAKED2, 3, staking=True)
    assert c.table == a.table and c.user_ids == [1, 3]


async def test_many_players_queueing_at_once_are_each_seated_once_at_tables_of_the_right_size(quiet):
    mm = matchmaker(quiet)
    queues = [Queue("pika", 2, "online"), Queue("pika", 4, "online"), Queue("kapern", 3, "online"),
              Queue("stakes", 5, "online")]
    rng = random.Random(7)
    players = list(range(1, 301))
    wanted = {user: rng.choice(queues) for user in players}

    leaves = {user: rng.random() < 0.2 for user in players}
    # At most 50 commands in flight: redis-py's async pool refuses (not waits) past 100 connections.
    gate = asyncio.Semaphore(50)

    async def one(user: int):
        async with gate:
            step = await join(mm, wanted[user], user, now=T0 + user)
        if leaves[user]:
            async with gate:
                return step, await mm.leave(user)
        return step, None

    results = await asyncio.gather(*(one(user) for user in players))
    formed = [step for step, _ in results if step.status == "formed"]
    formed += [step for step in await mm.due(T0 + 10 * FILL) if step.status == "formed"]
    seated = Counter(user for step in formed for user in step.user_ids)
    assert all(count == 1 for count in seated.values()), "somebody was seated twice"
    tables = Counter(step.table for step in formed)
    assert all(count == 1 for count in tables.values())
    for step in formed:
        assert step.queue is not None and len(step.user_ids) <= step.queue.seats
        assert all(wanted[user] == step.queue for user in step.user_ids)
    left = {user for (_, gone), user in zip(results, players) if gone is not None and gone.status == "left"}
    assert set(seated) | left == set(players)  # everyone was either seated (once) or had left
    assert not set(seated) & left
    full = [step for step, _ in results if step.status == "formed"]
    assert full and all(len(step.user_ids) == step.queue.seats for step in full)
