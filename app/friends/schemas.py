"""What the friends endpoints take and give."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from app.core.params import Username


class UsernameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Username


class LiveTableOut(BaseModel):
    id: str  # the table to watch (#/watch/<id>; the socket's `join`)
    game: str
    mode: str


class PersonOut(BaseModel):
    username: str
    since: datetime  # when the friendship, request or block began
    online: bool | None = None  # friends only: connected right now (presence in Redis)
    table: LiveTableOut | None = None  # friends only: the live table they play at, which friends may watch


class FriendListsOut(BaseModel):
    friends: list[PersonOut]
    incoming: list[PersonOut]
    outgoing: list[PersonOut]
    blocked: list[PersonOut]


class RequestSentOut(BaseModel):
    status: Literal["requested", "friends"]


class UnseenOut(BaseModel):
    requests: int  # friend requests to me that I have not seen yet (the Friends badge)
