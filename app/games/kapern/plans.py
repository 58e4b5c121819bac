"""Fixed plans for Piraten Kapern: the simple strategies a clever person tries first (docs/bots.md, the panel).

Both keep what scores by a simple eye (coins, diamonds, sets of three, sabers in a sea battle) and reroll the rest;
they differ in when they stop. Both chase the sabers of a sea battle, play Skull Island to the end and use the
Guardian when three skulls show. Plans use no randomness.
"""

from __future__ import annotations

from abc import abstractmethod

from app.games.base import Action, Bot, View
from app.games.kapern.bots import (
    _STOP,
    _arrange_chest_then,
    _guardian_rescue,
    _kept,
    _pick,
    _roll,
    _skull_island_roll,
    _Turn,
)
from app.games.kapern.cards import CARDS, SABER, SHIPWRECK, SMALLEST_REROLL


class KapernPlan(Bot):
    level = "plan"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if len(legal) <= 1:
            return legal[0] if legal else None
        turn = _Turn(view)
        if turn.phase == "skull_island":
            return _skull_island_roll(turn, legal)
        if turn.phase == "guardian_rescue":
            return _guardian_rescue(turn, legal)
        card = CARDS[turn.card]
        keep = _kept(turn.card, turn.faces)
        junk = [i for i in turn.free if not keep[i]]
        if card.sea_battle and turn.faces.count(SABER) < card.sabers_needed:
            chase = [i for i in turn.free if turn.faces[i] != SABER]
            return _pick(_roll(chase), legal) or _STOP
        stop_now = turn.stop_now or 0
        if _STOP in legal and (turn.card == SHIPWRECK or self.stops(turn, stop_now) or len(junk) < SMALLEST_REROLL):
            return _STOP
        if len(junk) < SMALLEST_REROLL:
            junk = list(turn.free)
        return _arrange_chest_then(turn, junk, legal)

    @abstractmethod
    def stops(self, turn: _Turn, points: int) -> bool:
        """Whether this plan stops now, holding `points` if it does (each plan says when)."""


class TwoSkullsThenStop(KapernPlan):
    """The greedy plan: reroll what does not score until two skulls show, then stop."""

    level = "two-skulls-then-stop"

    def stops(self, turn: _Turn, points: int) -> bool:
        return turn.skulls >= 2 and points > 0


class BankEarly(KapernPlan):
    """The cautious plan: stop as soon as the turn scores 300, or anything at all once a skull shows."""

    level = "bank-early"

    def stops(self, turn: _Turn, points: int) -> bool:
        return points >= 300 or (turn.skulls >= 1 and points > 0)


PLANS: dict[str, type[Bot]] = {plan.level: plan for plan in (TwoSkullsThenStop, BankEarly)}
