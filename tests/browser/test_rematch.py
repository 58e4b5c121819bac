"""Two browsers finish a friends game (a Stakes Duel) and rematch: both are offered "Play again (rematch)", one on the
results screen and one in the table's game-over box; the first agrees and the other page shows who agreed; the first
goes back to the lobby, the second agrees and both land on one new table, at the same seats, and the new game takes a
move."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.browser.dice_tables import play_stakes
from tests.browser.helpers import DESKTOP, PHONE, Player, open_player, sign_up
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.browser


@pytest.fixture
def one_round_duel(monkeypatch):
    """A stated, shorter match: the Duel ends at the first round won (the rules say four), so the game to rematch is
    quick to finish; what is tested here is the rematch, not the Duel."""
    monkeypatch.setattr("app.games.stakes.game.DUEL_WINS", 1)


async def api(player: Player, method: str, path: str, data: dict | None = None) -> dict:
    """The player's own session (the browser's cookies) calls the API, as the page would."""
    response = await player.page.request.fetch(path, method=method, data=data)
    assert response.ok, f"{method} {path}: {response.status} {await response.text()}"
    return await response.json()


async def friends_duel(host: Player, guest: Player) -> str:
    """A two-seat Stakes room, set up by the host through the API (the room screens are tested elsewhere); the guest
    accepts the invitation on their lobby. Returns the table id."""
    room = await api(host, "POST", "/api/rooms", {"game": "stakes", "seats": 2})
    await api(host, "POST", f"/api/rooms/{room['id']}/invitations", {"username": guest.name})
    # The guest's lobby lists it once loaded after the invitation (the page may have opened its socket after the
    # notice was sent: a reload does not depend on that).
    await guest.page.reload()
    invitations = guest.page.get_by_role("region", name="Invitations")
    await invitations.get_by_text(f"{host.name} invites you to Stakes").wait_for()
    await invitations.get_by_role("button", name="Accept").click()
    await guest.page.get_by_role("heading", name="Stakes room").wait_for()
    return (await api(host, "POST", f"/api/rooms/{room['id']}/start"))["table_id"]


def table_of(page_url: str) -> str:
    match = re.search(r"#/table/([^/?#]+)$", page_url)
    assert match, page_url
    return match.group(1)


async def seat_names_shown(player: Player) -> list[str]:
    """The seat rows' names in seat order; the player's own row says "You"."""
    names = await player.page.locator(".stakes-rows .srow .srow-name").all_inner_texts()
    names = [name.replace("▶", "").strip() for name in names]
    assert names.count("You") == 1, names
    return [player.name if name == "You" else name for name in names]


async def test_two_friends_finish_a_game_and_rematch_at_the_same_seats(browser_settings, playwright, profiles,
                                                                       one_round_duel):
    async with live_server(browser_settings) as server:
        async with (
            open_player(playwright, server.url, "ann_host", viewport=DESKTOP, label="rematch-host",
                        profile_root=profiles) as host,
            open_player(playwright, server.url, "bob_guest", viewport=PHONE, label="rematch-guest",
                        profile_root=profiles) as guest,
        ):
            await sign_up(host)
            await sign_up(guest)
            old_id = await friends_duel(host, guest)
            for player in (host, guest):
                await player.page.goto(f"/#/table/{old_id}")
                await player.page.locator(".stakes-rows").wait_for()
            old = server.realtime.tables.get(old_id)
            seats = {seat.name: index for index, seat in enumerate(old.seats)}
            old_names = await seat_names_shown(host)
            assert old_names == [seat.name for seat in old.seats] and sorted(old_names) == ["ann_host", "bob_guest"]
            assert await seat_names_shown(guest) == old_names

            await asyncio.gather(*(play_stakes(player, server=server, table_id=old_id, seat=seats[player.name],
                                               twist_once=False, shoot=False) for player in (host, guest)))
            assert old.status == "finished"
            await host.shot("game-over")

            # The host reads the results; the guest stays at the table's game-over box. Both are offered a rematch.
            await host.page.get_by_role("link", name="See results").click()
            await host.page.locator("table.results tbody tr").first.wait_for()
            play_again = {player.name: player.page.get_by_role("button", name="Play again (rematch)")
                          for player in (host, guest)}
            await play_again["ann_host"].wait_for()
            await guest.page.locator(".game-over").get_by_role("button", name="Play again (rematch)").wait_for()
            await host.shot("results-rematch-offered")
            await guest.shot("game-over-rematch-offered")

            # The host agrees: their page waits for the guest; the guest's page says who agreed, still offers both.
            await play_again["ann_host"].click()
            host_status = host.page.locator(".rematch-status")
            await host_status.filter(has_text="Agreed: ann_host.").wait_for()
            await host_status.filter(has_text="Waiting for bob_guest").wait_for()
            assert await play_again["ann_host"].count() == 0
            guest_status = guest.page.locator(".game-over .rematch-status")
            await guest_status.filter(has_text="Agreed: ann_host.").wait_for()
            await guest_status.filter(has_text="Waiting for bob_guest").wait_for()
            await guest.page.get_by_role("button", name="No rematch").wait_for()
            await host.shot("rematch-waiting")
            await guest.shot("rematch-asked")

            # The host goes back to the lobby meanwhile; the guest agrees too: both pages go to one new table (the
            # host's from the lobby, as a matched table would).
            await host.page.get_by_role("link", name="Back to the lobby").click()
            await host.page.get_by_role("heading", name="Hello, ann_host").wait_for()
            await play_again["bob_guest"].click()
            for player in (host, guest):
                await player.page.wait_for_url(re.compile(r"#/table/(?!" + re.escape(old_id) + r"$)[^/?#]+$"))
            new_id = table_of(host.page.url)
            assert new_id != old_id
            assert table_of(guest.page.url) == new_id
            new = server.realtime.tables.get(new_id)
            assert new is not None and new.status == "playing"
            assert [seat.name for seat in new.seats] == [seat.name for seat in old.seats]

            # The new table shows the same seats, a fresh game (no game-over box), and takes a move.
            for player in (host, guest):
                await player.page.locator(".stakes-rows").wait_for()
                assert await seat_names_shown(player) == old_names
                assert await player.page.locator(".game-over").count() == 0
            await host.shot("rematch-table")
            await guest.shot("rematch-table")

            mover = None

            async def someone_may_flip() -> bool:
                nonlocal mover
                for player in (host, guest):
                    if await player.page.locator(".turn-bar.turn-mine").count() and await player.page.locator(
                            ".stakes-controls").get_by_role("button", name="Flip a card").count():
                        mover = player
                        return True
                return False

            await eventually(someone_may_flip, timeout=20)  # nobody got a turn at the new table, else
            before = new.version
            await mover.page.locator(".stakes-controls").get_by_role("button", name="Flip a card").click()
            await mover.page.locator(f'.table-shell[data-busy="false"]:not([data-version="{before}"])').wait_for()
            assert new.version > before
            assert await mover.page.locator(".felt .error-note:not(.empty)").count() == 0
            await mover.shot("rematch-first-move")

            host.check()
            guest.check()
