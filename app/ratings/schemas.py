"""What the ratings' answers look like (docs/ratings.md, docs/api.md "Profiles")."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RatingOut(BaseModel):
    """A rating as players see it: one number, its uncertainty, and whether it is still provisional."""

    rating: int
    deviation: int = Field(description="the uncertainty (± this much)")
    games: int = Field(description="rated games played")
    provisional: bool


class RatingChangeOut(RatingOut):
    before: int
    change: int


class GameRecordOut(RatingOut):
    game: str
    title: str
    played: int
    won: int
    left: int


class RecentGameOut(BaseModel):
    id: str
    game: str
    title: str
    mode: str
    seats: int
    placing: int
    left: bool
    finished_at: str
    players: list[str]
    rating: RatingChangeOut | None = Field(description="null: this game did not move their rating")


class ProfileOut(BaseModel):
    username: str
    level: int
    member_since: str
    me: bool
    games: list[GameRecordOut]
    recent: list[RecentGameOut]
