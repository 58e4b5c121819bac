"""Property tests over random legal play, 2 to 5 players: every game ends, invariants hold after every action,
views leak nothing hidden (the deck order, the random source), and a game serialised mid-way has the same future."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.kapern import Kapern
from app.games.rng import HashRandom
from tests.games.kapern.kapern_support import dealt_again

LEVELS = ["easy", "medium", "hard", "random"]
DECISION_LIMIT = 20_000


class Player:
    """A seat that plays a bot's choice, or (level "random", or now and then) a random legal action.

    Random play stops a third of the time it may: a player who never stops scores nothing, and a table of them
    sinks below zero for ever (Skull Island and sea battles), so the game would rightly never end.
    """

    def __init__(self, seat, level, rng):
        self.seat = seat
        self.rng = rng
        self.bot = Kapern.bots[level](seat, rng) if level != "random" else None

    def choose(self, game):
        legal = game.legal_actions(self.seat)
        assert legal, "the acting seat has no legal action"
        if self.bot is None or self.rng.random() < 0.15:
            if {"type": "stop"} in legal and self.rng.random() < 0.35:
                return {"type": "stop"}
            return self.rng.choice(legal)
        action = self.bot.choose(game.view(self.seat), legal)
        assert action in legal
        return action


def game_setup(seed, seats, levels, options):
    game = Kapern.create(seats, options, HashRandom(f"prop:{seed}"))
    players = [Player(s, levels[s % len(levels)], random.Random(f"{seed}:{s}")) for s in range(seats)]
    return game, players


def hidden_facts(game):
    """Strings no view or event may contain: the random source's seed."""
    return [game.rng.seed.hex()]


def assert_view_is_public(game):
    """Every view is a function of public facts: another deck order and another random source change nothing."""
    twin = dealt_again(game, random.Random(len(game.turns)))
    for seat in [*range(game.seat_count), None]:
        view = game.view(seat)
        text = json.dumps(view)
        assert view == twin.view(seat)
        for secret in hidden_facts(game):
            assert secret not in text


settings_ = settings(max_examples=25, deadline=None)


@settings_
@given(
    seed=st.integers(0, 10**9),
    seats=st.integers(2, 5),
    levels=st.lists(st.sampled_from(LEVELS), min_size=1, max_size=5),
    published=st.booleans(),
)
def test_random_play_ends_and_keeps_the_invariants(seed, seats, levels, published):
    game, players = game_setup(seed, seats, levels, {"published_deck": published})
    assert not game.check_invariants()
    actions = 0
    while not game.is_over:
        assert actions < DECISION_LIMIT, "the game did not end"
        seat = game.acting_seats()[0]
        events = game.apply(seat, players[seat].choose(game))
        actions += 1
        assert game.check_invariants() == []
        for event in events:
            for viewer in [*range(seats), None]:
                text = json.dumps(event.for_seat(viewer))
                assert game.rng.seed.hex() not in text
        if actions % 7 == 0:
            assert_view_is_public(game)
    outcome = game.outcome()
    assert len(outcome.placings) == seats and min(outcome.placings) == 1
    assert outcome.scores == game.view(None)["scores"]
    assert game.acting_seats() == []
    assert_view_is_public(game)
