"""A new player signs up on a phone-sized screen and plays a whole Pika game against bots to the results screen."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import PASSWORD, PHONE, open_player, play_pika, sign_up
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def test_a_new_player_signs_up_and_plays_pika_against_bots_to_the_results(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "ada_phone", viewport=PHONE, label="solo-phone",
                               profile_root=profiles) as ada:
            page = ada.page

            # The front page first (the games, "Play now"), then the log-in screen; its errors are plain and next
            # to the fields.
            await page.goto("/")
            await page.get_by_role("heading", name="The games").wait_for()
            await page.get_by_role("main").get_by_role("link", name="Log in").click()
            await page.get_by_role("heading", name="Log in").wait_for()
            await page.get_by_role("button", name="Log in").click()
            await page.get_by_text("Enter your username.").wait_for()
            await ada.shot("login-errors")

            await page.get_by_role("link", name="Create an account").click()
            await page.get_by_role("heading", name="Create your account").wait_for()
            await page.get_by_label("Username").fill("a!")
            await page.get_by_label("Password").fill("short")
            await page.get_by_role("button", name="Create account").click()
            await page.get_by_text("Use 3 to 20 characters: letters, digits, _ or -.").wait_for()
            await page.get_by_text("Use at least 8 characters.").wait_for()
            await ada.shot("signup-errors")

            await sign_up(ada)
            lobby = page.locator("main")
            await lobby.get_by_text("1,000 coins").wait_for()
            await page.get_by_role("progressbar").wait_for()
            await ada.shot("lobby")

            # A wrong password is refused plainly (the browser logs the 401 itself: expected).
            await page.get_by_role("button", name="Log out").click()
            await page.get_by_role("heading", name="Log in").wait_for()
            await page.get_by_label("Username").fill("ada_phone")
            await page.get_by_label("Password").fill("not the password")
            async with ada.expect_console(r"status of 401"):
                await page.get_by_role("button", name="Log in").click()
                await page.get_by_role("alert").filter(has_text=re.compile("password", re.I)).wait_for()
            await ada.shot("login-refused")
            await page.get_by_label("Password").fill(PASSWORD)
            await page.get_by_role("button", name="Log in").click()
            await page.get_by_role("heading", name="Hello, ada_phone").wait_for()

            # Settings for a practice table.
            await page.get_by_role("article", name="Pika", exact=True).get_by_role("link", name="Practice vs bots").click()
            await page.get_by_role("heading", name="Pika: practice vs bots").wait_for()
            await page.locator("label", has_text="3").filter(has=page.locator("input[name=seats]")).click()
            await page.locator("label", has_text="Easy").click()
            await ada.shot("bots-settings")
            await page.get_by_role("button", name="Start game").click()

            await page.locator(".table-shell").wait_for()
            await page.locator(".hand .hand-card").first.wait_for()
            assert await page.locator(".seat-strip .seat").count() == 3
            await ada.shot("pika-table")
            table_id = page.url.rsplit("/", 1)[-1]

            stats = await play_pika(ada, server=server, table_id=table_id, seat=0)
            assert stats.turns > 0 and stats.legal_checks > 0
            await ada.shot("pika-game-over")

            await page.get_by_role("link", name="See results").click()
            # The table's game-over box also says "You won!": wait for the results screen's rows first.
            results = page.locator("table.results tbody tr")
            await results.first.wait_for()
            await page.get_by_role("heading", name=re.compile(r"^(You won!|You finished \d+(st|nd|rd|th))$")).wait_for()
            assert await results.count() == 3
            await page.get_by_text("Practice games against bots pay no coins and no XP.").wait_for()
            await ada.shot("results")

            table = server.realtime.tables.get(table_id)
            assert table.status == "finished"
            mine = await page.locator("table.results tr.mine td").first.inner_text()
            assert mine.strip() == f"{table.game.outcome().placings[0]}" + {1: "st", 2: "nd", 3: "rd"}[
                table.game.outcome().placings[0]]

            await page.get_by_role("link", name="My past games").click()
            await page.get_by_role("heading", name="My past games").wait_for()
            await page.locator(".history-item").first.wait_for()
            assert await page.locator(".history-item").count() == 1
            await ada.shot("history")

            await page.get_by_role("link", name="Wallet").click()
            await page.get_by_role("heading", name="Wallet").wait_for()
            await page.get_by_role("cell", name="Welcome").wait_for()
            await ada.shot("wallet")
            ada.check()
