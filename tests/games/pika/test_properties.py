"""Properties over random legal play (hypothesis draws the seed, the table size and the choices)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.pika import Pika
from app.games.pika.cards import NAMES, kinds_of_mask
from app.games.rng import HashRandom

STEP_LIMIT = 4000

games = st.tuples(st.integers(min_value=0, max_value=2**32), st.sampled_from([2, 3, 4]))


def random_step(game: Pika, chooser: random.Random) -> list:
    """One random legal thing: answer or let run an alert, reorder a hand, or act for the seat to act."""
    deadlines = game.deadlines()
    if deadlines and chooser.random() < 0.5:
        deadline = chooser.choice(deadlines)
        if chooser.random() < 0.5:
            return game.apply(deadline.seat, {"type": "pika"})
        return game.apply(None, dict(deadline.action))
    if chooser.random() < 0.04:
        seat = chooser.randrange(game.seat_count)
        hand = game.view(seat)["hand"]
        chooser.shuffle(hand)
        return game.apply(seat, {"type": "reorder", "hand": hand})
    (seat,) = game.acting_seats()
    legal = game.legal_actions(seat)
    plays = [action for action in legal if action["type"] == "play"]
    action = chooser.choice(plays if plays and chooser.random() < 0.85 else legal)
    return game.apply(seat, action)


def check_events_hide_cards(events, game: Pika) -> None:
    for event in events:
        text = json.dumps(event.public)
        if event.type in ("draw", "take_stack", "penalty", "reshuffle", "hand_reordered", "pika", "keep"):
            assert not any(name in text for name in NAMES), f"{event.type} shows a card publicly: {text}"
        for owner in event.private:
            for seat in [*range(game.seat_count), None]:
                if seat != owner:
                    assert event.for_seat(seat) == {"type": event.type, **event.public}


@settings(max_examples=150, deadline=None)
@given(games)
def test_every_game_ends_with_cards_conserved_and_placings_well_formed(params):
    seed, seats = params
    game = Pika.create(seats, None, HashRandom(f"ends:{seed}"))
    chooser = random.Random(seed)
    assert game.check_invariants() == []
    for _ in range(STEP_LIMIT):
        if game.outcome() is not None:
            break
        events = random_step(game, chooser)
        assert game.check_invariants() == []
        check_events_hide_cards(events, game)
    outcome = game.outcome()
    assert outcome is not None, "the round did not end"
    left = [len(hand) for hand in game.to_state()["hands"]]
    assert game.view(None)["hand_counts"] == left
    assert outcome.scores == left
    assert min(outcome.placings) == 1
    for seat in range(seats):
        assert outcome.placings[seat] == 1 + sum(1 for other in left if other < left[seat])
    assert game.acting_seats() == [] and game.deadlines() == []


@settings(max_examples=60, deadline=None)
@given(games)
def test_pass_notes_are_true_of_players_who_pass_only_when_nothing_goes(params):
    # The view's "passed" groups are deductions from what everyone saw; for the easy bot, which draws only when it
    # cannot play, every group must describe its hand truly.
    from app.games.pika.bots import EasyBot

    seed, seats = params
    game = Pika.create(seats, None, HashRandom(f"notes:{seed}"))
    bots = [EasyBot(seat, random.Random(seed + seat)) for seat in range(seats)]
    for _ in range(STEP_LIMIT):
        if game.outcome() is not None:
            break
        deadlines = game.deadlines()
        if deadlines:
            game.apply(None, dict(deadlines[0].action))
            continue
        (seat,) = game.acting_seats()
        game.apply(seat, bots[seat].choose(None, game.legal_actions(seat)))
        for other in range(seats):
            hand = game.to_state()["hands"][other]
            for group in game.view(None)["passed"][other]:
                kinds = kinds_of_mask(group["kinds"])
                avoiding = sum(1 for card in hand if card not in kinds)
                assert avoiding >= group["cards"]
