"""The tables fit the screens people play on, and hold still under the pointer.

At 1366x657 (a laptop's visible page) and 390x844 (a phone), on my turn in every game my hand and my moves are
inside the viewport without scrolling (measured with the elements' bounding boxes), and the tab's title says it is my
turn. In Pika nothing under the pointer moves when a stack lands on me, a card is drawn or the colour picker opens;
the turn bar stays in sight on a scrolled phone; a card dragged to the right and one dragged to the left both reorder
the hand (mouse, and touch on the phone).
"""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import open_player, sign_up
from tests.browser.table_setups import (
    arrange_drawable, arrange_joker, arrange_stack_coming, cards_of_other_colours, live_table, my_turn,
    set_pika_hand, start_vs_bots,
)
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 657}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(LAPTOP, id="1366x657"), pytest.param(PHONE, id="390x844")]
BOXES = "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"
TAKE = re.compile(r"^Take \d+ cards?$")


async def assert_on_screen(page, selector: str, what: str, viewport: dict[str, int]) -> None:
    """Every element `selector` matches is wholly inside the viewport, the page being scrolled to its top."""
    await page.evaluate("window.scrollTo(0, 0)")
    assert await page.evaluate("window.scrollY") == 0
    boxes = await page.locator(selector).evaluate_all(BOXES)
    assert boxes, f"no {what} on the page ({selector})"
    width, height = viewport["width"], viewport["height"]
    for left, top, right, bottom in boxes:
        assert left >= -0.5 and top >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5, (
            f"{what} at ({left:.0f}, {top:.0f})-({right:.0f}, {bottom:.0f}) is not inside the {width}x{height} viewport")


async def no_sideways_scroll(page) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


async def boxes_of(page, selector: str) -> list[list[float]]:
    return [[round(v, 1) for v in box] for box in await page.locator(selector).evaluate_all(BOXES)]


async def quiet(page) -> None:
    """The move in flight is acknowledged."""
    await page.locator('.table-shell[data-busy="false"]').wait_for()


async def turn_in_title(page, game: str) -> None:
    """The tab's title says it is my turn (the title follows the table's render, a frame after its buttons)."""
    await page.wait_for_function("game => document.title.startsWith(`Your turn · ${game}`)", arg=game, timeout=10_000)


@pytest.mark.parametrize("viewport", SIZES)
async def test_on_my_turn_my_hand_and_moves_are_on_screen_in_every_game(browser_settings, playwright, profiles,
                                                                        viewport):
    label = f"fit-{viewport['width']}"
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, f"fit_{viewport['width']}", viewport=viewport, label=label,
                               profile_root=profiles) as player:
            page = player.page
            await sign_up(player)

            # Pika: the hand's cards, the pile and the playable cards.
            table_id = await start_vs_bots(player, "pika", "Pika", 3)
            await my_turn(page)
            await page.locator(".hand .hand-card").first.wait_for()
            await turn_in_title(page, "Pika")
            await assert_on_screen(page, ".hand .hand-card", "a card of my hand", viewport)
            await assert_on_screen(page, ".pile-button, .card-button, .pika-prompt .btn", "a Pika move", viewport)
            await assert_on_screen(page, ".turn-bar", "the turn bar", viewport)
            await no_sideways_scroll(page)
            await player.shot("pika")
            if viewport == PHONE:
                # A long hand makes the page scroll on a phone: whose turn and the timer stay in sight.
                table = live_table(server, table_id)
                hand = table.game.view(0)["hand"]
                set_pika_hand(table.game, 0, [*hand, *cards_of_other_colours(table.game, "none", "x-x", 14, seat=0)])
                await table.act(table.seats[0].user_id, {"type": "reorder", "hand": table.game.view(0)["hand"]})
                await page.locator(".hand .hand-card").nth(len(hand) + 13).wait_for()
                await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
                await eventually(lambda: page.evaluate("window.scrollY > 0"))
                await assert_visible_without_scrolling_back(page, ".turn-bar .turn-who", viewport)
                await assert_visible_without_scrolling_back(page, ".turn-bar .timer", viewport)
                await player.shot("pika-scrolled")
            await live_table(server, table_id).resign(live_table(server, table_id).seats[0].user_id)

            # Stakes: my row and the move buttons.
            table_id = await start_vs_bots(player, "stakes", "Stakes", 3)
            await my_turn(page)
            await page.locator(".stakes-controls").wait_for()
            await turn_in_title(page, "Stakes")
            await assert_on_screen(page, ".stakes-controls button", "a Stakes move", viewport)
            await assert_on_screen(page, ".srow-mine", "my row of cards", viewport)
            await no_sideways_scroll(page)
            await player.shot("stakes")
            await live_table(server, table_id).resign(live_table(server, table_id).seats[0].user_id)

            # Piraten Kapern: the eight dice and the buttons, before and after the first roll.
            table_id = await start_vs_bots(player, "kapern", "Piraten Kapern", 2)
            await my_turn(page)
            await page.locator(".kcontrols").wait_for()
            await turn_in_title(page, "Piraten Kapern")
            await assert_on_screen(page, ".kdice .kslot", "a die", viewport)
            await assert_on_screen(page, ".kcontrols button", "a Kapern move", viewport)
            await page.get_by_role("button", name="Roll the eight dice").click()
            await quiet(page)
            if await page.locator(".turn-bar.turn-mine .turn-who").count():  # three skulls at once end the turn
                await page.locator(".kcontrols .btn-big").last.wait_for()
                await assert_on_screen(page, ".kdice .kslot", "a die", viewport)
                await assert_on_screen(page, ".kcontrols button", "a Kapern move", viewport)
            await no_sideways_scroll(page)
            await player.shot("kapern")
            await live_table(server, table_id).resign(live_table(server, table_id).seats[0].user_id)

            # The Piker: my secret dice and every place to put one (each market card and the After Market).
            table_id = await start_vs_bots(player, "piker", "The Piker", 3)
            await page.locator(".place-btn").first.wait_for(timeout=30_000)
            await turn_in_title(page, "The Piker")
            await assert_on_screen(page, ".mydice", "my dice", viewport)
            await assert_on_screen(page, ".place-btn", "a Place button", viewport)
            await no_sideways_scroll(page)
            await player.shot("piker")
            await live_table(server, table_id).resign(live_table(server, table_id).seats[0].user_id)
            player.check()


