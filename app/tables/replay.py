"""Replaying a finished game from its seed and action log (platform.md, "Fairness"): `tablestakes replay GAME_ID`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.games.base import IllegalAction
from app.games.registry import get_game
from app.games.rng import HashRandom

if TYPE_CHECKING:
    from app.runtime import Runtime


@dataclass
class ReplayResult:
    game_id: str
    actions: int
    placings: list[int] | None
    recorded_placings: list[int]
    error: str | None = None

    @property
    def matches(self) -> bool:
        return self.error is None and self.placings == self.recorded_placings


def replay_record(record: Any) -> ReplayResult:
    """Re-run a GameRecord (or anything with the same fields) and compare the outcome with the stored one."""
    game_cls = get_game(record.game)
    game = game_cls.create(len(record.seats), record.options, HashRandom(bytes.fromhex(record.seed)))
    for index, (seat, action) in enumerate(record.action_log):
        try:
            game.apply(seat, action)
        except IllegalAction as refused:
            return ReplayResult(record.id, index, None, list(record.placings),
                                error=f"action {index} ({action!r} by seat {seat}) was refused: {refused}")
    outcome = game.outcome()
    return ReplayResult(record.id, len(record.action_log), outcome.placings if outcome else None,
                        list(record.placings), None if outcome else "the log ends before the game does")


async def replay_game(runtime: Runtime, game_id: str) -> ReplayResult | None:
    from app.tables.models import GameRecord

    async with runtime.reader() as session:
        record = await session.get(GameRecord, game_id)
        if record is None:
            return None
        return replay_record(record)
