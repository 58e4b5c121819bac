"""How to play, for each game: opened from the table's header during a practice game (a modal dialog: the focus moves
in and stays in, Escape or Close shuts it and the focus comes back, the table is still there), from the lobby's game
card and from the settings screen; the game's own words and the rule numbers of this table (a Pika alert chosen at 5
seconds reads 5, the lobby's default reads 3). On the issue's laptop (1366x657) and phone (390x844), with the Close
button inside the viewport."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.help_dialog import (
    LAPTOP, PHONE, TITLES, close_button_in_view, focus_inside, help_dialog, open_help, start_practice,
)
from tests.browser.dice_tables import stakes_put_on_top
from tests.browser.helpers import Player, open_player, sign_up
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser

# Words each game's help must show (its own rules, shared/rules/<game>.md), and words it must not (another game's).
CONTENT = {
    "pika": ["Stacking +2 and +4", "Skip", "Reverse", "Joker (wild)", "fewest first"],
    "stakes": ["The target", "Jack: Peek", "Queen: Shield", "King: Nudge", "The Duel", "Pressure"],
    "kapern": ["Skull Island", "Full chest", "Treasure Island (4)", "Zombie attack (2)", "8,000"],
    "piker": ["Secure value", "After Market", "Tiers", "VP, victory points", "Only secured cards score at the end",
              "Margin Call (now)", "Diversified portfolio"],
}
SEATS = {"pika": 3, "stakes": 3, "kapern": 2, "piker": 3}


async def shows_game(dialog, game: str) -> None:
    text = await dialog.inner_text()
    for words in CONTENT[game]:
        assert words in text, f"{game}'s How to play lacks {words!r}"
    for other, words_list in CONTENT.items():
        if other != game:
            assert words_list[0] not in text, f"{game}'s How to play shows {other}'s {words_list[0]!r}"
    # Pictures: the tables' own cards and dice, drawn inside the dialog.
    assert await dialog.locator(".help-pics > *").count() >= 5


async def tab_stays_inside(player: Player, dialog) -> None:
    page = player.page
    for key in ("Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"):
        await page.keyboard.press(key)
        assert await focus_inside(dialog), f"{key} took the focus out of the How to play dialog"


async def play_goes_on_under_the_help(player: Player, server: Any, table_id: str, opener) -> None:
    """Stakes, 3 seats: once my first flip is made the bots play on while I read, and the table's new turns (which
    move the focus to new buttons when it is my turn again) leave the dialog open with the focus inside."""
    page = player.page
    table = server.realtime.tables.get(table_id)
    await page.locator(".stakes-rows").wait_for()
    await page.locator(".turn-bar.turn-mine").wait_for()  # the bots before me flip first
    stakes_put_on_top(table.game, "5")  # a plain card, so play passes (unless a bot's Peek holds the deck)
    before = table.version
    await page.get_by_role("button", name="Flip a card").click()

    async def my_turn_over() -> bool:
        answer = page.locator(".decision button:not([disabled])")  # a Jack's or a King's, if the 5 could not be set
        if await answer.count():
            await answer.first.click()
        return not await page.locator(".turn-bar.turn-mine").count()

    await eventually(my_turn_over)
    dialog = await open_help(page, opener, "stakes")
    await eventually(lambda: table.version > before + 1)  # at least one bot moved after my flip
    await page.wait_for_function(f"() => Number(document.querySelector('.table-shell').dataset.version) >= {table.version}")
    assert await dialog.is_visible() and await focus_inside(dialog)
    await dialog.get_by_role("button", name="Close How to play").click()
    await dialog.wait_for(state="detached")


async def help_at_the_table(player: Player, server: Any, game: str, label: str) -> None:
    page = player.page
    options = {"Time to call “Pika!”": "5 seconds"} if game == "pika" else None
    table_id = await start_practice(player, game, SEATS[game], options=options)
    header = page.locator(".page-head")
    opener = header.get_by_role("button", name=f"How to play {TITLES[game]}")

    if game == "stakes":
        await play_goes_on_under_the_help(player, server, table_id, opener)

    # Escape closes; the focus goes back to the button; the table stays.
    dialog = await open_help(page, opener, game)
    await shows_game(dialog, game)
    await close_button_in_view(page, dialog)
    await tab_stays_inside(player, dialog)
    if game == "pika":
        assert "within 5 seconds" in await dialog.inner_text()  # this table's option, from its view
    if game == "stakes":
        assert "A + B + 10" in await dialog.inner_text()  # the view's target_base
    if game == "piker":
        assert "5 spots at this table (players + 2)" in await dialog.inner_text()  # the view's After Market
    await player.shot(f"help-{game}-table-{label}", full_page=False)
    await page.keyboard.press("Escape")
    await dialog.wait_for(state="detached")
    assert await opener.evaluate("button => button === document.activeElement")
    assert page.url.endswith(f"#/table/{table_id}")
    await page.locator(".table-shell").wait_for()

    # The Close button closes too (after scrolling to the end of the text).
    dialog = await open_help(page, opener, game)
    await dialog.locator(".help-body").evaluate("body => body.scrollTo(0, body.scrollHeight)")
    await close_button_in_view(page, dialog)
    await dialog.get_by_role("button", name="Close How to play").click()
    await dialog.wait_for(state="detached")
    assert await opener.evaluate("button => button === document.activeElement")
    assert page.url.endswith(f"#/table/{table_id}")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
async def test_how_to_play_opens_from_the_table_the_lobby_and_the_settings(browser_settings, playwright, profiles,
                                                                           viewport):
    label = "laptop" if viewport is LAPTOP else "phone"
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, f"reader_{label}", viewport=viewport, label=f"help-{label}",
                               profile_root=profiles) as player:
            page = player.page
            await sign_up(player)

            # The lobby's game card: the default numbers of /api/games.
            card = page.get_by_role("article", name="Pika", exact=True)
            dialog = await open_help(page, card.get_by_role("button", name="How to play Pika"), "pika")
            await shows_game(dialog, "pika")
            assert "within 3 seconds" in await dialog.inner_text()
            await close_button_in_view(page, dialog)
            await player.shot(f"help-pika-lobby-{label}", full_page=False)
            await dialog.get_by_role("button", name="Close How to play").click()
            await dialog.wait_for(state="detached")

            # The settings screen.
            await page.goto("/#/new/kapern/bots")
            opener = page.get_by_role("button", name="How to play Piraten Kapern")
            dialog = await open_help(page, opener, "kapern")
            await shows_game(dialog, "kapern")
            await close_button_in_view(page, dialog)
            await page.keyboard.press("Escape")
            await dialog.wait_for(state="detached")
            await page.get_by_role("button", name="Start game").wait_for()

            for game in ("pika", "stakes", "kapern", "piker"):
                await help_at_the_table(player, server, game, label)
            assert not await help_dialog(page, "piker").count()
            assert re.search(r"#/table/", page.url)
            player.check()
