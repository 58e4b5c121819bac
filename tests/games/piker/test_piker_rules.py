"""Scenario tests for The Piker, one or more per rule line of shared/rules/piker.md, with scripted deals and dice.

Conventions of these scenarios (app.games.piker.scripting): `deal` names the first cards of the deck (round 1's market
first); `rolls` lists every die in the order the engine rolls them (`hands(seat 0's dice, seat 1's dice, ...)` for a
Generate Income). Unless a test says otherwise seat 0 is the first player. `give` sets up cards a player already has.
"""

from __future__ import annotations

import json

import pytest
from tests.games.piker.piker_support import (
    AM,
    BLUE_MARKET,
    FIVE_ONES,
    FIVE_SIXES,
    NEXT_MARKET,
    decline_extra_card,
    give,
    hands,
    hidden_ids,
    invest,
    make_last_round,
    new_game,
    of_type,
    only,
    place_rest,
    secure,
)

from app.games.base import IllegalAction
from app.games.piker import Piker
from app.games.piker.cards import CARDS, DECK, final_score
from app.games.rng import HashRandom


def seat0_wins_slot0_round():
    """Round 1 of 2 players: all dice on slot 0, seat 0 (sixes) wins tech-1, seat 1 (ones) wins nothing."""
    game = new_game(2, deal=BLUE_MARKET + NEXT_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    events = place_rest(game, {0: 0, 1: 0})
    return game, events


# ------------------------------------------------------------------------------------------------------ Table


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_two_to_four_players(seats):
    game = Piker.create(seats, None, HashRandom("seats"))
    assert game.seat_count == seats and len(game.view(0)["players"]) == seats


@pytest.mark.parametrize("seats", [1, 5])
def test_fewer_than_two_or_more_than_four_players_are_refused(seats):
    with pytest.raises(IllegalAction) as error:
        Piker.create(seats, None, HashRandom("seats"))
    assert error.value.code == "bad_seat_count"


def test_each_player_has_five_dice_behind_a_privacy_screen():
    game = new_game(3, rolls=hands([6, 5, 4, 3, 2], [1, 1, 2, 2, 3], [6, 6, 6, 1, 1]))
    assert game.view(0)["my_dice"] == [6, 5, 4, 3, 2]
    assert game.view(1)["my_dice"] == [3, 2, 2, 1, 1]
    assert [p["dice_this_round"] for p in game.view(2)["players"]] == [5, 5, 5]
    assert "my_dice" not in game.view(None)


@pytest.mark.parametrize("seats,spots", [(2, 4), (3, 5), (4, 6)])
def test_the_after_market_has_players_plus_two_spots(seats, spots):
    game = Piker.create(seats, None, HashRandom("am"))
    assert game.view(0)["after_market"] == {"spots": spots, "open": spots, "dice": []}


def test_the_deck_is_shuffled_face_down_and_the_first_player_drawn_at_random():
    game = new_game(3, deal=["mining-8", "tech-1"], first=2)
    assert game.acting_seats() == [2] and game.view(0)["first_player"] == 2
    assert game.market[0]["card"] == "mining-8" and game.market[1]["card"] == "tech-1"
    view = game.view(0)
    assert view["deck"] == 48 - 5
    assert "mining-8" not in json.dumps(view) and all(slot["face"] is None for slot in view["market"])


@pytest.mark.parametrize("seats,size", [(2, 4), (3, 5), (4, 5)])
def test_market_size_is_four_cards_for_two_players_five_for_three_or_four(seats, size):
    game = Piker.create(seats, None, HashRandom("market"))
    assert len(game.view(None)["market"]) == size


def test_a_card_back_shows_its_risk_tier_and_market_volatility_cards_carry_the_speculative_back():
    game = new_game(2, deal=["tech-1", "tech-4", "tech-7", "bull-run"])
    market = game.view(1)["market"]
    assert [slot["tier"] for slot in market] == ["blue_chip", "growth", "speculative", "speculative"]
    assert all(slot["face"] is None for slot in market)
    assert all(CARDS[c]["tier"] == "speculative" for c in DECK if CARDS[c]["kind"] == "volatility")


def test_the_game_lasts_six_rounds():
    game = Piker.create(3, None, HashRandom("six rounds"))
    while game.outcome() is None:
        seat = game.acting_seats()[0]
        game.apply(seat, game.legal_actions(seat)[-1])
    assert [entry["round"] for entry in game.log] == [1, 2, 3, 4, 5, 6]
    assert game.view(0)["round"] == 6 and game.view(0)["step"] == "over"


# ------------------------------------------------------------------------------------------------------ 1. Generate Income


def test_generate_income_every_player_rolls_all_their_dice_and_only_they_see_the_values():
    fresh = new_game(2, rolls=hands([2, 3, 4, 5, 6], [1, 2, 3, 4, 5]))
    assert fresh.view(0)["my_dice"] == [6, 5, 4, 3, 2] and fresh.view(1)["my_dice"] == [5, 4, 3, 2, 1]
    game, _ = seat0_wins_slot0_round()
    events = decline_extra_card(game)  # round 2 begins
    rolled = only(events, "dice_rolled")
    assert rolled.public == {"round": 2, "dice": [5, 7]}
    assert set(rolled.private) == {0, 1}
    assert rolled.for_seat(0)["your_dice"] == game.view(0)["my_dice"]
    assert "your_dice" not in rolled.for_seat(None)


# ------------------------------------------------------------------------------------------------------ 2. Invest


def test_invest_starts_with_the_first_player_and_goes_clockwise_one_die_at_a_time():
    game = new_game(3, first=1, rolls=hands([1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]))
    order = []
    for _ in range(6):
        seat = game.acting_seats()[0]
        order.append(seat)
        game.apply(seat, {"type": "place_die", "pips": seat + 1, "on": "card", "slot": 0})
    assert order == [1, 2, 0, 1, 2, 0]


def test_a_die_is_placed_face_as_rolled_on_a_market_card_or_an_open_after_market_spot():
    game = new_game(2, rolls=hands([6, 5, 4, 3, 2], FIVE_ONES))
    assert {"type": "place_die", "pips": 6, "on": "card", "slot": 3} in game.legal_actions(0)
    assert {"type": "place_die", "pips": 6, "on": "after_market"} in game.legal_actions(0)
    assert all(a["pips"] in (6, 5, 4, 3, 2) for a in game.legal_actions(0))
    invest(game, (0, 6, 3), (1, 1, AM))
    view = game.view(None)
    assert view["market"][3]["dice"] == [{"seat": 0, "pips": 6}]
    assert view["after_market"]["dice"] == [{"seat": 1, "pips": 1}]


def test_players_keep_taking_turns_until_every_die_is_placed_and_a_player_with_none_left_is_skipped():
    game, _ = seat0_wins_slot0_round()
    decline_extra_card(game)
    # Round 2: seat 1 (the Piker, who won nothing) has 7 dice and starts; seat 0 has 5.
    order = []
    while game.step == "invest":
        seat = game.acting_seats()[0]
        order.append(seat)
        game.apply(seat, {"type": "place_die", "pips": game.hands[seat][0], "on": "card", "slot": 1})
    assert order == [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1]


def test_a_placed_die_is_public():
    game = new_game(2, rolls=hands([6, 5, 4, 3, 2], FIVE_ONES))
    events = invest(game, (0, 5, 2))
    assert only(events, "die_placed").for_seat(1) == {"type": "die_placed", "seat": 0, "pips": 5, "on": "card", "slot": 2}
    assert game.view(1)["market"][2]["pips"] == [5, 0]
    assert game.view(1)["players"][0]["unplaced_dice"] == 4


def test_when_the_after_market_is_full_dice_must_go_on_market_cards():
    game = new_game(2, rolls=hands([6, 5, 4, 3, 2], [6, 5, 4, 3, 2]))
    invest(game, (0, 6, AM), (1, 6, AM), (0, 5, AM), (1, 5, AM))
    assert game.view(0)["after_market"]["open"] == 0
    assert all(a["on"] == "card" for a in game.legal_actions(0))
    before = game.to_state()
    with pytest.raises(IllegalAction) as error:
        game.apply(0, {"type": "place_die", "pips": 4, "on": "after_market"})
    assert error.value.code == "after_market_full" and game.to_state() == before


# ------------------------------------------------------------------------------------------------------ 3. Collect Investments


def test_collect_card_by_card_in_market_order_the_highest_total_of_pips_wins():
    game = new_game(2, deal=BLUE_MARKET, rolls=hands([6, 1, 1, 1, 1], [5, 4, 1, 1, 1]))
    events = invest(
        game, (0, 6, 0), (1, 5, 0), (0, 1, 1), (1, 4, 0), (0, 1, 1), (1, 1, 2), (0, 1, 2), (1, 1, 2), (0, 1, 3), (1, 1, 3)
    )
    won = of_type(events, "card_won")
    assert [(e.public["slot"], e.public["seat"]) for e in won[:3]] == [(0, 1), (1, 0), (2, 1)]
    assert won[0].public["pips"] == [6, 9] and won[0].public["card"]["id"] == "tech-1"
    # Slot 3 is a 1-1 tie: rerolled with the fallback dice, one of them wins it.
    assert game.view(0)["players"][1]["unsecured"][0]["id"] == "tech-1"


def tie_round(strict=True):
    # Slot 0: seat 0 has 5+3, seat 1 has 4+4: tied at 8; rerolls 3+3 v 2+4 (tied again), then 1+1 v 6+6.
    rolls = hands([5, 3, 2, 2, 2], [4, 4, 2, 2, 2]) + [3, 3, 2, 4, 1, 1, 6, 6]
    game = new_game(2, deal=["tech-4", "energy-1", "shipping-1", "mining-1"], rolls=rolls, strict=strict)
    events = invest(
        game, (0, 5, 0), (1, 4, 0), (0, 3, 0), (1, 4, 0), (0, 2, 1), (1, 2, 2), (0, 2, AM), (1, 2, AM), (0, 2, AM), (1, 2, AM)
    )
    return game, events


def test_a_tie_is_settled_by_the_tied_players_rerolling_their_dice_on_that_card_repeated_while_tied():
    game, events = tie_round()
    won = of_type(events, "card_won")[0]
    assert won.public["slot"] == 0 and won.public["seat"] == 1 and won.public["pips"] == [8, 8]
    assert won.public["tie_rerolls"] == [
        [{"seat": 0, "dice": [3, 3], "total": 6}, {"seat": 1, "dice": [2, 4], "total": 6}],
        [{"seat": 0, "dice": [1, 1], "total": 2}, {"seat": 1, "dice": [6, 6], "total": 12}],
    ]


def test_cards_nobody_bid_on_are_discarded_face_down():
    game, events = tie_round()
    discarded = only(events, "card_discarded")
    assert discarded.public == {"slot": 3, "tier": "blue_chip"}
    view = game.view(0)
    assert view["discard"]["face_down"] == 1 and view["market"][3]["discarded"] and view["market"][3]["face"] is None
    assert "mining-1" in hidden_ids(game, 0) and '"mining-1"' not in json.dumps(view)


def test_a_won_investment_card_is_placed_face_up_and_unsecured_in_front_of_its_winner():
    game, _ = tie_round()
    view = game.view(None)
    assert [c["id"] for c in view["players"][1]["unsecured"]] == ["tech-4", "shipping-1"]
    assert view["players"][1]["secured"] == [] and view["market"][0]["face"]["id"] == "tech-4"
    assert view["market"][0]["won_by"] == 1


def test_a_won_market_volatility_card_that_is_not_immediate_is_kept_face_up():
    game = new_game(2, deal=["leveraged-buyout-1", *BLUE_MARKET[1:]], rolls=hands(FIVE_SIXES, FIVE_ONES))
    events = place_rest(game, {0: 0, 1: 1})
    kept = only(events, "volatility_kept")
    assert kept.public["seat"] == 0 and kept.public["card"]["id"] == "leveraged-buyout-1"
    held = game.view(1)["players"][0]["kept_cards"]
    assert [k["card"]["id"] for k in held] == ["leveraged-buyout-1"] and held[0]["when"] == "after_market"


# ------------------------------------------------------------------------------------------------------ 4. The After Market


def two_dice_round():
    """Seat 0 wins tech-4 (secure 6) and shipping-1 (secure 3) and has 4 and 2 in the After Market."""
    game = new_game(2, deal=["tech-4", "energy-1", "shipping-1", "mining-1"], rolls=hands([6, 4, 2, 1, 1], FIVE_ONES))
    invest(
        game, (0, 6, 0), (1, 1, 1), (0, 4, AM), (1, 1, 1), (0, 2, AM), (1, 1, 1), (0, 1, 2), (1, 1, 1), (0, 1, 2), (1, 1, 1)
    )
    return game


def test_securing_a_card_takes_after_market_dice_adding_up_to_its_secure_value_two_dice():
    game = two_dice_round()
    assert game.acting_seats() == [0] and game.view(0)["step"] == "after_market"
    legal = game.legal_actions(0)
    assert {"type": "secure", "card": "tech-4", "dice": [4, 2], "leveraged_buyouts": 0} in legal
    assert {"type": "secure", "card": "shipping-1", "dice": [4], "leveraged_buyouts": 0} in legal
    assert game.view(0)["decision"]["suggested"] == [{"card": "tech-4", "dice": [4, 2], "leveraged_buyouts": 0}]
    events = secure(game, 0, "tech-4", [4, 2])
    revealed = only(events, "securing_revealed")
    assert revealed.public["players"][0]["secured"][0]["card"]["id"] == "tech-4"
    player = game.view(1)["players"][0]
    assert [c["id"] for c in player["secured"]] == ["tech-4"] and [c["id"] for c in player["unsecured"]] == ["shipping-1"]


def test_a_die_serves_one_card_only():
    # Seat 0 wins tech-4 (secure 6) and shipping-1 (secure 3) with 4, 3 and 2 in the After Market.
    game = new_game(2, deal=["tech-4", "energy-1", "shipping-1", "mining-1"], rolls=hands([6, 4, 3, 2, 1], FIVE_ONES))
    invest(
        game, (0, 6, 0), (1, 1, 1), (0, 4, AM), (1, 1, 1), (0, 3, AM), (1, 1, 1), (0, 2, AM), (1, 1, 1), (0, 1, 2), (1, 1, 1)
    )
    secure(game, 0, "shipping-1", [3])
    assert all(3 not in a.get("dice", []) for a in game.legal_actions(0))
    before = game.to_state()
    with pytest.raises(IllegalAction) as error:
        secure(game, 0, "tech-4", [4, 3])
    assert error.value.code == "dice_not_in_after_market" and game.to_state() == before
    secure(game, 0, "tech-4", [4, 2])
    assert game.players[0]["secured"] == ["shipping-1", "tech-4"]


def test_unused_after_market_dice_are_lost_for_the_round():
    game = two_dice_round()
    events = secure(game, 0, "shipping-1", [4])  # the 2 left can secure nothing: the seat is done
    assert only(events, "securing_finished").public == {"seat": 0}
    assert only(events, "securing_revealed").public["players"][0]["dice_lost"] == 1
    assert game.players[0]["unsecured"] == ["tech-4"]
    decline_extra_card(game)
    assert game.view(0)["players"][0]["dice_this_round"] == 5


def test_players_secure_at_the_same_time_and_choices_are_revealed_together():
    game, _ = tie_round()
    assert sorted(game.acting_seats()) == [0, 1] and game.view(None)["to_act"] == [0, 1]
    events = secure(game, 1, "shipping-1", [2, 2])
    chosen = only(events, "securing_chosen")
    assert chosen.for_seat(0) == {"type": "securing_chosen", "seat": 1}
    assert chosen.for_seat(1)["choice"] == {"card": "shipping-1", "dice": [2, 2], "leveraged_buyouts": 0}
    view0 = game.view(0)
    assert view0["players"][1]["securing"] == "done" and "shipping-1" not in json.dumps(view0["players"][1]["secured"])
    assert game.players[1]["secured"] == []  # nothing happens before everyone is in
    events = secure(game, 0, "energy-1", [2, 2])
    revealed = only(events, "securing_revealed").public["players"]
    assert [[c["card"]["id"] for c in p["secured"]] for p in revealed] == [["energy-1"], ["shipping-1"]]


def test_older_unsecured_cards_can_be_secured_in_a_later_after_market():
    game, _ = seat0_wins_slot0_round()
    decline_extra_card(game)
    assert game.players[0]["unsecured"] == ["tech-1"]
    game.hands[0] = [3, 1, 1, 1, 1]  # position: seat 0 rolled a 3 this round
    while game.step == "invest":
        seat = game.acting_seats()[0]
        pips = game.hands[seat][0]
        where = {"on": "after_market"} if seat == 0 and pips == 3 else {"on": "card", "slot": 1}
        game.apply(seat, {"type": "place_die", "pips": pips, **where})
    assert {"type": "secure", "card": "tech-1", "dice": [3], "leveraged_buyouts": 0} in game.legal_actions(0)
    secure(game, 0, "tech-1", [3])
    assert game.players[0]["secured"] == ["tech-1"]


def test_a_seat_with_nothing_it_could_secure_is_not_asked():
    # Seat 1 wins energy-1 (secure 3) but has only a 1 in the After Market: it is not asked, its die is lost.
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    events = invest(game, (0, 6, 0), (1, 1, AM))
    events += place_rest(game, {0: 0, 1: 1})
    assert only(events, "after_market_opened").public == {"deciding": [], "dice": [0, 1]}
    assert only(events, "securing_revealed").public["players"][1] == {"seat": 1, "secured": [], "dice_lost": 1}
    assert game.view(0)["step"] == "extra_card"


# ------------------------------------------------------------------------------------------------------ 5. Refill the Market


def test_refill_every_die_goes_back_and_a_new_market_is_dealt_face_down():
    game, events = seat0_wins_slot0_round()
    refilled = only(events, "market_refilled")
    assert refilled.public == {"tiers": ["blue_chip"] * 4, "deck": 40}
    assert [slot["card"] for slot in game.market] == NEXT_MARKET
    view = game.view(0)
    assert all(slot["face"] is None and slot["dice"] == [] for slot in view["market"])
    assert view["after_market"]["dice"] == [] and view["my_dice"] == []


# ------------------------------------------------------------------------------------------------------ 6. The Piker


def test_the_player_with_the_fewest_victory_points_on_the_table_takes_the_piker_card():
    game, events = seat0_wins_slot0_round()
    taken = only(events, "piker_taken")
    assert taken.public["seat"] == 1 and taken.public["victory_points_on_table"] == [1, 0]
    assert game.view(0)["piker"] == 1 and game.view(0)["players"][1]["is_piker"]


def test_victory_points_on_the_table_count_secured_and_unsecured_cards_and_dividends():
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, unsecured=["tech-8"])  # 7 points unsecured
    give(game, 1, secured=["energy-4"], dividends=["dividend"])  # 3 secured + 3 dividend
    events = place_rest(game, {0: 0, 1: 0})  # seat 0 also wins tech-1
    assert only(events, "piker_taken").public["victory_points_on_table"] == [8, 6]
    assert game.piker == 1