async def assert_visible_without_scrolling_back(page, selector: str, viewport: dict[str, int]) -> None:
    box = await page.locator(selector).bounding_box()
    assert box and box["y"] >= -0.5 and box["y"] + box["height"] <= viewport["height"] + 0.5, (selector, box)


@pytest.mark.parametrize("viewport", SIZES)
async def test_pika_hand_stays_put_when_a_stack_lands_a_card_is_drawn_or_the_picker_opens(
        browser_settings, playwright, profiles, viewport):
    # The bot thinks for a second, so the hand can be measured between my play and its answer.
    settings = browser_settings.model_copy(update={"bot_delay_min_seconds": 1.0, "bot_delay_max_seconds": 1.2})
    label = f"still-{viewport['width']}"
    async with live_server(settings) as server:
        async with open_player(playwright, server.url, f"still_{viewport['width']}", viewport=viewport, label=label,
                               profile_root=profiles) as player:
            page = player.page
            await sign_up(player)
            table_id = await start_vs_bots(player, "pika", "Pika", 2)
            table = live_table(server, table_id)
            cards = ".hand .hand-card"

            # A stack lands on me: every card of my hand is where it was.
            await my_turn(page)
            play = await arrange_stack_coming(server, table_id)
            await page.locator(f".hand [data-card='{play}'] .card-button").click()
            await page.locator(".turn-bar.turn-mine").wait_for(state="detached")
            await quiet(page)
            await eventually(lambda: _count_is(page, cards, 8))
            before = await boxes_of(page, cards)
            await page.get_by_role("button", name=TAKE).wait_for()
            assert await boxes_of(page, cards) == before, "a stack landing moved my hand"
            await assert_on_screen(page, ".pika-prompt .btn", "the Take button", viewport)
            await player.shot("stack-landed")

            # I take it; the bot stops stacking. Drawing a playable card: the pile and my hand stay put.
            set_pika_hand(table.game, 1, cards_of_other_colours(table.game, "none", "x-x", 5, seat=1))
            before_take = table.version
            await page.get_by_role("button", name=TAKE).click()
            # The bot plays between my take and my next turn: arrange only once the server waits on me again (a
            # page still showing the turn before the take would let the bot's move undo the arrangement).
            await eventually(lambda: table.game.acting_seats() == [0] and table.version > before_take)
            await my_turn(page)
            await quiet(page)
            await arrange_drawable(server, table_id)
            await eventually(lambda: _count_is(page, cards, 9))
            pile = await boxes_of(page, ".pile")
            hand_top = (await page.locator(".hand").bounding_box())["y"]
            first_cards = await boxes_of(page, cards)
            await page.locator(".pile-button").click()
            await page.get_by_role("button", name="Keep it").wait_for()
            assert await boxes_of(page, ".pile") == pile, "drawing moved the pile"
            assert (await page.locator(".hand").bounding_box())["y"] == hand_top, "drawing moved my hand"
            await assert_on_screen(page, ".pika-prompt .btn", "Play it / Keep it", viewport)
            if viewport == LAPTOP:  # one row: the cards I had are where they were (wrapping may add a row on a phone)
                assert [box[1] for box in (await boxes_of(page, cards))[:9]] == [box[1] for box in first_cards]
            await player.shot("card-drawn")
            before_keep = table.version
            await page.get_by_role("button", name="Keep it").click()

            # The colour picker opens over the piles: my hand does not move.
            await eventually(lambda: table.game.acting_seats() == [0] and table.version > before_keep)
            await my_turn(page)
            await quiet(page)
            await arrange_joker(server, table_id)
            await page.locator(".hand [data-card='joker'] .card-button").wait_for()
            before = await boxes_of(page, cards)
            await page.locator(".hand [data-card='joker'] .card-button").click()
            picker = page.get_by_role("dialog", name="Choose the colour")
            await picker.wait_for()
            assert await boxes_of(page, cards) == before, "the colour picker moved my hand"
            await assert_on_screen(page, ".picker .colour-btn", "a colour", viewport)
            # Hovering a colour keeps it in its colour.
            green = picker.get_by_role("button", name="Green")
            await green.hover()
            assert await green.evaluate("b => getComputedStyle(b).backgroundColor") == "rgb(46, 125, 50)"
            await player.shot("picker-open")
            await page.keyboard.press("Escape")
            await picker.wait_for(state="detached")
            player.check()


