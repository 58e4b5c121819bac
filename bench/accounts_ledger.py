"""Logins per second and ledger transfers per second against the configured database and Redis.

    .venv/bin/python bench/accounts_ledger.py                       # embedded: a scratch SQLite file + memory://
    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/8 \\
        .venv/bin/python bench/accounts_ledger.py --logins 400 --transfers 4000 --concurrency 32

With DATABASE_URL unset it uses a temporary SQLite file (not ./data). Against a configured database it migrates it
and leaves its bench users (`bench<run>_<n>`) and pots (`pot:bench<run>:<n>`) behind: point it at a scratch
database. Logins go through the whole HTTP stack in-process (httpx on the ASGI app: rate limit, argon2id verify in a
worker thread, session row, cookie); transfers call the ledger service directly, each in its own transaction, and
then the same transfers are made again with no service layer (the same tables, transaction rule and statements a
correct transfer needs: the key's row, the conditional debit, the credit, both entries), and the rates compared.
Prints numbers; asserts only that the ledger still balances.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402
from argon2 import PasswordHasher, Type  # noqa: E402

from app.config import Settings  # noqa: E402
from app.core import migrations  # noqa: E402
from app.core.db import create_engine  # noqa: E402
from app.main import create_app  # noqa: E402
from app.ledger.repository import accounts, entries, transactions  # noqa: E402
from app.runtime import Runtime  # noqa: E402
from sqlalchemy import insert, update  # noqa: E402

PASSWORD = "bench password"


def settings_for_bench(scratch: Path) -> Settings:
    # data_dir is always the scratch folder: the bench writes nothing into ./data (an unset SECRET_KEY lands there).
    overrides: dict[str, object] = {"login_failures_per_username_and_address": 10**9,
                                    "login_failures_per_address": 10**9, "login_failures_per_username": 10**9,
                                    "signup_rate_per_address": 10**9, "signup_rate_overall": 10**9,
                                    "data_dir": scratch}
    if not os.environ.get("DATABASE_URL"):
        overrides["database_url"] = ""
    return Settings(**overrides)  # type: ignore[arg-type]


async def timed(total: int, concurrency: int, work) -> tuple[float, list[float]]:
    """Run work(n) for n in range(total) with at most `concurrency` at once; (seconds, per-call latencies)."""
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(total):
        queue.put_nowait(n)
    latencies: list[float] = []

    async def worker() -> None:
        while not queue.empty():
            n = queue.get_nowait()
            started = time.perf_counter()
            await work(n)
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - started, latencies


def report(name: str, total: int, seconds: float, latencies: list[float]) -> None:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p95 = ordered[int(len(ordered) * 0.95) - 1] * 1000
    print(f"{name:<20} {total / seconds:8.1f}/s   ({total} in {seconds:.2f} s; latency p50 {p50:.1f} ms, "
          f"p95 {p95:.1f} ms)")


async def bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tablestakes-bench-") as scratch:
        settings = settings_for_bench(Path(scratch))
        engine = create_engine(settings.database_url, pool_size=1, max_overflow=0)
        try:
            await migrations.upgrade(engine)
        finally:
            await engine.dispose()
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            runtime: Runtime = app.state.runtime
            run = secrets.token_hex(4)
            backend = settings.database_url.split(":", 1)[0]
            print(f"database {backend}, redis {settings.redis_url.split(':', 1)[0]}, "
                  f"concurrency {args.concurrency}, cpus {os.cpu_count()}")

            # Users made directly, with one hash computed here (argon2id at the app's parameters).
            hasher = PasswordHasher(time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib,
                                    parallelism=settings.argon2_parallelism, type=Type.ID)
            password_hash = hasher.hash(PASSWORD)
            names = [f"bench{run}_{n}" for n in range(args.users)]
            async with runtime.transaction() as session:
                for name in names:
                    await runtime.accounts.create_user(session, name, password_hash)

            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                async def login(n: int) -> None:
                    response = await client.post("/api/auth/login",
                                                 json={"username": names[n % len(names)], "password": PASSWORD})
                    assert response.status_code == 200, response.text

                seconds, latencies = await timed(args.logins, args.concurrency, login)
                report("logins (HTTP)", args.logins, seconds, latencies)

            async with runtime.transaction() as session:
                pots = [await runtime.ledger.pot_id(session, f"bench{run}:{n}") for n in range(args.accounts)]
                for pot in pots:
                    await runtime.ledger.credit(session, pot, 10**9, key=f"bench{run}:fund:{pot}", reason="bench")
            rng = random.Random(1)
            pairs = [rng.sample(pots, 2) for _ in range(args.transfers)]

            async def transfer(n: int) -> None:
                source, target = pairs[n]
                async with runtime.transaction() as session:
                    await runtime.ledger.transfer(session, source, target, rng.randint(1, 100),
                                                  key=f"bench{run}:t:{n}", reason="bench")

            ours_seconds, latencies = await timed(args.transfers, args.concurrency, transfer)
            report("ledger transfers", args.transfers, ours_seconds, latencies)

            # The same transfer with no service layer: the same tables, the same transaction (BEGIN IMMEDIATE on
            # SQLite), the key's row, the conditional debit, the credit (ascending ids) and both entries.
            async def bare_transfer(n: int) -> None:
                source, target = pairs[n]
                amount = rng.randint(1, 100)
                now = runtime.clock.now()
                async with runtime.transaction() as session:
                    transaction_id = (await session.execute(
                        insert(transactions).values(key=f"bench{run}:bare:{n}", reason="bench", created_at=now)
                        .returning(transactions.c.id))).scalar_one()
                    after = {}
                    for account_id, delta in sorted(((source, -amount), (target, amount))):
                        statement = update(accounts).where(accounts.c.id == account_id)
                        if delta < 0:
                            statement = statement.where(accounts.c.balance >= -delta)
                        after[account_id] = (await session.execute(
                            statement.values(balance=accounts.c.balance + delta).returning(accounts.c.balance)
                        )).scalar_one()
                    await session.execute(insert(entries), [
                        {"transaction_id": transaction_id, "account_id": source, "delta": -amount,
                         "balance_after": after[source], "created_at": now},
                        {"transaction_id": transaction_id, "account_id": target, "delta": amount,
                         "balance_after": after[target], "created_at": now}])

            bare_seconds, latencies = await timed(args.transfers, args.concurrency, bare_transfer)
            report("bare transfers", args.transfers, bare_seconds, latencies)
            print(f"ledger / bare:       {bare_seconds / ours_seconds:8.2f}x the bare transfer's rate")

            async with runtime.transaction() as session:
                totals = await runtime.ledger.totals(session)
            assert totals.consistent, totals
            print(f"ledger consistent: sum(balances) == sum(entries) == {totals.balances}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--logins", type=int, default=200)
    parser.add_argument("--accounts", type=int, default=10)
    parser.add_argument("--transfers", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
