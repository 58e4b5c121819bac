"""platform.md's payouts, ties, pots, XP and league points, through the one rewards function."""

import pytest

from app.tables.rewards import RewardRules, Table, split_places, split_pot, table_rewards

RULES = RewardRules(
    payouts={2: [60, 20], 3: [80, 40, 20], 4: [100, 60, 40, 20], 5: [120, 80, 50, 30, 20]},
    friends_prize_ratio=0.5,
    xp_by_place=[30, 20, 15, 10, 10],
    xp_for_finishing=10,
    league_points=[12, 8, 4, 2, 1],
)


def table(mode, placings, humans=None, left=None, **kw):
    n = len(placings)
    return Table(mode, placings, humans or [True] * n, left or [False] * n, **kw)


def test_ties_split_the_prizes_of_the_places_they_cover_rounded_down():
    assert split_places([1, 2, 2, 4], [100, 60, 40, 20]) == [100, 50, 50, 20]
    assert split_places([1, 1, 1], [80, 40, 20]) == [46, 46, 46]


def test_pot_goes_to_first_places_with_the_remainder_one_coin_each_in_seat_order():
    assert split_pot(1000, [2, 1, 1]) == [0, 500, 500]
    assert split_pot(250 * 3, [1, 2, 1]) == [375, 0, 375]
    assert split_pot(100 * 3, [1, 1, 2]) == [150, 150, 0]
    assert split_pot(100 * 5, [1, 1, 1, 2, 3]) == [167, 167, 166, 0, 0]
    assert sum(split_pot(1001, [1, 1, 1])) == 1001


def test_vs_bots_pays_nothing_and_gives_no_xp():
    rewards = table_rewards(table("bots", [1, 2]), RULES)
    assert all(r.coins == 0 and r.xp == 0 and r.league_points == 0 for r in rewards)


def test_friends_pay_only_the_winner_half_the_online_first_prize():
    rewards = table_rewards(table("friends", [2, 1, 3]), RULES)
    assert [r.coins for r in rewards] == [0, 40, 0]
    assert [r.xp for r in rewards] == [30, 40, 25]
    assert [r.league_points for r in rewards] == [0, 0, 0]


def test_a_friends_table_of_one_person_and_bots_pays_as_practice():
    rewards = table_rewards(table("friends", [1, 2, 3], humans=[True, False, False]), RULES)
    assert all(r.coins == 0 and r.xp == 0 and r.league_points == 0 and r.net == 0 for r in rewards)
    assert [r.one_person for r in rewards] == [True, False, False]  # the results tell that person why
    # Two people and a bot are a friends game: the winner is paid, both get XP.
    rewards = table_rewards(table("friends", [2, 1, 3], humans=[True, True, False]), RULES)
    assert [r.coins for r in rewards] == [0, 40, 0] and [r.xp for r in rewards] == [30, 40, 0]
    assert not any(r.one_person for r in rewards)


def test_a_friends_table_where_the_only_other_person_left_pays_as_practice():
    # A second account that resigns (or never joins: a bot plays its every turn) is a bot: no coin or XP farm.
    rewards = table_rewards(table("friends", [1, 2], left=[False, True]), RULES)
    assert all(r.coins == 0 and r.xp == 0 and r.net == 0 for r in rewards)
    assert [r.one_person for r in rewards] == [True, True] and rewards[1].left
    # Two people still playing and one who left: a friends game.
    rewards = table_rewards(table("friends", [1, 2, 3], left=[False, False, True]), RULES)
    assert [r.coins for r in rewards] == [40, 0, 0] and [r.xp for r in rewards] == [40, 30, 0]


def test_a_leaver_at_an_online_or_staked_table_halves_the_league_points_as_a_simulated_player_does():
    online = table_rewards(table("online", [1, 2], left=[False, True]), RULES)
    assert [r.coins for r in online] == [60, 0] and online[0].league_points == 6 and online[0].league_halved
    staked = table_rewards(table("staked", [2, 1], left=[True, False], stake=100), RULES)
    assert staked[1].pot == 200 and staked[1].league_points == 6 and staked[1].league_halved


def test_online_pays_every_place_but_simulated_players_and_leavers_get_nothing():
    rewards = table_rewards(table("online", [1, 2, 3, 4], humans=[True, False, True, True], left=[False, False, False, True], bot_filled=True), RULES)
    assert [r.coins for r in rewards] == [100, 0, 40, 0]
    assert [r.league_points for r in rewards] == [6, 0, 2, 0]
    assert [r.league_halved for r in rewards] == [True, False, True, False]  # said on the results, for whom it counts
    assert not any(r.league_halved for r in table_rewards(table("online", [1, 2]), RULES))
    assert rewards[3].left and rewards[3].xp == 0


def test_boosters_multiply_prizes_but_never_the_pot_or_xp():
    online = table_rewards(table("online", [1, 2], multipliers=[3.0, 1.5]), RULES)
    assert [r.coins for r in online] == [180, 30] and [r.xp for r in online] == [40, 30]
    staked = table_rewards(table("staked", [1, 2], multipliers=[3.0, 1.0], stake=250), RULES)
    assert [r.pot for r in staked] == [500, 0] and [r.coins for r in staked] == [0, 0]


def test_a_staked_leaver_still_takes_the_pot_share_of_their_place():
    rewards = table_rewards(table("staked", [1, 2], left=[True, False], stake=100), RULES)
    assert rewards[0].pot == 200 and rewards[0].xp == 0 and rewards[0].league_points == 0


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_table_size_has_prizes(seats):
    rewards = table_rewards(table("online", list(range(1, seats + 1))), RULES)
    assert rewards[0].coins > 0
