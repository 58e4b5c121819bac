"""Friends over HTTP (platform.md, "Players and friends"): request by username, accept, decline, cancel, remove,
block and unblock; the four lists; a blocked user cannot send requests."""

from __future__ import annotations

import pytest

from tests.support.harness import Harness


def names(lists: dict, which: str) -> list[str]:
    return [person["username"] for person in lists[which]]


async def lists_of(client) -> dict:
    response = await client.get("/api/friends")
    assert response.status_code == 200, response.text
    return response.json()


def code_of(response) -> str:
    return response.json()["error"]["code"]


@pytest.fixture
async def people(harness: Harness):
    # Names follow the username rule (3 to 20 characters): only such names can be looked up.
    return {name: await harness.user(name) for name in ("ada", "bob", "cyd")}


async def test_a_request_accepted_makes_friends_on_both_sides(harness: Harness, people):
    ada, bob = people["ada"], people["bob"]
    response = await ada.post("/api/friends/requests", json={"username": "BOB"})  # names are case-insensitive
    assert response.status_code == 201 and response.json() == {"status": "requested"}
    assert names(await lists_of(ada), "outgoing") == ["bob"]
    assert names(await lists_of(bob), "incoming") == ["ada"]

    assert (await bob.post("/api/friends/requests/ada/accept")).status_code == 204
    for me, other in ((ada, "bob"), (bob, "ada")):
        lists = await lists_of(me)
        assert names(lists, "friends") == [other]
        assert lists["incoming"] == lists["outgoing"] == lists["blocked"] == []
        assert lists["friends"][0]["since"].endswith("Z")
    async with harness.runtime.transaction() as session:
        ids = {u: (await harness.runtime.accounts.user_by_username(session, u)).id for u in ("ada", "bob")}
        assert await harness.runtime.friends.are_friends(session, ids["ada"], ids["bob"])
        assert await harness.runtime.friends.friend_ids(session, ids["ada"]) == [ids["bob"]]


async def test_asking_someone_who_already_asked_you_makes_you_friends(people):
    ada, bob = people["ada"], people["bob"]
    await ada.post("/api/friends/requests", json={"username": "bob"})
    response = await bob.post("/api/friends/requests", json={"username": "ada"})
    assert response.status_code == 201 and response.json() == {"status": "friends"}
    assert names(await lists_of(ada), "friends") == ["bob"]


async def test_decline_cancel_and_remove(people):
    ada, bob, cy = people["ada"], people["bob"], people["cyd"]
    await ada.post("/api/friends/requests", json={"username": "bob"})
    assert (await bob.post("/api/friends/requests/ada/decline")).status_code == 204
    assert (await lists_of(ada))["outgoing"] == [] and (await lists_of(bob))["incoming"] == []

    await ada.post("/api/friends/requests", json={"username": "cyd"})
    assert (await ada.delete("/api/friends/requests/cyd")).status_code == 204
    assert (await lists_of(cy))["incoming"] == []

    await ada.post("/api/friends/requests", json={"username": "bob"})
    await bob.post("/api/friends/requests/ada/accept")
    assert (await bob.delete("/api/friends/ada")).status_code == 204
    assert (await lists_of(ada))["friends"] == [] and (await lists_of(bob))["friends"] == []


async def test_block_ends_the_friendship_and_stops_requests_until_unblocked(harness: Harness, people):
    ada, bob = people["ada"], people["bob"]
    await ada.post("/api/friends/requests", json={"username": "bob"})
    await bob.post("/api/friends/requests/ada/accept")

    assert (await ada.put("/api/friends/blocks/bob")).status_code == 204
    assert (await ada.put("/api/friends/blocks/bob")).status_code == 204  # blocking twice is harmless
    lists = await lists_of(ada)
    assert names(lists, "blocked") == ["bob"] and lists["friends"] == []
    assert (await lists_of(bob))["friends"] == []

    refused = await bob.post("/api/friends/requests", json={"username": "ada"})
    assert refused.status_code == 403 and code_of(refused) == "blocked"
    assert (await lists_of(ada))["incoming"] == []  # nothing half-written
    mine = await ada.post("/api/friends/requests", json={"username": "bob"})
    assert mine.status_code == 409 and code_of(mine) == "you_blocked_them"

    async with harness.runtime.transaction() as session:
        a = (await harness.runtime.accounts.user_by_username(session, "ada")).id
        b = (await harness.runtime.accounts.user_by_username(session, "bob")).id
        assert await harness.runtime.friends.is_blocked(session, a, b)
        assert await harness.runtime.friends.is_blocked(session, b, a)  # either way round: no invitations
        assert await harness.runtime.friends.has_blocked(session, a, b)
        assert not await harness.runtime.friends.has_blocked(session, b, a)

    assert (await ada.delete("/api/friends/blocks/bob")).status_code == 204
    assert (await lists_of(ada))["blocked"] == []
    assert (await bob.post("/api/friends/requests", json={"username": "ada"})).status_code == 201


async def test_blocking_drops_pending_requests_both_ways(people):
    ada, bob = people["ada"], people["bob"]
    await bob.post("/api/friends/requests", json={"username": "ada"})
    await ada.put("/api/friends/blocks/bob")
    assert (await lists_of(ada))["incoming"] == [] and (await lists_of(bob))["outgoing"] == []


@pytest.mark.parametrize("action, status, code", [
    (lambda me: me.post("/api/friends/requests", json={"username": "ghost"}), 404, "unknown_user"),
    (lambda me: me.post("/api/friends/requests", json={"username": "ADA"}), 400, "cannot_befriend_yourself"),
    (lambda me: me.put("/api/friends/blocks/ada"), 400, "cannot_block_yourself"),
    (lambda me: me.post("/api/friends/requests/bob/accept"), 404, "no_such_request"),
    (lambda me: me.post("/api/friends/requests/bob/decline"), 404, "no_such_request"),
    (lambda me: me.delete("/api/friends/requests/bob"), 404, "no_such_request"),
    (lambda me: me.delete("/api/friends/bob"), 404, "not_friends"),
    (lambda me: me.delete("/api/friends/blocks/bob"), 404, "not_blocked"),
    (lambda me: me.post("/api/friends/requests/ghost/accept"), 404, "unknown_user"),
    (lambda me: me.post("/api/friends/requests", json={}), 422, "validation_error"),
])
async def test_friend_errors_have_specific_codes(people, action, status, code):
    response = await action(people["ada"])
    assert response.status_code == status, response.text
    assert code_of(response) == code
    assert await lists_of(people["ada"]) == {"friends": [], "incoming": [], "outgoing": [], "blocked": []}


async def test_repeats_are_refused_with_their_own_codes(people):
    ada, bob = people["ada"], people["bob"]
    await ada.post("/api/friends/requests", json={"username": "bob"})
    again = await ada.post("/api/friends/requests", json={"username": "bob"})
    assert again.status_code == 409 and code_of(again) == "request_already_sent"
    await bob.post("/api/friends/requests/ada/accept")
    friends = await ada.post("/api/friends/requests", json={"username": "bob"})
    assert friends.status_code == 409 and code_of(friends) == "already_friends"