def test_a_tie_for_the_piker_is_settled_by_each_tied_player_rolling_a_die_lowest_takes_it():
    # Both win one 1-point card; the roll-off is 4 v 4, then 2 v 5.
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_SIXES) + [4, 4, 2, 5], strict=True)
    events = place_rest(game, {0: 0, 1: 1})
    taken = only(events, "piker_taken")
    assert taken.public["roll_off"] == [
        [{"seat": 0, "roll": 4}, {"seat": 1, "roll": 4}],
        [{"seat": 0, "roll": 2}, {"seat": 1, "roll": 5}],
    ]
    assert taken.public["seat"] == 0


def test_the_piker_rolls_one_extra_die_next_round_and_is_first_player():
    game, _ = seat0_wins_slot0_round()
    view = game.view(0)
    assert view["players"][1]["extra_dice_next_round_reasons"] == ["piker", "won_nothing"]
    events = decline_extra_card(game)
    assert only(events, "round_started").public == {"round": 2, "first_player": 1}
    view = game.view(1)
    assert view["first_player"] == 1 and view["to_act"] == [1] and len(view["my_dice"]) == 7
    assert view["players"][1]["extra_dice_this_round"] == ["piker", "won_nothing"]


def test_the_piker_decides_whether_one_extra_face_down_card_is_added_to_the_market():
    game, _ = seat0_wins_slot0_round()
    assert game.acting_seats() == [1] and game.legal_actions(1) == [
        {"type": "extra_card", "add": True},
        {"type": "extra_card", "add": False},
    ]
    events = game.apply(1, {"type": "extra_card", "add": True})
    added = only(events, "extra_card")
    assert added.public == {"seat": 1, "added": True, "slot": 4, "tier": "blue_chip"}  # tech-3 is next in the deck
    assert [slot["card"] for slot in game.market] == [*NEXT_MARKET, "tech-3"]
    assert game.view(0)["market"][4]["face"] is None and '"tech-3"' not in json.dumps(game.view(0))


