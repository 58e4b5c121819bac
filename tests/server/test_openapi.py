"""/openapi.json documents every route's errors in the project's error shape, names games, shop items and bot levels
as enums (the endpoints still answer an unknown one with its own code), and a method a path does not take is a 405
that says, in `Allow`, which it does (issue 14)."""

from __future__ import annotations

import pytest

from app.games.registry import game_names
from tests.support.harness import Harness, open_harness

ERROR_REFS = {"#/components/schemas/ErrorOut", "#/components/schemas/ValidationErrorOut"}
SESSION_CODES = ["not_authenticated", "invalid_session", "session_revoked", "session_expired"]


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method.upper(), operation


def refs(response: dict) -> set[str]:
    schema = response["content"]["application/json"]["schema"]
    return {part["$ref"] for part in schema.get("anyOf", [schema])}


def codes(response: dict) -> list[str]:
    return [part.strip(" `") for part in response["description"].split(":", 1)[1].split(",")]


async def test_every_operation_documents_its_errors_in_the_error_shape(harness: Harness):
    schema = (await harness.client.get("/openapi.json")).json()
    components = schema["components"]["schemas"]
    assert "HTTPValidationError" not in components and "ValidationError" not in components
    assert components["ErrorOut"]["required"] == ["error"]
    assert components["ValidationErrorBody"]["properties"]["details"]["items"]["$ref"].endswith("/FieldError")
    assert set(components["FieldError"]["properties"]) == {"field", "in", "type", "message"}
    seen = 0
    for path, method, operation in operations(schema):
        responses = operation["responses"]
        errors = {status: response for status, response in responses.items() if not status.startswith("2")}
        for status, response in errors.items():
            assert refs(response) <= ERROR_REFS and refs(response), (path, method, status)
        assert codes(errors["500"]) == ["internal_error"]
        if operation.get("parameters") or "requestBody" in operation:
            assert "validation_error" in codes(errors["422"]), (path, method)
            assert "#/components/schemas/ValidationErrorOut" in refs(errors["422"])
        if "requestBody" in operation:
            assert {"malformed_json"} <= set(codes(errors["400"])) and codes(errors["413"]) == ["body_too_large"]
        if method in ("POST", "PUT", "DELETE"):
            assert "origin_not_allowed" in codes(errors["403"]), (path, method)
        if path.startswith("/api/") and path not in ("/api/auth/register", "/api/auth/login", "/api/auth/guest",
                                                     "/api/games",
                                                     "/api/league", "/api/league/{game}",
                                                     "/api/league/{game}/weeks"):
            assert codes(errors["401"])[-4:] == SESSION_CODES, (path, method)
        if path.startswith(("/api/friends", "/api/rooms", "/api/invitations", "/api/shop", "/api/matchmaking")):
            assert "guest_account" in codes(errors["403"]), (path, method)  # guests play vs bots only
        seen += 1
    assert seen >= 35


async def test_every_answer_with_a_body_is_described_by_a_named_model(harness: Harness):
    # No route answers an undocumented dict: each success body is a pydantic model with its fields listed.
    schema = (await harness.client.get("/openapi.json")).json()
    components = schema["components"]["schemas"]
    bodies = 0
    for path, method, operation in operations(schema):
        for status, response in operation["responses"].items():
            if not status.startswith("2") or "content" not in response:
                assert status == "204" or not status.startswith("2"), (path, method, status)
                continue
            reference = response["content"]["application/json"]["schema"].get("$ref", "")
            assert reference.startswith("#/components/schemas/"), (path, method, status)
            assert components[reference.rsplit("/", 1)[1]]["properties"], (path, method, status)
            bodies += 1
    assert bodies >= 35


@pytest.mark.parametrize("path, method, status, code", [
    ("/api/auth/register", "post", "409", "username_taken"),
    ("/api/auth/register", "post", "429", "rate_limited"),
    ("/api/auth/login", "post", "401", "invalid_credentials"),
    ("/api/auth/login", "post", "429", "rate_limited"),
    ("/api/friends/requests", "post", "403", "blocked"),
    ("/api/friends/requests/{username}/accept", "post", "404", "no_such_request"),
    ("/api/rooms/{room_id}/invitations", "post", "409", "already_invited"),
    ("/api/invitations/{invitation_id}/accept", "post", "409", "room_full"),
    ("/api/rooms/{room_id}/start", "post", "400", "not_enough_players"),
    ("/api/tables", "post", "422", "unknown_game"),
    ("/api/shop/purchases", "post", "409", "insufficient_funds"),
    ("/api/league/{game}", "get", "404", "unknown_game"),
    ("/api/wallet/history", "get", "400", "invalid_cursor"),
    ("/api/games/{game_id}", "get", "404", "no_such_game"),
])
async def test_a_route_s_own_errors_are_listed_with_their_codes(harness: Harness, path, method, status, code):
    schema = (await harness.client.get("/openapi.json")).json()
    assert code in codes(schema["paths"][path][method]["responses"][status])


async def test_games_items_and_bot_levels_are_enums(harness: Harness):
    schema = (await harness.client.get("/openapi.json")).json()
    components = schema["components"]["schemas"]
    assert components["VsBotsIn"]["properties"]["game"]["enum"] == game_names()
    assert components["RoomIn"]["properties"]["game"]["enum"] == game_names()
    assert components["VsBotsIn"]["properties"]["bot_level"]["enum"] == ["easy", "medium", "hard"]
    assert components["BotIn"]["properties"]["level"]["enum"] == ["easy", "medium", "hard"]
    assert components["PurchaseIn"]["properties"]["item"]["enum"] == ["booster", "vip"]
    (game,) = [p for p in schema["paths"]["/api/league/{game}"]["get"]["parameters"] if p["name"] == "game"]
    assert game["schema"]["enum"] == game_names()


async def test_values_outside_the_enums_keep_their_own_error_codes(harness: Harness):
    ada = await harness.user("ada")
    response = await ada.post("/api/tables", json={"game": "chess", "seats": 2})
    assert (response.status_code, response.json()["error"]["code"]) == (422, "unknown_game")
    response = await ada.post("/api/tables", json={"game": "pika", "seats": 2, "bot_level": "godlike"})
    assert (response.status_code, response.json()["error"]["code"]) == (422, "unknown_bot_level")
    response = await ada.post("/api/shop/purchases", json={"item": "gold"})
    assert (response.status_code, response.json()["error"]["code"]) == (422, "unknown_item")
    response = await ada.get("/api/league/chess")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "unknown_game")


@pytest.mark.parametrize("method, path, allow", [
    ("OPTIONS", "/api/me", "GET"),
    ("DELETE", "/api/me", "GET"),
    ("OPTIONS", "/api/rooms/abc", "DELETE, GET"),
    ("PATCH", "/api/friends/blocks/bob", "DELETE, PUT"),
    ("GET", "/api/auth/login", "POST"),
    ("OPTIONS", "/", "GET"),
    ("POST", "/static/app.js", "GET, HEAD"),
])
async def test_a_method_a_path_does_not_take_is_a_405_naming_those_it_does(harness: Harness, method, path, allow):
    static = harness.settings.data_dir / "static-405"
    static.mkdir()
    (static / "app.js").write_text("export {}")
    async with open_harness(harness.settings.model_copy(update={"static_dir": static})) as other:
        response = await other.client.request(method, path)
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert response.headers["allow"] == allow
