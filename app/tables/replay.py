"""Replaying a finished game from its seed and action log (platform.md, "Fairness"): `tablestakes replay GAME_ID`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.games.base import IllegalAction
from app.games.registry import get_game
from app.games.rng import HashRandom
from app.tables.patch import diff

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


# Steps in one page of GET /api/games/{id}/replay (the client pages through longer games). The largest pages are
# Kapern's at five seats: about 160 KB for 50 steps (a turn's view is large, and each step patches it).
MAX_REPLAY_FRAMES = 50


def replay_frames(record: Any, *, seat: int | None, reveal: bool, start: int, limit: int) -> dict[str, Any]:
    """Steps `start` .. `start + limit - 1` of a finished game, rebuilt from its seed and log by its engine: step 0
    is the deal, step n the position after the log's n-th move. Each frame has the events of its move and the view
    after it: as `seat` saw them (None: a spectator), or with `reveal` every seat's view at once (Game.full_view)
    and the move itself. The page's first frame has its whole `view`, the others only its `patch` on the frame before
    (docs/protocol.md, "Patches": a Kapern view holds every turn so far, so whole views would be 20 times larger).
    Raises ValueError if the log does not replay (`tablestakes replay` says why)."""
    game = get_game(record.game).create(len(record.seats), record.options, HashRandom(bytes.fromhex(record.seed)))
    steps = len(record.action_log) + 1
    end = min(steps, start + min(limit, MAX_REPLAY_FRAMES))
    previous: dict[str, Any] | None = None

    def frame(step: int, by: int | None, action: Any, events: list[Any]) -> dict[str, Any]:
        outcome = game.outcome()
        shown: dict[str, Any] = {"step": step, "outcome": outcome.as_dict() if outcome is not None else None}
        if reveal:
            shown["seat"], shown["action"] = by, action
            shown["events"] = [{**event.for_seat(None), "private": {str(s): p for s, p in event.private.items()}}
                               if event.private else event.for_seat(None) for event in events]
            view = game.full_view()
        else:
            shown["events"] = [event.for_seat(seat) for event in events]
            view = game.view(seat)
        nonlocal previous
        if previous is None:
            shown["view"] = view
        else:
            shown["patch"] = diff(previous, view)
        previous = view
        return shown

    frames = [frame(0, None, None, [])] if start == 0 < end else []
    for step, (by, action) in enumerate(record.action_log[: max(0, end - 1)], start=1):
        try:
            events = game.apply(by, action)
        except IllegalAction as refused:
            raise ValueError(f"action {step - 1} ({action!r} by seat {by}) was refused: {refused}") from None
        if step >= start:
            frames.append(frame(step, by, action, events))
    return {"steps": steps, "start": start, "frames": frames,
            "next": end if end < steps else None}
