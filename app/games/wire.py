"""How a game's views travel to the table's sockets (docs/protocol.md, "Patches"): the wire form of a view, and what a
client works out from the events before the patch, so that a move's update says each thing once.

A table sends `public(game)` and `private(game, seat)`, whole when a socket joins and then as patches
(app/tables/patch.py). Before applying an update's patches a client runs `follow_public` and `follow_private` over
the update's events, so the patch made against that guess carries only what the events did not already say (on a
plain Pika play: nothing); a guess that is wrong or missing costs bytes, never correctness. The view the client
shows is `expand(public, private, seat)`: the game's `view(seat)` without the `bot_only` keys.

Every rule here has a twin in static/js/wire.js, which must give the same results (tests/browser/test_wire.py runs
both on the same games): a client whose guess differs from the server's would patch the wrong value.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, ClassVar

from app.games.base import Game, View

# game name -> "module:Class"; a game missing here sends its views as they are.
_WIRES: dict[str, str] = {
    "pika": "app.games.pika.wire:PikaWire",
    "stakes": "app.games.wire:TurnWire",
    "piker": "app.games.wire:TurnWire",
}


class Wire:
    """A game's views as they are: sent whole, nothing guessed from events."""

    # View keys no client is sent: memory for bots, which read them from the engine's own view (app/tables/actor.py).
    bot_only: ClassVar[frozenset[str]] = frozenset()

    def public(self, game: Game) -> View:
        return game.public_view()

    def private(self, game: Game, seat: int) -> View:
        return game.private_view(seat)

    def follow_public(self, public: View, events: list[dict[str, Any]]) -> View:
        """The public wire view after `events`, as far as they tell (only their public keys may be read: a seat's
        client runs this over its own copies, which have private parts). Never changes `public`."""
        return public

    def follow_private(self, private: View, events: list[dict[str, Any]], seat: int) -> View:
        """`seat`'s private wire view after `events` (its own copies), as far as they tell. Never changes
        `private`."""
        return private

    def expand(self, public: View, private: View, seat: int | None) -> View:
        """The view a client shows: `view(seat)` without the `bot_only` keys."""
        return {**public, **private} if seat is not None else dict(public)


def _to_act(turn: Any) -> list[int] | None:
    """The seats to act that a view's `turn` implies (none once it is null), or None for a turn of another kind."""
    if turn is None:
        return []
    return [turn] if type(turn) is int else None


class TurnWire(Wire):
    """Views whose `to_act` is mostly the seat in `turn` (or nobody once `turn` is null): it goes only when not."""

    def public(self, game: Game) -> View:
        view = game.public_view()
        if view["to_act"] == _to_act(view.get("turn")):
            del view["to_act"]
        return view

    def expand(self, public: View, private: View, seat: int | None) -> View:
        view = {**public, **private} if seat is not None else dict(public)
        if "to_act" not in view:
            view["to_act"] = _to_act(public["turn"])
        return view


_made: dict[str, Wire] = {}


def wire_for(name: str) -> Wire:
    """The wire form of game `name`'s views (shared: wires keep no state)."""
    wire = _made.get(name)
    if wire is None:
        target = _WIRES.get(name)
        if target is None:
            wire = Wire()
        else:
            module_name, class_name = target.split(":")
            wire = getattr(import_module(module_name), class_name)()
        _made[name] = wire
    return wire
