"""A socket that follows a table through another node keeps following it when that node dies and a move is sent
before the table is adopted: the failed relay tells it `table_moved`, it joins again once a node has adopted the
table, and it goes on playing and hearing every move (issue 17; found by a crash probe, where such a player was
left acting at the new owner without receiving its updates).

Two real `tablestakes serve` nodes on PostgreSQL and Redis, no balancer: each player talks to one node directly.
The lease is longer than a relayed request's timeout, so the move surely fails before anyone adopts the table.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from app.client import ClientError, TablestakesClient
from app.realtime.cluster import REQUEST_SECONDS
from app.runtime import open_runtime
from tests.support import backends
from tests.support.harness import PASSWORD, wipe
from tests.support.server import ServeProcess

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.parametrize("backend", ["services"] if backends.SERVICES else [])]

LEASE = REQUEST_SECONDS + 3.0


@pytest.fixture
async def two_nodes(settings, tmp_path):
    async with open_runtime(settings) as runtime:
        await wipe(runtime)
    env = {
        "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url, "SECRET_KEY": "relay-test-secret",
        "OWNER_LEASE_SECONDS": str(LEASE), "BOT_DELAY_MIN_SECONDS": "0", "BOT_DELAY_MAX_SECONDS": "0",
        "ARGON2_MEMORY_KIB": str(settings.argon2_memory_kib), "SIGNUP_RATE_PER_ADDRESS": "1000",
    }
    nodes = []
    try:
        for name in ("r1", "r2"):
            workdir = tmp_path / name
            workdir.mkdir()
            nodes.append(await asyncio.to_thread(
                ServeProcess, workdir, env={**env, "DATA_DIR": str(workdir / "data"), "NODE_NAME": name}))
        yield nodes
    finally:
        for node in nodes:
            node.stop(signal.SIGKILL, timeout=10)


async def test_a_move_relayed_to_a_dead_owner_makes_the_socket_join_again_at_the_adopting_node(two_nodes):
    owner_node, other_node = two_nodes
    host = TablestakesClient(owner_node.url)
    guest = TablestakesClient(other_node.url)
    try:
        await host.register("RelayHost", PASSWORD)
        await guest.register("RelayGuest", PASSWORD)
        await host.connect()
        await guest.connect()
        room = await host.post("/api/rooms", {"game": "pika", "seats": 2, "options": {}, "turn_seconds": 120})
        invitation = await host.post(f"/api/rooms/{room['id']}/invitations", {"username": "RelayGuest"})
        await guest.post(f"/api/invitations/{invitation['id']}/accept")
        table_id = (await host.post(f"/api/rooms/{room['id']}/start"))["table_id"]  # played by the host's node
        await host.join(table_id)
        await guest.join(table_id)
        seen = guest.tables[table_id]
        assert seen.node == "r1"

        owner_node.stop(signal.SIGKILL, timeout=10)
        # Relayed to the dead owner: no answer within the relay's timeout, and no node has adopted the table yet.
        with pytest.raises(ClientError) as refused:
            await guest.act(table_id, {"type": "reorder", "hand": list(seen.view["hand"])})
        assert refused.value.code == "table_unavailable"
        assert any(e.get("code") == "table_moved" and e.get("table") == table_id for e in guest.errors)

        # The client joins again by itself once the surviving node has adopted the table, from its last version.
        await guest.wait_for(lambda: guest.tables[table_id].node == "r2", timeout=LEASE + 15)
        state = guest.tables[table_id]
        before = state.version
        hand = list(state.view["hand"])
        await guest.act(table_id, {"type": "reorder", "hand": hand[::-1]})
        # The move's update reached this socket: it follows the table at its new owner.
        await guest.wait_for(lambda: state.version > before and state.view["hand"] == hand[::-1], timeout=10)
    finally:
        await guest.close()
        await host.close()
