"""The shop, staked and online play, and the weekly league, in the browser, against the real endpoints.

A new player (granted coins by an operator) buys the VIP pass; a gold booster bought in another tab makes this
page's stale Buy button fail plainly. They sit down at a staked table and leave it with the stake returned, then play
a Stakes Duel online against a simulated player: the prize is multiplied by both (x3), and the league shows their
place this week. A past week's standings (written through the
league service, as a finished week would have been) show with its paid prizes."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from app.accounts.levels import xp_for_level
from app.accounts.models import User
from app.online.league import week_of
from tests.browser.dice_tables import play_stakes
from tests.browser.helpers import DESKTOP, PASSWORD, open_player, sign_up
from tests.support.harness import reach_staked_level
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser


async def seat_holder(redis, user_id: int) -> str | None:
    """The socket that holds the user's seat in the matchmaking queue (None when not queued)."""
    table = await redis.get(f"{{mm}}:user:{user_id}")
    return await redis.hget(f"{{mm}}:conn:{table}", str(user_id)) if table else None


async def new_seat_holder(redis, user_id: int, old: str) -> str:
    """Wait until another socket than `old` holds the user's queued seat, and return it."""
    holders: list[str | None] = []

    async def moved() -> bool:
        holders.append(await seat_holder(redis, user_id))
        return holders[-1] not in (old, None)

    await eventually(moved)
    return holders[-1]


