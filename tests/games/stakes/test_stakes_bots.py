"""The Stakes bots: legal moves from their own view only, the medium card count, the hard bot's fixed budget and a
few decisions any sound player makes; and the bots' compact Table agreeing with the engine's rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.rng import HashRandom
from app.games.simulate import make_bots, play_game
from app.games.stakes import Stakes
from app.games.stakes.bots import CODE, BANKED, BUSTED, LIVE, EasyBot, HardBot, MediumBot, Table, table_from_view
from app.games.stakes.scripting import scripted_game
from tests.games.stakes.stakes_support import act, random_action


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_every_bot_level_plays_legal_moves_to_the_end(seats):
    levels = ["easy", "medium", "hard"]
    for index in range(2):
        lineup = [levels[(seat + index) % 3] for seat in range(seats)]
        game = Stakes.create(seats, None, HashRandom(f"bots-{seats}-{index}"))
        played = play_game(game, make_bots(Stakes, lineup, f"bots-{index}"), check=True)
        assert played.violations == []
        assert game.is_over


def test_bots_are_registered_by_level():
    assert {level: cls.level for level, cls in Stakes.bots.items()} == {
        "easy": "easy", "medium": "medium", "hard": "hard",
    }


def _twin_games() -> tuple[Stakes, Stakes]:
    """Two games with the same table and a differently ordered (unseen) deck."""
    game = Stakes.create(4, None, HashRandom("twins"))
    chooser = random.Random(3)
    for _ in range(9):
        game.apply(*random_action(game, chooser))
    twin = Stakes.from_state(game.to_state())
    twin.deck = twin.deck[::-1]
    assert game.view(game.turn) == twin.view(twin.turn)
    assert game.deck != twin.deck
    return game, twin


@pytest.mark.parametrize("bot_class", [EasyBot, MediumBot, HardBot])
def test_bots_decide_from_their_view_alone(bot_class):
    game, twin = _twin_games()
    seat = game.turn
    choices = []
    for table in (game, twin):
        bot = bot_class(seat, random.Random(11))
        choices.append(bot.choose(table.view(seat), table.legal_actions(seat)))
    assert choices[0] == choices[1]
    assert choices[0] in game.legal_actions(seat)


def test_hard_bot_searches_a_fixed_budget_per_decision(monkeypatch):
    game = scripted_game(3, deck=["10", "5", "5"])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    legal = game.legal_actions(0)
    playouts = []
    original = Table.play_out
    monkeypatch.setattr(Table, "play_out", lambda self, rng: (playouts.append(1), original(self, rng))[1])
    first = HardBot(0, random.Random(5)).choose(game.view(0), legal)
    assert len(playouts) == HardBot.samples * len(legal)
    second = HardBot(0, random.Random(5)).choose(game.view(0), legal)
    assert first == second  # deterministic for a given bot seed: no clock anywhere


def test_medium_counts_the_cards_seen_since_the_last_shuffle():
    # seat 0 holds 12 against 17 in both games; only the cards already seen differ
    fresh = scripted_game(3, deck=["10", "5", "5", "2", "A", "A"])
    for seat in (0, 1, 2, 0, 1, 2):
        act(fresh, seat, "flip")
    fresh_view = fresh.view(0)
    assert fresh_view["players"][0]["total"] == 12
    assert MediumBot(0, random.Random(1)).choose(fresh_view, fresh.legal_actions(0)) == {"type": "flip"}

    low = ["2", "2", "2", "2", "5", "3", "3", "3", "3", "5", "4", "4", "4", "4", "5"]
    deck = ["10"] + low[0:5] + ["A"] + low[5:10] + ["A"] + low[10:15]
    counted = scripted_game(6, deck=deck)
    for _ in range(3):
        for seat in range(6):
            act(counted, seat, "flip")
    view = counted.view(0)
    assert view["players"][0]["total"] == 12 and len(view["seen_since_shuffle"]) == 18
    # 19 of the 34 cards left would bust 12 against 17: bank
    assert MediumBot(0, random.Random(1)).choose(view, counted.legal_actions(0)) == {"type": "bank"}


def test_medium_and_hard_bank_an_exact_hit():
    game = scripted_game(3, deck=["10", "2", "2", "7", "2", "2"])
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    for bot in (MediumBot(0, random.Random(2)), HardBot(0, random.Random(2))):
        assert bot.choose(game.view(0), game.legal_actions(0)) == {"type": "bank"}


def test_easy_never_banks_below_its_threshold():
    game = scripted_game(3, deck=["5", "2", "2"])
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    bot = EasyBot(0, random.Random(4))
    picks = {bot.choose(game.view(0), game.legal_actions(0))["type"] for _ in range(200)}
    assert "bank" not in picks and picks == {"flip", "twist"}


def test_hard_cold_twists_to_bust_a_live_opponent_who_would_win():
    game = scripted_game(2, deck=["10", "10", "5", "8", "Q"], dice=(5, 5))
    for seat in (0, 1, 0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")  # 15 against 20
    act(game, 1, "flip")  # 18 with a Shield: banking there would beat 15
    choice = HardBot(0, random.Random(8)).choose(game.view(0), game.legal_actions(0))
    assert choice["type"] == "twist"


def test_hard_orders_its_peek_to_win_with_the_card_it_needs():
    # Duel: the opponent banked 16 against 17; the hard bot holds 10 and peeks a 9 and a 7: the 7 must come first
    game = scripted_game(2, deck=["10", "9", "6", "A", "J", "9", "7"], first_player=1)
    for seat in (1, 0, 1, 0):
        act(game, seat, "flip")
    act(game, 1, "bank")
    act(game, 0, "flip")  # the Jack
    view = game.view(0)
    assert view["pending"]["cards"] == ["9D", "7C"] and view["players"][0]["total"] == 10
    choice = HardBot(0, random.Random(9)).choose(view, game.legal_actions(0))
    assert choice == {"type": "put_back", "cards": ["7C", "9D"]}


def test_table_from_view_knows_exactly_the_deck_composition():
    game, _ = _twin_games()
    for seat in range(4):
        table, unseen, top = table_from_view(game.view(seat))
        assert sorted(unseen + top) == sorted(CODE[c] for c in game.deck)
        assert len(table.deck) == len(game.deck)


class _ScriptedDice:
    """Feeds the engine's rolls to a Table: random() lands in the die face wanted."""

    def __init__(self):
        self.faces: list[int] = []

    def random(self) -> float:
        return (self.faces.pop(0) - 1 + 0.5) / 6

    def shuffle(self, items: list) -> None:
        raise AssertionError("the engine's deck is copied: a Table playing alongside never reshuffles itself")


