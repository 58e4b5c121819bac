"""Scenario tests for the standard game (3-6 players): one or more per rule line of shared/rules/stakes.md.

Every deal and die is scripted (app.games.stakes.scripting); `strict` scripts fail on any unscripted random call.
Default center dice are 3 and 4: target 17.
"""

from __future__ import annotations

import json

import pytest
from tests.games.stakes.stakes_support import act, hidden_from, kinds, only, player, strings_in

from app.games.base import IllegalAction
from app.games.rng import HashRandom
from app.games.stakes import Stakes
from app.games.stakes.cards import EFFECT, FULL_DECK, RANKS, SUITS, VALUE
from app.games.stakes.scripting import name_cards, scripted_game

# ------------------------------------------------------------------------------------------------------ Table


def test_one_deck_of_52_cards_ace_1_number_cards_face_value_faces_0():
    assert len(FULL_DECK) == 52 and len(set(FULL_DECK)) == 52
    assert VALUE["AS"] == 1 and VALUE["7H"] == 7 and VALUE["10D"] == 10
    assert [VALUE["J" + s] for s in SUITS] == [0, 0, 0, 0]
    assert {VALUE["Q" + s] for s in SUITS} == {VALUE["K" + s] for s in SUITS} == {0}
    assert EFFECT["JC"] == "peek" and EFFECT["QC"] == "shield" and EFFECT["KC"] == "nudge"
    game = Stakes.create(3, None, HashRandom("deck"))
    assert sorted(game.deck) == sorted(FULL_DECK)


def test_suits_never_matter():
    for rank in RANKS:
        assert len({VALUE[rank + suit] for suit in SUITS}) == 1
        assert len({EFFECT[rank + suit] for suit in SUITS}) == 1


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_three_to_six_players_play_the_standard_game_with_three_dice_each_for_five_rounds(seats):
    game = Stakes.create(seats, None, HashRandom(f"standard-{seats}"))
    view = game.view(0)
    assert view["mode"] == "standard" and view["rounds"] == 5
    assert [p["dice"] for p in view["players"]] == [3] * seats
    assert view["duel"] is None


def test_two_players_play_the_duel_with_four_dice_each():
    view = Stakes.create(2, None, HashRandom("duel")).view(1)
    assert view["mode"] == "duel"
    assert [p["dice"] for p in view["players"]] == [4, 4]
    assert view["duel"]["wins_needed"] == 4


@pytest.mark.parametrize(("dice", "target"), [((1, 1), 12), ((2, 5), 17), ((6, 6), 22)])
def test_target_is_center_die_a_plus_center_die_b_plus_10(dice, target):
    game = scripted_game(3, dice=dice)
    view = game.view(None)
    assert view["center_dice"] == {"a": dice[0], "b": dice[1]}
    assert view["target"] == target


def test_leverage_dice_and_the_pot_are_public():
    game = scripted_game(3, deck=["5", "5", "5"], rolls=[6])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    act(game, 0, "twist", die="b")
    for viewer in (1, 2, None):
        view = game.view(viewer)
        assert view["pot"] == 1
        assert [p["dice"] for p in view["players"]] == [2, 3, 3]


def test_first_player_of_the_first_round_is_drawn_at_random():
    game = scripted_game(4, first_player=2)
    assert game.acting_seats() == [2] and game.view(0)["first_player"] == 2
    firsts = {Stakes.create(4, None, HashRandom(f"first-{i}")).turn for i in range(40)}
    assert firsts == {0, 1, 2, 3}


# ------------------------------------------------------------------------------------------------- A turn


def test_flip_puts_the_top_card_in_your_row_and_adds_its_value():
    game = scripted_game(3, deck=["7"])
    events = act(game, 0, "flip")
    flip = only(events, "flip")
    assert flip.public == {
        "seat": 0, "card": "7C", "value": 7, "effect": None, "total": 7, "shielded": False, "busted": False,
    }
    assert player(game, 0)["row"] == ["7C"] and player(game, 0)["total"] == 7
    assert game.view(1)["deck_size"] == 51
    assert game.acting_seats() == [1]


