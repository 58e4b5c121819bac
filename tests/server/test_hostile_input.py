"""Hostile input over HTTP (issue 14): every parameter is range-checked where it is declared (app/core/params.py),
so NUL bytes, ids past 64 bits, absurd dates and offsets, and non-finite numbers get a clear 4xx in the error shape,
on PostgreSQL as on SQLite, and nothing is written."""

from __future__ import annotations

import pytest

from tests.support.harness import PASSWORD, Harness


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    assert {"code", "message"} <= set(body["error"]), body
    return body["error"]


NUL = "a\x00b"
BEYOND_INT64 = "99999999999999999999"


@pytest.mark.parametrize("method, path, body, field", [
    ("POST", "/api/auth/login", {"username": NUL, "password": PASSWORD}, "username"),
    ("POST", "/api/auth/register", {"username": NUL, "password": PASSWORD}, "username"),
    ("POST", "/api/friends/requests", {"username": NUL}, "username"),
    ("POST", "/api/friends/requests/a%00b/accept", None, "username"),
    ("POST", "/api/friends/requests/a%00b/decline", None, "username"),
    ("DELETE", "/api/friends/requests/a%00b", None, "username"),
    ("DELETE", "/api/friends/a%00b", None, "username"),
    ("PUT", "/api/friends/blocks/a%00b", None, "username"),
    ("DELETE", "/api/friends/blocks/a%00b", None, "username"),
    ("GET", "/api/rooms/a%00b", None, "room_id"),
    ("POST", "/api/rooms/a%00b/leave", None, "room_id"),
    ("GET", "/api/games/a%00b", None, "game_id"),
    ("GET", "/api/games/history?before=a%00b", None, "before"),
    ("POST", "/api/invitations/" + BEYOND_INT64 + "/accept", None, "invitation_id"),
    ("POST", "/api/invitations/-" + BEYOND_INT64 + "/decline", None, "invitation_id"),
    ("POST", "/api/invitations/0/accept", None, "invitation_id"),
    ("GET", "/api/league/pika?week=9999-12-31", None, "week"),
    ("GET", "/api/league/pika?week=0001-01-01", None, "week"),
    ("GET", "/api/league/pika?offset=" + BEYOND_INT64, None, "offset"),
    ("GET", "/api/league/pika?offset=-1", None, "offset"),
    ("GET", "/api/games/" + "g" * 32 + "/replay?start=9223372036854775808", None, "start"),
    ("GET", "/api/games/" + "g" * 32 + "/replay?start=1000000001", None, "start"),
])
async def test_hostile_parameters_are_a_422_naming_the_field(harness: Harness, method, path, body, field):
    ada = await harness.user("ada")
    response = await ada.request(method, path, json=body) if body is not None else await ada.request(method, path)
    assert response.status_code == 422, response.text
    error = error_of(response)
    assert error["code"] == "validation_error"
    assert [detail["field"] for detail in error["details"]] == [field]


async def test_a_room_s_invitation_and_seat_numbers_are_range_checked(harness: Harness):
    host = await harness.user("host")
    room = (await host.post("/api/rooms", json={"game": "pika", "seats": 3})).json()
    for path, field in [(f"/api/rooms/{room['id']}/invitations/{BEYOND_INT64}", "invitation_id"),
                        (f"/api/rooms/{room['id']}/seats/{BEYOND_INT64}", "seat"),
                        (f"/api/rooms/{room['id']}/seats/-1", "seat")]:
        response = await host.delete(path)
        assert response.status_code == 422, response.text
        assert [detail["field"] for detail in error_of(response)["details"]] == [field]
    # The room is as it was: the host in seat 0, two free seats.
    seats = (await host.get(f"/api/rooms/{room['id']}")).json()["seats"]
    assert seats[0]["name"] == "host" and seats[1:] == [None, None]


@pytest.mark.parametrize("cursor", [BEYOND_INT64, "²", "١٢"])
async def test_a_wallet_cursor_that_is_no_entry_id_is_invalid(harness: Harness, cursor: str):
    ada = await harness.user("ada")
    response = await ada.get("/api/wallet/history", params={"cursor": cursor})
    assert response.status_code == 400 and error_of(response)["code"] == "invalid_cursor"


async def test_a_game_history_cursor_of_the_right_shape_but_nobody_s_is_refused_plainly(harness: Harness):
    ada = await harness.user("ada")
    response = await ada.get("/api/games/history", params={"before": "0" * 32})
    assert response.status_code == 422 and error_of(response)["code"] == "bad_cursor"
    response = await ada.get(f"/api/games/{'0' * 32}")
    assert response.status_code == 404 and error_of(response)["code"] == "no_such_game"


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400"])
@pytest.mark.parametrize("path, template", [
    ("/api/rooms", b'{"game": "pika", "seats": 2, "options": {"alert_seconds": %s}}'),
    ("/api/tables", b'{"game": "pika", "seats": 2, "turn_seconds": %s}'),
    ("/api/friends/requests", b'{"username": "bob", "junk": [%s]}'),
])
async def test_non_finite_numbers_in_a_body_are_not_json(harness: Harness, path: str, template: bytes,
                                                         number: bytes):
    ada = await harness.user("ada")
    response = await ada.post(path, content=template % number, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert error["code"] == "malformed_json"
    assert number.decode().lstrip("-") in error["message"]
    assert (await ada.get("/api/rooms")).json() == {"rooms": []}
    assert (await ada.get("/api/tables/mine")).json() == {"tables": []}


async def test_large_but_finite_numbers_still_reach_the_endpoint(harness: Harness):
    ada = await harness.user("ada")
    response = await ada.post("/api/tables", content=b'{"game": "pika", "seats": 2, "turn_seconds": 1e300}',
                              headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert [detail["field"] for detail in error_of(response)["details"]] == ["turn_seconds"]


@pytest.mark.parametrize("body, said", [
    (b"[" * 50_000, "nested too deeply"),
    (b"[" * 30_000 + b"]" * 30_000, "nested too deeply"),
    (b'{"game": "pika", "seats": 2, "name": "\xff"}', "not UTF-8"),
    (b'\xc3\x28', "not UTF-8"),
])
async def test_a_body_too_deep_to_parse_or_not_text_is_malformed_json(harness: Harness, body: bytes, said: str):
    ada = await harness.user("ada")
    response = await ada.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert error["code"] == "malformed_json" and said in error["message"], error
    assert (await ada.get("/api/rooms")).json() == {"rooms": []}


async def test_names_outside_the_username_rule_are_refused_with_the_rule(harness: Harness):
    await harness.create_user("ada")
    response = await harness.client.post("/api/auth/login", json={"username": "ada lovelace", "password": PASSWORD})
    assert response.status_code == 422
    assert "3 to 20" in error_of(response)["details"][0]["message"]
    ada = await harness.user("ada2")
    response = await ada.post("/api/friends/requests", json={"username": "x" * 64})
    assert response.status_code == 422 and error_of(response)["details"][0]["field"] == "username"
