"""The actions a Pika seat may send, by shape (app/games/actions.py); game.py's docstring says what each does."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.actions import ActionSchema, ActionShape
from app.games.pika.cards import COLOURS, NAMES

Colour = Literal[COLOURS]  # type: ignore[valid-type]
CardName = Literal[tuple(dict.fromkeys(NAMES))]  # type: ignore[valid-type]


class Play(ActionShape):
    type: Literal["play"]
    card: CardName
    colour: Colour | None = None  # a Joker or +4 names the colour in play
    pika: bool = False  # calls Pika with the play that leaves one card


class Draw(ActionShape):
    type: Literal["draw"]


class Keep(ActionShape):
    type: Literal["keep"]


class TakeStack(ActionShape):
    type: Literal["take_stack"]


class CallPika(ActionShape):
    type: Literal["pika"]


class Reorder(ActionShape):
    type: Literal["reorder"]
    hand: Annotated[list[CardName], Field(max_length=108)]  # the whole hand, in the new order


PIKA_ACTIONS = ActionSchema("Pika", (Play, Draw, Keep, TakeStack, CallPika, Reorder))
