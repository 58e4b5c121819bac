"""The `quiet` app: background loops out of the way (matchmaking ticks, league checks, the adoption loop), so a test
moves the clock and calls what it needs itself; on every backend. Imported by the conftest files that use it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.config import Settings
from app.runtime import open_runtime
from tests.support.harness import Harness, open_harness, wipe


@pytest.fixture
def quiet_settings(settings: Settings) -> Settings:
    # The adoption loop stays out of the way too (tests call adopt_orphans() themselves).
    return settings.model_copy(update={"matchmaking_tick_seconds": 3600.0, "league_check_seconds": 1e9,
                                       "owner_lease_seconds": 3600.0})


@pytest.fixture
async def quiet(quiet_settings: Settings, backend: str) -> AsyncIterator[Harness]:
    if backend == "services":
        # The services database is shared by the run: start clean before the app would resume other tests' tables.
        async with open_runtime(quiet_settings) as runtime:
            await wipe(runtime)
    async with open_harness(quiet_settings, clean=backend == "services") as harness:
        yield harness
