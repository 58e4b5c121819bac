"""Load bench: N simulated players, real WebSocket clients on loopback, playing Pika tables against each other.

    .venv/bin/python bench/load.py --players 400 --seconds 60

With no --url it starts `tablestakes serve --port 0` on a scratch embedded data folder (SQLite + memory://) and
measures that process; with --url it plays against a running server (pass --pid to measure its memory).

Players register over HTTP, meet in friends rooms of --seats (a host invites the others, they accept, the host
starts), then play with the easy bot's choices, each move after --think seconds, forming a new room whenever a game
ends, until the time is up. It prints concurrent sockets, tables, actions per second, the time from an action to
every seat at that table having its update (p50, p95, p99), bytes per table message per seat and the server's
memory. It stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.client import ClientError, TablestakesClient  # noqa: E402
from app.games.registry import get_game  # noqa: E402

PASSWORD = "load-bench-password"


class Arrivals:
    """When each client first saw each table version (one process, one clock)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], list[tuple[int, float]]] = defaultdict(list)
        self.table_messages = 0
        self.table_bytes = 0

    def listener(self, client_index: int, client: TablestakesClient):
        def on_message(message: dict[str, Any]) -> None:
            if message.get("type") in ("update", "catch_up", "sync"):
                self.seen[(message["table"], client_index)].append((message["version"], time.perf_counter()))
        return on_message

    def first_at_or_after(self, table: str, client_index: int, version: int) -> float | None:
        for seen_version, at in self.seen.get((table, client_index), ()):
            if seen_version >= version:
                return at
        return None


class Bench:
    def __init__(self, args: argparse.Namespace, url: str):
        self.args = args
        self.url = url
        self.arrivals = Arrivals()
        self.acts: list[tuple[str, int, float, tuple[int, ...]]] = []  # table, version, sent at, client indexes
        self.refused = 0
        self.games_finished = 0
        self.tables_started = 0
        self.clients: list[TablestakesClient] = []
        self.open_sockets = 0
        self.peak_sockets = 0
        self.live_tables = 0
        self.peak_tables = 0
        self.stop_at = 0.0

    async def setup_players(self) -> None:
        run = f"{random.randrange(16**6):06x}"
        semaphore = asyncio.Semaphore(8)

        async def make(index: int) -> TablestakesClient:
            client = TablestakesClient(self.url, timeout=120)
            client.keep_messages = False
            async with semaphore:
                await client.register(f"lb{run}{index}", PASSWORD)
            client.on_message(self.arrivals.listener(index, client))
            await client.connect()
            self.open_sockets += 1
            self.peak_sockets = max(self.peak_sockets, self.open_sockets)
            return client

        started = time.perf_counter()
        self.clients = list(await asyncio.gather(*(make(i) for i in range(self.args.players))))
        print(f"registered and connected {len(self.clients)} players in {time.perf_counter() - started:.1f} s",
              flush=True)

    async def group_loop(self, members: list[int]) -> None:
        while time.monotonic() < self.stop_at:
            table_id = await self.form_table(members)
            self.tables_started += 1
            self.live_tables += 1
            self.peak_tables = max(self.peak_tables, self.live_tables)
            try:
                await asyncio.gather(*(self.play(index, table_id, members) for index in members))
                self.games_finished += 1
            finally:
                self.live_tables -= 1

    async def form_table(self, members: list[int]) -> str:
        host = self.clients[members[0]]
        room = await host.post("/api/rooms", {"game": "pika", "seats": len(members), "turn_seconds": 60})
        for index in members[1:]:
            guest = self.clients[index]
            await host.post(f"/api/rooms/{room['id']}/invitations", {"username": guest.user["username"]})
            invitation = next(i for i in (await guest.get("/api/invitations"))["invitations"]
                              if i["room_id"] == room["id"])
            await guest.post(f"/api/invitations/{invitation['id']}/accept")
        started = await host.post(f"/api/rooms/{room['id']}/start")
        table_id = started["table_id"]
        for index in members:
            await self.clients[index].join(table_id)
        return table_id

    async def play(self, index: int, table_id: str, members: list[int]) -> None:
        client = self.clients[index]
        await client.wait_for(lambda: table_id in client.tables)
        seat = client.tables[table_id].seat
        bot = get_game("pika").bots["easy"](seat, random.Random(index))
        while True:
            state = client.tables[table_id]
            if state.over or time.monotonic() >= self.stop_at:
                return
            version = state.version
            if state.legal:
                action = bot.choose(state.view if bot.needs_view else None, state.legal)
                if action is not None:
                    if self.args.think:
                        await asyncio.sleep(random.uniform(0.5, 1.5) * self.args.think)
                        if client.tables[table_id].version != version:
                            continue  # the table moved on while we thought
                    sent = time.perf_counter()
                    try:
                        ack = await client.act(table_id, action)
                    except ClientError:
                        self.refused += 1  # e.g. an alert expired meanwhile: look again
                        continue
                    self.acts.append((table_id, ack["version"], sent, tuple(members)))
                    continue
            try:
                await client.wait_for(lambda: client.tables[table_id].version != version
                                      or client.tables[table_id].over,
                                      timeout=max(0.5, self.stop_at - time.monotonic()))
            except (TimeoutError, asyncio.TimeoutError):
                return

    def latencies(self) -> list[float]:
        result = []
        for table_id, version, sent, members in self.acts:
            times = [self.arrivals.first_at_or_after(table_id, index, version) for index in members]
            if all(t is not None for t in times):
                result.append(max(times) - sent)
        return result


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def rss_mib(pid: int) -> float | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(found.group(1)) / 1024 if found else None