def test_the_piker_may_decline_the_extra_card():
    game, _ = seat0_wins_slot0_round()
    events = decline_extra_card(game)
    assert only(events, "extra_card").public == {"seat": 1, "added": False}
    assert len(game.market) == 4


def test_every_player_who_won_no_card_gets_one_extra_die_next_round_and_extra_dice_last_one_round():
    # 3 players: seat 0 wins, seat 1 wins, seat 2 wins nothing and seat 1 has fewer points (Piker).
    game = new_game(3, deal=["tech-8", "energy-1", "shipping-1", "mining-1", "tech-2"], rolls=hands(FIVE_SIXES, FIVE_SIXES, FIVE_ONES))
    events = place_rest(game, {0: 0, 1: 1, 2: 0})
    assert only(events, "piker_taken").public["extra_dice_next_round"] == [0, 0, 2]
    assert game.piker == 2  # no points at all
    assert game.view(0)["players"][2]["extra_dice_next_round_reasons"] == ["piker", "won_nothing"]
    assert game.view(0)["players"][1]["extra_dice_next_round_reasons"] == []
    decline_extra_card(game)
    assert [p["dice_this_round"] for p in game.view(0)["players"]] == [5, 5, 7]
    # Round 2 (position: the dice rolled): everybody wins a card, so nobody gets the won-nothing die again.
    game.hands = [[1] * 5, [1] * 5, [6] * 7]
    events = place_rest(game, {0: 1, 1: 2, 2: 0})
    assert only(events, "piker_taken").public["extra_dice_next_round"] == [
        1 if seat == game.piker else 0 for seat in range(3)
    ]
    decline_extra_card(game)
    assert [p["dice_this_round"] for p in game.view(0)["players"]] == [
        6 if seat == game.piker else 5 for seat in range(3)
    ]


