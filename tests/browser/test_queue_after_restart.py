"""A wait the server lost, in the browser: a player waits at a staked table when the embedded server restarts, which
loses its in-process queue. The restarted process refunds the stake at once, and the reconnected page says the seat
was given up and the stake is back, instead of counting down to a table that will never form."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.accounts.models import User
from tests.browser.helpers import DESKTOP, open_player, sign_up
from tests.support.harness import reach_staked_level
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def test_a_staked_wait_lost_with_a_restart_is_ended_on_the_page_with_the_stake_back(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "waiter", viewport=DESKTOP, label="queue-restart",
                               profile_root=profiles) as player:
            runtime = server.runtime
            await sign_up(player)
            async with runtime.reader() as session:
                user_id = (await session.scalars(select(User.id).where(User.username == "waiter"))).one()
            await reach_staked_level(runtime, user_id)
            page = player.page
            await page.goto("/#/play/pika/staked")
            await page.reload()  # the level reached above, as the page loads it
            await page.get_by_role("heading", name="Pika: staked table").wait_for()
            await page.locator("label", has=page.locator("input[name=seats][value='2']")).click()
            await page.get_by_role("button", name="Stake 100 coins and find a table").click()
            await page.get_by_role("heading", name="Looking for players…").wait_for()
            await page.locator(".chip-coins", has_text="900 coins").wait_for()

            # The restart, as the page and the database see it: the in-process queue is gone (nothing tells the
            # page), the new process's start refunds the stranded stake at once, and the socket drops.
            async for key in runtime.redis.scan_iter(match="{mm}:*"):
                await runtime.redis.delete(key)
            assert await server.app.state.online.matchmaking.refund_stranded(restarted=True) == 1
            for connection in server.realtime.hub.connections_of(user_id):
                await connection.close(1012, "test: the node restarts")

            banner = page.get_by_role("alert").filter(has_text="Your seat was given up")
            await banner.get_by_text("the server lost your place while you were disconnected").wait_for()
            await banner.get_by_text("Your stake of 100 coins is back in your wallet.").wait_for()
            await page.locator(".chip-coins", has_text="1,000 coins").wait_for()
            assert await page.get_by_role("heading", name="Looking for players…").count() == 0
            await player.shot("queue-lost-with-a-restart")
            player.check()
