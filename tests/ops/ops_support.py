"""Helpers shared by the operator tests (rootdir-relative import: tests.ops.ops_support): a live server on a manual
clock, players who reach staked tables, a staked table formed and joined, the command line run as an operator
would run it, and metrics read back from the Prometheus text."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr
from prometheus_client.parser import text_string_to_metric_families

from app.client import TablestakesClient, bot_chooser
from app.config import Settings
from app.core.clock import ManualClock
from app.games.registry import get_game
from app.runtime import open_runtime
from tests.support.harness import PASSWORD, reach_staked_level, wipe
from tests.support.live import LiveServer, live_server
from tests.support.server import run_cli

METRICS_TOKEN = "scrape-token-for-tests"


def live_settings(settings: Settings, **overrides: Any) -> Settings:
    return settings.model_copy(update={
        "bot_delay_min_seconds": 0.0, "bot_delay_max_seconds": 0.0, "disconnect_grace_seconds": 0.3,
        "snapshot_seconds": 0.0, "ws_messages_per_second": 1000.0, "matchmaking_tick_seconds": 0.02,
        "league_check_seconds": 1e9, "metrics_token": SecretStr(METRICS_TOKEN), **overrides,
    })


class Site:
    """A live server on a manual clock, and the players a test made on it."""

    def __init__(self, server: LiveServer, clock: ManualClock, settings: Settings):
        self.server = server
        self.clock = clock
        self.settings = settings
        self.clients: list[TablestakesClient] = []

    async def player(self, name: str, *, played: bool = True) -> TablestakesClient:
        client = TablestakesClient(self.server.url)
        await client.register(name, PASSWORD)
        if played:
            await reach_staked_level(self.server.runtime, client.user["id"])
        await client.connect()
        self.clients.append(client)
        return client

    async def close(self) -> None:
        for client in self.clients:
            try:
                await client.close()
            except Exception:
                pass

    async def metrics(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        """Every sample of /metrics: (name, sorted labels) -> value."""
        async with httpx.AsyncClient(base_url=self.server.url) as http:
            response = await http.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        assert response.status_code == 200, response.text
        return parse_metrics(response.text)


def parse_metrics(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def sample(samples: Mapping[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    """The sum of the samples called `name` whose labels include `labels` (0 when there is none)."""
    wanted = set(labels.items())
    return sum(value for (found, found_labels), value in samples.items()
               if found == name and wanted <= set(found_labels))


@asynccontextmanager
async def open_site(settings: Settings, backend: str) -> AsyncIterator[Site]:
    if backend == "services":
        # The services database is shared by the run's tests: start clean, before the server would resume the
        # unfinished tables other tests left.
        async with open_runtime(settings) as runtime:
            await wipe(runtime)
    clock = ManualClock()
    async with live_server(settings, clock=clock) as server:
        site = Site(server, clock, settings)
        try:
            yield site
        finally:
            await site.close()


def events(client: TablestakesClient, event: str) -> list[dict]:
    return [n["data"] for n in client.notices if n["type"] == "matchmaking" and n["data"]["event"] == event]


async def queue(client: TablestakesClient, game: str, seats: int, mode: str = "staked", stake: int | None = 100
                ) -> dict:
    reply = await client.request({"type": "queue", "game": game, "seats": seats, "mode": mode,
                                  "stake": stake if mode == "staked" else None})
    return reply["matchmaking"]


async def matched(client: TablestakesClient) -> dict:
    await client.wait_for(lambda: bool(events(client, "matched")))
    return events(client, "matched")[-1]


async def staked_table(first: TablestakesClient, second: TablestakesClient, *, game: str = "pika",
                       stake: int = 100) -> tuple[str, dict[int, int]]:
    """Two players sit at a two-seat staked table and join it: (table id, user id -> seat)."""
    await queue(first, game, 2, "staked", stake)
    await queue(second, game, 2, "staked", stake)
    table_id = (await matched(first))["table_id"]
    assert (await matched(second))["table_id"] == table_id
    seats = {}
    for client in (first, second):
        await client.join(table_id)
        seats[client.user["id"]] = (await matched(client))["seat"]
    return table_id, seats


def easy_bot(game: str, seat: int, seed: int = 0):
    return bot_chooser(get_game(game).bots["easy"](seat, random.Random(seed + seat)))


def cli_env(settings: Settings) -> dict[str, str]:
    """What an operator's shell would hold to run `tablestakes` against this app's database and Redis."""
    return {"DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url, "DATA_DIR": str(settings.data_dir),
            "SECRET_KEY": settings.resolved_secret_key(), "LOG_LEVEL": "WARNING"}


def tablestakes(workdir: Path, settings: Settings, *args: str):
    """Run the command line in a process of its own, as an operator does beside the running server."""
    return run_cli(workdir, *args, env=cli_env(settings))
