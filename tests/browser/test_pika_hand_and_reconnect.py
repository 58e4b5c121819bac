"""A hand reordered by drag and drop (and by the keyboard: the sort buttons, Shift with an arrow) is kept by the server across a reload;
a dropped socket shows the reconnect banner, reconnects by itself and rejoins from the last version seen; so does a
browser that goes offline, at once."""

from __future__ import annotations

import json

import pytest

from tests.browser.helpers import DESKTOP, open_player, sign_up
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser

HAND = ".hand [data-card]"
COLOURS = ["red", "yellow", "green", "blue"]
RANKS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "+2", "joker", "+4"]


def colour_order(card: str) -> tuple[int, int]:
    if card in ("joker", "+4"):
        return 4, RANKS.index(card)
    colour, rank = card.split("-", 1)
    return COLOURS.index(colour), RANKS.index(rank)


async def shown_hand(page) -> list[str]:
    return await page.locator(HAND).evaluate_all("items => items.map(i => i.dataset.card)")


async def focused_card_index(page) -> int | None:
    index = await page.evaluate("() => document.activeElement?.closest('.hand [data-index]')?.dataset.index ?? null")
    return None if index is None else int(index)


async def test_a_reordered_hand_survives_a_reload_and_a_dropped_socket_rejoins_from_its_version(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "arranger", viewport=DESKTOP, label="hand-desktop",
                               profile_root=profiles) as player:
            page = player.page
            await sign_up(player)
            await page.get_by_role("article", name="Pika", exact=True).get_by_role("link", name="Practice vs bots").click()
            await page.get_by_label("Time per turn").select_option("120")  # nothing times out while we arrange
            await page.get_by_role("button", name="Start game").click()
            await page.locator(HAND).first.wait_for()
            table_id = page.url.rsplit("/", 1)[-1]
            table = server.realtime.tables.get(table_id)

            def server_hand() -> list[str]:
                return table.game.view(0)["hand"]

            before = await shown_hand(page)
            assert before == server_hand() and len(before) == 7

            # Drag the first card onto the last one, with the mouse, as a person would. Wait for our turn first: the
            # bots then wait for us, so nothing moves the cards between measuring them and pressing the mouse.
            await page.locator(".turn-bar.turn-mine").wait_for()
            first = await page.locator(HAND).first.bounding_box()
            last = await page.locator(HAND).last.bounding_box()
            await page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
            await page.mouse.down()
            for step in range(1, 11):
                x = first["x"] + (last["x"] - first["x"]) * step / 10 + first["width"] / 2
                await page.mouse.move(x, first["y"] + first["height"] / 2)
            await page.locator(".hand-card.dragging").wait_for()
            await player.shot("dragging")
            await page.mouse.up()
            expected = before[1:] + before[:1]
            await eventually(lambda: server_hand() == expected)
            await eventually(lambda: _equals(shown_hand(page), expected))
            await player.shot("reordered")

            # A reload shows the order the server kept.
            await page.reload()
            await page.locator(HAND).first.wait_for()
            assert await shown_hand(page) == expected
            await player.shot("after-reload")

            # The keyboard way: the sort buttons.
            await page.get_by_role("button", name="Sort by colour").focus()
            await page.keyboard.press("Enter")
            by_colour = sorted(expected, key=colour_order)
            await eventually(lambda: server_hand() == by_colour)
            await eventually(lambda: _equals(shown_hand(page), by_colour))

            # The keyboard's drag and drop: the arrows go from card to card, Shift with an arrow carries the focused
            # card one place (the server keeps the order) and the focus goes with it.
            await page.locator(".hand [data-card-focus]").first.focus()
            await page.keyboard.press("ArrowRight")
            await eventually(lambda: _equals(focused_card_index(page), 1))  # the focus follows the re-drawn card
            await page.keyboard.press("Shift+ArrowRight")
            by_keys = [by_colour[0], by_colour[2], by_colour[1], *by_colour[3:]]
            await eventually(lambda: server_hand() == by_keys)
            await eventually(lambda: _equals(shown_hand(page), by_keys))
            await eventually(lambda: _equals(focused_card_index(page), 2))  # the focus follows the re-drawn card
            await player.shot("moved-by-keyboard")
            await page.keyboard.press("Shift+ArrowLeft")
            await eventually(lambda: server_hand() == by_colour)
            await eventually(lambda: _equals(shown_hand(page), by_colour))
            await eventually(lambda: _equals(focused_card_index(page), 1))  # the focus follows the re-drawn card

            # The socket drops: the banner shows, the page reconnects alone and rejoins from its last version.
            await page.evaluate("""() => {
                window.sawReconnectBanner = false;
                new MutationObserver(() => {
                    if (document.querySelector('.banner-warning')) window.sawReconnectBanner = true;
                }).observe(document.body, {childList: true, subtree: true});
            }""")
            version = int(await page.locator(".table-shell").get_attribute("data-version"))
            player.sent_frames.clear()
            user_id = table.seats[0].user_id
            for connection in server.realtime.hub.connections_of(user_id):
                await connection.close(1012, "test: the node restarts")
            await eventually(lambda: page.evaluate("window.sawReconnectBanner"))
            await page.locator(".banner-warning").wait_for(state="detached")
            await eventually(lambda: bool(server.realtime.hub.connections_of(user_id)))
            joins = [json.loads(frame) for frame in player.sent_frames if '"join"' in frame]
            assert joins and joins[-1]["table"] == table_id and joins[-1]["since"] is not None
            assert joins[-1]["since"] >= version
            # The table is live again: the hand is the same and the game goes on.
            assert await shown_hand(page) == by_colour
            await player.shot("reconnected")

            # The network goes away: the banner says so at once, not a ping (25 s) later; when the network is back
            # the page reconnects by itself and rejoins from its version.
            version = int(await page.locator(".table-shell").get_attribute("data-version"))
            player.sent_frames.clear()
            await player.context.set_offline(True)
            await page.get_by_role("status").get_by_text("You are offline.").wait_for()
            await player.shot("offline")
            await player.context.set_offline(False)
            await page.locator(".banner-warning").wait_for(state="detached")
            joins = [json.loads(frame) for frame in player.sent_frames if '"join"' in frame]
            assert joins and joins[-1]["table"] == table_id and joins[-1]["since"] >= version
            assert await shown_hand(page) == by_colour

            # The keyboard alone: Tab reaches a move in the table, its focus ring shows, Enter makes it.
            await page.locator(".turn-bar.turn-mine").wait_for()
            version = int(await page.locator(".table-shell").get_attribute("data-version"))
            for _ in range(80):
                await page.keyboard.press("Tab")
                focused = await page.evaluate("""() => {
                    const e = document.activeElement;
                    const move = e && e.tagName === 'BUTTON' && e.closest('.pika')
                        && !(e.getAttribute('aria-label') || '').startsWith('Sort');
                    return move ? {label: e.getAttribute('aria-label') || e.textContent.trim(),
                                   outline: getComputedStyle(e).outlineStyle} : null;
                }""")
                if focused:
                    break
            else:
                raise AssertionError("Tab never reached a move on the table")
            assert focused["outline"] != "none", focused
            await player.shot("keyboard-focus")
            await page.keyboard.press("Enter")
            picker = page.get_by_role("dialog", name="Choose the colour")
            if await picker.count():
                await page.keyboard.press("Enter")
            await eventually(lambda: _newer(page, version))
            player.check()


async def _equals(awaitable, expected) -> bool:
    return await awaitable == expected


async def _newer(page, version: int) -> bool:
    return int(await page.locator(".table-shell").get_attribute("data-version")) > version
