"""The storage set-up: SQLite's WAL / busy timeout / BEGIN IMMEDIATE, the Redis factory with Lua on both backends,
and two apps with different settings side by side in one process."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy import (JSON, Boolean, Column, Float, Integer, MetaData, String, Table, bindparam, event, insert,
                        select, text, update)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.config import Settings
from app.core.db import (SQLiteDirectWriter, SQLiteGroupCommits, UTCDateTime, WALCheckpointer, _WriterQueue,
                         create_engine, create_sessionmaker)
from app.core.redis import close_redis, create_redis
from tests.support import backends
from tests.support.backends import make_settings
from tests.support.harness import open_harness


async def test_sqlite_connections_use_wal_a_busy_timeout_and_foreign_keys(tmp_path: Path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", busy_timeout_ms=12_345)
    try:
        async with engine.connect() as connection:
            assert (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await connection.exec_driver_sql("PRAGMA busy_timeout")).scalar() == 12_345
            assert (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
    finally:
        await engine.dispose()


async def test_the_direct_sqlite_writer_commits_whole_rolls_back_whole_and_takes_turns_with_sessions(tmp_path: Path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'direct.db'}", busy_timeout_ms=4_321)
    sessionmaker = create_sessionmaker(engine, 4_321)
    writer = SQLiteDirectWriter.for_engine(engine, sessionmaker, 4_321)
    try:
        async with engine.begin() as connection:
            await connection.exec_driver_sql("CREATE TABLE log (seq INTEGER PRIMARY KEY, what TEXT NOT NULL)")

        def set_up(connection):
            return [connection.execute(f"PRAGMA {name}").fetchone()[0]
                    for name in ("journal_mode", "busy_timeout", "foreign_keys")]

        assert await writer.transaction(set_up) == ["wal", 4_321, 1]

        def append_then_fail(connection):
            connection.execute("INSERT INTO log VALUES (1, 'seen')")
            raise RuntimeError("the disk is full")

        with pytest.raises(RuntimeError):
            await writer.transaction(append_then_fail)

        async def session_write(seq: int) -> None:
            async with sessionmaker.begin() as session:
                await session.execute(text("INSERT INTO log VALUES (:seq, 'session')"), {"seq": seq})
                await asyncio.sleep(0.01)  # holds the write turn: the direct writer waits for it, not SQLite's lock

        def append(seq: int):
            return lambda connection: connection.execute("INSERT INTO log VALUES (?, 'direct')", (seq,)).rowcount

        results = await asyncio.gather(session_write(2), writer.transaction(append(3)), session_write(4),
                                       writer.transaction(append(5)))
        assert results[1] == results[3] == 1
        async with engine.connect() as connection:
            rows = (await connection.exec_driver_sql("SELECT seq, what FROM log ORDER BY seq")).all()
        # The failed transaction left nothing; every other one landed whole.
        assert [tuple(row) for row in rows] == [(2, "session"), (3, "direct"), (4, "session"), (5, "direct")]
    finally:
        await writer.close()
        await engine.dispose()


async def test_the_sqlite_writer_leaves_checkpoints_to_its_checkpointer_which_keeps_the_wal_small(tmp_path: Path):
    """The writer's commits never checkpoint the WAL (a checkpoint there held every queued append up for 1-8 ms);
    the checkpointer's thread copies the pages into the database file, so that SQLite starts the WAL over and the
    file stops growing."""
    path = tmp_path / "checkpoints.db"
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    writer = SQLiteDirectWriter(str(path), 30_000, create_sessionmaker(engine).class_.writers,
                                checkpoint_seconds=0.01)
    wal = Path(f"{path}-wal")
    try:
        async with engine.begin() as connection:
            await connection.exec_driver_sql("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
        assert await writer.transaction(lambda c: c.execute("PRAGMA wal_autocheckpoint").fetchone()[0]) == 0

        def write_pages(first: int):
            # 600 rows of 4 KiB: about 1,200 pages, beyond the 1,000 at which SQLite would checkpoint by itself
            return lambda c: c.executemany("INSERT INTO blobs VALUES (?, zeroblob(4096))",
                                           [(first + n,) for n in range(600)])

        sizes = []
        for round_ in range(4):
            await writer.transaction(write_pages(round_ * 600))
            # A pass begun after the commit copied every page of the WAL: the next commit starts it over.
            passes = writer.checkpointer.passes + 1
            await _until(lambda: writer.checkpointer.passes > passes and writer.checkpointer.last is not None
                         and 0 < writer.checkpointer.last[0] == writer.checkpointer.last[1])
            sizes.append(wal.stat().st_size)
        one_round = sizes[0]
        assert one_round > 600 * 4096  # the round's pages went through the WAL
        assert max(sizes) < 1.5 * one_round  # without the checkpointer's copies it would hold all four rounds
        async with engine.connect() as connection:
            assert (await connection.exec_driver_sql("SELECT count(*) FROM blobs")).scalar() == 2400
    finally:
        await writer.close()
        await engine.dispose()
    assert writer.checkpointer.last is not None  # it ran, and `close` stopped its thread
    assert not any(thread.name == "sqlite-checkpointer" for thread in threading.enumerate())


async def test_a_checkpointer_that_cannot_open_the_database_says_so_once_and_keeps_trying(
        tmp_path: Path, caplog: pytest.LogCaptureFixture):
    """Its connection is the only one that checkpoints (the writer's never does): one that gave up at start would
    let the WAL grow for the life of the process. It logs the failure once and opens the database once it can."""
    path = tmp_path / "not yet" / "late.db"  # sqlite cannot create a file in a missing folder
    checkpointer = WALCheckpointer(str(path), 1_000, period=0.01)
    caplog.set_level("WARNING", logger="app.core.db")
    checkpointer.start()
    try:
        await _until(lambda: any("cannot open" in r.getMessage() for r in caplog.records))
        await asyncio.sleep(0.1)  # about ten more failed tries
        assert checkpointer.passes == 0
        assert [r.levelname for r in caplog.records if "cannot open" in r.getMessage()] == ["ERROR"]
        path.parent.mkdir()
        await _until(lambda: checkpointer.passes > 0)
        assert any("opened its connection after" in r.getMessage() for r in caplog.records)
    finally:
        await checkpointer.stop()
    assert not any(thread.name == "sqlite-checkpointer" for thread in threading.enumerate())


async def test_a_checkpointer_stops_while_it_still_cannot_open_the_database(tmp_path: Path):
    checkpointer = WALCheckpointer(str(tmp_path / "never" / "made.db"), 1_000, period=0.01)
    checkpointer.start()
    await asyncio.sleep(0.05)
    await checkpointer.stop()
    assert checkpointer.passes == 0
    assert not any(thread.name == "sqlite-checkpointer" for thread in threading.enumerate())


async def _until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


async def test_an_orm_transaction_on_the_sqlite_writers_thread_commits_whole_rolls_back_whole_and_awaits_nothing_else(
        tmp_path: Path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'orm.db'}")
    sessionmaker = create_sessionmaker(engine)
    writer = SQLiteDirectWriter.for_engine(engine, sessionmaker)
    try:
        async with engine.begin() as connection:
            await connection.exec_driver_sql("CREATE TABLE log (seq INTEGER PRIMARY KEY, what TEXT NOT NULL)")

        async def write(session, seq: int, what: str) -> int:
            # The same async code as on PostgreSQL: a savepoint, a flush, reads of what it wrote.
            async with session.begin_nested():
                await session.execute(text("INSERT INTO log VALUES (:seq, :what)"), {"seq": seq, "what": what})
            await session.flush()
            return await session.scalar(text("SELECT count(*) FROM log"))

        assert await writer.orm_transaction(lambda session: write(session, 1, "orm")) == 1

        async def write_then_fail(session) -> None:
            await write(session, 2, "lost")
            raise RuntimeError("the disk is full")

        with pytest.raises(RuntimeError, match="disk is full"):
            await writer.orm_transaction(write_then_fail)

        async def write_then_wait(session) -> None:
            await write(session, 3, "lost too")
            await asyncio.sleep(0)  # no event loop on the writer's thread: refused, and rolled back

        with pytest.raises(RuntimeError, match="awaited something else"):
            await writer.orm_transaction(write_then_wait)

        def append(connection):
            return connection.execute("INSERT INTO log VALUES (4, 'direct')").rowcount

        # ORM transactions, the direct writer's and the sessions' take turns on the same file.
        async def session_write() -> None:
            async with sessionmaker.begin() as session:
                await session.execute(text("INSERT INTO log VALUES (5, 'session')"))

        await asyncio.gather(writer.orm_transaction(lambda session: write(session, 6, "orm")),
                             writer.transaction(append), session_write())
        async with engine.connect() as connection:
            rows = (await connection.exec_driver_sql("SELECT seq, what FROM log ORDER BY seq")).all()
        assert [tuple(row) for row in rows] == [(1, "orm"), (4, "direct"), (5, "session"), (6, "orm")]
    finally:
        await writer.close()
        await engine.dispose()


_metadata = MetaData()
_things = Table("things", _metadata, Column("id", Integer, primary_key=True), Column("kind", String(16), unique=True),
                Column("data", JSON), Column("at", UTCDateTime()), Column("ok", Boolean), Column("score", Float),
                Column("count", Integer))
# Prebuilt like the services' statements (module constants with bound parameters).
_INSERT_THING = insert(_things)
_INSERT_RETURNING_ID = insert(_things).returning(_things.c.id)
_ADD_COUNT = (update(_things).where(_things.c.kind == bindparam("the_kind"))
              .values(count=_things.c.count + bindparam("step")).returning(_things.c.count))
_TOUCH = update(_things).where(_things.c.kind.startswith(bindparam("prefix"))).values(ok=False)
_KINDS_IN = (select(_things.c.kind, _things.c.count).where(_things.c.kind.in_(bindparam("kinds", expanding=True)),
                                                           _things.c.at <= bindparam("now")).order_by(_things.c.kind))
_DATA_OF = select(_things.c.data, _things.c.at, _things.c.ok).where(_things.c.kind == bindparam("the_kind"))


async def test_prebuilt_statements_on_the_sqlite_writers_thread_write_and_answer_what_the_session_would(
        tmp_path: Path):
    """From the second run of the same statement object the writer's thread runs it on the connection itself, not
    through the Session: values (JSON, dates, booleans, floats), results, row counts, IN lists, savepoints and
    errors are those of the Session's path, which the first run takes."""
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'direct.db'}")
    sessionmaker = create_sessionmaker(engine)
    writer = SQLiteDirectWriter.for_engine(engine, sessionmaker)
    at = datetime(2026, 12, 3, 15, 0, 0, 123456, tzinfo=UTC)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_metadata.create_all)

        async def work(session, run: int) -> list:
            kinds = [f"r{run}-{n}" for n in range(3)]
            answers: list = []
            await session.execute(_INSERT_THING, [{"kind": kind, "data": {"run": run, "n": [n, 1.5]}, "at": at,
                                                   "ok": True, "score": n / 4, "count": n}
                                                  for n, kind in enumerate(kinds)])
            new_id = (await session.execute(_INSERT_RETURNING_ID, {"kind": f"r{run}-x", "data": [], "at": at,
                                                                   "ok": False, "score": 0.0, "count": 7})).scalar_one()
            answers.append(isinstance(new_id, int))
            answers.append((await session.execute(_ADD_COUNT, {"the_kind": kinds[2], "step": 5})).scalar_one_or_none())
            answers.append((await session.execute(_ADD_COUNT, {"the_kind": "missing", "step": 5})).scalar_one_or_none())
            answers.append((await session.execute(_TOUCH, {"prefix": f"r{run}-"})).rowcount)
            rows = await session.execute(_KINDS_IN, {"kinds": [kinds[0], kinds[2], "missing"], "now": at})
            answers.append([tuple(row) for row in rows.all()])
            answers.append(await session.scalar(_DATA_OF, {"the_kind": kinds[1]}))
            answers.append(tuple((await session.execute(_DATA_OF, {"the_kind": kinds[1]})).one()))
            try:
                async with session.begin_nested():
                    await session.execute(_INSERT_THING, {"kind": f"r{run}-gone", "data": None, "at": at, "ok": True,
                                                          "score": 1.0, "count": 0})
                    await session.execute(_INSERT_THING, {"kind": kinds[0], "data": None, "at": at, "ok": True,
                                                          "score": 1.0, "count": 0})
            except IntegrityError:  # SQLAlchemy's, as the ledger catches it; only the savepoint is rolled back
                answers.append("duplicate refused")
            return [answer.replace(f"r{run}-", "r-") if isinstance(answer, str) else answer for answer in
                    [[(kind.replace(f"r{run}-", "r-"), count) for kind, count in a] if isinstance(a, list) and a
                     and isinstance(a[0], tuple) else a for a in answers]]

        first = await writer.orm_transaction(lambda session: work(session, 0))
        seen_by_the_session: list[str] = []
        assert writer._orm_engine is not None
        event.listen(writer._orm_engine, "before_cursor_execute",
                     lambda _conn, _cursor, statement, *_: seen_by_the_session.append(statement))
        later = [await writer.orm_transaction(lambda session, run=run: work(session, run)) for run in (1, 2)]
        assert first == [True, 7, None, 4, [("r-0", 0), ("r-2", 7)], {"run": 0, "n": [1, 1.5]},
                         ({"run": 0, "n": [1, 1.5]}, at, False), "duplicate refused"]
        assert later[0][:5] == later[1][:5] == first[:5] and later[0][-1] == later[1][-1] == first[-1]
        assert later[1][5]["n"] == first[5]["n"] and later[1][6][1:] == first[6][1:]
        # The last run's prebuilt writes did not go through the Session (the JSON and date reads still do).
        assert not any(statement.startswith(("INSERT", "UPDATE")) for statement in seen_by_the_session)

        async def write_read_then_fail(session) -> None:
            await session.execute(_INSERT_THING, {"kind": "lost", "data": None, "at": at, "ok": True, "score": 1.0,
                                                  "count": 0})
            # A statement only the Session runs (text): the Session joins the transaction and sees the row.
            assert await session.scalar(text("SELECT count(*) FROM things WHERE kind = 'lost'")) == 1
            raise RuntimeError("the disk is full")

        with pytest.raises(RuntimeError, match="disk is full"):
            await writer.orm_transaction(write_read_then_fail)

        async def orm_write_in_a_connection_savepoint(session) -> None:
            await session.execute(_INSERT_THING, {"kind": "lost too", "data": None, "at": at, "ok": True,
                                                  "score": 1.0, "count": 0})
            async with session.begin_nested():
                session.add(object())  # refused before it reaches a Session: its rollback would not be known there

        with pytest.raises(RuntimeError, match="ORM write inside a savepoint"):
            await writer.orm_transaction(orm_write_in_a_connection_savepoint)

        async with engine.connect() as connection:
            rows = (await connection.execute(select(_things).order_by(_things.c.kind))).all()
        assert not [row for row in rows if row.kind.startswith("lost")]  # both transactions rolled back whole
        by_run = {run: [tuple(row)[1:] for row in rows if row.kind.startswith(f"r{run}-")] for run in (0, 1, 2)}
        assert [len(rows) for rows in by_run.values()] == [4, 4, 4]  # the savepoint's rows are gone in every run
        for run in (1, 2):
            assert [(kind.replace(f"r{run}-", "r0-"), {**data, "run": 0} if isinstance(data, dict) else data, *rest)
                    for kind, data, *rest in by_run[run]] == by_run[0]
    finally:
        await writer.close()
        await engine.dispose()


