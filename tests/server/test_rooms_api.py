"""Friends rooms left behind: a room nobody changed for ROOM_IDLE_HOURS is closed by the housekeeping, with its pending
invitations, while a room whose host is still inviting stays open. On every backend."""

from __future__ import annotations

from datetime import timedelta

from tests.support.harness import Harness


async def test_an_idle_room_is_closed_with_its_invitations_and_an_active_one_stays(harness: Harness):
    idle_hours = harness.settings.room_idle_hours
    ada, bob = await harness.user("ada"), await harness.user("bob")
    await harness.create_user("cat")
    abandoned = (await ada.post("/api/rooms", json={"game": "pika", "seats": 3})).json()
    assert (await ada.post(f"/api/rooms/{abandoned['id']}/invitations", json={"username": "bob"})).status_code == 201
    active = (await ada.post("/api/rooms", json={"game": "kapern", "seats": 2})).json()
    harness.clock.advance(timedelta(hours=idle_hours - 1))
    # The host of the second room is still at it: a new invitation is activity.
    assert (await ada.post(f"/api/rooms/{active['id']}/invitations", json={"username": "bob"})).status_code == 201
    harness.clock.advance(timedelta(hours=1, seconds=1))

    await harness.app.state.online.housekeeping()

    assert [room["id"] for room in (await ada.get("/api/rooms")).json()["rooms"]] == [active["id"]]
    assert (await ada.get(f"/api/rooms/{abandoned['id']}")).json()["status"] == "closed"
    inbox = (await bob.get("/api/invitations")).json()["invitations"]
    assert [invitation["room_id"] for invitation in inbox] == [active["id"]]
    # The abandoned room's invitation is gone for good: accepting it is refused, and the host cannot go on.
    old = (await ada.get(f"/api/rooms/{abandoned['id']}")).json()["invitations"][0]
    assert old["status"] == "cancelled"
    accept = await bob.post(f"/api/invitations/{old['id']}/accept")
    assert accept.status_code == 404 and accept.json()["error"]["code"] == "no_such_invitation"
    invite = await ada.post(f"/api/rooms/{abandoned['id']}/invitations", json={"username": "cat"})
    assert invite.status_code == 409 and invite.json()["error"]["code"] == "room_not_open"
    # Run again: nothing more to close; the active room closes only once it too is left idle.
    await harness.app.state.online.housekeeping()
    assert [room["id"] for room in (await ada.get("/api/rooms")).json()["rooms"]] == [active["id"]]
    harness.clock.advance(timedelta(hours=idle_hours))
    await harness.app.state.online.housekeeping()
    assert (await ada.get("/api/rooms")).json()["rooms"] == []
    assert (await bob.get("/api/invitations")).json()["invitations"] == []
