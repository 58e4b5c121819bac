"""Rematch from the results (issue 19), over a live server and real sockets: friends, online and staked tables, two
people agreeing at the same moment, someone declining meanwhile, and the stakes of a staked rematch."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from app.client import ClientError, TablestakesClient
from app.realtime.protocol import RematchData
from app.rooms.models import Room
from app.tables.models import GameRecord, LiveTable
from tests.online.online_support import assert_ledger_consistent, balance_of, pot_of
from tests.support.waiting import eventually
from tests.online.test_online_live import easy_bot, live_settings, matched, online, queue  # noqa: F401 (fixtures)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def rematch(client: TablestakesClient, table_id: str, agree: bool | None = True) -> dict:
    reply = await client.request({"type": "rematch", "table": table_id, "agree": agree})
    return RematchData.model_validate(reply["rematch"]).model_dump()


def notices(client: TablestakesClient, event: str) -> list[dict]:
    return [n["data"] for n in client.notices if n["type"] == "rematch" and n["data"]["event"] == event]


async def notice(client: TablestakesClient, event: str) -> dict:
    await client.wait_for(lambda: bool(notices(client, event)))
    return notices(client, event)[-1]


async def play(table_id: str, *clients: TablestakesClient, game: str = "stakes") -> None:
    for client in clients:
        await client.join(table_id)
    await asyncio.gather(*(c.play(table_id, easy_bot(game, c.tables[table_id].seat, n))
                           for n, c in enumerate(clients)))


async def friends_game(a: TablestakesClient, b: TablestakesClient, *, bot: bool = False) -> str:
    room = await a.post("/api/rooms", {"game": "stakes", "seats": 3 if bot else 2})
    await a.post(f"/api/rooms/{room['id']}/invitations", {"username": b.user["username"]})
    invitation = (await b.get("/api/invitations"))["invitations"][0]
    await b.post(f"/api/invitations/{invitation['id']}/accept")
    if bot:
        await a.post(f"/api/rooms/{room['id']}/bots", {"level": "easy"})
    table_id = (await a.post(f"/api/rooms/{room['id']}/start"))["table_id"]
    await play(table_id, a, b)
    return table_id


async def live_tables(online) -> int:
    async with online.server.runtime.sessionmaker() as session:
        return await session.scalar(select(func.count()).select_from(LiveTable))


async def seat_names(online, table_id: str) -> list[str]:
    async with online.server.runtime.sessionmaker() as session:
        row = await session.get(LiveTable, table_id)
        return [seat["name"] for seat in row.table["seats"]]


async def test_two_friends_agree_and_get_one_new_table_with_the_same_seats(online):
    ada, bob = await online.player("ada"), await online.player("bob")
    old = await friends_game(ada, bob, bot=True)
    first = await rematch(ada, old)
    assert first["event"] == "waiting" and first["agreed"] == ["ada"] and first["waiting_for"] == ["bob"]
    assert (await notice(bob, "waiting"))["agreed"] == ["ada"]
    second = await rematch(bob, old)
    assert second["event"] == "started"
    new = second["table_id"]
    assert (await notice(ada, "started"))["table_id"] == new
    assert await seat_names(online, new) == await seat_names(online, old)
    async with online.server.runtime.sessionmaker() as session:
        rooms = list(await session.scalars(select(Room).where(Room.table_id == new)))
        first_room = (await session.scalars(select(Room).where(Room.table_id == old))).one()
    assert len(rooms) == 1 and rooms[0].status == "started"
    # the old room's host, options and turn time (carried by the table) are the new room's
    assert (rooms[0].host_id, rooms[0].options, rooms[0].turn_seconds) == (
        first_room.host_id, first_room.options, first_room.turn_seconds)
    await play(new, ada, bob)  # and the rematch is played to the end like any friends game
    async with online.server.runtime.sessionmaker() as session:
        assert (await session.get(GameRecord, new)).mode == "friends"


async def test_two_agreeing_at_the_same_moment_start_exactly_one_table(online):
    ada, bob = await online.player("ada"), await online.player("bob")
    old = await friends_game(ada, bob)
    before = await live_tables(online)
    answers = await asyncio.gather(rematch(ada, old), rematch(bob, old))
    started = [await notice(c, "started") for c in (ada, bob)]
    assert len({s["table_id"] for s in started}) == 1
    assert {a["table_id"] for a in answers if a["table_id"]} <= {started[0]["table_id"]}
    assert await live_tables(online) == before + 1
    # Asking again changes nothing.
    assert (await rematch(ada, old))["table_id"] == started[0]["table_id"]
    assert await live_tables(online) == before + 1


async def test_a_friend_who_declines_drops_the_seat_and_too_few_seats_mean_no_rematch(online):
    ada, bob = await online.player("ada"), await online.player("bob")
    old = await friends_game(ada, bob)
    before = await live_tables(online)
    await rematch(ada, old)
    answer = await rematch(bob, old, agree=False)
    assert answer["event"] == "cancelled" and answer["reason"] == "not_enough_players"
    assert (await notice(ada, "cancelled"))["declined"] == ["bob"]
    assert await live_tables(online) == before
    with pytest.raises(Exception) as refused:
        await rematch(bob, old)
    assert getattr(refused.value, "code", None) in ("rematch_declined", "rematch_closed")


async def test_who_agreed_may_take_it_back_and_who_declined_may_not_agree_again(online):
    ada, bob = await online.player("ada"), await online.player("bob")
    old = await friends_game(ada, bob)
    assert (await rematch(ada, old))["agreed"] == ["ada"]
    withdrawn = await rematch(ada, old, agree=False)  # still waiting for bob: ada's no replaces her yes
    assert withdrawn["event"] == "waiting" and withdrawn["agreed"] == [] and withdrawn["declined"] == ["ada"]
    assert withdrawn["waiting_for"] == ["bob"]
    with pytest.raises(Exception) as refused:
        await rematch(ada, old)
    assert getattr(refused.value, "code", None) == "rematch_declined"
    closed = await rematch(bob, old)  # everyone has answered now: bob alone is too few for a table
    assert closed["event"] == "cancelled" and closed["reason"] == "not_enough_players"
    assert closed["agreed"] == ["bob"] and closed["declined"] == ["ada"] and closed["waiting_for"] == []


async def test_one_leaving_while_two_agree_at_the_same_moment_gives_one_table_without_the_leaver(online):
    ada, bob, cy = await online.player("ada"), await online.player("bob"), await online.player("cyd")
    room = await ada.post("/api/rooms", {"game": "stakes", "seats": 3})
    for guest in (bob, cy):
        await ada.post(f"/api/rooms/{room['id']}/invitations", {"username": guest.user["username"]})
        invitation = (await guest.get("/api/invitations"))["invitations"][0]
        await guest.post(f"/api/invitations/{invitation['id']}/accept")
    old = (await ada.post(f"/api/rooms/{room['id']}/start"))["table_id"]
    await play(old, ada, bob, cy)
    before = await live_tables(online)
    await asyncio.gather(rematch(ada, old), rematch(cy, old, agree=False), rematch(bob, old))
    started = [await notice(c, "started") for c in (ada, bob)]
    assert len({s["table_id"] for s in started}) == 1
    new = started[0]["table_id"]
    assert await live_tables(online) == before + 1
    assert await seat_names(online, new) == ["ada", "bob"]
    told = await notice(cy, "started")  # the leaver hears of it, as one who declined (its page stays put)
    assert told["agreed"] == ["ada", "bob"] and told["declined"] == ["cyd"]


async def test_an_online_rematch_fills_the_seat_of_who_did_not_answer_with_a_simulated_player(online):
    ada, bob = await online.player("ada"), await online.player("bob")
    await queue(ada, "stakes", 2)
    await queue(bob, "stakes", 2)
    old = (await matched(ada))["table_id"]
    await play(old, ada, bob)
    await rematch(ada, old)
    online.clock.advance(timedelta(seconds=online.server.runtime.settings.rematch_wait_seconds + 1))
    new = (await notice(ada, "started"))["table_id"]
    assert (await notice(bob, "started"))["table_id"] == new
    async with online.server.runtime.sessionmaker() as session:
        row = await session.get(LiveTable, new)
    seats = row.table["seats"]
    assert row.mode == "online" and row.table["meta"]["bot_filled"] is True
    assert sorted(seat["kind"] for seat in seats) == ["bot", "human"]
    assert [seat["user_id"] for seat in seats if seat["kind"] == "human"] == [ada.user["id"]]


async def matchmade_game(online, mode: str = "staked", stake: int | None = 100
                         ) -> tuple[TablestakesClient, TablestakesClient, str]:
    """Ada and Bob matched at a two-seat Stakes table of `mode`, played to its end."""
    ada, bob = await online.player("ada", played=True), await online.player("bob", played=True)
    await queue(ada, "stakes", 2, mode, stake)
    await queue(bob, "stakes", 2, mode, stake)
    old = (await matched(ada))["table_id"]
    await play(old, ada, bob)
    return ada, bob, old


async def staked_game(online) -> tuple[TablestakesClient, TablestakesClient, str]:
    return await matchmade_game(online)


async def test_a_staked_rematch_takes_the_stake_again_from_those_who_agree(online):
    ada, bob, old = await staked_game(online)
    runtime = online.server.runtime
    before = {c.user["id"]: await balance_of(runtime, c.user["id"]) for c in (ada, bob)}
    waiting = await rematch(ada, old)
    assert waiting["event"] == "waiting"
    assert await balance_of(runtime, ada.user["id"]) == before[ada.user["id"]] - 100  # taken as ada agrees
    assert await balance_of(runtime, bob.user["id"]) == before[bob.user["id"]]
    started = await rematch(bob, old)
    new = started["table_id"]
    assert await pot_of(runtime, new) == 200
    for client in (ada, bob):
        assert await balance_of(runtime, client.user["id"]) == before[client.user["id"]] - 100
    await assert_ledger_consistent(runtime)


async def test_answering_again_once_a_staked_rematch_started_leaves_its_pot_alone(online):
    """A second answer (a double click, or a player trying to take their stake back from a game they are losing)
    after the rematch started changes nothing: the stakes stay in the pot and the game is paid as usual."""
    ada, bob, old = await staked_game(online)
    runtime = online.server.runtime
    await rematch(ada, old)
    new = (await rematch(bob, old))["table_id"]
    staked = {c.user["id"]: await balance_of(runtime, c.user["id"]) for c in (ada, bob)}
    for client, agree in ((ada, False), (ada, True), (bob, False), (ada, None)):
        again = await rematch(client, old, agree=agree)
        assert (again["event"], again["table_id"]) == ("started", new), (client.user["username"], agree, again)
    assert await pot_of(runtime, new) == 200
    assert {c.user["id"]: await balance_of(runtime, c.user["id"]) for c in (ada, bob)} == staked
    await play(new, ada, bob)

    async def settled() -> bool:
        async with runtime.sessionmaker() as session:
            return await session.get(GameRecord, new) is not None

    await eventually(settled)
    assert await pot_of(runtime, new) == 0
    paid = {c.user["id"]: await balance_of(runtime, c.user["id"]) for c in (ada, bob)}
    assert sum(paid.values()) == sum(staked.values()) + 200  # the whole pot went to the winners
    await assert_ledger_consistent(runtime)


async def test_a_staked_rematch_declined_refunds_the_stake_of_who_agreed(online):
    ada, bob, old = await staked_game(online)
    runtime = online.server.runtime
    before = {c.user["id"]: await balance_of(runtime, c.user["id"]) for c in (ada, bob)}
    waiting = await rematch(ada, old)
    assert await balance_of(runtime, ada.user["id"]) == before[ada.user["id"]] - 100
    cancelled = await rematch(bob, old, agree=False)
    assert cancelled["event"] == "cancelled" and cancelled["reason"] == "not_enough_players"
    assert waiting["table_id"] is None
    for client in (ada, bob):
        assert await balance_of(runtime, client.user["id"]) == before[client.user["id"]]
    await assert_ledger_consistent(runtime)


async def test_a_staked_rematch_nobody_answers_in_time_refunds_every_stake(online):
    ada, bob, old = await staked_game(online)
    runtime = online.server.runtime
    before = await balance_of(runtime, ada.user["id"])
    await rematch(ada, old)
    online.clock.advance(timedelta(seconds=runtime.settings.rematch_wait_seconds + 1))
    assert (await notice(ada, "cancelled"))["reason"] == "not_enough_players"
    assert await balance_of(runtime, ada.user["id"]) == before
    await assert_ledger_consistent(runtime)


async def test_the_copy_kept_from_the_table_is_what_the_record_says_and_a_forgotten_one_is_read_back(online):
    ada, bob = await online.player("ada"), await online.player("bob")
    old = await friends_game(ada, bob, bot=True)
    service = online.server.app.state.realtime.rematch
    assert old in service._finished_kept  # before anyone answered
    kept = await service._finished(old)  # kept when the record was committed, from the table itself
    assert kept == await service._read_finished(old)  # the same as the database's record says
    service._finished_kept.clear()  # as on a node where the game did not finish, or after a restart
    assert (await rematch(ada, old))["agreed"] == ["ada"]
    assert (await rematch(bob, old))["event"] == "started"


async def test_a_table_whose_meta_does_not_name_its_room_host_gets_its_rematch_room_from_the_room(online):
    # Tables made before their meta carried the room's host and options: the rematch reads the room instead.
    ada, bob = await online.player("ada"), await online.player("bob")
    old = await friends_game(ada, bob)
    service = online.server.app.state.realtime.rematch
    kept = await service._finished(old)
    del kept.meta["host"], kept.meta["room_options"]
    async with online.server.runtime.transaction() as session:  # what only the room says, not the table
        await session.execute(update(Room).where(Room.table_id == old).values(turn_seconds=50))
    assert (await rematch(bob, old))["agreed"] == ["bob"]
    new = (await rematch(ada, old))["table_id"]
    async with online.server.runtime.sessionmaker() as session:
        new_room = (await session.scalars(select(Room).where(Room.table_id == new))).one()
    assert (new_room.host_id, new_room.turn_seconds) == (ada.user["id"], 50)


async def test_who_waits_in_a_queue_cannot_agree_to_an_online_rematch_one_matchmade_table_at_a_time(online):
    ada, bob, old = await matchmade_game(online, "online", None)
    await queue(ada, "pika", 3, "online", None)  # ada looks for another game meanwhile
    with pytest.raises(ClientError) as refused:
        await rematch(ada, old)
    assert refused.value.code == "already_queued"
    await ada.request({"type": "unqueue"})
    assert (await rematch(ada, old))["event"] == "waiting"  # out of the queue, she may


async def test_who_agreed_then_queued_elsewhere_is_left_out_of_the_online_rematch_when_it_starts(online):
    ada, bob, old = await matchmade_game(online, "online", None)
    assert (await rematch(ada, old))["event"] == "waiting"
    await queue(ada, "pika", 3, "online", None)  # then she looks for another game before bob answers
    started = await rematch(bob, old)
    assert started["event"] == "started" and started["agreed"] == ["bob"] and started["declined"] == ["ada"]
    async with online.server.runtime.sessionmaker() as session:
        row = await session.get(LiveTable, started["table_id"])
    assert [seat["user_id"] for seat in row.table["seats"] if seat["kind"] == "human"] == [bob.user["id"]]
    assert (await ada.get("/api/matchmaking"))["status"] == "waiting"  # still in her queue
    assert (await rematch(ada, old))["declined"] == ["ada"]  # and that is what the rematch says afterwards


async def test_who_agreed_to_a_staked_rematch_then_queued_elsewhere_gets_the_stake_back(online):
    ada, bob, old = await staked_game(online)
    runtime = online.server.runtime
    before = {c.user["id"]: await balance_of(runtime, c.user["id"]) for c in (ada, bob)}
    await rematch(ada, old)
    assert await balance_of(runtime, ada.user["id"]) == before[ada.user["id"]] - 100
    await queue(ada, "pika", 3, "online", None)
    cancelled = await rematch(bob, old)
    assert cancelled["event"] == "cancelled" and cancelled["reason"] == "not_enough_players"
    assert cancelled["declined"] == ["ada"]
    for client in (ada, bob):
        assert await balance_of(runtime, client.user["id"]) == before[client.user["id"]]
    await assert_ledger_consistent(runtime)
