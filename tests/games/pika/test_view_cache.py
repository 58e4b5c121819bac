"""The view parts Pika keeps between calls (the discard's counts by name) equal a fresh build after every step."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.pika import Pika
from app.games.rng import HashRandom
from tests.games.pika.test_properties import STEP_LIMIT, games, random_step


@settings(max_examples=25, deadline=None)
@given(games)
def test_kept_view_parts_equal_a_fresh_build_after_every_step(seed_and_seats):
    seed, seats = seed_and_seats
    game = Pika.create(seats, None, HashRandom(f"view-cache:{seed}"))
    chooser = random.Random(seed)
    for _ in range(STEP_LIMIT):
        if game.is_over:
            break
        random_step(game, chooser)
        fresh = Pika.from_state(json.loads(json.dumps(game.to_state())))  # keeps nothing: builds every part anew
        for seat in [*range(seats), None]:
            view = game.view(seat)
            # the same keys in the same order, nested ones included (json.dumps keeps dict order)
            assert json.dumps(view) == json.dumps(fresh.view(seat))
        assert json.dumps(game.public_view()) == json.dumps(fresh.public_view())
        assert game.check_invariants() == []