def test_a_player_who_won_only_a_market_volatility_card_gets_no_extra_die():
    game = new_game(2, deal=["extra-capital", *BLUE_MARKET[1:]], rolls=hands(FIVE_SIXES, FIVE_ONES))
    events = place_rest(game, {0: 0, 1: 1})
    assert only(events, "piker_taken").public["seat"] == 0  # 0 points against energy-1's 1
    assert game.view(0)["players"][0]["extra_dice_next_round_reasons"] == ["piker"]


def test_there_is_no_piker_after_round_six():
    game, _ = seat0_wins_slot0_round_in_last_round()
    assert game.outcome() is not None
    assert game.view(0)["step"] == "over" and game.view(0)["piker"] is None


def seat0_wins_slot0_round_in_last_round(**given):
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    make_last_round(game)
    for seat, cards in given.items():
        give(game, int(seat[-1]), **cards)
    events = place_rest(game, {0: 0, 1: 0})
    return game, events


# ------------------------------------------------------------------------------------------------------ End of the game


def test_after_round_six_each_player_scores_secured_cards_dividends_and_set_bonuses():
    game, events = seat0_wins_slot0_round_in_last_round(
        seat0={"secured": ["tech-8", "tech-7", "energy-4"], "dividends": ["dividend"]},
        seat1={"secured": ["mining-8"]},
    )
    assert not of_type(events, "piker_taken")
    over = only(events, "game_end")
    assert over.public["scores"][0] == {
        "secured_cards": 7 + 5 + 3,
        "dividends": 3,
        "sector_sets": {"tech": 2},
        "portfolios": 0,
        "portfolio_points": 0,
        "total": 15 + 3 + 2,
        "unsecured_cards": 1,
    }
    outcome = game.outcome()
    assert outcome.scores == [20, 7] and outcome.placings == [1, 2]
    assert game.view(1)["final"]["scores"][1]["total"] == 7


