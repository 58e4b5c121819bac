"""Illegal actions are refused with a specific code and a readable reason, and change nothing."""

from __future__ import annotations

import pytest
from tests.games.piker.piker_support import (
    AM,
    BLUE_MARKET,
    FIVE_ONES,
    FIVE_SIXES,
    give,
    hands,
    invest,
    make_last_round,
    new_game,
    place_rest,
)
from tests.support.refusals import refused


def invest_game():
    return new_game(2, deal=BLUE_MARKET, rolls=hands([6, 5, 4, 3, 2], FIVE_ONES))


def after_market_game():
    """Seat 0: tech-4 (secure 6) and shipping-1 (secure 3) unsecured, After Market dice 4 and 2, two Leveraged Buyouts."""
    game = new_game(2, deal=["tech-4", "energy-1", "shipping-1", "mining-1"], rolls=hands([6, 4, 2, 1, 1], FIVE_ONES))
    give(game, 1, unsecured=["mining-8"])
    give(game, 0, kept=["leveraged-buyout-1", "leveraged-buyout-2"])
    invest(game, (0, 6, 0), (1, 1, 1), (0, 4, AM), (1, 1, 1), (0, 2, AM), (1, 1, 1), (0, 1, 2), (1, 1, 1), (0, 1, 2), (1, 1, 1))
    assert game.acting_seats() == [0]
    return game


@pytest.mark.parametrize(
    "action",
    [
        "place",
        None,
        {},
        {"type": 3},
        {"type": "fold"},
        {"type": "place_die"},
        {"type": "place_die", "pips": "6", "on": "card", "slot": 0},
        {"type": "place_die", "pips": True, "on": "card", "slot": 0},
        {"type": "place_die", "pips": 6, "on": "table"},
        {"type": "place_die", "pips": 6, "on": "card"},
        {"type": "place_die", "pips": 6, "on": "card", "slot": "0"},
    ],
)
def test_malformed_actions_are_refused_as_bad_action(action):
    refused(invest_game(), 0, action, "bad_action")


def test_acting_out_of_turn_is_refused():
    game = invest_game()
    refused(game, 1, {"type": "place_die", "pips": 1, "on": "card", "slot": 0}, "not_your_turn")
    refused(game, None, {"type": "place_die", "pips": 6, "on": "card", "slot": 0}, "not_your_turn")
    refused(game, 7, {"type": "place_die", "pips": 6, "on": "card", "slot": 0}, "bad_seat")
    assert game.legal_actions(1) == []


def test_an_action_of_another_step_is_refused():
    game = invest_game()
    refused(game, 0, {"type": "secure", "card": "tech-1", "dice": [6], "leveraged_buyouts": 0}, "wrong_step")
    refused(game, 0, {"type": "finish_securing"}, "wrong_step")
    refused(game, 0, {"type": "extra_card", "add": True}, "wrong_step")
    refused(game, 0, {"type": "keep_card"}, "wrong_step")


def test_placing_a_die_you_do_not_hold_is_refused():
    refused(invest_game(), 0, {"type": "place_die", "pips": 1, "on": "card", "slot": 0}, "die_not_held")


def test_placing_on_a_card_not_in_the_market_is_refused():
    refused(invest_game(), 0, {"type": "place_die", "pips": 6, "on": "card", "slot": 4}, "no_such_card")
    refused(invest_game(), 0, {"type": "place_die", "pips": 6, "on": "card", "slot": -1}, "bad_action")  # slots count from 0


def test_placing_on_a_full_after_market_is_refused():
    game = new_game(2, rolls=hands(FIVE_SIXES, FIVE_SIXES))
    invest(game, (0, 6, AM), (1, 6, AM), (0, 6, AM), (1, 6, AM))
    refused(game, 0, {"type": "place_die", "pips": 6, "on": "after_market"}, "after_market_full")


