"""Scenario tests, one or more per rule line of kapern.md, with scripted cards and dice.

Each test states the card, the rolls (faces on the rolled dice, in die order), the dice held and the expected
score or penalty. Dice are numbered 0..7; a reroll's faces land on the rerolled dice in ascending order.
"""

import pytest

from app.games.base import IllegalAction
from app.games.kapern import Kapern
from app.games.kapern.cards import deck_cards
from app.games.kapern.scripting import dice, put, roll, scripted_game, stop, take
from app.games.rng import HashRandom


def new_game(cards, rolls, seats=2, **kwargs):
    return scripted_game(seats, cards=cards, rolls=[dice(r) for r in rolls], **kwargs)


def last_turn(game):
    return game.view(None)["last_turn"]


def faces(game):
    return [d["face"] for d in game.view(None)["turn"]["dice"]]


# ----------------------------------------------------------------------------------------------------- Table


def test_table_two_to_five_players():
    with pytest.raises(IllegalAction) as refused:
        Kapern.check_options(1, None)
    assert refused.value.code == "bad_seat_count"
    with pytest.raises(IllegalAction):
        Kapern.check_options(6, None)
    for seats in range(2, 6):
        assert Kapern.create(seats, None, HashRandom("seats")).seat_count == seats


def test_deck_has_the_41_cards_of_the_table():
    deck = deck_cards(published_deck=False)
    assert len(deck) == 41
    counts = {card: deck.count(card) for card in set(deck)}
    assert counts == {
        "treasure_island": 4, "pirate": 4, "guardian": 4, "skull_1": 3, "skull_2": 2, "sea_battle_2": 2,
        "sea_battle_3": 2, "sea_battle_4": 2, "gold_coin": 4, "diamond": 4, "animals": 4, "peace": 2,
        "zombie_attack": 2, "shipwreck": 2,
    }
    game = new_game([], [])
    assert game.view(0)["deck"] == {"size": 40, "turned": 0, "published_deck": False}


def test_published_deck_option_leaves_out_peace_zombie_and_shipwreck():
    deck = deck_cards(published_deck=True)
    assert len(deck) == 35
    assert not {"peace", "zombie_attack", "shipwreck"} & set(deck)
    game = new_game([], [], options={"published_deck": True})
    assert game.view(0)["deck"]["size"] == 34
    with pytest.raises(IllegalAction) as refused:
        Kapern.check_options(2, {"published_deck": "yes"})
    assert refused.value.code == "bad_option"


def test_player_turns_up_the_top_card_and_turns_pass_clockwise():
    # Seat 1 starts (the scripted first player); three monkeys and stop; then seat 2 turns the next card.
    game = new_game(["animals", "pirate"], ["3 monkeys, 3 sabers, 2 diamonds"], seats=3, first_seat=1)
    assert game.view(0)["turn"]["card"]["id"] == "animals"
    assert game.acting_seats() == [1]
    events = game.apply(1, roll()) + game.apply(1, stop())
    assert [e.type for e in events][-1] == "card_turned"
    assert game.acting_seats() == [2]
    assert game.view(2)["turn"]["card"]["id"] == "pirate"


@pytest.mark.parametrize(("published", "cards"), [(False, 41), (True, 35)])
def test_deck_reshuffled_when_spent(published, cards):
    # Every turn stops as soon as it may; once every card has been turned, the next turn reshuffles them all.
    game = new_game([], [], options={"published_deck": published})
    events = []
    while game.view(None)["turn"]["number"] <= cards:
        assert not game.is_over
        assert game.view(None)["deck"]["size"] == cards - game.view(None)["turn"]["number"]
        seat = game.acting_seats()[0]
        legal = game.legal_actions(seat)
        events += game.apply(seat, stop() if stop() in legal else legal[0])
    assert [e.type for e in events].count("deck_reshuffled") == 1
    assert game.view(None)["deck"] == {"size": cards - 1, "turned": 0, "published_deck": published}
    assert not game.check_invariants()


