"""Accounts over HTTP: register, log in, log out (here and everywhere), the current user, sessions, rate limits."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import delete, func, select, update

from app.accounts.models import AuthSession, User
from app.accounts.service import InvalidSession, SessionExpired, SessionRevoked
from app.core.errors import Unauthorized
from app.core.security import SESSION_COOKIE
from tests.support.harness import PASSWORD, Harness, open_harness


async def user_count(harness: Harness) -> int:
    async with harness.runtime.transaction() as session:
        return (await session.execute(select(func.count()).select_from(User))).scalar_one()


async def ledger_totals(harness: Harness):
    async with harness.runtime.transaction() as session:
        return await harness.runtime.ledger.totals(session)


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    assert {"code", "message"} <= set(body["error"]), body
    return body["error"]


async def test_register_logs_in_and_starts_with_1000_coins_as_a_ledger_entry(harness: Harness):
    response = await harness.client.post("/api/auth/register", json={"username": "Ada_99", "password": PASSWORD})
    assert response.status_code == 201, response.text
    assert response.json() == {"id": response.json()["id"], "username": "Ada_99", "coins": 1000, "xp": 0, "level": 1,
                               "level_xp": 0, "next_level_xp": 100, "active": [], "guest": False, "allow_watching": True}
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http here; see the https test

    me = await harness.client.get("/api/me")
    assert me.status_code == 200 and me.json()["username"] == "Ada_99"
    assert (await harness.client.get("/api/wallet")).json() == {"balance": 1000}
    history = (await harness.client.get("/api/wallet/history")).json()
    assert [(item["delta"], item["balance_after"], item["reason"]) for item in history["items"]] == [
        (1000, 1000, "welcome")]
    totals = await ledger_totals(harness)
    assert totals.balances == totals.entries == 1000


async def test_the_password_is_stored_as_argon2id_at_owasp_minimum_or_more(harness: Harness):
    await harness.client.post("/api/auth/register", json={"username": "ada", "password": PASSWORD})
    async with harness.runtime.transaction() as session:
        stored = (await session.execute(select(User.password_hash))).scalar_one()
        token_hashes = list((await session.execute(select(AuthSession.token_hash))).scalars())
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert PASSWORD not in stored
    cookie_token = harness.client.cookies[SESSION_COOKIE]
    assert len(token_hashes) == 1 and cookie_token not in token_hashes[0] and len(token_hashes[0]) == 64


async def test_the_session_cookie_is_secure_over_https(harness: Harness):
    client = harness.new_client(base_url="https://testserver")
    response = await client.post("/api/auth/register", json={"username": "ada", "password": PASSWORD})
    assert response.status_code == 201
    assert "Secure" in response.headers["set-cookie"]


async def test_a_username_taken_in_another_case_is_refused_and_nothing_is_written(harness: Harness):
    await harness.create_user("Ada")
    before = (await user_count(harness), await ledger_totals(harness))
    response = await harness.client.post("/api/auth/register", json={"username": "aDA", "password": PASSWORD})
    assert response.status_code == 409
    assert error_of(response)["code"] == "username_taken"
    assert SESSION_COOKIE not in response.headers.get("set-cookie", "")
    assert (await user_count(harness), await ledger_totals(harness)) == before


async def test_two_registrations_of_one_name_at_once_make_one_account(harness: Harness):
    first, second = harness.new_client(), harness.new_client()
    responses = await asyncio.gather(
        first.post("/api/auth/register", json={"username": "twin", "password": PASSWORD}),
        second.post("/api/auth/register", json={"username": "TWIN", "password": PASSWORD}))
    assert sorted(r.status_code for r in responses) == [201, 409]
    assert await user_count(harness) == 1
    totals = await ledger_totals(harness)
    assert totals.balances == totals.entries == 1000


@pytest.mark.parametrize("body, field, words", [
    ({"username": "ada", "password": "short"}, "password", "at least 8"),
    ({"username": "ad", "password": PASSWORD}, "username", "3 to 20"),
    ({"username": "a" * 21, "password": PASSWORD}, "username", "3 to 20"),
    ({"username": "ada lovelace", "password": PASSWORD}, "username", "letters"),
    ({"username": "adä", "password": PASSWORD}, "username", "letters"),
    ({"username": "Bob\n", "password": PASSWORD}, "username", "3 to 20"),  # Python's `$` matches before a "\n"
    ({"username": "Bob\r\n", "password": PASSWORD}, "username", "3 to 20"),
    ({"username": "ada"}, "password", "required"),
    ({"username": "ada", "password": PASSWORD, "admin": True}, "admin", "not permitted"),
    ({"username": "Guest-0001", "password": PASSWORD}, "username", "are for guests"),  # would pass for a guest
    ({"username": "gUEST-ada", "password": PASSWORD}, "username", "are for guests"),
    ({"username": "ada", "password": " " * 8}, "password", "more than spaces"),
    ({"username": "ada", "password": "\t \n \t \n "}, "password", "more than spaces"),
])
async def test_bad_registrations_name_the_field_and_write_nothing(harness: Harness, body, field, words):
    response = await harness.client.post("/api/auth/register", json=body)
    assert response.status_code == 422
    error = error_of(response)
    assert error["code"] == "validation_error"
    assert [d["field"] for d in error["details"]] == [field]
    assert words in error["details"][0]["message"].lower()
    assert await user_count(harness) == 0


# A lone surrogate written as a JSON escape: valid JSON, but no text argon2 (or anything else) can encode as UTF-8.
SURROGATE_PASSWORD_BODY = b'{"username": "xyzabc12", "password": "\\ud800abcdefgh"}'


@pytest.mark.parametrize("path", ["/api/auth/register", "/api/auth/login"])
async def test_a_password_with_a_lone_surrogate_is_a_422_naming_the_password(harness: Harness, path: str):
    response = await harness.client.post(path, content=SURROGATE_PASSWORD_BODY,
                                         headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    error = error_of(response)
    assert error["code"] == "validation_error"
    assert [d["field"] for d in error["details"]] == ["password"]
    assert await user_count(harness) == 0


async def test_login_is_case_insensitive_and_a_wrong_password_is_refused(harness: Harness):
    await harness.create_user("Ada")
    wrong = await harness.client.post("/api/auth/login", json={"username": "ada", "password": "wrong password"})
    assert wrong.status_code == 401
    assert error_of(wrong)["code"] == "invalid_credentials"
    unknown = await harness.client.post("/api/auth/login", json={"username": "nobody", "password": PASSWORD})
    assert unknown.status_code == 401
    assert error_of(unknown) == error_of(wrong)  # no hint whether the name exists
    assert (await harness.client.get("/api/me")).status_code == 401

    ok = await harness.client.post("/api/auth/login", json={"username": "ADA", "password": PASSWORD})
    assert ok.status_code == 200
    assert ok.json()["username"] == "Ada" and ok.json()["coins"] == 1000
    assert (await harness.client.get("/api/me")).json()["username"] == "Ada"


async def test_logout_revokes_the_session(harness: Harness):
    await harness.create_user("ada")
    await harness.client.post("/api/auth/login", json={"username": "ada", "password": PASSWORD})
    token = harness.client.cookies[SESSION_COOKIE]
    response = await harness.client.post("/api/auth/logout")
    assert response.status_code == 204
    assert f'{SESSION_COOKIE}=""' in response.headers["set-cookie"] or "Max-Age=0" in response.headers["set-cookie"]

    stolen = harness.new_client()
    stolen.cookies.set(SESSION_COOKIE, token)  # the old cookie, replayed
    response = await stolen.get("/api/me")
    assert response.status_code == 401
    assert error_of(response)["code"] == "session_revoked"
    assert error_of(await stolen.post("/api/auth/logout"))["code"] == "session_revoked"


async def test_logout_everywhere_revokes_every_session_of_the_user_only(harness: Harness):
    await harness.create_user("ada")
    phone, laptop = harness.new_client(), harness.new_client()
    for client in (phone, laptop):
        assert (await client.post("/api/auth/login", json={"username": "ada", "password": PASSWORD})).status_code == 200
    bob = await harness.user("bob")
    response = await laptop.post("/api/auth/logout-all")
    assert response.status_code == 200 and response.json() == {"sessions_revoked": 2}
    for client in (phone, laptop):
        response = await client.get("/api/me")
        assert response.status_code == 401
    assert error_of(await phone.get("/api/me"))["code"] == "session_revoked"
    assert (await bob.get("/api/me")).status_code == 200


async def test_a_session_expires_after_its_lifetime(harness: Harness):
    ada = await harness.user("ada")
    harness.clock.advance(timedelta(days=harness.settings.session_days) - timedelta(seconds=1))
    assert (await ada.get("/api/me")).status_code == 200
    harness.clock.advance(seconds=1)
    response = await ada.get("/api/me")
    assert response.status_code == 401 and error_of(response)["code"] == "session_expired"


async def test_a_forged_cookie_is_refused(harness: Harness):
    await harness.user("ada")
    forged = harness.new_client()
    forged.cookies.set(SESSION_COOKIE, "not-a-real-token")
    response = await forged.get("/api/me")
    assert response.status_code == 401 and error_of(response)["code"] == "invalid_session"


@pytest.mark.parametrize("method, path", [
    ("GET", "/api/me"), ("GET", "/api/wallet"), ("GET", "/api/wallet/history"), ("GET", "/api/friends"),
    ("POST", "/api/auth/logout"), ("POST", "/api/auth/logout-all"), ("POST", "/api/friends/requests"),
    ("POST", "/api/friends/requests/bob/accept"), ("POST", "/api/friends/requests/bob/decline"),
    ("DELETE", "/api/friends/requests/bob"), ("DELETE", "/api/friends/bob"), ("PUT", "/api/friends/blocks/bob"),
    ("DELETE", "/api/friends/blocks/bob"),
])
async def test_every_action_while_logged_out_is_refused(harness: Harness, method: str, path: str):
    kwargs = {"json": {"username": "bob"}} if path == "/api/friends/requests" else {}
    response = await harness.client.request(method, path, **kwargs)
    assert response.status_code == 401
    assert error_of(response)["code"] == "not_authenticated"


async def test_the_same_check_authenticates_a_raw_token(harness: Harness):
    """What the WebSocket gateway will call with the cookie's value."""
    await harness.client.post("/api/auth/register", json={"username": "ada", "password": PASSWORD})
    token = harness.client.cookies[SESSION_COOKIE]
    async with harness.runtime.transaction() as session:
        auth = await harness.runtime.accounts.authenticate(session, token)
    assert auth.user.username == "ada"
    await harness.client.post("/api/auth/logout")
    with pytest.raises(SessionRevoked):
        async with harness.runtime.transaction() as session:
            await harness.runtime.accounts.authenticate(session, token)


