"""Property tests over random legal play, 2 to 6 players: every game ends, invariants hold after every action, no
view or event leaks the deck or another seat's Peek, serialisation keeps the identical future, and exactly the legal
actions are accepted."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.base import IllegalAction
from app.games.rng import HashRandom
from app.games.stakes import Stakes
from app.games.stakes.cards import FULL_DECK
from tests.games.stakes.stakes_support import hidden_from, random_action, strings_in

ACTION_LIMIT = 5_000
seats_st = st.integers(min_value=2, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)


def _candidates(game: Stakes, seat: int) -> list:
    """Every action shape worth trying at this moment, legal or not."""
    actions: list = [{"type": kind} for kind in ("flip", "bank", "pass")]
    actions += [{"type": "twist", "die": die} for die in ("a", "b")]
    actions += [{"type": "nudge", "die": d, "direction": w} for d in ("a", "b") for w in ("up", "down")]
    top = game.deck[:2]
    actions += [{"type": "put_back", "cards": top}, {"type": "put_back", "cards": top[::-1]}]
    actions += [{"type": "put_back", "cards": [FULL_DECK[0], FULL_DECK[1]]}, {"type": "twist", "die": "c"}, {}]
    return actions


@settings(max_examples=50, deadline=None)
@given(seats=seats_st, seed=seed_st)
def test_random_play_ends_keeps_invariants_and_leaks_nothing(seats, seed):
    game = Stakes.create(seats, None, HashRandom(f"props-{seed}"))
    chooser = random.Random(seed)
    viewers = [*range(seats), None]
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < ACTION_LIMIT, "the game did not end"
        acting = game.acting_seats()
        assert len(acting) == 1
        for other in range(seats):
            if other not in acting:
                assert game.legal_actions(other) == []
        seat, action = random_action(game, chooser)
        events = game.apply(seat, action)
        assert game.check_invariants() == []
        for viewer in viewers:
            view = game.view(viewer)
            json.dumps(view)
            hidden = hidden_from(game, viewer)
            assert hidden.isdisjoint(strings_in(view)), f"view of {viewer} shows a deck card"
            shown = [event.for_seat(viewer) for event in events]
            assert hidden.isdisjoint(strings_in(shown)), f"events for {viewer} show a deck card"
            assert view["to_act"] == game.acting_seats()
    result = game.outcome()
    assert result is not None
    assert len(result.placings) == seats and min(result.placings) == 1
    assert all(1 <= p <= seats for p in result.placings)
    if seats == 2:
        assert sorted(result.scores) != [4, 4] and max(result.scores) == 4
    else:
        assert all(len(player["round_scores"]) == 5 for player in game.view(None)["players"])


@settings(max_examples=60, deadline=None)
@given(seats=seats_st, seed=seed_st, cut=st.integers(min_value=0, max_value=60))
def test_exactly_the_legal_actions_are_accepted_and_refusals_change_nothing(seats, seed, cut):
    game = Stakes.create(seats, None, HashRandom(f"legal-{seed}"))
    chooser = random.Random(seed)
    for _ in range(cut):
        if game.is_over:
            return
        game.apply(*random_action(game, chooser))
    if game.is_over:
        return
    seat = game.acting_seats()[0]
    legal = game.legal_actions(seat)
    assert legal
    state = game.to_state()
    for action in _candidates(game, seat):
        trial = Stakes.from_state(state)
        if action in legal:
            trial.apply(seat, action)
            assert trial.check_invariants() == []
        else:
            try:
                trial.apply(seat, action)
            except IllegalAction as refused:
                assert refused.code and refused.message
            else:
                raise AssertionError(f"{action} is not legal but was accepted")
            assert trial.to_state() == state
    for other in range(seats):
        if other != seat:
            trial = Stakes.from_state(state)
            try:
                trial.apply(other, legal[0])
            except IllegalAction as refused:
                assert refused.code == "not_your_turn"
            else:
                raise AssertionError("a seat acted out of turn")
            assert trial.to_state() == state
