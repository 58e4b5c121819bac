"""Live social notices in two browsers (issue 19): a friend request appears at once on the other player's page, as a
toast and a badge on Friends that survives a reload until Friends is opened; the acceptance turns the sender's
"waiting for an answer" into a friend without a reload; "Invite to play" lets you choose the game. An invitation
that is withdrawn leaves the invitee's lobby at once, and one answered elsewhere is dropped with the reason."""

from __future__ import annotations

import pytest

from tests.browser.helpers import DESKTOP, call, open_player, sign_up
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def test_a_friend_request_arrives_live_with_a_badge_and_the_answer_reaches_the_sender(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with (
            open_player(playwright, server.url, "asker", viewport=DESKTOP, label="asker", profile_root=profiles) as asker,
            open_player(playwright, server.url, "askee", viewport=DESKTOP, label="askee", profile_root=profiles) as askee,
        ):
            await sign_up(asker)
            await sign_up(askee)  # stays in the lobby: the request must come to them there

            await asker.page.get_by_role("link", name="Friends", exact=True).click()
            await asker.page.get_by_label("Add a friend by username").fill("askee")
            await asker.page.get_by_role("button", name="Send request").click()
            await asker.page.locator(".list-row", has_text="askee").get_by_text("waiting for an answer").wait_for()

            # Live on the other page: a toast and a badge on the Friends item, no reload.
            await askee.page.get_by_text("asker wants to be your friend.").wait_for()
            friends_link = askee.page.get_by_role("link", name="Friends", exact=True)
            badge = friends_link.locator(".nav-badge")
            await badge.wait_for()
            assert await badge.inner_text() == "1"
            assert await friends_link.get_attribute("aria-describedby") == "friends-unseen"
            await askee.shot("request-badge")

            # The badge comes from the server: it survives a reload until Friends is opened.
            await askee.page.reload()
            await askee.page.get_by_role("heading", name="Hello, askee").wait_for()
            await badge.wait_for()
            assert await badge.inner_text() == "1"
            await friends_link.click()
            await askee.page.get_by_role("button", name="Accept asker").wait_for()
            await badge.wait_for(state="detached")
            await askee.page.get_by_role("link", name="Play", exact=True).click()
            await askee.page.reload()
            await askee.page.get_by_role("heading", name="Hello, askee").wait_for()
            assert await badge.count() == 0  # seen stays seen

            # The answer reaches the sender's Friends page at once: no more "waiting for an answer".
            await friends_link.click()
            await askee.page.get_by_role("button", name="Accept asker").click()
            await asker.page.get_by_text("askee accepted your friend request: you are friends now.").wait_for()
            await asker.page.locator(".friend", has_text="askee").wait_for()
            assert await asker.page.get_by_text("waiting for an answer").count() == 0
            await asker.shot("accepted-live")

            # Invite to play: the game is the player's choice, not always Pika.
            row = asker.page.locator(".friend", has_text="askee")
            await row.get_by_role("button", name="Invite askee to a new room").click()
            await row.get_by_role("link", name="Invite askee to Piraten Kapern").click()
            await asker.page.get_by_role("heading", name="Piraten Kapern: play with friends").wait_for()
            assert await asker.page.get_by_label("Invite a player (optional)").input_value() == "askee"
            await asker.shot("invite-choose-game")
            asker.check()
            askee.check()


async def test_an_invitation_withdrawn_leaves_the_lobby_and_a_stale_accept_says_why(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with (
            open_player(playwright, server.url, "hosting", viewport=DESKTOP, label="host-inv",
                        profile_root=profiles) as host,
            open_player(playwright, server.url, "invitee", viewport=DESKTOP, label="invitee",
                        profile_root=profiles) as invitee,
        ):
            await sign_up(host)
            await sign_up(invitee)  # stays in the lobby

            invitations = invitee.page.get_by_role("region", name="Invitations")
            # Invited, then the host closes the room: the row goes from the lobby without a reload.
            room = await call(host, "POST", "/api/rooms", {"game": "pika", "seats": 2})
            await call(host, "POST", f"/api/rooms/{room['id']}/invitations", {"username": "invitee"})
            await invitations.get_by_text("hosting invites you to Pika").wait_for()
            assert "sent" in await invitations.locator(".list-row").first.inner_text()  # when it was sent
            await call(host, "DELETE", f"/api/rooms/{room['id']}")
            await invitations.wait_for(state="detached")

            # Invited again; the invitation is answered elsewhere (another tab): Accept here says so and drops it.
            room = await call(host, "POST", "/api/rooms", {"game": "pika", "seats": 2})
            invitation = await call(host, "POST", f"/api/rooms/{room['id']}/invitations", {"username": "invitee"})
            await invitations.get_by_text("hosting invites you to Pika").wait_for()
            await call(invitee, "POST", f"/api/invitations/{invitation['id']}/decline")
            async with invitee.expect_console(r"404"):
                await invitations.get_by_role("button", name="Accept").click()
                await invitee.page.locator(".toast", has_text="You have no such invitation.").wait_for()
            await invitations.wait_for(state="detached")
            await invitee.shot("stale-invitation")
            host.check()
            invitee.check()
