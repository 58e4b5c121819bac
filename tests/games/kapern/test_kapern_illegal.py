"""Illegal and malformed actions are refused with a specific code and change nothing."""

import pytest

from app.games.kapern.scripting import dice, put, roll, scripted_game, stop, take
from tests.support.refusals import refused


def new_game(cards, rolls, seats=2):
    return scripted_game(seats, cards=cards, rolls=[dice(r) for r in rolls])


def test_a_single_die_reroll():
    game = new_game(["animals"], ["3 monkeys, 3 sabers, 2 coins"])
    game.apply(0, roll())
    refused(game, 0, roll(7), "single_die")


def test_rerolling_a_skull():
    game = new_game(["pirate"], ["1 skull, 3 monkeys, 4 sabers"])
    game.apply(0, roll())
    refused(game, 0, roll(0, 1, 2), "skull_locked")
    refused(game, 0, roll(0), "skull_locked")


def test_acting_out_of_turn():
    game = new_game(["animals"], ["3 monkeys, 3 sabers, 2 coins"])
    refused(game, 1, roll(), "not_your_turn")
    game.apply(0, roll())
    refused(game, 1, stop(), "not_your_turn")
    refused(game, None, stop(), "not_your_turn")
    assert game.legal_actions(1) == []


def test_putting_a_skull_on_the_chest():
    game = new_game(["treasure_island"], ["2 skulls, 3 monkeys, 3 sabers"])
    game.apply(0, roll())
    refused(game, 0, put(1), "skull_on_chest")


def test_a_second_guardian_use():
    game = new_game(["guardian"], ["2 skulls, 3 monkeys, 3 sabers", "skull"])
    game.apply(0, roll())
    game.apply(0, roll(0))
    refused(game, 0, roll(0, 2, 3), "guardian_used")
    refused(game, 0, roll(1), "guardian_used")


def test_chest_moves_that_make_no_sense():
    game = new_game(["treasure_island"], ["2 skulls, 3 monkeys, 3 sabers"])
    refused(game, 0, put(2), "not_rolled_yet")
    game.apply(0, roll())
    refused(game, 0, take(2), "not_on_chest")
    game.apply(0, put(2))
    refused(game, 0, put(2), "already_on_chest")
    refused(game, 0, roll(2, 3), "die_on_chest")


def test_stop_before_the_first_roll():
    game = new_game(["animals"], [])
    refused(game, 0, stop(), "not_rolled_yet")


@pytest.mark.parametrize(
    "action",
    [
        {},
        {"type": 3},
        {"type": "fold"},
        {"type": "roll"},
        {"type": "roll", "dice": []},
        {"type": "roll", "dice": "01234567"},
        {"type": "roll", "dice": [0, 1, 2, 3, 4, 5, 6, 8]},
        {"type": "roll", "dice": [0, 0, 1, 2, 3, 4, 5, 6, 7]},
        {"type": "roll", "dice": [True, 1, 2, 3, 4, 5, 6, 7]},
        {"type": "roll", "dice": [-1, 1, 2, 3, 4, 5, 6, 7]},
        {"type": "put_on_chest"},
        {"type": "put_on_chest", "die": "3"},
        "roll",
        None,
    ],
)
def test_malformed_actions(action):
    game = new_game(["treasure_island"], [])
    refused(game, 0, action, "bad_action")


def test_legal_actions_are_all_accepted():
    # Every listed action applies cleanly on a copy of the game.
    game = new_game(["guardian"], ["2 skulls, 3 monkeys, 3 sabers"])
    game.apply(0, roll())
    state = game.to_state()
    legal = game.legal_actions(0)
    assert {"type": "stop"} in legal
    for action in legal:
        copy = type(game).from_state(state)
        copy.apply(0, action)
