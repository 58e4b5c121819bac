"""Fixtures for the online-play tests: an app whose background loop stays out of the way (tests move the injectable
clock and call `tick()` / `housekeeping()` themselves), on every backend."""

from __future__ import annotations

import pytest

from app.online.service import OnlinePlay
from tests.support.harness import Harness
from tests.support.quiet import quiet, quiet_settings  # noqa: F401 (fixtures)


@pytest.fixture
def online(quiet: Harness) -> OnlinePlay:
    return quiet.app.state.online
