"""The game's log at the table (issue 18): the last few lines stay in view and the whole log opens in a panel; a
turn whose time ran out says so; a reload shows the same log as before it; a player who closed the tab and comes
back reads what the bot covering their seat did for them."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import DESKTOP, Player, click_card, open_player, sign_up
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser

SHORTEST_TURN = 5  # seconds: the shortest turn timer a table takes (app/core/params.py, TurnSeconds)
RECENT = ".game-log .log-recent li"
# What the bot did on our first turn depends on the deal: a +2 played before it makes it take the stack.
TIMED_OUT = re.compile(r"^Time ran out — a bot played for you: you (played|drew|took) ")
COVERED = re.compile(r"^You were away — a bot played for you: you (played|drew|kept|took) ")

CREATE_TABLE = """async (turnSeconds) => {
  const response = await fetch('/api/tables', {
    method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json', Accept: 'application/json'},
    body: JSON.stringify({game: 'pika', seats: 2, bot_level: 'easy', turn_seconds: turnSeconds}),
  });
  return (await response.json()).id;
}"""


async def whole_log(page) -> list[str]:
    """Every line of the log, oldest first: from the whole-log panel once there is one, else the lines in view."""
    panel = page.locator(".game-log details.log-all")
    if await panel.count():
        if not await panel.evaluate("details => details.open"):
            await panel.locator("summary").click()
        lines = await page.locator(".game-log .log-lines li:not(.muted)").all_inner_texts()
    else:
        lines = await page.locator(f"{RECENT}:not(.muted)").all_inner_texts()
    return [line.strip() for line in reversed(lines)]


async def recent_lines(page) -> list[str]:
    return [line.strip() for line in await page.locator(RECENT).all_inner_texts()]


async def play_by_hand(player: Player, table) -> None:
    """One move as a person makes it, once the page shows the table as it is: keep a card just drawn, else play a
    coloured card that fits, else draw."""
    page = player.page
    await eventually(lambda: _page_shows(page, table.version))
    keep = page.get_by_role("button", name="Keep it", exact=True)
    card = page.locator(".hand [data-card]:not([data-card='joker']):not([data-card='+4']) .card-button")
    if await keep.count():
        await keep.click()
    elif await card.count():
        await click_card(card.first)
    else:
        await page.locator(".pile-button").click()


async def test_the_log_survives_a_reload_and_says_when_time_ran_out_and_what_a_covering_bot_did(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "chronicler", viewport=DESKTOP, label="log-desktop",
                               profile_root=profiles) as player:
            page = player.page
            await sign_up(player)
            table_id = await page.evaluate(CREATE_TABLE, SHORTEST_TURN)
            await page.goto(f"/#/table/{table_id}")
            await page.locator(".hand [data-card]").first.wait_for()
            table = server.realtime.tables.get(table_id)

            # The first turn of ours runs out: a bot plays it, and the log says so (in view, not only in the panel).
            await page.locator(".turn-bar.turn-mine").wait_for()
            await eventually(lambda: any(e.source == "timeout" for e in table.entries), timeout=SHORTEST_TURN + 10)
            await eventually(lambda: _any_matches(recent_lines(page), TIMED_OUT))
            assert await page.locator(f"{RECENT}.log-auto").count() >= 1
            await player.shot("timed-out")

            # Then a few moves by hand, until more lines than stay in view.
            while len(await whole_log(page)) <= 8 and not table.game.is_over:
                await page.locator(".turn-bar.turn-mine, .game-over").first.wait_for(timeout=SHORTEST_TURN * 1000)
                if await page.locator(".game-over").count():
                    break
                before = table.version
                await play_by_hand(player, table)
                await eventually(lambda: table.version > before)
            shown = await whole_log(page)
            assert await page.locator(RECENT).count() == min(6, len(shown)) > 1  # the last few, not only the latest
            assert any(TIMED_OUT.match(line) for line in shown)
            assert any(line.startswith(("You played", "You drew", "You kept")) for line in shown)
            await player.shot("whole-log-open")

            # A reload shows the same log (and whatever came after it).
            await page.reload()
            await page.locator(".hand [data-card], .game-over").first.wait_for()
            await eventually(lambda: _starts_with(whole_log(page), shown))
            await player.shot("after-reload")

            # The tab is closed; past the grace time a bot covers the seat. Coming back, the log says what it did.
            if not table.game.is_over:
                before_closing = await whole_log(page)
                covered_before = sum(1 for e in table.entries if e.source == "away")
                await page.close()
                await eventually(lambda: sum(1 for e in table.entries if e.source == "away") > covered_before
                                 or table.game.is_over, timeout=30)
                page = player.page = await player.context.new_page()
                player.watch()
                await page.goto(f"/#/table/{table_id}")
                await page.locator(".hand [data-card], .game-over").first.wait_for()
                await eventually(lambda: _starts_with(whole_log(page), before_closing))
                after = await whole_log(page)
                if any(e.source == "away" for e in table.entries):
                    assert any(COVERED.match(line) for line in after), after
                await player.shot("back-after-closing")
            player.check()


async def _page_shows(page, version: int) -> bool:
    return int(await page.locator(".table-shell").get_attribute("data-version")) == version


async def _any_matches(lines_awaitable, pattern: re.Pattern[str]) -> bool:
    return any(pattern.match(line) for line in await lines_awaitable)


async def _starts_with(lines_awaitable, expected: list[str]) -> bool:
    lines = await lines_awaitable
    return lines[: len(expected)] == expected