async def test_a_socket_is_authenticated_with_the_same_answers(harness: Harness):
    """authenticate_socket (the WebSocket gateway's lookup, without the ORM) agrees with authenticate on every case."""
    accounts = harness.runtime.accounts

    async def both(token):
        outcomes = []
        for check in (lambda: accounts.authenticate_socket(token), lambda: _authenticate(harness, token)):
            try:
                outcomes.append(await check())
            except Unauthorized as error:
                outcomes.append(type(error))
        return outcomes

    ada = await harness.create_user("ada")
    token = await harness.session_token(ada.id)
    socket_auth, auth = await both(token)
    assert (socket_auth.user_id, socket_auth.username, socket_auth.guest, socket_auth.session_id) == (
        auth.user.id, "ada", False, auth.session_id)
    assert await both(None) == [Unauthorized, Unauthorized] and await both("") == [Unauthorized, Unauthorized]
    assert await both("not-a-real-token") == [InvalidSession, InvalidSession]

    guest_client = harness.new_client()
    assert (await guest_client.post("/api/auth/guest")).status_code in (200, 201)
    guest = await accounts.authenticate_socket(guest_client.cookies[SESSION_COOKIE])
    assert guest.guest is True

    harness.clock.advance(timedelta(days=harness.settings.session_days))
    assert await both(token) == [SessionExpired, SessionExpired]
    harness.clock.advance(timedelta(days=-harness.settings.session_days))
    async with harness.runtime.transaction() as session:
        await session.execute(update(User).where(User.id == ada.id).values(banned_at=harness.clock.now()))
    assert await both(token) == [SessionRevoked, SessionRevoked]
    async with harness.runtime.transaction() as session:
        await session.execute(update(User).where(User.id == ada.id).values(banned_at=None))
        await session.execute(update(AuthSession).where(AuthSession.user_id == ada.id)
                              .values(revoked_at=harness.clock.now()))
    assert await both(token) == [SessionRevoked, SessionRevoked]


