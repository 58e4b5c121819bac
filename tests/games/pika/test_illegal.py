"""Illegal and malformed actions are refused with a specific code and change nothing."""

from __future__ import annotations

import pytest

from app.games.pika.scripting import position
from tests.support.refusals import refused


@pytest.fixture
def game():
    return position([["red-3", "blue-4", "joker", "+4"], ["green-1", "green-2", "red-5"]], ["red-9"])


def test_acting_out_of_turn_is_refused(game):
    refused(game, 1, {"type": "play", "card": "red-5"}, "not_your_turn")
    refused(game, 1, {"type": "draw"}, "not_your_turn")
    refused(game, 1, {"type": "keep"}, "not_your_turn")
    refused(game, 1, {"type": "take_stack"}, "not_your_turn")


def test_a_card_not_held_is_refused(game):
    refused(game, 0, {"type": "play", "card": "red-5"}, "card_not_held")


def test_an_unmatched_card_is_refused(game):
    refused(game, 0, {"type": "play", "card": "blue-4"}, "card_not_playable")


@pytest.mark.parametrize("card", ["joker", "+4"])
def test_a_black_card_without_a_colour_is_refused(card, game):
    refused(game, 0, {"type": "play", "card": card}, "colour_needed")
    refused(game, 0, {"type": "play", "card": card, "colour": "purple"}, "bad_action")
    refused(game, 0, {"type": "play", "card": card, "colour": 2}, "bad_action")


def test_a_colour_for_a_coloured_card_is_refused(game):
    refused(game, 0, {"type": "play", "card": "red-3", "colour": "blue"}, "colour_not_allowed")


def test_pika_by_someone_else_is_refused(game):
    refused(game, 1, {"type": "pika"}, "no_pika_to_call")
    game.apply(0, {"type": "play", "card": "red-3"})
    game.apply(1, {"type": "play", "card": "red-5"})
    game.apply(0, {"type": "play", "card": "+4", "colour": "red"})
    game.apply(1, {"type": "take_stack"})
    game.apply(0, {"type": "play", "card": "joker", "colour": "red"})
    assert [d.seat for d in game.deadlines()] == [0]
    refused(game, 1, {"type": "pika"}, "not_your_pika")


@pytest.mark.parametrize(
    "action",
    [
        "play",
        None,
        {},
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": "red-33"},
        {"type": "play", "card": 7},
        {"type": "play", "card": "red-3", "pika": "yes"},
        {"type": "play", "card": "red-3", "extra": 1},
        {"type": "draw", "card": "red-3"},
        {"type": "reorder"},
        {"type": "alert_expired", "seat": 0},
    ],
)
def test_malformed_actions_are_refused(action, game):
    refused(game, 0, action, "bad_action")  # the table's alert_expired included: no action of a seat's


def test_an_unknown_seat_is_refused(game):
    refused(game, 7, {"type": "draw"}, "bad_seat")
    refused(game, "0", {"type": "draw"}, "bad_seat")


def test_the_table_may_only_send_alert_expiries(game):
    refused(game, None, {"type": "draw"}, "not_your_turn")
    refused(game, None, {"type": "alert_expired", "seat": 0, "alert": 1}, "alert_closed")
    refused(game, None, {"type": "alert_expired", "seat": "0", "alert": 1}, "bad_action")


def test_take_and_keep_without_a_reason_are_refused(game):
    refused(game, 0, {"type": "take_stack"}, "no_stack")
    refused(game, 0, {"type": "keep"}, "nothing_drawn")


def test_anything_after_the_end_is_refused():
    game = position([["red-3"], ["green-1", "green-2"]], ["red-9"], called=[0])
    game.apply(0, {"type": "play", "card": "red-3"})
    refused(game, 1, {"type": "draw"}, "game_over")
    refused(game, 1, "nonsense", "game_over")
    assert game.legal_actions(1) == []
