"""Scenario tests for the Duel (2 players): shared/rules/stakes.md, "The Duel". Default dice 3 and 4: target 17."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.stakes.scripting import scripted_game
from tests.games.stakes.stakes_support import act, kinds, only, player


def test_duel_deals_four_leverage_dice_each():
    game = scripted_game(2)
    assert [p["dice"] for p in game.view(0)["players"]] == [4, 4]
    assert game.view(0)["dice_dealt"] == 4


def test_duel_devaluation_a_bank_over_the_final_target_loses_to_a_lower_bank_under_it():
    # stakes.md's example drags the target to 11, which no dice can show (12 is the lowest): here it goes to 12
    game = scripted_game(2, deck=["10", "6", "4", "4"], dice=(1, 4), rolls=[1, 3, 4])
    for seat in (0, 1, 0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")  # 14 against 15
    assert player(game, 0)["banked_exact"] is False
    twist = only(act(game, 1, "twist", die="b"), "twist")
    assert twist.public["target"] == 12 and twist.public["busted"] == []
    assert player(game, 0)["status"] == "banked"  # a banked player never busts
    assert game.acting_seats() == [0]  # cold-twisting turn
    act(game, 0, "pass")
    events = act(game, 1, "bank")
    assert kinds(events) == ["bank", "round_end", "pressure", "round_start"]
    end = only(events, "round_end").public
    assert end["target"] == 12 and end["totals"] == [14, 10]
    assert (end["result"], end["winner"], end["loser"]) == ("won", 1, 0)
    assert end["round_wins"] == [0, 1]
    # stakes.md: the loser pays one die; the loser flips first in the next round
    assert only(events, "pressure").public == {"paid": [0], "excused": [], "pot": 2}
    view = game.view(1)
    assert [p["dice"] for p in view["players"]] == [3, 3]
    assert view["duel"]["round_wins"] == [0, 1] and view["duel"]["last_pressure"] == [0]
    assert view["first_player"] == 0 and game.acting_seats() == [0]


def test_duel_a_round_is_won_not_scored_and_the_closer_bank_under_the_target_wins():
    game = scripted_game(2, deck=["10", "10", "4", "6"], rolls=[3, 4])
    for seat in (0, 1, 0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")  # 14
    events = act(game, 1, "bank")  # 16, closer to 17
    end = only(events, "round_end").public
    assert (end["result"], end["winner"]) == ("won", 1)
    view = game.view(0)
    assert "round_scores" not in view["players"][0] and view["players"][1]["round_wins"] == 1
    assert view["duel"]["last_round"]["result"] == "won"


def test_duel_a_banked_player_beats_a_busted_one():
    game = scripted_game(2, deck=["10", "10", "10"], rolls=[3, 4])
    for seat in (0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")
    events = act(game, 1, "flip")  # 20 over 17
    end = only(events, "round_end").public
    assert (end["result"], end["winner"], end["loser"]) == ("won", 0, 1)
    assert only(events, "pressure").public["paid"] == [1]
    assert game.view(0)["first_player"] == 1  # the loser flips first


def test_duel_both_busted_is_a_dead_round_both_pay_and_the_first_player_passes():
    game = scripted_game(2, deck=["10", "10", "9", "9"], rolls=[3, 4])
    for seat in (0, 1, 0):
        act(game, seat, "flip")
    assert player(game, 0)["status"] == "busted"
    assert game.acting_seats() == [1]
    events = act(game, 1, "flip")
    end = only(events, "round_end").public
    assert (end["result"], end["winner"], end["loser"]) == ("dead", None, None)
    assert end["round_wins"] == [0, 0]
    assert only(events, "pressure").public == {"paid": [0, 1], "excused": [], "pot": 2}
    view = game.view(0)
    assert [p["dice"] for p in view["players"]] == [3, 3]
    assert view["first_player"] == 1 and game.acting_seats() == [1]


def test_duel_equal_banks_are_a_drawn_round_nobody_pays_and_the_first_player_passes():
    game = scripted_game(2, deck=["10", "10", "5", "5"], rolls=[3, 4], first_player=1)
    for seat in (1, 0, 1, 0):
        act(game, seat, "flip")
    act(game, 1, "bank")
    events = act(game, 0, "bank")
    assert kinds(events) == ["bank", "round_end", "round_start"]  # no pressure in a drawn round
    end = only(events, "round_end").public
    assert (end["result"], end["winner"], end["loser"]) == ("drawn", None, None)
    view = game.view(0)
    assert view["duel"]["round_wins"] == [0, 0] and view["pot"] == 0
    assert [p["dice"] for p in view["players"]] == [4, 4]
    assert view["first_player"] == 0


def test_duel_cold_twist_a_banked_player_twists_to_bust_the_live_one():
    game = scripted_game(2, deck=["10", "10", "5", "8", "Q"], dice=(5, 5), rolls=[1, 3, 4])
    for seat in (0, 1, 0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")  # 15 against 20
    act(game, 1, "flip")  # a Queen: 18 with a Shield
    assert game.acting_seats() == [0]
    assert game.legal_actions(0) == [
        {"type": "twist", "die": "a"},
        {"type": "twist", "die": "b"},
        {"type": "pass"},
    ]
    for kind in ("flip", "bank"):
        before = game.to_state()
        with pytest.raises(IllegalAction) as refused:
            act(game, 0, kind)
        assert refused.value.code == "not_live"
        assert game.to_state() == before
    events = act(game, 0, "twist", die="a")
    twist = only(events, "twist").public
    assert twist["cold"] is True and twist["target"] == 16 and twist["busted"] == [1]
    end = only(events, "round_end").public
    assert (end["winner"], end["loser"]) == (0, 1)
    view = game.view(1)
    assert [p["dice"] for p in view["players"]] == [3, 3] and view["pot"] == 2
    assert view["first_player"] == 1


def test_duel_a_banked_player_may_pass_their_cold_turn():
    game = scripted_game(2, deck=["10", "10", "5", "2", "2"])
    for seat in (0, 1, 0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")
    act(game, 1, "flip")
    assert only(act(game, 0, "pass"), "pass").public == {"seat": 0}
    assert game.acting_seats() == [1] and player(game, 0)["dice"] == 4


def test_duel_a_banked_player_with_nothing_to_do_is_skipped():
    deck = ["5", "A", "A", "A", "A", "2", "2", "2"]
    game = scripted_game(2, deck=deck, rolls=[3, 3, 3, 3, 3, 4])
    act(game, 0, "flip")
    act(game, 1, "flip")
    for _ in range(4):
        act(game, 0, "twist", die="a")
        act(game, 1, "flip")
    assert player(game, 0)["dice"] == 0 and player(game, 1)["total"] == 6
    act(game, 0, "bank")  # 5
    assert game.acting_seats() == [1]
    act(game, 1, "flip")
    assert game.acting_seats() == [1]  # seat 0 has no die to twist: skipped
    act(game, 1, "flip")
    assert game.acting_seats() == [1]
    events = act(game, 1, "bank")  # 10 beats 5 under 17
    end = only(events, "round_end").public
    assert (end["winner"], end["loser"]) == (1, 0)
    # stakes.md: a player with no dice pays nothing
    assert only(events, "pressure").public == {"paid": [], "excused": [{"seat": 0, "reason": "no_dice"}], "pot": 4}
    assert player(game, 0)["dice"] == 0


def test_duel_an_exact_hit_steals_a_die_from_the_opponent_instead_of_plus_5_and_the_pot():
    game = scripted_game(2, deck=["10", "5", "7", "5"])
    for seat in (0, 1, 0, 1):
        act(game, seat, "flip")
    bank = only(act(game, 0, "bank"), "bank")
    assert bank.public == {"seat": 0, "total": 17, "exact": True, "die": "stolen"}  # no +5 score in a Duel
    view = game.view(1)
    assert [p["dice"] for p in view["players"]] == [5, 3] and view["pot"] == 0


def test_duel_an_exact_hit_with_the_pot_full_still_takes_nothing_from_it():
    game = scripted_game(2, deck=["10", "5", "7", "A", "A"], rolls=[4])
    for seat in (0, 1, 0):
        act(game, seat, "flip")
    act(game, 1, "twist", die="b")  # rolls 4 again: target 17, one die in the pot
    bank = only(act(game, 0, "bank"), "bank")
    assert bank.public["die"] == "stolen"
    view = game.view(0)
    assert view["pot"] == 1 and [p["dice"] for p in view["players"]] == [5, 2]


def test_duel_an_exact_hit_against_an_opponent_without_dice_steals_nothing():
    deck = ["10", "A", "2", "A", "A", "A", "2", "3"]
    game = scripted_game(2, deck=deck, rolls=[4, 4, 4, 4])
    act(game, 0, "flip")  # 10
    act(game, 1, "flip")  # 1
    act(game, 0, "flip")  # 12
    for _ in range(3):
        act(game, 1, "twist", die="b")
        act(game, 0, "flip")  # aces: 13, 14, 15
    act(game, 1, "twist", die="b")
    act(game, 0, "flip")  # 17
    act(game, 1, "flip")
    assert player(game, 1)["dice"] == 0 and player(game, 0)["total"] == 17
    bank = only(act(game, 0, "bank"), "bank")
    assert bank.public == {"seat": 0, "total": 17, "exact": True, "die": None}
    assert [p["dice"] for p in game.view(0)["players"]] == [4, 0]


def test_duel_pressure_never_taxes_a_player_who_banked_exactly_on_the_target():
    game = scripted_game(2, deck=["10", "5", "7", "5", "2"], rolls=[1, 3, 4])
    for seat in (0, 1, 0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")  # exactly 17: steals a die
    act(game, 1, "twist", die="b")  # target 14: the exact 17 is now over it
    act(game, 0, "pass")
    act(game, 1, "flip")  # 12
    act(game, 0, "pass")
    events = act(game, 1, "bank")
    end = only(events, "round_end").public
    assert (end["winner"], end["loser"]) == (1, 0)
    assert only(events, "pressure").public == {
        "paid": [], "excused": [{"seat": 0, "reason": "banked_exact"}], "pot": 1,
    }
    assert [p["dice"] for p in game.view(0)["players"]] == [5, 2]


def test_duel_first_to_four_round_wins_takes_the_match():
    deck = ["5", "10", "10", "9", "5", "9", "8", "5", "10", "9", "5", "9"]
    game = scripted_game(2, deck=deck, rolls=[3, 4] * 3)
    # round 1, seat 0 first: seat 1 busts
    act(game, 0, "flip")
    act(game, 1, "flip")
    act(game, 0, "bank")
    act(game, 1, "flip")
    for _ in range(3):
        # the loser, seat 1, flips first and busts again; seat 0 banks its 5
        assert game.acting_seats() == [1]
        act(game, 1, "flip")
        act(game, 0, "flip")
        act(game, 1, "flip")
        assert player(game, 1)["status"] == "busted"
        events = act(game, 0, "bank")
    assert kinds(events)[-1] == "game_end"
    result = game.outcome()
    assert result is not None and result.placings == [1, 2] and result.scores == [4, 0]
    view = game.view(1)
    assert view["over"] is True and view["to_act"] == [] and view["duel"]["round_wins"] == [4, 0]
    assert view["players"][1]["dice"] == 0  # paid pressure four times
    with pytest.raises(IllegalAction) as refused:
        act(game, 1, "flip")
    assert refused.value.code == "game_over"