def test_bank_makes_your_total_the_round_score_and_takes_you_out_of_the_round():
    game = scripted_game(3, deck=["7", "5", "4", "2", "3"], rolls=[2, 2])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    bank = only(act(game, 0, "bank"), "bank")
    assert bank.public == {"seat": 0, "total": 7, "exact": False, "die": None, "score": 7}
    assert player(game, 0)["status"] == "banked"
    act(game, 1, "flip")
    assert game.acting_seats() == [2]
    act(game, 2, "flip")
    assert game.acting_seats() == [1]  # seat 0 is out of the round
    act(game, 1, "bank")
    events = act(game, 2, "bank")
    assert only(events, "round_end").public["results"][0]["score"] == 7
    assert player(game, 0)["round_scores"] == [7]


def test_bank_is_not_allowed_at_total_zero():
    game = scripted_game(3, deck=["Q", "5", "5"])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    assert player(game, 0)["total"] == 0
    assert {"type": "bank"} not in game.legal_actions(0)
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        act(game, 0, "bank")
    assert refused.value.code == "cannot_bank_at_zero"
    assert game.to_state() == before


def test_twist_pays_one_die_into_the_pot_then_rerolls_the_center_die_chosen():
    game = scripted_game(3, deck=["5", "5", "5"], rolls=[6])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    twist = only(act(game, 0, "twist", die="b"), "twist")
    assert twist.public == {
        "seat": 0, "die": "b", "old": 4, "new": 6, "target": 19, "dice_left": 2, "pot": 1, "cold": False, "busted": [],
    }
    view = game.view(2)
    assert view["center_dice"] == {"a": 3, "b": 6} and view["target"] == 19
    assert view["pot"] == 1 and view["players"][0]["dice"] == 2
    assert game.acting_seats() == [1]


def test_twist_needs_a_leverage_die():
    game = scripted_game(3, deck=["2", "2", "2"], rolls=[3] * 9)
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    for _ in range(3):
        for seat in (0, 1, 2):
            act(game, seat, "twist", die="a")
    assert game.view(0)["players"][0]["dice"] == 0
    assert game.legal_actions(0) == [{"type": "flip"}, {"type": "bank"}]
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        act(game, 0, "twist", die="a")
    assert refused.value.code == "no_leverage_dice"
    assert game.to_state() == before


def test_first_turn_of_every_round_must_be_a_flip():
    game = scripted_game(3, deck=["5", "5", "5"], rolls=[2, 2])
    assert game.legal_actions(0) == [{"type": "flip"}]
    assert game.view(0)["first_turn"] is True
    for kind, fields in (("bank", {}), ("twist", {"die": "a"})):
        before = game.to_state()
        with pytest.raises(IllegalAction) as refused:
            act(game, 0, kind, **fields)
        assert refused.value.code == "first_turn_must_flip"
        assert game.to_state() == before
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    assert game.view(0)["first_turn"] is False
    for seat in (0, 1, 2):
        act(game, seat, "bank")
    # round two: the first turn is a Flip again, for the new first player too
    assert game.view(1)["round"] == 2 and game.acting_seats() == [1]
    assert game.legal_actions(1) == [{"type": "flip"}]
    with pytest.raises(IllegalAction) as refused:
        act(game, 1, "bank")
    assert refused.value.code == "first_turn_must_flip"


def test_play_passes_to_the_left_skipping_players_out_of_the_round():
    game = scripted_game(4, deck=["5"] * 4 + ["2", "2"], first_player=2)
    order = []
    for _ in range(4):
        seat = game.acting_seats()[0]
        order.append(seat)
        act(game, seat, "flip")
    assert order == [2, 3, 0, 1]
    act(game, 2, "bank")
    act(game, 3, "bank")
    assert game.acting_seats() == [0]
    act(game, 0, "flip")
    assert game.acting_seats() == [1]
    act(game, 1, "flip")
    assert game.acting_seats() == [0]  # 2 and 3 are out of the round


# --------------------------------------------------------------------------------------------- Face cards


