"""Idle capacity: N authenticated sockets held open and doing nothing, on one Tablestakes process, side by side with
the bare relay (bench/bare_relay.py) holding as many unauthenticated ones.

    .venv/bin/python bench/idle.py                      # 19,800 sockets (this machine's open-file limit is 20,000)
    .venv/bin/python bench/idle.py --sockets 5000 --seconds 30

For Tablestakes the players are seeded straight into a scratch SQLite database (one account and login session per
socket, as many users as sockets; rows in bulk, no wallets: an idle socket never reads one), then every socket connects with its session cookie and waits for `hello`. Then,
for --seconds, nothing happens but keep-alives (the server's protocol pings every 20 s, the periodic session
re-check and presence): the server's CPU in that window is the idle cost. Memory is the server's RSS with everyone
connected minus its RSS before anyone connected, per socket. Last, one session is revoked in the database and the bench
times how long its socket stays open (docs/protocol.md: within 20 s). Prints numbers; asserts nothing.

`--profile DIR` also records each server with py-spy (`pip install py-spy`; raw collapsed stacks, for flame graphs or
grep) while the sockets connect (DIR/<server>-connect.txt) and during the idle window (DIR/<server>-idle.txt). py-spy
samples without pausing the server (--nonblocking), but it takes CPU of its own on a shared machine: compare the
numbers of a profiled run with each other only.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import connect  # noqa: E402

from bench.load import ROOT, Server, cpu_seconds, rss_mib, server_env  # noqa: E402


async def seed_players(data_dir: Path, count: int) -> list[tuple[int, str, str]]:
    """Accounts and login sessions in bulk into the scratch database: (user id, name, session token) each. The rows
    `create_user` and `start_session` write, without the wallet and welcome coins (bench/load.py's seeding, one user
    at a time through the ledger, took 6 minutes for 19,800 on a busy machine)."""
    import random
    from datetime import timedelta

    from sqlalchemy import insert

    from app.accounts.models import AuthSession, User
    from app.config import Settings
    from app.core.security import hash_session_token, new_session_token
    from app.runtime import open_runtime

    settings = Settings(data_dir=data_dir, database_url="", redis_url="memory://")
    run = f"{random.randrange(16**6):06x}"
    players = []
    async with open_runtime(settings, migrate=True) as runtime:
        now = runtime.clock.now()
        for start in range(0, count, 2000):
            names = [f"lb{run}{index}" for index in range(start, min(count, start + 2000))]
            tokens = [new_session_token() for _ in names]
            async with runtime.transaction() as session:
                ids = (await session.scalars(insert(User).returning(User.id, sort_by_parameter_order=True), [
                    {"username": name, "username_key": name, "password_hash": "", "xp": 0, "created_at": now,
                     "guest": False} for name in names])).all()
                await session.execute(insert(AuthSession), [
                    {"user_id": user_id, "token_hash": hash_session_token(token), "created_at": now,
                     "expires_at": now + timedelta(days=settings.session_days)} for user_id, token in zip(ids, tokens)])
            players += zip(ids, names, tokens)
    return players


async def open_sockets(url: str, cookies: list[str | None], concurrency: int) -> tuple[list, float]:
    semaphore = asyncio.Semaphore(concurrency)
    ws_url = url.replace("http://", "ws://") + "/ws"

    async def one(cookie: str | None):
        async with semaphore:
            headers = {"Cookie": f"ts_session={cookie}"} if cookie else {}
            # No client-side pings: a browser sends none either; the server's own keep-alive pings are the idle load.
            socket = await connect(ws_url, additional_headers=headers, ping_interval=None, open_timeout=600,
                                   max_size=2**22)
            await socket.recv()  # hello
            return socket

    started = time.perf_counter()
    sockets = await asyncio.gather(*(one(cookie) for cookie in cookies))
    return list(sockets), time.perf_counter() - started


async def drain(sockets: list) -> None:
    """Read (and drop) whatever the server sends, so nothing backs up; protocol pings are answered by the library."""

    async def read(socket) -> None:
        try:
            async for _ in socket:
                pass
        except Exception:
            pass

    for socket in sockets:
        asyncio.get_running_loop().create_task(read(socket))


class Profile:
    """py-spy recording a server until stopped (nothing at all without --profile)."""

    def __init__(self, args: argparse.Namespace, pid: int, name: str):
        self.process: subprocess.Popen | None = None
        if args.profile is None:
            return
        py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        args.profile.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([py_spy, "record", "-p", str(pid), "-f", "raw", "-r", "100", "--nonblocking",
                                         "-o", str(args.profile / f"{name}.txt")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    async def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(2)  # SIGINT: py-spy writes what it has and ends
            await asyncio.get_running_loop().run_in_executor(None, self.process.wait)


async def measure(label: str, server: Server, cookies: list[str | None], args: argparse.Namespace
                  ) -> tuple[list, dict[str, float]]:
    name = label.strip().replace(" ", "-").lower()
    await asyncio.sleep(2)
    before = rss_mib(server.pid)
    profile = Profile(args, server.pid, f"{name}-connect")
    sockets, seconds = await open_sockets(server.url, cookies, args.concurrency)
    await profile.stop()
    await drain(sockets)
    await asyncio.sleep(args.settle)
    after = rss_mib(server.pid)
    profile = Profile(args, server.pid, f"{name}-idle")
    cpu_start, wall_start = cpu_seconds(server.pid), time.perf_counter()
    await asyncio.sleep(args.seconds)
    cpu = (cpu_seconds(server.pid) - cpu_start) / (time.perf_counter() - wall_start)
    await profile.stop()
    numbers = {"connect s": seconds, "idle CPU %": cpu * 100, "KiB/socket": (after - before) * 1024 / len(sockets),
               "RSS MiB": after}
    print(f"  {label}: {len(sockets)} sockets connected in {seconds:.1f} s; idle CPU {cpu * 100:.1f} % of a core; "
          f"{numbers['KiB/socket']:.1f} KiB per socket (RSS {before:.0f} -> {after:.0f} MiB)", flush=True)
    return sockets, numbers


async def revocation(data_dir: Path, socket, session_token: str) -> float:
    """Revoke one session in the database; seconds until its socket is closed by the server."""
    from sqlalchemy import update

    from app.accounts.models import AuthSession
    from app.config import Settings
    from app.core.security import hash_session_token
    from app.runtime import open_runtime

    async with open_runtime(Settings(data_dir=data_dir)) as runtime:
        async with runtime.transaction() as session:
            await session.execute(update(AuthSession).where(AuthSession.token_hash == hash_session_token(
                session_token)).values(revoked_at=runtime.clock.now()))
    started = time.perf_counter()
    await asyncio.wait_for(socket.wait_closed(), 120)
    return time.perf_counter() - started


async def main(args: argparse.Namespace) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"{args.sockets} idle sockets, {args.seconds:.0f} s measured after {args.settle:.0f} s to settle "
          f"(open files allowed: {hard})", flush=True)

    bare = Server([sys.executable, str(ROOT / "bench" / "bare_relay.py"), "--port", "0"])
    try:
        sockets, bare_numbers = await measure("bare relay ", bare, [None] * args.sockets, args)
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
    finally:
        bare.stop()

    with tempfile.TemporaryDirectory(prefix="tablestakes-idle-") as temp:
        data_dir = Path(temp)
        started = time.perf_counter()
        players = await seed_players(data_dir, args.sockets)
        print(f"  seeded {len(players)} accounts with sessions in {time.perf_counter() - started:.1f} s", flush=True)
        # `python -m app` from this checkout (the server runs in ROOT): the installed `tablestakes` script would
        # import whichever checkout the environment was installed from.
        server = Server([sys.executable, "-m", "app", "serve", "--port", "0"], server_env(data_dir, None, None))
        try:
            sockets, ours = await measure("Tablestakes", server, [token for _, _, token in players], args)
            closed_after = await revocation(data_dir, sockets[0], players[0][2])
            print(f"  a revoked session's socket closed {closed_after:.1f} s after the revocation", flush=True)
            await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
        finally:
            server.stop()
    print("              | " + " | ".join(f"{key:>12}" for key in ours))
    print("  bare relay  | " + " | ".join(f"{bare_numbers[key]:12.1f}" for key in ours))
    print("  Tablestakes | " + " | ".join(f"{ours[key]:12.1f}" for key in ours))
    print("  ratio       | " + " | ".join(f"{ours[key] / bare_numbers[key]:11.2f}x" if bare_numbers[key] else
                                         f"{'-':>12}" for key in ours))


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=19_800)
    parser.add_argument("--seconds", type=float, default=60.0, help="the idle window measured")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds to wait after connecting")
    parser.add_argument("--concurrency", type=int, default=200, help="sockets opening at once")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="record the servers with py-spy into DIR")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse()))
