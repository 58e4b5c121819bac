"""The scoring function alone (kapern.md, "Scoring a turn" and the special cards): final dice, chest, card, ending."""

import pytest

from app.games.kapern.scoring import DISQUALIFIED, SKULL_ISLAND, STOPPED, score_turn, set_points
from app.games.kapern.scripting import dice


def points(card, faces, ending=STOPPED, **kwargs):
    return score_turn(card, dice(faces), ending, **kwargs).points


@pytest.mark.parametrize(("size", "value"), [(1, 0), (2, 0), (3, 100), (4, 200), (5, 500), (6, 1000), (7, 2000),
                                             (8, 4000), (9, 4000)])
def test_sets_score_by_size(size, value):
    assert set_points(size) == value


def test_sets_of_each_size_on_the_dice():
    # Animals card would merge monkeys and parrots; the Pirate vessel-free "treasure_island" card changes nothing.
    assert points("treasure_island", "3 monkeys, 2 parrots, 2 sabers, 1 skull") == 100
    assert points("treasure_island", "4 monkeys, 2 parrots, 1 saber, 1 skull") == 200
    assert points("treasure_island", "5 monkeys, 1 parrot, 1 saber, 1 skull") == 500
    assert points("treasure_island", "6 monkeys, 1 saber, 1 skull") == 1000
    assert points("treasure_island", "7 monkeys, 1 skull") == 2000
    # Eight of a kind: 4000 plus the full chest (every die is in the set).
    assert points("treasure_island", "8 monkeys") == 4500


def test_diamonds_and_coins_score_100_each_and_as_a_set():
    # Each coin 100 on its own, and three of them a set of 100 too.
    assert points("animals", "3 coins, 1 saber, 2 skulls, 1 monkey, 1 diamond") == 300 + 100 + 100


def test_skulls_never_form_a_set():
    assert points("treasure_island", "2 skulls, 1 monkey, 1 parrot, 2 sabers, 2 diamonds") == 200


def test_worked_example_gold_coin_card():
    # kapern.md worked example: 3 monkeys, 3 sabers, 2 parrots with the Gold coin card: 300.
    result = score_turn("gold_coin", dice("3 monkeys, 3 sabers, 2 parrots"), STOPPED)
    assert result.points == 300
    assert not result.full_chest  # the two parrots score nothing


def test_worked_example_diamond_card():
    # kapern.md worked example: 2 diamonds, 3 parrots, 2 skulls, 1 monkey with the Diamond card: 500.
    assert points("diamond", "2 diamonds, 3 parrots, 2 skulls, 1 monkey") == 500


def test_worked_example_pirate_full_chest():
    # kapern.md worked example: Pirate, 4 sabers, 4 coins: (200 + 200 + 400 + 500) x 2 = 2600.
    result = score_turn("pirate", dice("4 sabers, 4 coins"), STOPPED)
    assert result.points == 2600
    assert result.full_chest
    assert [line.points for line in result.lines] == [200, 400, 200, 500, 1300]


def test_full_chest_ruled_out_by_a_skull_die_but_not_by_a_skull_card():
    assert points("skull_1", "4 sabers, 4 coins") == 200 + 200 + 400 + 500
    assert points("animals", "4 sabers, 3 coins, 1 skull") == 200 + 100 + 300


def test_full_chest_needs_every_die_to_score():
    # Seven dice score, the eighth (a lone parrot) does not.
    assert points("treasure_island", "4 sabers, 3 monkeys, 1 parrot") == 300
    # Animals: the parrot joins the monkeys, every die scores.
    assert points("animals", "4 sabers, 3 monkeys, 1 parrot") == 200 + 200 + 500


def test_card_coin_counts_for_its_100_and_its_set_but_not_as_a_die():
    # Two coin dice and the card's coin: a set of three (100) and three coins (300).
    result = score_turn("gold_coin", dice("2 coins, 3 monkeys, 3 parrots"), STOPPED)
    assert result.points == 100 + 300 + 100 + 100 + 500  # every die scores: full chest
    assert result.full_chest


def test_pirate_magic_is_a_set_of_nine():
    result = score_turn("gold_coin", dice("8 coins"), STOPPED)
    assert result.pirate_magic
    assert result.points == 4000 + 900 + 500
    assert not score_turn("pirate", dice("8 coins"), STOPPED).pirate_magic


def test_sea_battle_sabers_count_for_the_full_chest():
    # 2 sabers alone are no set, but they win the battle and so score: 3 monkeys + 3 coins + full chest + 300.
    assert points("sea_battle_2", "2 sabers, 3 monkeys, 3 coins") == 100 + 100 + 300 + 500 + 300


def test_disqualified_scores_nothing_without_treasure_island():
    assert points("animals", "3 skulls, 5 monkeys", DISQUALIFIED) == 0


def test_disqualified_chest_dice_score_sets_and_values_never_the_full_chest():
    on_chest = [False] * 3 + [True] * 5
    result = score_turn("treasure_island", dice("3 skulls, 3 coins, 2 diamonds"), DISQUALIFIED, on_chest=on_chest)
    assert result.points == 100 + 300 + 200
    assert not result.full_chest


def test_skull_island_penalty_counts_dice_and_card_skulls():
    result = score_turn("skull_2", dice("5 skulls, 3 monkeys"), SKULL_ISLAND, opponents=2)
    assert (result.points, result.opponents_each) == (0, -700)


def test_zombie_prize_shared_among_the_others():
    lost = score_turn("zombie_attack", dice("4 skulls, 4 sabers"), STOPPED, opponents=4)
    assert (lost.points, lost.opponents_each) == (0, 300)


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        score_turn("joker", dice("8 coins"), STOPPED)
    with pytest.raises(ValueError):
        score_turn("pirate", dice("8 coins"), "gave_up")
    with pytest.raises(ValueError):
        score_turn("pirate", ["gold"] * 8, STOPPED)
