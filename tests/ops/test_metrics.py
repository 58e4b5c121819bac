"""GET /metrics: the Prometheus text, refused without METRICS_TOKEN's bearer token (404 with no token set), and its
metrics appear with their labels and move while games are played (README, "Metrics")."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from pydantic import SecretStr

from app.client import TablestakesClient
from tests.ops.ops_support import (METRICS_TOKEN, easy_bot, live_settings, matched, open_site, parse_metrics, queue,
                                   sample)
from tests.support.harness import open_harness

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_metrics_are_refused_without_the_token_and_absent_when_no_token_is_set(settings, backend):
    async with open_harness(settings, clean=backend == "services") as harness:
        assert settings.metrics_token is None
        hidden = await harness.client.get("/metrics", headers={"Authorization": "Bearer anything"})
        assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "not_found"
    guarded = settings.model_copy(update={"metrics_token": SecretStr(METRICS_TOKEN)})
    async with open_harness(guarded) as harness:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {METRICS_TOKEN}"},
                        {"Authorization": f"Bearer {METRICS_TOKEN}x"}):
            refused = await harness.client.get("/metrics", headers=headers)
            assert refused.status_code == 401, headers
            assert refused.json()["error"]["code"] == "not_authenticated"
            assert refused.headers["www-authenticate"] == "Bearer"
            assert "tablestakes" not in refused.text
        allowed = await harness.client.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        assert allowed.status_code == 200
        assert allowed.headers["content-type"].startswith("text/plain")
        names = {name for name, _ in parse_metrics(allowed.text)}
        assert {"tablestakes_sockets", "tablestakes_fenced_writes_total", "process_cpu_seconds_total"} <= names
        assert "/metrics" not in (await harness.client.get("/openapi.json")).json()["paths"]


async def test_metrics_move_while_a_staked_game_and_a_game_against_bots_are_played(settings, backend):
    async with open_site(live_settings(settings), backend) as site:
        before = await site.metrics()
        ada, bob = await site.player("ada"), await site.player("bob")

        # A player waits at a forming staked table: the queue shows her, her stake went into the ledger.
        assert (await queue(ada, "pika", 2))["event"] == "waiting"
        waiting = await site.metrics()
        assert sample(waiting, "tablestakes_matchmaking_waiting_players", game="pika", mode="staked") == 1
        assert sample(waiting, "tablestakes_sockets") == 2
        assert (sample(waiting, "tablestakes_ledger_transfers_total", kind="stake")
                == sample(before, "tablestakes_ledger_transfers_total", kind="stake") + 1)
        assert (sample(waiting, "tablestakes_ledger_coins_total", kind="stake")
                == sample(before, "tablestakes_ledger_coins_total", kind="stake") + 100)

        # The table forms and is played to the end by both players.
        table_id, seats = await staked_table_after_first(ada, bob)
        playing = await site.metrics()
        assert sample(playing, "tablestakes_live_tables", game="pika", mode="staked") == 1
        assert sample(playing, "tablestakes_matchmaking_waiting_players", game="pika", mode="staked") == 0
        assert (sample(playing, "tablestakes_matchmaking_wait_seconds_count", game="pika", mode="staked",
                       outcome="formed")
                == sample(before, "tablestakes_matchmaking_wait_seconds_count", game="pika", mode="staked",
                          outcome="formed") + 1)
        await asyncio.gather(ada.play(table_id, easy_bot("pika", seats[ada.user["id"]], 1)),
                             bob.play(table_id, easy_bot("pika", seats[bob.user["id"]], 2)))
        played = await site.metrics()
        moves = (sample(played, "tablestakes_actions_total", game="pika", source="player")
                 - sample(before, "tablestakes_actions_total", game="pika", source="player"))
        latencies = (sample(played, "tablestakes_action_broadcast_seconds_count", game="pika")
                     - sample(before, "tablestakes_action_broadcast_seconds_count", game="pika"))
        assert moves >= 2 and latencies == moves  # every accepted move of a person was timed to its broadcast
        assert sample(played, "tablestakes_action_broadcast_seconds_sum", game="pika") > sample(
            before, "tablestakes_action_broadcast_seconds_sum", game="pika")
        assert sample(played, "tablestakes_actions_total", game="pika", source="notice") > sample(
            before, "tablestakes_actions_total", game="pika", source="notice")
        assert (sample(played, "tablestakes_ledger_transfers_total", kind="pot")
                == sample(before, "tablestakes_ledger_transfers_total", kind="pot") + 1)  # the payout, once
        assert sample(played, "tablestakes_ledger_coins_total", kind="pot") == sample(
            before, "tablestakes_ledger_coins_total", kind="pot") + 200
        assert sample(played, "tablestakes_live_tables", game="pika", mode="staked") == 0

        # A game against bots: the bots' thinking is timed, their moves counted as theirs.
        table = await ada.post("/api/tables", {"game": "kapern", "seats": 2, "bot_level": "easy"})
        await ada.join(table["id"])
        await ada.play(table["id"], easy_bot("kapern", table["seat"], 3))
        after = await site.metrics()
        assert sample(after, "tablestakes_actions_total", game="kapern", source="bot") > sample(
            before, "tablestakes_actions_total", game="kapern", source="bot")
        assert sample(after, "tablestakes_bot_think_seconds_count", game="kapern", level="easy") > sample(
            before, "tablestakes_bot_think_seconds_count", game="kapern", level="easy")

        # HTTP requests by route template (never the raw path) and status.
        assert sample(after, "tablestakes_http_requests_total", method="POST", route="/api/tables",
                      status="201") >= 1
        assert sample(after, "tablestakes_http_requests_total", method="POST", route="/api/auth/register",
                      status="201") >= 2
        async with httpx.AsyncClient(base_url=site.server.url) as http:
            assert (await http.get("/api/league/nosuchgame")).status_code in (404, 422)
            assert (await http.get("/no/such/page")).status_code == 404
        last = await site.metrics()
        routes = {dict(labels).get("route") for name, labels in last if name == "tablestakes_http_requests_total"}
        assert "/api/league/{game}" in routes and "unmatched" in routes
        assert not any(route and "nosuchgame" in route for route in routes)
        assert sample(last, "tablestakes_failed_writes_total") == sample(before, "tablestakes_failed_writes_total")


async def staked_table_after_first(ada: TablestakesClient, bob: TablestakesClient) -> tuple[str, dict[int, int]]:
    """Bob sits down at the table Ada waits at; both join it."""
    await queue(bob, "pika", 2)
    table_id = (await matched(ada))["table_id"]
    assert (await matched(bob))["table_id"] == table_id
    seats = {}
    for client in (ada, bob):
        await client.join(table_id)
        seats[client.user["id"]] = (await matched(client))["seat"]
    return table_id, seats
