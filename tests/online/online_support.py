"""Helpers shared by the online-play tests (rootdir-relative import: tests.online.online_support)."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Outcome
from app.ledger.service import pot_account_name
from app.ledger import repository as ledger_repo
from app.runtime import Runtime
from app.tables.actor import Seat
from app.tables.models import LiveTable


@dataclass
class _Over:
    placings: list[int]

    def outcome(self) -> Outcome:
        return Outcome(list(self.placings), None)


@dataclass
class PlayedTable:
    """What TableStore.finish reads of a table, for a game whose result a test decides."""

    id: str
    seats: list[Seat]
    mode: str
    placings: list[int] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    game_name: str = "pika"
    options: dict[str, Any] = field(default_factory=dict)
    seed_hex: str = "00"
    action_log: list[Any] = field(default_factory=list)
    status: str = "playing"
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    epoch: int = 1

    @property
    def game(self) -> _Over:
        return _Over(self.placings)

    def seat_of(self, user_id: int | None) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user_id is not None and s.user_id == user_id), None)

    async def stop(self) -> None:
        return None


def human(user: Any, *, left: bool = False) -> Seat:
    # platform.md: a seat a bot played for more than half of the player's turns counts as having left
    return Seat("human", user.username, user_id=user.id, human_turns=1 if left else 3, covered_turns=2 if left else 0)


def simulated(number: int = 1) -> Seat:
    return Seat("bot", f"Sim {number}")


def new_id() -> str:
    return uuid.uuid4().hex


async def finish(store: Any, table: PlayedTable) -> dict[int, dict[str, Any]]:
    """Settle a table whose result the test decides, as its owner does: its live row (owned by the store's node, at
    the table's epoch) is made first if it is not there, since every settlement is fenced on that row."""
    runtime = store.runtime
    async with runtime.transaction() as session:
        if await session.get(LiveTable, table.id) is None:
            now = runtime.clock.now()
            session.add(LiveTable(id=table.id, game=table.game_name, mode=table.mode, status="playing", version=0,
                                  state={}, table={}, seed="00", created_at=now, updated_at=now,
                                  owner=store.node_id, owner_epoch=table.epoch))
    return await store.finish(table)


class Inbox:
    """A socket stand-in registered with the hub: it keeps every message sent to its user."""

    def __init__(self, user_id: int):
        self.id = uuid.uuid4().hex
        self.user_id = user_id
        self.messages: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def events(self) -> list[str]:
        return [m["data"]["event"] for m in self.messages if m["type"] == "matchmaking"]

    def last(self, event: str) -> dict[str, Any]:
        return [m["data"] for m in self.messages if m["type"] == "matchmaking" and m["data"]["event"] == event][-1]


class TableRecorder:
    """A table factory for the matchmaker that records the tables it is asked for instead of starting games. Given
    the app, it does what TableManager.create does around the game: a saved snapshot row, and the node's table list."""

    def __init__(self, app: Any = None, *, fail: bool = False):
        self.app = app
        self.tables: list[PlayedTable] = []
        self.fail = fail

    async def __call__(self, *, game: str, seats: list[Seat], mode: str, meta: dict[str, Any], table_id: str,
                       **_: Any) -> PlayedTable:
        if self.fail:
            raise RuntimeError("the table could not be created")
        table = PlayedTable(id=table_id, seats=seats, mode=mode, meta=meta, game_name=game)
        if self.app is not None:
            runtime = self.app.state.runtime
            async with runtime.transaction() as session:
                now = runtime.clock.now()
                # Owned by this (live) node, so its adoption loop leaves it alone.
                session.add(LiveTable(id=table_id, game=game, mode=mode, status="playing", version=0, state={},
                                      table={}, seed="00", created_at=now, updated_at=now,
                                      owner=self.app.state.realtime.tables.node_id, owner_epoch=table.epoch))
            self.app.state.realtime.tables.tables[table_id] = table
        self.tables.append(table)
        return table


async def balance_of(runtime: Runtime, user_id: int) -> int:
    async with runtime.sessionmaker() as session:
        return await runtime.ledger.balance(session, await runtime.ledger.wallet_id(session, user_id))


async def pot_of(runtime: Runtime, table_id: str) -> int:
    async with runtime.sessionmaker() as session:
        account_id = await ledger_repo.account_id_by_name(session, pot_account_name(table_id))
        return 0 if account_id is None else int(await ledger_repo.balance(session, account_id) or 0)


async def assert_ledger_consistent(runtime: Runtime) -> None:
    """design.md, "Money": sum of balances == sum of entries, and nobody below zero."""
    async with runtime.sessionmaker() as session:
        totals = await runtime.ledger.totals(session)
    assert totals.balances == totals.entries, totals
    assert totals.lowest_balance >= 0, totals
