"""Playing Stakes, Piraten Kapern and The Piker through the page, clicking only what it offers.

Each `play_*` loop runs until the game-over panel shows. On every turn of ours it first checks that the moves the page
offers are exactly the engine's legal moves (the engine is in the same process: `server.realtime.tables`), then picks a
quick move. The first time a screen worth seeing shows (a Peek, Skull Island, the After Market, ...) it takes a
screenshot. A refusal the page shows is recorded: the tests assert there was none.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

from tests.browser.helpers import Player, table_version, wait_for_table_change

FELT_REFUSAL = ".felt .error-note:not(.empty)"


@dataclass
class Played:
    turns: int = 0
    moves: dict[str, int] = field(default_factory=dict)
    legal_checks: int = 0
    refusals: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def count(self, move: str) -> None:
        self.moves[move] = self.moves.get(move, 0) + 1

    def did(self, move: str) -> int:
        return self.moves.get(move, 0)


async def start_vs_bots(player: Player, game: str, title: str, seats: int, *, level: str = "Easy") -> str:
    """From the lobby: the game's vs-bots settings, then the table. Returns the table id."""
    page = player.page
    await page.goto(f"/#/new/{game}/bots")
    await page.get_by_role("heading", name=f"{title}: practice vs bots").wait_for()
    await page.locator("label", has=page.locator(f"input[name=seats][value='{seats}']")).click()
    await page.locator("label", has_text=level).click()
    await page.get_by_label("Time per turn").select_option("60")
    await page.get_by_role("button", name="Start game").click()
    await page.locator(".table-shell .felt").wait_for()
    return page.url.rsplit("/", 1)[-1]


async def wait_for_change(page: Page, before: int, played: Played, timeout: float = 10.0) -> None:
    await wait_for_table_change(page, before, played.refusals, refusal=FELT_REFUSAL, timeout=timeout)


async def _first_time(player: Player, played: Played, kind: str, shoot: bool) -> None:
    if shoot and kind not in played.seen:
        played.seen.add(kind)
        await player.shot(kind)


def _live_game(server: Any, table_id: str) -> Any:
    table = server.realtime.tables.get(table_id)
    return table if table is not None and table.status == "playing" else None


async def _my_turn(page: Page) -> bool:
    return bool(await page.locator(".turn-bar.turn-mine").count())


async def _game_over(page: Page) -> bool:
    return bool(await page.locator(".game-over").count())


# ---------------------------------------------------------------------------------------------------- Stakes


RESULT_HEADING = re.compile(r"^(You won!|You finished \d+(st|nd|rd|th))$")


async def see_results(player: Player, seats: int, score_title: str, *, practice_note: bool = False) -> None:
    """From the finished table to the results screen: a row per seat, my placing as the heading, the game's score
    column (and, with `practice_note`, the line saying practice pays nothing)."""
    page = player.page
    await page.get_by_role("link", name="See results").click()
    await page.locator("table.results tbody tr").first.wait_for()
    await page.get_by_role("heading", name=RESULT_HEADING).wait_for()
    assert await page.locator("table.results tbody tr").count() == seats
    await page.get_by_role("columnheader", name=score_title).wait_for()
    if practice_note:
        await page.get_by_text("Practice games against bots pay no coins and no XP.").wait_for()
    await player.shot("results")


def stakes_put_on_top(game: Any, rank: str) -> str | None:
    """Arrange the deal: move a card of `rank` to the top of the Stakes deck (a stated deal, as the engine's scripted
    tests do). Only while nobody's Peek knows the top cards, so no seat's knowledge is made wrong."""
    if game.peeks or game.pending:
        return None
    for index, card in enumerate(game.deck):
        if card[:-1] == rank:
            game.deck.insert(0, game.deck.pop(index))
            return card
    return None


def _stakes_action_of(text: str) -> tuple[str, ...]:
    text = text.strip()
    if text.startswith("Flip"):
        return ("flip",)
    if text.startswith("Bank"):
        return ("bank",)
    if text.startswith("Twist"):
        return ("twist", text.split()[1].lower())
    return ("pass",)