async def sample_memory(pid: int | None, peaks: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set() and pid:
        value = rss_mib(pid)
        if value:
            peaks.append(value)
        await asyncio.sleep(1)


def start_server(data_dir: Path) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DATA_DIR")}
    env.update({"DATA_DIR": str(data_dir), "LOG_LEVEL": "WARNING"})
    command = [str(Path(sys.executable).parent / "tablestakes"), "serve", "--port", "0"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(r"(http://\S+:\d+)", line)
        if found:
            return process, found.group(1)
    raise RuntimeError("the server did not start")


async def run(args: argparse.Namespace) -> None:
    process = None
    temp = None
    url, pid = args.url, args.pid
    if not url:
        temp = tempfile.TemporaryDirectory(prefix="tablestakes-load-")
        process, url = start_server(Path(temp.name))
        pid = process.pid
        # Drain the server's output so it never blocks on a full pipe.
        asyncio.get_running_loop().run_in_executor(None, lambda: [None for _ in process.stdout])
    print(f"server {url} (pid {pid or 'unknown'}); {args.players} players in tables of {args.seats}, "
          f"{args.seconds} s of play, think time {args.think} s", flush=True)
    bench = Bench(args, url)
    memory: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(pid, memory, stop))
    idle_memory = rss_mib(pid) if pid else None
    try:
        await bench.setup_players()
        await asyncio.sleep(1)
        seated_memory = rss_mib(pid) if pid else None
        memory.clear()  # registration's argon2 hashing is not table load
        bench.stop_at = time.monotonic() + args.seconds
        started = time.perf_counter()
        groups = [list(range(i, i + args.seats)) for i in range(0, len(bench.clients) - args.seats + 1, args.seats)]
        await asyncio.wait_for(asyncio.gather(*(bench.group_loop(g) for g in groups)), args.seconds + 120)
        elapsed = time.perf_counter() - started
    finally:
        stop.set()
        await sampler
        await asyncio.gather(*(c.close() for c in bench.clients), return_exceptions=True)
        if process is not None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
        if temp is not None:
            temp.cleanup()
    latencies = bench.latencies()
    table_messages = sum(c.table_messages for c in bench.clients)
    table_bytes = sum(c.table_bytes for c in bench.clients)
    print(f"concurrent sockets:      {bench.peak_sockets}")
    print(f"concurrent tables:       {bench.peak_tables} (games started {bench.tables_started}, "
          f"finished {bench.games_finished})")
    print(f"actions:                 {len(bench.acts)} in {elapsed:.1f} s = {len(bench.acts) / elapsed:.1f} per second "
          f"({bench.refused} refused as stale)")
    if latencies:
        print(f"action -> every seat:    p50 {percentile(latencies, .5) * 1000:.1f} ms, "
              f"p95 {percentile(latencies, .95) * 1000:.1f} ms, p99 {percentile(latencies, .99) * 1000:.1f} ms "
              f"({len(latencies)} actions)")
    if table_messages:
        print(f"bytes per update/seat:   {table_bytes / table_messages:.0f} (over {table_messages} table messages)")
    if memory:
        print(f"server memory (RSS):     at start {idle_memory:.0f} MiB, players connected {seated_memory:.0f} MiB, "
              f"peak while playing {max(memory):.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seats", type=int, default=4, choices=[2, 3, 4])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play")
    parser.add_argument("--think", type=float, default=0.3, help="mean think time before each move, seconds")
    parser.add_argument("--url", help="a running server (default: start one on a scratch data folder)")
    parser.add_argument("--pid", type=int, help="the running server's pid, to measure its memory")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
