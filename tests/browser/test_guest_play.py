"""A visitor plays a Pika game as a guest from the front page to the results, then signs up and finds it in their
history (issue 19: front page and guest play)."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import PASSWORD, PHONE, open_player, play_pika
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def test_a_visitor_plays_pika_as_a_guest_then_signs_up_and_keeps_the_game(browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "guest_grace", viewport=PHONE, label="guest",
                               profile_root=profiles) as grace:
            page = grace.page

            # The front page says what the site is: the four games, each with "Play now", and log in / sign up.
            await page.goto("/")
            await page.get_by_role("heading", name="The games").wait_for()
            for title in ("Pika", "Stakes", "Piraten Kapern", "The Piker"):
                await page.get_by_role("button", name=f"Play {title} now against bots").wait_for()
            await page.get_by_role("main").get_by_role("link", name="Sign up").wait_for()
            await grace.shot("front-page")

            # "Play now": a guest account and a practice table at once.
            await page.get_by_role("button", name="Play Pika now against bots").click()
            await page.locator(".table-shell").wait_for()
            await page.locator(".hand .hand-card").first.wait_for()
            table_id = page.url.rsplit("/", 1)[-1]
            nav = page.get_by_role("navigation", name="Main")
            # At a table on a phone the header keeps one row: the navigation opens from "Menu".
            await page.get_by_role("button", name="Menu").click()
            await nav.get_by_role("link", name="Sign up").wait_for()
            # A guest sees only what it may use: no friends, wallet, league or shop.
            for hidden in ("Friends", "Wallet", "League", "Shop"):
                assert await nav.get_by_role("link", name=hidden).count() == 0, hidden
            assert (await page.locator(".me-name").inner_text()).startswith("Guest-")
            await grace.shot("guest-table")

            stats = await play_pika(grace, server=server, table_id=table_id, seat=0)
            assert stats.turns > 0
            await page.get_by_role("link", name="See results").click()
            await page.locator("table.results tbody tr").first.wait_for()
            await page.get_by_role("heading", name=re.compile(r"^(You won!|You finished \d+(st|nd|rd|th))$")).wait_for()
            await grace.shot("guest-results")

            # "Log out" from a guest account asks first: the account and its games would be lost for good.
            await nav.get_by_role("button", name="Log out").click()
            confirm = page.get_by_role("group", name="Confirm logging out of the guest account")
            await confirm.get_by_text("its games are lost unless you sign up first").wait_for()
            await grace.shot("guest-log-out-asks")
            await confirm.get_by_role("button", name="Cancel").click()
            assert await confirm.count() == 0
            assert (await page.locator(".me-name").inner_text()).startswith("Guest-")

            # Signing up from the guest session: the same account, now with a name, a password and the coins.
            await page.get_by_role("link", name="Sign up to keep this game").click()
            await page.get_by_role("heading", name="Create your account").wait_for()
            await page.get_by_label("Username").fill("grace_h")
            await page.get_by_label("Password").fill(PASSWORD)
            await page.get_by_role("button", name="Create account").click()
            await page.get_by_role("heading", name="My past games").wait_for()
            await page.locator(".history-item").first.wait_for()
            assert await page.locator(".history-item").count() == 1
            # (The header's name is hidden on a phone; its chip still says it to a screen reader.)
            await page.locator(".me-chip[aria-label^='grace_h: 1,000 coins']").wait_for(state="attached")
            await nav.get_by_role("link", name="Friends").wait_for()
            assert await nav.get_by_role("link", name="Sign up").count() == 0
            await grace.shot("signed-up-history")

            await page.locator(".history-item").first.get_by_role("link", name=re.compile("^Results")).click()
            await page.locator("table.results tbody tr").first.wait_for()
            grace.check()