def test_unsecured_cards_score_nothing():
    game, _ = seat0_wins_slot0_round_in_last_round(seat1={"unsecured": ["tech-8", "energy-8"], "secured": ["mining-3"]})
    assert game.outcome().scores == [0, 2]  # seat 0's tech-1 won this round stays unsecured too
    assert game.outcome().placings == [2, 1]


def test_a_tie_for_first_is_settled_by_two_dice_each_highest_total_wins():
    rolls = hands(FIVE_SIXES, FIVE_ONES) + [3, 4, 5, 2, 6, 6, 1, 1]  # 7 v 7, then 12 v 2
    game = new_game(2, deal=BLUE_MARKET, rolls=rolls, strict=True)
    make_last_round(game)
    give(game, 0, secured=["energy-2"])
    give(game, 1, secured=["shipping-2"])
    events = place_rest(game, {0: 0, 1: 0})
    over = only(events, "game_end")
    assert over.public["roll_off"] == [
        [{"seat": 0, "dice": [3, 4], "total": 7}, {"seat": 1, "dice": [5, 2], "total": 7}],
        [{"seat": 0, "dice": [6, 6], "total": 12}, {"seat": 1, "dice": [1, 1], "total": 2}],
    ]
    assert game.outcome().placings == [1, 2] and game.outcome().scores == [1, 1]


