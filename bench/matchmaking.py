"""Players matched per second through the matchmaker, against the configured Redis (and database).

    .venv/bin/python bench/matchmaking.py                                   # memory:// and a scratch SQLite file
    REDIS_URL=redis://127.0.0.1:6379/8 DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/bench \\
        .venv/bin/python bench/matchmaking.py --players 4000 --concurrency 64

Three measurements, each printed as players matched per second (a player is matched when the table they sat at
forms):
- `queues`: the Redis steps alone (the Lua `join` script; tables of 2 to 5 seats across 8 queues);
- `online`: MatchmakingService.queue for online tables: the Lua step, the players' names read from the database when
  a table forms, the matched notices (no sockets: nobody listens) and a table factory that records instead of
  starting a game;
- `staked`: the same for staked tables, so every seat is also a ledger transfer into the pot and a `confirm` step.
With DATABASE_URL unset it uses a temporary SQLite file; against a configured database it migrates it and leaves
its bench users (`mm<run>_<n>`) behind: point it at a scratch database. The Redis database is not flushed; the keys
the bench makes are removed as tables form (a few unformed ones stay until their fill time passes). Prints numbers;
asserts only that nobody was seated twice and that the ledger still balances.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from argon2 import PasswordHasher, Type  # noqa: E402

from app.config import Settings  # noqa: E402
from app.core import migrations  # noqa: E402
from app.core.db import create_engine  # noqa: E402
from app.online.matchmaking import MatchmakingService  # noqa: E402
from app.online.queues import Matchmaker, Queue  # noqa: E402
from app.online.stakes import StakeLedger  # noqa: E402
from app.runtime import open_runtime  # noqa: E402

QUEUES = [Queue("pika", 2, "online"), Queue("pika", 4, "online"), Queue("stakes", 3, "online"),
          Queue("stakes", 5, "online"), Queue("kapern", 2, "online"), Queue("kapern", 4, "online"),
          Queue("piker", 3, "online"), Queue("piker", 4, "online")]


class NoHub:
    def send_to_user(self, user_id: int, message: dict[str, Any]) -> int:
        return 0


class NoTables:
    tables: dict[str, Any] = {}

    def tables_of(self, user_id: int) -> list[Any]:
        return []


class Recorder:
    def __init__(self) -> None:
        self.seated: Counter[int] = Counter()
        self.tables = 0

    async def __call__(self, *, seats: list[Any], table_id: str, **_: Any) -> Any:
        self.tables += 1
        for seat in seats:
            if seat.user_id is not None:
                self.seated[seat.user_id] += 1
        return type("Table", (), {"id": table_id, "finished": None})()


async def run_all(total: int, concurrency: int, work) -> float:
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(total):
        queue.put_nowait(n)

    async def worker() -> None:
        while not queue.empty():
            await work(queue.get_nowait())

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - started


async def bench_queues(redis: Any, players: int, concurrency: int, run: str) -> tuple[int, float]:
    matchmaker = Matchmaker(redis)
    now = int(time.time() * 1000)
    matched: dict[int, str] = {}
    seated_twice: list[int] = []
    # Queues of their own (a game name no app knows), so the bench never meets real players.
    queues = [Queue(f"bench-{run}-{q.game}", q.seats, "online") for q in QUEUES]

    async def join(n: int) -> None:
        user = 10**9 + n  # ids no real player has
        step = await matchmaker.join(queues[n % len(queues)], user, connection=run, candidate=f"{run}-{n}",
                                     now_ms=now, fill_ms=3_600_000, staking=False)
        if step.status == "formed":
            for member in step.user_ids:
                if member in matched:
                    seated_twice.append(member)
                matched[member] = step.table or ""

    seconds = await run_all(players, concurrency, join)
    assert not seated_twice, "somebody was seated twice"
    for n in range(players):  # let the bench's players go: out of the queue, or up from their table
        user = 10**9 + n
        if user in matched:
            await matchmaker.unseat(matched[user], [user])
        else:
            await matchmaker.leave(user)
    return len(matched), seconds


async def bench_service(runtime: Any, players: int, concurrency: int, run: str, mode: str) -> tuple[int, float]:
    password_hash = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, type=Type.ID).hash("bench")
    user_ids = []
    async with runtime.transaction() as session:
        for n in range(players):
            user = await runtime.accounts.create_user(session, f"mm{run}_{mode[0]}{n}", password_hash)
            user_ids.append(user.id)
    recorder = Recorder()
    service = MatchmakingService(runtime, NoTables(), NoHub(), StakeLedger(runtime.ledger), create_table=recorder)
    queues = [Queue(q.game, q.seats, mode, 100 if mode == "staked" else 0) for q in QUEUES]

    async def queue(n: int) -> None:
        await service.queue(user_ids[n], queues[n % len(queues)], connection=run)

    seconds = await run_all(players, concurrency, queue)
    assert all(count == 1 for count in recorder.seated.values()), "somebody was seated twice"
    for user_id in user_ids:
        await service.unqueue(user_id)  # the few left waiting (a staked seat's stake comes back)
    for user_id in recorder.seated:
        await service.matchmaker.unseat((await service.matchmaker.where(user_id))[1] or "", [user_id])
    return sum(recorder.seated.values()), seconds


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000, help="players queueing in each measurement")
    parser.add_argument("--concurrency", type=int, default=32, help="queue requests in flight at once (<= 90)")
    args = parser.parse_args()
    concurrency = min(args.concurrency, 90)  # redis-py's async pool refuses past 100 connections
    with tempfile.TemporaryDirectory() as scratch:
        overrides: dict[str, object] = {"data_dir": Path(scratch)}
        if not os.environ.get("DATABASE_URL"):
            overrides["database_url"] = ""
        settings = Settings(**overrides)  # type: ignore[arg-type]
        engine = create_engine(settings.database_url, pool_size=1, max_overflow=0)
        await migrations.upgrade(engine)
        await engine.dispose()
        run = secrets.token_hex(3)
        database = settings.database_url.split("://")[0]
        print(f"matchmaking bench: redis {settings.redis_url.split('@')[-1]}, database {database}, "
              f"{args.players} players per measurement, {concurrency} requests in flight")
        async with open_runtime(settings) as runtime:
            measurements = [("queues", await bench_queues(runtime.redis, args.players, concurrency, run))]
            for mode in ("online", "staked"):
                measurements.append((mode, await bench_service(runtime, args.players, concurrency, run, mode)))
            async with runtime.sessionmaker() as session:
                totals = await runtime.ledger.totals(session)
            assert totals.consistent, totals
        for name, (matched, seconds) in measurements:
            print(f"  {name:7s} {matched:6d} players matched in {seconds:6.2f} s: {matched / seconds:9.0f} players/s")


if __name__ == "__main__":
    asyncio.run(main())
