"""What a table tells a player besides the board: cards that travel and a breathing acting seat (none of it when the
system asks for reduced motion), sounds for the turn and the cards (a mute switch that is remembered), "Your turn" in
the tab's title, and a browser notification when the tab is hidden, only after the player switched it on."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import DESKTOP, click_card, open_player, sign_up
from tests.browser.table_setups import live_table, my_turn, start_vs_bots
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser

# Recorded in the page for the test: the animations the client starts (their ids), the sounds it plays, and a
# stand-in Notification that counts permission requests and notifications; the tab can be made to look hidden.
WATCH = """
window.started = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  window.started.push((options && options.id) || 'anonymous');
  return animate.call(this, keyframes, options);
};
window.sounds = [];
window.addEventListener('tablestakes:sound', (event) => window.sounds.push(event.detail));
window.asked = 0;
window.notes = [];
window.Notification = class {
  static permission = 'default';
  static requestPermission() { window.asked += 1; this.permission = 'granted'; return Promise.resolve('granted'); }
  constructor(title, options) { window.notes.push(title); }
  close() {}
};
window.tabHidden = false;
window.turnsPassed = 0;
let wasMine = false;
new MutationObserver(() => {
  const mine = Boolean(document.querySelector('.turn-bar.turn-mine'));
  if (wasMine && !mine) window.turnsPassed += 1;
  wasMine = mine;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
Object.defineProperty(document, 'visibilityState', { get: () => (window.tabHidden ? 'hidden' : 'visible') });
"""


async def play_something(page) -> None:
    """Play the first playable card (choosing the first colour for a black one), or draw."""
    cards = page.locator(".hand .card-button")
    take = page.get_by_role("button", name=re.compile(r"^Take \d+ cards?$"))
    keep = page.get_by_role("button", name="Keep it", exact=True)
    if await keep.count():
        await keep.click()
    elif await cards.count():
        await click_card(cards.first)
        picker = page.get_by_role("dialog", name="Choose the colour")
        if await picker.count():
            await page.keyboard.press("Enter")
    elif await take.count():
        await take.click()
    else:
        await page.locator(".pile-button").click()
    await page.locator('.table-shell[data-busy="false"]').wait_for()


async def play_until_my_turn_comes_back(page) -> None:
    """Play (again, after a Skip or a Reverse between two players, or a drawn card to keep) until the turn has gone
    to the bot and come back to me."""
    passed = await page.evaluate("window.turnsPassed")
    for _ in range(12):
        await play_something(page)
        try:
            await eventually(lambda: page.evaluate(f"window.turnsPassed > {passed}"), timeout=3.0)
            break
        except AssertionError:
            await my_turn(page)
    else:
        raise AssertionError("the turn never left me")
    await my_turn(page)


async def test_motion_sounds_title_and_turn_alerts_at_a_pika_table(browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "mover", viewport=DESKTOP, label="signals",
                               profile_root=profiles, reduced_motion="no-preference") as player:
            page = player.page
            await page.context.add_init_script(WATCH)
            await sign_up(player)
            table_id = await start_vs_bots(player, "pika", "Pika", 2)
            await page.locator(".hand .hand-card").first.wait_for()
            await page.mouse.click(5, 300)  # a first touch of the page lets the browser play sound
            await my_turn(page)
            assert re.match(r"^Your turn · Pika · Tablestakes$", await page.title()), await page.title()
            await eventually(lambda: page.evaluate("window.sounds.includes('turn')"))
            # The acting seat breathes.
            assert await page.evaluate("document.querySelector('.seat-turn').getAnimations().length") > 0

            # Turn alerts: nothing is asked before the player switches them on; then one permission request.
            assert await page.evaluate("window.asked") == 0
            alerts = page.get_by_role("button", name="Alert me on my turn")
            await alerts.click()
            await eventually(lambda: _is(alerts.get_attribute("aria-pressed"), "true"))
            assert await page.evaluate("window.asked") == 1

            # The tab is hidden; I play; when my turn comes back a notification says so. My card flew to the
            # discard (or a card was drawn into my hand).
            await page.evaluate("window.tabHidden = true")
            await play_until_my_turn_comes_back(page)
            assert await page.evaluate("window.started.some((id) => id === 'card-flight' || id === 'card-drawn')")
            assert await page.evaluate("window.sounds.includes('card')")
            await eventually(lambda: page.evaluate("window.notes.includes('Your turn at Pika')"))
            await page.evaluate("window.tabHidden = false")

            # Sound off is remembered across a reload, and silences the table.
            sound = page.get_by_role("button", name="Sound", exact=True)
            assert await sound.get_attribute("aria-pressed") == "true"
            await sound.click()
            await eventually(lambda: _is(sound.get_attribute("aria-pressed"), "false"))
            assert await page.evaluate("localStorage.getItem('tablestakes.sound')") == "off"
            await page.reload()
            await page.locator(".hand .hand-card").first.wait_for()
            assert await page.get_by_role("button", name="Sound", exact=True).get_attribute("aria-pressed") == "false"
            await my_turn(page)
            await play_until_my_turn_comes_back(page)
            assert await page.evaluate("window.sounds") == [], "a muted table played sounds"
            await live_table(server, table_id).resign(live_table(server, table_id).seats[0].user_id)
            player.check()


async def test_nothing_moves_at_a_table_when_the_system_asks_for_reduced_motion(browser_settings, playwright,
                                                                                profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "still", viewport=DESKTOP, label="reduced",
                               profile_root=profiles, reduced_motion="reduce") as player:
            page = player.page
            await page.context.add_init_script(WATCH)
            await sign_up(player)
            table_id = await start_vs_bots(player, "pika", "Pika", 2)
            await my_turn(page)
            await play_until_my_turn_comes_back(page)
            await play_until_my_turn_comes_back(page)
            assert await page.evaluate("window.started") == [], "an animation started despite reduced motion"
            assert await page.evaluate("document.getAnimations().length") == 0, "a CSS animation runs"
            assert (await page.title()).startswith("Your turn · Pika")
            await live_table(server, table_id).resign(live_table(server, table_id).seats[0].user_id)
            player.check()


async def _is(awaitable, expected) -> bool:
    return await awaitable == expected