async def test_the_writers_queue_serves_appends_first_then_others_in_order_and_times_out_cleanly():
    writers = _WriterQueue(timeout_seconds=0.05)
    await writers.line_up()  # held
    served: list[str] = []

    async def writer(name: str, urgent: bool = False) -> None:
        await writers.line_up(urgent=urgent)
        served.append(name)
        await asyncio.sleep(0)
        writers.release()

    waiting = [asyncio.create_task(writer("settle")), asyncio.create_task(writer("room")),
               asyncio.create_task(writer("append", urgent=True))]
    await asyncio.sleep(0.01)
    writers.release()
    await asyncio.gather(*waiting)
    assert served == ["append", "settle", "room"]

    # A writer that waits past the timeout is refused like a busy SQLite and leaves no trace in the line.
    await writers.line_up()
    with pytest.raises(OperationalError, match="writers' queue"):
        await writers.line_up()
    cancelled = asyncio.create_task(writers.line_up())
    await asyncio.sleep(0)
    cancelled.cancel()
    writers.release()
    await asyncio.wait_for(writers.line_up(), 1)  # the turn was free again, not lost to the gone waiters
    writers.release()


async def test_group_commits_take_what_arrived_meanwhile_in_one_batch_fail_only_a_bad_item_and_let_others_write(
        tmp_path: Path):
    engine, sessionmaker, writer = await _log_database(tmp_path / "groups.db")
    batches: list[list[str]] = []
    first_commit_started = threading.Event()
    slow_commits = {"first": 0.2, "steady": 0.0}

    def commit(connection, items: list[tuple[str, asyncio.Future]]) -> list[str]:
        names = [name for name, _ in items]
        if names == ["first"]:
            first_commit_started.set()
            time.sleep(slow_commits["first"])  # what arrives now waits for the next batch
        time.sleep(slow_commits["steady"])
        if "bad" in names:
            raise ValueError("a row the database refuses")
        connection.executemany("INSERT INTO log (what) VALUES (?)", [(name,) for name in names])
        batches.append(names)
        return names

    def settle(items, result, error) -> None:
        for name, done in items:
            if error is not None:
                done.set_exception(error)
            else:
                assert name in result
                done.set_result(name)

    add = _adder(writer.group_commits(commit, settle, size=lambda item: 1, max_size=100))
    loop = asyncio.get_running_loop()

    try:
        first = add("first")
        await loop.run_in_executor(None, first_commit_started.wait)
        meanwhile = [add(name) for name in ("a", "b", "c")]
        assert await asyncio.gather(first, *meanwhile) == ["first", "a", "b", "c"]
        # Everything that arrived during the first commit went into the next one, together.
        assert batches == [["first"], ["a", "b", "c"]]

        # A batch one item of which fails: the others are committed, the bad one alone fails.
        slow_commits["first"] = 0.0
        mixed = [add(name) for name in ("d", "bad", "e")]
        results = await asyncio.gather(*mixed, return_exceptions=True)
        assert results[0] == "d" and results[2] == "e" and isinstance(results[1], ValueError)

        # Appends that never stop coming do not keep a waiting writer out: its row lands between theirs.
        slow_commits["steady"] = 0.005  # several appends arrive during each commit: there is always one pending
        session_done = asyncio.Event()

        async def session_write() -> None:
            async with sessionmaker.begin() as session:
                await session.execute(text("INSERT INTO log (what) VALUES ('session')"))
            session_done.set()

        async def keep_appending() -> list[asyncio.Future]:
            added: list[asyncio.Future] = []
            after_session = 20  # appends still made once the session's write is done
            while len(added) < 2_000 and after_session:
                added.append(add(f"steady{len(added)}"))
                await asyncio.sleep(0.001)
                after_session -= session_done.is_set()
            return added

        appending = asyncio.create_task(keep_appending())
        await asyncio.sleep(0.02)
        await asyncio.wait_for(session_write(), 10)
        await asyncio.gather(*(await appending))
        order = await _logged(engine)
        assert "session" in order
        assert any(name.startswith("steady") for name in order[order.index("session") + 1:])
    finally:
        await writer.close()
        await engine.dispose()


