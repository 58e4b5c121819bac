"""Leaving a table and money in view (issue 19), in the browser: a player ends a practice game with the table's
"End this game" button (the confirmation says what it costs) and it leaves "Games in progress"; at a staked table
the queue says how many wait at each stake, the table shows the stake and the pot, and what leaving costs, and the
results show each player's net coins: exactly what the ledger moved on their wallets for that game; the player who
left, back at the finished table and on its results, is told the game counts as left for them (never "You won!" or
the place the covering bot took)."""

from __future__ import annotations

import re

import pytest

from app.client import TablestakesClient
from tests.browser.helpers import DESKTOP, PASSWORD, open_player, play_pika, sign_up
from tests.support.harness import reach_staked_level
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def wallet_balance(runtime, user_id: int) -> int:
    async with runtime.reader() as session:
        return await runtime.ledger.balance(session, await runtime.ledger.wallet_id(session, user_id))


def signed(n: int) -> str:
    """A number as the client shows a change (ui.js `signed`): +1,000, \u2212100, 0."""
    return f"+{n:,}" if n > 0 else f"\u2212{-n:,}" if n < 0 else "0"


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
                balances_before = {"ada_leaves": await wallet_balance(runtime, user.id),
                                   "bob_waits": await wallet_balance(runtime, bob.user["id"])}
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

                # Bob leaves (a bot covers his seat, platform.md's leaver rule); Ada plays to the end. The results
                # show both nets, and each equals what the ledger moved on that wallet since before the stake.
                staked_table = page.url.rsplit("/", 1)[-1]
                await bob.join(staked_table)
                await bob.resign(staked_table)
                await play_pika(ada, timeout=240, shoot=False)
                await page.get_by_role("link", name=re.compile("results", re.I)).first.click()
                await page.get_by_role("heading", name="Placings").wait_for()
                await ada.shot("staked-results")
                after = {"ada_leaves": await wallet_balance(runtime, user.id),
                         "bob_waits": await wallet_balance(runtime, bob.user["id"])}
                placings = page.get_by_role("table")
                for name in ("ada_leaves", "bob_waits"):
                    row = placings.get_by_role("row").filter(has_text=name)
                    shown = (await row.locator("td.num").first.inner_text()).split()[0].replace("\u2212", "-")
                    assert int(shown) == after[name] - balances_before[name], (name, shown, balances_before, after)
                earned = page.get_by_role("region", name="What you earned")
                mine = (await earned.locator(".stat-value").first.inner_text()).replace("\u2212", "-")
                assert int(mine) == after["ada_leaves"] - balances_before["ada_leaves"]
                assert sum(after.values()) - sum(balances_before.values()) >= 0  # the pot was paid out, none lost

                # Bob opens the finished table again: his seat counts as left, whatever place the bot that covered
                # it took, so the table's game-over box says so (as the results do), never "You won!".
                async with open_player(playwright, server.url, "bob_waits", viewport=DESKTOP, label="leave-bob",
                                       profile_root=profiles) as bob_browser:
                    bob_page = bob_browser.page
                    await bob_page.goto("/#/login")
                    await bob_page.get_by_label("Username").fill("bob_waits")
                    await bob_page.get_by_label("Password").fill(PASSWORD)
                    await bob_page.get_by_role("button", name="Log in").click()
                    await bob_page.get_by_role("heading", name="Hello, bob_waits").wait_for()
                    await bob_page.goto(f"/#/table/{staked_table}")
                    over = bob_page.locator(".game-over")
                    await over.get_by_text("this game counts as left: no prize and no XP").wait_for()
                    assert await over.locator("#over-title").inner_text() == "Game over"
                    bob_net = after["bob_waits"] - balances_before["bob_waits"]
                    await over.get_by_text(f"{signed(bob_net)} coins · 0 XP").wait_for()
                    await bob_browser.shot("staked-left-game-over")
                    await over.get_by_role("link", name="See results").click()
                    await bob_page.get_by_role("heading", name="Placings").wait_for()
                    assert await bob_page.locator("#page-title").inner_text() == "This game counts as left"
                    await bob_page.get_by_role("region", name="What you earned").get_by_text(
                        "this game counts as left: no prize and no XP").wait_for()
                    bob_browser.check()
            finally:
                await bob.close()
