"""Ratings in the browser (docs/ratings.md): two people meet at an online Stakes Duel, each seat shows its rating,
and once the game is over the results show each one's rating change; then one opens the other's profile from the
Friends page and finds the game there."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.browser.helpers import DESKTOP, PHONE, open_player, sign_up
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser


def signed_text(n: int) -> str:
    """As the client's `signed` writes a change: +12, −7 (a minus sign), 0."""
    return f"+{n:,}" if n > 0 else f"\u2212{-n:,}" if n < 0 else "0"


async def find_a_table(page) -> None:
    await page.goto("/#/play/stakes/online")
    await page.get_by_role("heading", name="Stakes: play online").wait_for()
    await page.locator("label", has=page.locator("input[name=seats][value='2']")).click()
    await page.get_by_role("button", name="Find a table").click()


async def play_to_the_end(table) -> None:
    """Both people's moves, sent to the table as their sockets would: bank when allowed, else the first legal move
    (a Stakes Duel ends in a few dozen moves)."""
    for _ in range(500):
        if table.game.is_over:
            return
        for seat in table.game.acting_seats():
            legal = table.game.legal_actions(seat)
            if legal:
                move = next((action for action in legal if action["type"] == "bank"), legal[0])
                await table.act(table.seats[seat].user_id, move)
                break
        else:
            await asyncio.sleep(0.05)
    raise AssertionError("the Duel did not end")


async def test_an_online_game_between_two_people_shows_each_rating_change_and_a_friend_s_profile(
        browser_settings, playwright, profiles):
    # No simulated player: the fill time is longer than the test needs for both people to queue.
    settings = browser_settings.model_copy(update={"online_fill_seconds": 60.0, "matchmaking_tick_seconds": 0.2})
    async with live_server(settings) as server:
        async with (
            open_player(playwright, server.url, "rita", viewport=DESKTOP, label="ratings-rita",
                        profile_root=profiles) as rita,
            open_player(playwright, server.url, "sam_r", viewport=PHONE, label="ratings-sam",
                        profile_root=profiles) as sam,
        ):
            await sign_up(rita)
            await sign_up(sam)
            # They are friends (asked and accepted through the API the Friends page uses).
            assert (await rita.page.request.post("/api/friends/requests", data={"username": "sam_r"})).ok
            assert (await sam.page.request.post("/api/friends/requests/rita/accept")).ok

            await find_a_table(rita.page)
            await rita.page.get_by_role("heading", name="Looking for players…").wait_for()
            await find_a_table(sam.page)
            for player in (rita, sam):
                await player.page.locator(".table-shell .felt").wait_for(timeout=20_000)
            table_id = rita.page.url.rsplit("/", 1)[-1]
            assert sam.page.url.rsplit("/", 1)[-1] == table_id
            table = server.realtime.tables.get(table_id)
            assert table.mode == "online" and all(seat.kind == "human" for seat in table.seats)
            # Each seat shows its rating: new players, 1000 and provisional ("?").
            for player in (rita, sam):
                tags = player.page.locator(".seat-strip .tag-rating")
                await eventually(lambda tags=tags: _count_is(tags, 2))
                assert [text.replace("rating", "").strip() for text in await tags.all_inner_texts()] == ["1000?"] * 2
            await rita.shot("rated-table")

            await play_to_the_end(table)
            await eventually(lambda: table.status == "finished")
            rewards = table.rewards
            for player in (rita, sam):
                seat = next(index for index, s in enumerate(table.seats) if s.name == player.name)
                change = rewards[seat]["rating"]["change"]
                page = player.page
                await page.get_by_role("link", name="See results").click()
                earned = page.get_by_role("region", name="What you earned")
                rating = earned.locator(".stat-rating .stat-value")
                await rating.wait_for()
                shown = (await rating.inner_text()).split("→")[0].strip()
                assert shown == signed_text(change), (player.name, shown, change)
                # The placings say both changes, one per person.
                cells = page.locator("table.results tbody td .rating-change")
                await eventually(lambda cells=cells: _count_is(cells, 2))
                await player.shot("rated-results")
            placings = table.game.outcome().placings
            if placings[0] != placings[1]:  # a tie moves both alike
                first, second = placings.index(1), placings.index(2)
                assert rewards[first]["rating"]["change"] > 0 > rewards[second]["rating"]["change"]

            # Sam opens Rita's profile from the Friends page: her Stakes rating moved, and the game is there.
            page = sam.page
            await page.get_by_role("link", name="Friends", exact=True).click()
            await page.get_by_role("heading", name="Friends", exact=True).wait_for()
            await page.get_by_role("link", name="rita", exact=True).click()
            await page.get_by_role("heading", name="rita").wait_for()
            assert re.search(r"#/u/rita$", page.url)
            stakes_row = page.get_by_role("row", name=re.compile("^Stakes"))
            rita_seat = next(index for index, s in enumerate(table.seats) if s.name == "rita")
            await stakes_row.get_by_text(str(rewards[rita_seat]["rating"]["rating"]), exact=True).wait_for()
            recent = page.get_by_role("region", name="Recent rated games")
            await recent.get_by_text("Stakes").first.wait_for()
            await recent.locator(".rating-change").first.wait_for()
            await sam.shot("friend-profile")
            for player in (rita, sam):
                player.check()


async def _count_is(locator, count: int) -> bool:
    return await locator.count() == count