def test_securing_refusals():
    game = after_market_game()
    secure = {"type": "secure", "card": "tech-4", "dice": [4, 2], "leveraged_buyouts": 0}
    refused(game, 0, {**secure, "card": "mining-8"}, "card_not_unsecured")  # an opponent's card
    refused(game, 0, {**secure, "card": 5}, "bad_action")
    refused(game, 0, {**secure, "dice": "42"}, "bad_action")
    refused(game, 0, {**secure, "leveraged_buyouts": -1}, "bad_action")
    refused(game, 0, {**secure, "dice": []}, "no_dice")
    refused(game, 0, {**secure, "dice": [6]}, "dice_not_in_after_market")
    refused(game, 0, {**secure, "dice": [4, 4]}, "dice_not_in_after_market")
    refused(game, 0, {**secure, "dice": [4]}, "not_enough_pips")
    refused(game, 0, {**secure, "dice": [2], "leveraged_buyouts": 3}, "no_leveraged_buyout")
    refused(game, 0, {**secure, "card": "shipping-1", "dice": [4, 2]}, "more_than_needed")
    refused(game, 0, {**secure, "card": "shipping-1", "dice": [4], "leveraged_buyouts": 1}, "more_than_needed")
    game.apply(0, {"type": "secure", "card": "shipping-1", "dice": [2], "leveraged_buyouts": 1})
    refused(game, 0, {**secure, "card": "shipping-1", "dice": [4]}, "card_already_chosen")
    refused(game, 0, {**secure, "dice": [4], "leveraged_buyouts": 2}, "no_leveraged_buyout")  # one is already used


def test_a_bull_run_must_secure_one_of_your_own_unsecured_cards():
    game = new_game(2, deal=["bull-run", *BLUE_MARKET[1:]], rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, unsecured=["tech-4", "energy-7"])
    give(game, 1, unsecured=["mining-8"])
    place_rest(game, {0: 0, 1: 1})
    refused(game, 0, {"type": "bull_run", "card": "mining-8"}, "card_not_unsecured")
    refused(game, 0, {"type": "bull_run"}, "bad_action")
    refused(game, 1, {"type": "bull_run", "card": "mining-8"}, "not_your_turn")


def test_a_hostile_takeover_must_take_an_opponents_unsecured_card():
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, kept=["hostile-takeover"], unsecured=["tech-4"], secured=["energy-4"])
    give(game, 1, unsecured=["mining-8"])
    place_rest(game, {0: 0, 1: 0})
    assert game.view(0)["step"] == "hostile_takeover"
    refused(game, 0, {"type": "play_hostile_takeover", "card": "tech-4"}, "card_not_unsecured")  # your own
    refused(game, 0, {"type": "play_hostile_takeover", "card": "energy-4"}, "card_not_unsecured")
    refused(game, 0, {"type": "play_hostile_takeover"}, "bad_action")


def test_an_insider_tip_looks_at_two_different_face_down_market_cards():
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, kept=["insider-tip"])
    place_rest(game, {0: 0, 1: 0})
    game.apply(1, {"type": "extra_card", "add": False})
    assert game.view(0)["step"] == "insider_tip"
    for slots in ([0, 0], [0], [0, 1, 2], [0, 4]):
        refused(game, 0, {"type": "play_insider_tip", "slots": slots}, "bad_slots")
    for slots in ([-1, 0], "01", [0, "1"]):  # not a list of slot numbers at all
        refused(game, 0, {"type": "play_insider_tip", "slots": slots}, "bad_action")


def test_the_extra_card_decision_needs_yes_or_no():
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    place_rest(game, {0: 0, 1: 0})
    refused(game, 1, {"type": "extra_card", "add": "yes"}, "bad_action")
    refused(game, 1, {"type": "extra_card"}, "bad_action")
    refused(game, 0, {"type": "extra_card", "add": True}, "not_your_turn")


def test_anything_after_the_end_is_refused():
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    make_last_round(game)
    place_rest(game, {0: 0, 1: 0})
    assert game.outcome() is not None and game.acting_seats() == [] and game.legal_actions(0) == []
    refused(game, 0, {"type": "place_die", "pips": 6, "on": "card", "slot": 0}, "game_over")
    refused(game, None, {"type": "anything"}, "game_over")
