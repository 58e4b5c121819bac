"""What the matchmaking, shop and league endpoints take and give."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.accounts.schemas import RunningItem
from app.core.params import ShopItemName
from app.ratings.schemas import RatingOut


class QueueOut(BaseModel):
    game: str
    seats: int
    mode: str
    stake: int | None


class StakedWaitingOut(BaseModel):
    seats: int
    stake: int
    players: int


class MatchmakingGameOut(BaseModel):
    name: str
    title: str
    min_seats: int
    max_seats: int


class MatchmakingOptionsOut(BaseModel):
    modes: list[str]
    stakes: list[int]
    staked_min_level: int
    online_fill_seconds: float
    staked_fill_seconds: float
    queue_grace_seconds: float
    games: list[MatchmakingGameOut]


class MatchmakingOut(BaseModel):
    """Where I am: `idle`; `waiting` at a forming table (queue, players, seats, fill_ends_at, now); `playing` at a
    matchmade table (table_id). Only the fields of that status are sent."""

    status: str
    table_id: str | None = None
    queue: QueueOut | None = None
    players: int | None = None
    seats: int | None = None
    fill_ends_at: float | None = Field(default=None, description="seconds since the epoch, server clock")
    now: float | None = None
    staked_waiting: list[StakedWaitingOut] | None = Field(default=None, description="with ?game= only")
    options: MatchmakingOptionsOut


class LeftQueueOut(BaseModel):
    """`left` (with the queue and the stake refunded), or `idle` when I was not queued."""

    event: str
    queue: QueueOut | None = None
    refunded: int | None = None


class PurchaseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    item: ShopItemName
    request_id: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                                   description="send the same id again to retry safely: it buys once")


class ShopItemOut(BaseModel):
    item: str
    title: str
    price: int
    multiplier: float
    duration_seconds: int


class ShopOut(BaseModel):
    items: list[ShopItemOut]
    active: list[RunningItem]
    balance: int


class PurchaseOut(RunningItem):
    balance: int
    active: list[RunningItem]


class LeagueGameOut(BaseModel):
    name: str
    title: str


class LeagueOut(BaseModel):
    week: str
    starts_at: str
    ends_at: str
    points: list[int]
    prizes: list[int]
    games: list[LeagueGameOut]


class StandingOut(BaseModel):
    place: int
    username: str
    points: int
    games: int
    rating: RatingOut | None = Field(default=None, description="the player's rating in this game (docs/ratings.md)")


class MyStandingOut(BaseModel):
    place: int
    points: int
    games: int


class PaidPrizeOut(BaseModel):
    username: str
    place: int
    points: int
    coins: int


class StandingsOut(BaseModel):
    game: str
    title: str
    week: str
    starts_at: str
    ends_at: str
    current: bool
    closed: bool
    closed_at: str | None
    prizes: list[int]
    paid: list[PaidPrizeOut]
    total: int
    standings: list[StandingOut]
    me: MyStandingOut | None


class LeagueWeekOut(BaseModel):
    week: str
    players: int
    closed: bool


class LeagueWeeksOut(BaseModel):
    game: str
    weeks: list[LeagueWeekOut]
