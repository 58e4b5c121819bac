"""The end of the game (kapern.md, "End of the game"): the last turns, the leader's extra turn, play going on, pirate
magic. Big scores come from the Pirate: eight coins are (4000 + 800 + 500) x 2 = 10600; 4 sabers and 4 coins 2600;
7 coins and a skull (2000 + 700) x 2 = 5400."""

import pytest

from app.games.base import IllegalAction
from app.games.kapern.scripting import dice, roll, scripted_game, stop


def play_turn(game, *rerolls, stop_after=True):
    """The acting seat makes its first roll and `rerolls` (faces scripted), then stops if still in its turn."""
    seat = game.acting_seats()[0]
    number = game.view(None)["turn"]["number"]
    events = game.apply(seat, roll())
    for dice_to_roll in rerolls:
        events += game.apply(seat, roll(*dice_to_roll))
    if stop_after and not game.is_over and game.view(None)["turn"]["number"] == number:
        events += game.apply(seat, stop())
    return events


def new_game(cards, rolls, seats=2):
    return scripted_game(seats, cards=cards, rolls=[dice(r) for r in rolls], strict=True)


def test_final_round_every_other_player_takes_one_last_turn():
    # Seat 0 ends a turn at 10600: seats 1 and 2 each take one last turn, nobody passes, seat 0 wins.
    game = new_game(["pirate", "animals", "animals"],
                    ["8 coins", "3 monkeys, 3 sabers, 2 skulls", "3 skulls, 5 parrots"], seats=3)
    events = play_turn(game)
    assert "final_round" in [e.type for e in events]
    end = game.view(2)["end"]
    assert end["final_round"] and end["leader"] == 0
    assert end["reached_8000"] == [0]
    assert end["last_turns"] == [1, 2]
    play_turn(game)
    assert game.view(0)["end"]["last_turns"] == [2]
    assert not game.is_over
    events = play_turn(game)
    assert events[-1].type == "game_end"
    outcome = game.outcome()
    assert outcome.placings == [1, 2, 3]
    assert outcome.scores == [10600, 200, 0]
    assert outcome.summary["reason"] == "final_round"
    assert game.acting_seats() == []
    assert game.legal_actions(1) == []


def test_leader_takes_an_extra_last_turn_when_passed():
    game = new_game(
        ["skull_1", "pirate", "pirate", "pirate", "animals"],
        ["2 skulls, 6 monkeys", "4 sabers, 4 coins", "8 coins", "8 diamonds", "3 skulls, 5 monkeys"],
    )
    play_turn(game)  # seat 0: Dead head and two skulls: disqualified, 0
    play_turn(game)  # seat 1: 2600
    play_turn(game)  # seat 0: 10600, the last turns begin
    assert game.view(0)["end"]["last_turns"] == [1]
    events = play_turn(game)  # seat 1: 10600 more, 13200: passes seat 0
    assert "leader_extra_turn" in [e.type for e in events]
    end = game.view(0)["end"]
    assert end["leader_extra_turn"] and end["last_turns"] == [0]
    assert game.acting_seats() == [0]
    play_turn(game)  # seat 0's extra last turn: disqualified
    assert game.outcome().placings == [2, 1]
    assert game.outcome().scores == [10600, 13200]


def test_play_goes_on_when_nobody_holds_8000_after_the_last_turns_then_the_next_to_reach_it_wins():
    game = new_game(
        ["pirate", "skull_1", "pirate", "pirate", "animals", "skull_1", "pirate"],
        ["4 sabers, 4 coins", "2 skulls, 6 monkeys", "7 coins, skull", "5 skulls, 3 coins", "3 skulls",
         "3 monkeys, 3 parrots, 2 skulls", "2 skulls, 6 monkeys", "4 sabers, 4 coins"],
    )
    play_turn(game)  # seat 0: 2600
    play_turn(game)  # seat 1: 0
    events = play_turn(game)  # seat 0: 5400, total 8000: the last turns begin
    assert "final_round" in [e.type for e in events]
    # Seat 1 on Skull Island with the Pirate: all eight skulls cost seat 0 1600, leaving 6400.
    events = play_turn(game, (5, 6, 7), stop_after=False)
    assert "play_goes_on" in [e.type for e in events]
    assert game.view(0)["scores"] == [6400, 0]
    end = game.view(0)["end"]
    assert end["overtime"] and not end["final_round"]
    play_turn(game)  # seat 0: animals 6 = 1000, 7400: not yet
    play_turn(game)  # seat 1: 0
    assert not game.is_over
    events = play_turn(game)  # seat 0: 2600 more, 10000: wins at once
    assert events[-1].type == "game_end"
    assert game.outcome().placings == [1, 2]
    assert game.outcome().summary["reason"] == "reached_8000_after_the_last_turns"


def test_equal_scores_share_first_place():
    game = new_game(["pirate", "pirate"], ["8 coins", "8 diamonds"])
    play_turn(game)
    play_turn(game)
    assert game.outcome().placings == [1, 1]


def test_pirate_magic_wins_at_once_even_behind():
    game = new_game(["pirate", "gold_coin"], ["8 coins", "8 coins"])
    play_turn(game)  # seat 0: 10600, the last turns begin
    events = play_turn(game)  # seat 1: a set of nine: 5400 and the game
    assert events[-1].type == "game_end"
    outcome = game.outcome()
    assert outcome.scores == [10600, 5400]
    assert outcome.placings == [2, 1]
    assert outcome.summary["reason"] == "pirate_magic"


def test_nothing_after_the_end():
    game = new_game(["gold_coin"], ["8 coins"])
    play_turn(game)
    assert game.is_over
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, roll())
    assert refused.value.code == "game_over"
    assert game.to_state() == before
    view = game.view(1)
    assert view["over"] and view["to_act"] == [] and view["turn"] is None
    assert view["outcome"]["placings"] == [1, 2]
    assert not game.check_invariants()
