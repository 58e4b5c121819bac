"""Alembic environment, async. Three ways in:

- the app (`app.core.migrations`) passes an open synchronous connection in `config.attributes["connection"]`;
- the `alembic` command line builds an engine from the app's settings (DATABASE_URL or the embedded SQLite file);
- `alembic upgrade --sql` (offline) renders SQL for the configured URL.

SQLite gets `render_as_batch` (ALTER TABLE there means copy-and-move); the naming convention on `Base.metadata`
gives every constraint a name so batch mode and downgrades can find them.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.models import metadata

config = context.config


def _render_item(kind: str, obj: object, autogen_context: object) -> str | bool:
    # Migrations stay plain SQLAlchemy: the app's UTCDateTime is a DateTime(timezone=True) in the schema.
    from app.core.db import UTCDateTime

    if kind == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(**kwargs: object) -> None:
    context.configure(target_metadata=metadata, compare_type=True, render_item=_render_item, **kwargs)


def run_with_connection(connection: Connection) -> None:
    _configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from app.config import Settings

    return Settings().database_url


async def _run_online() -> None:
    from app.core.db import create_engine

    engine = create_engine(_url(), pool_size=1, max_overflow=0)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_with_connection)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    url = _url()
    _configure(url=url, literal_binds=True, render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()
elif (shared := config.attributes.get("connection")) is not None:
    run_with_connection(shared)
else:
    asyncio.run(_run_online())
