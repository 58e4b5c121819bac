"""Browser tests: a real uvicorn serving static/ and the API, Playwright driving Debian's Chromium.

They run on the embedded backend only: what they test is the client, and the server's storage backends are covered
by the server and table tests; running them twice would double the slowest part of the suite.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Playwright, async_playwright

from app.config import REPO_ROOT, Settings
from tests.browser.helpers import shots_taken


@pytest.fixture(params=["embedded"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def browser_settings(settings: Settings) -> Settings:
    """Quick but visible bots, the real client files."""
    return settings.model_copy(update={
        "static_dir": REPO_ROOT / "static",
        "bot_delay_min_seconds": 0.1,
        "bot_delay_max_seconds": 0.2,
        "snapshot_seconds": 0.5,
        "disconnect_grace_seconds": 5.0,
    })


@pytest.fixture
async def playwright() -> AsyncIterator[Playwright]:
    # Chromium itself is checked when a test opens a browser (helpers.open_player): a missing one fails the test.
    async with async_playwright() as driver:
        yield driver


@pytest.fixture
def profiles(tmp_path: Path) -> Path:
    """Fresh Chromium profiles for this test."""
    folder = tmp_path / "chromium-profiles"
    folder.mkdir()
    return folder


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    folder = shots_taken()
    if folder is not None:
        terminalreporter.write_line(f"browser screenshots: {folder}")
