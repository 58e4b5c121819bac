"""The view split the table's deltas are built on: every seat's view is the public view (the spectator's, the same
for everyone) with that seat's private part on top, at every moment of random play in every engine."""

from __future__ import annotations

import random

import pytest

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
                assert game.view(seat) == {**public, **game.private_view(seat)}, (name, step, seat)
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
