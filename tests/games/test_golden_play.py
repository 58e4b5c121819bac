"""Golden play: a digest of everything every engine says over fixed random games, pinned.

Stored games are replayed from their seed and action log, and the browser client and the bots read the views, so a
change made for speed must change nothing anyone can observe. For each engine this plays a few seeded games with
random legal choices (Pika's alerts answered, let run or reordered around too) and hashes, at every step, the seats
to act, the deadlines, every seat's legal actions, every seat's view and the spectator's, the public and private
views, every event as each seat and a spectator receive it, and every tenth step the state (random source
included). Dict keys are
hashed sorted: the order of keys in a JSON object is not part of what it says.

A digest that changes means some observable behaviour changed. If that was intended (a rule fix, a new view field),
say so in the commit and put the new digest printed by the failing assertion here.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from app.games.base import Game
from app.games.registry import get_game
from app.games.rng import HashRandom

# engine -> [(seats, seed)]: every seat count of every engine, the Duel of Stakes included
GAMES = {
    "pika": [
        (2, "golden-pika-2"), (3, "golden-pika-3"), (4, "golden-pika-4"), (2, "golden-pika-2b"),
        (2, "golden-pika-2c"), (3, "golden-pika-3b"), (4, "golden-pika-4b"),
    ],
    "stakes": [(2, "golden-stakes-2"), (3, "golden-stakes-3"), (6, "golden-stakes-6"), (2, "golden-stakes-2b"),
               (4, "golden-stakes-4")],
    "kapern": [(2, "golden-kapern-2"), (3, "golden-kapern-3"), (5, "golden-kapern-5")],
    "piker": [(2, "golden-piker-2"), (3, "golden-piker-3"), (4, "golden-piker-4")],
}
STEP_LIMIT = 1500

EXPECTED = {
    "pika": "be03b3fb469e0813e9128e2a2ecfad5a3bb1eeae9fe0bdc97a374e09923c0843",
    "stakes": "2744b74306f4fccb799bd48781167541494516cb7741122ffddba7d7b241cf48",
    "kapern": "f8db6b1b40ab727803df0e96fba36b439ecfce700a993aeddf4ec918cdfa277b",
    "piker": "516aa69f457a8964d6cfe40ddc6baebb63003469b64d54ebb6cbf49dd307fa81",
}


def _choose(game: Game, chooser: random.Random) -> tuple[int | None, dict]:
    """A random legal step: mostly the acting seat's random legal action; Pika's housekeeping and alerts too."""
    deadlines = game.deadlines()
    if deadlines and chooser.random() < 0.3:
        deadline = chooser.choice(deadlines)
        return None, dict(deadline.action)
    if game.name == "pika" and chooser.random() < 0.03:
        seat = chooser.randrange(game.seat_count)
        hand = game.view(seat)["hand"]
        chooser.shuffle(hand)
        return seat, {"type": "reorder", "hand": hand}
    seat = chooser.choice(game.acting_seats())
    legal = game.legal_actions(seat)
    if {"type": "stop"} in legal and chooser.random() < 0.3:
        return seat, {"type": "stop"}  # Kapern: a random player who never stops plays for ever
    passes = [a for a in legal if a["type"] in ("draw", "keep", "take_stack")]
    others = [a for a in legal if a not in passes]
    # Pika lets a player draw while holding a playable card; drawing every time it may makes very long rounds.
    return seat, chooser.choice(others if others and chooser.random() < 0.8 else legal)


def _observe(game: Game, digest, events, step: int) -> None:
    seats = range(game.seat_count)
    said = {
        "acting": game.acting_seats(),
        "deadlines": [[d.key, d.seconds, d.action, d.seat] for d in game.deadlines()],
        "legal": [game.legal_actions(seat) for seat in seats],
        "views": [game.view(seat) for seat in [*seats, None]],
        "public": game.public_view(),
        "private": [game.private_view(seat) for seat in seats],
        "events": [[event.for_seat(seat) for seat in [*seats, None]] for event in events],
        "outcome": game.outcome().as_dict() if game.outcome() else None,
    }
    if step % 10 == 0 or game.is_over:
        said["state"] = game.to_state()  # not every step: Kapern's state holds every turn so far
    digest.update(json.dumps(said, sort_keys=True).encode())


def play_digest(name: str) -> str:
    cls = get_game(name)
    digest = hashlib.sha256()
    for seats, seed in GAMES[name]:
        game = cls.create(seats, cls.check_options(seats, {}), HashRandom(seed))
        chooser = random.Random(seed)
        events: list = []
        for step in range(STEP_LIMIT):
            _observe(game, digest, events, step)
            if game.is_over:
                break
            seat, action = _choose(game, chooser)
            events = game.apply(seat, action)
    return digest.hexdigest()


@pytest.mark.parametrize("name", list(GAMES))
def test_random_play_says_exactly_what_it_always_said(name: str) -> None:
    assert play_digest(name) == EXPECTED[name]
