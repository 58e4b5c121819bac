"""What the rooms and invitations endpoints take and give."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.core.params import BotLevel, GameName, SeatCount, TurnSeconds, Username


class RoomIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: GameName
    seats: SeatCount
    options: dict[str, Any] = Field(default_factory=dict, description="the game's table options")
    turn_seconds: TurnSeconds = 30.0


class InviteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Username


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: BotLevel = "medium"


class RoomSeatOut(BaseModel):
    """A taken seat: a person (`user_id`) or a bot (`bot`: its level)."""

    name: str
    user_id: int | None = None
    bot: str | None = None


class RoomInvitationOut(BaseModel):
    id: int
    username: str
    status: str


class RoomOut(BaseModel):
    id: str
    game: str
    title: str
    host_id: int
    options: dict[str, Any]
    turn_seconds: float
    seats: list[RoomSeatOut | None] = Field(description="null: an empty seat")
    status: str
    table_id: str | None
    invitations: list[RoomInvitationOut]
    min_seats: int


class RoomsOut(BaseModel):
    rooms: list[RoomOut]


class InvitationOut(BaseModel):
    """An invitation as its invitee sees it."""

    model_config = ConfigDict(populate_by_name=True)

    id: int
    room_id: str
    game: str
    title: str
    from_: str = Field(alias="from", description="the host's username")
    seats: int
    taken: int
    status: str
    created_at: str


class InboxOut(BaseModel):
    invitations: list[InvitationOut]


class DeclinedOut(BaseModel):
    declined: int


class LeftRoomOut(BaseModel):
    left: str