def test_the_rest_of_the_ranking_keeps_its_ties():
    rolls = hands(FIVE_SIXES, FIVE_ONES, FIVE_ONES) + [6, 6, 1, 1, 2, 2]
    game = new_game(3, deal=BLUE_MARKET + ["tech-2"], rolls=rolls, strict=True)
    make_last_round(game)
    for seat, card in enumerate(["energy-2", "shipping-2", "mining-2"]):
        give(game, seat, secured=[card])
    place_rest(game, {0: 0, 1: 0, 2: 0})
    assert game.outcome().placings == [1, 2, 2]


# ------------------------------------------------------------------------------------------------------ The deck


def test_the_deck_has_48_cards_40_investments_in_five_sectors_and_8_market_volatility_cards():
    assert len(DECK) == 48 and len(set(DECK)) == 48
    investments = [CARDS[c] for c in DECK if CARDS[c]["kind"] == "investment"]
    assert len(investments) == 40
    for sector in ("tech", "energy", "shipping", "real-estate", "mining"):
        rows = sorted(
            (c["tier"], c["victory_points"], c["secure_value"]) for c in investments if c["sector"] == sector
        )
        assert rows == sorted(
            [
                ("blue_chip", 1, 3),
                ("blue_chip", 1, 4),
                ("blue_chip", 2, 5),
                ("growth", 3, 6),
                ("growth", 3, 7),
                ("growth", 4, 8),
                ("speculative", 5, 10),
                ("speculative", 7, 12),
            ]
        )
    volatility = sorted(CARDS[c]["name"] for c in DECK if CARDS[c]["kind"] == "volatility")
    assert volatility == sorted(
        ["Bull Run", "Margin Call", "Dividend", "Leveraged Buyout", "Leveraged Buyout", "Hostile Takeover",
         "Extra Capital", "Insider Tip"]
    )