async def test_appends_that_queue_while_the_turn_passes_to_an_orm_transaction_are_committed_before_it(
        tmp_path: Path):
    """The turn passes through the event loop to an ORM transaction on the writer's thread; an append queued in
    that window is committed as the thread starts the transaction, not after it (it waited for the whole
    transaction before), and one queued while the transaction runs right after it."""
    engine, _, writer = await _log_database(tmp_path / "between.db")
    loop = asyncio.get_running_loop()

    def commit(connection, items: list[tuple[str, asyncio.Future]]) -> None:
        connection.executemany("INSERT INTO log (what) VALUES (?)", [(name,) for name, _ in items])

    def settle(items, result, error) -> None:
        for name, done in items:
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(name)

    add = _adder(writer.group_commits(commit, settle, size=lambda item: 1, max_size=100))

    inside: list[asyncio.Future] = []

    async def orm_work(session) -> None:
        await session.execute(text("INSERT INTO log (what) VALUES ('orm')"))
        # Queued from the writer's thread while the transaction runs, as the event loop would meanwhile.
        loop.call_soon_threadsafe(lambda: inside.append(add("during")))
        time.sleep(0.05)
        await session.execute(text("INSERT INTO log (what) VALUES ('orm, again')"))

    try:
        await writer.writers.line_up()  # another writer holds the turn
        transaction = asyncio.create_task(writer.orm_transaction(orm_work))
        await asyncio.sleep(0.01)  # the transaction waits in line
        writer.writers.release()  # the turn passes to it; its task has not run yet
        before = add("before")
        await asyncio.wait_for(transaction, 10)
        await asyncio.wait_for(asyncio.gather(before, *inside), 10)
        order = await _logged(engine)
        assert order == ["before", "orm", "orm, again", "during"]
    finally:
        await writer.close()
        await engine.dispose()


