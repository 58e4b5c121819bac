"""Online play end to end: a real uvicorn, real WebSocket clients queueing, matched tables played to the end, and the
fill time driven by the app's injectable clock."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from app.accounts.levels import xp_for_level
from app.client import TablestakesClient, bot_chooser
from app.core.clock import ManualClock
from app.games.registry import get_game
from app.online.queues import DEPARTING_KEY
from app.realtime.hub import presence_key
from app.realtime.protocol import MatchmakingData
from app.runtime import open_runtime
from app.tables.rewards import split_places
from tests.support import backends
from tests.support.harness import PASSWORD, reach_staked_level, wipe
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def live_settings(settings):
    return settings.model_copy(update={
        "bot_delay_min_seconds": 0.0, "bot_delay_max_seconds": 0.0, "disconnect_grace_seconds": 0.3,
        "snapshot_seconds": 0.0, "ws_messages_per_second": 1000.0, "matchmaking_tick_seconds": 0.02,
        "league_check_seconds": 1e9,
    })


class Online:
    """A live server on a manual clock, with helpers to make players."""

    def __init__(self, server, clock: ManualClock):
        self.server = server
        self.clock = clock
        self.clients: list[TablestakesClient] = []

    async def player(self, name: str, *, played: bool = False) -> TablestakesClient:
        """A new player; `played`: with the XP of the games that open staked tables (tests/support/harness.py)."""
        client = TablestakesClient(self.server.url)
        await client.register(name, PASSWORD)
        if played:
            await reach_staked_level(self.server.runtime, client.user["id"])
        await client.connect()
        self.clients.append(client)
        return client

    async def close(self) -> None:
        for client in self.clients:
            await client.close()


@pytest.fixture
async def online(live_settings, backend):
    if backend == "services":
        # The services database is shared by the run's tests: start clean, before the server would resume the
        # unfinished tables other tests left.
        async with open_runtime(live_settings) as runtime:
            await wipe(runtime)
    clock = ManualClock()
    async with live_server(live_settings, clock=clock) as server:
        room = Online(server, clock)
        try:
            yield room
        finally:
            await room.close()


def events(client: TablestakesClient, event: str) -> list[dict]:
    return [n["data"] for n in client.notices if n["type"] == "matchmaking" and n["data"]["event"] == event]


async def queue(client: TablestakesClient, game: str, seats: int, mode: str = "online", stake: int | None = None,
                **extra):
    reply = await client.request({"type": "queue", "game": game, "seats": seats, "mode": mode, "stake": stake,
                                  **extra})
    MatchmakingData.model_validate(reply["matchmaking"])
    return reply["matchmaking"]


async def matched(client: TablestakesClient) -> dict:
    await client.wait_for(lambda: bool(events(client, "matched")))
    return events(client, "matched")[-1]


def easy_bot(game: str, seat: int, seed: int = 0):
    return bot_chooser(get_game(game).bots["easy"](seat, random.Random(seed + seat)))


async def test_several_clients_matchmaking_at_once_are_seated_once_at_tables_of_the_right_size(online):
    pika = [await online.player(f"pika{n}") for n in range(5)]
    kapern = [await online.player(f"kapern{n}") for n in range(3)]
    await asyncio.gather(*(queue(c, "pika", 2) for c in pika), *(queue(c, "kapern", 3) for c in kapern))
    # Two pika pairs and the kapern three are matched (the notices reach the earlier arrivals on their own sockets);
    # one pika player still waits.
    await eventually(lambda: len([c for c in pika + kapern if events(c, "matched")]) == 7)
    (alone,) = [c for c in pika if not events(c, "matched")]
    assert (await alone.get("/api/matchmaking"))["status"] == "waiting"
    online.clock.advance(seconds=online.server.runtime.settings.online_fill_seconds + 0.1)
    filled = await matched(alone)
    assert filled["bot_filled"] is True and len(filled["players"]) == 2
    tables = online.server.realtime.tables
    seen: Counter = Counter()
    for client in pika + kapern:
        (notice,) = events(client, "matched")  # exactly one match each
        table = tables.get(notice["table_id"])
        assert table.seats[notice["seat"]].user_id == client.user["id"]
        assert len(table.seats) == (2 if client in pika else 3)
        seen[client.user["id"]] += sum(1 for t in tables.tables.values() if t.seat_of(client.user["id"]) is not None)
    assert set(seen.values()) == {1}  # nobody seated twice, nobody at two tables
    humans = Counter(t.id for t in tables.tables.values() for s in t.seats if not s.is_bot)
    assert sorted(humans.values()) == [1, 2, 2, 3]


async def test_a_staked_table_not_full_in_time_is_cancelled_with_every_stake_back(online):
    ada, bob = await online.player("ada", played=True), await online.player("bob", played=True)
    for client in (ada, bob):
        waiting = await queue(client, "stakes", 3, "staked", 250)
        assert waiting["event"] == "waiting"
    assert [(await c.get("/api/wallet"))["balance"] for c in (ada, bob)] == [750, 750]
    online.clock.advance(seconds=59)
    await online.server.app.state.online.tick()  # a tick at this moment of the clock: not yet the fill time
    assert not events(ada, "cancelled")
    online.clock.advance(seconds=1.5)
    for client in (ada, bob):
        await client.wait_for(lambda c=client: bool(events(c, "cancelled")))
        assert events(client, "cancelled")[-1]["refunded"] == 250
    assert [(await c.get("/api/wallet"))["balance"] for c in (ada, bob)] == [1000, 1000]
    assert (await ada.get("/api/matchmaking"))["status"] == "idle"


async def closed(online: Online, client: TablestakesClient) -> None:
    """Close the client's socket and wait until the server has scheduled the departure of its queued seat (before
    the test moves the clock)."""
    redis = online.server.runtime.redis
    before = await redis.zcard(DEPARTING_KEY)
    await client.disconnect()

    async def scheduled() -> bool:
        return await redis.zcard(DEPARTING_KEY) > before

    await eventually(scheduled)


async def test_a_closed_socket_keeps_the_queued_seat_for_the_grace_time_then_gives_it_up_with_the_stake(online):
    grace = online.server.runtime.settings.queue_grace_seconds
    ada = await online.player("ada", played=True)
    await queue(ada, "pika", 2, "staked", 500)
    assert (await ada.get("/api/wallet"))["balance"] == 500
    await closed(online, ada)
    online.clock.advance(seconds=grace - 1)
    await online.server.app.state.online.tick()  # a tick at this moment of the clock: the seat is still kept
    assert (await ada.get("/api/matchmaking"))["status"] == "waiting"
    assert (await ada.get("/api/wallet"))["balance"] == 500
    online.clock.advance(seconds=1.1)

    async def refunded() -> bool:
        return (await ada.get("/api/wallet"))["balance"] == 1000

    await eventually(refunded)
    assert (await ada.get("/api/matchmaking"))["status"] == "idle"
    # Too late to take the seat back: a rejoin says so and sits nobody down.
    await ada.connect()
    assert (await queue(ada, "pika", 2, "staked", 500, rejoin=True))["event"] == "idle"
    assert (await ada.get("/api/matchmaking"))["status"] == "idle"
    assert (await ada.get("/api/wallet"))["balance"] == 1000
    # Errors come back on the socket as readable refusals.
    await queue(ada, "pika", 2)
    with pytest.raises(Exception) as refused:
        await queue(ada, "kapern", 2)
    assert refused.value.code == "already_queued"
    left = await ada.request({"type": "unqueue"})
    assert left["matchmaking"]["event"] == "left"
    with pytest.raises(Exception) as refused:
        await queue(ada, "pika", 2, "staked", 123)
    assert refused.value.code == "unknown_stake"


async def test_back_within_the_grace_time_a_player_keeps_the_queued_seat_and_stake_and_is_matched(online):
    grace = online.server.runtime.settings.queue_grace_seconds
    ada, bob = await online.player("ada", played=True), await online.player("bob", played=True)
    first = await queue(ada, "pika", 2, "staked", 500)
    await closed(online, ada)  # a reload
    online.clock.advance(seconds=grace - 1)
    await ada.connect()
    assert (await ada.get("/api/matchmaking"))["status"] == "waiting"
    back = await queue(ada, "pika", 2, "staked", 500, rejoin=True)
    assert back["event"] == "waiting" and back["players"] == 1 and back["fill_ends_at"] == first["fill_ends_at"]
    assert (await ada.get("/api/wallet"))["balance"] == 500  # staked once
    online.clock.advance(seconds=5)  # past the first socket's grace time: the seat is the new socket's
    await online.server.app.state.online.tick()  # a tick at this moment of the clock gives nothing up
    assert (await ada.get("/api/matchmaking"))["status"] == "waiting"
    await queue(bob, "pika", 2, "staked", 500)
    table_id = (await matched(ada))["table_id"]  # told on the new socket
    assert (await matched(bob))["table_id"] == table_id
    table = online.server.realtime.tables.get(table_id)
    assert sorted(seat.name for seat in table.seats) == ["ada", "bob"]
    assert [(await c.get("/api/wallet"))["balance"] for c in (ada, bob)] == [500, 500]


async def test_a_staked_game_is_played_to_the_end_and_pays_the_pot_xp_and_league_points(online):
    ada, bob = await online.player("ada", played=True), await online.player("bob", played=True)
    await queue(ada, "pika", 2, "staked", 100)
    await queue(bob, "pika", 2, "staked", 100)
    table_id = (await matched(ada))["table_id"]
    assert (await matched(bob))["table_id"] == table_id
    for client in (ada, bob):
        await client.join(table_id)
    seats = {c.user["id"]: (await matched(c))["seat"] for c in (ada, bob)}
    results = await asyncio.gather(ada.play(table_id, easy_bot("pika", seats[ada.user["id"]], 1)),
                                   bob.play(table_id, easy_bot("pika", seats[bob.user["id"]], 2)))
    placings = results[0].info["outcome"]["placings"]
    winners = [seat for seat, place in enumerate(placings) if place == 1]
    points = split_places(placings, [12, 8, 4, 2, 1])
    for client in (ada, bob):
        seat = seats[client.user["id"]]
        pot_share = 200 // len(winners) if seat in winners else 0
        assert (await client.get("/api/wallet"))["balance"] == 900 + pot_share
        me = await client.get("/api/me")
        played_xp = xp_for_level(online.server.runtime.settings.staked_min_level)
        assert me["xp"] == played_xp + [30, 20][placings[seat] - 1] + 10
        league = await client.get("/api/league/pika")
        assert league["me"]["points"] == points[seat]  # a staked table counts in full
    assert (await ada.get("/api/matchmaking"))["status"] == "idle"  # free to queue again


async def test_a_bot_filled_online_game_is_played_to_the_end_with_boosted_prizes_xp_and_half_league_points(online):
    ada = await online.player("ada")
    assert (await ada.post("/api/shop/purchases", {"item": "booster"}))["balance"] == 700
    await queue(ada, "pika", 3)
    online.clock.advance(seconds=20.5)
    notice = await matched(ada)
    assert notice["bot_filled"]
    table_id, seat = notice["table_id"], notice["seat"]
    await ada.join(table_id)
    state = await ada.play(table_id, easy_bot("pika", seat, 3))
    placings = state.info["outcome"]["placings"]
    # Simulated players take places but are paid nothing, and nobody gets their prize.
    prize = split_places(placings, [80, 40, 20])[seat] * 2  # the gold booster doubles it
    rewards = state.info["rewards"]
    assert rewards[str(seat)]["coins"] == prize
    assert all(rewards[str(s)]["coins"] == 0 for s in range(3) if s != seat)
    assert (await ada.get("/api/wallet"))["balance"] == 700 + prize
    assert (await ada.get("/api/me"))["xp"] == [30, 20, 15][placings[seat] - 1] + 10
    league = await ada.get("/api/league/pika")
    assert league["me"]["points"] == split_places(placings, [12, 8, 4, 2, 1])[seat] // 2


async def test_a_new_account_s_staked_queue_is_refused_on_the_socket_with_its_own_code(online):
    fresh = await online.player("fresh")
    options = (await fresh.get("/api/matchmaking"))["options"]
    assert options["staked_min_level"] == 2
    with pytest.raises(Exception) as refused:
        await queue(fresh, "pika", 2, "staked", 100)
    assert refused.value.code == "staked_level_required"
    assert "level 2" in str(refused.value)
    assert (await fresh.get("/api/wallet"))["balance"] == 1000
    assert (await fresh.get("/api/matchmaking"))["status"] == "idle"
    assert (await queue(fresh, "pika", 2))["event"] == "waiting"  # online tables stay open


@pytest.mark.parametrize("backend", ["services"] if backends.SERVICES else [])  # a node that died needs a shared Redis
async def test_a_seat_queued_from_a_node_that_died_is_given_up_after_the_grace_time_with_the_stake(online):
    """A killed node never closes its sockets: another node's housekeeping finds the seats they held (presence says
    which node each socket was on) and gives each up after the grace time, the stake back, as for a closed socket."""
    runtime, matchmaking = online.server.runtime, online.server.app.state.online.matchmaking
    ada = await online.player("ada", played=True)
    bob = await online.player("bob", played=True)
    await queue(ada, "pika", 2, "staked", 500)
    await queue(bob, "stakes", 2, "staked", 500)  # bob's socket is on this node, alive: his seat stays
    waiting_at, _ = await matchmaking.matchmaker.where(ada.user["id"])
    # As if ada's seat were held by a socket of a node that was killed: its presence names that node.
    await runtime.redis.hset(f"{{mm}}:conn:{waiting_at}", str(ada.user["id"]), "socket-of-a-dead-node")
    await runtime.redis.hset(presence_key(ada.user["id"]), "socket-of-a-dead-node", "node-that-died:1")
    assert await matchmaking.release_seats_of_gone_nodes() == 1
    assert await matchmaking.release_seats_of_gone_nodes() == 1  # found again, its departure time kept
    grace = runtime.settings.queue_grace_seconds
    online.clock.advance(seconds=grace - 1)
    await online.server.app.state.online.tick()
    assert (await ada.get("/api/matchmaking"))["status"] == "waiting"
    online.clock.advance(seconds=1.1)
    await online.server.app.state.online.tick()

    async def refunded() -> bool:
        return (await ada.get("/api/wallet"))["balance"] == 1000

    await eventually(refunded)
    assert (await ada.get("/api/matchmaking"))["status"] == "idle"
    assert (await bob.get("/api/matchmaking"))["status"] == "waiting"
    assert (await bob.get("/api/wallet"))["balance"] == 500


@pytest.mark.parametrize("backend", ["services"] if backends.SERVICES else [])
async def test_a_seat_whose_socket_no_presence_knows_counts_as_gone_too(online):
    """A dead node's presence entries are forgotten by whoever reads presence first (the friends list): its
    sockets' seats must still be found."""
    runtime, matchmaking = online.server.runtime, online.server.app.state.online.matchmaking
    ada = await online.player("ada", played=True)
    await queue(ada, "pika", 2, "staked", 500)
    waiting_at, _ = await matchmaking.matchmaker.where(ada.user["id"])
    await runtime.redis.hset(f"{{mm}}:conn:{waiting_at}", str(ada.user["id"]), "socket-nobody-knows")
    assert await matchmaking.release_seats_of_gone_nodes() == 1
    online.clock.advance(seconds=runtime.settings.queue_grace_seconds + 0.1)
    await online.server.app.state.online.tick()

    async def refunded() -> bool:
        return (await ada.get("/api/wallet"))["balance"] == 1000

    await eventually(refunded)
