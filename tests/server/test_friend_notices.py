"""Live social notices (issue 19): a friend request, its acceptance and the other answers reach the other person at
once over their socket (a `friend` notice, docs/protocol.md); the count of requests not seen yet comes from the
server, so it survives a new session until the recipient opens Friends."""

from __future__ import annotations

from typing import Any

import pytest

from app.client import ClientError, TablestakesClient
from app.realtime.protocol import server_message_adapter
from app.runtime import open_runtime
from tests.support.harness import PASSWORD, wipe
from tests.support.live import live_server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def live_settings(settings, backend):
    if backend != "embedded":
        # The services database is shared by the whole run: start from a clean one (usernames are unique).
        async with open_runtime(settings) as runtime:
            await wipe(runtime)
    return settings


async def player(server, name: str) -> TablestakesClient:
    client = TablestakesClient(server.url)
    await client.register(name, PASSWORD)
    await client.connect()
    return client


def friend_notices(client: TablestakesClient) -> list[dict[str, Any]]:
    return [n["data"] for n in client.notices if n["type"] == "friend"]


async def heard(client: TablestakesClient, event: str, username: str) -> None:
    await client.wait_for(lambda: {"event": event, "username": username} in friend_notices(client), timeout=8)


async def test_a_request_and_its_acceptance_arrive_live_on_the_other_socket(live_settings):
    async with live_server(live_settings) as server:
        ada, bob = await player(server, "ada"), await player(server, "bob")
        try:
            assert (await ada.post("/api/friends/requests", {"username": "bob"}))["status"] == "requested"
            await heard(bob, "request", "ada")
            assert friend_notices(ada) == []  # the sender hears nothing of their own request
            assert (await bob.get("/api/friends/unseen")) == {"requests": 1}

            await bob.post("/api/friends/requests/ada/accept")
            await heard(ada, "accepted", "bob")
            assert [p["username"] for p in (await ada.get("/api/friends"))["friends"]] == ["bob"]
            # Every notice is in the documented protocol shape.
            for message in bob.received + ada.received:
                server_message_adapter.validate_python(message)
        finally:
            await ada.close()
            await bob.close()


async def test_declines_cancels_removals_and_asking_back_arrive_live_too(live_settings):
    async with live_server(live_settings) as server:
        ada, bob = await player(server, "ada"), await player(server, "bob")
        try:
            await ada.post("/api/friends/requests", {"username": "bob"})
            await bob.post("/api/friends/requests/ada/decline")
            await heard(ada, "declined", "bob")

            await ada.post("/api/friends/requests", {"username": "bob"})
            await ada.delete("/api/friends/requests/bob")
            await heard(bob, "cancelled", "ada")
            assert (await bob.get("/api/friends/unseen")) == {"requests": 0}  # a withdrawn request is no news

            await ada.post("/api/friends/requests", {"username": "bob"})
            assert (await bob.post("/api/friends/requests", {"username": "ada"}))["status"] == "friends"
            await heard(ada, "accepted", "bob")  # asking back accepts

            await bob.delete("/api/friends/ada")
            await heard(ada, "removed", "bob")
        finally:
            await ada.close()
            await bob.close()


async def test_the_unseen_count_survives_a_new_session_until_friends_is_opened(live_settings):
    async with live_server(live_settings) as server:
        ada, bob, cyd = await player(server, "ada"), await player(server, "bob"), await player(server, "cyd")
        try:
            await ada.post("/api/friends/requests", {"username": "bob"})
            await cyd.post("/api/friends/requests", {"username": "bob"})
            await bob.close()

            again = TablestakesClient(server.url)  # a reload, or another device: a new session
            try:
                await again.login("bob", PASSWORD)
                assert (await again.get("/api/friends/unseen")) == {"requests": 2}
                await again.post("/api/friends/seen")
                assert (await again.get("/api/friends/unseen")) == {"requests": 0}
                # Seen is not answered: both requests still wait.
                assert [p["username"] for p in (await again.get("/api/friends"))["incoming"]] == ["ada", "cyd"]
                await again.post("/api/friends/requests/ada/accept")
            finally:
                await again.close()

            third = TablestakesClient(server.url)
            try:
                await third.login("bob", PASSWORD)
                assert (await third.get("/api/friends/unseen")) == {"requests": 0}
            finally:
                await third.close()
        finally:
            await ada.close()
            await cyd.close()


def invitation_notices(client: TablestakesClient) -> list[dict[str, Any]]:
    return [n["data"] for n in client.notices if n["type"] == "invitation"]


async def withdrawn(client: TablestakesClient, invitation_id: int) -> None:
    await client.wait_for(lambda: any(n["id"] == invitation_id and n["status"] == "cancelled"
                                      for n in invitation_notices(client)), timeout=8)


async def test_an_invitation_that_goes_away_is_withdrawn_on_the_invitee_s_socket(live_settings):
    """Cancelled, its room closed or started, or a block either way: the invitee hears it (their lobby drops the
    row) and it cannot be accepted any more."""
    async with live_server(live_settings) as server:
        ada, bob, cat = await player(server, "ada"), await player(server, "bob"), await player(server, "cat")
        try:
            async def invite(room: dict, client: TablestakesClient) -> dict:
                invitation = await ada.post(f"/api/rooms/{room['id']}/invitations",
                                            {"username": client.user["username"]})
                await client.wait_for(lambda: any(n["id"] == invitation["id"] and n["status"] == "pending"
                                                  for n in invitation_notices(client)), timeout=8)
                return invitation

            cancelled_room = await ada.post("/api/rooms", {"game": "pika", "seats": 3})
            invitation = await invite(cancelled_room, bob)
            await ada.delete(f"/api/rooms/{cancelled_room['id']}/invitations/{invitation['id']}")
            await withdrawn(bob, invitation["id"])

            closed_room = await ada.post("/api/rooms", {"game": "pika", "seats": 3})
            invitation = await invite(closed_room, bob)
            await ada.delete(f"/api/rooms/{closed_room['id']}")
            await withdrawn(bob, invitation["id"])

            started_room = await ada.post("/api/rooms", {"game": "pika", "seats": 3})
            await ada.post(f"/api/rooms/{started_room['id']}/bots", {"level": "easy"})
            invitation = await invite(started_room, cat)
            await ada.post(f"/api/rooms/{started_room['id']}/start")
            await withdrawn(cat, invitation["id"])

            for blocker, blocked in ((ada, bob), (bob, ada)):  # the host blocks, or the invitee does
                room = await ada.post("/api/rooms", {"game": "pika", "seats": 2})
                invitation = await invite(room, bob)
                await blocker.put(f"/api/friends/blocks/{blocked.user['username']}")
                await withdrawn(bob, invitation["id"])
                assert (await bob.get("/api/invitations"))["invitations"] == []
                with pytest.raises(ClientError) as refused:
                    await bob.post(f"/api/invitations/{invitation['id']}/accept")
                assert refused.value.code == "no_such_invitation"
                await blocker.delete(f"/api/friends/blocks/{blocked.user['username']}")
                assert (await ada.get(f"/api/rooms/{room['id']}"))["seats"][1] is None  # bob never sat down
            for message in bob.received + cat.received:
                server_message_adapter.validate_python(message)
        finally:
            for client in (ada, bob, cat):
                await client.close()