# ------------------------------------------------------------------------------------------------------ Set bonuses


@pytest.mark.parametrize("count,bonus", [(1, 0), (2, 2), (3, 5), (4, 9), (5, 14), (6, 14), (8, 14)])
def test_sector_sets_of_secured_cards_two_plus_2_three_plus_5_four_plus_9_five_or_more_plus_14(count, bonus):
    cards = [f"tech-{n}" for n in range(1, count + 1)]
    score = final_score(cards, [])
    assert score["sector_sets"].get("tech", 0) == bonus
    assert score["total"] == sum(CARDS[c]["victory_points"] for c in cards) + bonus


def test_a_diversified_portfolio_scores_8_for_every_group_of_five_different_sectors():
    one_each = ["tech-1", "energy-1", "shipping-1", "real-estate-1", "mining-1"]
    assert final_score(one_each, [])["portfolio_points"] == 8
    assert final_score(one_each, [])["total"] == 5 + 8
    two_each = one_each + ["tech-2", "energy-2", "shipping-2", "real-estate-2", "mining-2"]
    # Each card counts in its sector set (2 of each: +2 x 5) and in one portfolio (2 portfolios).
    assert final_score(two_each, [])["total"] == 10 + 5 * 2 + 16
    assert final_score(one_each[:4] + ["tech-3"], [])["portfolios"] == 0


