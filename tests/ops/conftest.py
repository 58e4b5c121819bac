"""Fixtures for the operator tests: an app whose background loops stay out of the way (tests move the clock and call
what they need), on every backend, as in tests/online."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.config import Settings
from app.runtime import open_runtime
from tests.support.harness import Harness, open_harness, wipe


@pytest.fixture
def quiet_settings(settings: Settings) -> Settings:
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
