"""Situations the layout tests (and the screenshots) need, arranged on a live table while the test's player is to act.

The engines run in the test's process (`server.realtime.tables`), so a test can state a deal the way the engines'
scripted tests do: cards change places, none is made or lost (the 108 Pika cards stay 108). The bots wait while it is
the player's turn, so nothing moves the cards while they are arranged. `show_arranged` then makes the table send its
views again (a reorder of the seat's own hand, which changes nothing else), so the page shows the new deal.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from app.games.pika.cards import CODE, NAMES
from tests.browser.helpers import Player
from tests.support.waiting import eventually


async def start_vs_bots(player: Player, game: str, title: str, seats: int, *, level: str = "Easy",
                        turn_seconds: str = "120") -> str:
    """From the game's vs-bots settings to its table (any game, Pika included). Returns the table id."""
    page = player.page
    await page.goto(f"/#/new/{game}/bots")
    await page.get_by_role("heading", name=f"{title}: practice vs bots").wait_for()
    await page.locator("label", has=page.locator(f"input[name=seats][value='{seats}']")).click()
    await page.locator("label", has_text=level).click()
    await page.get_by_label("Time per turn").select_option(turn_seconds)
    await page.get_by_role("button", name="Start game").click()
    await page.locator(".table-shell").wait_for()
    return page.url.rsplit("/", 1)[-1]


async def my_turn(page: Page) -> None:
    await page.locator(".turn-bar.turn-mine").wait_for()


def live_table(server: Any, table_id: str) -> Any:
    return server.realtime.tables.get(table_id)


# ---------------------------------------------------------------------------------------------------- Pika


def _take_card(game: Any, name: str, *, keep_seat: int) -> int:
    """Remove one `name` from the pile, another seat's hand or the discard under its top; returns its code."""
    code = CODE[name]
    if code in game.pile:
        game.pile.remove(code)
        return code
    for seat, hand in enumerate(game.hands):
        if seat != keep_seat and code in hand:
            hand.remove(code)
            return code
    if code in game.discard[:-1]:
        index = game.discard.index(code)
        del game.discard[index]
        game.discard_counts[code] -= 1
        return code
    raise AssertionError(f"no {name} left to arrange")


def set_pika_hand(game: Any, seat: int, names: list[str]) -> None:
    """Give `seat` exactly `names`: missing cards come from elsewhere, its other cards go under the draw pile."""
    wanted = [CODE[name] for name in names]
    hand = list(game.hands[seat])
    kept: list[int] = []
    for code in wanted:
        if code in hand:
            hand.remove(code)
            kept.append(code)
        else:
            kept.append(_take_card(game, NAMES[code], keep_seat=seat))
    game.pile[:0] = hand  # the cards given up go to the bottom of the pile (the next card is at the end)
    game.hands[seat] = kept


def put_on_pile(game: Any, name: str, *, keep_seat: int) -> None:
    """Make `name` the next card drawn."""
    game.pile.append(_take_card(game, name, keep_seat=keep_seat))


def pika_top(game: Any) -> tuple[str, str]:
    """The discard's top card and the colour in play."""
    return NAMES[game.discard[-1]], ("red", "yellow", "green", "blue")[game.colour]


def cards_of_other_colours(game: Any, colour: str, top: str, count: int, *, seat: int) -> list[str]:
    """`count` number cards that match neither `colour` nor the top's rank, from the pile (so they are free)."""
    rank = top.split("-", 1)[1] if "-" in top else top
    out = []
    for code in reversed(game.pile):
        name = NAMES[code]
        if "-" not in name:
            continue
        card_colour, card_rank = name.split("-", 1)
        if card_colour != colour and card_rank != rank and card_rank.isdigit():
            out.append(name)
            if len(out) == count:
                return out
    raise AssertionError("not enough plain cards in the pile")


async def show_arranged(server: Any, table_id: str, seat: int) -> None:
    """The table sends every seat its view again: the seat 'reorders' its hand into the order it has."""
    table = live_table(server, table_id)
    version = table.version
    user_id = table.seats[seat].user_id
    await table.act(user_id, {"type": "reorder", "hand": table.game.view(seat)["hand"]})
    await eventually(lambda: table.version > version)


def check_pika(game: Any) -> None:
    problems = game.check_invariants()
    assert not problems, problems


def free_number_card(game: Any, colour: str, *, avoid: str) -> str:
    """A number card of `colour` that is still in the pile (so it can be dealt to anyone), other than `avoid`."""
    for rank in "123456789":
        name = f"{colour}-{rank}"
        if name != avoid and CODE[name] in game.pile:
            return name
    raise AssertionError(f"no {colour} number card left in the pile")


def quiet_pika(game: Any) -> None:
    """No stack pending and no drawn card waiting: the player simply plays or draws."""
    game.stack = 0
    game.drawn = -1


async def arrange_stack_coming(server: Any, table_id: str) -> str:
    """Seat 0 (to act) gets one card it can play and plain cards; the bot after it holds only +2s of every colour,
    so the bot's answer to that play is a +2: a stack lands on seat 0. Returns the card seat 0 should play."""
    game = live_table(server, table_id).game
    quiet_pika(game)
    top, colour = pika_top(game)
    play = free_number_card(game, colour, avoid=top)
    set_pika_hand(game, 0, [play, *cards_of_other_colours(game, colour, top, 8, seat=0)])
    set_pika_hand(game, 1, ["red-+2", "yellow-+2", "green-+2", "blue-+2"])
    check_pika(game)
    await show_arranged(server, table_id, 0)
    return play


async def arrange_drawable(server: Any, table_id: str) -> str:
    """Seat 0 (to act) holds nothing it can play, and the next card of the pile can be played: drawing offers
    "Play it" / "Keep it". Returns that card."""
    game = live_table(server, table_id).game
    quiet_pika(game)
    top, colour = pika_top(game)
    set_pika_hand(game, 0, cards_of_other_colours(game, colour, top, 9, seat=0))
    card = free_number_card(game, colour, avoid=top)
    put_on_pile(game, card, keep_seat=0)
    check_pika(game)
    await show_arranged(server, table_id, 0)
    return card


async def arrange_joker(server: Any, table_id: str) -> None:
    """Seat 0 (to act) holds a Joker among plain cards."""
    game = live_table(server, table_id).game
    quiet_pika(game)
    top, colour = pika_top(game)
    set_pika_hand(game, 0, [*cards_of_other_colours(game, colour, top, 8, seat=0), "joker"])
    check_pika(game)
    await show_arranged(server, table_id, 0)
