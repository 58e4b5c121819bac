"""The view split the table's deltas are built on: every seat's view is the public view (the spectator's, the same
for everyone) with that seat's private part on top, at every moment of random play in every engine."""

from __future__ import annotations

import copy
import random

import pytest

from app.games.base import Game
from app.games.registry import game_names, get_game
from app.games.rng import HashRandom


@pytest.mark.parametrize("name", game_names())
def test_each_view_is_the_public_view_plus_that_seats_private_part(name: str) -> None:
    cls = get_game(name)
    chooser = random.Random(f"split:{name}")
    for game_number in range(4):
        seats = chooser.randint(cls.min_seats, cls.max_seats)
        game = cls.create(seats, cls.check_options(seats, {}), HashRandom(f"split:{name}:{game_number}".encode()))
        for step in range(800):
            public = game.public_view()
            assert public == game.view(None)
            assert not any(key.startswith("$") for key in _keys(public))  # the patch markers (app/tables/patch.py)
            for seat in range(seats):
                private = game.private_view(seat)
                assert game.view(seat) == {**public, **private}, (name, step, seat)
                # built directly, yet exactly the generic definition: the keys whose values differ, nothing more
                assert private == Game.private_view(game, seat), (name, step, seat)
            if game.is_over:
                break
            seat = chooser.choice(game.acting_seats())
            game.apply(seat, chooser.choice(game.legal_actions(seat)))


def _keys(value: object) -> list[str]:
    if isinstance(value, dict):
        return [*value, *(key for inner in value.values() for key in _keys(inner))]
    if isinstance(value, list):
        return [key for inner in value for key in _keys(inner)]
    return []


def _scramble(value: object) -> None:
    """Empty every list and dict reachable from `value`, as a careless reader of a view could."""
    if isinstance(value, dict):
        for item in value.values():
            _scramble(item)
        value.clear()
    elif isinstance(value, list):
        for item in value:
            _scramble(item)
        value.clear()


@pytest.mark.parametrize("name", game_names())
def test_what_the_engine_hands_out_is_the_callers_own(name: str) -> None:
    # Views and legal actions are built fresh on every call (the engines keep only immutable things cached, such as
    # tuples of names): a caller that mutates what it got changes neither the game nor what others get next.
    cls = get_game(name)
    chooser = random.Random(f"own:{name}")
    for game_number in range(3):
        seats = chooser.randint(cls.min_seats, cls.max_seats)
        game = cls.create(seats, cls.check_options(seats, {}), HashRandom(f"own:{name}:{game_number}".encode()))
        for _ in range(300):
            if game.is_over:
                break
            seat = chooser.choice(game.acting_seats())
            handed_out = {
                "view": game.view(seat),
                "spectator": game.view(None),
                "public": game.public_view(),
                "private": game.private_view(seat),
                "legal": game.legal_actions(seat),
            }
            state = game.to_state()
            expected = copy.deepcopy(handed_out)
            for value in handed_out.values():
                _scramble(value)
            assert game.to_state() == state
            again = {
                "view": game.view(seat),
                "spectator": game.view(None),
                "public": game.public_view(),
                "private": game.private_view(seat),
                "legal": game.legal_actions(seat),
            }
            assert again == expected
            game.apply(seat, chooser.choice(game.legal_actions(seat)))