def test_jack_peek_the_flipper_chooses_the_order_then_the_cards_are_drawn_in_it():
    deck = name_cards("J", "9", "2")
    jack, nine, two = deck
    game = scripted_game(3, deck=deck)
    events = act(game, 0, "flip")
    assert kinds(events) == ["flip", "peek"]
    assert only(events, "flip").public["effect"] == "peek"
    peek = only(events, "peek")
    assert peek.for_seat(0) == {"type": "peek", "seat": 0, "cards_seen": 2, "cards": [nine, two]}
    assert game.acting_seats() == [0]  # the game waits on the peeker's order
    assert game.legal_actions(0) == [
        {"type": "put_back", "cards": [nine, two]},
        {"type": "put_back", "cards": [two, nine]},
    ]
    assert game.view(0)["pending"] == {"type": "put_back", "seat": 0, "cards": [nine, two]}
    put_back = only(act(game, 0, "put_back", cards=[two, nine]), "put_back")
    assert put_back.for_seat(0)["cards"] == [two, nine]
    assert game.view(0)["my_peek"] == {"cards": [two, nine], "order_known": True}
    assert game.acting_seats() == [1]
    assert only(act(game, 1, "flip"), "flip").public["card"] == two
    assert game.view(0)["my_peek"] == {"cards": [nine], "order_known": True}
    assert only(act(game, 2, "flip"), "flip").public["card"] == nine
    assert game.view(0)["my_peek"] is None  # shown only until drawn


def test_jack_peek_nobody_else_learns_the_cards_or_the_order():
    deck = name_cards("J", "9", "2")
    _, nine, two = deck
    game = scripted_game(3, deck=deck)
    events = act(game, 0, "flip")
    for viewer in (1, 2, None):
        assert {nine, two}.isdisjoint(strings_in(game.view(viewer)))
        assert {nine, two}.isdisjoint(strings_in([e.for_seat(viewer) for e in events]))
        assert game.view(viewer)["pending"] == {"type": "put_back", "seat": 0}
        assert viewer is None or game.legal_actions(viewer) == []
    assert only(events, "peek").for_seat(1) == {"type": "peek", "seat": 0, "cards_seen": 2}
    events = act(game, 0, "put_back", cards=[two, nine])
    for viewer in (1, 2, None):
        assert {nine, two}.isdisjoint(strings_in(game.view(viewer)))
        assert only(events, "put_back").for_seat(viewer) == {"type": "put_back", "seat": 0}


def test_queen_shield_discards_a_busting_card_and_the_total_does_not_move():
    deck = name_cards("Q", "5", "5", "10", "5", "5", "9")
    game = scripted_game(3, deck=deck)
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    assert player(game, 0)["shields"] == 1 and player(game, 0)["total"] == 10
    events = act(game, 0, "flip")  # a 9 would make 19 over 17
    assert kinds(events) == ["flip", "shield_used"]
    assert only(events, "flip").public["shielded"] is True
    assert only(events, "shield_used").public == {"seat": 0, "card": deck[-1], "shields_left": 0}
    me = player(game, 0)
    assert me["row"] == deck[:1] + deck[3:4] and me["total"] == 10 and me["status"] == "live" and me["shields"] == 0
    assert game.view(1)["discard_size"] == 1


def test_shields_from_several_queens_add_up_one_card_each():
    sequence = ["Q", "A", "A", "Q", "A", "A", "10", "2", "2", "9", "2", "2", "8", "3", "3", "9"]
    game = scripted_game(3, deck=sequence)
    seats = [0, 1, 2] * 5 + [0]
    shielded = []
    for seat in seats:
        events = act(game, seat, "flip")
        if seat == 0:
            shielded.append(only(events, "flip").public["shielded"])
    assert shielded == [False, False, False, True, True, False]
    me = player(game, 0)
    assert me["status"] == "busted" and me["total"] == 19 and me["shields"] == 0


def test_unused_shields_expire_at_the_end_of_the_round():
    game = scripted_game(3, deck=["Q", "5", "5", "5"], rolls=[2, 2])
    for seat in (0, 1, 2, 0):
        act(game, seat, "flip")
    assert player(game, 0)["shields"] == 1
    for seat in (1, 2, 0):
        act(game, seat, "bank")
    assert game.view(0)["round"] == 2
    assert player(game, 0)["shields"] == 0