async def _log_database(path: Path) -> tuple[AsyncEngine, Any, SQLiteDirectWriter]:
    """An SQLite file with a `log` table, its sessions and its direct writer (the group-commit tests)."""
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    sessionmaker = create_sessionmaker(engine)
    writer = SQLiteDirectWriter.for_engine(engine, sessionmaker)
    async with engine.begin() as connection:
        await connection.exec_driver_sql("CREATE TABLE log (n INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT NOT NULL)")
    return engine, sessionmaker, writer


def _adder(groups: SQLiteGroupCommits) -> Callable[[str], asyncio.Future]:
    """`add(name)`: queue `name` for the group commits; the future is settled with it once committed."""
    def add(name: str) -> asyncio.Future:
        done = asyncio.get_running_loop().create_future()
        groups.add((name, done))
        return done
    return add


async def _logged(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as connection:
        return [row[0] for row in (await connection.exec_driver_sql("SELECT what FROM log ORDER BY n"))]


async def _concurrent_increments(engine: AsyncEngine, workers: int) -> int:
    """`workers` transactions that each read a counter, yield, then write read + 1: a classic lost update."""
    async with engine.begin() as connection:
        await connection.exec_driver_sql("CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
        await connection.exec_driver_sql("INSERT INTO counter VALUES (1, 0)")

    async def increment() -> None:
        async with engine.begin() as connection:
            value = (await connection.execute(text("SELECT value FROM counter WHERE id = 1"))).scalar_one()
            await asyncio.sleep(0.001)
            await connection.execute(text("UPDATE counter SET value = :v WHERE id = 1"), {"v": value + 1})

    await asyncio.gather(*(increment() for _ in range(workers)))
    async with engine.connect() as connection:
        return (await connection.execute(text("SELECT value FROM counter"))).scalar_one()


async def test_sqlite_read_modify_write_transactions_do_not_lose_updates(tmp_path: Path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'ours.db'}", pool_size=20, max_overflow=0)
    try:
        assert await _concurrent_increments(engine, 20) == 20
    finally:
        await engine.dispose()


async def test_without_our_set_up_the_same_sqlite_workload_loses_updates(tmp_path: Path):
    # The control for the test above: the stock driver set-up reads outside any transaction and loses updates.
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'stock.db'}", pool_size=20, max_overflow=0)
    try:
        assert await _concurrent_increments(engine, 20) < 20
    finally:
        await engine.dispose()


async def test_the_redis_factory_runs_lua_scripts(settings: Settings):
    client = create_redis(settings.redis_url)
    try:
        await client.flushdb()
        script = client.register_script(
            "local n = redis.call('INCRBY', KEYS[1], ARGV[1]); redis.call('EXPIRE', KEYS[1], 60); return n")
        assert await script(keys=["lua:test"], args=[5]) == 5
        assert await script(keys=["lua:test"], args=[2]) == 7
        assert 0 < await client.ttl("lua:test") <= 60
        assert await client.get("lua:test") == "7"  # str, not bytes: decode_responses everywhere
    finally:
        await client.flushdb()
        await close_redis(client)


async def test_two_apps_with_different_settings_live_side_by_side(tmp_path: Path, sqlite_template: Path):
    from tests.support.backends import copy_sqlite

    copy_sqlite(sqlite_template, tmp_path / "one")
    copy_sqlite(sqlite_template, tmp_path / "two")
    one_settings = make_settings(tmp_path / "one", start_balance=1000)
    two_settings = make_settings(tmp_path / "two", start_balance=250)
    async with open_harness(one_settings) as one, open_harness(two_settings) as two:
        ada_one = await one.user("ada")
        ada_two = await two.user("ada")  # the same name: a different database
        assert (await ada_one.get("/api/wallet")).json() == {"balance": 1000}
        assert (await ada_two.get("/api/wallet")).json() == {"balance": 250}
        await one.runtime.redis.set("where", "one")
        assert await two.runtime.redis.get("where") is None


@pytest.mark.skipif(not backends.SERVICES, reason="needs TEST_POSTGRES_URL and TEST_REDIS_URL")
def test_test_runs_side_by_side_each_claim_a_redis_database_of_their_own(redis_database: str):
    # This run holds `redis_database`; two more runs starting now get two other numbers, and a number is free
    # again once its run releases it.
    second_url, second_token = backends.claim_redis_database(backends.REDIS_URL)
    try:
        third_url, third_token = backends.claim_redis_database(backends.REDIS_URL)
        numbers = {urlsplit(url).path for url in (redis_database, second_url, third_url)}
        assert len(numbers) == 3
        backends.release_redis_database(third_url, third_token)
        again_url, again_token = backends.claim_redis_database(backends.REDIS_URL)
        assert again_url == third_url
        backends.release_redis_database(again_url, again_token)
    finally:
        backends.release_redis_database(second_url, second_token)
    # Another run's token does not release this run's claim.
    backends.release_redis_database(redis_database, "someone-else")
    retry_url, retry_token = backends.claim_redis_database(backends.REDIS_URL)
    try:
        assert retry_url != redis_database
    finally:
        backends.release_redis_database(retry_url, retry_token)
