"""What every engine promises from outside (app/games/base.py, docs/engines.md), checked the same way for each game.

The same mistake gets the same refusal code in every game (the base `Game.apply` makes the opening checks, in the
order its docstring gives), and a refusal changes nothing.
"""

from __future__ import annotations

import pytest

from app.games.base import Game, IllegalAction
from app.games.registry import game_names, get_game
from app.games.rng import HashRandom
from app.games.simulate import make_bots, play_game
from tests.support.refusals import refused


def new_game(name: str, seed: str = "conformance") -> Game:
    cls = get_game(name)
    return cls.create(cls.min_seats, cls.check_options(cls.min_seats, {}), HashRandom(seed.encode()))


def finished_game(name: str) -> Game:
    cls = get_game(name)
    game = new_game(name, "conformance-finished")
    played = play_game(game, make_bots(cls, ["easy"] * game.seat_count, "conformance"))
    assert played.violations == [] and game.is_over
    return game


def idle_seat(game: Game) -> int:
    """A seat that is not among the acting seats."""
    return next(seat for seat in range(game.seat_count) if seat not in game.acting_seats())


def fields_missing(cls: type[Game]) -> list[dict]:
    """For every action type with a required field: that type with no fields at all."""
    assert cls.action_schema is not None
    return [
        {"type": shape.model_fields["type"].annotation.__args__[0]}
        for shape in cls.action_schema.shapes
        if any(field.is_required() for key, field in shape.model_fields.items() if key != "type")
    ]


@pytest.mark.parametrize("name", game_names())
def test_the_same_mistake_gets_the_same_code_in_every_game(name: str) -> None:
    cls = get_game(name)
    game = new_game(name)
    acting, idle = game.acting_seats()[0], idle_seat(game)
    turn_action = next(a for a in game.legal_actions(acting) if a["type"] not in cls.out_of_turn_actions)

    # the shape comes before whose turn it is: nonsense is nonsense from any seat
    for seat in (acting, idle):
        refused(game, seat, {"type": "nonsense"}, "bad_action")
        for junk in (None, "roll", ["type"], {}, {"type": 3}):
            refused(game, seat, junk, "bad_action")
        for action in fields_missing(cls):
            refused(game, seat, action, "bad_action")
        refused(game, seat, {**turn_action, "junk": 1}, "bad_action")
    assert fields_missing(cls), f"{name} has no action with a field to leave out"

    refused(game, idle, turn_action, "not_your_turn")  # a well-formed move from a seat not to act
    refused(game, None, turn_action, "not_your_turn")  # the table sends only its system actions
    refused(game, None, "nonsense", "bad_action")
    for seat in (game.seat_count, -1, "0"):
        refused(game, seat, turn_action, "bad_seat")

    over = finished_game(name)
    for seat in (0, None, over.seat_count):
        for action in ({"type": "nonsense"}, "nonsense", turn_action):
            refused(over, seat, action, "game_over")


@pytest.mark.parametrize("name", game_names())
def test_a_system_action_from_a_seat_is_no_action_of_a_seats(name: str) -> None:
    cls = get_game(name)
    game = new_game(name)
    for kind in cls.system_actions:
        for seat in range(game.seat_count):
            refused(game, seat, {"type": kind}, "bad_action")
    assert not cls.system_actions & set(cls.action_schema.types)


def test_the_opening_order_is_documented_where_it_is_made() -> None:
    doc = Game.apply.__doc__ or ""
    order = [doc.index(code) for code in ("game_over", "bad_action", "bad_seat", "not_your_turn")]
    assert order == sorted(order)


def test_an_illegal_move_by_the_right_seat_is_the_rules_refusal_not_an_opening_one() -> None:
    # Stakes: the first turn of a round must be a Flip (stakes.md); the opening checks all pass
    game = new_game("stakes")
    seat = game.acting_seats()[0]
    error = refused(game, seat, {"type": "bank"}, "first_turn_must_flip")
    assert isinstance(error, IllegalAction) and "Flip" in error.message