def test_a_shield_never_protects_against_a_target_moved_by_a_twist():
    game = scripted_game(3, deck=["Q", "10", "5", "10", "2", "2", "5"], rolls=[1])
    for seat in (0, 1, 2, 0, 1, 2, 0):
        act(game, seat, "flip")
    assert player(game, 0)["total"] == 15 and player(game, 0)["shields"] == 1
    twist = only(act(game, 1, "twist", die="b"), "twist")
    assert twist.public["target"] == 14 and twist.public["busted"] == [0]
    assert player(game, 0)["status"] == "busted"
    assert player(game, 1)["status"] == "live" and player(game, 2)["status"] == "live"


def test_a_shield_never_protects_against_a_target_moved_by_a_nudge():
    game = scripted_game(3, deck=["Q", "10", "5", "10", "2", "2", "7", "K"])
    for seat in (0, 1, 2, 0, 1, 2, 0):
        act(game, seat, "flip")
    assert player(game, 0)["total"] == 17 and player(game, 0)["shields"] == 1
    act(game, 1, "flip")  # the King
    nudge = only(act(game, 1, "nudge", die="a", direction="down"), "nudge")
    assert nudge.public["target"] == 16 and nudge.public["busted"] == [0]
    assert player(game, 0)["status"] == "busted"


def test_king_nudge_is_mandatory_and_free():
    game = scripted_game(3, deck=["K"])
    events = act(game, 0, "flip")
    assert only(events, "flip").public["effect"] == "nudge"
    assert game.acting_seats() == [0]
    assert game.view(1)["pending"] == {"type": "nudge", "seat": 0}
    assert game.legal_actions(0) == [
        {"type": "nudge", "die": "a", "direction": "up"},
        {"type": "nudge", "die": "a", "direction": "down"},
        {"type": "nudge", "die": "b", "direction": "up"},
        {"type": "nudge", "die": "b", "direction": "down"},
    ]
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        act(game, 0, "flip")
    assert refused.value.code == "must_nudge"
    assert game.to_state() == before
    events = act(game, 0, "nudge", die="a", direction="up")
    assert kinds(events) == ["nudge"]  # not a Twist
    assert only(events, "nudge").public == {
        "seat": 0, "die": "a", "direction": "up", "old": 3, "new": 4, "target": 18, "busted": [],
    }
    view = game.view(2)
    assert view["pot"] == 0 and view["players"][0]["dice"] == 3  # free: no die paid, the pot untouched
    assert game.acting_seats() == [1]


def test_king_nudge_stays_within_1_to_6():
    game = scripted_game(3, deck=["K"], dice=(1, 6))
    act(game, 0, "flip")
    assert game.legal_actions(0) == [
        {"type": "nudge", "die": "a", "direction": "up"},
        {"type": "nudge", "die": "b", "direction": "down"},
    ]
    for die, direction in (("a", "down"), ("b", "up")):
        before = game.to_state()
        with pytest.raises(IllegalAction) as refused:
            act(game, 0, "nudge", die=die, direction=direction)
        assert refused.value.code == "die_out_of_range"
        assert game.to_state() == before


def test_king_nudge_can_bust_its_own_flipper():
    game = scripted_game(3, deck=["10", "4", "4", "3", "2", "2", "K"], dice=(1, 2))
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    assert player(game, 0)["total"] == 13 and game.target == 13
    act(game, 0, "flip")
    nudge = only(act(game, 0, "nudge", die="b", direction="down"), "nudge")
    assert nudge.public["target"] == 12 and nudge.public["busted"] == [0]
    assert player(game, 0)["status"] == "busted"
    assert game.acting_seats() == [1]


# ------------------------------------------------------------------------------------------------ Busting