def test_scores_can_go_below_zero():
    # Pirate vessel 4: stopping with 1 saber loses the 1000 bonus from a total of 0.
    game = new_game(["sea_battle_4"], ["1 saber, 3 monkeys, 4 parrots"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert game.view(0)["scores"] == [-1000, 0]


# ------------------------------------------------------------------------------------------------------ A turn


def test_first_roll_is_all_eight_dice():
    game = new_game(["animals"], [])
    assert game.legal_actions(0) == [roll()]
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(0, 1, 2))
    assert refused.value.code == "first_roll_all_dice"


def test_three_skulls_end_the_turn_at_once_with_0_points():
    # Animals: roll 3 skulls and 5 monkeys: disqualified at once, the 5 monkeys count for nothing.
    game = new_game(["animals"], ["3 skulls, 5 monkeys"])
    events = game.apply(0, roll())
    assert "disqualified" in [e.type for e in events]
    assert last_turn(game)["points"] == 0
    assert last_turn(game)["ending"] == "disqualified"
    assert game.acting_seats() == [1]


def test_skull_card_skulls_count_towards_the_three():
    # Dead head (2 skulls) and one skull die on the first roll: three skulls, disqualified, 0.
    game = new_game(["skull_2"], ["skull, 4 coins, 3 monkeys"])
    assert game.view(0)["turn"]["skulls"] == {"dice": 0, "card": 2, "total": 2}
    game.apply(0, roll())
    assert last_turn(game)["ending"] == "disqualified"
    assert game.view(0)["scores"] == [0, 0]


def test_third_skull_on_a_reroll_disqualifies():
    # Gold coin: 2 skulls, 3 coins, 3 parrots; reroll the parrots (5, 6, 7): skull, parrot, parrot -> disqualified.
    game = new_game(["gold_coin"], ["2 skulls, 3 coins, 3 parrots", "skull, parrot, parrot"])
    game.apply(0, roll())
    game.apply(0, roll(5, 6, 7))
    assert last_turn(game)["ending"] == "disqualified"
    assert game.view(0)["scores"] == [0, 0]


def test_reroll_any_two_or_more_including_dice_kept_before():
    # Animals: 3 monkeys, 3 sabers, 2 coins. Reroll sabers (3, 4, 5) -> 3 parrots; then reroll monkey 0 and coin 6.
    game = new_game(["animals"], ["3 monkeys, 3 sabers, 2 coins", "3 parrots", "monkey, monkey"])
    game.apply(0, roll())
    game.apply(0, roll(3, 4, 5))
    game.apply(0, roll(0, 6))
    assert faces(game) == dice("3 monkeys, 3 parrots, monkey, coin")
    game.apply(0, stop())
    # Animals: 7 monkeys and parrots (2000) plus one coin (100); the coin scores so every die does: full chest.
    assert last_turn(game)["points"] == 2000 + 100 + 500


def test_single_die_never_rerolled_alone():
    game = new_game(["animals"], ["3 monkeys, 3 sabers, 2 coins"])
    game.apply(0, roll())
    assert {"type": "roll", "dice": [3]} not in game.legal_actions(0)
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(3))
    assert refused.value.code == "single_die"
    assert game.to_state() == before


def test_skulls_are_set_aside_and_never_rerolled():
    game = new_game(["animals"], ["2 skulls, 3 monkeys, 3 sabers"])
    game.apply(0, roll())
    assert all(0 not in a.get("dice", []) for a in game.legal_actions(0))
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(0, 5, 6))
    assert refused.value.code == "skull_locked"
    assert game.to_state() == before


def test_stop_scores_the_dice():
    # Diamond card: 3 diamonds, 3 monkeys, 2 parrots: set of 4 diamonds (200) + 400 + monkeys 100 = 700.
    game = new_game(["diamond"], ["3 diamonds, 3 monkeys, 2 parrots"])
    game.apply(0, roll())
    assert game.view(0)["turn"]["stop_now"]["points"] == 700
    game.apply(0, stop())
    assert game.view(0)["scores"] == [700, 0]


# --------------------------------------------------------------------------------------------------- Guardian