async def _check_stakes_legal(page: Page, server: Any, table_id: str, seat: int, played: Played) -> None:
    table = _live_game(server, table_id)
    if table is None or await table_version(page) != table.version:
        return
    legal = table.game.legal_actions(seat)
    expected = {(a["type"], a["die"]) if a["type"] == "twist" else (a["type"],) for a in legal
                if a["type"] in ("flip", "bank", "twist", "pass")}
    texts = await page.locator(".stakes-controls .move-buttons button").all_inner_texts()
    if await table_version(page) != table.version:
        return
    shown = {_stakes_action_of(t) for t in texts}
    assert shown == expected, f"the page offers {sorted(shown)} but the legal moves are {sorted(expected)}"
    played.legal_checks += 1


async def play_stakes(player: Player, *, server: Any, table_id: str, seat: int, arrange: list[str] = (),
                      timeout: float = 120.0, shoot: bool = True, twist_once: bool = True) -> Played:
    """Play Stakes to the end: flip, bank when a flip gets risky, twist once, answer Peeks and Nudges.

    `arrange`: ranks to put on top of the deck before our first flips, one per flip ("K", "J", "Q"), so the Nudge,
    the Peek and a Shield show up in this game."""
    page = player.page
    played = Played()
    plan = list(arrange)
    end = time.monotonic() + timeout
    while True:
        if time.monotonic() > end:
            await player.shot("stakes-timeout")
            raise AssertionError(f"{player.name}'s Stakes game did not finish within {timeout} s")
        if await _game_over(page):
            return played
        version = await table_version(page)
        peek = page.get_by_role("dialog", name="Peek: the top two cards")
        if await peek.count():
            await _first_time(player, played, "stakes-peek", shoot)
            # Keyboard: the first order has the focus; Enter chooses it.
            focused = page.locator(":focus")
            await focused.filter(has_text="on top").wait_for(timeout=2000)
            await page.keyboard.press("Enter")
            played.count("put_back")
            await wait_for_change(page, version, played)
            continue
        nudge = page.get_by_role("dialog", name="King's Nudge: turn one center die by 1")
        if await nudge.count():
            await _first_time(player, played, "stakes-nudge", shoot)
            await nudge.locator("button:not([disabled])").first.click()
            played.count("nudge")
            await wait_for_change(page, version, played)
            continue
        if not await _my_turn(page) or not await page.locator(".stakes-controls").count():
            await asyncio.sleep(0.03)
            continue
        played.turns += 1
        await _check_stakes_legal(page, server, table_id, seat, played)
        controls = page.locator(".stakes-controls")
        flip = controls.get_by_role("button", name="Flip a card")
        bank = controls.get_by_role("button", name=re.compile(r"^Bank \d+"))
        passing = controls.get_by_role("button", name="Pass", exact=True)
        twists = controls.locator(".btn-twist")
        outlook = await page.locator(".outlook").first.inner_text() if await page.locator(".outlook").count() else ""
        risk = int(m.group(1)) if (m := re.search(r"\((\d+)%\)", outlook)) else 0
        if await passing.count():
            await _first_time(player, played, "stakes-cold-twist", shoot)
            if twist_once and not played.did("twist") and await twists.count():
                await twists.first.click()
                played.count("twist")
            else:
                await passing.click()
                played.count("pass")
        elif await bank.count() and (risk >= 25 or "busts you" in outlook or "exact" in (await bank.inner_text())):
            await bank.click()
            played.count("bank")
        elif twist_once and not played.did("twist") and await twists.count() and await bank.count():
            await _first_time(player, played, "stakes-twist", shoot)
            await twists.first.click()
            played.count("twist")
        else:
            if plan:
                table = _live_game(server, table_id)
                if table is not None and stakes_put_on_top(table.game, plan[0]):
                    plan.pop(0)
            await flip.click()
            played.count("flip")
        await wait_for_change(page, version, played)


# ---------------------------------------------------------------------------------------------------- Kapern