async def test_the_socket_re_check_finds_revoked_expired_and_gone_sessions(harness: Harness):
    """ended_sessions (the hub's timer asks it every 20 s for every open socket's session) against the database."""
    accounts = harness.runtime.accounts
    users = [await harness.create_user(name) for name in ("ada", "bob", "cy", "dee")]
    tokens = [await harness.session_token(user.id) for user in users]
    ids = [(await accounts.authenticate_socket(token)).session_id for token in tokens]
    assert await accounts.ended_sessions(ids) == set()
    async with harness.runtime.transaction() as session:
        await session.execute(update(AuthSession).where(AuthSession.id == ids[0]).values(revoked_at=harness.clock.now()))
        await session.execute(update(AuthSession).where(AuthSession.id == ids[1])
                              .values(expires_at=harness.clock.now() + timedelta(seconds=1)))
        await session.execute(delete(AuthSession).where(AuthSession.id == ids[2]))  # gone (its user deleted)
    assert await accounts.ended_sessions(ids) == {ids[0], ids[2]}
    harness.clock.advance(seconds=1)  # the expiry is exact, to the microsecond stored
    assert await accounts.ended_sessions(ids) == {ids[0], ids[1], ids[2]}
    assert await accounts.ended_sessions([]) == set()


async def _authenticate(harness: Harness, token):
    async with harness.runtime.reader() as session:
        return await harness.runtime.accounts.authenticate(session, token)


async def test_me_reports_the_level_of_platform_md(harness: Harness):
    ada = await harness.user("ada")
    for xp, level, start, end in [(0, 1, 0, 100), (99, 1, 0, 100), (100, 2, 100, 300), (299, 2, 100, 300),
                                  (300, 3, 300, 600), (600, 4, 600, 1000)]:
        async with harness.runtime.transaction() as session:
            await session.execute(update(User).values(xp=xp))
        assert (await ada.get("/api/me")).json() | {"id": 0} == {
            "id": 0, "username": "ada", "coins": 1000, "xp": xp, "level": level, "level_xp": start,
            "next_level_xp": end, "active": [], "guest": False, "allow_watching": True}
