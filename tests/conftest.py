"""Fixtures for every test folder. Nothing game-specific here (shared helpers live in tests/support/).

- `backend`: "embedded" (SQLite + memory://) always, "services" (Postgres + Redis) when TEST_POSTGRES_URL and
  TEST_REDIS_URL are set. Tests that use `settings`, `harness` or `runtime` run once per backend.
- `settings`: Settings on a fresh, migrated database of that backend.
- `harness`: an app (lifespan running), an httpx client on it and its runtime (see tests/support/harness.py).
- `runtime`: the harness's services, for tests that need no HTTP.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.config import Settings
from app.runtime import Runtime
from tests.support import backends
from tests.support.harness import Harness, open_harness


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return backends.migrated_sqlite_template(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """One migrated Postgres database for this run (unique name), dropped at the end."""
    if not backends.SERVICES:  # only the "services" backend asks for it, and that exists only when they are set
        raise RuntimeError("TEST_POSTGRES_URL and TEST_REDIS_URL are not set")
    name = backends.unique_name()
    url = asyncio.run(backends.create_postgres_database(name))
    try:
        asyncio.run(backends.migrate(url))
        yield url
    finally:
        asyncio.run(backends.drop_postgres_database(name))


@pytest.fixture(scope="session")
def redis_database() -> Iterator[str]:
    """A Redis database number of this run's own (parallel runs on one server each claim another), released at
    the end."""
    if not backends.SERVICES:
        raise RuntimeError("TEST_POSTGRES_URL and TEST_REDIS_URL are not set")
    url, token = backends.claim_redis_database(backends.REDIS_URL)
    try:
        yield url
    finally:
        backends.release_redis_database(url, token)


@pytest.fixture(params=backends.BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def settings(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    if backend == "embedded":
        backends.copy_sqlite(request.getfixturevalue("sqlite_template"), data_dir)
        return backends.make_settings(data_dir)
    return backends.make_settings(data_dir, database_url=request.getfixturevalue("postgres_database"),
                                  redis_url=request.getfixturevalue("redis_database"))


@pytest.fixture
async def harness(settings: Settings, backend: str) -> AsyncIterator[Harness]:
    async with open_harness(settings, clean=backend == "services") as harness:
        yield harness


@pytest.fixture
def runtime(harness: Harness) -> Runtime:
    return harness.runtime
