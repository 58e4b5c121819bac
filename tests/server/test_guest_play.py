"""Guest play (issue 19): "Play now" makes a guest that plays vs bots at once, moves no coins, is refused everything
else with 403 guest_account, has limits of its own (its sign-up counts as a sign-up), signs up into the same account
(history kept, welcome coins once) and is deleted GUEST_TTL_DAYS later if it never signs up. On every backend."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.accounts.models import AuthSession, User
from app.client import ClientError, TablestakesClient
from app.core.security import SESSION_COOKIE
from app.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction
from app.runtime import open_runtime
from app.tables.models import GameRecord, GameRecordPlayer
from tests.support.harness import PASSWORD, Harness, open_harness, wipe
from tests.support.live import live_server


def error_code(response) -> str:
    return response.json()["error"]["code"]


async def new_guest(harness: Harness, address: str = "127.0.0.1"):
    client = harness.new_client(address=address)
    response = await client.post("/api/auth/guest")
    assert response.status_code == 201, response.text
    return client, response.json()


async def finished_game(harness: Harness, user_id: int, table_id: str = "t" * 32) -> None:
    """A finished vs-bots game of this user in the history (as the table writes it when a game ends)."""
    now = harness.clock.now()
    async with harness.runtime.transaction() as session:
        session.add(GameRecord(id=table_id, game="pika", mode="bots", options={}, seats=[], seed="s", action_log=[],
                               placings=[1, 2], scores=None, rewards={}, started_at=now, finished_at=now))
        await session.flush()
        session.add(GameRecordPlayer(record_id=table_id, user_id=user_id, seat=0, placing=1, left=False, coins=0,
                                     xp=0, finished_at=now))


async def ledger_consistent(harness: Harness) -> bool:
    async with harness.runtime.reader() as session:
        return (await harness.runtime.ledger.totals(session)).consistent


async def test_play_now_makes_a_logged_in_guest_with_no_coins_who_plays_vs_bots(harness: Harness):
    guest, me = await new_guest(harness)
    assert me["guest"] is True and me["coins"] == 0 and me["username"].startswith("Guest-")
    assert SESSION_COOKIE in guest.cookies
    assert (await guest.get("/api/me")).json()["guest"] is True
    table = await guest.post("/api/tables", json={"game": "pika", "seats": 2})
    assert table.status_code == 201, table.text
    async with harness.runtime.reader() as session:
        user = await session.get(User, me["id"])
        assert user is not None and user.guest and user.password_hash == ""
        entries = await session.scalar(select(func.count()).select_from(LedgerEntry).join(
            LedgerAccount, LedgerAccount.id == LedgerEntry.account_id).where(LedgerAccount.user_id == me["id"]))
        assert entries == 0
        # The guest's session lasts as long as the guest may.
        expires = await session.scalar(select(AuthSession.expires_at).where(AuthSession.user_id == me["id"]))
        assert expires == harness.clock.now() + timedelta(days=harness.settings.guest_ttl_days)
    # Nobody logs in to a guest by its name: it has no password.
    for password in ("", PASSWORD):
        login = await harness.client.post("/api/auth/login", json={"username": me["username"], "password": password})
        assert login.status_code in (401, 422) and login.status_code != 200


async def test_a_guest_is_refused_online_staked_shop_friends_and_rooms(harness: Harness):
    guest, _ = await new_guest(harness)
    await harness.create_user("ada")
    refused = [
        guest.get("/api/matchmaking"), guest.delete("/api/matchmaking"),
        guest.get("/api/shop"), guest.post("/api/shop/purchases", json={"item": "booster"}),
        guest.get("/api/friends"), guest.post("/api/friends/requests", json={"username": "ada"}),
        guest.get("/api/rooms"), guest.post("/api/rooms", json={"game": "pika", "seats": 2}),
        guest.get("/api/invitations"),
    ]
    for response in await asyncio.gather(*refused):
        assert response.status_code == 403, (response.request.url, response.text)
        assert error_code(response) == "guest_account"
    # Nor can anyone befriend or invite a guest: to them its name is nobody's.
    ada = await harness.user("ada_host")
    guest_name = (await guest.get("/api/me")).json()["username"]
    befriend = await ada.post("/api/friends/requests", json={"username": guest_name})
    assert befriend.status_code == 404 and error_code(befriend) == "unknown_user"
    room = (await ada.post("/api/rooms", json={"game": "pika", "seats": 2})).json()
    invite = await ada.post(f"/api/rooms/{room['id']}/invitations", json={"username": guest_name})
    assert invite.status_code == 404 and error_code(invite) == "unknown_user"
    # The league's standings are public, so a guest may read them (it earns no points: it cannot queue).
    assert (await guest.get("/api/league/pika")).status_code == 200


async def test_guests_have_their_own_limit_and_their_sign_up_counts_as_one(harness: Harness):
    settings = harness.settings.model_copy(update={"signup_rate_per_address": 1, "guest_rate_per_address": 3})
    async with open_harness(settings) as limited:
        # A household behind one address starts more practice games than it may make accounts.
        guests = [(await new_guest(limited, address="198.51.100.7"))[0] for _ in range(3)]
        response = await limited.new_client(address="198.51.100.7").post("/api/auth/guest")
        assert response.status_code == 429 and error_code(response) == "rate_limited"
        retry_after = int(response.headers["retry-after"])
        assert 0 < retry_after <= settings.signup_rate_window_seconds
        # The message a person reads says how long to wait (rounded up), not only "later".
        message = response.json()["error"]["message"]
        assert message.startswith("Too many guest games started from this address. Try again in "), message
        assert message.endswith((" minutes.", " minute.", " seconds.", " hours.")), message
        # Guests did not use up the sign-up limit...
        signup = await limited.new_client(address="198.51.100.7").post(
            "/api/auth/register", json={"username": "mallory", "password": PASSWORD})
        assert signup.status_code == 201, signup.text
        # ...but turning a guest into an account mints the welcome coins, so it is a sign-up like any other.
        upgrade = await guests[0].post("/api/auth/upgrade", json={"username": "Grace", "password": PASSWORD})
        assert upgrade.status_code == 429 and error_code(upgrade) == "rate_limited", upgrade.text
        assert (await guests[0].get("/api/me")).json()["guest"] is True  # nothing changed, no coins minted
        assert (await guests[0].get("/api/wallet")).json()["balance"] == 0
        elsewhere, _ = await new_guest(limited, address="198.51.100.8")  # another address is not held back
        upgraded = await elsewhere.post("/api/auth/upgrade", json={"username": "Grace", "password": PASSWORD})
        assert upgraded.status_code == 200, upgraded.text
        assert (await elsewhere.get("/api/wallet")).json()["balance"] == settings.start_balance


async def test_signing_up_keeps_the_history_and_grants_the_welcome_coins_once(harness: Harness):
    guest, me = await new_guest(harness)
    await finished_game(harness, me["id"])
    response = await guest.post("/api/auth/upgrade", json={"username": "Grace", "password": PASSWORD})
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["id"] == me["id"] and after["username"] == "Grace" and after["guest"] is False
    assert after["coins"] == harness.settings.start_balance
    # Same session, now a full account: its history is there and the rest opens.
    history = (await guest.get("/api/games/history")).json()
    assert [game["id"] for game in history["games"]] == ["t" * 32]
    assert (await guest.get("/api/friends")).status_code == 200
    # Again (a double click, a second tab): refused, and no second welcome.
    again = await guest.post("/api/auth/upgrade", json={"username": "Grace2", "password": PASSWORD})
    assert again.status_code == 409 and error_code(again) == "not_a_guest"
    assert (await guest.get("/api/me")).json()["coins"] == harness.settings.start_balance
    async with harness.runtime.reader() as session:
        welcomes = await session.scalar(select(func.count()).select_from(LedgerTransaction)
                                        .where(LedgerTransaction.key == f"welcome:{me['id']}"))
        assert welcomes == 1
    assert await ledger_consistent(harness)
    # The new name and password log in.
    login = await harness.new_client().post("/api/auth/login", json={"username": "grace", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["id"] == me["id"]


async def test_two_sign_ups_of_one_guest_at_once_welcome_it_once(harness: Harness):
    guest, me = await new_guest(harness)
    first, second = await asyncio.gather(
        guest.post("/api/auth/upgrade", json={"username": "Twin_a", "password": PASSWORD}),
        guest.post("/api/auth/upgrade", json={"username": "Twin_b", "password": PASSWORD}))
    assert sorted([first.status_code, second.status_code]) == [200, 409], (first.text, second.text)
    assert (await guest.get("/api/me")).json()["coins"] == harness.settings.start_balance
    assert await ledger_consistent(harness)


async def test_a_guest_cannot_take_a_taken_name_and_a_full_account_cannot_upgrade(harness: Harness):
    await harness.create_user("ada")
    guest, _ = await new_guest(harness)
    taken = await guest.post("/api/auth/upgrade", json={"username": "ADA", "password": PASSWORD})
    assert taken.status_code == 409 and error_code(taken) == "username_taken"
    assert (await guest.get("/api/me")).json()["guest"] is True
    bob = await harness.user("bob")
    refused = await bob.post("/api/auth/upgrade", json={"username": "bobby", "password": PASSWORD})
    assert refused.status_code == 409 and error_code(refused) == "not_a_guest"
    assert (await harness.client.post("/api/auth/upgrade", json={"username": "x_y_z", "password": PASSWORD})
            ).status_code == 401


@pytest.mark.parametrize("body, field", [
    (b'{"username": "Grace\\n", "password": "correct horse"}', "username"),  # Python's `$` matches before a "\n"
    (b'{"username": "Grace", "password": "\\ud800abcdefgh"}', "password"),  # a lone surrogate: no UTF-8 to hash
])
async def test_a_sign_up_with_a_name_or_password_outside_the_rules_is_a_422_and_the_guest_stays(
        harness: Harness, body: bytes, field: str):
    guest, _ = await new_guest(harness)
    response = await guest.post("/api/auth/upgrade", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error" and [d["field"] for d in error["details"]] == [field]
    assert (await guest.get("/api/me")).json()["guest"] is True


async def test_guests_older_than_the_ttl_are_deleted_and_signed_up_ones_stay(harness: Harness):
    old, old_me = await new_guest(harness)
    await finished_game(harness, old_me["id"])
    kept, kept_me = await new_guest(harness)
    assert (await kept.post("/api/auth/upgrade", json={"username": "Kept", "password": PASSWORD})).status_code == 200
    harness.clock.advance(timedelta(days=harness.settings.guest_ttl_days, seconds=1))
    fresh, fresh_me = await new_guest(harness)
    online = harness.app.state.online
    assert await online.remove_stale_guests() == 1
    async with harness.runtime.reader() as session:
        assert await session.get(User, old_me["id"]) is None
        assert await session.get(User, kept_me["id"]) is not None and await session.get(User, fresh_me["id"])
        assert await session.scalar(select(func.count()).select_from(AuthSession)
                                    .where(AuthSession.user_id == old_me["id"])) == 0
        assert await session.scalar(select(func.count()).select_from(GameRecordPlayer)
                                    .where(GameRecordPlayer.user_id == old_me["id"])) == 0
        assert await session.scalar(select(func.count()).select_from(LedgerAccount)
                                    .where(LedgerAccount.user_id == old_me["id"])) == 0
    assert (await old.get("/api/me")).status_code == 401
    assert await online.remove_stale_guests() == 0
    assert await ledger_consistent(harness)


async def test_the_socket_refuses_a_guest_s_queue_until_it_signs_up(settings, backend):
    if backend == "services":
        async with open_runtime(settings) as runtime:
            await wipe(runtime)
    async with live_server(settings) as server:
        async with TablestakesClient(server.url) as guest:
            guest.user = await guest.post("/api/auth/guest")
            await guest.connect()
            with pytest.raises(ClientError) as refused:
                await guest.request({"type": "queue", "game": "pika", "seats": 2, "mode": "online"})
            assert refused.value.code == "guest_account"
            # The same socket, signed up meanwhile: the queue opens (the server looks the account up again).
            await guest.post("/api/auth/upgrade", {"username": "Late_joiner", "password": PASSWORD})
            ack = await guest.request({"type": "queue", "game": "pika", "seats": 2, "mode": "online"})
            assert ack["matchmaking"]["event"] in ("waiting", "matched"), ack
            await guest.request({"type": "unqueue"})
