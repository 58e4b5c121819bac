"""`tablestakes backup PATH` / `restore PATH`: a backup taken while the app runs (SQLite's online backup API; pg_dump
on PostgreSQL), restored into a fresh database, holds the same ledger and passes `tablestakes audit` there."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from sqlalchemy import func, select

from app import backup
from app.core import migrations
from app.ledger.audit import audit_ledger
from app.ledger.models import LedgerAccount, LedgerEntry
from app.runtime import open_runtime
from app.tables.models import GameRecord
from tests.ops.ops_support import tablestakes
from tests.ops.test_audit import staked_game
from tests.support import backends


async def ledger_state(runtime) -> tuple[list[tuple[str, int]], int, int]:
    async with runtime.reader() as session:
        balances = sorted((await session.execute(select(LedgerAccount.name, LedgerAccount.balance))).all())
        entries = await session.scalar(select(func.count()).select_from(LedgerEntry))
        games = await session.scalar(select(func.count()).select_from(GameRecord))
    return [tuple(row) for row in balances], int(entries), int(games)


async def test_a_backup_restored_into_a_fresh_database_holds_the_same_ledger_and_passes_the_audit(quiet, backend,
                                                                                                  tmp_path):
    await staked_game(quiet, ["ada", "bob", "cy"], [1, 1, 3], stake=250)  # a split pot
    matchmaking = quiet.app.state.online.matchmaking
    dave = await quiet.create_user("dave")
    async with quiet.runtime.transaction() as session:
        wallet = await quiet.runtime.ledger.wallet_id(session, dave.id)
        await quiet.runtime.ledger.credit(session, wallet, 42, key="grant:test", reason="grant: a test")
    assert matchmaking is not None
    original = await ledger_state(quiet.runtime)

    path = tmp_path / "tablestakes.backup"
    written = await asyncio.to_thread(backup.backup, quiet.settings.database_url, path)  # the app is running
    assert path.is_file() and str(path) in written
    with pytest.raises(backup.BackupError, match="exists already"):
        backup.backup(quiet.settings.database_url, path)

    if backend == "embedded":
        fresh_url = f"sqlite+aiosqlite:///{tmp_path / 'restored' / 'tablestakes.db'}"
        connection = sqlite3.connect(path)
        try:  # one self-contained file, not a WAL database with a sidecar
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        finally:
            connection.close()
    else:
        name = backends.unique_name("ts_restore")
        fresh_url = await backends.create_postgres_database(name)
    try:
        await asyncio.to_thread(backup.restore, fresh_url, path)
        restored = quiet.settings.model_copy(update={"database_url": fresh_url, "redis_url": "memory://"})
        async with open_runtime(restored) as runtime:
            assert await migrations.current_revision(runtime.engine) == await migrations.current_revision(
                quiet.runtime.engine)
            assert await ledger_state(runtime) == original
            async with runtime.reader() as session:
                report = await audit_ledger(session, quiet.clock.now())
            assert report.clean, report.differences
            assert report.staked_games == 1 and report.balances_total == 4 * 1000 + 42
        done = await asyncio.to_thread(tablestakes, tmp_path, restored, "audit")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "ledger audit: no difference" in done.stdout

        # Restoring over a database that holds one is refused unless asked for.
        with pytest.raises(backup.BackupError):
            await asyncio.to_thread(backup.restore, fresh_url, path)
        await asyncio.to_thread(backup.restore, fresh_url, path, replace=True)
        async with open_runtime(restored) as runtime:
            assert await ledger_state(runtime) == original
    finally:
        if backend == "services":
            await backends.drop_postgres_database(name)


def test_restore_refuses_what_is_not_a_backup(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    target = f"sqlite+aiosqlite:///{tmp_path / 'target.db'}"
    with pytest.raises(backup.BackupError, match="not an SQLite database"):
        backup.restore(target, junk)
    with pytest.raises(backup.BackupError, match="there is no backup"):
        backup.restore(target, tmp_path / "missing.db")
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    with pytest.raises(backup.BackupError, match="not a Tablestakes database"):
        backup.restore(target, empty)
    assert not (tmp_path / "target.db").exists()
