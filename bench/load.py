"""Load bench: N players, real WebSocket clients on loopback, playing tables of --seats (Pika unless --game).

    .venv/bin/python bench/load.py                               # 2,000 players, Tablestakes on SQLite + memory://
    .venv/bin/python bench/load.py --players 400 --baseline      # and the bare relay, 3 interleaved rounds, ratios
    .venv/bin/python bench/load.py --database postgresql+asyncpg://postgres@127.0.0.1:5432/postgres \\
                                   --redis redis://127.0.0.1:6379/15         # on PostgreSQL + Redis (scratch db)
    .venv/bin/python bench/load.py --database ... --redis ... --nodes 3     # three nodes behind HAProxy
    .venv/bin/python bench/load.py --players 300 --game kapern --hard-bots 2  # 2 people + 2 hard bots a table

Tablestakes runs as `tablestakes serve --port 0` on a scratch data folder (and, with --database, a scratch PostgreSQL
database made and dropped on that server). Its players are seeded straight into the database (accounts and login
sessions, like a seeding script: no argon2 cost), then meet in friends rooms through the HTTP API, one room per
table, all formed before the measured window (the set-up time is printed apart). In the window each player answers
its turns with the easy bot's choice after --think seconds (0.5-1.5x at random); when a table's game ends its players
ask for a rematch over the socket and play on (with --next room the host forms a new room through the HTTP API
instead, about 12 requests per table, as the bench did before rematches existed). With --baseline the same players, in groups of the same size, run against bench/bare_relay.py: a
server of the same stack that only relays each action to the table's sockets; each group takes turns round-robin
with the same think time.

With --nodes N (PostgreSQL and Redis required) the bench runs N `tablestakes serve` nodes and HAProxy in front of them
(deploy/haproxy.cfg, rendered by deploy/haproxy.py); players connect through HAProxy, and once seated each socket
reconnects with its table's node as a hint (`?node=`), as the browser does, so that moves are mostly not relayed.
CPU and memory are then the sum over the nodes, and the table messages relayed between nodes are counted.

Printed per run and as medians of the rounds: actions per second, the time from an action to every seat at the table
having its update (p50, p95, p99), the server's CPU time per action (from /proc), the median bytes per table message
per seat, the server's memory (RSS) once everyone is connected, and the ratios Tablestakes / bare relay. Stops by
itself; asserts nothing.

The players run in --client-processes processes (default: one per core, at most 4), each holding whole tables, so
that at 2,000 players the bench's own event loop is not what queues the updates. Every process forms its tables,
then all start the window together; an action's latency is measured in the process that holds its whole table.

With --hard-bots K every table has K bot seats (hard, or --bot-level) and --seats - K bench players: the host adds
the bots to its friends room through the HTTP API (POST /api/rooms/{id}/bots) before starting it, and a rematch
keeps them. --players counts the bench players only. The latencies are then those of the players' moves alone (an
action to every player's seat having its update); the bots' moves in the window and their think time (the server's
tablestakes_bot_think_seconds: the worker round trip, not the human-like delay before the move) come from /metrics,
as does (every run) the server's own time from a person's move to every seat sent (tablestakes_action_broadcast_seconds,
histogram buckets), which a busy bench process cannot inflate.
Hard bots think in the server's worker processes (app/tables/thinking.py), so this shows whether their thinking
delays the people's moves. --game picks the game the tables play (the players answer with its easy bot's choice).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import socket
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from app.client import ClientError, TablestakesClient  # noqa: E402
from app.commands import tune_gc  # noqa: E402
from app.games.registry import game_names, get_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "load-bench-password"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------------------------------------ measuring


class Arrivals:
    """When each client first saw each table version (one process, one clock), and the sizes of what it got."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], list[tuple[int, float]]] = defaultdict(list)
        self.sizes: list[int] = []

    def saw(self, table: str, client: int, version: int, size: int) -> None:
        self.seen[(table, client)].append((version, time.perf_counter()))
        self.sizes.append(size)

    def first_at_or_after(self, table: str, client: int, version: int) -> float | None:
        for seen_version, at in self.seen.get((table, client), ()):
            if seen_version >= version:
                return at
        return None


