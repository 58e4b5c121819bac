"""Prometheus metrics (README, "Metrics"): what `GET /metrics` shows, through prometheus-client.

Two kinds:
- Counters and histograms that the code moves as things happen (actions, latencies, bot thinking, ledger posts,
  failed writes, HTTP requests, matchmaking waits). They live in one registry per process (`REGISTRY`): several apps
  in one process (tests) add to the same ones, as a process's metrics should.
- Gauges read when scraped (`Scrape`): this node's live tables and sockets, the players waiting in the matchmaking
  queues (from Redis), the writes refused by fencing. Nothing is kept for them between scrapes.

Cheap on the move path: every child a hot path touches is made once (`ACTIONS[game][source]`), so moving a metric
is a dict look-up and a lock-protected add; no label tuple is built per action. Label values are bounded: games and
sources come from the registry and the actor's list, ledger kinds and HTTP routes from fixed sets (anything else is
"other" / "unmatched").
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Iterator
from typing import Any

from prometheus_client import (CONTENT_TYPE_LATEST, GC_COLLECTOR, PLATFORM_COLLECTOR, PROCESS_COLLECTOR,
                               CollectorRegistry, Counter, Histogram, generate_latest)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from app.games.registry import game_names

__all__ = ["CONTENT_TYPE_LATEST", "REGISTRY", "Scrape", "allowed", "render"]

REGISTRY = CollectorRegistry(auto_describe=True)
for _collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
    REGISTRY.register(_collector)

# app/tables/actor.py SOURCES: who made a log entry (a notice is a table notice, not a move).
ACTION_SOURCES = ("player", "timeout", "away", "bot", "table", "notice")
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A move's broadcast is a few milliseconds: finer steps there, so that its p95 and p99 (bench/load.py prints them,
# the issue's target is a p99 ratio) can be read from the server itself, apart from the clients' own delays.
MOVE_BUCKETS = (0.0005, 0.001, 0.0015, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.01, 0.0125, 0.015, 0.02,
                0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WAIT_BUCKETS = (1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0, 90.0, 120.0, 300.0)
# The first part of a ledger idempotency key says what the post was (app/ledger/service.py callers).
LEDGER_KINDS = ("welcome", "grant", "stake", "refund", "prize", "pot", "league", "shop")
HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

_actions = Counter("tablestakes_actions", "Log entries applied at live tables: moves by who made them (player, "
                   "timeout, away, bot, table) and table notices (notice)", ["game", "source"], registry=REGISTRY)
_broadcast = Histogram("tablestakes_action_broadcast_seconds", "From a person's move arriving at its table to "
                       "every seat having been sent the change (the move logged in the database first)", ["game"],
                       buckets=MOVE_BUCKETS, registry=REGISTRY)
_bot_think = Histogram("tablestakes_bot_think_seconds", "How long a bot took to choose a move (not the human-like "
                       "delay before it)", ["game", "level"], buckets=LATENCY_BUCKETS, registry=REGISTRY)
_mm_wait = Histogram("tablestakes_matchmaking_wait_seconds", "From the first seat taken at a forming table to the "
                     "table formed (outcome formed / bot_filled) or cancelled: the longest wait at that table",
                     ["game", "mode", "outcome"], buckets=WAIT_BUCKETS, registry=REGISTRY)
_ledger_posts = Counter("tablestakes_ledger_transfers", "Ledger posts (one transaction each), by kind (the first "
                        "part of the idempotency key); a retried key that changed nothing is not counted",
                        ["kind"], registry=REGISTRY)
_ledger_coins = Counter("tablestakes_ledger_coins", "Coins moved by ledger posts (each post's credits, or its "
                        "debits when larger: a purchase), by kind",
                        ["kind"], registry=REGISTRY)
_failed_writes = Counter("tablestakes_failed_writes", "Table writes that failed and were retried or given up: "
                         "append (the action log), snapshot, settle (a finished game), cancel", ["kind"],
                         registry=REGISTRY)
_http = Counter("tablestakes_http_requests", "HTTP requests by method, route template and status",
                ["method", "route", "status"], registry=REGISTRY)
_http_seconds = Histogram("tablestakes_http_request_seconds", "HTTP request durations by route template",
                          ["route"], buckets=LATENCY_BUCKETS, registry=REGISTRY)


class _ByGame(dict):
    """game -> the children of one metric for that game, made on first use (a game outside the registry, such as
    the tests' toy game, gets its own)."""

    def __init__(self, make: Any):
        super().__init__()
        self._make = make
        for game in game_names():
            self[game] = make(game)

    def __missing__(self, game: str) -> Any:
        children = self[game] = self._make(game)
        return children


ACTIONS: dict[str, dict[str, Any]] = _ByGame(
    lambda game: {source: _actions.labels(game, source) for source in ACTION_SOURCES})
BROADCAST: dict[str, Any] = _ByGame(lambda game: _broadcast.labels(game))
FAILED_WRITES = {kind: _failed_writes.labels(kind) for kind in ("append", "snapshot", "settle", "cancel")}
_LEDGER = {kind: (_ledger_posts.labels(kind), _ledger_coins.labels(kind)) for kind in (*LEDGER_KINDS, "other")}
_bot_children: dict[type, Any] = {}


def count_ledger_post(key: str, coins_moved: int) -> None:
    """One ledger post went in (app/ledger/service.py)."""
    posts, coins = _LEDGER.get(key.partition(":")[0]) or _LEDGER["other"]
    posts.inc()
    if coins_moved:
        coins.inc(coins_moved)


def bot_thought(bot: Any, seconds: float) -> None:
    """A bot chose a move in `seconds` (app/tables/thinking.py)."""
    child = _bot_children.get(type(bot))
    if child is None:
        module = type(bot).__module__.split(".")
        game = module[2] if module[:2] == ["app", "games"] and len(module) > 2 else "other"
        child = _bot_children[type(bot)] = _bot_think.labels(game, str(getattr(bot, "level", "other")))
    child.observe(seconds)


def matchmaking_waited(game: str, mode: str, outcome: str, seconds: float) -> None:
    _mm_wait.labels(game, mode, outcome).observe(max(0.0, seconds))


def http_request(method: str | None, route: str, status: int | None, seconds: float) -> None:
    method = method if method in HTTP_METHODS else "other"
    _http.labels(method, route, str(status or 500)).inc()
    _http_seconds.labels(route).observe(seconds)


def route_template(scope: dict[str, Any]) -> str:
    """The path template of the route that served a request (`/api/league/{game}`), never the raw path: bounded."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


# --------------------------------------------------------------------------------------------- at scrape time

class Scrape(Collector):
    """The process's registry plus what was read for this scrape."""

    def __init__(self, families: Iterable[Metric]):
        self.families = list(families)

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()
        yield from self.families


async def node_families(app: Any) -> list[Metric]:
    """This node's live tables, sockets and fenced writes, and the matchmaking queues (from Redis)."""
    families: list[Metric] = []
    realtime = getattr(app.state, "realtime", None)
    if realtime is None:
        return families
    tables = GaugeMetricFamily("tablestakes_live_tables", "Tables this node plays now (status playing), by game and "
                               "mode", labels=["game", "mode"])
    counts: dict[tuple[str, str], int] = {}
    failed = 0
    for table in list(realtime.tables.tables.values()):
        if table.status == "playing":
            key = (table.game_name, table.mode)
            counts[key] = counts.get(key, 0) + 1
        elif table.status == "failed":
            failed += 1
    for (game, mode), count in sorted(counts.items()):
        tables.add_metric([game, mode], count)
    families.append(tables)
    families.append(GaugeMetricFamily("tablestakes_failed_tables", "Tables this node could neither save nor cancel "
                                      "yet (it keeps trying)", value=failed))
    families.append(GaugeMetricFamily("tablestakes_sockets", "WebSockets open on this node",
                                      value=len(realtime.hub.connections())))
    families.append(CounterMetricFamily("tablestakes_fenced_writes", "Table writes refused because another node had "
                                        "adopted the table", value=realtime.tables.store.fenced_writes))
    cluster = realtime.cluster
    relayed = CounterMetricFamily("tablestakes_relayed_messages", "Table messages relayed between nodes: in (to "
                                  "sockets here) and out (to sockets elsewhere)", labels=["direction"])
    relayed.add_metric(["in"], cluster.relayed_in if cluster else 0)
    relayed.add_metric(["out"], cluster.relayed_out if cluster else 0)
    families.append(relayed)
    online = getattr(app.state, "online", None)
    if online is not None:
        waiting = GaugeMetricFamily("tablestakes_matchmaking_waiting_players", "Players seated at forming tables, "
                                    "by game and mode (read from Redis: the same on every node)",
                                    labels=["game", "mode"])
        for (game, mode), count in sorted((await queue_lengths(online.matchmaking.matchmaker)).items()):
            waiting.add_metric([game, mode], count)
        families.append(waiting)
    return families


async def queue_lengths(matchmaker: Any) -> dict[tuple[str, str], int]:
    """(game, mode) -> players waiting at that kind of forming table, every size and stake added up (a queue may
    have several forming tables at once: matchmaking by rating, docs/ratings.md)."""
    from app.online.queues import PREFIX

    redis = matchmaker.redis
    keys = [key async for key in redis.scan_iter(match=f"{PREFIX}forming:*", count=500)]
    if not keys:
        return {}
    async with redis.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.zrange(key, 0, -1)
        tables = await pipe.execute()
    async with redis.pipeline(transaction=False) as pipe:
        for table_ids in tables:
            for table_id in table_ids:
                pipe.zcard(f"{PREFIX}members:{_text(table_id)}")
        counts = iter(await pipe.execute())
    lengths: dict[tuple[str, str], int] = {}
    for key, table_ids in zip(keys, tables):
        # the queue's key: game:seats:mode:stake (app/online/queues.py, Queue.key)
        game, _, mode, *_ = _text(key).removeprefix(f"{PREFIX}forming:").split(":") + ["", "", ""]
        waiting = sum(int(next(counts)) for _ in table_ids)
        if game and mode:
            lengths[(game, mode)] = lengths.get((game, mode), 0) + waiting
    return lengths


def allowed(token: str, authorization: str | None) -> bool:
    """METRICS_TOKEN is set and the request carries it as `Authorization: Bearer <token>` (compared in constant
    time)."""
    if not token or not authorization:
        return False
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def render(families: Iterable[Metric]) -> bytes:
    return generate_latest(Scrape(families))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