def test_guardian_rerolls_a_single_skull_alone():
    # Guardian: 1 skull (die 0), 4 coins, 3 monkeys; reroll the skull alone -> coin: 5 coins + 3 monkeys, full chest.
    game = new_game(["guardian"], ["1 skull, 4 coins, 3 monkeys", "coin"])
    game.apply(0, roll())
    assert {"type": "roll", "dice": [0]} in game.legal_actions(0)
    events = game.apply(0, roll(0))
    assert [e.type for e in events] == ["guardian_reroll", "rolled"]
    view = game.view(0)["turn"]
    assert view["guardian"] == {"available": False, "used": True, "die": 0}
    game.apply(0, stop())
    assert last_turn(game)["points"] == 500 + 500 + 100 + 500


def test_guardian_saves_a_third_skull():
    # Guardian: 2 skulls, 3 coins, 3 parrots; reroll parrots 5, 6, 7 -> skull, coin, coin: three skulls, but the
    # Guardian is unused: reroll skull 5 alone -> coin. Stop: 6 coins (1000 + 600).
    game = new_game(["guardian"], ["2 skulls, 3 coins, 3 parrots", "skull, coin, coin", "coin"])
    game.apply(0, roll())
    events = game.apply(0, roll(5, 6, 7))
    assert "guardian_rescue" in [e.type for e in events]
    turn = game.view(0)["turn"]
    assert turn["phase"] == "guardian_rescue"
    assert turn["stop_now"]["points"] == 0  # stopping now means disqualification
    assert all(any(i in (0, 1, 5) for i in a["dice"]) for a in game.legal_actions(0) if a["type"] == "roll")
    game.apply(0, roll(5))
    assert game.view(0)["turn"]["skulls"]["total"] == 2
    game.apply(0, stop())
    assert last_turn(game)["points"] == 1000 + 600


def test_guardian_rescue_with_other_dice_and_refusal_without_a_skull():
    game = new_game(["guardian"], ["3 skulls, 3 coins, 2 parrots", "coin, coin, coin"])
    game.apply(0, roll())
    assert game.view(0)["turn"]["phase"] == "guardian_rescue"
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(6, 7))
    assert refused.value.code == "guardian_rescue_needs_skull"
    game.apply(0, roll(0, 6, 7))  # skull 0 and both parrots
    game.apply(0, stop())
    # 6 coins (1000 + 600); two skulls remain, so no full chest.
    assert last_turn(game)["points"] == 1600


def test_guardian_declined_means_disqualification():
    game = new_game(["guardian"], ["3 skulls, 5 coins"])
    game.apply(0, roll())
    events = game.apply(0, stop())
    assert "disqualified" in [e.type for e in events]
    assert last_turn(game)["points"] == 0


def test_guardian_rescue_fails_when_the_skull_comes_back():
    game = new_game(["guardian"], ["3 skulls, 5 coins", "skull"])
    game.apply(0, roll())
    game.apply(0, roll(0))
    assert last_turn(game)["ending"] == "disqualified"


def test_guardian_cannot_save_four_skulls():
    # Guardian: 2 skulls; reroll 3 dice -> 2 skulls: four skulls, disqualified (one reroll cannot get below three).
    game = new_game(["guardian"], ["2 skulls, 3 coins, 3 parrots", "skull, skull, parrot"])
    game.apply(0, roll())
    game.apply(0, roll(5, 6, 7))
    assert last_turn(game)["ending"] == "disqualified"


def test_guardian_only_once_per_turn():
    game = new_game(["guardian"], ["2 skulls, 3 coins, 3 parrots", "skull, parrot"])
    game.apply(0, roll())
    game.apply(0, roll(0, 5))  # skull 0 and a parrot -> skull again, parrot
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(0, 6))
    assert refused.value.code == "guardian_used"
    assert game.to_state() == before


def test_guardian_takes_one_skull_only():
    game = new_game(["guardian"], ["2 skulls, 3 coins, 3 parrots"])
    game.apply(0, roll())
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(0, 1))
    assert refused.value.code == "one_skull_only"


# --------------------------------------------------------------------------------------------- Treasure Island


