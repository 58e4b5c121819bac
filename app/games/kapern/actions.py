"""The actions a Piraten Kapern seat may send, by shape (app/games/actions.py); game.py's docstring says what each
does."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.actions import ActionSchema, ActionShape
from app.games.kapern.cards import DICE

DieIndex = Annotated[int, Field(ge=0, le=DICE - 1)]


class Roll(ActionShape):
    type: Literal["roll"]
    dice: Annotated[list[DieIndex], Field(min_length=1, max_length=DICE)]


class Stop(ActionShape):
    type: Literal["stop"]


class PutOnChest(ActionShape):
    type: Literal["put_on_chest"]
    die: DieIndex


class TakeFromChest(ActionShape):
    type: Literal["take_from_chest"]
    die: DieIndex


KAPERN_ACTIONS = ActionSchema("Piraten Kapern", (Roll, Stop, PutOnChest, TakeFromChest))