class Share:
    """What one client process saw in the window: the actions its players sent and when each of their tables' seats
    saw them (every seat of a table is in the same process, so one clock measures an action's whole path)."""

    def __init__(self) -> None:
        self.arrivals = Arrivals()
        self.acts: list[tuple[str, int, float, tuple[int, ...]]] = []  # table, version, sent at, the group
        self.games = 0
        self.refused = 0
        self.cpu_seconds = 0.0  # the process's own CPU in the window
        self._cpu_at_start = 0.0

    def window_starts(self) -> None:
        self._cpu_at_start = time.process_time()

    def window_ends(self) -> None:
        self.cpu_seconds = time.process_time() - self._cpu_at_start

    def act(self, table: str, version: int, sent: float, group: tuple[int, ...]) -> None:
        self.acts.append((table, version, sent, group))

    def latencies(self) -> list[float]:
        found = []
        for table, version, sent, group in self.acts:
            times = [self.arrivals.first_at_or_after(table, member, version) for member in group]
            if all(t is not None for t in times):
                found.append(max(times) - sent)  # type: ignore[type-var]
        return found

    def result(self) -> dict[str, Any]:
        return {"latencies": self.latencies(), "sizes": self.arrivals.sizes, "actions": len(self.acts),
                "games": self.games, "refused": self.refused,
                "cpu_seconds": self.cpu_seconds}


class Run:
    """One measured window against one server: the client processes' shares put together, and the server's CPU."""

    def __init__(self, label: str, pid: int):
        self.label = label
        self.bots: dict[str, float] | None = None  # from /metrics: bot moves and think time, server's broadcast
        self.pid = pid
        self.latencies: list[float] = []
        self.sizes: list[int] = []
        self.actions = 0
        self.games = 0
        self.refused = 0
        self.setup_seconds = 0.0
        self.rss_connected = 0.0
        self.window = 0.0
        self.cpu_seconds = 0.0
        self.client_cpu_seconds = 0.0  # the players' processes, all of them: they share the machine's cores
        self.worker_cpu_seconds = 0.0  # the server's child processes: the hard bots' workers
        self.relayed: int | None = None  # table messages relayed between nodes (several nodes only)

    def take(self, shares: list[dict[str, Any]]) -> None:
        for share in shares:
            self.latencies.extend(share["latencies"])
            self.sizes.extend(share["sizes"])
            self.actions += share["actions"]
            self.games += share["games"]
            self.refused += share["refused"]
            self.client_cpu_seconds += share["cpu_seconds"]

    def numbers(self) -> dict[str, float]:
        latencies = sorted(self.latencies)
        actions = self.actions
        return {
            "actions/s": actions / self.window if self.window else 0.0,
            "p50 ms": percentile(latencies, 0.5) * 1000,
            "p95 ms": percentile(latencies, 0.95) * 1000,
            "p99 ms": percentile(latencies, 0.99) * 1000,
            "cpu ms/action": self.cpu_seconds * 1000 / actions if actions else 0.0,
            "players' cpu ms/action": self.client_cpu_seconds * 1000 / actions if actions else 0.0,
            "bytes/update/seat": statistics.median(self.sizes) if self.sizes else 0.0,
            "rss MiB": self.rss_connected,
        }

    def report(self) -> None:
        n = self.numbers()
        players_cpu = n["players' cpu ms/action"]
        print(f"  {self.label}: set-up {self.setup_seconds:.1f} s; {self.actions} actions in {self.window:.1f} s "
              f"= {n['actions/s']:.0f}/s ({self.games} games, {self.refused} refused as stale); "
              f"p50/p95/p99 {n['p50 ms']:.1f} / {n['p95 ms']:.1f} / {n['p99 ms']:.1f} ms; "
              f"CPU {n['cpu ms/action']:.3f} ms/action (the players' processes {players_cpu:.3f}); "
              f"{n['bytes/update/seat']:.0f} B/update/seat; "
              f"RSS {n['rss MiB']:.0f} MiB"
              + (f"; {self.relayed} table messages relayed between nodes" if self.relayed is not None else "")
              + (f"; server's move-to-every-seat-sent p50 <= {self.bots['server p50 ms']:g} ms, p95 <= "
                 f"{self.bots['server p95 ms']:g} ms, p99 <= {self.bots['server p99 ms']:g} ms (histogram buckets)"
                 if self.bots else "")
              + (f"; {self.bots['moves']:.0f} bot moves, think mean {self.bots['mean ms']:.1f} ms, "
                 f"p99 <= {self.bots['p99 ms']:g} ms; server CPU "
                 f"{self.cpu_seconds * 1000 / (self.actions + self.bots['moves']):.3f} ms per move (people's "
                 f"and bots'), its bot workers {self.worker_cpu_seconds:.1f} s CPU in the window"
                 if self.bots and self.bots["moves"] else ""),
              flush=True)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(fraction * len(values)))]


