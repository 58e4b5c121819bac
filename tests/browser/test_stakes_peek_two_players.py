"""Two browsers at one Stakes table (a friends room): when one flips a Jack, the Peek dialog with the two cards shows
for the peeker only. The other player sees that a Peek happens, never the cards (not on the page, not in a single
frame their socket receives), and learns only that the cards went back in an order nobody else knows."""

from __future__ import annotations

import json
import re

import pytest

from app.games.stakes.game import Stakes
from tests.browser.dice_tables import stakes_put_on_top
from tests.browser.helpers import DESKTOP, PHONE, open_player, sign_up
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser

RANK_WORD = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_WORD = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def label(card: str) -> str:
    rank, suit = card[:-1], card[-1]
    return f"{RANK_WORD.get(rank, rank)} of {SUIT_WORD[suit]}"


@pytest.fixture
def jacks_at_the_bottom(monkeypatch):
    """A stated deal: every Jack dealt last, so the bot cannot flip one (and peek, which pins the top cards)
    before one of the two people gets a turn; the test then puts a Jack on top for that person's Flip."""
    dealt = Stakes.create.__func__

    def create(cls, seats, options, rng):
        game = dealt(cls, seats, options, rng)
        game.deck.sort(key=lambda card: card[:-1] == "J")  # stable: the other cards keep the shuffled order
        return game

    monkeypatch.setattr(Stakes, "create", classmethod(create))


async def test_the_peek_dialog_shows_for_the_peeker_only(browser_settings, playwright, profiles, jacks_at_the_bottom):
    async with live_server(browser_settings) as server:
        async with (
            open_player(playwright, server.url, "ann_host", viewport=DESKTOP, label="peek-host",
                        profile_root=profiles) as host,
            open_player(playwright, server.url, "bob_guest", viewport=PHONE, label="peek-guest",
                        profile_root=profiles) as guest,
        ):
            received: dict[str, list[str]] = {"ann_host": [], "bob_guest": []}
            for player in (host, guest):
                player.page.on("websocket", lambda ws, name=player.name: ws.on(
                    "framereceived", lambda payload: received[name].append(str(payload))))
            await sign_up(host)
            await sign_up(guest)

            # A Stakes room for three: the host invites the guest by username and adds a bot.
            await host.page.goto("/#/new/stakes/friends")
            await host.page.get_by_role("heading", name="Stakes: play with friends").wait_for()
            await host.page.locator("label", has=host.page.locator("input[name=seats][value='3']")).click()
            await host.page.get_by_label("Invite a player (optional)").fill("bob_guest")
            await host.page.get_by_role("button", name="Create room").click()
            await host.page.get_by_role("heading", name="Stakes room").wait_for()
            invitations = guest.page.get_by_role("region", name="Invitations")  # the lobby lists them as they come
            await invitations.get_by_text("ann_host invites you to Stakes").wait_for()
            await invitations.get_by_role("button", name="Accept").click()
            await guest.page.get_by_role("heading", name="Stakes room").wait_for()
            await host.page.locator(".seat-row", has_text="bob_guest").wait_for()
            await host.page.get_by_role("button", name="Add a bot").click()
            await host.page.get_by_role("button", name=re.compile("Start the game")).click()
            for player in (host, guest):
                await player.page.locator(".stakes-rows").wait_for()
            table_id = host.page.url.rsplit("/", 1)[-1]
            table = server.realtime.tables.get(table_id)
            seats = {seat.name: index for index, seat in enumerate(table.seats)}

            # Whoever of the two people gets the turn first flips; the deal puts a Jack on top for that Flip.
            async def flip_button(player):
                button = player.page.get_by_role("button", name="Flip a card")
                return button if await button.count() else None

            peeker = other = None

            async def someone_may_flip() -> bool:
                nonlocal peeker, other
                for player, rival in ((host, guest), (guest, host)):
                    if await flip_button(player):
                        peeker, other = player, rival
                        return True
                return False

            await eventually(someone_may_flip, timeout=20)  # neither person got a turn, else
            jack = stakes_put_on_top(table.game, "J")
            assert jack is not None
            await (await flip_button(peeker)).click()

            dialog = peeker.page.get_by_role("dialog", name="Peek: the top two cards")
            await dialog.wait_for()
            peeked = list(table.game.pending["cards"])
            for card in peeked:
                await dialog.get_by_role("img", name=label(card)).wait_for()
            await other.page.get_by_text(re.compile(rf"^{peeker.name} flipped a Jack and is peeking")).wait_for()
            assert await other.page.get_by_role("dialog").count() == 0
            body = await other.page.locator("body").inner_text()
            assert not any(label(card) in body for card in peeked), "the other player's page shows a peeked card"
            await peeker.shot("peek-dialog")
            await other.shot("peek-seen-by-the-other")

            # The peeker chooses the order with the keyboard: the first order has the focus.
            await peeker.page.locator(":focus").filter(has_text="on top").wait_for()
            await peeker.page.keyboard.press("Enter")
            await other.page.get_by_text(f"{peeker.name} put the two cards back in an order only they know.").first.wait_for()
            await peeker.page.get_by_text(re.compile(r"^You peeked: the next cards are ")).wait_for()
            await peeker.shot("peek-known-order")
            assert await dialog.count() == 0

            # Not one frame the other seat received up to the put-back named a peeked card.
            frames = received[other.name]
            cut = next(i for i, frame in enumerate(frames) if '"put_back"' in frame)
            leaked = [frame for frame in frames[:cut + 1] if any(f'"{card}"' in frame for card in peeked)]
            assert not leaked, leaked[:1]
            peeker_frames = "".join(received[peeker.name])
            assert all(f'"{card}"' in peeker_frames for card in peeked)
            # Those frames were the other seat's: its socket's full message says whose seat it follows.
            first = json.loads(next(f for f in frames if '"type":"sync"' in f or '"type":"catch_up"' in f))
            assert seats[other.name] == first["seat"]
            assert any('"peek"' in f and '"events"' in f for f in frames)

            host.check()
            guest.check()