async def _count_is(page, selector: str, count: int) -> bool:
    return await page.locator(selector).count() == count


async def _hand(page) -> list[str]:
    return await page.locator(".hand [data-card]").evaluate_all("items => items.map(i => i.dataset.card)")


def _moved(cards: list[str], start: int, end: int) -> list[str]:
    out = list(cards)
    out.insert(end, out.pop(start))
    return out


async def _drag_mouse(page, start: dict, end: dict) -> None:
    await page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    await page.mouse.down()
    for step in range(1, 11):
        x = start["x"] + (end["x"] - start["x"]) * step / 10 + start["width"] / 2
        await page.mouse.move(x, start["y"] + start["height"] / 2)
    await page.mouse.up()


async def _drag_touch(page, cdp, start: dict, end: dict) -> None:
    """A finger on the card's visible left edge, moved onto the other card's visible left edge."""
    y = start["y"] + start["height"] / 2
    x0 = start["x"] + 8
    x1 = end["x"] + 8
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for step in range(1, 11):
        x = x0 + (x1 - x0) * step / 10
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize("way", ["mouse", "touch"])
async def test_a_pika_card_dragged_right_or_left_reorders_the_hand(browser_settings, playwright, profiles, way):
    viewport = LAPTOP if way == "mouse" else PHONE
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, f"drag_{way}", viewport=viewport, label=f"drag-{way}",
                               profile_root=profiles, has_touch=way == "touch") as player:
            page = player.page
            await sign_up(player)
            table_id = await start_vs_bots(player, "pika", "Pika", 2)
            table = live_table(server, table_id)
            await my_turn(page)  # the bot waits for me: nothing else changes the hand meanwhile
            if way == "touch":  # a long hand overlaps its cards on a phone: the drag must still find its place
                hand = table.game.view(0)["hand"]
                set_pika_hand(table.game, 0, [*hand, *cards_of_other_colours(table.game, "none", "x-x", 4, seat=0)])
                await table.act(table.seats[0].user_id, {"type": "reorder", "hand": table.game.view(0)["hand"]})
                await eventually(lambda: _count_is(page, ".hand .hand-card", len(hand) + 4))
            cdp = await page.context.new_cdp_session(page) if way == "touch" else None
            items = page.locator(".hand .hand-card")

            async def drag(start: int, end: int) -> None:
                before = await _hand(page)
                a = await items.nth(start).bounding_box()
                b = await items.nth(end).bounding_box()
                if cdp:
                    await _drag_touch(page, cdp, a, b)
                else:
                    await _drag_mouse(page, a, b)
                expected = _moved(before, start, end)
                await eventually(lambda: table.game.view(0)["hand"] == expected)
                await eventually(lambda: _equals(_hand(page), expected))

            await drag(1, 4)  # to the right
            await player.shot("dragged-right")
            await drag(5, 2)  # to the left
            await player.shot("dragged-left")
            player.check()


async def _equals(awaitable, expected) -> bool:
    return await awaitable == expected