def _table_of(game: Stakes) -> Table:
    table = Table.__new__(Table)
    table.n = game.seat_count
    table.duel = game.duel
    table.a, table.b = game.center["a"], game.center["b"]
    table.totals = list(game.totals)
    table.status = [{"live": LIVE, "banked": BANKED, "busted": BUSTED}[s] for s in game.status]
    table.shields = list(game.shields)
    table.dice = list(game.leverage)
    table.first = list(game.first_turn)
    table.exact = list(game.exact)
    table.pot = game.pot
    table.turn = game.turn
    table.done = False
    table.discard = [CODE[c] for c in game.discard]
    table.set_deck([CODE[c] for c in game.deck])
    return table


def _same(table: Table, game: Stakes) -> None:
    assert (table.a, table.b) == (game.center["a"], game.center["b"])
    assert table.totals == game.totals
    assert table.status == [{"live": LIVE, "banked": BANKED, "busted": BUSTED}[s] for s in game.status]
    assert table.shields == game.shields
    assert table.dice == game.leverage and table.pot == game.pot
    assert table.exact == game.exact


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(min_value=2, max_value=6), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_bots_table_follows_the_engines_rules(seats, seed):
    """Play one round in the engine and in a Table side by side, with the same deck and dice."""
    game = Stakes.create(seats, None, HashRandom(f"table-{seed}"))
    chooser = random.Random(seed)
    round_number = game.round
    while not game.is_over and game.round == round_number:
        if len(game.deck) < 3:
            return  # a reshuffle draws the engine's randomness: not comparable
        table = _table_of(game)
        seat, action = random_action(game, chooser)
        events = game.apply(seat, action)
        dice = _ScriptedDice()
        dice.faces = [e.public["new"] for e in events if e.type == "twist"]
        kind = action["type"]
        if kind == "flip":
            table.flip(seat, dice)
        elif kind == "bank":
            table.bank(seat)
        elif kind == "twist":
            table.twist(seat, action["die"], dice)
        elif kind == "nudge":
            table.nudge(action["die"], 1 if action["direction"] == "up" else -1)
        elif kind == "put_back":
            table.deck[-1], table.deck[-2] = CODE[action["cards"][0]], CODE[action["cards"][1]]
        if game.round != round_number or game.is_over:
            ends = [e for e in events if e.type == "round_end"]
            assert ends
            end = ends[0].public
            if game.duel:
                result, winner = table.duel_winner()
                assert (result, winner) == (end["result"], end["winner"])
            else:
                assert table.round_scores() == [r["score"] for r in end["results"]]
            return
        _same(table, game)
        if game.pending is None:
            table.end_turn(seat)
            assert table.turn == game.turn


def test_medium_policy_reads_bust_chance_from_value_counts():
    table = Table.__new__(Table)
    table.a, table.b = 3, 4
    table.totals = [12]
    table.set_deck([CODE[c] for c in ("10C", "9C", "2C", "AC")])
    assert table.bust_chance(0) == 0.5  # a 10 or a 9 busts 12 against 17
    table.totals = [16]
    assert table.bust_chance(0) == 0.75


def test_hard_twists_to_bust_live_opponents():
    # standard game, target 21: the hard bot holds a safe 12 while its opponents sit on 20 and 19
    game = scripted_game(3, deck=["10", "10", "10", "2", "10", "9"], dice=(5, 6))
    for seat in (0, 1, 2, 0, 1, 2):
        act(game, seat, "flip")
    choice = HardBot(0, random.Random(12)).choose(game.view(0), game.legal_actions(0))
    assert choice["type"] == "twist"  # e.g. a 1-3 on die b busts both, a 4 one of them


def test_hard_twists_to_devalue_a_duel_bank():
    # Duel, target 17: the opponent banked 16; the hard bot's 12 only wins if the target drops under 16
    game = scripted_game(2, deck=["10", "10", "6", "2"], first_player=1)
    for seat in (1, 0, 1, 0):
        act(game, seat, "flip")
    act(game, 1, "bank")
    choice = HardBot(0, random.Random(13)).choose(game.view(0), game.legal_actions(0))
    assert choice["type"] == "twist"  # e.g. a 1 or a 2 on die b puts the target at 14 or 15