async def _check_kapern_legal(page: Page, server: Any, table_id: str, seat: int, played: Played) -> None:
    table = _live_game(server, table_id)
    if table is None or await table_version(page) != table.version:
        return
    legal = table.game.legal_actions(seat)
    rolls = [a for a in legal if a["type"] == "roll"]
    selectable = await page.locator(".kdie-button").evaluate_all(
        "buttons => buttons.map(b => Number(b.closest('[data-die]').dataset.die))")
    puts = await page.get_by_role("button", name=re.compile("on Treasure Island$")).count()
    takes = await page.get_by_role("button", name=re.compile("back from Treasure Island$")).count()
    stop = await page.locator(".kcontrols .btn-stop, .kcontrols .btn-danger").count()
    if await table_version(page) != table.version:
        return
    if len(rolls) > 1:
        assert set(selectable) == {d for a in rolls for d in a["dice"]}, (selectable, rolls[:5])
    else:
        assert not selectable, "the dice are choosable though only one roll is legal"
    assert puts == sum(1 for a in legal if a["type"] == "put_on_chest")
    assert takes == sum(1 for a in legal if a["type"] == "take_from_chest")
    assert bool(stop) == any(a["type"] == "stop" for a in legal)
    played.legal_checks += 1


async def play_kapern(player: Player, *, server: Any, table_id: str, seat: int, timeout: float = 150.0,
                      shoot: bool = True, rerolls: int = 2) -> Played:
    """Play Piraten Kapern to the end: roll, reroll a little, use the chest and the Guardian, stop early."""
    page = player.page
    played = Played()
    end = time.monotonic() + timeout
    while True:
        if time.monotonic() > end:
            await player.shot("kapern-timeout")
            raise AssertionError(f"{player.name}'s Kapern game did not finish within {timeout} s")
        if await _game_over(page):
            return played
        if await page.locator(".knote-final").count():
            await _first_time(player, played, "kapern-final-round", shoot)
        if not await _my_turn(page) or not await page.locator(".kcontrols").count():
            await asyncio.sleep(0.03)
            continue
        played.turns += 1
        version = await table_version(page)
        await _check_kapern_legal(page, server, table_id, seat, played)
        controls = page.locator(".kcontrols")
        first = controls.get_by_role("button", name="Roll the eight dice")
        give_up = controls.get_by_role("button", name="Give up: disqualified")
        leave = controls.get_by_role("button", name="Leave Skull Island")
        to_chest = page.get_by_role("button", name=re.compile("on Treasure Island$"))
        choose_all = controls.get_by_role("button", name="Choose all free dice")
        stop = controls.locator(".btn-stop")
        single = controls.get_by_role("button", name=re.compile(r"^Roll \d+ dic?e"))
        if await first.count():
            await first.click()
            played.count("first_roll")
        elif await give_up.count():
            await _first_time(player, played, "kapern-guardian-rescue", shoot)
            skull = page.locator(".kdie-button", has=page.locator(".kdie-skull"))
            if await skull.count():
                await skull.first.click()
                await controls.get_by_role("button", name=re.compile(r"^Roll \d+ dic?e")).click()
                played.count("guardian")
            else:
                await give_up.click()
                played.count("give_up")
        elif await leave.count():
            await _first_time(player, played, "kapern-skull-island", shoot)
            await leave.click()
            played.count("leave_island")
        elif await to_chest.count() and not played.did("chest"):
            await to_chest.first.click()
            played.count("chest")
            await wait_for_change(page, version, played)
            await _first_time(player, played, "kapern-treasure-island", shoot)
            continue
        elif not await page.locator(".kdie-button").count() and await single.count():
            await _first_time(player, played, "kapern-single-roll", shoot)  # a Zombie attack rolls what it must
            await single.click()
            played.count("roll")
        elif played.did("reroll") < rerolls and await choose_all.count() and await stop.count():
            await choose_all.click()
            roll = controls.get_by_role("button", name=re.compile(r"^Roll \d+ dice$"))
            if await roll.count() and await roll.is_enabled():
                await _first_time(player, played, "kapern-choosing", shoot)
                await roll.click()
                played.count("reroll")
            else:
                await stop.click()
                played.count("stop")
        elif await stop.count():
            await stop.click()
            played.count("stop")
        else:
            await asyncio.sleep(0.03)
            continue
        await wait_for_change(page, version, played)


# ---------------------------------------------------------------------------------------------------- The Piker