def test_set_and_portfolio_bonuses_count_at_the_end_of_the_game():
    one_each = ["tech-1", "energy-1", "shipping-1", "real-estate-1", "mining-1", "tech-2"]
    game = new_game(2, deal=["mining-8", "energy-8", "shipping-8", "real-estate-8"], rolls=hands(FIVE_SIXES, FIVE_ONES))
    make_last_round(game)
    give(game, 1, secured=one_each)
    place_rest(game, {0: 0, 1: 0})
    scores = game.outcome().summary["scores"][1]
    assert scores["sector_sets"] == {"tech": 2} and scores["portfolio_points"] == 8 and scores["total"] == 6 + 2 + 8


def test_dividends_belong_to_no_sector():
    assert final_score(["tech-1"], ["dividend"]) == {
        "secured_cards": 1,
        "dividends": 3,
        "sector_sets": {},
        "portfolios": 0,
        "portfolio_points": 0,
        "total": 4,
    }


def test_a_bench_variant_is_only_played_when_asked_for():
    from app.games.rng import HashRandom

    plain = Piker.create(3, None, HashRandom("variant"))
    assert plain.variant is None and "variant" not in plain.to_state()
    with pytest.raises(ValueError):
        Piker.create(3, None, HashRandom("variant"), variant="no-such-rule")
    extra = Piker.create(3, None, HashRandom("variant"), variant="first-player-extra-die")
    first = extra.first_player
    assert extra.dice_this_round == [6 if seat == first else 5 for seat in range(3)]
    assert Piker.from_state(extra.to_state()).variant == "first-player-extra-die"


def test_the_secured_score_variant_gives_the_piker_card_to_the_player_behind_on_what_scores():
    from app.games.rng import HashRandom

    for variant, expected in ((None, 1), ("piker-by-secured-score", 0)):
        game = Piker.create(2, None, HashRandom("variant"), variant=variant)
        # Seat 0 holds more on the table (unsecured), seat 1 more that scores (secured).
        game.players[0]["unsecured"] = ["tech-7", "energy-7"]
        game.players[1]["secured"] = ["tech-3"]
        game._choose_piker([])
        assert game.piker == expected
