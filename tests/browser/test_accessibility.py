"""axe-core over every screen of the client: no violation on any, on the issue's laptop (1366x657) and phone (390x844).

axe-core comes pinned inside the PyPI package axe-playwright-python (its `axe.min.js`, AXE_VERSION below; pyproject
pins the package): nothing is fetched at test time. Every rule axe runs by default applies (WCAG 2 A and AA, and its
best practices). The screens: the front page, log in, sign up, the lobby, both settings screens, friends, my games
(empty, then with a game), wallet, league, shop, both matchmaking forms and the waiting screen, a friends room; the
table of each game: Pika and The Piker played to the end and checked at each moment the play helpers screenshot the
first time (the colour picker, a stack, the alert, every Piker decision), Kapern after a roll, a Stakes Duel with a
King's Nudge and a Peek to its game-over box; the results; and How to play opened from a game card, the settings and
each table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from axe_playwright_python.async_playwright import Axe

from tests.browser.dice_tables import play_piker, play_stakes
from tests.browser.help_dialog import LAPTOP, PHONE, TITLES, open_help, start_practice
from tests.browser.helpers import Player, open_player, play_pika, sign_up, table_version
from tests.support.live import live_server

pytestmark = pytest.mark.browser

AXE_VERSION = "4.12.1"  # the axe-core inside axe-playwright-python 0.1.8 (pyproject pins the package)

_axe = Axe()


class Audit:
    """Runs axe on the page as it is now and keeps every violation, by screen, to report them all at once."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.screens: list[str] = []
        self.found: dict[str, str] = {}
        self.shoot = player.shot  # the player's own screenshots, also while `at_first_sight` wraps them

    async def check(self, screen: str) -> None:
        page = self.player.page
        results = await _axe.run(page)
        assert results.response["testEngine"]["version"] == AXE_VERSION
        self.screens.append(screen)
        if results.violations_count:
            self.found[screen] = results.generate_report()
            await self.shoot(f"axe-{re.sub(r'[^a-z0-9]+', '-', screen.lower())}")

    @contextmanager
    def at_first_sight(self) -> Iterator[None]:
        """While a helper plays a game through the page, check each moment it screenshots the first time it shows
        (a Peek, a Nudge, a decision...): the helpers call `player.shot` then."""
        async def audited_shot(name: str, **options: Any) -> Any:
            await self.check(name)
            return await self.shoot(name, **options)

        self.player.shot = audited_shot  # type: ignore[method-assign]
        try:
            yield
        finally:
            self.player.shot = self.shoot  # type: ignore[method-assign]

    def summary(self) -> str:
        lines = []
        for screen, report in self.found.items():
            lines.append(f"== {screen}\n{report}")
        return "\n".join(lines)


@pytest.fixture
def one_round_duel(monkeypatch):
    """A stated, shorter match: the Duel ends at the first round won (the rules say four), so a game reaches its
    game-over box and results screen quickly; what is checked here is how those screens are built."""
    monkeypatch.setattr("app.games.stakes.game.DUEL_WINS", 1)


async def heading(player: Player, name: str | re.Pattern[str]) -> None:
    await player.page.get_by_role("heading", name=name, level=1).wait_for()


async def visit(player: Player, audit: Audit, address: str, title: str | re.Pattern[str], screen: str) -> None:
    await player.page.goto(address)
    await heading(player, title)
    await player.page.locator(".loading").first.wait_for(state="detached")
    await audit.check(screen)


async def how_to_play(player: Player, audit: Audit, where: Any, game: str, screen: str) -> None:
    """The game's How to play, opened from `where` (a game card, a page header), checked open, then closed."""
    opener = where.get_by_role("button", name=f"How to play {TITLES[game]}")
    dialog = await open_help(player.page, opener, game)
    await audit.check(f"How to play {TITLES[game]} ({screen})")
    await player.page.keyboard.press("Escape")
    await dialog.wait_for(state="detached")


