"""Helpers shared by The Piker tests (rootdir-relative import: tests.games.piker.piker_support)."""

from __future__ import annotations

import json

from app.games.base import Event
from app.games.piker import Piker
from app.games.piker.cards import tier_of
from app.games.piker.scripting import hands, scripted

AM = "am"  # a target meaning "an After Market spot"
FIVE_SIXES = [6, 6, 6, 6, 6]
FIVE_ONES = [1, 1, 1, 1, 1]
BLUE_MARKET = ["tech-1", "energy-1", "shipping-1", "mining-1"]  # round 1's market: one card of each sector
NEXT_MARKET = ["tech-2", "energy-2", "shipping-2", "mining-2"]

__all__ = [
    "AM",
    "BLUE_MARKET",
    "FIVE_ONES",
    "FIVE_SIXES",
    "NEXT_MARKET",
    "decline_extra_card",
    "give",
    "hands",
    "hidden_ids",
    "invest",
    "make_last_round",
    "new_game",
    "of_type",
    "only",
    "place",
    "place_rest",
    "secure",
]


def new_game(seats: int = 2, *, deal=(), first: int = 0, rolls=(), strict: bool = False) -> Piker:
    return Piker.create(seats, None, scripted(deal=deal, first_player=first, rolls=rolls, strict=strict))


def secure(game: Piker, seat: int, card: str, dice: list[int], buyouts: int = 0) -> list[Event]:
    return game.apply(seat, {"type": "secure", "card": card, "dice": dice, "leveraged_buyouts": buyouts})


def place(game: Piker, seat: int, pips: int, target: int | str) -> list[Event]:
    if target == AM:
        return game.apply(seat, {"type": "place_die", "pips": pips, "on": "after_market"})
    return game.apply(seat, {"type": "place_die", "pips": pips, "on": "card", "slot": target})


def invest(game: Piker, *moves: tuple[int, int, int | str]) -> list[Event]:
    """Place dice in the order given; each move must be by the seat whose turn it is."""
    events: list[Event] = []
    for seat, pips, target in moves:
        assert game.acting_seats() == [seat], f"expected seat {seat} to place, the game waits for {game.acting_seats()}"
        events += place(game, seat, pips, target)
    return events


def place_rest(game: Piker, targets: dict[int, int | str]) -> list[Event]:
    """Every remaining die of each seat, highest first, goes on targets[seat], in turn order."""
    events: list[Event] = []
    while game.step == "invest":
        seat = game.acting_seats()[0]
        events += place(game, seat, max(game.hands[seat]), targets[seat])
    return events


def give(game: Piker, seat: int, *, unsecured=(), secured=(), dividends=(), kept=()) -> None:
    """Set up a position: move named cards from the (scripted) deck to a player, keeping the 48 cards."""
    player = game.players[seat]
    for key, cards in (("unsecured", unsecured), ("secured", secured), ("dividends", dividends), ("kept", kept)):
        for card in cards:
            assert card in game.deck, f"{card} is not in the deck"
            game.deck.remove(card)
            player[key].append(card)
    assert game.check_invariants() == []


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def only(events: list[Event], kind: str) -> Event:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind} event, got {[e.type for e in events]}"
    return found[0]


def hidden_ids(game: Piker, seat: int | None) -> set[str]:
    """Card ids `seat` must never see: the deck, face-down market cards (Insider Tip aside) and face-down discards."""
    hidden = set(game.deck)
    tip = game.insider_tip
    for index, slot in enumerate(game.market):
        if slot["outcome"] is None or slot["outcome"].get("discarded"):
            if tip is not None and tip["seat"] == seat and index in tip["slots"] and slot["outcome"] is None:
                continue
            hidden.add(slot["card"])
    hidden.update(d["card"] for d in game.discard if not d["face_up"])
    return hidden


def decline_extra_card(game: Piker) -> list[Event]:
    assert game.step == "extra_card"
    return game.apply(game.piker, {"type": "extra_card", "add": False})


def make_last_round(game: Piker) -> None:
    """Set up a position where the current round is round 6 (the game ends after its After Market)."""
    game.round = 6


def counterfactual(game: Piker, seat: int | None) -> Piker:
    """The same game with every fact hidden from `seat` changed: others' unplaced dice, the deck, face-down cards."""
    state = json.loads(json.dumps(game.to_state()))
    for other in range(game.seat_count):
        if other != seat:
            state["hands"][other] = [7 - die for die in state["hands"][other]]
    state["deck"].reverse()
    tip = state["insider_tip"]
    for index, slot in enumerate(state["market"]):
        seen = tip is not None and tip["seat"] == seat and index in tip["slots"]
        if slot["outcome"] is None and not seen:
            swap = next((i for i, card in enumerate(state["deck"]) if tier_of(card) == tier_of(slot["card"])), None)
            if swap is not None:
                slot["card"], state["deck"][swap] = state["deck"][swap], slot["card"]
    return Piker.from_state(state)
