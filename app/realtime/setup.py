"""Wiring the live layers into the app: the hub, the table manager, rooms and online play (their routes and the /ws
socket are mounted with every other route in app/main.py)."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import FastAPI

from app.online.league import LeagueService
from app.online.service import OnlinePlay, online_settlement
from app.online.shop import ShopService
from app.online.stakes import StakeLedger
from app.ratings.service import RatingService
from app.realtime import protocol
from app.realtime.cluster import Cluster
from app.realtime.hub import Hub
from app.realtime.service import Realtime
from app.rooms.service import RoomService
from app.tables.actor import TableTiming
from app.tables.manager import TableManager
from app.tables.rematch import RematchService
from app.tables import tokens
from app.tables.ownership import NodeIdentity, Ownership
from app.tables.store import TableStore

if TYPE_CHECKING:
    from app.config import Settings
    from app.runtime import Runtime


def table_timing(settings: Settings) -> TableTiming:
    return TableTiming(
        turn_seconds=settings.turn_timer_seconds,
        grace_seconds=settings.disconnect_grace_seconds,
        bot_delay_seconds=(settings.bot_delay_min_seconds, settings.bot_delay_max_seconds),
        snapshot_seconds=settings.snapshot_seconds,
        practice_idle_seconds=settings.practice_idle_seconds,
    )


@asynccontextmanager
async def open_realtime(app: FastAPI, runtime: Runtime) -> AsyncIterator[Realtime]:
    """Start the live layers on an open runtime; resume unfinished tables; stop them all on the way out."""
    settings = runtime.settings
    shop = ShopService(settings, runtime.clock, runtime.ledger)
    league = LeagueService(settings, runtime.clock, runtime.ledger)
    stakes = StakeLedger(runtime.ledger)
    ratings = RatingService(runtime.clock)
    # Boosts multiply prizes, online tables add league points and move ratings, cancelled staked tables refund their
    # stakes.
    store = TableStore(runtime, online_settlement(shop, league, stakes, ratings))
    ownership = Ownership(runtime, NodeIdentity.new(settings.node_name or None), settings.owner_lease_seconds,
                          tokens.key_fingerprint(runtime.secret_key))
    tables = TableManager(runtime, store, table_timing(settings), ownership)
    cluster = Cluster(runtime.redis, ownership.node_id, alone=settings.redis_in_process)
    hub = Hub(runtime.redis, ownership.node_id, cluster)
    online = OnlinePlay(runtime, tables, hub, shop=shop, league=league, stakes=stakes, ratings=ratings)
    realtime = Realtime(hub, tables, online, cluster, runtime.secret_key)
    online.matchmaking.create_table = realtime.create_table  # a new table goes to its players' node
    hub.housekeeping_hooks.append(realtime.prune_remote_listeners)
    hub.housekeeping_hooks.append(online.matchmaking.release_seats_of_gone_nodes)  # queued from a node that died
    app.state.realtime = realtime
    app.state.rooms = RoomService(runtime)
    realtime.rematch = RematchService(runtime, realtime, app.state.rooms)
    online.tick_hooks.append(realtime.rematch.tick)  # a rematch's wait runs out on the online loop's tick
    online.housekeeping_hooks.append(functools.partial(app.state.rooms.close_idle_rooms, hub))
    app.state.online = online
    runtime.accounts.session_end_listeners.append(realtime.close_sessions)
    await cluster.start()  # this node's channel to the others (relays, notices), before any table is adopted
    await tables.start()  # this node's heartbeat, and the tables of nodes that are gone (a restart's own)
    await online.start()  # matchmaking's fill times and the league's weeks, in one background loop
    hub.start(runtime.accounts.ended_sessions)  # one timer for every socket: sessions re-checked, presence kept
    try:
        yield realtime
    finally:
        runtime.accounts.session_end_listeners.remove(realtime.close_sessions)
        await online.stop()
        await hub.stop()
        if not realtime.draining:
            await hub.close_all(protocol.CLOSE_GOING_AWAY, "server shutting down")
        await tables.shutdown()
        await cluster.stop()
