"""Helpers shared by the Stakes tests (rootdir-relative import: tests.games.stakes.stakes_support)."""

from __future__ import annotations

import json
import random
from typing import Any

from app.games.base import Event
from app.games.rng import HashRandom
from app.games.stakes import Stakes
from app.games.stakes.game import PEEK_DEPTH


def act(game: Stakes, seat: int, kind: str, **fields: Any) -> list[Event]:
    """Apply one action and return its events."""
    return game.apply(seat, {"type": kind, **fields})


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.type == kind]
    assert len(found) == 1, f"expected one {kind} event, got {[e.type for e in events]}"
    return found[0]


def kinds(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def player(game: Stakes, seat: int, viewer: int | None = None) -> dict[str, Any]:
    return game.view(viewer)["players"][seat]


def strings_in(data: Any) -> set[str]:
    """Every string (keys and values) inside a JSON-able structure."""
    text = json.dumps(data)
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                found.add(key)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(json.loads(text))
    return found


def hidden_from(game: Stakes, seat: int | None) -> set[str]:
    """Cards `seat` must not see: the whole deck except what its own Peek showed and is still in it."""
    known = set(game.peeks[seat]["cards"]) if seat is not None and seat in game.peeks else set()
    if seat is not None and game.pending and game.pending.get("seat") == seat and "cards" in game.pending:
        known |= set(game.pending["cards"])
    return set(game.deck) - known


def random_action(game: Stakes, chooser: random.Random) -> tuple[int, dict[str, Any]]:
    seat = game.acting_seats()[0]
    legal = game.legal_actions(seat)
    return seat, legal[chooser.randrange(len(legal))]


def dealt_again(game: Stakes, chooser: random.Random) -> Stakes:
    """The same game with what no seat has seen changed: the deck below the cards a Peek showed (someone may know
    those, so they stay where they are) in another order, and another random source (the dice and reshuffles to
    come). stakes.md: nobody sees the deck order; only a Jack's flipper sees the peeked cards."""
    twin = Stakes.from_state(json.loads(json.dumps(game.to_state())))
    known = max([len(peek["cards"]) for peek in twin.peeks.values()]
                + [PEEK_DEPTH if twin.pending and twin.pending.get("type") == "put_back" else 0])
    below = twin.deck[known:]
    chooser.shuffle(below)
    twin.deck[known:] = below
    twin.rng = HashRandom(f"another seed {chooser.random()}".encode())
    assert not twin.check_invariants()
    return twin
