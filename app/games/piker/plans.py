"""Fixed plans for The Piker: the simple strategies a clever person tries first (docs/bots.md, the panel).

A plan is a Bot with no card values and no search: a rule of thumb for the Invest step, and for every other decision
the plain choice (secure with the engine's suggestion, take the most victory points with a Hostile Takeover, play
Extra Capital, add the Piker's extra card). The panel (app/games/panel.py) plays each plan against hard bots; a hard
bot that holds wins more than these do. Plans are deterministic: they use no randomness at all.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from app.games.base import Action, Bot, View
from app.games.piker.bots import common_choice, richest_takeover
from app.games.piker.cards import BLUE_CHIP, GROWTH, SPECULATIVE

TIER_RANK = {BLUE_CHIP: 0, GROWTH: 1, SPECULATIVE: 2}
TIER_SECURE_NEED = {BLUE_CHIP: 4, GROWTH: 7, SPECULATIVE: 11}  # about the secure value a card of the tier asks


def _others_best(slot: dict[str, Any], me: int) -> int:
    return max((p for s, p in enumerate(slot["pips"]) if s != me), default=0)


def _leading(slot: dict[str, Any], me: int) -> bool:
    return slot["pips"][me] > _others_best(slot, me)


def _my_after_market(view: View) -> list[int]:
    return [d["pips"] for d in view["after_market"]["dice"] if d["seat"] == view["you"]]


def _place(pips: int, slot: int | None = None) -> Action:
    if slot is None:
        return {"type": "place_die", "pips": pips, "on": "after_market"}
    return {"type": "place_die", "pips": pips, "on": "card", "slot": slot}


def cheapest_lead(view: View, hand: list[int]) -> Action | None:
    """The smallest die that takes the lead on a card I do not lead; among equal dice the higher tier, then the
    first slot."""
    me = view["you"]
    best = None
    for slot in view["market"]:
        if _leading(slot, me):
            continue
        need = _others_best(slot, me) - slot["pips"][me] + 1
        die = next((d for d in sorted(hand) if d >= need), None)
        if die is None:
            continue
        key = (die, -TIER_RANK[slot["tier"]], slot["slot"])
        if best is None or key < best[0]:
            best = (key, die, slot["slot"])
    return None if best is None else _place(best[1], best[2])


def leftover(view: View, hand: list[int]) -> Action:
    """A die nothing better wants: the lowest to the After Market if it has room, else onto the card I lead by the
    least (or the first card)."""
    if view["after_market"]["open"]:
        return _place(min(hand))
    me = view["you"]
    mine = [s for s in view["market"] if _leading(s, me)]
    target = min(mine, key=lambda s: s["pips"][me] - _others_best(s, me)) if mine else view["market"][0]
    return _place(min(hand), target["slot"])


class Plan(Bot):
    """A fixed plan: its own rule for placing dice, the plain choice everywhere else."""

    level = "plan"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        choice = common_choice(view, legal)
        if choice is not None:
            return choice
        if view["step"] == "hostile_takeover":
            return richest_takeover(legal)
        hand = sorted(view["my_dice"])
        action = self.place(view, hand)
        return action if action in legal else leftover(view, hand)

    @abstractmethod
    def place(self, view: View, hand: list[int]) -> Action:
        """Where this plan puts a die in the invest step, from its dice `hand` (sorted)."""


class AfterMarketFirst(Plan):
    """My three highest dice go to the After Market first, then the cheapest lead on any card."""

    level = "after-market-first"
    after_market_dice = 3

    def place(self, view: View, hand: list[int]) -> Action:
        if view["after_market"]["open"] and len(_my_after_market(view)) < self.after_market_dice:
            return _place(max(hand))
        return cheapest_lead(view, hand) or leftover(view, hand)


class AllInOneCard(Plan):
    """Everything on one card: the highest tier on offer (the first among equals) gets my dice until I lead it by
    6 pips; my highest dice go to the After Market until they cover that card's secure value; spare dice then take
    the cheapest lead elsewhere."""

    level = "all-in-one-card"
    safe_margin = 6

    def place(self, view: View, hand: list[int]) -> Action:
        me = view["you"]
        market = view["market"]
        target = max(market, key=lambda s: (s["pips"][me] > 0, TIER_RANK[s["tier"]], -s["slot"]))
        margin = target["pips"][me] - _others_best(target, me)
        if margin < self.safe_margin:
            return _place(max(hand), target["slot"])
        if view["after_market"]["open"] and sum(_my_after_market(view)) < TIER_SECURE_NEED[target["tier"]]:
            return _place(max(hand))
        return cheapest_lead(view, hand) or leftover(view, hand)


class NeverSecure(Plan):
    """No die ever goes to the After Market while a card will take it: win as many cards as possible (the cheapest
    lead each time), and take the cards away from the others."""

    level = "never-secure"

    def place(self, view: View, hand: list[int]) -> Action:
        action = cheapest_lead(view, hand)
        if action is not None:
            return action
        me = view["you"]
        mine = [s for s in view["market"] if _leading(s, me)]
        target = min(mine, key=lambda s: s["pips"][me] - _others_best(s, me)) if mine else view["market"][0]
        return _place(min(hand), target["slot"])


class AlwaysSecure(Plan):
    """Never win what I cannot secure: before each bid my After Market pips must cover the secure values of my
    unsecured cards, of the cards I lead and of the next one; otherwise my highest die goes to the After Market."""

    level = "always-secure"

    def place(self, view: View, hand: list[int]) -> Action:
        me = view["you"]
        player = view["players"][me]
        owed = sum(c["secure_value"] for c in player["unsecured"])
        owed += sum(TIER_SECURE_NEED[s["tier"]] for s in view["market"] if _leading(s, me))
        lead = cheapest_lead(view, hand)
        next_need = TIER_SECURE_NEED[view["market"][lead["slot"]]["tier"]] if lead else 0
        if view["after_market"]["open"] and sum(_my_after_market(view)) < owed + next_need:
            return _place(max(hand))
        return lead or leftover(view, hand)


PLANS: dict[str, type[Bot]] = {
    plan.level: plan for plan in (AfterMarketFirst, AllInOneCard, NeverSecure, AlwaysSecure)
}
