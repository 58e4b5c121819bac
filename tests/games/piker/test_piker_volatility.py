"""Scenario tests for the eight Market Volatility cards (piker.md, the card table), with scripted deals and dice."""

from __future__ import annotations

import json

from tests.games.piker.piker_support import (
    AM,
    BLUE_MARKET,
    FIVE_ONES,
    FIVE_SIXES,
    NEXT_MARKET,
    decline_extra_card,
    give,
    hands,
    invest,
    make_last_round,
    new_game,
    of_type,
    only,
    place_rest,
    secure,
)


def face_up_discards(game):
    return [d["card"] for d in game.discard if d["face_up"]]


# ------------------------------------------------------------------------------------------------------ Bull Run


def test_bull_run_secures_one_of_your_unsecured_cards_for_free_you_pick_which():
    game = new_game(2, deal=["bull-run", *BLUE_MARKET[1:]], rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, unsecured=["tech-4", "energy-7"])
    place_rest(game, {0: 0, 1: 1})
    assert game.view(0)["step"] == "bull_run" and game.acting_seats() == [0]
    assert game.legal_actions(0) == [{"type": "bull_run", "card": "tech-4"}, {"type": "bull_run", "card": "energy-7"}]
    assert game.view(0)["decision"] == {"kind": "bull_run", "choose_from": ["tech-4", "energy-7"]}
    events = game.apply(0, {"type": "bull_run", "card": "energy-7"})
    played = of_type(events, "volatility_played")[0]
    assert played.public["card"]["id"] == "bull-run" and played.public["secured"]["id"] == "energy-7"
    assert game.players[0]["secured"] == ["energy-7"] and game.players[0]["unsecured"] == ["tech-4"]
    assert "bull-run" in face_up_discards(game)
    # The rest of Collect Investments goes on: seat 1 wins energy-1 at slot 1.
    assert [e.public["slot"] for e in of_type(events, "card_won")] == [1]


def test_bull_run_acts_at_once_in_market_order_on_the_only_unsecured_card():
    # Slot 0 Bull Run, slot 1 tech-4: when Bull Run acts, energy-2 is seat 0's only unsecured card.
    game = new_game(2, deal=["bull-run", "tech-4", "shipping-1", "mining-1"], rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, unsecured=["energy-2"])
    invest(game, (0, 6, 0), (1, 1, 2), (0, 6, 1))
    events = place_rest(game, {0: 0, 1: 2})
    assert only(events, "volatility_played").public["secured"]["id"] == "energy-2"
    assert game.players[0]["secured"] == ["energy-2"] and game.players[0]["unsecured"] == ["tech-4"]


def test_bull_run_with_no_unsecured_card_does_nothing():
    game = new_game(2, deal=["bull-run", *BLUE_MARKET[1:]], rolls=hands(FIVE_SIXES, FIVE_ONES))
    events = place_rest(game, {0: 0, 1: 1})
    assert only(events, "volatility_played").public["secured"] is None
    assert game.players[0]["secured"] == [] and "bull-run" in face_up_discards(game)


# ------------------------------------------------------------------------------------------------------ Margin Call


def test_margin_call_every_opponent_with_two_or_more_unsecured_cards_discards_the_lowest_the_oldest_among_equals():
    game = new_game(
        4,
        deal=["margin-call", "tech-1", "energy-1", "shipping-1", "mining-1"],
        rolls=hands(FIVE_SIXES, FIVE_ONES, FIVE_ONES, FIVE_ONES),
    )
    give(game, 0, unsecured=["energy-3", "energy-4"])  # the winner's own cards are safe
    give(game, 1, unsecured=["tech-4", "tech-2", "energy-2"])  # 3, 1, 1 VP: tech-2 is the oldest 1
    give(game, 2, unsecured=["shipping-8", "shipping-3"])  # 7, 2 VP
    give(game, 3, unsecured=["mining-2"])  # only one card
    events = place_rest(game, {0: 0, 1: 0, 2: 0, 3: 0})
    played = only(events, "volatility_played")
    assert played.public["card"]["id"] == "margin-call"
    assert [(d["seat"], d["card"]["id"]) for d in played.public["discarded"]] == [(1, "tech-2"), (2, "shipping-3")]
    assert game.players[0]["unsecured"] == ["energy-3", "energy-4"]
    assert game.players[1]["unsecured"] == ["tech-4", "energy-2"]
    assert game.players[2]["unsecured"] == ["shipping-8"]
    assert game.players[3]["unsecured"] == ["mining-2"]
    assert {"tech-2", "shipping-3", "margin-call"} <= set(face_up_discards(game))


def test_margin_call_takes_the_lowest_victory_points_even_when_it_is_the_newest():
    game = new_game(2, deal=["margin-call", *BLUE_MARKET[1:]], rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 1, unsecured=["tech-8", "tech-5", "energy-2"])  # 7, 3, 1 VP
    events = place_rest(game, {0: 0, 1: 0})
    assert [d["card"]["id"] for d in only(events, "volatility_played").public["discarded"]] == ["energy-2"]


