"""Crash-safe tables (issue 16), with real `tablestakes serve` processes on one database:

- a SIGKILLed server, started again, resumes its staked table at exactly the version its players saw, draws no card
  again, finishes the game and pays the pot once;
- a second server adopts nothing while the first is alive, and adopts its table within the lease once it is killed;
- an owner paused past its lease (SIGSTOP) finds, once woken, every write refused: the adopter alone plays,
  records and pays the game.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections import deque
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.client import TablestakesClient, bot_chooser
from app.games.registry import get_game
from app.games.rng import HashRandom
from app.ledger.models import LedgerAccount, LedgerTransaction
from app.runtime import Runtime, open_runtime
from app.tables.actor import LogEntry, Seat, TableActor
from app.tables.models import ClusterNode, GameRecord, LiveTable, TableAction
from tests.support import backends
from tests.support.harness import PASSWORD, reach_staked_level, wipe
from tests.support.server import ServeProcess
from tests.support.waiting import eventually

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LEASE = 2.0  # seconds: short, so adoption after a crash is quick to test
STAKE = 100


@pytest.fixture
async def shared(settings, backend, tmp_path):
    """The database (and Redis) the test's servers share, empty; and their environment."""
    if backend == "services":
        async with open_runtime(settings) as runtime:
            await wipe(runtime)
    env = {
        "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url, "SECRET_KEY": "crash-test-secret",
        "OWNER_LEASE_SECONDS": str(LEASE), "BOT_DELAY_MIN_SECONDS": "0", "BOT_DELAY_MAX_SECONDS": "0",
        "SNAPSHOT_SECONDS": "1", "LOG_LEVEL": "INFO", "MATCHMAKING_TICK_SECONDS": "0.05",
        "ARGON2_MEMORY_KIB": str(settings.argon2_memory_kib),
    }
    return settings, env


class Servers:
    """`tablestakes serve` processes on one database, each in a folder of its own (its log is there)."""

    def __init__(self, root: Path, env: dict[str, str]):
        self.root = root
        self.env = env
        self.started: list[ServeProcess] = []
        self.refused = 0

    async def start(self, name: str) -> ServeProcess:
        workdir = self.root / f"{name}-{len(self.started) + self.refused}"
        workdir.mkdir()
        env = {**self.env, "DATA_DIR": str(workdir / "data"), "NODE_NAME": name}
        try:
            server = await asyncio.to_thread(ServeProcess, workdir, env=env)
        except RuntimeError:
            self.refused += 1
            raise
        self.started.append(server)
        return server

    def stop_all(self) -> None:
        for server in self.started:
            if server.process.poll() is None:
                os.kill(server.process.pid, signal.SIGCONT)
                server.stop(signal.SIGKILL, timeout=10)


@pytest.fixture
async def servers(shared, tmp_path):
    _, env = shared
    running = Servers(tmp_path, env)
    try:
        yield running
    finally:
        running.stop_all()


async def staked_pair(settings: Any, url: str) -> tuple[list[TablestakesClient], str]:
    """Two players at a staked Pika table of two on the server at `url`, both joined."""
    clients = []
    for name in ("ada", "bob"):
        client = TablestakesClient(url)
        await client.register(name, PASSWORD)
        async with open_runtime(settings) as runtime:
            await reach_staked_level(runtime, client.user["id"])
        await client.connect()
        clients.append(client)
    for client in clients:
        await client.request({"type": "queue", "game": "pika", "seats": 2, "mode": "staked", "stake": STAKE})

    def matched(client: TablestakesClient) -> list[dict]:
        return [n["data"] for n in client.notices if n["type"] == "matchmaking" and n["data"]["event"] == "matched"]

    for client in clients:
        await client.wait_for(lambda c=client: bool(matched(c)))
    table_id = matched(clients[0])[0]["table_id"]
    for client in clients:
        await client.join(table_id)
    return clients, table_id


def chooser(client: TablestakesClient, table_id: str) -> Any:
    return bot_chooser(get_game("pika").bots["easy"](client.tables[table_id].seat, random.Random(client.user["id"])))


def near_the_end(state: Any) -> bool:
    """A hand is down to two cards: the next moves might end the game (the random deal decides when)."""
    return min(state.view["hand_counts"]) <= 2


async def play_moves(clients: list[TablestakesClient], table_id: str, moves: int) -> None:
    """The players make up to `moves` moves between them (whoever may act), as a client does, and at least one;
    they stop early once the game could end on the next moves, so the crash always comes mid-game."""
    made = 0
    while made < moves and not (made and near_the_end(clients[0].tables[table_id])):
        for client in clients:
            state = client.tables[table_id]
            assert not state.over, "the game ended before the crash"
            if state.legal:
                action = chooser(client, table_id)(state)
                if action is not None:
                    await client.act(table_id, action)
                    made += 1
                    break
        else:
            await clients[0].wait_for(lambda: any(c.tables[table_id].legal for c in clients), timeout=10)
    # A move is answered on its own socket; the other players' sockets get it at the same time, but read it apart.
    await clients[0].wait_for(lambda: len({c.tables[table_id].version for c in clients}) == 1, timeout=10)