def rss_mib(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(found.group(1)) / 1024 if found else 0.0


METRICS_TOKEN = "load-bench-metrics"


HISTOGRAMS = {"tablestakes_bot_think_seconds": "think", "tablestakes_action_broadcast_seconds": "broadcast"}


def bot_metrics(urls: list[str]) -> dict[str, Any]:
    """From /metrics, summed over the nodes: the bots' moves (tablestakes_actions source=bot), their think time
    and the server's own time from a person's move to every seat sent (histograms: bucket bound -> count)."""
    found: dict[str, Any] = {"moves": 0.0, "think": defaultdict(float), "broadcast": defaultdict(float)}
    for url in urls:
        text = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=10).text
        for line in text.splitlines():
            name, _, rest = line.partition("{")
            value = float(line.rsplit(" ", 1)[1]) if rest else 0.0
            if name == "tablestakes_actions_total" and 'source="bot"' in rest:
                found["moves"] += value
            elif name.removesuffix("_bucket") in HISTOGRAMS and name.endswith("_bucket"):
                found[HISTOGRAMS[name.removesuffix("_bucket")]][re.search(r'le="([^"]+)"', rest).group(1)] += value
            elif name.rsplit("_", 1)[0] in HISTOGRAMS and name.rsplit("_", 1)[1] in ("sum", "count"):
                found[HISTOGRAMS[name.rsplit("_", 1)[0]]][name.rsplit("_", 1)[1]] += value
    return found


def bucket_bound(histogram: dict[str, float], fraction: float) -> float:
    """The least bucket bound that holds `fraction` of the observations, in ms (a histogram gives no closer)."""
    count = histogram.get("count", 0.0)
    buckets = sorted((float(k), v) for k, v in histogram.items() if k not in ("sum", "count"))
    return 1000 * next((bound for bound, seen in buckets if count and seen >= fraction * count), float("nan"))


