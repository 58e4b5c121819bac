"""A new player plays a whole game of Piraten Kapern (on a phone) and of The Piker (on a desktop) against bots, to
the results screen, clicking only what the page offers; every turn the offered moves are checked against the
engine's legal moves."""

from __future__ import annotations

import re

import pytest

from tests.browser.dice_tables import play_kapern, play_piker, see_results, start_vs_bots
from tests.browser.helpers import DESKTOP, PHONE, open_player, sign_up
from tests.support.live import live_server

pytestmark = pytest.mark.browser

async def test_a_new_player_plays_a_whole_game_of_piraten_kapern_against_a_bot(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "pirate", viewport=PHONE, label="kapern-phone",
                               profile_root=profiles) as player:
            await sign_up(player)
            table_id = await start_vs_bots(player, "kapern", "Piraten Kapern", 2, level="Hard")
            await player.page.get_by_role("button", name="Roll the eight dice").or_(
                player.page.get_by_text(re.compile("is about to roll|'s turn"))).first.wait_for()
            await player.shot("kapern-table")

            played = await play_kapern(player, server=server, table_id=table_id, seat=0)
            assert played.legal_checks > 0 and not played.refusals, played
            assert played.did("first_roll") and played.did("reroll"), played
            await player.page.get_by_role("heading", name="Recent turns").wait_for()
            await player.shot("kapern-game-over")

            table = server.realtime.tables.get(table_id)
            assert table.status == "finished" and max(table.game.scores) >= 8000
            await see_results(player, 2, "Points")
            player.check()


async def test_a_new_player_plays_a_whole_game_of_the_piker_against_bots(browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "investor", viewport=DESKTOP, label="piker-desktop",
                               profile_root=profiles) as player:
            await sign_up(player)
            table_id = await start_vs_bots(player, "piker", "The Piker", 3, level="Medium")
            await player.page.get_by_role("heading", name=re.compile("^The market")).wait_for()
            await player.shot("piker-table")

            played = await play_piker(player, server=server, table_id=table_id, seat=0)
            assert played.legal_checks > 0 and not played.refusals, played
            assert played.did("place") >= 30, played  # six rounds of at least five dice
            await player.page.get_by_role("heading", name="Final scores").wait_for()
            await player.shot("piker-game-over")

            table = server.realtime.tables.get(table_id)
            assert table.status == "finished" and table.game.round == 6
            await see_results(player, 3, "Final score")
            player.check()
