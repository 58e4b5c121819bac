"""Friends rooms left behind: a room nobody changed for ROOM_IDLE_HOURS is closed by the housekeeping, with its pending
invitations, while a room whose host is still inviting stays open. On every backend."""

from __future__ import annotations

from datetime import timedelta

from tests.support.harness import Harness, open_harness


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
    hub = harness.app.state.realtime.hub
    sent: list[tuple[int, dict]] = []
    hub.send_to_user = lambda user_id, message: sent.append((user_id, message))  # what the sockets would carry

    await harness.app.state.online.housekeeping()

    # Over their sockets: the host hears the room closed for idleness, bob his invitation withdrawn.
    ada_id = (await ada.get("/api/me")).json()["id"]
    bob_id = (await bob.get("/api/me")).json()["id"]
    room_notices = [(user, m["data"]) for user, m in sent if m["type"] == "room"]
    assert [(user, data["event"], data["reason"], data["room"]["id"]) for user, data in room_notices] == [
        (ada_id, "closed", "idle", abandoned["id"])]
    assert room_notices[0][1]["room"]["status"] == "closed"
    withdrawn = [(user, m["data"]["room_id"], m["data"]["status"]) for user, m in sent if m["type"] == "invitation"]
    assert withdrawn == [(bob_id, abandoned["id"], "cancelled")]

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


async def test_one_person_has_a_few_open_rooms_and_practice_tables_at_once_not_thousands(harness: Harness):
    settings = harness.settings.model_copy(update={"open_rooms_per_user": 2, "practice_tables_per_user": 2})
    async with open_harness(settings) as limited:
        ada = await limited.user("ada")
        rooms = [(await ada.post("/api/rooms", json={"game": "pika", "seats": 2})).json() for _ in range(2)]
        third = await ada.post("/api/rooms", json={"game": "pika", "seats": 2})
        assert third.status_code == 409 and third.json()["error"]["code"] == "too_many_rooms", third.text
        assert "start or close one" in third.json()["error"]["message"]
        await ada.delete(f"/api/rooms/{rooms[0]['id']}")
        assert (await ada.post("/api/rooms", json={"game": "pika", "seats": 2})).status_code == 201

        for _ in range(2):
            assert (await ada.post("/api/tables", json={"game": "pika", "seats": 2})).status_code == 201
        third = await ada.post("/api/tables", json={"game": "pika", "seats": 2})
        assert third.status_code == 409 and third.json()["error"]["code"] == "too_many_tables", third.text
        assert len((await ada.get("/api/tables/mine")).json()["tables"]) == 2


async def test_leaving_a_room_is_for_who_sits_in_it_and_the_host_sees_who_left(harness: Harness):
    ada, bob = await harness.user("ada"), await harness.user("bob")
    room = (await ada.post("/api/rooms", json={"game": "pika", "seats": 3})).json()
    invitation = (await ada.post(f"/api/rooms/{room['id']}/invitations", json={"username": "bob"})).json()
    early = await bob.post(f"/api/rooms/{room['id']}/leave")  # invited, not seated
    assert early.status_code == 400 and early.json()["error"]["code"] == "not_seated"
    assert (await bob.get("/api/invitations")).json()["invitations"][0]["id"] == invitation["id"]  # still there
    assert (await bob.post(f"/api/invitations/{invitation['id']}/accept")).status_code == 200
    assert (await bob.post(f"/api/rooms/{room['id']}/leave")).status_code == 200
    seen = (await ada.get(f"/api/rooms/{room['id']}")).json()
    assert seen["seats"][1:] == [None, None]
    assert [(i["username"], i["status"]) for i in seen["invitations"]] == [("bob", "left")]
    again = await ada.post(f"/api/rooms/{room['id']}/invitations", json={"username": "bob"})
    assert again.status_code == 201 and again.json()["status"] == "pending"


async def test_a_full_room_cannot_invite_anyone_more(harness: Harness):
    ada = await harness.user("ada")
    await harness.create_user("bob")
    room = (await ada.post("/api/rooms", json={"game": "pika", "seats": 2})).json()
    await ada.post(f"/api/rooms/{room['id']}/bots", json={"level": "easy"})
    invite = await ada.post(f"/api/rooms/{room['id']}/invitations", json={"username": "bob"})
    assert invite.status_code == 409 and invite.json()["error"]["code"] == "room_full", invite.text
    assert (await ada.get(f"/api/rooms/{room['id']}")).json()["invitations"] == []
