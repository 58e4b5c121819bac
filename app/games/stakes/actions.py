"""The actions a Stakes seat may send, by shape (app/games/actions.py); game.py's docstring says what each does."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.actions import ActionSchema, ActionShape
from app.games.stakes.cards import FULL_DECK

CardName = Literal[tuple(FULL_DECK)]  # type: ignore[valid-type]

Die = Literal["a", "b"]


class Flip(ActionShape):
    type: Literal["flip"]


class Bank(ActionShape):
    type: Literal["bank"]


class Pass(ActionShape):
    type: Literal["pass"]


class Twist(ActionShape):
    type: Literal["twist"]
    die: Die


class PutBack(ActionShape):
    type: Literal["put_back"]
    cards: Annotated[list[CardName], Field(min_length=2, max_length=2)]  # the two peeked cards, the top one first


class Nudge(ActionShape):
    type: Literal["nudge"]
    die: Die
    direction: Literal["up", "down"]


STAKES_ACTIONS = ActionSchema("Stakes", (Flip, Bank, Pass, Twist, PutBack, Nudge))