def test_treasure_island_put_and_take_back():
    game = new_game(["treasure_island"], ["3 coins, 3 monkeys, 2 parrots", "parrot, parrot", "monkey, monkey"])
    game.apply(0, roll())
    for die in (0, 1, 2):
        assert game.apply(0, put(die))[0].type == "put_on_chest"
    assert game.view(0)["turn"]["treasure_island"] == {"dice": [0, 1, 2]}
    assert [d["state"] for d in game.view(0)["turn"]["dice"]][:4] == ["chest", "chest", "chest", "free"]
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(2, 3))
    assert refused.value.code == "die_on_chest"
    game.apply(0, roll(6, 7))
    game.apply(0, take(2))
    assert game.view(0)["turn"]["treasure_island"] == {"dice": [0, 1]}
    game.apply(0, roll(6, 7))
    game.apply(0, stop())
    # 3 coins (100 + 300) and 5 monkeys (500): every die scores, full chest 500.
    assert last_turn(game)["points"] == 1400


def test_treasure_island_dice_score_after_disqualification():
    # Treasure Island: 1 skull, 3 diamonds, 2 monkeys, 2 parrots; diamonds and one monkey on the chest; reroll the
    # other monkey and parrots -> 2 skulls and a parrot: disqualified, the chest keeps 3 diamonds (100 + 300).
    game = new_game(["treasure_island"], ["skull, 3 diamonds, 2 monkeys, 2 parrots", "skull, skull, parrot"])
    game.apply(0, roll())
    for die in (1, 2, 3, 4):
        game.apply(0, put(die))
    game.apply(0, roll(5, 6, 7))
    turn = last_turn(game)
    assert turn["ending"] == "disqualified"
    assert turn["points"] == 400
    assert game.view(0)["scores"] == [400, 0]


def test_treasure_island_never_gives_the_full_chest_after_disqualification():
    # 1 skull, 3 coins, 2 diamonds, 2 monkeys; coins and diamonds on the chest; reroll the monkeys -> 2 skulls.
    # Every die on the chest scores (100 + 300 + 200), but there is no full-chest bonus.
    game = new_game(["treasure_island"], ["skull, 3 coins, 2 diamonds, 2 monkeys", "2 skulls"])
    game.apply(0, roll())
    for die in (1, 2, 3, 4, 5):
        game.apply(0, put(die))
    game.apply(0, roll(6, 7))
    assert last_turn(game)["ending"] == "disqualified"
    assert last_turn(game)["points"] == 600
    assert not last_turn(game)["full_chest"]
    assert last_turn(game)["scoring_dice"] == [False, True, True, True, True, True, False, False]


def test_no_skull_on_the_chest():
    game = new_game(["treasure_island"], ["1 skull, 3 coins, 4 monkeys"])
    game.apply(0, roll())
    assert {"type": "put_on_chest", "die": 0} not in game.legal_actions(0)
    before = game.to_state()
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, put(0))
    assert refused.value.code == "skull_on_chest"
    assert game.to_state() == before


def test_chest_only_under_treasure_island():
    game = new_game(["animals"], ["1 skull, 3 coins, 4 monkeys"])
    game.apply(0, roll())
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, put(1))
    assert refused.value.code == "no_treasure_island"


# ------------------------------------------------------------------------------------------------------ Scoring


