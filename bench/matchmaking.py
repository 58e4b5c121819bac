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
- `ratings`: matchmaking by rating against matchmaking without it, on the same arrivals in simulated time (the
  Lua steps alone, ticking every 500 ms: `merge`, then the fill time): players with ratings drawn around 1000
  (sd 250) arrive at a steady rate; for each rate it prints the median rating spread at a formed table (people
  only), the median / 95th percentile / longest wait, and how many online tables simulated players completed (or
  staked tables were cancelled). `--ratings-only` runs just this one (no database needed).
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
from app.online.queues import Matchmaker, Queue, RatingWindow  # noqa: E402
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


class RatingRun:
    """One simulated stretch of a queue: who arrived when, where they sat, how long they waited."""

    def __init__(self) -> None:
        self.spreads: list[int] = []
        self.waits: list[int] = []
        self.tables = 0
        self.completed = 0  # online tables simulated players completed
        self.cancelled = 0  # staked tables cancelled at the fill time (their players' waits end there too)


async def simulate_ratings(redis: Any, queue: Queue, rate_per_minute: float, *, rated: bool, fill_ms: int,
                           window: RatingWindow, seed: int, minutes: float, first_user: int) -> RatingRun:
    import random

    matchmaker = Matchmaker(redis)
    rng = random.Random(seed)
    staked = queue.mode == "staked"
    arrivals: list[tuple[int, int, int]] = []
    at = rng.expovariate(rate_per_minute / 60_000)
    while at < minutes * 60_000:  # nobody arrives later: the last fill times run out before the run ends
        arrivals.append((int(at), first_user + len(arrivals), round(rng.gauss(1000, 250))))
        at += rng.expovariate(rate_per_minute / 60_000)
    ratings = {user: rating for _, user, rating in arrivals}
    arrived: dict[int, int] = {}
    run = RatingRun()
    start = int(time.time() * 1000)

    def formed(step: Any, now: int) -> None:
        people = [ratings[user] for user in step.user_ids]
        run.tables += 1
        run.completed += len(people) < queue.seats
        run.spreads.append(max(people) - min(people))
        run.waits.extend(now - arrived[user] for user in step.user_ids)

    index, now = 0, 0
    while now <= minutes * 60_000 + 2 * fill_ms:
        while index < len(arrivals) and arrivals[index][0] <= now:
            _, user, rating = arrivals[index]
            arrived[user] = now
            step = await matchmaker.join(queue, user, connection="bench", candidate=f"bench-{seed}-{user}",
                                         now_ms=start + now, fill_ms=fill_ms, staking=staked,
                                         rating=rating if rated else None, window=window if rated else None)
            if staked:
                step = await matchmaker.confirm(step.table or "", user, step.ticket or 0)
            if step.status == "formed":
                formed(step, now)
            index += 1
        for step in await matchmaker.merge(start + now):
            if step.status == "moved" and staked:
                for user, _, ticket in step.moves:  # the stake moves from pot to pot, then the seat is confirmed
                    confirmed = await matchmaker.confirm(step.table or "", user, ticket)
                    if confirmed.status == "formed":
                        formed(confirmed, now)
            elif step.status == "formed":
                formed(step, now)
        for step in await matchmaker.due(start + now):
            if step.status == "formed":
                formed(step, now)
            elif step.status == "cancelled":
                run.cancelled += 1
                run.waits.extend(now - arrived[user] for user in step.user_ids)
        now += 500
    for user in list(arrived):  # let the bench's players go
        where = await matchmaker.where(user)
        if where[1]:
            await matchmaker.unseat(where[1], [user])
    return run


async def bench_ratings(redis: Any, settings: Settings, run_name: str, minutes: float) -> list[str]:
    import statistics

    lines = []
    cases = [(Queue(f"bench-{run_name}-pika", 3, "online"), settings.online_fill_seconds),
             (Queue(f"bench-{run_name}-stakes", 2, "staked", 100), settings.staked_fill_seconds)]
    user = 2 * 10**9
    for queue, fill in cases:
        fill_ms = int(fill * 1000)
        window = RatingWindow(settings.matchmaking_rating_window, settings.matchmaking_rating_widen_per_second,
                              int(fill_ms * settings.matchmaking_rating_open_fraction))
        for rate in (2.0, 6.0, 30.0, 120.0):
            row = [f"  {queue.mode:6s} {queue.seats} seats, {rate:5.0f} players/min:"]
            for rated in (False, True):
                result = await simulate_ratings(redis, queue, rate, rated=rated, fill_ms=fill_ms, window=window,
                                                seed=int(rate * 10), minutes=minutes, first_user=user)
                user += 100_000
                waits = sorted(result.waits)
                spread = statistics.median(result.spreads) if result.spreads else float("nan")
                p95 = waits[int(0.95 * (len(waits) - 1))] / 1000 if waits else float("nan")
                ended = (f"formed, {result.completed} of them completed by simulated players"
                         if queue.mode == "online" else f"formed, {result.cancelled} cancelled at the fill time")
                row.append(f"{'rated' if rated else 'plain'}: spread {spread:4.0f}, wait median "
                           f"{statistics.median(waits) / 1000:4.1f} s, p95 {p95:4.1f} s, "
                           f"max {waits[-1] / 1000:4.1f} s, "
                           f"{result.tables} tables {ended}")
            lines.append(row[0] + "\n      " + "\n      ".join(row[1:]))
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000, help="players queueing in each measurement")
    parser.add_argument("--concurrency", type=int, default=32, help="queue requests in flight at once (<= 90)")
    parser.add_argument("--ratings-only", action="store_true", help="only the matchmaking-by-rating simulation")
    parser.add_argument("--minutes", type=float, default=10.0, help="simulated minutes of arrivals per queue and rate")
    args = parser.parse_args()
    if args.ratings_only:
        settings = Settings()
        async with open_runtime(settings) as runtime:
            print(f"matchmaking by rating: {args.minutes:g} simulated minutes per queue and arrival rate; spread = "
                  "median of (highest - lowest rating) of the people at a formed table; waits in simulated time")
            for line in await bench_ratings(runtime.redis, settings, secrets.token_hex(3), args.minutes):
                print(line)
        return
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
        async with open_runtime(settings) as runtime:
            print("matchmaking by rating (simulated time; `--ratings-only` for just this):")
            for line in await bench_ratings(runtime.redis, settings, run, args.minutes):
                print(line)


if __name__ == "__main__":
    asyncio.run(main())