def test_a_flip_above_the_target_busts_at_once_for_a_round_score_of_zero():
    game = scripted_game(3, deck=["10", "5", "5", "8"], rolls=[2, 2])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    flip = only(act(game, 0, "flip"), "flip")
    assert flip.public["busted"] is True and flip.public["total"] == 18
    assert player(game, 0)["status"] == "busted"
    assert game.acting_seats() == [1]
    act(game, 1, "bank")
    events = act(game, 2, "bank")
    assert [r["score"] for r in only(events, "round_end").public["results"]] == [0, 5, 5]


def test_a_twist_busts_two_bystanders_and_the_twister():
    game = scripted_game(4, deck=["10", "10", "10", "5", "8", "8", "9", "2"], dice=(6, 6), rolls=[1])
    for seat in (0, 1, 2, 3, 0, 1, 2, 3):
        act(game, seat, "flip")
    assert [player(game, s)["total"] for s in range(4)] == [18, 18, 19, 7]
    twist = only(act(game, 0, "twist", die="a"), "twist")
    assert twist.public["target"] == 17
    assert twist.public["busted"] == [0, 1, 2]
    assert [player(game, s)["status"] for s in range(4)] == ["busted", "busted", "busted", "live"]
    assert game.view(3)["pot"] == 1
    assert game.acting_seats() == [3]


def test_banked_players_never_bust():
    game = scripted_game(3, deck=["10", "10", "2", "10", "5", "2"], dice=(6, 6), rolls=[1, 2, 2])
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    act(game, 0, "bank")
    twist = only(act(game, 1, "twist", die="a"), "twist")
    assert twist.public["target"] == 17 and twist.public["busted"] == []
    assert player(game, 0)["status"] == "banked" and player(game, 0)["total"] == 20
    act(game, 2, "bank")
    act(game, 1, "bank")
    assert player(game, 0)["round_scores"] == [20]


# ------------------------------------------------------------------------------------------- Exact hits


def test_an_exact_hit_scores_total_plus_5_and_takes_a_die_back_from_the_pot():
    game = scripted_game(3, deck=["10", "2", "2", "7", "3"], rolls=[4])
    for seat in (0, 1, 2, 0):
        act(game, seat, "flip")
    act(game, 1, "twist", die="b")  # rolls 4 again: the target stays 17, the pot holds one die
    act(game, 2, "flip")
    bank = only(act(game, 0, "bank"), "bank")
    assert bank.public == {"seat": 0, "total": 17, "exact": True, "die": "from_pot", "score": 22}
    view = game.view(1)
    assert view["pot"] == 0 and view["players"][0]["dice"] == 4 and view["players"][0]["banked_exact"] is True


def test_an_exact_hit_with_an_empty_pot_still_scores_plus_5():
    game = scripted_game(3, deck=["10", "2", "2", "7", "2", "2"])
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    bank = only(act(game, 0, "bank"), "bank")
    assert bank.public == {"seat": 0, "total": 17, "exact": True, "die": None, "score": 22}
    assert game.view(0)["players"][0]["dice"] == 3


def test_an_exact_hit_stands_after_the_target_moves():
    game = scripted_game(3, deck=["10", "2", "2", "7", "3"], rolls=[4, 1, 2, 2])
    for seat in (0, 1, 2, 0):
        act(game, seat, "flip")
    act(game, 1, "twist", die="b")
    act(game, 2, "flip")
    act(game, 0, "bank")
    twist = only(act(game, 1, "twist", die="a"), "twist")
    assert twist.public["target"] == 15
    assert player(game, 0)["banked_exact"] is True
    act(game, 2, "bank")
    events = act(game, 1, "bank")
    results = only(events, "round_end").public["results"]
    assert results[0] == {"seat": 0, "status": "banked", "total": 17, "exact": True, "score": 22}
    assert player(game, 0)["round_scores"] == [22]


def test_a_later_target_move_never_makes_a_bank_exact():
    game = scripted_game(3, deck=["10", "10", "2", "5", "2", "2"], rolls=[2, 2, 2])
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    act(game, 0, "bank")  # 15 against 17
    twist = only(act(game, 1, "twist", die="b"), "twist")
    assert twist.public["target"] == 15
    act(game, 2, "bank")
    events = act(game, 1, "bank")
    assert [r["score"] for r in only(events, "round_end").public["results"]] == [15, 12, 4]


