"""The tables' storage: snapshots of live tables, and the one place a finished table is recorded and paid.

`finish` runs in one database transaction: the game record, the players' rows, prize coins (through the ledger,
with one idempotency key per player and table), pot shares and XP. If the record already exists the table was
settled before (a retry, a restart): the stored rewards are returned and nothing is paid again.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.games.registry import get_game
from app.tables.actor import TableActor
from app.tables.models import GameRecord, GameRecordPlayer, LiveTable
from app.tables.rewards import Reward, RewardRules, Table, table_rewards


def reward_rules(settings: Any) -> RewardRules:
    return RewardRules(
        payouts={int(k): list(v) for k, v in settings.payouts.items()},
        friends_prize_ratio=settings.friends_prize_ratio,
        xp_by_place=list(settings.xp_by_place),
        xp_for_finishing=settings.xp_for_finishing,
        league_points=list(settings.league_points),
    )


class TableStore:
    """The TableHooks of every live table: snapshots and settlement."""

    def __init__(self, runtime: Any):
        self.runtime = runtime
        # Later layers (shop, league) add what a settlement must also do: multipliers, league points.
        self.multiplier_source: Any = None
        self.settled_listeners: list[Any] = []

    async def snapshot(self, table: TableActor) -> None:
        # Copied before the first await: the table plays on while this waits for the database.
        status, version = table.status, table.version
        state = json.loads(json.dumps(table.game.to_state()))
        data = json.loads(json.dumps(table.snapshot_data()))
        now = self.runtime.clock.now()
        async with self.runtime.transaction() as session:
            row = await session.get(LiveTable, table.id)
            if row is None:
                row = LiveTable(id=table.id, game=table.game_name, mode=table.mode, seed=table.seed_hex,
                                created_at=now)
                session.add(row)
            if row.status == "finished" and status != "finished":
                return  # a late periodic snapshot never reopens a settled table
            row.status = status
            row.version = version
            row.state = state
            row.table = data
            row.updated_at = now

    async def finish(self, table: TableActor) -> dict[int, dict[str, Any]]:
        runtime = self.runtime
        now = runtime.clock.now()
        outcome = table.game.outcome()
        async with runtime.transaction() as session:
            existing = await session.get(GameRecord, table.id)
            if existing is not None:
                return {int(seat): reward for seat, reward in existing.rewards.items()}
            multipliers = await self._multipliers(session, table)
            rewards = table_rewards(
                Table(
                    mode=table.mode,
                    placings=outcome.placings,
                    humans=[not seat.is_bot for seat in table.seats],
                    left=[seat.left() for seat in table.seats],
                    multipliers=multipliers,
                    bot_filled=bool(table.meta.get("bot_filled")),
                    stake=int(table.meta.get("stake", 0)),
                ),
                reward_rules(runtime.settings),
            )
            await self._pay(session, table, outcome.placings, rewards)
            title = get_game(table.game_name).title
            session.add(
                GameRecord(
                    id=table.id,
                    game=table.game_name,
                    mode=table.mode,
                    options=table.options,
                    seats=[
                        {"kind": s.kind, "name": s.name, "user_id": s.user_id,
                         "bot_level": s.bot_level if s.is_bot else None, "left": s.left()}
                        for s in table.seats
                    ],
                    seed=table.seed_hex,
                    action_log=table.action_log,
                    placings=list(outcome.placings),
                    scores=outcome.scores,
                    rewards={str(seat): reward.as_dict() for seat, reward in enumerate(rewards)},
                    started_at=datetime.fromisoformat(table.meta["started_at"]) if "started_at" in table.meta else now,
                    finished_at=now,
                )
            )
            await session.flush()
            for seat, player in enumerate(table.seats):
                if player.user_id is None:
                    continue
                session.add(
                    GameRecordPlayer(
                        record_id=table.id, user_id=player.user_id, seat=seat, placing=outcome.placings[seat],
                        left=player.left(), coins=rewards[seat].coins + rewards[seat].pot, xp=rewards[seat].xp,
                        finished_at=now,
                    )
                )
            await session.execute(update(LiveTable).where(LiveTable.id == table.id).values(status="finished",
                                                                                           updated_at=now))
            for listener in self.settled_listeners:
                await listener(session, table, rewards, title)
        return {seat: reward.as_dict() for seat, reward in enumerate(rewards)}

    async def _multipliers(self, session: AsyncSession, table: TableActor) -> list[float]:
        if self.multiplier_source is None:
            return [1.0] * len(table.seats)
        return await self.multiplier_source(session, [seat.user_id for seat in table.seats])

    async def _pay(self, session: AsyncSession, table: TableActor, placings: list[int], rewards: list[Reward]) -> None:
        ledger = self.runtime.ledger
        title = get_game(table.game_name).title
        pot_shares: list[tuple[int, int]] = []
        for seat, (player, reward) in enumerate(zip(table.seats, rewards)):
            if player.user_id is None:
                continue
            if reward.coins:
                wallet = await ledger.wallet_id(session, player.user_id)
                await ledger.credit(session, wallet, reward.coins, key=f"prize:{table.id}:{player.user_id}",
                                    reason=f"{title} {table.mode} table: prize for place {placings[seat]}")
            if reward.pot:
                pot_shares.append((await ledger.wallet_id(session, player.user_id), reward.pot))
            if reward.xp:
                await session.execute(update(User).where(User.id == player.user_id).values(xp=User.xp + reward.xp))
        if pot_shares:
            pot = await ledger.pot_id(session, table.id)
            total = sum(amount for _, amount in pot_shares)
            await ledger.settle(session, f"pot:{table.id}:payout", f"{title} staked table: pot shared by the winners",
                                [(pot, -total), *pot_shares])

    async def unfinished(self) -> list[LiveTable]:
        async with self.runtime.sessionmaker() as session:
            rows = await session.scalars(select(LiveTable).where(LiveTable.status == "playing"))
            return list(rows)
