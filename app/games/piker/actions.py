"""The actions a Piker seat may send, by shape (app/games/actions.py); game.py's docstring says what each does."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.actions import ActionSchema, ActionShape, SmallInt
from app.games.piker.cards import DECK

CardName = Literal[tuple(dict.fromkeys(DECK))]  # type: ignore[valid-type]

Pips = Annotated[int, Field(ge=1, le=6)]
Slot = Annotated[int, Field(ge=0, le=64)]


class PlaceDie(ActionShape):
    type: Literal["place_die"]
    pips: Pips
    on: Literal["card", "after_market"]
    slot: Slot | None = None  # the market slot, when on a card


class Secure(ActionShape):
    type: Literal["secure"]
    card: CardName
    dice: Annotated[list[Pips], Field(max_length=32)]
    leveraged_buyouts: SmallInt = 0


class FinishSecuring(ActionShape):
    type: Literal["finish_securing"]


class BullRun(ActionShape):
    type: Literal["bull_run"]
    card: CardName


class PlayExtraCapital(ActionShape):
    type: Literal["play_extra_capital"]


class PlayInsiderTip(ActionShape):
    type: Literal["play_insider_tip"]
    slots: Annotated[list[Slot], Field(max_length=8)]


class PlayHostileTakeover(ActionShape):
    type: Literal["play_hostile_takeover"]
    card: CardName


class KeepCard(ActionShape):
    type: Literal["keep_card"]


class ExtraCard(ActionShape):
    type: Literal["extra_card"]
    add: bool


PIKER_ACTIONS = ActionSchema(
    "The Piker",
    (PlaceDie, Secure, FinishSecuring, BullRun, PlayExtraCapital, PlayInsiderTip, PlayHostileTakeover, KeepCard,
     ExtraCard),
)