async def follow(url: str, old: TablestakesClient, table_id: str) -> TablestakesClient:
    """The same player on another server: the same session cookie, the table joined from the last version seen."""
    client = TablestakesClient(url)
    client.user = old.user
    client.http.cookies.set("ts_session", old.session_cookie)
    await client.connect()
    client.tables[table_id] = old.tables[table_id]  # what this player has seen so far
    return client


def resumed_at(client: TablestakesClient, table_id: str) -> int:
    """The version the resumed table was at for this player: the first table message after joining again is a
    catch_up from the version the player named (a table that had rolled back would answer a sync instead), and
    what it catches up on is only the other players arriving."""
    first = next(m for m in client.received if m.get("table") == table_id and m["type"] in ("catch_up", "sync"))
    assert first["type"] == "catch_up", first["type"]
    assert all(event["type"] == "seat_connected" for event in first["events"]), first["events"]
    return first["since"]


async def finish(clients: list[TablestakesClient], table_id: str) -> dict:
    results = await asyncio.gather(*(c.play(table_id, chooser(c, table_id)) for c in clients))
    return results[0].info


async def events_of_the_log(settings: Any, table_id: str) -> tuple[dict[tuple[int, int], dict], GameRecord]:
    """Every event of the table as each seat may see it, by (seat, version), rebuilt from its seed and its log."""
    async with open_runtime(settings) as runtime:
        async with runtime.sessionmaker() as session:
            record = await session.get(GameRecord, table_id)
            rows = list(await session.scalars(select(TableAction).where(TableAction.table_id == table_id)
                                              .order_by(TableAction.seq)))
    assert record is not None
    game = get_game(record.game).create(len(record.seats), record.options, HashRandom(bytes.fromhex(record.seed)))
    table = TableActor(table_id=table_id, game=game, mode=record.mode,
                       seats=[Seat(s["kind"], s["name"], user_id=s["user_id"]) for s in record.seats])
    table._events = deque()  # keep them all
    table.replay([LogEntry(r.seat, r.action, r.source, r.version) for r in rows])
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    seen = {}
    for version, event in table._events:
        for seat in range(len(record.seats)):
            seen[(seat, version)] = event.for_seat(seat)
    return seen, record


async def money(settings: Any, table_id: str) -> dict[str, Any]:
    async with open_runtime(settings) as runtime:
        async with runtime.sessionmaker() as session:
            keys = list(await session.scalars(select(LedgerTransaction.key).where(
                LedgerTransaction.key.like(f"%:{table_id}:%"))))
            pot = await session.scalar(select(LedgerAccount.balance).where(LedgerAccount.name == f"pot:{table_id}"))
            records = await session.scalar(select(func.count()).select_from(GameRecord)
                                           .where(GameRecord.id == table_id))
            row = await session.get(LiveTable, table_id)
            totals = await runtime.ledger.totals(session)
    return {"payouts": sum(k.startswith("pot:") for k in keys), "refunds": sum(k.startswith("refund:") for k in keys),
            "stakes": sum(k.startswith("stake:") for k in keys), "pot": pot, "records": records,
            "status": row.status if row else None, "owner": row.owner if row else None,
            "drift": totals.balances - totals.entries}


async def heartbeat_of(runtime: Runtime, node: str) -> float:
    async with runtime.reader() as session:
        return await session.scalar(select(ClusterNode.heartbeat).where(ClusterNode.id == node))


def readyz(server: ServeProcess) -> dict[str, Any]:
    return httpx.get(f"{server.url}/readyz", timeout=10).json()


async def test_a_killed_server_resumes_its_table_where_the_players_were_and_pays_once(shared, servers):
    settings, _ = shared
    first = await servers.start("solo")
    clients, table_id = await staked_pair(settings, first.url)
    await play_moves(clients, table_id, 12)
    seen = {c.user["id"]: (c.tables[table_id].version, list(c.tables[table_id].events)) for c in clients}
    assert len({version for version, _ in seen.values()}) == 1  # both saw every move before the crash
    first.stop(signal.SIGKILL)
    for client in clients:
        await client.close()

    again = await servers.start("solo")  # the same node started again: its table is adopted at once
    back = [await follow(again.url, c, table_id) for c in clients]
    for client in back:
        await client.join(table_id, since=client.tables[table_id].version)
        # Not one accepted move lost: the table resumed at exactly the version this player had seen.
        assert resumed_at(client, table_id) == seen[client.user["id"]][0]
    info = await finish(back, table_id)
    assert info["status"] == "finished"

    # Nothing a player saw was drawn again: each event a player saw before the crash is, version for version, the
    # event the whole log replays to (so the resumed game went on from the same deck, not a re-shuffled one).
    log_events, record = await events_of_the_log(settings, table_id)
    for client in clients:
        seat = client.tables[table_id].seat
        for event in seen[client.user["id"]][1]:
            body = {k: v for k, v in event.items() if k != "version"}
            assert log_events[(seat, event["version"])] == body
    assert record.placings == info["outcome"]["placings"]
    after = await money(settings, table_id)
    assert after == {**after, "payouts": 1, "refunds": 0, "stakes": 2, "pot": 0, "records": 1, "status": "finished",
                     "drift": 0}
    for client in back:
        await client.close()


