"""Kapern test helpers shared by its property tests and the conformance suite."""

from __future__ import annotations

import json
import random

from app.games.kapern import Kapern
from app.games.rng import HashRandom


def dealt_again(game: Kapern, chooser: random.Random) -> Kapern:
    """The same game with everything nobody may see changed: another deck order and another random source."""
    twin = Kapern.from_state(json.loads(json.dumps(game.to_state())))
    chooser.shuffle(twin.deck)
    twin.rng = HashRandom(f"another seed {chooser.random()}".encode())
    return twin
