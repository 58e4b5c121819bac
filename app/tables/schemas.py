"""What the tables and games endpoints take and give."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.core.params import BotLevel, GameName, SeatCount, TurnSeconds


class VsBotsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: GameName
    seats: SeatCount
    bot_level: BotLevel = "medium"
    options: dict[str, Any] = Field(default_factory=dict, description="the game's table options")
    turn_seconds: TurnSeconds = 30.0


class GameOut(BaseModel):
    name: str
    title: str
    min_seats: int
    max_seats: int
    options: dict[str, Any] = Field(description="the game's table options, with their defaults")
    bot_levels: list[str]


class GamesOut(BaseModel):
    games: list[GameOut]


class TableOut(BaseModel):
    id: str
    game: str
    mode: str
    status: str
    seat: int | None
    version: int


class MyTablesOut(BaseModel):
    tables: list[TableOut]


class PastGameOut(BaseModel):
    id: str
    game: str
    title: str
    mode: str
    seats: int
    placing: int
    left: bool
    coins: int
    net: int = Field(description="the change of my balance (a staked game: pot share less the stake)")
    xp: int
    finished_at: str
    players: list[str]


class PastGamesOut(BaseModel):
    games: list[PastGameOut]
    next_cursor: str | None = Field(description="give it back as ?before= for the next, older page")


class RecordSeatOut(BaseModel):
    kind: str
    name: str
    bot_level: str | None = None
    left: bool = False


class GameRecordOut(BaseModel):
    id: str
    game: str
    title: str
    mode: str
    seats: list[RecordSeatOut]
    placings: list[int]
    scores: list[Any] | None
    rewards: dict[str, dict[str, Any]] = Field(description="per seat: coins, pot, xp, league points, net, ...")
    moves: int
    started_at: str
    finished_at: str


class ReplayOut(BaseModel):
    """A page of a finished game's replay (docs/api.md, "Replays"): the game, then its steps."""

    id: str
    game: str
    title: str
    mode: str
    seats: list[RecordSeatOut]
    seat: int | None = Field(description="the seat whose view the frames are (null: a spectator's)")
    reveal: bool
    placings: list[int]
    finished_at: str
    steps: int = Field(description="steps in the whole game (step 0: the deal)")
    start: int
    frames: list[dict[str, Any]] = Field(
        description="each step: `step`, `outcome`, `events`, and `view` (the page's first frame) or `patch` on the "
                    "frame before; with `reveal`, also `seat` and `action`")
    next: int | None = Field(description="the next page's `start`, or null at the end")