# ------------------------------------------------------------------------------------------------------ Dividend


def test_dividend_is_worth_three_points_kept_face_up_and_counted_for_the_piker():
    game = new_game(2, deal=["dividend", "tech-1", "shipping-1", "mining-1"], rolls=hands(FIVE_SIXES, FIVE_SIXES))
    give(game, 1, unsecured=["energy-1"])
    events = place_rest(game, {0: 0, 1: 1})  # seat 0 wins the Dividend, seat 1 tech-1
    assert only(events, "volatility_played").public["victory_points"] == 3
    assert [c["id"] for c in game.view(1)["players"][0]["dividends"]] == ["dividend"]
    taken = only(events, "piker_taken")
    assert taken.public["victory_points_on_table"] == [3, 2] and taken.public["seat"] == 1


def test_dividend_counts_at_the_end_of_the_game():
    game = new_game(2, deal=["dividend", *BLUE_MARKET[1:]], rolls=hands(FIVE_SIXES, FIVE_ONES))
    make_last_round(game)
    place_rest(game, {0: 0, 1: 0})
    assert game.outcome().summary["scores"][0]["dividends"] == 3 and game.outcome().scores == [3, 0]


# ------------------------------------------------------------------------------------------------------ Leveraged Buyout


def buyout_round():
    """Seat 0 holds a Leveraged Buyout, wins tech-3 (secure 5) and shipping-1 (secure 3), and has a 2 in the After Market."""
    game = new_game(2, deal=["tech-3", "energy-1", "shipping-1", "mining-1"], rolls=hands([6, 2, 1, 1, 1], FIVE_ONES))
    give(game, 0, kept=["leveraged-buyout-1"])
    invest(
        game, (0, 6, 0), (1, 1, 1), (0, 2, AM), (1, 1, 1), (0, 1, 2), (1, 1, 1), (0, 1, 2), (1, 1, 1), (0, 1, 2), (1, 1, 1)
    )
    return game


def test_leveraged_buyout_adds_three_pips_to_the_dice_used_on_one_card_in_an_after_market_step():
    game = buyout_round()
    held = game.view(0)["players"][0]["kept_cards"]
    assert held[0]["when"] == "after_market" and held[0]["playable_now"]
    legal = game.legal_actions(0)
    assert {"type": "secure", "card": "tech-3", "dice": [2], "leveraged_buyouts": 1} in legal
    assert {"type": "secure", "card": "tech-3", "dice": [2], "leveraged_buyouts": 0} not in legal
    assert game.view(0)["decision"]["suggested"] == [{"card": "tech-3", "dice": [2], "leveraged_buyouts": 1}]
    events = secure(game, 0, "tech-3", [2], buyouts=1)
    revealed = only(events, "securing_revealed").public["players"][0]["secured"]
    assert revealed[0]["card"]["id"] == "tech-3" and revealed[0]["leveraged_buyouts"] == 1
    assert game.players[0]["secured"] == ["tech-3"] and game.players[0]["kept"] == []
    assert "leveraged-buyout-1" in face_up_discards(game)


def test_a_leveraged_buyout_needs_at_least_one_die_on_the_card():
    game = buyout_round()
    assert all(a.get("dice") != [] for a in game.legal_actions(0))


def test_two_leveraged_buyouts_can_go_on_one_card():
    game = new_game(2, deal=["tech-4", "energy-1", "shipping-1", "mining-1"], rolls=hands([6, 1, 1, 1, 1], FIVE_ONES))
    give(game, 0, kept=["leveraged-buyout-1", "leveraged-buyout-2"])
    invest(game, (0, 6, 0), (1, 1, 1), (0, 1, AM))
    place_rest(game, {0: 2, 1: 1})
    assert game.legal_actions(0) == [
        {"type": "secure", "card": "tech-4", "dice": [1], "leveraged_buyouts": 2},  # 1 + 3 + 3 >= 6
        {"type": "secure", "card": "shipping-1", "dice": [1], "leveraged_buyouts": 1},  # seat 0 also won slot 2
        {"type": "finish_securing"},
    ]
    secure(game, 0, "tech-4", [1], buyouts=2)
    assert game.players[0]["secured"] == ["tech-4"] and game.players[0]["kept"] == []


# ------------------------------------------------------------------------------------------------------ Hostile Takeover


def takeover_round():
    """Seat 0 holds Hostile Takeover and has a 6 in the After Market; seat 1 wins tech-4, seat 0 energy-1."""
    game = new_game(2, deal=["tech-4", "energy-1", "shipping-1", "mining-1"], rolls=hands([6, 1, 1, 1, 1], FIVE_SIXES))
    give(game, 0, kept=["hostile-takeover"])
    invest(game, (0, 6, AM), (1, 6, 0))
    place_rest(game, {0: 1, 1: 0})
    return game


