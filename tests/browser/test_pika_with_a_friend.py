"""Two browsers: they become friends, one invites the other to a room by username, and both play Pika to the end. A
room of only its host and bots says before the start that it pays like practice."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, open_player, play_pika, sign_up
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def test_two_players_befriend_invite_by_username_and_play_pika_to_the_end(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with (
            open_player(playwright, server.url, "hostess", viewport=DESKTOP, label="host-desktop",
                        profile_root=profiles) as host,
            open_player(playwright, server.url, "guest_on_phone", viewport=PHONE, label="guest-phone",
                        profile_root=profiles) as guest,
        ):
            await sign_up(host)
            await host.shot("lobby")

            # The guest first tries the host's name: the server's refusal shows under the field.
            await guest.page.goto("/#/signup")
            await guest.page.get_by_label("Username").fill("HOSTESS")
            await guest.page.get_by_label("Password").fill(PASSWORD)
            async with guest.expect_console(r"status of 409"):
                await guest.page.get_by_role("button", name="Create account").click()
                await guest.page.get_by_role("alert").filter(has_text=re.compile("taken", re.I)).wait_for()
            await guest.shot("signup-name-taken")
            await sign_up(guest)

            # Friends: a request by username, accepted on the other side; presence shows.
            await host.page.get_by_role("link", name="Friends", exact=True).click()
            await host.page.get_by_label("Add a friend by username").fill("guest_on_phone")
            await host.page.get_by_role("button", name="Send request").click()
            await host.page.get_by_text("Request sent to guest_on_phone.").wait_for()
            await guest.page.get_by_role("link", name="Friends", exact=True).click()
            await guest.page.get_by_role("button", name="Accept hostess").click()
            await guest.page.locator(".friend", has_text="hostess").get_by_text("online").wait_for()
            await guest.shot("friends")
            await host.page.reload()
            await host.page.locator(".friend", has_text="guest_on_phone").get_by_text("online").wait_for()
            await host.shot("friends")

            # A room: the host invites by username; the guest, still on the friends screen, accepts the invitation
            # as it arrives over the socket.
            await host.page.get_by_role("link", name="Play", exact=True).click()
            await host.page.get_by_role("article", name="Pika", exact=True).get_by_role("link", name="Play with friends").click()
            await host.page.get_by_role("heading", name="Pika: play with friends").wait_for()
            await host.shot("room-settings")
            await host.page.get_by_role("button", name="Create room").click()
            await host.page.get_by_role("heading", name="Pika room").wait_for()
            await host.page.get_by_label("Invite by username").fill("Guest_On_Phone")
            await host.page.get_by_role("button", name="Invite", exact=True).click()
            await host.page.get_by_text("Invitation sent to Guest_On_Phone.").wait_for()
            tray = guest.page.get_by_role("region", name="New invitations")
            await tray.get_by_text("hostess invites you to play Pika").wait_for()
            await guest.shot("invitation")
            await tray.get_by_role("button", name="Accept").click()
            await guest.page.get_by_role("heading", name="Pika room").wait_for()
            await guest.page.get_by_text("The host starts the game when the seats are taken.").wait_for()
            await guest.shot("room")
            await host.page.locator(".seat-row", has_text="guest_on_phone").wait_for()
            await host.shot("room")

            await host.page.get_by_role("button", name=re.compile("Start the game")).click()
            for player in (host, guest):
                await player.page.locator(".table-shell").wait_for()
                await player.page.locator(".hand .hand-card").first.wait_for()
            table_id = host.page.url.rsplit("/", 1)[-1]
            assert guest.page.url.endswith(f"/table/{table_id}")
            await host.shot("pika-table")
            await guest.shot("pika-table")

            table = server.realtime.tables.get(table_id)
            seats = {seat.name: index for index, seat in enumerate(table.seats)}
            await asyncio.gather(
                play_pika(host, server=server, table_id=table_id, seat=seats["hostess"]),
                play_pika(guest, server=server, table_id=table_id, seat=seats["guest_on_phone"]),
            )
            await host.shot("pika-game-over")
            await guest.shot("pika-game-over")

            outcome = table.game.outcome()
            winners = [name for name, seat in seats.items() if outcome.placings[seat] == 1]
            prize = browser_settings.payouts[2][0] // 2 // len(winners)  # friends: half the online first prize
            for player in (host, guest):
                await player.page.get_by_role("link", name="See results").click()
                await player.page.locator("table.results tbody tr").first.wait_for()
                won = player.name in winners
                headline = "You won!" if won else "You finished 2nd"
                await player.page.get_by_role("heading", name=headline).wait_for()
                earned = player.page.get_by_role("region", name="What you earned")
                coins = await earned.locator(".stat-value").first.inner_text()
                assert coins.strip() == (f"+{prize}" if won else "0")
                xp = await earned.locator(".stat-value").nth(1).inner_text()
                assert xp.strip().startswith("+")
                await player.shot("results")
                # The header shows the new balance.
                await player.page.locator(".chip-coins", has_text=f"{1000 + (prize if won else 0):,} coins").wait_for()

            await host.page.get_by_role("link", name="My games", exact=True).click()
            await host.page.locator(".history-item").first.wait_for()
            await host.shot("history")
            await host.page.get_by_role("link", name="Wallet", exact=True).click()
            await host.page.get_by_role("cell", name="Welcome").wait_for()
            await host.shot("wallet")

            host.check()
            guest.check()


async def test_a_room_of_only_the_host_and_bots_says_it_pays_like_practice(browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "loner", viewport=DESKTOP, label="room-alone",
                               profile_root=profiles) as host:
            await sign_up(host)
            page = host.page
            await page.get_by_role("link", name="Play", exact=True).click()
            await page.get_by_role("article", name="Pika", exact=True).get_by_role(
                "link", name="Play with friends").click()
            await page.get_by_role("button", name="Create room").click()
            await page.get_by_role("heading", name="Pika room").wait_for()
            await page.get_by_role("button", name="Add a bot").click()
            await page.get_by_role("button", name=re.compile("Start the game")).wait_for()
            await page.get_by_text("Only you and bots: this game pays no coins and no XP").wait_for()
            await host.shot("room-alone-with-a-bot")
            host.check()