async def audit_every_screen(player: Player, server: Any) -> Audit:
    audit = Audit(player)
    page = player.page

    # Logged out.
    await visit(player, audit, "/", re.compile("Card and dice games"), "front page")
    await how_to_play(player, audit, page.get_by_role("article", name="Stakes", exact=True), "stakes", "front page")
    await visit(player, audit, "/#/login", "Log in", "log in")
    await visit(player, audit, "/#/signup", "Create your account", "sign up")
    await sign_up(player)
    await page.locator(".game-card").first.wait_for()
    await audit.check("lobby")
    await how_to_play(player, audit, page.get_by_role("article", name="Pika", exact=True), "pika", "lobby")

    # Settings, the account's own screens.
    await visit(player, audit, "/#/new/pika/bots", "Pika: practice vs bots", "settings: vs bots")
    await visit(player, audit, "/#/new/kapern/friends", "Piraten Kapern: play with friends", "settings: friends")
    await how_to_play(player, audit, page.locator(".page-head"), "kapern", "settings")
    await visit(player, audit, "/#/friends", "Friends", "friends")
    await visit(player, audit, "/#/games", "My past games", "my games (none yet)")
    await visit(player, audit, "/#/wallet", "Wallet", "wallet")
    await visit(player, audit, "/#/league", "Weekly league", "league")
    await visit(player, audit, "/#/shop", "Shop", "shop")

    # Matchmaking: both forms, then the waiting screen of an online queue (left again).
    await visit(player, audit, "/#/play/piker/staked", "The Piker: staked table", "staked table form")
    await visit(player, audit, "/#/play/stakes/online", "Stakes: play online", "online form")
    await page.get_by_role("button", name="Find a table").click()
    await page.get_by_role("heading", name="Looking for players…").wait_for()
    await audit.check("waiting for players")
    await page.get_by_role("button", name="Leave the queue").click()
    await page.get_by_role("button", name="Find a table").wait_for()

    # A friends room.
    await visit(player, audit, "/#/new/pika/friends", "Pika: play with friends", "settings: friends room")
    await page.get_by_role("button", name="Create room").click()
    await heading(player, "Pika room")
    await audit.check("friends room")

    # The tables, each with its How to play: Pika played to the end (its moments: the drawn card, the colour picker,
    # a stack, the Pika alert), Kapern's first roll, The Piker played to the end (every decision dialog), Stakes below.
    await start_practice(player, "pika", 2)
    await page.locator(".hand .hand-card").first.wait_for()
    await audit.check("Pika table")
    await how_to_play(player, audit, page.locator(".page-head"), "pika", "table")
    with audit.at_first_sight():
        await play_pika(player)
    await page.locator(".game-over").wait_for()
    await audit.check("Pika table, game over")

    await start_practice(player, "kapern", 2)
    roll = page.get_by_role("button", name="Roll the eight dice")
    await roll.wait_for(timeout=30_000)
    await audit.check("Piraten Kapern table")
    await how_to_play(player, audit, page.locator(".page-head"), "kapern", "table")
    before = await table_version(page)
    await roll.click()
    await page.wait_for_function(
        "before => { const shell = document.querySelector('.table-shell');"
        " return shell && shell.dataset.busy === 'false' && Number(shell.dataset.version) > before; }", arg=before)
    await audit.check("Piraten Kapern table, after a roll")

    table_id = await start_practice(player, "piker", 3)
    await page.get_by_role("heading", name=re.compile("^The market")).wait_for()
    await audit.check("The Piker table")
    await how_to_play(player, audit, page.locator(".page-head"), "piker", "table")
    with audit.at_first_sight():
        await play_piker(player, server=server, table_id=table_id, seat=0)
    await page.get_by_role("heading", name="Final scores").wait_for()
    await audit.check("The Piker table, final scores")

    # Stakes: a Duel (one round won ends it), the King's Nudge, then played to the end, the results and history.
    table_id = await start_practice(player, "stakes", 2)
    await page.locator(".stakes-rows").wait_for()
    await audit.check("Stakes table")
    await how_to_play(player, audit, page.locator(".page-head"), "stakes", "table")
    with audit.at_first_sight():
        played = await play_stakes(player, server=server, table_id=table_id, seat=0, arrange=["K", "J"])
    # A King is put on top of the deck for our first flip, but a Duel may end before we flip at all (the bot wins
    # the round, or we bank first): when the Nudge did come, it was checked.
    assert ("stakes-nudge" in audit.screens) == (played.did("nudge") > 0), audit.screens
    await page.locator(".game-over").wait_for()
    await audit.check("Stakes table, game over")
    await page.get_by_role("link", name="See results").click()
    await page.locator("table.results tbody tr").first.wait_for()
    await audit.check("results")
    await visit(player, audit, "/#/games", "My past games", "my games")
    return audit


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
async def test_every_screen_has_no_axe_violations(browser_settings, playwright, profiles, one_round_duel, viewport):
    label = "laptop" if viewport is LAPTOP else "phone"
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, f"axe_{label}", viewport=viewport, label=f"axe-{label}",
                               profile_root=profiles) as player:
            audit = await audit_every_screen(player, server)
            print(f"axe-core {AXE_VERSION} checked {len(audit.screens)} screens on the {label}: {', '.join(audit.screens)}")
            assert not audit.found, f"axe-core {AXE_VERSION} found violations:\n{audit.summary()}"
            assert len(audit.screens) >= 20, audit.screens
            player.check()
