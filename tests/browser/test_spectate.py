"""Spectators and the replay viewer in the browser: a friend watches two friends' Pika game to the end from the
Friends page; a spectator a player blocks is sent off with the reason and does not rejoin after a reconnection; a
player steps through a finished Piraten Kapern game move by move."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

from app.client import TablestakesClient, bot_chooser
from app.games.registry import get_game
from app.tables.models import GameRecord
from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, Player, call, open_player, play_pika, sign_up
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser


async def befriend(a: Player, b: Player) -> None:
    await call(a, "POST", "/api/friends/requests", {"username": b.name})
    await call(b, "POST", f"/api/friends/requests/{a.name}/accept")


async def friends_pika_table(host: Player, guest: Player) -> str:
    """A friends table of Pika for the two, made through the API the room screen uses; returns its id."""
    room = await call(host, "POST", "/api/rooms", {"game": "pika", "seats": 2})
    await call(host, "POST", f"/api/rooms/{room['id']}/invitations", {"username": guest.name})
    invitation = (await call(guest, "GET", "/api/invitations"))["invitations"][0]
    await call(guest, "POST", f"/api/invitations/{invitation['id']}/accept")
    return (await call(host, "POST", f"/api/rooms/{room['id']}/start"))["table_id"]


async def test_a_friend_watches_two_friends_play_pika_to_the_end(browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with (
            open_player(playwright, server.url, "hostess", viewport=DESKTOP, label="spectate-host",
                        profile_root=profiles) as host,
            open_player(playwright, server.url, "guest", viewport=DESKTOP, label="spectate-guest",
                        profile_root=profiles) as guest,
            open_player(playwright, server.url, "onlooker", viewport=PHONE, label="spectate-onlooker",
                        profile_root=profiles) as onlooker,
        ):
            for player in (host, guest, onlooker):
                await sign_up(player)
            await befriend(host, guest)
            await befriend(onlooker, host)
            await befriend(onlooker, guest)

            # A friends game of Pika, made through the API the room screen uses; both players open the table.
            table_id = await friends_pika_table(host, guest)
            for player in (host, guest):
                await player.page.goto(f"/#/table/{table_id}")
                await player.page.locator(".hand .hand-card").first.wait_for()

            # The onlooker's Friends page offers to watch the game; the table then shows the spectator view.
            page = onlooker.page
            await page.get_by_role("link", name="Friends", exact=True).click()
            await page.get_by_role("link", name="Watch guest's Pika game").click()
            await page.get_by_role("heading", name="Watching Pika").wait_for()
            assert page.url.endswith(f"#/watch/{table_id}")
            await page.get_by_text("You are watching").wait_for()
            await onlooker.shot("watching")
            await host.page.get_by_text("1 person watching").wait_for()  # the players see that someone watches
            await host.shot("watched")

            table = server.realtime.tables.get(table_id)
            seats = {seat.name: index for index, seat in enumerate(table.seats)}
            assert table.spectators == 1
            await asyncio.gather(
                play_pika(host, server=server, table_id=table_id, seat=seats["hostess"], shoot=False),
                play_pika(guest, server=server, table_id=table_id, seat=seats["guest"], shoot=False),
            )
            # The onlooker saw it to the end, never with a hand or a move to make, and never sent a move.
            await page.locator(".game-over").wait_for()
            assert await page.locator(".hand .hand-card").count() == 0
            assert await page.locator(".card-button").count() == 0
            assert not [f for f in onlooker.sent_frames if json.loads(f).get("type") in ("act", "resign")]
            winner = next(name for name, seat in seats.items() if table.game.outcome().placings[seat] == 1)
            await page.locator(".placings-mini").get_by_text(winner).wait_for()
            await onlooker.shot("watched-to-the-end")

            # From the end, its replay: the onlooker did not play, so they step through the spectator view.
            await page.get_by_role("link", name="Replay this game").click()
            await page.get_by_role("heading", name="Replay: Pika").wait_for()
            await page.get_by_text("as a spectator saw it").wait_for()
            await page.get_by_role("button", name="Last step").click()
            await page.get_by_text("Game over.").wait_for()
            assert await page.locator(".hand .hand-card").count() == 0
            await onlooker.shot("replay-end")
            for player in (host, guest, onlooker):
                player.check()


async def test_a_spectator_a_player_blocks_is_sent_off_and_does_not_ask_for_the_table_again(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with (
            open_player(playwright, server.url, "hostess", viewport=DESKTOP, label="sent-off-host",
                        profile_root=profiles) as host,
            open_player(playwright, server.url, "guest", viewport=DESKTOP, label="sent-off-guest",
                        profile_root=profiles) as guest,
            open_player(playwright, server.url, "onlooker", viewport=DESKTOP, label="sent-off-onlooker",
                        profile_root=profiles) as onlooker,
        ):
            for player in (host, guest, onlooker):
                await sign_up(player)
            await befriend(host, guest)
            await befriend(onlooker, host)
            table_id = await friends_pika_table(host, guest)

            page = onlooker.page
            await page.goto(f"/#/watch/{table_id}")
            await page.get_by_text("You are watching").wait_for()
            # The player blocks the onlooker: the table goes away from their screen with the reason, at once.
            await call(host, "PUT", "/api/friends/blocks/onlooker")
            await page.get_by_role("alert").get_by_text("You are no longer watching this table.").wait_for()
            assert await page.locator(".hand, .table-shell").count() == 0
            await page.get_by_role("link", name="Back to the lobby").wait_for()
            await onlooker.shot("sent-off")

            # A reconnection does not ask for that table again (it would only be refused).
            onlooker.sent_frames.clear()
            user_id = (await call(onlooker, "GET", "/api/me"))["id"]
            for connection in server.realtime.hub.connections_of(user_id):
                await connection.close(1012, "test: the node restarts")
            await eventually(lambda: bool(server.realtime.hub.connections_of(user_id)))
            await asyncio.sleep(0.5)  # give a wrong rejoin the time to be sent
            assert not [f for f in onlooker.sent_frames if json.loads(f).get("table") == table_id]
            await page.get_by_text("You are no longer watching this table.").wait_for()
            for player in (host, guest, onlooker):
                player.check()


async def finished_kapern_game(server, username: str) -> str:
    """A whole vs-bots game of Piraten Kapern played for `username` by the Python client (an easy bot's choices)."""
    client = TablestakesClient(server.url)
    try:
        await client.login(username, PASSWORD)
        await client.connect()
        table = await client.post("/api/tables", {"game": "kapern", "seats": 2, "bot_level": "easy"})
        await client.join(table["id"])
        bot = get_game("kapern").bots["easy"](table["seat"], random.Random(5))
        await client.play(table["id"], bot_chooser(bot))
        return table["id"]
    finally:
        await client.close()


async def step_shown(page) -> int:
    return int(await page.locator(".replay-board").get_attribute("data-step"))


async def test_a_player_steps_through_a_finished_kapern_game(browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "captain", viewport=DESKTOP, label="replay-kapern",
                               profile_root=profiles) as player:
            await sign_up(player)
            table_id = await finished_kapern_game(server, "captain")
            async with server.runtime.sessionmaker() as session:
                record = await session.get(GameRecord, table_id)
            last = len(record.action_log)
            page = player.page

            await page.get_by_role("link", name="My games", exact=True).click()
            await page.get_by_role("link", name=re.compile("^Replay Piraten Kapern")).click()
            await page.get_by_role("heading", name="Replay: Piraten Kapern").wait_for()
            controls = page.get_by_role("region", name="Replay controls")
            await controls.get_by_text(f"Step 0 of {last}").wait_for()
            assert await page.get_by_role("button", name="Previous step").is_disabled()
            await player.shot("replay-start")

            await page.get_by_role("button", name="Next step").click()
            await controls.get_by_text(f"Step 1 of {last}").wait_for()
            await page.keyboard.press("ArrowRight")
            await controls.get_by_text(f"Step 2 of {last}").wait_for()
            assert await step_shown(page) == 2
            lines = await page.get_by_role("region", name="This step").inner_text()
            assert lines.strip() and "Nothing you could see" not in lines  # a Kapern move is public
            await player.shot("replay-step-2")
            await page.keyboard.press("ArrowLeft")
            await controls.get_by_text(f"Step 1 of {last}").wait_for()

            # The end (the last page of steps is fetched on the way): the recorded placings.
            await page.keyboard.press("End")
            await controls.get_by_text(f"Step {last} of {last}").wait_for()
            assert await page.get_by_role("button", name="Next step").is_disabled()
            over = page.get_by_role("region", name="This step").locator("p", has_text="Game over.")
            await over.wait_for()
            ends = await over.inner_text()
            for seat, place in enumerate(record.placings):
                assert f"{record.seats[seat]['name'].replace(' (easy)', '')}: {['1st', '2nd'][place - 1]}" in ends
            await player.shot("replay-end")
            await page.keyboard.press("ArrowLeft")
            await controls.get_by_text(f"Step {last - 1} of {last}").wait_for()
            assert not await over.count()

            # Every hand shown (Kapern has none: the board is the same), then back to the start.
            await page.get_by_label("Show every hand").check()
            await page.get_by_label("Hand on the board").wait_for()
            await controls.get_by_text(f"Step {last - 1} of {last}").wait_for()
            await page.get_by_role("button", name="First step").click()
            await controls.get_by_text(f"Step 0 of {last}").wait_for()
            await page.get_by_text("The game begins.").wait_for()
            await player.shot("replay-reveal-start")
            player.check()
