"""Property tests over random legal play for 2, 3 and 4 players (hypothesis draws the seeds and the cut points).

Every game ends; the invariants hold after every action; no view or event holds another player's unplaced dice, a
face-down card's face (Insider Tip aside, to its player) or the deck order; a state serialised mid-game has the
identical future.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.piker.piker_support import counterfactual, hidden_ids

from app.games.base import competition_ranking
from app.games.piker import Piker
from app.games.rng import HashRandom

SEATS = st.sampled_from([2, 3, 4])
SEEDS = st.integers(min_value=0, max_value=2**32)
ACTION_LIMIT = 3000


def random_step(game: Piker, rnd: random.Random):
    seat = rnd.choice(game.acting_seats())
    legal = game.legal_actions(seat)
    assert legal, f"seat {seat} must act but has no legal action"
    action = rnd.choice(legal)
    return seat, action, game.apply(seat, action)


def quoted_ids(text: str, cards: set[str]) -> list[str]:
    return [card for card in cards if f'"{card}"' in text]


def check_views(game: Piker) -> None:
    for seat in [*range(game.seat_count), None]:
        view = game.view(seat)
        text = json.dumps(view)
        assert not quoted_ids(text, hidden_ids(game, seat)), f"seat {seat} sees a hidden card"
        assert view["to_act"] == game.acting_seats()
        if seat is not None:
            assert view["my_dice"] == game.hands[seat]
        assert counterfactual(game, seat).view(seat) == view, f"seat {seat}'s view depends on hidden facts"


def check_events(game: Piker, actor: int, events) -> None:
    for seat in [*range(game.seat_count), None]:
        hidden = hidden_ids(game, seat)
        for event in events:
            shown = event.for_seat(seat)
            assert not quoted_ids(json.dumps(shown), hidden), f"{event.type} shows seat {seat} a hidden card"
            if event.type == "dice_rolled":
                assert ("your_dice" in shown) == (seat is not None)
                if seat is not None:
                    assert shown["your_dice"] == sorted(shown["your_dice"], reverse=True)
            if event.type == "securing_chosen" and seat != actor:
                assert set(shown) == {"type", "seat"}


@settings(max_examples=30, deadline=None)
@given(seats=SEATS, seed=SEEDS)
def test_random_play_ends_keeps_the_invariants_and_leaks_nothing(seats, seed):
    rnd = random.Random(seed)
    game = Piker.create(seats, None, HashRandom(f"property:{seed}"))
    assert game.check_invariants() == []
    check_views(game)
    actions = 0
    while game.outcome() is None:
        seat, _, events = random_step(game, rnd)
        actions += 1
        assert actions < ACTION_LIMIT, "the game did not end"
        assert game.check_invariants() == []
        check_events(game, seat, events)
        if actions % 5 == 0 or game.step in ("after_market", "insider_tip", "bull_run"):
            check_views(game)
    outcome = game.outcome()
    assert len(game.log) == 6
    assert sorted(outcome.placings)[0] == 1 and outcome.placings.count(1) == 1
    assert outcome.placings == competition_ranking(
        [(outcome.scores[s], s == outcome.winners()[0]) for s in range(seats)], higher_is_better=True
    )
    assert outcome.scores == [b["total"] for b in outcome.summary["scores"]]
    check_views(game)


@settings(max_examples=15, deadline=None)
@given(seats=SEATS, seed=SEEDS)
def test_the_dice_each_player_rolled_are_all_accounted_for_every_step(seats, seed):
    rnd = random.Random(seed)
    game = Piker.create(seats, None, HashRandom(f"dice:{seed}"))
    while game.outcome() is None:
        _, _, events = random_step(game, rnd)
        for event in events:
            if event.type == "dice_rolled":
                assert event.public["dice"] == [5 + len(r) for r in game.dice_reasons]
        for seat in range(seats):
            placed = sum(1 for slot in game.market for owner, _ in slot["bids"] if owner == seat)
            placed += sum(1 for owner, _ in game.after_market if owner == seat)
            assert len(game.hands[seat]) + placed == game.dice_this_round[seat]
