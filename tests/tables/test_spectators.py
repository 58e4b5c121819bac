"""Spectators (docs/protocol.md, "Spectators") and the replay API (docs/api.md, "Replays").

- Over whole games of the four games, a spectator is sent exactly the spectator view (`Game.view(None)`), no private
  part, no legal moves, no seat token, and that view passes the re-deal check the seat views pass
  (tests/games/test_conformance.py); Stakes, which has no re-deal yet, is checked for the cards hidden from everyone.
- Who may watch (app/tables/spectators.py), what a spectator may not do, and the limits.
- The replay API rebuilds every finished game of a run to the position its players saw at the end.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import select

from app.client import ClientError, TablestakesClient, TableState
from app.core import strict_json
from app.games.registry import game_names, get_game
from app.games.rng import HashRandom
from app.games.wire import wire_for
from app.tables.actor import Seat, TableActor, TableError, TableTiming
from app.tables import patch
from app.tables.models import GameRecord
from app.tables.replay import MAX_REPLAY_FRAMES
from tests.games.stakes.stakes_support import hidden_from, strings_in
from tests.games.test_conformance import REDEAL
from tests.support.harness import PASSWORD, wipe
from tests.support.live import live_server
from tests.tables.test_live_tables import easy_bot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FAST = TableTiming(turn_seconds=0, grace_seconds=0.05, bot_delay_seconds=(0, 0), snapshot_seconds=0)


class Spectator:
    """A listener without a seat that checks, as each message arrives (the game is then exactly as sent), that it
    holds nothing the spectator view does not. What fails is kept in `problems` (raising would stop the table)."""

    def __init__(self, table: TableActor, seed: int):
        self.table = table
        self.state = TableState(table.id)
        self.chooser = random.Random(seed)
        self.messages = 0
        self.redeals = 0
        self.problems: list[str] = []

    def send_text(self, text: str) -> None:
        try:
            self.check(strict_json.loads(text))
        except AssertionError as problem:
            self.problems.append(f"message {self.messages}: {problem!r}"[:500])

    def check(self, message: dict[str, Any]) -> None:
        if message["type"] not in ("update", "catch_up", "sync"):
            return
        assert "seat_token" not in message and "legal" not in message or message["legal"] == []
        assert message.get("seat") is None
        self.state.apply(message)
        self.messages += 1
        game = self.table.game
        assert self.state.private == {} and self.state.legal == []
        left_out = wire_for(game.name).bot_only  # bots' memory stays on the server

        def sent(view: dict[str, Any]) -> dict[str, Any]:
            return {key: value for key, value in view.items() if key not in left_out}

        assert self.state.view == sent(game.view(None))
        events = message.get("events", [])
        numbered = dict(self.table._events)
        first = message["version"] - len(events) + 1
        for offset, shown in enumerate(events):
            event = numbered[first + offset]
            assert shown == event.for_seat(None)  # no seat's private part
        redeal = REDEAL.get(game.name)
        if redeal is not None:
            if self.messages % 3 == 0:
                self.redeals += 1
                assert sent(redeal(game, None, self.chooser).view(None)) == self.state.view
        else:  # Stakes: no card hidden from everyone is named anywhere in what the spectator got
            assert not strings_in([self.state.view, events]) & hidden_from(game, None)


class Recorder:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.messages.append(strict_json.loads(text))


@pytest.mark.parametrize("name", game_names())
async def test_a_spectator_is_sent_the_spectator_view_only_over_whole_games(name):
    cls = get_game(name)
    for number, seats in enumerate(sorted({cls.min_seats, min(cls.max_seats, 4)})):
        options = cls.check_options(seats, {})
        if "alert_seconds" in options:
            options["alert_seconds"] = 1.0  # Pika's alert at its shortest: bots only, nobody waits long for a call
        game = cls.create(seats, options, HashRandom(f"spectate:{name}:{seats}".encode()))
        table = TableActor(table_id=f"t{number}", game=game, mode="online", timing=FAST, options=options,
                           seats=[Seat("bot", f"Bot {seat}", bot_level="easy") for seat in range(seats)])
        spectator = Spectator(table, number)
        table.start()
        assert await table.connect(spectator, 999, None) is None  # not seated: a spectator
        await asyncio.wait_for(table.finished.wait(), 120)
        await table.stop()
        assert spectator.problems == []
        assert table.game.is_over and spectator.state.info["status"] == "finished"
        assert spectator.state.info["spectators"] == 1
        assert spectator.messages > 10 and (name == "stakes" or spectator.redeals > 3)


async def test_a_table_takes_spectators_up_to_its_limit_and_counts_them_in_its_info():
    cls = get_game("pika")
    game = cls.create(2, cls.check_options(2, {}), HashRandom(b"limit"))
    table = TableActor(table_id="t", game=game, mode="online", timing=TableTiming(turn_seconds=0),
                       seats=[Seat("human", "ada", user_id=1), Seat("human", "bob", user_id=2)])
    table.max_spectators = 2
    table.start()
    player = Recorder()
    await table.connect(player, 1, None)
    first, second, third = Spectator(table, 1), Spectator(table, 2), Spectator(table, 3)
    await table.connect(first, 10, None)
    await table.connect(second, 11, None)
    with pytest.raises(TableError) as refused:
        await table.connect(third, 12, None)
    assert refused.value.code == "too_many_spectators"
    assert table.describe()["spectators"] == 2
    await table.disconnect(first)
    await table.connect(third, 12, None)  # a place came free
    infos = [m["info"] for m in player.messages if "info" in m]
    assert [info["spectators"] for info in infos if "spectators" in info][-1] == 2
    with pytest.raises(TableError) as refused:
        await table.act(10, {"type": "draw"})
    assert refused.value.code == "not_seated"
    await table.stop()


# ------------------------------------------------------------------------------------------------ end to end


@pytest.fixture
async def fast_settings(settings, backend):
    if backend != "embedded":
        from app.runtime import open_runtime

        async with open_runtime(settings) as runtime:
            await wipe(runtime)
    return settings.model_copy(update={
        "bot_delay_min_seconds": 0.0, "bot_delay_max_seconds": 0.0, "disconnect_grace_seconds": 0.3,
        "turn_timer_seconds": 30.0, "snapshot_seconds": 0.0, "ws_messages_per_second": 1000.0,
    })


async def person(server, name: str) -> TablestakesClient:
    client = TablestakesClient(server.url)
    await client.register(name, PASSWORD)
    await client.connect()
    return client


async def befriend(a: TablestakesClient, b: TablestakesClient) -> None:
    await a.post("/api/friends/requests", {"username": b.user["username"]})
    await b.post(f"/api/friends/requests/{a.user['username']}/accept")


async def refused(call, code: str) -> None:
    with pytest.raises(ClientError) as error:
        await call
    assert error.value.code == code, error.value


async def test_a_friend_watches_a_friends_game_to_the_end_and_cannot_act(fast_settings):
    async with live_server(fast_settings) as server:
        host, guest, friend, stranger = [await person(server, name) for name in ("host", "guest", "friend", "stranger")]
        try:
            await befriend(host, guest)
            await befriend(friend, guest)
            room = await host.post("/api/rooms", {"game": "pika", "seats": 2})
            await host.post(f"/api/rooms/{room['id']}/invitations", {"username": "guest"})
            invitation = (await guest.get("/api/invitations"))["invitations"][0]
            await guest.post(f"/api/invitations/{invitation['id']}/accept")
            table_id = (await host.post(f"/api/rooms/{room['id']}/start"))["table_id"]

            # The friend sees where their friend plays, and may watch; a stranger may not (a friends table).
            listed = (await friend.get("/api/friends"))["friends"]
            assert [(p["username"], p["table"]["id"]) for p in listed] == [("guest", table_id)]
            assert (await stranger.get("/api/friends"))["friends"] == []
            await refused(stranger.join(table_id), "not_watchable")
            joined = await friend.join(table_id)
            assert joined["seat"] is None
            for player in (host, guest):
                await player.join(table_id)
            await host.wait_for(lambda: host.tables[table_id].info.get("spectators") == 1)

            await friend.wait_for(lambda: table_id in friend.tables and friend.tables[table_id].messages > 0)
            await refused(friend.act(table_id, {"type": "draw"}), "spectators_cannot_act")
            await refused(friend.resign(table_id), "spectators_cannot_act")
            # At least one draw whatever the deal (easy bots may empty their hands without one): who moves first draws.
            drawer = next(p for p in (host, guest) if {"type": "draw"} in p.tables[table_id].legal)
            await drawer.act(table_id, {"type": "draw"})
            results = await asyncio.gather(host.play(table_id, easy_bot("pika", 0, 3)),
                                           guest.play(table_id, easy_bot("pika", 1, 4)))
            await friend.wait_for(lambda: friend.tables[table_id].over)
            watched = friend.tables[table_id]
            assert watched.private == {} and watched.legal == [] and watched.info["my_seat"] is None
            assert watched.info["outcome"] == results[0].info["outcome"]
            assert watched.public == results[0].public  # what everyone saw at the end, hands aside
            assert "hand" in results[0].private and "hand" not in watched.view
            # The whole history as a spectator: every draw and penalty, none with the cards a seat was dealt.
            history = (await friend.request({"type": "history", "table": table_id}))["events"]
            players_history = (await host.request({"type": "history", "table": table_id}))["events"]
            assert len(history) == len(players_history) and any(e["type"] == "draw" for e in history)
            assert not [e for e in history if e["type"] in ("draw", "penalty", "hand_reordered")
                        and {"card", "cards", "hand", "playable"} & set(e)]

            # A replay of it: a friend of a player sees the spectator's steps; a stranger may not.
            replay = await friend.get(f"/api/games/{table_id}/replay", start=0, limit=MAX_REPLAY_FRAMES)
            assert replay["seat"] is None and replay["frames"][0]["step"] == 0
            with pytest.raises(ClientError) as error:
                await stranger.get(f"/api/games/{table_id}/replay")
            assert error.value.code == "not_watchable"
        finally:
            for client in (host, guest, friend, stranger):
                await client.close()


async def online_table(server, *people: TablestakesClient) -> str:
    seats = [Seat("human", p.user["username"], user_id=p.user["id"]) for p in people]
    seats.append(Seat("bot", "Sim 1", bot_level="easy"))
    table = await server.realtime.tables.create(game="kapern", seats=seats, mode="online", meta={})
    return table.id


async def test_anyone_may_watch_an_online_table_unless_a_player_says_no_and_friends_always_may(fast_settings):
    async with live_server(fast_settings.model_copy(update={"turn_timer_seconds": 0.0})) as server:
        ada, fan, friend = [await person(server, name) for name in ("ada", "fan", "friend")]
        try:
            await befriend(ada, friend)
            table_id = await online_table(server, ada)
            assert (await fan.join(table_id))["seat"] is None  # by its link: a public table
            await fan.leave(table_id)
            me = await ada.put("/api/me/settings", {"allow_watching": False})
            assert me["allow_watching"] is False
            await refused(fan.join(table_id), "not_watchable")
            assert (await friend.join(table_id))["seat"] is None  # friends always may
            await ada.put("/api/me/settings", {"allow_watching": True})
            assert (await fan.join(table_id))["seat"] is None
            # Blocked by a player: never.
            await ada.put(f"/api/friends/blocks/{fan.user['username']}")
            await fan.leave(table_id)
            await refused(fan.join(table_id), "not_watchable")
        finally:
            for client in (ada, fan, friend):
                await client.close()


async def test_a_spectator_is_sent_off_when_a_player_blocks_them_turns_watching_off_or_unfriends_them(fast_settings):
    async with live_server(fast_settings.model_copy(update={"turn_timer_seconds": 0.0})) as server:
        ada, fan, friend = [await person(server, name) for name in ("ada", "fan", "friend")]

        def sent_off(client: TablestakesClient, table_id: str) -> bool:
            return any(e.get("code") == "not_watchable" and e.get("table") == table_id for e in client.errors)

        async def no_longer_follows(client: TablestakesClient, table_id: str) -> None:
            await client.wait_for(lambda: sent_off(client, table_id))
            await refused(client.request({"type": "history", "table": table_id}), "not_seated")
            client.errors.clear()

        try:
            await befriend(ada, friend)
            table_id = await online_table(server, ada)
            await ada.join(table_id)
            # "Let others watch my online games" turned off: the stranger watching is sent off, the friend stays.
            for watcher in (fan, friend):
                assert (await watcher.join(table_id))["seat"] is None
            await ada.put("/api/me/settings", {"allow_watching": False})
            await no_longer_follows(fan, table_id)
            await ada.wait_for(lambda: ada.tables[table_id].info.get("spectators") == 1)
            assert not sent_off(friend, table_id)
            assert (await friend.request({"type": "history", "table": table_id}))["table"] == table_id

            # No longer friends: the friend is a stranger now, and watching is off.
            await ada.delete(f"/api/friends/{friend.user['username']}")
            await no_longer_follows(friend, table_id)

            # Watching on again, but the fan is blocked: sent off too.
            await ada.put("/api/me/settings", {"allow_watching": True})
            assert (await fan.join(table_id))["seat"] is None
            await ada.put(f"/api/friends/blocks/{fan.user['username']}")
            await no_longer_follows(fan, table_id)
            await ada.wait_for(lambda: ada.tables[table_id].info.get("spectators") == 0)
        finally:
            for client in (ada, fan, friend):
                await client.close()


async def test_spectator_limits_per_table_and_per_user(fast_settings):
    limits = {"spectators_per_table": 1, "spectator_joins_per_user": 1, "turn_timer_seconds": 0.0}
    async with live_server(fast_settings.model_copy(update=limits)) as server:
        ada, bob, fan, other = [await person(server, name) for name in ("ada", "bob", "fan", "other")]
        try:
            first, second = await online_table(server, ada), await online_table(server, bob)
            await fan.join(first)
            await refused(other.join(first), "too_many_spectators")  # the table's one place is taken
            await refused(fan.join(second), "too_many_watched")  # the fan's one watch is used
            await fan.join(first)  # joining the same table again is no second watch
            await fan.leave(first)
            assert (await fan.join(second))["seat"] is None
            assert (await other.join(first))["seat"] is None
        finally:
            for client in (ada, bob, fan, other):
                await client.close()


async def all_frames(client: TablestakesClient, table_id: str, reveal: bool = False) -> dict[str, Any]:
    """Every step of a replay, page by page."""
    start, frames, page = 0, [], None
    while start is not None:
        page = await client.get(f"/api/games/{table_id}/replay", start=start, limit=MAX_REPLAY_FRAMES,
                                reveal="true" if reveal else "false")
        assert "view" in page["frames"][0]  # a page starts whole, then patches (docs/api.md, "Replays")
        view = None
        for frame in page["frames"]:
            view = frame["view"] if "view" in frame else patch.apply(view, frame["patch"])
            frames.append({**frame, "view": view})
        start = page["next"]
    assert page is not None
    return {**page, "frames": frames}


@pytest.mark.parametrize("game", game_names())
async def test_the_replay_of_every_finished_game_ends_where_the_game_ended(fast_settings, game):
    async with live_server(fast_settings) as server:
        ada, friend, stranger = [await person(server, f"{game[:5]}{n}") for n in ("ada", "fr", "st")]
        try:
            await befriend(ada, friend)
            cls = get_game(game)
            table = await ada.post("/api/tables", {"game": game, "seats": cls.min_seats, "bot_level": "easy"})
            await ada.join(table["id"])
            final = await ada.play(table["id"], easy_bot(game, table["seat"]))
            async with server.runtime.sessionmaker() as session:
                record = (await session.execute(select(GameRecord).where(GameRecord.id == table["id"]))).scalar_one()

            mine = await all_frames(ada, table["id"])
            assert mine["steps"] == len(record.action_log) + 1 == len(mine["frames"])
            assert [f["step"] for f in mine["frames"]] == list(range(mine["steps"]))
            last = mine["frames"][-1]
            left_out = wire_for(game).bot_only  # the replay shows bots' memory too; the live socket does not
            assert {k: v for k, v in last["view"].items() if k not in left_out} == final.view  # what the player saw
            assert last["outcome"]["placings"] == record.placings == final.info["outcome"]["placings"]
            assert all(f["outcome"] is None for f in mine["frames"][:-1])

            revealed = await all_frames(ada, table["id"], reveal=True)
            seat = table["seat"]
            for plain, full in zip(mine["frames"], revealed["frames"], strict=True):
                assert {**full["view"]["public"], **full["view"]["seats"][seat]} == plain["view"]
            assert revealed["frames"][-1]["action"] == record.action_log[-1][1]

            # Practice is watched by friends only: the friend replays it as a spectator, the stranger may not.
            watched = await all_frames(friend, table["id"])
            assert watched["seat"] is None
            assert [f["view"] for f in watched["frames"]] == [f["view"]["public"] for f in revealed["frames"]]
            with pytest.raises(ClientError) as error:
                await stranger.get(f"/api/games/{table['id']}/replay")
            assert error.value.code == "not_watchable"
        finally:
            for client in (ada, friend, stranger):
                await client.close()
