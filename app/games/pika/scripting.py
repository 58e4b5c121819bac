"""Helpers for tests that state a Pika deal or position exactly.

- `deal(...)` builds the ScriptedRandom that makes `Pika.create` deal the hands a test names (game.py's docstring
  gives the order of random calls this follows).
- `position(...)` builds a round already under way (hands, discard, pile, whose turn, a pending stack, ...) through
  `Pika.from_state`, with a ScriptedRandom for the reshuffles the test expects. Every card of the deck that the test
  does not place goes where `rest` says, so the 108 cards are always all there.
- `redeal_hidden(game, seat, chooser)` deals again at random everything `seat` may not see (the conformance suite's
  leak test: that seat's view must not change).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from app.games.pika.cards import CODE, DECK, IS_NUMBER
from app.games.pika.game import HAND_SIZE, Pika
from app.games.rng import ScriptedRandom


def deal(
    hands: Sequence[Sequence[str]],
    first_card: str,
    *,
    first_player: int = 0,
    pile: Sequence[str] = (),
    flipped_back: Sequence[str] = (),
    reshuffles: Sequence[Sequence[str]] = (),
    strict: bool = False,
) -> ScriptedRandom:
    """The random source that deals `hands` (seven cards each, seat 0 first) and starts the discard with
    `first_card` (a number card). `flipped_back` are non-number cards flipped before it, each put back at the
    bottom of the pile; `pile` comes next, then the rest of the deck in cards.DECK order. `reshuffles` script the
    later reshuffles (cards drawn first, first)."""
    seats = len(hands)
    if any(len(hand) != HAND_SIZE for hand in hands):
        raise ValueError("each hand is seven cards")
    if not IS_NUMBER[CODE[first_card]] or any(IS_NUMBER[CODE[card]] for card in flipped_back):
        raise ValueError("the first card is a number card and the flipped-back cards are not")
    order = [hands[seat][index] for index in range(HAND_SIZE) for seat in range(seats)]
    order += [*flipped_back, first_card, *pile]
    # Each flipped-back card leaves len(DECK) - 7 * seats - 1 cards in the pile and goes back under all of them.
    bottom = len(DECK) - HAND_SIZE * seats - 2
    ints = [bottom for _ in flipped_back] + [first_player]
    _check_counts(order)
    return ScriptedRandom(shuffles=[order, *[list(r) for r in reshuffles]], ints=ints, strict=strict)


def position(
    hands: Sequence[Sequence[str]],
    discard: Sequence[str],
    *,
    pile: Sequence[str] = (),
    rest: str | int = "pile",
    colour: str | None = None,
    turn: int = 0,
    direction: int = 1,
    stack: int = 0,
    drawn: str | None = None,
    alerts: Sequence[tuple[int, int]] = (),
    called: Sequence[int] = (),
    idle_turns: int = 0,
    alert_seconds: float = 3.0,
    reshuffles: Sequence[Sequence[str]] = (),
    strict: bool = False,
) -> Pika:
    """A round under way. `discard` runs bottom to top; `pile` is next-card-first. The deck's other cards go to
    `rest`: "pile" (after `pile`), "discard" (under the discard), or a seat number (the end of that hand)."""
    placed = [card for hand in hands for card in hand] + list(discard) + list(pile)
    _check_counts(placed)
    remaining = Counter(DECK)
    remaining.subtract(placed)
    others = [card for card in dict.fromkeys(DECK) for _ in range(remaining[card])]
    hands = [list(hand) for hand in hands]
    discard = list(discard)
    pile = list(pile)
    if rest == "pile":
        pile += others
    elif rest == "discard":
        discard = others + discard
    elif isinstance(rest, int):
        hands[rest] += others
    else:
        raise ValueError(f"rest must be 'pile', 'discard' or a seat, not {rest!r}")
    top = discard[-1]
    if colour is None:
        if top in ("joker", "+4"):
            raise ValueError("say which colour is in play on a black card")
        colour = top.split("-")[0]
    seats = len(hands)
    state: dict[str, Any] = {
        "game": "pika",
        "seats": seats,
        "options": {"alert_seconds": alert_seconds},
        "hands": hands,
        "pile": pile,
        "discard": discard,
        "colour": colour,
        "direction": direction,
        "turn": turn,
        "stack": stack,
        "drawn": drawn,
        "idle_turns": idle_turns,
        "alerts": [[seat, number] for seat, number in alerts],
        "called": [seat in called for seat in range(seats)],
        "alert_serial": max((number for _, number in alerts), default=0),
        "passed": [[] for _ in range(seats)],
        "over": False,
        "end": None,
        "rng": ScriptedRandom(shuffles=[list(r) for r in reshuffles], strict=strict).to_state(),
    }
    return Pika.from_state(state)


def _check_counts(cards: Sequence[str]) -> None:
    unknown = [card for card in cards if card not in CODE]
    if unknown:
        raise ValueError(f"no such cards: {unknown!r}")
    extra = Counter(cards) - Counter(DECK)
    if extra:
        raise ValueError(f"more of these cards than the deck holds: {dict(extra)!r}")


def redeal_hidden(game: Pika, seat: int | None, chooser: random.Random) -> Pika:
    """The same game with everything `seat` may not see dealt again at random: the other hands and the pile."""
    state = json.loads(json.dumps(game.to_state()))
    others = [other for other in range(game.seat_count) if other != seat]
    cards = [card for other in others for card in state["hands"][other]] + state["pile"]
    chooser.shuffle(cards)
    at = 0
    for other in others:
        size = len(state["hands"][other])
        state["hands"][other] = cards[at : at + size]
        at += size
    state["pile"] = cards[at:]
    return Pika.from_state(state)
