"""Leaving a table and money in view (issue 19), in the browser: a player ends a practice game with the table's
"End this game" button (the confirmation says what it costs) and it leaves "Games in progress"; at a staked table
the queue says how many wait at each stake, and the table shows the stake and the pot, and what leaving costs."""

from __future__ import annotations

import pytest

from app.client import TablestakesClient
from tests.browser.helpers import DESKTOP, PASSWORD, open_player, sign_up
from tests.support.harness import reach_staked_level
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def test_a_player_resigns_a_practice_game_and_a_staked_table_shows_stake_and_pot(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        runtime = server.runtime
        async with open_player(playwright, server.url, "ada_leaves", viewport=DESKTOP, label="leave-desktop",
                               profile_root=profiles) as ada:
            page = ada.page
            await sign_up(ada)

            # A practice game, then back to the lobby: it is in progress.
            await page.get_by_role("article", name="Pika", exact=True).get_by_role("link", name="Practice vs bots").click()
            await page.get_by_role("button", name="Start game").click()
            await page.locator(".table-shell").wait_for()
            table_id = page.url.rsplit("/", 1)[-1]
            await page.goto("/#/lobby")
            progress = page.get_by_role("region", name="Games in progress")
            await progress.get_by_role("link", name="Rejoin").click()
            await page.locator(f".table-shell").wait_for()
            assert page.url.endswith(table_id)

            # Ending it asks first, saying what it costs; "Stay" changes nothing.
            await page.get_by_role("button", name="End this game").click()
            confirm = page.get_by_role("group", name="Confirm leaving the game")
            await confirm.get_by_text("Nothing is won or lost").wait_for()
            await ada.shot("practice-leave-confirm")
            await confirm.get_by_role("button", name="Stay").click()
            assert await confirm.count() == 0
            await page.get_by_role("button", name="End this game").click()
            await confirm.get_by_role("button", name="Yes, end it").click()
            await page.get_by_role("heading", name="Hello, ada_leaves").wait_for()
            await page.reload()
            await page.get_by_role("heading", name="Hello, ada_leaves").wait_for()
            assert await page.get_by_role("region", name="Games in progress").count() == 0
            assert server.realtime.tables.get(table_id).status == "cancelled"
            await ada.shot("practice-left")

            # A staked table: Bob waits at 100 coins for two players; Ada's queue screen says so.
            async with runtime.transaction() as session:
                user = await runtime.accounts.user_by_username(session, "ada_leaves")
            await reach_staked_level(runtime, user.id)
            bob = TablestakesClient(server.url)
            try:
                await bob.register("bob_waits", PASSWORD)
                await reach_staked_level(runtime, bob.user["id"])
                await bob.connect()
                await bob.request({"type": "queue", "game": "pika", "seats": 2, "mode": "staked", "stake": 100})
                await page.goto("/#/play/pika/staked")
                await page.reload()  # the page's level is from before the XP was granted
                await page.get_by_role("heading", name="Pika: staked table").wait_for()
                await page.locator("label", has=page.locator("input[name=seats][value='2']")).click()
                stake_100 = page.locator("label", has=page.locator("input[name=stake][value='100']"))
                await stake_100.get_by_text("1 waiting").wait_for()
                await page.locator("label", has=page.locator("input[name=stake][value='250']")).get_by_text(
                    "0 waiting").wait_for()
                await ada.shot("staked-queue-waiting")
                await page.get_by_role("button", name="Stake 100 coins and find a table").click()

                # Matched: the table shows the stake and the pot, and leaving says the stake stays in the pot.
                await page.locator(".table-shell").wait_for()
                money = page.get_by_label("Stake and pot")
                await money.get_by_text("100 coins").wait_for()
                await money.get_by_text("200 coins").wait_for()
                await page.get_by_role("button", name="Leave the game").click()
                confirm = page.get_by_role("group", name="Confirm leaving the game")
                await confirm.get_by_text("stays in the pot of 200 coins").wait_for()
                await ada.shot("staked-table-money")
                await confirm.get_by_role("button", name="Stay").click()
            finally:
                await bob.close()
