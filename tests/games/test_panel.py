"""The panel's fixed plans (app/games/<game>/plans.py) and the hard bots they are measured against (docs/bots.md)."""

from __future__ import annotations

import random

import pytest

from app.games.base import Action, Bot, View
from app.games.panel import plans_of, play_panel_game, run_cell, table, wilson
from app.games.registry import game_names, get_game
from app.games.rng import HashRandom
from app.games.simulate import play_game, simulate

PLANS = [(game, plan) for game in game_names() for plan in plans_of(game)]


class Checked(Bot):
    """Passes every decision to `inner` and records whether its choice was among the legal actions."""

    def __init__(self, inner: Bot, record: list):
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.level = inner.level
        self.needs_view = inner.needs_view
        self.record = record

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        action = self.inner.choose(view, legal)
        self.record.append((action, action in legal))
        return action


def play_with_plan(game_name: str, plan: str, players: int, seed: int) -> tuple[list, dict]:
    game_cls = get_game(game_name)
    record: list = []
    plan_seat = seed % players
    bots: list[Bot] = []
    for seat in range(players):
        if seat == plan_seat:
            bots.append(Checked(plans_of(game_name)[plan](seat, random.Random(seed)), record))
        else:
            bots.append(game_cls.bots["easy"](seat, random.Random(f"{seed}:{seat}")))
    game = game_cls.create(players, None, HashRandom(f"plan-test:{game_name}:{plan}:{seed}"))
    played = play_game(game, bots, check=seed == 0)
    assert played.violations == []
    assert game.outcome() is not None
    return record, game.to_state()


def test_every_game_has_a_greedy_and_a_cautious_plan_at_least():
    for game in game_names():
        plans = plans_of(game)
        assert len(plans) >= 2, game
        assert all(cls.level == name for name, cls in plans.items())
        assert not set(plans) & set(get_game(game).bots), "a plan is not one of the live game's bot levels"


def test_the_pikers_panel_has_the_plans_a_person_tries_first():
    assert {"after-market-first", "all-in-one-card", "never-secure", "always-secure"} <= set(plans_of("piker"))


@pytest.mark.parametrize("game_name,plan", PLANS)
def test_a_plan_plays_only_legal_moves_at_every_seat_count(game_name, plan):
    game_cls = get_game(game_name)
    for players in (game_cls.min_seats, game_cls.max_seats):
        for seed in range(2):
            record, _ = play_with_plan(game_name, plan, players, seed)
            assert record, "the plan was never asked"
            illegal = [action for action, ok in record if not ok]
            assert illegal == []


@pytest.mark.parametrize("game_name,plan", PLANS)
def test_a_plan_is_deterministic_for_a_seed(game_name, plan):
    first, state = play_with_plan(game_name, plan, 3, 5)
    again, state_again = play_with_plan(game_name, plan, 3, 5)
    assert [a for a, _ in first] == [a for a, _ in again]
    assert state == state_again


@pytest.mark.parametrize("game_name", game_names())
def test_a_hard_bot_beats_an_easy_bot_clearly(game_name):
    report = simulate(game_name, players=2, games=30, bots=["hard", "easy"], seed="panel-test")
    assert report.violations == [] and report.unfinished == 0
    # Fair is 15 of 30; Pika, the game with the most luck, gives the hard bot 20 in this seeded run.
    assert report.levels["hard"].wins >= 18


def test_a_panel_game_gives_the_plan_its_share_of_a_first_place_and_rotates_its_seat():
    shares = [play_panel_game("piker", "after-market-first", 2, index, seed="t") for index in range(4)]
    assert all(share in (0.0, 0.5, 1.0) for share in shares)
    assert shares == [play_panel_game("piker", "after-market-first", 2, index, seed="t") for index in range(4)]


def test_a_cell_reports_its_share_with_an_interval_and_whether_the_hard_bot_holds():
    cell = run_cell("stakes", "bank-at-margin", 3, 6, seed="t")
    assert cell.low <= cell.share <= cell.high
    assert cell.holds == (cell.share <= 1 / 3 + 0.05)
    text = table([cell])
    assert "bank-at-margin" in text and "3 players" in text


def test_the_wilson_interval_of_a_half_over_a_thousand_games_is_three_points_each_way():
    low, high = wilson(500, 1000)
    assert 0.468 < low < 0.470 and 0.530 < high < 0.532