async def test_shop_staked_and_online_play_and_the_league_render_real_data(browser_settings, playwright, profiles):
    settings = browser_settings.model_copy(update={"online_fill_seconds": 2.0, "matchmaking_tick_seconds": 0.2})
    async with live_server(settings) as server:
        # Last week's Stakes league, closed and paid, with one earlier player in it.
        runtime = server.runtime
        league = server.app.state.online.league
        last_week = week_of(runtime.clock.now()) - timedelta(days=7)
        async with runtime.transaction() as session:
            champion, _ = await runtime.accounts.register(session, "old_champion", PASSWORD)
            await league._add(session, "stakes", last_week, champion.id, 20)
        async with runtime.transaction() as session:
            await league.close_week(session, "stakes", last_week)

        async with open_player(playwright, server.url, "shopper", viewport=DESKTOP, label="online-desktop",
                               profile_root=profiles) as player:
            page = player.page
            await sign_up(player)

            # An operator grants 2,000 coins (the wallet shows it), so the VIP pass is within reach.
            async with runtime.transaction() as session:
                user = await runtime.accounts.user_by_username(session, "shopper")
                wallet = await runtime.ledger.wallet_id(session, user.id)
                await runtime.ledger.credit(session, wallet, 2000, key="grant:browser-test", reason="grant: welcome back")

            # The shop: both items, nothing running; buy the VIP pass (with a confirmation step).
            await page.get_by_role("link", name="Shop", exact=True).click()
            await page.get_by_role("heading", name="Shop", exact=True).wait_for()
            await page.get_by_text("Nothing is running").wait_for()
            booster = page.get_by_role("article", name=re.compile("Gold booster"))
            vip = page.get_by_role("article", name=re.compile("VIP pass"))
            await booster.get_by_text("300 coins", exact=True).wait_for()
            await vip.get_by_text("2,000 coins", exact=True).wait_for()
            await page.get_by_role("region", name="Your balance").get_by_text("3,000 coins").wait_for()
            await player.shot("shop")
            await vip.get_by_role("button", name="Buy for 2,000 coins").click()
            await vip.get_by_text("Buy the VIP pass for 2,000 coins? You have 3,000 coins.").wait_for()
            await vip.get_by_role("button", name="Confirm purchase").click()
            await page.get_by_role("region", name="Running now").get_by_text("VIP pass").wait_for()
            await page.locator(".chip-coins", has_text="1,000 coins").wait_for()
            await page.locator(".chip-running", has_text="VIP ×1.5").wait_for()  # the header shows it too
            await vip.get_by_role("button", name="Extend for 2,000 coins").wait_for()
            assert await vip.get_by_role("button", name="Extend for 2,000 coins").is_disabled()
            await vip.get_by_text("You need 1,000 coins more.").wait_for()

            # The gold booster is bought in another tab; this page's Buy button is stale: the refusal shows plainly.
            bought = await page.request.post("/api/shop/purchases", data={"item": "booster"})
            assert bought.status == 201
            await booster.get_by_role("button", name="Buy for 300 coins").click()
            async with player.expect_console(r"status of 409"):
                await booster.get_by_role("button", name="Confirm purchase").click()
                await booster.get_by_role("alert").filter(has_text="Your gold booster is already running, until").wait_for()
            await player.shot("shop-refused")
            await page.reload()
            running = page.get_by_role("region", name="Running now")
            await running.get_by_text("Gold booster").wait_for()
            await running.get_by_text("Together: coin prizes ×3.").wait_for()
            await page.locator(".chip-running", has_text="Booster ×2").wait_for()
            await page.get_by_role("region", name="Your balance").get_by_text("700 coins").wait_for()
            assert await booster.get_by_role("button", name="Buy for 300 coins").is_disabled()
            await player.shot("shop-both-running")
            await page.get_by_role("link", name="Wallet", exact=True).click()
            await page.get_by_role("cell", name="Shop: VIP pass").wait_for()
            await page.get_by_role("cell", name="Shop: Gold booster").wait_for()
            await player.shot("wallet")

            # A staked table. A new account cannot sit at one (staked tables open at level 2, against throwaway
            # accounts feeding a main one); once it has the XP of a few finished games, it can.
            await page.get_by_role("link", name="Play", exact=True).click()
            await page.get_by_role("link", name="Stakes: staked table").click()
            await page.get_by_role("heading", name="Stakes: staked table").wait_for()
            await page.get_by_text("Staked tables open at level 2; you are level 1.").wait_for()
            assert await page.get_by_role("button", name="Stake 100 coins and find a table").is_disabled()
            await reach_staked_level(runtime, user.id)
            await page.reload()
            await page.get_by_role("heading", name="Stakes: staked table").wait_for()
            # The stake leaves the wallet on sitting down and comes back on leaving.
            await page.locator("label", has=page.locator("input[name=seats][value='2']")).click()
            await page.locator("label", has=page.locator("input[name=stake][value='1000']")).wait_for()
            assert await page.locator("input[name=stake][value='1000']").is_disabled()  # 700 coins left
            await page.get_by_role("button", name="Stake 100 coins and find a table").click()
            await page.get_by_role("heading", name="Looking for players…").wait_for()
            await page.get_by_role("timer").wait_for()
            await page.locator(".chip-coins", has_text="600 coins").wait_for()
            await player.shot("staked-waiting")
            # A reload keeps the seat: the page comes back to the same wait and takes the seat over on its new socket
            # (no second stake); the old socket's closing then gives nothing up.
            holder = await seat_holder(runtime.redis, user.id)
            assert holder is not None
            await page.reload()
            await page.get_by_role("heading", name="Looking for players…").wait_for()
            await page.get_by_text("your seat waits 10 s for you to come back").wait_for()
            holder = await new_seat_holder(runtime.redis, user.id, holder)
            await page.locator(".chip-coins", has_text="600 coins").wait_for()
            # From any screen: the lobby, reloaded, takes the seat back too and shows the way to the wait.
            await page.get_by_role("link", name="Play", exact=True).click()
            await page.reload()
            queued = page.get_by_role("region", name="Looking for a table")
            await queued.wait_for()
            await new_seat_holder(runtime.redis, user.id, holder)
            await queued.get_by_role("link", name="Open").click()
            await page.get_by_role("heading", name="Looking for players…").wait_for()
            await page.get_by_role("button", name="Leave and get my stake back").click()
            await page.get_by_text("Your stake of 100 coins is back in your wallet.").wait_for()
            await page.locator(".chip-coins", has_text="700 coins").wait_for()

            # Ten XP short of level 3: this game's XP (30 at least) takes the player there, and the results say so.
            async with runtime.transaction() as session:
                await session.execute(update(User).where(User.id == user.id).values(
                    xp=xp_for_level(3, runtime.settings.level_xp_step) - 10))

            # Online: a Duel; nobody else is queuing, so a simulated player fills the table after the fill time.
            await page.get_by_role("link", name="Play", exact=True).click()
            await page.get_by_role("link", name="Play Stakes online").click()
            await page.get_by_role("heading", name="Stakes: play online").wait_for()
            await page.locator("label", has=page.locator("input[name=seats][value='2']")).click()
            await page.get_by_role("button", name="Find a table").click()
            await page.get_by_role("heading", name="Looking for players…").wait_for()
            await player.shot("online-waiting")
            await page.locator(".table-shell .felt").wait_for(timeout=20_000)
            await page.get_by_text("online", exact=True).first.wait_for()
            table_id = page.url.rsplit("/", 1)[-1]
            table = server.realtime.tables.get(table_id)
            assert table.mode == "online"
            seat = next(i for i, s in enumerate(table.seats) if s.name == "shopper")
            assert table.seats[1 - seat].kind == "bot"  # the simulated player
            # One word for it (platform.md), at the table as in the results.
            await page.locator(".seat-strip .tag-bot", has_text="simulated").wait_for()
            await player.shot("online-table")
            played = await play_stakes(player, server=server, table_id=table_id, seat=seat, shoot=False)
            assert not played.refusals, played

            outcome = table.game.outcome()
            won = outcome.placings[seat] == 1
            prize = (60 if won else 20) * 3  # online, 2 seats: 60 / 20; the booster (x2) and the VIP pass (x1.5)
            await page.get_by_role("link", name="See results").click()
            await page.locator("table.results tbody tr").first.wait_for()
            earned = page.get_by_role("region", name="What you earned")
            assert (await earned.locator(".stat-value").first.inner_text()).strip() == f"+{prize}"
            points = (12 if won else 8) // 2  # league points, halved: a simulated player sat at the table
            assert (await earned.locator(".stat-value").nth(2).inner_text()).strip() == f"+{points}"
            # The results say when and why the points were halved, and name the seat as the table did.
            await earned.get_by_text("League points halved (rounded down): a simulated player sat at this table",
                                     exact=False).wait_for()
            assert await page.locator("table.results .tag-bot").all_inner_texts() == ["simulated"]
            await earned.get_by_text("Level up! This game took you to level 3.").wait_for()
            await player.shot("online-results")

            # The league: this week's Stakes standings hold this game.
            await page.get_by_role("link", name="League", exact=True).click()
            await page.get_by_role("heading", name="Weekly league").wait_for()
            await page.get_by_role("button", name="Stakes", exact=True).click()
            standings = page.get_by_role("region", name=re.compile("^Standings"))
            mine = standings.locator("tr.mine")
            await mine.wait_for()
            # Name, rating (a game with a simulated player only moves no rating: still 1000, provisional), points,
            # games.
            assert re.search(rf"shopper\s+you\s+rating\s+1000\?\s+{points}\s+1$",
                             (await mine.inner_text()).replace("\t", " ")), await mine.inner_text()
            place = page.get_by_label("Your place")
            await place.get_by_text("1st").wait_for()
            await player.shot("league-this-week")

            # Last week, closed and paid.
            await page.get_by_label("Week", exact=True).select_option(last_week.isoformat())
            await standings.get_by_role("cell", name="old_champion").wait_for()
            await standings.get_by_role("cell", name="500 coins").wait_for()
            await page.get_by_text("This week is closed and its prizes are paid.").wait_for()
            await player.shot("league-last-week")
            player.check()
