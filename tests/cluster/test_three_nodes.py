"""Several nodes (issue 17), the acceptance test: PostgreSQL, Redis, HAProxy (deploy/haproxy.cfg) and three real
`tablestakes serve` processes. Players of staked tables connect through HAProxy to different nodes and play; then:

1. the owner of a table is SIGKILLed mid-game: another node adopts it, no move is lost, no socket on a surviving node
   is closed, the game finishes and the pot is paid once;
2. an owner is paused (SIGSTOP) past its lease: another node adopts and finishes its table; woken (SIGCONT), every
   write it attempts is refused;
3. a node is drained (SIGTERM): its table moves, its players go on, the process ends cleanly.

After each phase the ledger is audited from the database (balances equal entries, pots empty, one payout). The test
prints what an operator would want to know (adoption times, dropped sockets, refused writes, relay latency).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.client import TablestakesClient, bot_chooser
from app.games.registry import get_game
from app.ledger.models import LedgerAccount, LedgerTransaction
from app.runtime import open_runtime
from app.tables.models import ClusterNode, GameRecord, LiveTable
from deploy.haproxy import render
from tests.support import backends
from tests.support.harness import PASSWORD, reach_staked_level, wipe
from tests.support.server import ServeProcess
from tests.support.waiting import eventually

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.parametrize("backend", ["services"] if backends.SERVICES else [])]

ROOT = Path(__file__).resolve().parents[2]
LEASE = 2.0
STAKE = 100
NODES = ("n1", "n2", "n3")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """Three nodes on one database and one Redis, behind HAProxy."""

    def __init__(self, root: Path, env: dict[str, str]):
        self.root = root
        self.env = env
        self.nodes: dict[str, ServeProcess] = {}
        self.haproxy: subprocess.Popen | None = None
        self.url = ""
        self.starts = 0

    async def start_node(self, name: str) -> ServeProcess:
        self.starts += 1
        workdir = self.root / f"{name}-{self.starts}"
        workdir.mkdir()
        env = {**self.env, "DATA_DIR": str(workdir / "data"), "NODE_NAME": name}
        self.nodes[name] = await asyncio.to_thread(ServeProcess, workdir, env=env)
        return self.nodes[name]

    def start_haproxy(self) -> None:
        if shutil.which("haproxy") is None:
            raise RuntimeError("haproxy is not installed (apt-get install -y haproxy; .ci/run does it)")
        port = free_port()
        path = self.root / "haproxy.cfg"
        path.write_text(render(f"127.0.0.1:{port}",
                               {name: self.nodes[name].url.removeprefix("http://") for name in NODES}))
        self._haproxy_log = open(self.root / "haproxy.log", "w")  # noqa: SIM115 (closed in stop)
        self.haproxy = subprocess.Popen(["haproxy", "-f", str(path), "-db"], stdout=subprocess.DEVNULL,
                                        stderr=self._haproxy_log)
        self.url = f"http://127.0.0.1:{port}"

    def readyz(self, name: str) -> dict[str, Any]:
        return httpx.get(f"{self.nodes[name].url}/readyz", timeout=5).json()

    def stop(self) -> None:
        for server in self.nodes.values():
            if server.process.poll() is None:
                os.kill(server.process.pid, signal.SIGCONT)
                server.stop(signal.SIGKILL, timeout=10)
        if self.haproxy is not None:
            self.haproxy.kill()
            self.haproxy.wait()
            self._haproxy_log.close()


@pytest.fixture
async def cluster(settings, tmp_path):
    async with open_runtime(settings) as runtime:
        await wipe(runtime)
    env = {
        "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url, "SECRET_KEY": "cluster-test-secret",
        "OWNER_LEASE_SECONDS": str(LEASE), "BOT_DELAY_MIN_SECONDS": "0", "BOT_DELAY_MAX_SECONDS": "0",
        "SNAPSHOT_SECONDS": "1", "LOG_LEVEL": "INFO", "MATCHMAKING_TICK_SECONDS": "0.05",
        "ARGON2_MEMORY_KIB": str(settings.argon2_memory_kib), "FORWARDED_ALLOW_IPS": "127.0.0.1",
        "SIGNUP_RATE_PER_ADDRESS": "1000",  # every player of the test signs up from 127.0.0.1
    }
    running = Cluster(tmp_path, env)
    try:
        for name in NODES:
            await running.start_node(name)
        running.start_haproxy()
        await eventually(lambda: _through_haproxy(running.url), timeout=20)
        yield running
    finally:
        running.stop()


def _through_haproxy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


class Player:
    """A player through HAProxy, on the node of their choice, reconnecting like the browser does."""

    def __init__(self, cluster: Cluster, name: str, node: str):
        self.client = TablestakesClient(cluster.url)
        self.client.auto_reconnect = True
        self.name = name
        self.node = node
        self.latencies: list[float] = []

    async def start(self, settings: Any) -> None:
        await self.client.register(self.name, PASSWORD)
        async with open_runtime(settings) as runtime:
            await reach_staked_level(runtime, self.client.user["id"])
        assert await self.client.connect(node=self.node) is not None

    def state(self, table_id: str) -> Any:
        return self.client.tables[table_id]

    async def act(self, table_id: str, action: dict) -> None:
        started = time.perf_counter()
        await self.client.act(table_id, action)
        self.latencies.append(time.perf_counter() - started)


async def staked_table(settings: Any, cluster: Cluster, names: tuple[str, str], nodes: tuple[str, str]
                       ) -> tuple[list[Player], str]:
    players = [Player(cluster, name, node) for name, node in zip(names, nodes)]
    for player in players:
        await player.start(settings)
        await player.client.request({"type": "queue", "game": "pika", "seats": 2, "mode": "staked",
                                     "stake": STAKE})

    def matched(player: Player) -> list[dict]:
        return [n["data"] for n in player.client.notices
                if n["type"] == "matchmaking" and n["data"]["event"] == "matched"]

    for player in players:
        await player.client.wait_for(lambda p=player: bool(matched(p)))
    table_id = matched(players[0])[-1]["table_id"]
    for player in players:
        await player.client.join(table_id)
    return players, table_id


async def play(players: list[Player], table_id: str, moves: int | None = None) -> None:
    """Players move (easy bot choices) until `moves` were made, or the game is over."""
    bots = {p.name: get_game("pika").bots["easy"](p.state(table_id).seat, random.Random(p.name)) for p in players}
    made = 0
    while moves is None or made < moves:
        if all(p.state(table_id).over for p in players):
            return
        moved = False
        for player in players:
            state = player.state(table_id)
            if state.legal and not state.over:
                action = bot_chooser(bots[player.name])(state)
                if action is None:
                    continue
                try:
                    await player.act(table_id, action)
                    made += 1
                    moved = True
                except Exception:
                    await asyncio.sleep(0.2)  # the table is moving, or the move was overtaken: look again
                break
        if not moved:
            await asyncio.sleep(0.05)


async def owner_of(settings: Any, table_id: str) -> tuple[str, str]:
    """(owner incarnation, its node name), read from the database."""
    async with open_runtime(settings) as runtime:
        async with runtime.reader() as session:
            owner = (await session.get(LiveTable, table_id)).owner
            node = await session.get(ClusterNode, owner)
    return owner, node.name


async def audit(settings: Any, table_id: str) -> dict[str, int]:
    async with open_runtime(settings) as runtime:
        async with runtime.reader() as session:
            totals = await runtime.ledger.totals(session)
            keys = list(await session.scalars(select(LedgerTransaction.key).where(
                LedgerTransaction.key.like(f"%:{table_id}:%"))))
            pot = await session.scalar(select(LedgerAccount.balance).where(LedgerAccount.name == f"pot:{table_id}"))
            record = await session.get(GameRecord, table_id)
    assert totals.balances == totals.entries and totals.lowest_balance >= 0, totals
    return {"drift": totals.balances - totals.entries, "payouts": sum(k.startswith("pot:") for k in keys),
            "refunds": sum(k.startswith("refund:") for k in keys), "pot": pot or 0, "records": int(record is not None)}


async def test_three_nodes_behind_haproxy_survive_a_kill_a_pause_and_a_drain(settings, cluster):
    report: list[str] = []

    # --- two players on two nodes; the table is played by one of them, the other's moves are relayed --------
    players, table_id = await staked_table(settings, cluster, ("ada", "bob"), ("n1", "n2"))
    await play(players, table_id, moves=10)
    owner, owner_name = await owner_of(settings, table_id)
    local = [p for p in players if p.node == owner_name]
    relayed = [p for p in players if p.node != owner_name]
    assert local and relayed and cluster.readyz(relayed[0].node)["relayed_in"] > 0
    report.append(f"move -> ack: local p50 {statistics.median(local[0].latencies) * 1000:.1f} ms, relayed p50 "
                  f"{statistics.median(relayed[0].latencies) * 1000:.1f} ms")

    # --- 1. SIGKILL the owner mid-game ---------------------------------------------------------------------
    seen = {p.name: p.state(table_id).version for p in players}
    received_before = {p.name: len(p.client.received) for p in players}
    survivors = {p.name: p.client.reconnections for p in players if p.node != owner_name}
    killed_at = time.perf_counter()
    cluster.nodes[owner_name].stop(signal.SIGKILL)
    await eventually(lambda: _moved(settings, table_id, owner), timeout=LEASE + 10)
    adopted_after = time.perf_counter() - killed_at
    await eventually(lambda: all(p.state(table_id).received_at > killed_at for p in players), timeout=20)
    first_update = max(p.state(table_id).received_at for p in players) - killed_at
    for player in players:  # both resumed where they were: a catch-up from the version they had (none lost)
        assert player.state(table_id).version >= seen[player.name]
    rolled_back = sum(1 for p in players
                      if _resumed_below(p.client.received[received_before[p.name]:], table_id, seen[p.name]))
    await play(players, table_id)
    dropped = sum(p.client.reconnections - survivors[p.name] for p in players if p.name in survivors)
    after = await audit(settings, table_id)
    assert after == {"drift": 0, "payouts": 1, "refunds": 0, "pot": 0, "records": 1}
    assert dropped == 0 and rolled_back == 0
    report.append(f"kill: adopted {adopted_after:.1f} s after the kill, first update to both players after "
                  f"{first_update:.1f} s; sockets dropped on surviving nodes {dropped}; actions rolled back "
                  f"{rolled_back}; payouts {after['payouts']}, refunds {after['refunds']}, drift {after['drift']}")
    await cluster.start_node(owner_name)  # the node comes back, as an operator would restart it
    await eventually(lambda: _through_haproxy(cluster.url), timeout=20)

    # --- 2. SIGSTOP an owner past its lease, then SIGCONT: its writes are refused --------------------------
    players2, table2 = await staked_table(settings, cluster, ("cyd", "dee"), ("n1", "n3"))
    await play(players2, table2, moves=6)
    owner2, name2 = await owner_of(settings, table2)
    stale = cluster.nodes[name2]
    os.kill(stale.process.pid, signal.SIGSTOP)
    try:
        await eventually(lambda: _moved(settings, table2, owner2), timeout=LEASE + 10)
        await play(players2, table2)
    finally:
        os.kill(stale.process.pid, signal.SIGCONT)
    await eventually(lambda: cluster.readyz(name2)["fenced_writes"] >= 1 and cluster.readyz(name2)["tables"] == 0,
                     timeout=30)
    refused = cluster.readyz(name2)["fenced_writes"]
    after = await audit(settings, table2)
    assert after == {"drift": 0, "payouts": 1, "refunds": 0, "pot": 0, "records": 1}
    report.append(f"pause: the woken owner's writes refused {refused}; payouts {after['payouts']}, "
                  f"refunds {after['refunds']}, drift {after['drift']}")

    # --- 3. SIGTERM (drain) the owner of a table: it moves, its players go on -------------------------------
    players3, table3 = await staked_table(settings, cluster, ("eve", "fay"), ("n2", "n3"))
    await play(players3, table3, moves=6)
    owner3, name3 = await owner_of(settings, table3)
    drained_at = time.perf_counter()
    assert cluster.nodes[name3].stop(signal.SIGTERM, timeout=60) == 0
    await eventually(lambda: _moved(settings, table3, owner3), timeout=20)
    moved_after = time.perf_counter() - drained_at
    await play(players3, table3)
    after = await audit(settings, table3)
    assert after == {"drift": 0, "payouts": 1, "refunds": 0, "pot": 0, "records": 1}
    report.append(f"drain: the table moved {moved_after:.1f} s after SIGTERM (the process ended cleanly); "
                  f"payouts {after['payouts']}, refunds {after['refunds']}, drift {after['drift']}")

    print("\n" + "\n".join(report))
    for player in [*players, *players2, *players3]:
        await player.client.close()


async def _moved(settings: Any, table_id: str, old_owner: str) -> bool:
    async with open_runtime(settings) as runtime:
        async with runtime.reader() as session:
            row = await session.get(LiveTable, table_id)
    return row is not None and row.owner not in (None, old_owner)


def _resumed_below(received: list[dict], table_id: str, seen: int) -> bool:
    """True if a full message among these put the table back before the version the player had seen."""
    return any(m.get("table") == table_id and m["type"] in ("sync", "catch_up") and m["version"] < seen
               for m in received)


async def test_a_spectator_on_another_node_watches_a_staked_game_through_the_relay(settings, cluster):
    """docs/protocol.md, "Spectators": a join without a seat is checked on the node the socket reached and relayed
    to the owner, which sends the spectator view only; the spectator cannot act there either."""
    players, table_id = await staked_table(settings, cluster, ("gus", "hal"), ("n1", "n2"))
    _, owner_name = await owner_of(settings, table_id)
    elsewhere = next(name for name in NODES if name != owner_name)
    fan = TablestakesClient(cluster.url)
    await fan.register("fan", PASSWORD)
    assert await fan.connect(node=elsewhere) is not None
    try:
        assert (await fan.join(table_id))["seat"] is None  # a public (staked) table: anyone may watch it
        await fan.wait_for(lambda: table_id in fan.tables)
        with pytest.raises(Exception) as refused:
            await fan.act(table_id, {"type": "draw"})
        assert getattr(refused.value, "code", None) == "spectators_cannot_act"
        await players[0].client.wait_for(lambda: players[0].state(table_id).info.get("spectators") == 1)
        await play(players, table_id)
        await fan.wait_for(lambda: fan.tables[table_id].over)
        watched = fan.tables[table_id]
        assert watched.private == {} and watched.legal == [] and watched.seat is None
        assert watched.public == players[0].state(table_id).public
        assert cluster.readyz(elsewhere)["relayed_in"] > 0  # the fan's socket is not on the owner
    finally:
        await fan.close()
        for player in players:
            await player.client.close()