# --------------------------------------------------------------------------------------- Rounds and game


def test_round_end_discards_the_rows_rerolls_both_dice_and_passes_the_first_player_left():
    game = scripted_game(3, deck=["10", "10", "5", "9"], rolls=[5, 6])
    for seat in (0, 1, 2, 0):
        act(game, seat, "flip")
    assert player(game, 0)["status"] == "busted"
    act(game, 1, "bank")
    events = act(game, 2, "bank")
    assert kinds(events) == ["bank", "round_end", "round_start"]
    end = only(events, "round_end").public
    assert end["round"] == 1 and end["target"] == 17 and end["game_totals"] == [0, 10, 5]
    assert only(events, "round_start").public == {
        "round": 2, "center_dice": {"a": 5, "b": 6}, "target": 21, "first_player": 1,
    }
    view = game.view(0)
    assert view["round"] == 2 and view["turn"] == 1 and view["first_player"] == 1
    assert view["discard_size"] == 4 and view["deck_size"] == 48
    assert all(p["row"] == [] and p["total"] == 0 and p["status"] == "live" for p in view["players"])
    assert [p["round_scores"] for p in view["players"]] == [[0], [10], [5]]


def test_banked_and_busted_players_cannot_twist():
    game = scripted_game(3, deck=["10", "10", "5", "9", "2"])
    for seat in (0, 1, 2, 0):
        act(game, seat, "flip")  # seat 0 busts at 19
    act(game, 1, "bank")
    for seat in (0, 1):
        assert game.legal_actions(seat) == []
        before = game.to_state()
        with pytest.raises(IllegalAction) as refused:
            act(game, seat, "twist", die="a")
        assert refused.value.code == "not_your_turn"
        assert game.to_state() == before
    assert game.acting_seats() == [2]


def _always_flip(game: Stakes) -> list:
    """One decision by the player on turn: flip when possible, keep a Peek's order, nudge the first way listed."""
    seat = game.acting_seats()[0]
    legal = game.legal_actions(seat)
    action = next((a for a in legal if a["type"] == "flip"), legal[0])
    return game.apply(seat, action)


def test_an_empty_deck_reshuffles_the_discard_pile():
    game = Stakes.create(6, None, HashRandom("reshuffle"))
    while game.deck or game.pending:
        _always_flip(game)
    discard = sorted(game.discard)
    on_table = [c for row in game.rows for c in row]
    events = _always_flip(game)
    assert kinds(events)[0] == "reshuffle"
    assert only(events, "reshuffle").public == {"shuffled": len(discard), "deck_size": len(discard)}
    drawn = only(events, "flip").public["card"]
    assert sorted(game.deck + [drawn]) == discard
    assert game.view(0)["discard_size"] == 0 or "shield_used" in kinds(events)
    # the seen list restarts with the rows still on the table (and the card just flipped)
    assert game.view(0)["seen_since_shuffle"] == on_table + [drawn]
    assert game.check_invariants() == []


def test_a_reshuffle_during_a_peek_puts_the_discard_pile_under_what_remains():
    jack, last = "JS", "AS"
    order = [c for c in FULL_DECK if c not in (jack, last)] + [jack, last]
    game = scripted_game(6, deck=order, strict=False)
    while len(game.deck) > 2 or game.pending:
        _always_flip(game)
    assert game.deck == [jack, last]
    discard = sorted(game.discard)
    seat = game.acting_seats()[0]
    events = game.apply(seat, {"type": "flip"})
    assert kinds(events) == ["flip", "reshuffle", "peek"]
    assert game.deck[0] == last  # what remained stays on top
    assert sorted(game.deck[1:]) == discard  # the shuffled discard pile goes under it
    peeked = only(events, "peek").for_seat(seat)["cards"]
    assert peeked == [last, game.deck[1]]
    assert game.legal_actions(seat) == [
        {"type": "put_back", "cards": peeked},
        {"type": "put_back", "cards": peeked[::-1]},
    ]
    game.apply(seat, {"type": "put_back", "cards": peeked[::-1]})
    assert game.deck[:2] == peeked[::-1]
    assert game.check_invariants() == []


