"""The three bot levels: legal choices from their own view, and the behaviour each level promises."""

from __future__ import annotations

import random

from app.games.pika import Pika
from app.games.pika.bots import EasyBot, HardBot, MediumBot
from app.games.pika.scripting import position
from app.games.rng import HashRandom
from app.games.simulate import play_game, simulate


def test_every_level_is_registered():
    assert set(Pika.bots) == {"easy", "medium", "hard"}
    assert all(Pika.bots[level].level == level for level in Pika.bots)
    assert EasyBot.needs_view is False


def test_bots_play_whole_games_legally_with_every_invariant_checked():
    for seats, levels in [(2, ["hard", "easy"]), (3, ["medium", "hard", "easy"]), (4, ["easy", "medium"] * 2)]:
        for index in range(2):
            game = Pika.create(seats, None, HashRandom(f"bots:{seats}:{index}"))
            bots = [Pika.bots[level](seat, random.Random(index * 10 + seat)) for seat, level in enumerate(levels)]
            played = play_game(game, bots, check=True)
            assert played.violations == []
            assert game.outcome() is not None


def _second_to_last_card_game():
    return position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"])


def test_easy_sometimes_forgets_to_call_pika():
    game = _second_to_last_card_game()
    legal = game.legal_actions(0)
    bot = EasyBot(0, random.Random(5))
    choices = [bot.choose(None, legal) for _ in range(1000)]
    forgot = sum(1 for action in choices if not action.get("pika"))
    assert 230 <= forgot <= 370  # about 30%
    game.apply(0, {"type": "play", "card": "red-3"})
    assert bot.choose(None, game.legal_actions(0)) is None  # and never calls during the alert


def test_medium_and_hard_always_call_pika():
    for bot_class in (MediumBot, HardBot):
        game = _second_to_last_card_game()
        bot = bot_class(0, random.Random(1))
        action = bot.choose(game.view(0), game.legal_actions(0))
        assert action["type"] == "play" and action["pika"] is True
        game.apply(0, {"type": "play", "card": "red-3"})
        assert bot.choose(game.view(0), game.legal_actions(0)) == {"type": "pika"}


def test_medium_stacks_back_with_the_cheapest_card():
    game = position([["red-+2", "red-4"], ["+4", "green-+2", "green-2"]], ["red-9"])
    game.apply(0, {"type": "play", "card": "red-+2"})
    action = MediumBot(1, random.Random(1)).choose(game.view(1), game.legal_actions(1))
    assert action == {"type": "play", "card": "green-+2"}


def test_medium_keeps_black_cards_and_chooses_the_colour_it_holds_most():
    game = position([["joker", "red-4", "blue-5", "blue-6", "blue-7"], ["green-1", "green-2"]], ["red-9"])
    bot = MediumBot(0, random.Random(1))
    assert bot.choose(game.view(0), game.legal_actions(0)) == {"type": "play", "card": "red-4"}
    game = position([["joker", "green-4", "blue-5", "blue-6", "blue-7"], ["green-1", "green-2"]], ["red-9"])
    assert bot.choose(game.view(0), game.legal_actions(0)) == {"type": "play", "card": "joker", "colour": "blue"}


def test_hard_sees_a_winning_stack_back():
    # Chaining the +4 back on the +2 sends 6 cards the other way instead of taking 2.
    game = position([["red-+2", "red-4", "red-5"], ["+4", "green-2"]], ["red-9"])
    game.apply(0, {"type": "play", "card": "red-+2"})
    action = HardBot(1, random.Random(3)).choose(game.view(1), game.legal_actions(1))
    assert action["type"] == "play" and action["card"] == "+4"


def test_hard_choices_depend_only_on_its_view():
    game = position(
        [["red-3", "red-+2", "blue-4", "joker"], ["green-1", "green-2", "red-7"], ["yellow-1"] * 2 + ["red-5"]],
        ["red-9"],
    )
    other = position(
        [["red-3", "red-+2", "blue-4", "joker"], ["blue-1", "yellow-2", "+4"], ["green-1"] * 2 + ["red-+2"]],
        ["red-9"],
    )
    assert game.view(0) == other.view(0)
    first = HardBot(0, random.Random(9)).choose(game.view(0), game.legal_actions(0))
    second = HardBot(0, random.Random(9)).choose(other.view(0), other.legal_actions(0))
    assert first == second


def test_simulate_reports_every_level_without_violations():
    report = simulate("pika", players=3, games=3, bots=["easy", "medium", "hard"], seed="t", check=True)
    assert report.violations == [] and report.unfinished == 0
    assert {level: stats.seat_games for level, stats in report.levels.items()} == {"easy": 3, "medium": 3, "hard": 3}