def test_worked_example_gold_coin_card():
    game = new_game(["gold_coin"], ["3 monkeys, 3 sabers, 2 parrots"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 300


def test_worked_example_diamond_card():
    game = new_game(["diamond"], ["2 diamonds, 3 parrots, 2 skulls, 1 monkey"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 500


def test_worked_example_pirate_doubles_the_full_chest():
    game = new_game(["pirate"], ["4 sabers, 4 coins"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 2600
    assert last_turn(game)["full_chest"]


def test_full_chest_not_ruled_out_by_a_skull_card():
    # Dead head (1 skull): 4 monkeys and 4 diamonds: 200 + 200 + 400 + full chest 500.
    game = new_game(["skull_1"], ["4 monkeys, 4 diamonds"])
    game.apply(0, roll())
    assert game.view(0)["turn"]["skulls"] == {"dice": 0, "card": 1, "total": 1}
    game.apply(0, stop())
    assert last_turn(game)["points"] == 1300


def test_animals_count_monkeys_and_parrots_together():
    # Animals: 2 parrots and 3 monkeys are a set of five (500).
    game = new_game(["animals"], ["2 parrots, 3 monkeys, 1 skull, 2 sabers"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 500


def test_nine_of_a_kind_is_pirate_magic_and_wins_at_once():
    # Gold coin card and eight coins: a set of nine (4000) + 9 coins (900) + full chest (500); the game ends.
    game = new_game(["gold_coin"], ["8 coins"])
    game.apply(0, roll())
    events = game.apply(0, stop())
    assert last_turn(game)["points"] == 5400
    assert last_turn(game)["pirate_magic"]
    assert events[-1].type == "game_end"
    assert game.outcome().placings == [1, 2]
    assert game.outcome().summary["reason"] == "pirate_magic"


# -------------------------------------------------------------------------------------------------- Skull Island


def test_skull_island_on_four_skulls_in_the_first_roll():
    # Animals: 4 skulls -> Skull Island. Roll the other 4 dice: 2 skulls; roll 2: 1 skull; roll the last one alone:
    # a monkey, no new skull: the turn ends; the opponent loses 7 x 100.
    game = new_game(["animals"], ["4 skulls, 4 monkeys", "skull, skull, monkey, monkey", "skull, parrot",
                                  "monkey"])
    events = game.apply(0, roll())
    assert "skull_island" in [e.type for e in events]
    assert game.view(0)["turn"]["phase"] == "skull_island"
    game.apply(0, roll(4, 5, 6, 7))
    game.apply(0, roll(6, 7))
    assert {"type": "roll", "dice": [7]} in game.legal_actions(0)
    events = game.apply(0, roll(7))
    assert "skull_island_penalty" in [e.type for e in events]
    assert game.view(0)["scores"] == [0, -700]
    assert last_turn(game)["ending"] == "skull_island"


def test_skull_island_entry_counts_card_skulls():
    # Dead head (2 skulls) and 2 skull dice: four skulls -> Skull Island; a roll without a skull ends it: -400.
    game = new_game(["skull_2"], ["2 skulls, 6 parrots", "6 parrots"])
    game.apply(0, roll())
    assert game.view(0)["turn"]["skull_island"]
    game.apply(0, roll(2, 3, 4, 5, 6, 7))
    assert game.view(0)["scores"] == [0, -400]


@pytest.mark.parametrize("card", ["treasure_island", "guardian", "skull_1", "gold_coin", "diamond", "animals"])
def test_skull_island_under_the_other_cards_costs_100_per_skull(card):
    # 5 skull dice (plus the Dead head's 1), then a roll of the other three without a skull ends the island turn.
    skulls = 5 + (card == "skull_1")
    game = new_game([card], ["5 skulls, 3 coins", "monkey, parrot, coin"], seats=3)
    game.apply(0, roll())
    game.apply(0, roll(5, 6, 7))
    assert last_turn(game)["ending"] == "skull_island"
    assert game.view(0)["scores"] == [0, -100 * skulls, -100 * skulls]


def test_skull_island_player_may_stop():
    game = new_game(["animals"], ["5 skulls, 3 monkeys"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert game.view(0)["scores"] == [0, -500]


def test_skull_island_penalty_for_every_opponent():
    game = new_game(["animals"], ["4 skulls, 4 monkeys", "4 monkeys"], seats=4)
    game.apply(0, roll())
    game.apply(0, roll(4, 5, 6, 7))
    assert game.view(0)["scores"] == [0, -400, -400, -400]


def test_skull_island_with_the_pirate_costs_200_per_skull():
    # Pirate: 5 skulls; the other 3 dice come up skulls too: all eight dice are skulls, the turn ends: -1600.
    game = new_game(["pirate"], ["5 skulls, 3 coins", "3 skulls"])
    game.apply(0, roll())
    game.apply(0, roll(5, 6, 7))
    assert game.view(0)["scores"] == [0, -1600]


def test_skull_island_only_on_the_first_roll():
    # Four skulls reached by a reroll are just a disqualification.
    game = new_game(["animals"], ["2 skulls, 6 monkeys", "2 skulls"])
    game.apply(0, roll())
    game.apply(0, roll(2, 3))
    assert last_turn(game)["ending"] == "disqualified"
    assert game.view(0)["scores"] == [0, 0]


def test_no_guardian_reroll_on_skull_island():
    game = new_game(["guardian"], ["4 skulls, 4 monkeys"])
    game.apply(0, roll())
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(0, 4))
    assert refused.value.code == "skull_locked"


def test_four_skulls_under_a_sea_battle_disqualify_and_lose_the_bonus():
    game = new_game(["sea_battle_3"], ["4 skulls, 4 sabers"])
    game.apply(0, roll())
    assert last_turn(game)["ending"] == "disqualified"
    assert game.view(0)["scores"] == [-500, 0]


def test_no_skull_island_under_a_zombie_attack():
    # Zombie attack: 4 skulls and 4 sabers on the first roll: every die shows skull or saber, the turn ends;
    # 4 sabers are fewer than 5: the 1200 is shared by the other player.
    game = new_game(["zombie_attack"], ["4 skulls, 4 sabers"])
    game.apply(0, roll())
    assert last_turn(game)["ending"] == "stopped"
    assert game.view(0)["scores"] == [0, 1200]


def test_no_skull_island_under_a_shipwreck():
    # Shipwreck: 4 skulls, 2 coins, 2 monkeys: no island; reroll the monkeys -> diamond, skull: 3 x 200.
    game = new_game(["shipwreck"], ["4 skulls, 2 coins, 2 monkeys", "diamond, skull"])
    game.apply(0, roll())
    assert not game.view(0)["turn"]["skull_island"]
    game.apply(0, roll(6, 7))
    assert game.view(0)["scores"] == [600, 0]


def test_skull_island_with_peace_costs_500_per_saber_showing():
    # Peace: 4 skulls; roll 4 dice -> saber, saber, monkey, parrot: no skull, the island turn ends with 2 sabers.
    game = new_game(["peace"], ["4 skulls, 4 monkeys", "saber, saber, monkey, parrot"], seats=3)
    game.apply(0, roll())
    game.apply(0, roll(4, 5, 6, 7))
    assert game.view(0)["scores"] == [-1000, -400, -400]


# -------------------------------------------------------------------------------------------- The special cards


@pytest.mark.parametrize(("card", "sabers", "bonus"), [("sea_battle_2", 2, 300), ("sea_battle_3", 3, 500),
                                                       ("sea_battle_4", 4, 1000)])
def test_sea_battle_won_adds_the_bonus(card, sabers, bonus):
    # Exactly the sabers needed, the rest parrots and skulls; sabers count as usual in sets.
    rest = 8 - sabers
    game = new_game([card], [f"{sabers} sabers, 2 skulls, {rest - 2} parrots"])
    game.apply(0, roll())
    assert game.view(0)["turn"]["sea_battle"] == {"sabers_needed": sabers, "sabers": sabers, "bonus": bonus}
    game.apply(0, stop())
    sets = {2: 0, 3: 100, 4: 200}[sabers] + {4: 200, 3: 100, 2: 0}[rest - 2]
    assert last_turn(game)["points"] == sets + bonus


def test_sea_battle_sabers_make_the_full_chest():
    game = new_game(["sea_battle_2"], ["2 sabers, 3 monkeys, 3 coins"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 100 + 100 + 300 + 500 + 300


def test_sea_battle_lost_by_stopping_short():
    # Pirate vessel 3: 2 sabers and 6 coins (1000 + 600 on the dice): stopping short scores 0 and loses 500.
    game = new_game(["sea_battle_3"], ["2 sabers, 6 coins"])
    game.apply(0, roll())
    assert game.view(0)["turn"]["stop_now"]["points"] == -500
    game.apply(0, stop())
    assert game.view(0)["scores"] == [-500, 0]


def test_sea_battle_lost_by_skulls():
    # Pirate vessel 2: 2 sabers, 2 skulls; reroll 2 monkeys -> skull, saber: disqualified, -300.
    game = new_game(["sea_battle_2"], ["2 sabers, 2 skulls, 2 monkeys, 2 coins", "skull, saber"])
    game.apply(0, roll())
    game.apply(0, roll(4, 5))
    assert game.view(0)["scores"] == [-300, 0]


def test_peace_kept_doubles_the_score():
    # Peace: 3 monkeys, 3 parrots, 2 coins, no saber: (100 + 100 + 200 + 500 full chest) x 2.
    game = new_game(["peace"], ["3 monkeys, 3 parrots, 2 coins"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 1800


def test_peace_broken_by_stopping_with_sabers():
    game = new_game(["peace"], ["2 sabers, 6 coins"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert game.view(0)["scores"] == [-1000, 0]


def test_peace_broken_by_disqualification():
    game = new_game(["peace"], ["3 skulls, 3 sabers, 2 coins"])
    game.apply(0, roll())
    assert last_turn(game)["ending"] == "disqualified"
    assert game.view(0)["scores"] == [-1500, 0]


def test_peace_disqualified_without_sabers_is_just_0():
    game = new_game(["peace"], ["3 skulls, 5 coins"])
    game.apply(0, roll())
    assert game.view(0)["scores"] == [0, 0]


def test_zombie_attack_won_with_five_sabers():
    # Zombie attack: roll until all show skull or saber; single dice may be rolled; no stopping; three skulls
    # do not end it. 2 skulls, 2 sabers, 4 coins -> reroll the 4 coins: skull, saber, saber, monkey -> reroll the
    # monkey alone: saber. 3 skulls, 5 sabers: 1200.
    game = new_game(["zombie_attack"], ["2 skulls, 2 sabers, 4 coins", "skull, saber, saber, monkey", "saber"])
    game.apply(0, roll())
    assert game.legal_actions(0) == [roll(4, 5, 6, 7)]
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, stop())
    assert refused.value.code == "zombie_keep_rolling"
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, roll(4, 5))
    assert refused.value.code == "zombie_roll_all"
    game.apply(0, roll(4, 5, 6, 7))
    assert game.view(0)["turn"]["skulls"]["total"] == 3
    assert game.legal_actions(0) == [roll(7)]
    game.apply(0, roll(7))
    assert game.view(0)["scores"] == [1200, 0]


@pytest.mark.parametrize(("seats", "share"), [(2, 1200), (3, 600), (4, 400), (5, 300)])
def test_zombie_attack_lost_shares_1200_among_the_others(seats, share):
    game = new_game(["zombie_attack"], ["4 skulls, 4 sabers"], seats=seats)
    game.apply(0, roll())
    assert game.view(0)["scores"] == [0] + [share] * (seats - 1)


def test_shipwreck_two_rolls_only_diamonds_and_coins_at_200():
    # Shipwreck: 3 skulls (no disqualification), 3 monkeys, 1 coin, 1 diamond; reroll the monkeys -> 3 coins.
    # The second roll ends the turn: 5 coins and diamonds x 200 = 1000; no sets, no full chest.
    game = new_game(["shipwreck"], ["3 skulls, 3 monkeys, coin, diamond", "3 coins"])
    game.apply(0, roll())
    assert game.acting_seats() == [0]
    assert game.view(0)["turn"]["shipwreck"] == {"rolls_left": 1}
    game.apply(0, roll(3, 4, 5))
    assert last_turn(game)["points"] == 1000
    assert game.acting_seats() == [1]


def test_shipwreck_may_stop_after_the_first_roll():
    game = new_game(["shipwreck"], ["4 coins, 4 diamonds"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 1600


def test_gold_coin_and_diamond_cards_start_with_one():
    game = new_game(["gold_coin", "diamond"], ["2 coins, 3 monkeys, 1 parrot, 2 skulls",
                                              "2 diamonds, 3 monkeys, 1 parrot, 2 skulls"])
    game.apply(0, roll())
    game.apply(0, stop())
    game.apply(1, roll())
    game.apply(1, stop())
    # Each: a set of three with the card (100) + 3 x 100 + 3 monkeys (100).
    assert game.view(0)["scores"] == [500, 500]


def test_pirate_doubles_the_turn():
    game = new_game(["pirate"], ["3 monkeys, 2 skulls, 3 parrots"])
    game.apply(0, roll())
    game.apply(0, stop())
    assert last_turn(game)["points"] == 400


def test_pirate_disqualified_is_still_0():
    game = new_game(["pirate"], ["3 skulls, 5 coins"])
    game.apply(0, roll())
    assert game.view(0)["scores"] == [0, 0]