def test_hostile_takeover_at_the_end_of_collect_investments_takes_an_unsecured_card_from_an_opponent():
    game = takeover_round()
    assert game.view(0)["step"] == "hostile_takeover" and game.acting_seats() == [0]
    assert game.view(0)["players"][0]["kept_cards"][0]["playable_now"]
    assert game.legal_actions(0) == [{"type": "play_hostile_takeover", "card": "tech-4"}, {"type": "keep_card"}]
    events = game.apply(0, {"type": "play_hostile_takeover", "card": "tech-4"})
    played = only(events, "volatility_played")
    assert played.public["taken"]["id"] == "tech-4" and played.public["from"] == 1
    assert game.players[0]["unsecured"] == ["energy-1", "tech-4"] and game.players[1]["unsecured"] == []
    assert "hostile-takeover" in face_up_discards(game)
    # The taken card can be secured in this round's After Market.
    assert game.view(0)["decision"]["suggested"] == [{"card": "tech-4", "dice": [6], "leveraged_buyouts": 0}]


def test_hostile_takeover_may_be_kept_for_a_later_round():
    game = takeover_round()
    events = game.apply(0, {"type": "keep_card"})
    assert only(events, "card_kept").public == {"seat": 0, "card": "Hostile Takeover"}
    assert game.view(0)["step"] == "after_market" and game.players[0]["kept"] == ["hostile-takeover"]
    assert not game.view(0)["players"][0]["kept_cards"][0]["playable_now"]


def test_hostile_takeover_is_not_offered_when_no_opponent_has_an_unsecured_card():
    game = new_game(2, deal=BLUE_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, kept=["hostile-takeover"])
    place_rest(game, {0: 0, 1: 0})
    assert game.view(0)["step"] == "extra_card"


# ------------------------------------------------------------------------------------------------------ Extra Capital


def round_two_with(kept):
    """Seat 0 holds `kept` after round 1 (which it won alone); round 2 is about to start (seat 1 is the Piker)."""
    game = new_game(2, deal=BLUE_MARKET + NEXT_MARKET, rolls=hands(FIVE_SIXES, FIVE_ONES))
    give(game, 0, kept=[kept])
    place_rest(game, {0: 0, 1: 0})
    return game, decline_extra_card(game)


def test_extra_capital_is_played_at_generate_income_for_one_extra_die_this_round():
    game, events = round_two_with("extra-capital")
    assert not of_type(events, "dice_rolled") and game.view(0)["step"] == "extra_capital"
    assert game.acting_seats() == [0] and game.view(0)["my_dice"] == []
    assert game.view(1)["players"][0]["kept_cards"][0]["playable_now"]
    assert game.legal_actions(0) == [{"type": "play_extra_capital"}, {"type": "keep_card"}]
    events = game.apply(0, {"type": "play_extra_capital"})
    assert only(events, "dice_rolled").public["dice"] == [6, 7]
    assert game.view(0)["players"][0]["extra_dice_this_round"] == ["extra_capital"]
    assert "extra-capital" in face_up_discards(game)
    assert game.view(0)["step"] == "invest" and game.acting_seats() == [1]


def test_extra_capital_may_be_kept():
    game, _ = round_two_with("extra-capital")
    events = game.apply(0, {"type": "keep_card"})
    assert only(events, "dice_rolled").public["dice"] == [5, 7]
    assert game.players[0]["kept"] == ["extra-capital"]


# ------------------------------------------------------------------------------------------------------ Insider Tip


def test_insider_tip_at_the_start_of_an_invest_step_shows_two_face_down_cards_to_its_player_only():
    game, events = round_two_with("insider-tip")
    assert of_type(events, "dice_rolled") and game.view(0)["step"] == "insider_tip" and game.acting_seats() == [0]
    legal = game.legal_actions(0)
    assert len(legal) == 6 + 1 and {"type": "play_insider_tip", "slots": [0, 2]} in legal
    events = game.apply(0, {"type": "play_insider_tip", "slots": [0, 2]})
    played = only(events, "volatility_played")
    assert played.for_seat(0)["seen"] == [
        {"slot": 0, "card": {**played.for_seat(0)["seen"][0]["card"], "id": "tech-2"}},
        {"slot": 2, "card": {**played.for_seat(0)["seen"][1]["card"], "id": "shipping-2"}},
    ]
    assert "seen" not in played.for_seat(1) and "tech-2" not in json.dumps(played.for_seat(1))
    assert game.view(0)["market"][0]["face"]["id"] == "tech-2" and game.view(0)["market"][0]["seen_by_insider_tip"]
    assert game.view(1)["market"][0]["face"] is None and '"tech-2"' not in json.dumps(game.view(1))
    assert '"tech-2"' not in json.dumps(game.view(None))
    # Still seen by its player later in the step, and the card is used up.
    invest(game, (1, game.hands[1][0], 1))
    assert game.view(0)["market"][2]["face"]["id"] == "shipping-2"
    assert "insider-tip" in face_up_discards(game) and game.players[0]["kept"] == []


def test_insider_tip_may_be_kept():
    game, _ = round_two_with("insider-tip")
    game.apply(0, {"type": "keep_card"})
    assert game.view(0)["step"] == "invest" and game.players[0]["kept"] == ["insider-tip"]
    assert all(slot["face"] is None for slot in game.view(0)["market"])
