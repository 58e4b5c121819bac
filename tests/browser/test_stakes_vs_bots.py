"""A new player plays Stakes against bots to the results screen: the standard game with three players on a phone
(with a King's Nudge, a Peek and a Shield dealt to them), and a Duel on a desktop."""

from __future__ import annotations

import re

import pytest

from tests.browser.dice_tables import play_stakes, see_results, start_vs_bots
from tests.browser.helpers import DESKTOP, PHONE, open_player, sign_up
from tests.support.live import live_server

pytestmark = pytest.mark.browser

async def test_a_new_player_plays_a_whole_game_of_stakes_with_three_players_to_the_results(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "flipper", viewport=PHONE, label="stakes-phone",
                               profile_root=profiles) as player:
            await sign_up(player)
            for title in ("Stakes", "Piraten Kapern", "The Piker", "Pika"):
                await player.page.get_by_role("heading", name=title, exact=True).wait_for()
            await player.shot("lobby")
            table_id = await start_vs_bots(player, "stakes", "Stakes", 3)
            await player.page.get_by_role("group", name=re.compile(r"^Target \d+")).wait_for()
            assert await player.page.locator(".stakes-rows .srow").count() == 3
            await player.shot("stakes-table")

            played = await play_stakes(player, server=server, table_id=table_id, seat=0, arrange=["K", "J", "Q"])
            assert played.legal_checks > 0 and not played.refusals, played
            assert played.did("nudge") and played.did("put_back") and played.did("flip") and played.did("bank")
            await player.page.get_by_role("columnheader", name="R5").wait_for()  # the round scores table
            await player.shot("stakes-game-over")

            table = server.realtime.tables.get(table_id)
            assert table.status == "finished" and table.game.round == 5
            await see_results(player, 3, "Points", practice_note=True)
            player.check()


async def test_a_new_player_plays_a_whole_stakes_duel_to_the_results(browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "duellist", viewport=DESKTOP, label="duel-desktop",
                               profile_root=profiles) as player:
            await sign_up(player)
            await player.page.goto("/#/new/stakes/bots")
            await player.page.get_by_text("Duel", exact=True).wait_for()  # two seats are the Duel
            table_id = await start_vs_bots(player, "stakes", "Stakes", 2, level="Medium")
            await player.page.get_by_label("The Duel").wait_for()
            await player.shot("duel-table")

            played = await play_stakes(player, server=server, table_id=table_id, seat=0, arrange=["J"])
            assert played.legal_checks > 0 and not played.refusals, played
            await player.page.get_by_text(re.compile(r"^Last round \(target \d+\)")).wait_for()
            await player.shot("duel-game-over")

            table = server.realtime.tables.get(table_id)
            assert max(table.game.round_wins) == 4
            await see_results(player, 2, "Round wins", practice_note=True)
            player.check()