def test_with_no_leverage_dice_left_at_the_table_play_goes_on():
    game = scripted_game(3, deck=["2", "2", "2", "5", "5", "5"], rolls=[3] * 9 + [3, 4])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    for _ in range(3):
        for seat in (0, 1, 2):
            act(game, seat, "twist", die="a")
    view = game.view(None)
    assert [p["dice"] for p in view["players"]] == [0, 0, 0] and view["pot"] == 9
    for seat in (0, 1, 2):
        assert game.legal_actions(seat) in ([], [{"type": "flip"}, {"type": "bank"}])
        act(game, seat, "flip")
    for seat in (0, 1, 2):
        act(game, seat, "bank")
    assert game.view(0)["round"] == 2 and game.acting_seats() == [1]
    assert game.check_invariants() == []


def test_after_round_five_the_highest_total_wins_and_ties_share_the_place():
    high = ["10", "9", "8", "7", "6"]
    low = ["2", "2", "2", "2", "3"]
    deck: list[str] = []
    for r in range(5):
        first = r % 3
        for seat in ((first + k) % 3 for k in range(3)):
            deck.append(low[r] if seat == 2 else high[r])
    game = scripted_game(3, deck=deck, rolls=[3, 4] * 4)
    for r in range(5):
        first = r % 3
        order = [(first + k) % 3 for k in range(3)]
        for seat in order:
            act(game, seat, "flip")
        for seat in order:
            events = act(game, seat, "bank")
    assert kinds(events)[-2:] == ["round_end", "game_end"]
    result = game.outcome()
    assert result is not None
    assert result.scores == [40, 40, 11]
    assert result.placings == [1, 1, 3]
    assert only(events, "game_end").public["placings"] == [1, 1, 3]
    view = game.view(2)
    assert view["over"] is True and view["to_act"] == [] and view["outcome"]["scores"] == [40, 40, 11]
    assert [p["game_total"] for p in view["players"]] == [40, 40, 11]
    with pytest.raises(IllegalAction) as refused:
        act(game, 0, "flip")
    assert refused.value.code == "game_over"


# ------------------------------------------------------------------------------- What each player may see


def test_every_seat_sees_the_whole_table():
    game = scripted_game(3, deck=["Q", "10", "5", "10", "2", "2"], rolls=[6])
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    act(game, 0, "bank")
    act(game, 1, "twist", die="a")
    for viewer in (0, 1, 2, None):
        view = game.view(viewer)
        json.dumps(view)
        assert view["target"] == 20 and view["center_dice"] == {"a": 6, "b": 4} and view["pot"] == 1
        assert view["players"][0] == {
            "seat": 0, "row": ["QC", "10D"], "total": 10, "status": "banked",
            "dice": 3, "shields": 1, "first_turn": False, "banked_exact": False, "round_scores": [], "game_total": 0,
        }
        assert view["players"][1]["dice"] == 2 and view["players"][1]["status"] == "live"
        assert view["turn"] == 2 and view["to_act"] == [2] and view["round"] == 1
        assert view["deck_size"] == 46 and view["discard_size"] == 0
        assert sorted(view["seen_since_shuffle"]) == sorted(c for p in view["players"] for c in p["row"])


def test_no_view_holds_the_deck_order():
    game = scripted_game(4, deck=["J", "9", "2", "5"])
    act(game, 0, "flip")
    act(game, 0, "put_back", cards=game.legal_actions(0)[1]["cards"])
    for viewer in (0, 1, 2, 3, None):
        assert hidden_from(game, viewer).isdisjoint(strings_in(game.view(viewer)))
    assert set(game.view(0)["my_peek"]["cards"]) == {"9C", "2C"}


def test_scripted_deals_name_distinct_cards_for_bare_ranks():
    assert name_cards("5", "K", "5", "10H", "10") == ["5C", "KC", "5D", "10H", "10C"]
    with pytest.raises(ValueError):
        name_cards("A", "A", "A", "A", "A")
    with pytest.raises(ValueError):
        name_cards("7H", "7H")
    with pytest.raises(ValueError):
        name_cards("11")
