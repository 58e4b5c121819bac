"""The bots: they play from their own view, pick legal actions, and the levels behave as their names say."""

import random

import pytest

from app.games.kapern import Kapern
from app.games.kapern.bots import EasyBot, HardBot, MediumBot
from app.games.kapern.scripting import dice, roll, scripted_game
from app.games.simulate import simulate


def new_game(cards, rolls, seats=2):
    return scripted_game(seats, cards=cards, rolls=[dice(r) for r in rolls])


def choice(bot_class, game, seat=0):
    bot = bot_class(seat, random.Random(0))
    action = bot.choose(game.view(seat), game.legal_actions(seat))
    assert action in game.legal_actions(seat)
    return action


def rolled(cards, first_roll, seats=2):
    game = new_game(cards, [first_roll], seats)
    game.apply(game.acting_seats()[0], roll())
    return game


def test_levels_are_registered():
    assert Kapern.bots == {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}
    assert [cls.level for cls in Kapern.bots.values()] == ["easy", "medium", "hard"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_simulate_with_check_is_clean(players):
    report = simulate("kapern", players=players, games=3, bots=["hard", "medium", "easy"], seed="t", check=True)
    assert report.violations == [] and report.unfinished == 0
    assert sum(stats.seat_games for stats in report.levels.values()) == 3 * players


def test_simulate_with_the_published_deck():
    report = simulate("kapern", players=3, games=3, bots=["easy"], seed="p", check=True,
                      options={"published_deck": True})
    assert report.violations == [] and report.unfinished == 0


def test_hard_beats_easy_in_two_player_games():
    report = simulate("kapern", players=2, games=80, bots=["hard", "easy"], seed="strength")
    assert report.unfinished == 0
    hard = report.levels["hard"]
    assert hard.wins / hard.seat_games >= 0.65


def test_easy_stops_at_300():
    game = rolled(["animals"], "3 coins, 3 monkeys, parrot, saber")  # 100 + 300 + 100 = 500
    assert choice(EasyBot, game) == {"type": "stop"}
    game = rolled(["animals"], "2 coins, monkey, monkey, parrot, saber, diamond, skull")  # 300
    assert choice(EasyBot, game) == {"type": "stop"}
    game = rolled(["treasure_island"], "coin, 2 monkeys, 2 parrots, saber, diamond, skull")  # 200
    assert choice(EasyBot, game) == roll(1, 2, 3, 4, 5)


def test_medium_doubles_its_threshold_with_the_pirate():
    # Medium stops at 900 with no skull and 300 with two; the Pirate doubles both (1800 and 600).
    game = rolled(["pirate"], "3 coins, 3 monkeys, parrot, saber")  # (100 + 300 + 100) x 2 = 1000
    assert choice(MediumBot, game)["type"] == "roll"
    game = rolled(["pirate"], "3 coins, 3 monkeys, 2 skulls")  # 1000 with two skulls: above 600
    assert choice(MediumBot, game) == {"type": "stop"}


def test_hard_stops_on_a_good_score_with_two_skulls():
    game = rolled(["animals"], "2 skulls, 6 coins")  # 1000 + 600
    assert choice(HardBot, game) == {"type": "stop"}


def test_hard_rerolls_a_poor_first_roll():
    game = rolled(["animals"], "coin, diamond, saber, saber, monkey, skull, monkey, parrot")
    action = choice(HardBot, game)
    assert action["type"] == "roll"


def test_hard_chases_the_sabers_of_a_sea_battle():
    game = rolled(["sea_battle_4"], "2 sabers, 3 coins, 3 monkeys")
    action = choice(HardBot, game)
    assert action["type"] == "roll" and not {0, 1} & set(action["dice"])


def test_hard_rerolls_the_sabers_in_peace():
    game = rolled(["peace"], "2 sabers, 3 coins, 3 monkeys")
    action = choice(HardBot, game)
    assert action["type"] == "roll" and {0, 1} <= set(action["dice"])


def test_hard_uses_the_guardian_to_escape_a_third_skull():
    game = rolled(["guardian"], "3 skulls, 5 coins")
    action = choice(HardBot, game)
    assert action["type"] == "roll" and len({0, 1, 2} & set(action["dice"])) == 1


def test_hard_lays_kept_dice_on_treasure_island_before_rolling():
    game = rolled(["treasure_island"], "4 coins, diamond, skull, monkey, parrot")
    actions = []
    while True:
        action = choice(HardBot, game)
        actions.append(action)
        if action["type"] != "put_on_chest":
            break
        game.apply(0, action)
    assert actions[0]["type"] == "put_on_chest"
    assert actions[-1]["type"] == "roll"
    chest = game.view(0)["turn"]["treasure_island"]["dice"]
    assert set(chest).isdisjoint(actions[-1]["dice"]) and {0, 1, 2, 3} <= set(chest)


def test_hard_keeps_rolling_on_skull_island():
    game = rolled(["animals"], "4 skulls, 4 monkeys")
    assert choice(HardBot, game) == roll(4, 5, 6, 7)


def test_hard_plays_to_win_on_a_last_turn():
    # Seat 0 ends at 10600: seat 1's turn is its last. With 2 skulls and 1000 showing, stopping would lose the game,
    # so the hard bot rolls on, though it stops with the same dice in an ordinary turn.
    game = new_game(["pirate", "animals"], ["8 coins", "2 skulls, 6 monkeys"])
    game.apply(0, roll())
    game.apply(0, {"type": "stop"})
    game.apply(1, roll())
    assert game.view(1)["end"]["last_turns"] == [1]
    assert choice(HardBot, game, seat=1)["type"] == "roll"
    ordinary = rolled(["animals"], "2 skulls, 6 monkeys")
    assert choice(HardBot, ordinary) == {"type": "stop"}
