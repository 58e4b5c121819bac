"""Storage backends for tests.

- "embedded": SQLite (aiosqlite) in the test's temporary folder + `memory://` Redis. Always run.
- "services": a real PostgreSQL + a real Redis, when TEST_POSTGRES_URL (a server URL, e.g.
  postgresql+asyncpg://postgres@127.0.0.1:5432/postgres) and TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/9) are set.
  The run creates its own database(s) on that server, named uniquely, and drops them at the end. On Redis it claims
  a database number of its own (TEST_REDIS_URL's number or the next free one above it, see
  `claim_redis_database`), so runs side by side never flush each other's keys; that database is flushed before
  each test.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import redis
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.config import Settings
from app.core import migrations
from app.core.db import create_engine

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "").strip()
REDIS_URL = os.environ.get("TEST_REDIS_URL", "").strip()
SERVICES = bool(POSTGRES_URL and REDIS_URL)
BACKENDS = ["embedded", "services"] if SERVICES else ["embedded"]

TEST_SECRET = "test-secret-key-not-for-production"


def unique_name(prefix: str = "ts_test") -> str:
    return f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:10]}"


# Claims live in database 0, which the tests never use (nor flush); each expires so a killed run frees its number.
REDIS_CLAIM_KEY = "tablestakes-test-run-claims:{}"
REDIS_CLAIM_SECONDS = 2 * 3600
_RELEASE_CLAIM = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def _redis_url_with_database(url: str, number: int) -> str:
    return urlsplit(url)._replace(path=f"/{number}").geturl()


def claim_redis_database(url: str) -> tuple[str, str]:
    """The URL of a Redis database no other test run holds, and the token that releases it.

    Tries the URL's own database number first, then each one above it up to the server's last."""
    first = int(urlsplit(url).path.strip("/") or 0)
    if first < 1:
        raise RuntimeError(f"TEST_REDIS_URL must name a database from 1 up (0 keeps the runs' claims): {url}")
    admin = redis.Redis.from_url(_redis_url_with_database(url, 0), decode_responses=True)
    try:
        databases = int(admin.config_get("databases").get("databases", 16))
        token = unique_name("run")
        for number in range(first, databases):
            if admin.set(REDIS_CLAIM_KEY.format(number), token, nx=True, ex=REDIS_CLAIM_SECONDS):
                return _redis_url_with_database(url, number), token
    finally:
        admin.close()
    raise RuntimeError(f"Redis databases {first} to {databases - 1} are all held by other test runs")


def release_redis_database(url: str, token: str) -> None:
    admin = redis.Redis.from_url(_redis_url_with_database(url, 0), decode_responses=True)
    try:
        number = int(urlsplit(url).path.strip("/"))
        admin.eval(_RELEASE_CLAIM, 1, REDIS_CLAIM_KEY.format(number), token)
    finally:
        admin.close()


def postgres_url_for(database: str) -> str:
    return make_url(POSTGRES_URL).set(database=database).render_as_string(hide_password=False)


async def create_postgres_database(name: str) -> str:
    admin = create_engine(POSTGRES_URL, pool_size=1, max_overflow=0)
    try:
        async with admin.connect() as connection:
            await connection.execution_options(isolation_level="AUTOCOMMIT")
            await connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await admin.dispose()
    return postgres_url_for(name)


async def drop_postgres_database(name: str) -> None:
    admin = create_engine(POSTGRES_URL, pool_size=1, max_overflow=0)
    try:
        async with admin.connect() as connection:
            await connection.execution_options(isolation_level="AUTOCOMMIT")
            await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


async def migrate(url: str) -> None:
    engine = create_engine(url, pool_size=1, max_overflow=0)
    try:
        await migrations.upgrade(engine)
    finally:
        await engine.dispose()


def migrated_sqlite_template(folder: Path) -> Path:
    """A migrated SQLite file that each test copies (migrating once per run, not once per test)."""
    path = folder / "template.db"
    asyncio.run(migrate(f"sqlite+aiosqlite:///{path}"))
    return path


def copy_sqlite(template: Path, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, folder / "tablestakes.db")


def make_settings(data_dir: Path, *, database_url: str = "", redis_url: str = "memory://", **overrides: object
                  ) -> Settings:
    """Settings for a test: explicit storage, a fixed secret, generous login and sign-up limits unless a test lowers
    them."""
    values: dict[str, object] = {
        "data_dir": data_dir, "database_url": database_url, "redis_url": redis_url, "secret_key": TEST_SECRET,
        "static_dir": data_dir / "static", "start_balance": 1000, "login_failures_per_username_and_address": 1000,
        "login_failures_per_address": 1000, "login_failures_per_username": 1000, "signup_rate_per_address": 1000,
        "signup_rate_overall": 1000, "guest_rate_per_address": 1000, "guest_rate_overall": 1000,
        "practice_tables_per_user": 1000, "open_rooms_per_user": 1000,
        "allowed_origins": [], "db_pool_size": 5, "db_max_overflow": 20,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]
