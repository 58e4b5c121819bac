"""Matchmaking as the players live it, on every backend: live tables formed and filled, stakes moving into pots and
back, the fill time on the app's injectable clock."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import update

from app.core.errors import AppError
from app.games.registry import get_game
from app.ledger.service import InsufficientFunds
from app.online.matchmaking import AlreadyQueued, AlreadySeated, BadQueue
from app.realtime.protocol import MatchmakingData
from app.tables.models import ClusterNode, LiveTable
from app.tables.ownership import db_now
from tests.online.online_support import (Inbox, TableRecorder, assert_ledger_consistent, balance_of, pot_of)
from app.runtime import open_runtime
from tests.support.harness import open_harness, reach_staked_level, wipe


async def people(quiet, *names: str) -> list[tuple[object, Inbox]]:
    """Users with a socket stand-in each (to hear their matchmaking notices)."""
    hub = quiet.app.state.realtime.hub
    out = []
    for name in names:
        user = await quiet.create_user(name)
        await reach_staked_level(quiet.runtime, user.id)  # players who have played: staked tables are open to them
        inbox = Inbox(user.id)
        await hub.register(inbox)
        out.append((user, inbox))
    return out


def notices_are_protocol_shaped(*inboxes: Inbox) -> None:
    for inbox in inboxes:
        for message in inbox.messages:
            MatchmakingData.model_validate(message["data"])


async def test_an_online_table_forms_when_full_as_a_live_table_of_those_players(quiet, online):
    (ada, a), (bob, b), (cy, c) = await people(quiet, "ada", "bob", "cy")
    mm = online.matchmaking
    queue = mm.queue_for("pika", 3, "online", None)
    first = await mm.queue(ada.id, queue, connection=a.id)
    assert (first["event"], first["players"], first["seats"]) == ("waiting", 1, 3)
    assert first["fill_ends_at"] - first["now"] == pytest.approx(20.0)
    await mm.queue(bob.id, queue, connection=b.id)
    assert a.last("waiting")["players"] == 2  # everyone waiting hears who sits down
    matched = await mm.queue(cy.id, queue, connection=c.id)
    assert matched["event"] == "matched"
    table = quiet.app.state.realtime.tables.get(matched["table_id"])
    assert table is not None and table.mode == "online" and not table.meta["bot_filled"]
    assert sorted(seat.user_id for seat in table.seats) == sorted([ada.id, bob.id, cy.id])
    for user, inbox in ((ada, a), (bob, b), (cy, c)):
        data = inbox.last("matched")
        assert data["table_id"] == table.id and table.seats[data["seat"]].user_id == user.id
        assert await mm.status(user.id) == {"status": "playing", "table_id": table.id}
    # Nobody at two tables at once: a seated player cannot queue again until the game is over.
    with pytest.raises(AlreadySeated):
        await mm.queue(ada.id, queue)
    notices_are_protocol_shaped(a, b, c)


async def test_after_the_fill_time_simulated_players_take_the_empty_seats(quiet, online):
    (ada, a), = await people(quiet, "ada")
    mm = online.matchmaking
    await mm.queue(ada.id, mm.queue_for("kapern", 4, "online", None), connection=a.id)
    quiet.clock.advance(seconds=19.9)
    assert await online.tick() == 0
    assert (await mm.status(ada.id))["status"] == "waiting"
    quiet.clock.advance(seconds=0.2)
    assert await online.tick() == 1
    data = a.last("matched")
    assert data["bot_filled"] is True
    table = quiet.app.state.realtime.tables.get(data["table_id"])
    assert table.meta["bot_filled"] is True
    assert [seat.kind for seat in table.seats].count("bot") == 3
    assert all("simulated" in seat.name for seat in table.seats if seat.is_bot)
    assert table.seats[data["seat"]].user_id == ada.id


async def test_a_staked_table_takes_each_stake_as_the_player_sits_and_is_cancelled_with_every_stake_back(quiet,
                                                                                                       online):
    (ada, a), (bob, b) = await people(quiet, "ada", "bob")
    mm = online.matchmaking
    queue = mm.queue_for("stakes", 3, "staked", 250)
    waiting = await mm.queue(ada.id, queue, connection=a.id)
    assert waiting["fill_ends_at"] - waiting["now"] == pytest.approx(60.0)
    await mm.queue(bob.id, queue, connection=b.id)
    assert [await balance_of(quiet.runtime, u.id) for u in (ada, bob)] == [750, 750]
    table_id = (await mm.matchmaker.where(ada.id))[0]
    assert await pot_of(quiet.runtime, table_id) == 500
    quiet.clock.advance(seconds=60.5)
    await online.tick()
    assert [await balance_of(quiet.runtime, u.id) for u in (ada, bob)] == [1000, 1000]
    assert await pot_of(quiet.runtime, table_id) == 0
    for inbox in (a, b):
        assert inbox.last("cancelled") | {"queue": None} == {"event": "cancelled", "queue": None,
                                                             "reason": "fill_time", "refunded": 250}
    assert await mm.status(ada.id) == {"status": "idle"}
    # Running the cancellation's refunds again changes nothing.
    async with quiet.runtime.transaction() as session:
        assert await online.stakes.refund_table(session, table_id, "Stakes") == []
    assert await balance_of(quiet.runtime, ada.id) == 1000
    await assert_ledger_consistent(quiet.runtime)
    notices_are_protocol_shaped(a, b)


async def test_a_full_staked_table_starts_with_the_whole_pot_and_only_real_people(quiet, online):
    (ada, a), (bob, b) = await people(quiet, "ada", "bob")
    mm = online.matchmaking
    queue = mm.queue_for("pika", 2, "staked", 100)
    await mm.queue(ada.id, queue, connection=a.id)
    matched = await mm.queue(bob.id, queue, connection=b.id)
    table = quiet.app.state.realtime.tables.get(matched["table_id"])
    assert table.mode == "staked" and table.meta["stake"] == 100 and not table.meta["bot_filled"]
    assert all(seat.kind == "human" for seat in table.seats)
    assert await pot_of(quiet.runtime, table.id) == 200
    assert [await balance_of(quiet.runtime, u.id) for u in (ada, bob)] == [900, 900]
    # The fill time passing later changes nothing for a table already formed.
    quiet.clock.advance(seconds=120)
    assert await online.tick() == 0
    assert await pot_of(quiet.runtime, table.id) == 200


async def test_nobody_sits_at_a_staked_table_without_the_coins(quiet, online):
    (ada, a), = await people(quiet, "ada")
    mm = online.matchmaking
    async with quiet.runtime.transaction() as session:
        await online.shop.buy(session, ada.id, "booster")
    with pytest.raises(InsufficientFunds):
        await mm.queue(ada.id, mm.queue_for("pika", 2, "staked", 1000), connection=a.id)
    assert await mm.status(ada.id) == {"status": "idle"}
    assert await balance_of(quiet.runtime, ada.id) == 700
    assert a.messages == []


async def test_a_stake_refused_by_the_ledger_gives_the_seat_up(quiet, online):
    """The balance check passes, then the coins are gone by the time the stake moves (spent elsewhere)."""
    (ada, a), (bob, b) = await people(quiet, "ada", "bob")
    mm = online.matchmaking
    queue = mm.queue_for("pika", 3, "staked", 1000)
    await mm.queue(bob.id, queue, connection=b.id)
    real_check = mm._check_funds

    async def spent_meanwhile(user_id: int, stake: int) -> None:
        await real_check(user_id, stake)
        async with quiet.runtime.transaction() as session:
            wallet = await quiet.runtime.ledger.wallet_id(session, user_id)
            await quiet.runtime.ledger.debit(session, wallet, 10, key="spent", reason="elsewhere")

    mm._check_funds = spent_meanwhile
    with pytest.raises(InsufficientFunds):
        await mm.queue(ada.id, queue, connection=a.id)
    assert await mm.status(ada.id) == {"status": "idle"}
    assert b.last("waiting")["players"] == 1
    await assert_ledger_consistent(quiet.runtime)


async def test_leaving_the_queue_returns_the_stake_and_only_the_socket_that_queued_leaves_on_close(quiet, online):
    (ada, a), (bob, b) = await people(quiet, "ada", "bob")
    mm = online.matchmaking
    queue = mm.queue_for("pika", 3, "staked", 500)
    await mm.queue(ada.id, queue, connection="phone")
    await mm.queue(bob.id, queue, connection=b.id)
    assert await mm.unqueue(ada.id, connection="laptop") == {"event": "idle"}  # another socket closing
    assert await balance_of(quiet.runtime, ada.id) == 500
    left = await mm.unqueue(ada.id, connection="phone")
    assert left["event"] == "left" and left["refunded"] == 500
    assert await balance_of(quiet.runtime, ada.id) == 1000
    assert b.last("waiting")["players"] == 1
    assert await mm.unqueue(ada.id) == {"event": "idle"}
    assert await balance_of(quiet.runtime, ada.id) == 1000
    with pytest.raises(AlreadyQueued):
        await mm.queue(bob.id, mm.queue_for("pika", 2, "online", None))


async def test_a_stake_that_arrives_after_the_table_was_cancelled_comes_straight_back(quiet, online):
    (ada, a), = await people(quiet, "ada")
    mm = online.matchmaking
    queue = mm.queue_for("pika", 2, "staked", 250)
    real_stake = online.stakes.stake

    async def slow_stake(session, table_id, user_id, ticket, amount, title):
        quiet.clock.advance(seconds=61)  # the fill time runs out while the coins move...
        assert await online.tick() == 1  # ...and the table is cancelled before this stake is confirmed
        await real_stake(session, table_id, user_id, ticket, amount, title)

    online.stakes.stake = slow_stake
    data = await mm.queue(ada.id, queue, connection=a.id)
    assert data["event"] == "cancelled" and data["refunded"] == 250
    assert await balance_of(quiet.runtime, ada.id) == 1000
    await assert_ledger_consistent(quiet.runtime)


async def test_a_staked_table_that_cannot_be_created_refunds_every_stake(quiet, online):
    (ada, a), (bob, b) = await people(quiet, "ada", "bob")
    mm = online.matchmaking
    mm.create_table = TableRecorder(fail=True)
    queue = mm.queue_for("pika", 2, "staked", 100)
    await mm.queue(ada.id, queue, connection=a.id)
    data = await mm.queue(bob.id, queue, connection=b.id)
    assert data["event"] == "cancelled" and data["reason"] == "error"
    assert [await balance_of(quiet.runtime, u.id) for u in (ada, bob)] == [1000, 1000]
    assert a.last("cancelled")["refunded"] == 100
    assert await mm.status(ada.id) == {"status": "idle"}  # free to queue again
    await assert_ledger_consistent(quiet.runtime)


async def test_stranded_pots_are_refunded_once_still_and_staked_tables_that_cannot_resume_are_cancelled(
        quiet, online):
    (ada, _), (bob, _) = await people(quiet, "ada", "bob")
    # A crash between a stake and its table: coins in a pot, no table, no queue.
    async with quiet.runtime.transaction() as session:
        await online.stakes.stake(session, "lost-table", ada.id, 1, 250, "Pika")
    assert await online.matchmaking.refund_stranded() == 0  # still fresh: maybe a table being created
    quiet.clock.advance(seconds=301)
    assert await online.matchmaking.refund_stranded() == 1
    assert await balance_of(quiet.runtime, ada.id) == 1000
    # A staked table saved as playing whose owner is gone and that cannot be resumed: the node adopting it cancels
    # it and refunds the stakes, once. A table of a live node is never touched, whatever its pot holds.
    manager = quiet.app.state.realtime.tables
    async with quiet.runtime.transaction() as session:
        await online.stakes.stake(session, "stuck-table", bob.id, 1, 100, "Pika")
        await online.stakes.stake(session, "busy-table", ada.id, 1, 100, "Pika")
        now = quiet.clock.now()
        session.add(LiveTable(id="stuck-table", game="pika", mode="staked", status="playing", version=1, state={},
                              table={}, seed="00", created_at=now, updated_at=now, owner=None))
        session.add(ClusterNode(id="elsewhere-1", name="elsewhere", host="elsewhere", pid=1, started_at=now,
                                heartbeat=0.0, stopped=False))
        session.add(LiveTable(id="busy-table", game="pika", mode="staked", status="playing", version=1, state={},
                              table={}, seed="00", created_at=now, updated_at=now, owner="elsewhere-1"))
        await session.flush()
        await session.execute(update(ClusterNode).where(ClusterNode.id == "elsewhere-1")
                              .values(heartbeat=db_now(session)))
    assert await manager.adopt_orphans() == 0
    assert await balance_of(quiet.runtime, bob.id) == 1000
    async with quiet.runtime.sessionmaker() as session:
        assert (await session.get(LiveTable, "stuck-table")).status == "cancelled"
        busy = await session.get(LiveTable, "busy-table")
        assert busy.status == "playing" and busy.owner == "elsewhere-1" and busy.owner_epoch == 0
    quiet.clock.advance(seconds=301)
    assert await online.matchmaking.refund_stranded() == 0  # a started table is its owner's to settle
    assert await manager.adopt_orphans() == 0
    assert await balance_of(quiet.runtime, ada.id) == 900
    await assert_ledger_consistent(quiet.runtime)


async def test_a_stranded_pot_s_refunds_name_the_game_it_was_staked_on(quiet, online):
    (ada, _), (bob, _) = await people(quiet, "ada", "bob")
    title = get_game("kapern").title
    async with quiet.runtime.transaction() as session:  # a crash between the stakes and their table
        await online.stakes.stake(session, "lost-kapern", ada.id, 1, 100, title)
        await online.stakes.stake(session, "lost-kapern", bob.id, 1, 250, title)
    quiet.clock.advance(seconds=301)
    assert await online.matchmaking.refund_stranded() == 1
    ledger = quiet.runtime.ledger
    async with quiet.runtime.reader() as session:
        for user in (ada, bob):
            newest = (await ledger.history(session, await ledger.wallet_id(session, user.id), limit=1)).items[0]
            assert newest.reason == "Piraten Kapern staked table: stake refunded"
    await assert_ledger_consistent(quiet.runtime)


async def test_a_restart_of_the_embedded_set_up_refunds_lost_queue_seats_at_once(quiet_settings, backend):
    """kill -9 of the embedded server loses its in-process Redis, so a staked queue seat (or a pending rematch) is
    gone with it while its stake sits in the pot: the restarted process refunds it as it starts, saying why, instead
    of after the stranded wait. With a real Redis, other nodes may be forming that table: the wait stays."""
    if backend == "services":
        async with open_runtime(quiet_settings) as runtime:
            await wipe(runtime)
    async with open_harness(quiet_settings, clean=backend == "services") as before:
        ada = await before.create_user("ada")
        async with before.runtime.transaction() as session:  # a queue seat's stake, then the process dies
            await before.app.state.online.stakes.stake(session, "lost-queue", ada.id, 1, 250, "Pika")
    async with open_harness(quiet_settings) as after:
        ledger = after.runtime.ledger
        async with after.runtime.reader() as session:
            newest = (await ledger.history(session, await ledger.wallet_id(session, ada.id), limit=1)).items[0]
        if backend == "embedded":
            assert await balance_of(after.runtime, ada.id) == 1000
            assert newest.reason == "Pika staked table: stake refunded (the server restarted before the table started)"
        else:
            assert await balance_of(after.runtime, ada.id) == 750
            after.clock.advance(seconds=301)
            assert await after.app.state.online.matchmaking.refund_stranded() == 1
            assert await balance_of(after.runtime, ada.id) == 1000
        await assert_ledger_consistent(after.runtime)


@pytest.mark.parametrize("request_, code", [
    (("chess", 2, "online", None), "unknown_game"),
    (("pika", 6, "online", None), "bad_seat_count"),
    (("pika", 2, "online", 100), "stake_not_allowed"),
    (("pika", 2, "staked", 120), "unknown_stake"),
    (("pika", 2, "staked", None), "unknown_stake"),
    (("pika", 2, "staked", 0), "unknown_stake"),
    (("pika", 2, "staked", -100), "unknown_stake"),
    (("pika", 2, "online", -100), "stake_not_allowed"),
    (("pika", 2, "ranked", None), "unknown_mode"),
])
async def test_queue_requests_are_checked(quiet, online, request_, code):
    with pytest.raises(BadQueue) as refused:
        online.matchmaking.queue_for(*request_)
    assert refused.value.code == code and isinstance(refused.value, AppError)


async def test_an_online_queue_with_a_stake_of_zero_is_an_online_queue(quiet, online):
    assert online.matchmaking.queue_for("pika", 2, "online", 0) == online.matchmaking.queue_for("pika", 2, "online",
                                                                                                   None)


async def test_players_queueing_at_once_through_the_service_are_seated_once(quiet, online):
    mm = online.matchmaking
    recorder = TableRecorder()
    mm.create_table = recorder
    users = [u for u, _ in await people(quiet, *[f"p{n}" for n in range(12)])]
    queue = mm.queue_for("pika", 3, "staked", 100)
    await asyncio.gather(*(mm.queue(user.id, queue, connection=f"s{user.id}") for user in users))
    assert len(recorder.tables) == 4
    seated = [seat.user_id for table in recorder.tables for seat in table.seats]
    assert sorted(seated) == sorted(user.id for user in users)
    for table in recorder.tables:
        assert len(table.seats) == 3 and await pot_of(quiet.runtime, table.id) == 300
    await assert_ledger_consistent(quiet.runtime)