def bot_numbers(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """In the window: bot moves, their mean think time and p99 bucket; the server's broadcast p50/p95/p99 buckets."""
    think, broadcast = ({key: after[part][key] - before[part].get(key, 0.0) for key in after[part]}
                        for part in ("think", "broadcast"))
    count = think.get("count", 0.0)
    return {"moves": after["moves"] - before["moves"],
            "mean ms": 1000 * think.get("sum", 0.0) / count if count else float("nan"),
            "p99 ms": bucket_bound(think, 0.99),
            "server p50 ms": bucket_bound(broadcast, 0.5), "server p95 ms": bucket_bound(broadcast, 0.95),
            "server p99 ms": bucket_bound(broadcast, 0.99)}


def children_cpu_seconds(pid: int) -> float:
    """CPU time of a server's child processes now alive (the bots' worker processes, app/tables/thinking.py)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                total += cpu_seconds(int(child)) + children_cpu_seconds(int(child))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return total


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


# ------------------------------------------------------------------------------------------------ servers


class Server:
    def __init__(self, command: list[str], env: dict[str, str] | None = None):
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, cwd=ROOT)
        assert self.process.stdout is not None
        self.url = ""
        for line in self.process.stdout:
            found = re.search(r"(http://\S+:\d+)", line)
            if found:
                self.url = found.group(1)
                break
        if not self.url:
            raise RuntimeError("the server did not start")
        # Keep draining its output so it never blocks on a full pipe.
        self._drain = asyncio.get_running_loop().run_in_executor(None, lambda: [None for _ in self.process.stdout])

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()


def server_env(data_dir: Path, database: str | None, redis: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DATA_DIR")}
    env.update({"DATA_DIR": str(data_dir), "LOG_LEVEL": "WARNING", "METRICS_TOKEN": METRICS_TOKEN})
    if database:
        env["DATABASE_URL"] = database
    if redis:
        env["REDIS_URL"] = redis
    return env


class Cluster:
    """N nodes on one database and one Redis, and HAProxy in front (the processes' CPU and memory summed)."""

    def __init__(self, count: int, data_dir: Path, env: dict[str, str]):
        from deploy.haproxy import render

        self.nodes = []
        for number in range(1, count + 1):
            node_dir = data_dir / f"n{number}"
            node_dir.mkdir()
            self.nodes.append(Server([str(Path(sys.executable).parent / "tablestakes"), "serve", "--port", "0"],
                                     {**env, "DATA_DIR": str(node_dir), "NODE_NAME": f"n{number}",
                                      "SECRET_KEY": "load-bench-secret"}))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        config = data_dir / "haproxy.cfg"
        config.write_text(render(f"127.0.0.1:{port}", {f"n{n}": node.url.removeprefix("http://")
                                                       for n, node in enumerate(self.nodes, 1)}))
        self.haproxy = subprocess.Popen(["haproxy", "-f", str(config), "-db"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)

    @property
    def pids(self) -> list[int]:
        return [node.pid for node in self.nodes]

    def relayed(self) -> int:
        return sum(httpx.get(f"{node.url}/readyz", timeout=5).json().get("relayed_out", 0) for node in self.nodes)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.haproxy.kill()
        self.haproxy.wait()


async def scratch_postgres(base_url: str) -> tuple[str, str]:
    import asyncpg
    from sqlalchemy.engine import make_url

    url = make_url(base_url)
    name = f"bench_{uuid.uuid4().hex[:10]}"
    connection = await asyncpg.connect(user=url.username, host=url.host, port=url.port or 5432,
                                       database=url.database or "postgres", password=url.password)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return url.set(database=name).render_as_string(hide_password=False), name


async def drop_postgres(base_url: str, name: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    url = make_url(base_url)
    connection = await asyncpg.connect(user=url.username, host=url.host, port=url.port or 5432,
                                       database=url.database or "postgres", password=url.password)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def seed_players(data_dir: Path, database: str | None, redis: str | None, count: int
                       ) -> list[tuple[int, str, str]]:
    """Accounts and login sessions straight into the scratch database: (user id, name, session token) each."""
    from argon2 import PasswordHasher

    from app.config import Settings
    from app.runtime import open_runtime

    settings = Settings(data_dir=data_dir, database_url=database or "", redis_url=redis or "memory://")
    run = f"{random.randrange(16**6):06x}"
    password_hash = PasswordHasher(time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib,
                                   parallelism=settings.argon2_parallelism).hash(PASSWORD)
    players = []
    async with open_runtime(settings, migrate=True) as runtime:
        for start in range(0, count, 250):
            async with runtime.transaction() as session:
                for index in range(start, min(count, start + 250)):
                    name = f"lb{run}{index}"
                    user = await runtime.accounts.create_user(session, name, password_hash)
                    players.append((user.id, name, await runtime.accounts.start_session(session, user.id)))
    return players


# ------------------------------------------------------------------------------------------------ Tablestakes


async def tablestakes_round(args: argparse.Namespace, label: str) -> Run:
    temp = tempfile.TemporaryDirectory(prefix="tablestakes-load-")
    data_dir = Path(temp.name)
    database, scratch = None, None
    if args.database:
        database, scratch = await scratch_postgres(args.database)
    try:
        seeded = time.perf_counter()
        players = await seed_players(data_dir, database, args.redis, args.players)
        print(f"  {label}: seeded {len(players)} players in {time.perf_counter() - seeded:.1f} s", flush=True)
        if args.nodes:
            cluster = Cluster(args.nodes, data_dir, server_env(data_dir, database, args.redis))
            try:
                return await play_tablestakes(args, label, cluster, players)
            finally:
                cluster.stop()
        server = Server([str(Path(sys.executable).parent / "tablestakes"), "serve", "--port", "0"],
                        server_env(data_dir, database, args.redis))
        try:
            return await play_tablestakes(args, label, server, players)
        finally:
            server.stop()
    finally:
        if scratch and args.database:
            await drop_postgres(args.database, scratch)
        if args.redis:
            await flush_redis(args.redis)
        temp.cleanup()


async def flush_redis(url: str) -> None:
    import redis.asyncio as redis_asyncio

    client = redis_asyncio.Redis.from_url(url)
    await client.flushdb()
    await client.aclose()


async def play_tablestakes(args: argparse.Namespace, label: str, server: Any, players: list) -> Run:
    pids = getattr(server, "pids", None) or [server.pid]
    run = Run(label, pids[0])
    started = time.perf_counter()
    with ClientProcesses(args, "tablestakes", server.url, players) as processes:
        await processes.ready()
        run.setup_seconds = time.perf_counter() - started
        await asyncio.sleep(1)
        run.rss_connected = sum(rss_mib(pid) for pid in pids)
        relayed_before = server.relayed() if len(pids) > 1 else 0
        urls = [node.url for node in getattr(server, "nodes", [server])]
        bots_before = bot_metrics(urls)
        workers_before = sum(children_cpu_seconds(pid) for pid in pids)
        cpu_before, window_start = sum(cpu_seconds(pid) for pid in pids), time.perf_counter()
        processes.go(time.monotonic() + args.seconds)
        shares = await processes.done()
        run.window = time.perf_counter() - window_start
        run.cpu_seconds = sum(cpu_seconds(pid) for pid in pids) - cpu_before
        run.worker_cpu_seconds = sum(children_cpu_seconds(pid) for pid in pids) - workers_before
        if len(pids) > 1:
            run.relayed = server.relayed() - relayed_before
        run.bots = bot_numbers(bots_before, bot_metrics(urls))
    run.take(shares)
    return run


async def tablestakes_share(args: argparse.Namespace, url: str, players: list, first_group: int,
                            ready: Callable[[], Awaitable[float]]) -> Share:
    """In a client process: its players connect, form their tables, and play them in the window."""
    share = Share()
    semaphore = asyncio.Semaphore(50)

    async def open_client(index: int, user_id: int, name: str, token: str) -> TablestakesClient:
        client = TablestakesClient(url, timeout=300)
        client.keep_messages = False
        client.user = {"id": user_id, "username": name}
        client.http.cookies.set("ts_session", token)

        def listen(message: dict[str, Any], index: int = index, client: TablestakesClient = client) -> None:
            if message.get("type") in ("update", "catch_up", "sync"):
                share.arrivals.saw(message["table"], index, message["version"], client.last_size)

        client.on_message(listen)
        async with semaphore:
            await client.connect()
        return client

    clients = list(await asyncio.gather(*(open_client(i, *p) for i, p in enumerate(players))))
    try:
        people = args.seats - args.hard_bots
        groups = [tuple(range(i, i + people)) for i in range(0, len(clients) - people + 1, people)]
        first_tables = await asyncio.gather(*(form_table(args, clients, group, semaphore) for group in groups))
        if args.nodes > 1:
            await asyncio.gather(*(follow_table_node(clients[i], table) for group, table in zip(groups, first_tables)
                                   for i in group))
        stop_at = await ready()
        share.arrivals.sizes.clear()
        share.window_starts()
        await asyncio.wait_for(asyncio.gather(*(
            group_loop(args, share, clients, group, table, stop_at, semaphore)
            for group, table in zip(groups, first_tables))), args.seconds + 120)
        share.window_ends()
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    return share


async def follow_table_node(client: TablestakesClient, table_id: str) -> None:
    """Reconnect through the balancer to the node that plays the table (the `node` of its full message), as the
    browser does on its next connection, and join again from the last version seen."""
    state = client.tables[table_id]
    if state.node and state.node != client.node:
        await client.disconnect()
        await client.connect(node=state.node)
        await client.join(table_id, since=state.version, token=state.seat_token)


async def form_table(args: argparse.Namespace, clients: list[TablestakesClient], group: tuple[int, ...],
                     semaphore: asyncio.Semaphore) -> str:
    async with semaphore:
        host = clients[group[0]]
        room = await host.post("/api/rooms", {"game": args.game, "seats": args.seats, "turn_seconds": 60})
        for index in group[1:]:
            guest = clients[index]
            invitation = await host.post(f"/api/rooms/{room['id']}/invitations",
                                         {"username": guest.user["username"]})
            await guest.post(f"/api/invitations/{invitation['id']}/accept")
        for _ in range(args.hard_bots):
            await host.post(f"/api/rooms/{room['id']}/bots", {"level": args.bot_level})
        table_id = (await host.post(f"/api/rooms/{room['id']}/start"))["table_id"]
    await asyncio.gather(*(clients[index].join(table_id) for index in group))
    return table_id


async def rematch_table(clients: list[TablestakesClient], group: tuple[int, ...], old_table: str) -> str:
    """Everyone at the finished table asks for a rematch over the socket (the results screen's "Play again"); the
    last answer starts it, and every seat joins the new table."""
    def started(client: TablestakesClient) -> str | None:
        for notice in reversed(client.notices):
            data = notice.get("data") or {}
            if notice["type"] == "rematch" and data.get("table") == old_table and data.get("table_id"):
                return data["table_id"]
        return None

    replies = await asyncio.gather(*(clients[index].request({"type": "rematch", "table": old_table, "agree": True})
                                     for index in group))
    table_id = next((reply["rematch"]["table_id"] for reply in replies if reply["rematch"].get("table_id")), None)
    if table_id is None:
        host = clients[group[0]]
        await host.wait_for(lambda: started(host) is not None, timeout=60)
        table_id = started(host)
    await asyncio.gather(*(clients[index].join(table_id) for index in group))
    return table_id


async def group_loop(args: argparse.Namespace, share: Share, clients: list[TablestakesClient], group: tuple[int, ...],
                     table_id: str, stop_at: float, semaphore: asyncio.Semaphore) -> None:
    while time.monotonic() < stop_at:
        await asyncio.gather(*(play(args, share, clients, index, table_id, group, stop_at) for index in group))
        if clients[group[0]].tables[table_id].over:
            share.games += 1
        if time.monotonic() >= stop_at:
            return
        finished = table_id
        if args.next == "rematch":
            table_id = await rematch_table(clients, group, table_id)
        else:
            table_id = await form_table(args, clients, group, semaphore)
        for index in group:  # a player keeps the table it plays, not every table it played (a heap that grows)
            clients[index].tables.pop(finished, None)
            clients[index].notices.clear()
        if args.nodes and args.nodes > 1:
            await asyncio.gather(*(follow_table_node(clients[index], table_id) for index in group))


async def play(args: argparse.Namespace, share: Share, clients: list[TablestakesClient], index: int, table_id: str,
               group: tuple[int, ...], stop_at: float) -> None:
    client = clients[index]
    await client.wait_for(lambda: table_id in client.tables)
    bot = get_game(args.game).bots["easy"](client.tables[table_id].seat, random.Random(index))
    while True:
        state = client.tables[table_id]
        if state.over or time.monotonic() >= stop_at:
            return
        version = state.version
        if state.legal:
            action = bot.choose(state.view if bot.needs_view else None, state.legal)
            if action is not None:
                await asyncio.sleep(random.uniform(0.5, 1.5) * args.think)
                if client.tables[table_id].version != version:
                    continue  # the table moved on while we thought
                sent = time.perf_counter()
                try:
                    ack = await client.act(table_id, action)
                except ClientError:
                    share.refused += 1  # an alert expired meanwhile: look again
                    continue
                share.act(table_id, ack["version"], sent, group)
                continue
        try:
            await client.wait_for(lambda: client.tables[table_id].version != version or client.tables[table_id].over,
                                  timeout=max(0.5, stop_at - time.monotonic()))
        except (TimeoutError, asyncio.TimeoutError):
            return


# ------------------------------------------------------------------------------------------------ bare relay


async def bare_round(args: argparse.Namespace, label: str) -> Run:
    server = Server([sys.executable, str(ROOT / "bench" / "bare_relay.py"), "--port", "0"])
    try:
        return await play_bare(args, label, server)
    finally:
        server.stop()


class BarePlayer:
    """A socket on the bare relay: it knows its table's version and whose turn it is (round-robin)."""

    def __init__(self, index: int, share: Share):
        self.index = index
        self.share = share
        self.socket: Any = None
        self.version = 0
        self.changed = asyncio.Event()
        self.acks: dict[int, asyncio.Future] = {}
        self.ids = itertools.count(1)

    async def open(self, url: str) -> None:
        self.socket = await connect(url.replace("http://", "ws://") + "/ws", max_size=2**22, open_timeout=300)
        await self.socket.recv()  # hello
        asyncio.get_running_loop().create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                if message["type"] == "update":
                    self.version = max(self.version, message["version"])
                    self.share.arrivals.saw(message["table"], self.index, message["version"], len(raw))
                    self.changed.set()
                elif message.get("id") in self.acks:
                    self.acks.pop(message["id"]).set_result(message)
        except Exception:
            pass

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        request_id = next(self.ids)
        reply = asyncio.get_running_loop().create_future()
        self.acks[request_id] = reply
        await self.socket.send(json.dumps({**message, "id": request_id}))
        return await reply


async def play_bare(args: argparse.Namespace, label: str, server: Server) -> Run:
    run = Run(label, server.pid)
    started = time.perf_counter()
    with ClientProcesses(args, "bare", server.url, list(range(args.players))) as processes:
        await processes.ready()
        run.setup_seconds = time.perf_counter() - started
        await asyncio.sleep(1)
        run.rss_connected = rss_mib(server.pid)
        cpu_before, window_start = cpu_seconds(server.pid), time.perf_counter()
        processes.go(time.monotonic() + args.seconds)
        shares = await processes.done()
        run.window = time.perf_counter() - window_start
        run.cpu_seconds = cpu_seconds(server.pid) - cpu_before
    run.take(shares)
    return run


async def bare_share(args: argparse.Namespace, url: str, players: list, first_group: int,
                     ready: Callable[[], Awaitable[float]]) -> Share:
    """In a client process: its players join their tables (g<number>) on the relay and take turns round-robin."""
    share = Share()
    sockets = [BarePlayer(index, share) for index in range(len(players))]
    semaphore = asyncio.Semaphore(50)

    async def open_one(player: BarePlayer) -> None:
        async with semaphore:
            await player.open(url)

    await asyncio.gather(*(open_one(p) for p in sockets))
    people = args.seats - args.hard_bots
    groups = [tuple(range(i, i + people)) for i in range(0, len(sockets) - people + 1, people)]
    tables = [f"g{first_group + number}" for number in range(len(groups))]
    for table, group in zip(tables, groups):
        await asyncio.gather(*(sockets[index].request({"type": "join", "table": table}) for index in group))
    stop_at = await ready()
    share.arrivals.sizes.clear()
    # A Pika-sized action, as the game's clients send them.
    action = {"type": "play", "card": "yellow-reverse"}

    async def seat(player: BarePlayer, table: str, position: int, group: tuple[int, ...]) -> None:
        while time.monotonic() < stop_at:
            if player.version % len(group) == position:
                version = player.version
                await asyncio.sleep(random.uniform(0.5, 1.5) * args.think)
                sent = time.perf_counter()
                ack = await player.request({"type": "act", "table": table, "action": action})
                share.act(table, ack["version"], sent, group)
                while player.version == version and time.monotonic() < stop_at:
                    player.changed.clear()
                    try:
                        await asyncio.wait_for(player.changed.wait(), 1)
                    except (TimeoutError, asyncio.TimeoutError):
                        pass
            else:
                player.changed.clear()
                try:
                    await asyncio.wait_for(player.changed.wait(), max(0.1, stop_at - time.monotonic()))
                except (TimeoutError, asyncio.TimeoutError):
                    pass

    share.window_starts()
    try:
        await asyncio.gather(*(seat(sockets[index], table, position, group)
                               for table, group in zip(tables, groups) for position, index in enumerate(group)))
        share.window_ends()
    finally:
        await asyncio.gather(*(p.socket.close() for p in sockets), return_exceptions=True)
    return share


# ------------------------------------------------------------------------------------------------ client processes


class ClientProcesses:
    """The players, in --client-processes processes of whole tables each, so that one busy client process does not
    add its own queueing to the latencies. Every process sets up its tables and says it is ready; then all start the
    window together (time.monotonic is one clock for every process on Linux) and send back what they measured."""

    def __init__(self, args: argparse.Namespace, kind: str, url: str, players: list):
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no event loop or sockets inherited
        people = args.seats - args.hard_bots
        groups = len(players) // people
        count = max(1, min(args.client_processes, groups))
        self.pipes = []
        self.processes = []
        for number in range(count):
            first, last = groups * number // count, groups * (number + 1) // count
            ours, theirs = context.Pipe()
            process = context.Process(target=client_process, daemon=True,
                                      args=(theirs, kind, vars(args), url, players[first * people:last * people], first))
            process.start()
            theirs.close()
            self.pipes.append(ours)
            self.processes.append(process)

    async def _replies(self, expected: str) -> list[Any]:
        loop = asyncio.get_running_loop()
        replies = await asyncio.gather(*(loop.run_in_executor(None, pipe.recv) for pipe in self.pipes))
        for kind, body in replies:
            if kind == "failed":
                raise RuntimeError(f"a client process failed:\n{body}")
            assert kind == expected, kind
        return [body for _, body in replies]

    async def ready(self) -> None:
        await self._replies("ready")

    def go(self, stop_at: float) -> None:
        for pipe in self.pipes:
            pipe.send(stop_at)

    async def done(self) -> list[dict[str, Any]]:
        return await self._replies("done")

    def __enter__(self) -> ClientProcesses:
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        for process in self.processes:
            process.join(timeout=0 if kind else 30)  # after an error nobody will tell them to go
            if process.is_alive():
                process.kill()


def client_process(pipe: Any, kind: str, settings: dict[str, Any], url: str, players: list, first_group: int) -> None:
    args = argparse.Namespace(**settings)
    share_of = {"tablestakes": tablestakes_share, "bare": bare_share}[kind]

    async def ready() -> float:
        # The players' processes run the cycle collector as the servers do (app.commands.tune_gc): with Python's
        # defaults their collections (up to 0.3 s each over the tables they hold) held every update they were
        # about to time, and the latencies measured the players' pauses.
        tune_gc()
        pipe.send(("ready", None))
        return await asyncio.get_running_loop().run_in_executor(None, pipe.recv)

    try:
        share = asyncio.run(share_of(args, url, players, first_group, ready))
        pipe.send(("done", share.result()))
    except BaseException:
        pipe.send(("failed", traceback.format_exc()))


# ------------------------------------------------------------------------------------------------ main


def medians(runs: list[Run]) -> dict[str, float]:
    numbers = [run.numbers() for run in runs]
    return {key: statistics.median(n[key] for n in numbers) for key in numbers[0]}


async def main(args: argparse.Namespace) -> None:
    where = "PostgreSQL + Redis" if args.database else "SQLite + memory://"
    if args.nodes:
        where += f", {args.nodes} node{'s' if args.nodes > 1 else ''} behind HAProxy"
    bots = f" with {args.hard_bots} {args.bot_level} bot(s) each" if args.hard_bots else ""
    print(f"{args.players} players in {get_game(args.game).title} tables of {args.seats}{bots}, "
          f"{args.seconds:.0f} s windows, think {args.think} s, "
          f"Tablestakes on {where}; {args.rounds} round(s){' with the bare relay' if args.baseline else ''}",
          flush=True)
    ours: list[Run] = []
    bare: list[Run] = []
    for number in range(1, args.rounds + 1):
        if args.baseline:
            bare.append(await bare_round(args, f"round {number} bare relay "))
            bare[-1].report()
        ours.append(await tablestakes_round(args, f"round {number} Tablestakes"))
        ours[-1].report()
    print("medians:")
    mine = medians(ours)
    columns = list(mine)
    print("  " + " | ".join(f"{key:>17}" for key in ["", *columns]))
    if bare:
        base = medians(bare)
        print("  " + " | ".join(f"{value:>17}" for value in ["bare relay", *(f"{base[k]:.3f}" for k in columns)]))
    print("  " + " | ".join(f"{value:>17}" for value in ["Tablestakes", *(f"{mine[k]:.3f}" for k in columns)]))
    if bare:
        ratios = [f"{mine[k] / base[k]:.2f}x" if base[k] else "-" for k in columns]
        print("  " + " | ".join(f"{value:>17}" for value in ["ratio", *ratios]))


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=4, choices=[2, 3, 4])
    parser.add_argument("--game", default="pika", choices=game_names(),
                        help="the game every table plays (the players answer with its easy bot's choice)")
    parser.add_argument("--hard-bots", type=int, default=0, metavar="K",
                        help="bot seats at every table (the players fill the other --seats - K; the bare relay's "
                             "groups are as many players)")
    parser.add_argument("--bot-level", default="hard", choices=["easy", "medium", "hard"],
                        help="the level of those bots (a medium run is the control: the same tables, no search)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window of each run")
    parser.add_argument("--think", type=float, default=0.3, help="mean think time before each move, seconds")
    parser.add_argument("--client-processes", type=int, default=max(1, min(4, os.cpu_count() or 1)),
                        help="processes the players are spread over, whole tables each (default: the cores, "
                             "at most 4)")
    parser.add_argument("--baseline", action="store_true", help="also run the bare relay and print the ratios")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds (default 3 with --baseline)")
    parser.add_argument("--database", help="a PostgreSQL URL to make a scratch database on (default: SQLite)")
    parser.add_argument("--redis", help="a Redis URL (a database the bench may flush; default: memory://)")
    parser.add_argument("--next", choices=["rematch", "room"], default="rematch",
                        help="after a game: everyone asks for a rematch over the socket (default), or the host forms "
                             "a new friends room through the HTTP API (about 12 requests per table)")
    parser.add_argument("--nodes", type=int, default=0,
                        help="run this many nodes behind HAProxy (needs --database and --redis)")
    args = parser.parse_args()
    if args.nodes and not (args.database and args.redis):
        parser.error("--nodes needs --database and --redis (nodes share PostgreSQL and Redis)")
    if not 0 <= args.hard_bots < args.seats:
        parser.error("--hard-bots must leave at least one seat to the players")
    if args.rounds is None:
        args.rounds = 3 if args.baseline else 1
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