async def test_a_second_server_adopts_nothing_while_the_owner_lives_and_everything_once_it_is_killed(
        shared, servers, backend):
    settings, _ = shared
    owner = await servers.start("alpha")
    clients, table_id = await staked_pair(settings, owner.url)
    if backend == "embedded":
        # A second process on the same SQLite file, each with its own in-process Redis, would be two servers playing
        # apart: it refuses to start, and the first plays on.
        with pytest.raises(RuntimeError):
            await servers.start("beta")
        log = (servers.root / f"beta-{len(servers.started) + servers.refused - 1}" / "server.log").read_text()
        assert "part of a cluster" in log and "REDIS_URL" in log and "SECRET_KEY" not in log.split("cluster:")[1]
        await play_moves(clients, table_id, 4)
        assert readyz(owner)["tables"] == 1
        for client in clients:
            await client.close()
        return
    other = await servers.start("beta")
    await play_moves(clients, table_id, 6)
    # Beta looks for tables to adopt after each heartbeat (every third of the lease): once its heartbeat has moved on
    # by more than a lease, it has had several looks at alpha's table.
    beta = readyz(other)["node"]
    async with open_runtime(settings) as runtime:
        since = await heartbeat_of(runtime, beta)

        async def several_rounds() -> bool:
            return await heartbeat_of(runtime, beta) > since + LEASE

        await eventually(several_rounds, timeout=10 * LEASE)
    assert readyz(other)["tables"] == 0
    assert (await money(settings, table_id))["owner"] == readyz(owner)["node"]
    version = clients[0].tables[table_id].version

    owner.stop(signal.SIGKILL)
    killed = time.monotonic()
    for client in clients:
        await client.close()
    await eventually(lambda: readyz(other)["tables"] == 1, timeout=LEASE + 8)
    adopted_after = time.monotonic() - killed
    assert adopted_after < LEASE + 5, adopted_after
    assert (await money(settings, table_id))["owner"] == readyz(other)["node"]
    back = [await follow(other.url, c, table_id) for c in clients]
    for client in back:
        await client.join(table_id, since=client.tables[table_id].version)
        assert resumed_at(client, table_id) == version
    info = await finish(back, table_id)
    assert info["status"] == "finished"
    after = await money(settings, table_id)
    assert after == {**after, "payouts": 1, "refunds": 0, "pot": 0, "records": 1, "drift": 0}
    for client in back:
        await client.close()


@pytest.mark.parametrize("backend", ["services"] if backends.SERVICES else [])  # two nodes need a shared Redis
async def test_an_owner_paused_past_its_lease_cannot_write_once_it_wakes(shared, servers):
    settings, _ = shared
    stale = await servers.start("stale")
    clients, table_id = await staked_pair(settings, stale.url)
    adopter = await servers.start("adopter")
    await play_moves(clients, table_id, 6)

    os.kill(stale.process.pid, signal.SIGSTOP)
    try:
        await eventually(lambda: readyz(adopter)["tables"] == 1, timeout=LEASE + 8)
        back = [await follow(adopter.url, c, table_id) for c in clients]
        for client in back:
            await client.join(table_id, since=client.tables[table_id].version)
        info = await finish(back, table_id)
        assert info["status"] == "finished"
    finally:
        os.kill(stale.process.pid, signal.SIGCONT)
    for client in clients:  # the players' old sockets to the woken owner close: it notes their leaving
        await client.close()

    # Awake, the stale owner hears its players left and tries to log it: refused by the epoch, it stops the table.
    await eventually(lambda: readyz(stale)["fenced_writes"] >= 1 and readyz(stale)["tables"] == 0, timeout=20)
    refused = readyz(stale)["fenced_writes"]
    log = (Path(stale.workdir) / "server.log").read_text()
    assert log.count("refused: table") + log.count("log append refused") >= 1
    after = await money(settings, table_id)
    assert after == {**after, "payouts": 1, "refunds": 0, "stakes": 2, "pot": 0, "records": 1, "status": "finished",
                     "drift": 0}
    assert after["owner"] == readyz(adopter)["node"]
    print(f"stale owner: {refused} writes refused")
    for client in back:
        await client.close()
