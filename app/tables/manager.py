"""The live tables of this node: creating them, finding them, resuming them after a restart, dropping them when done."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from dataclasses import replace
from typing import Any

from app.games.registry import get_game
from app.games.rng import HashRandom, new_seed
from app.tables.actor import EVENT_BUFFER, Seat, TableActor, TableTiming
from app.tables.store import TableStore

log = logging.getLogger(__name__)

JANITOR_SECONDS = 30.0


def new_table_id() -> str:
    return uuid.uuid4().hex


class TableManager:
    def __init__(self, runtime: Any, store: TableStore, timing: TableTiming):
        self.runtime = runtime
        self.store = store
        self.timing = timing
        self.tables: dict[str, TableActor] = {}
        self._finished_at: dict[str, float] = {}
        self._janitor: asyncio.Task | None = None
        self.listeners: list[Any] = []  # called with each new table (rooms and matchmaking tell their players)

    async def create(
        self,
        *,
        game: str,
        seats: list[Seat],
        mode: str,
        options: dict[str, Any] | None = None,
        timing: TableTiming | None = None,
        meta: dict[str, Any] | None = None,
        table_id: str | None = None,
    ) -> TableActor:
        game_cls = get_game(game)
        options = game_cls.check_options(len(seats), options)
        seed = new_seed()
        engine = game_cls.create(len(seats), options, HashRandom(seed))
        table = TableActor(
            table_id=table_id or new_table_id(),
            game=engine,
            seats=seats,
            mode=mode,
            timing=timing or self.timing,
            hooks=self.store,
            seed_hex=seed.hex(),
            options=options,
            meta={**(meta or {}), "started_at": self.runtime.clock.now().isoformat()},
        )
        await self.store.snapshot(table)  # the deal is a status change: it is on disk before anyone plays
        self._adopt(table)
        return table

    def get(self, table_id: str) -> TableActor | None:
        return self.tables.get(table_id)

    def tables_of(self, user_id: int) -> list[TableActor]:
        return [t for t in self.tables.values() if t.seat_of(user_id) is not None]

    def _adopt(self, table: TableActor) -> None:
        self.tables[table.id] = table
        table.start()
        asyncio.get_running_loop().create_task(self._watch(table))
        if self._janitor is None:
            self._janitor = asyncio.get_running_loop().create_task(self._sweep())

    async def _watch(self, table: TableActor) -> None:
        await table.finished.wait()
        self._finished_at[table.id] = time.monotonic()

    async def _sweep(self) -> None:
        """Stop finished tables once nobody needs their results screen any more."""
        while True:
            await asyncio.sleep(JANITOR_SECONDS)
            now = time.monotonic()
            for table_id, finished in list(self._finished_at.items()):
                table = self.tables.get(table_id)
                if table is None or now - finished >= table.timing.linger_seconds:
                    self._finished_at.pop(table_id, None)
                    gone = self.tables.pop(table_id, None)
                    if gone is not None:
                        await gone.stop()

    async def restore(self) -> int:
        """Resume every unfinished table from its last snapshot (after a restart). Returns how many."""
        restored = 0
        for row in await self.store.unfinished():
            if row.id in self.tables:
                continue
            try:
                table = self._from_snapshot(row)
            except Exception:
                log.exception("could not restore table %s", row.id)
                continue
            self._adopt(table)
            restored += 1
        return restored

    def _from_snapshot(self, row: Any) -> TableActor:
        data = row.table
        game = get_game(row.game).from_state(row.state)
        timing_data = dict(data["timing"])
        timing_data["bot_delay_seconds"] = tuple(timing_data["bot_delay_seconds"])
        timing = replace(self.timing, **{k: v for k, v in timing_data.items() if hasattr(self.timing, k)})
        seats = [Seat(**seat) for seat in data["seats"]]
        return TableActor(
            table_id=row.id,
            game=game,
            seats=seats,
            mode=data["mode"],
            timing=timing,
            hooks=self.store,
            seed_hex=row.seed,
            options=data["options"],
            # Events after the snapshot may have reached clients and are lost: jump past anything they could hold,
            # so every reconnecting client gets a full view instead of a catch-up that does not fit.
            version=data["version"] + EVENT_BUFFER + 1,
            action_log=data["action_log"],
            status="playing",
            rewards={},
            meta=data.get("meta", {}),
        )

    async def shutdown(self) -> None:
        if self._janitor is not None:
            self._janitor.cancel()
            self._janitor = None
        await asyncio.gather(*(table.stop() for table in self.tables.values()), return_exceptions=True)
        self.tables.clear()