async def _check_piker_legal(page: Page, server: Any, table_id: str, seat: int, played: Played) -> None:
    table = _live_game(server, table_id)
    if table is None or await table_version(page) != table.version:
        return
    legal = [a for a in table.game.legal_actions(seat) if a["type"] == "place_die"]
    if not legal:
        return
    chosen = await page.locator(".mydie[aria-pressed=true]").get_attribute("aria-label")
    pips = int(re.search(r"showing (\d)", chosen or "").group(1))
    shown = set(await page.locator(".place-btn").evaluate_all(
        "buttons => buttons.map(b => b.closest('[data-slot]') ? 'card ' + b.closest('[data-slot]').dataset.slot : 'am')"))
    dice = set(await page.locator(".mydie").evaluate_all(
        "buttons => buttons.map(b => Number(b.getAttribute('aria-label').match(/showing (\\d)/)[1]))"))
    if await table_version(page) != table.version:
        return
    expected = {f"card {a['slot']}" if a["on"] == "card" else "am" for a in legal if a["pips"] == pips}
    assert shown == expected, f"placements shown {sorted(shown)}, legal {sorted(expected)}"
    assert dice == {a["pips"] for a in legal}, (dice, legal[:3])
    played.legal_checks += 1


async def play_piker(player: Player, *, server: Any, table_id: str, seat: int, timeout: float = 150.0,
                     shoot: bool = True) -> Played:
    """Play The Piker to the end: place dice (some on the After Market), secure as suggested, answer decisions."""
    page = player.page
    played = Played()
    end = time.monotonic() + timeout
    while True:
        if time.monotonic() > end:
            await player.shot("piker-timeout")
            raise AssertionError(f"{player.name}'s Piker game did not finish within {timeout} s")
        if await _game_over(page):
            return played
        if not await _my_turn(page):
            await asyncio.sleep(0.03)
            continue
        version = await table_version(page)
        dialog = page.get_by_role("dialog")
        if await dialog.count():
            title = (await dialog.locator(".decision-title").inner_text()).strip()
            await _first_time(player, played, "piker-" + re.sub(r"[^a-z]+", "-", title.lower()).strip("-")[:30], shoot)
            suggested = dialog.get_by_role("button", name="Secure as suggested")
            if await suggested.count() and await suggested.is_enabled():
                await suggested.click()
                played.count("secure_suggested")
            elif title.startswith("The After Market"):
                await dialog.locator("button", has_text=re.compile("^(Done securing|Secure nothing this round)$")).click()
                played.count("finish_securing")
            elif title == "Insider Tip":
                looks = page.locator(".tip-btn")
                if not played.did("insider_tip") and await looks.count() >= 2:
                    await looks.nth(0).click()
                    await looks.nth(1).click()
                    await dialog.get_by_role("button", name=re.compile("^Look at cards")).click()
                    played.count("insider_tip")
                else:
                    await dialog.get_by_role("button", name="Keep the card").click()
                    played.count("keep")
            elif title == "Extra Capital":
                await dialog.get_by_role("button", name=re.compile("^Play it")).click()
                played.count("extra_capital")
            elif title == "You are the Piker":
                name = "Add a card" if not played.did("extra_card") else "No extra card"
                await dialog.get_by_role("button", name=name).click()
                played.count("extra_card")
            elif title == "Hostile Takeover" and played.did("takeover"):
                await dialog.get_by_role("button", name="Keep the card").click()
                played.count("keep")
            else:  # Bull Run, Hostile Takeover: the first card offered
                await dialog.locator(".card-choice").first.click()
                played.count("takeover" if title == "Hostile Takeover" else "bull_run")
            await wait_for_change(page, version, played)
            continue
        if not await page.locator(".place-btn").count():
            await asyncio.sleep(0.03)
            continue
        played.turns += 1
        await _check_piker_legal(page, server, table_id, seat, played)
        # Every other die goes to the After Market (while it has room), so there is something to secure.
        after_market = page.locator(".amarket .place-btn")
        if played.did("place") % 2 == 1 and await after_market.count():
            await after_market.click()
        else:
            await page.locator(".market .place-btn").first.click()
        played.count("place")
        await wait_for_change(page, version, played)
