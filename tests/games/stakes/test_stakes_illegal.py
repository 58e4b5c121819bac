"""Illegal actions are refused with a specific, stable code and a readable message, and change nothing."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.stakes import Stakes
from app.games.stakes.scripting import scripted_game
from tests.games.stakes.stakes_support import act


def _start() -> Stakes:
    """Seat 0 on turn, first turn: nothing flipped yet (3 players, target 17)."""
    return scripted_game(3, deck=["Q", "5", "5", "J", "9", "2", "K"], strict=False)


def _second_turn() -> Stakes:
    """Seat 0 on its second turn with a Queen (total 0)."""
    game = _start()
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    return game


def _peek_pending() -> Stakes:
    game = _second_turn()
    act(game, 0, "flip")  # the Jack: seat 0 must order 9 and 2
    return game


def _nudge_pending() -> Stakes:
    game = scripted_game(3, deck=["K"], dice=(1, 6))
    act(game, 0, "flip")
    return game


def _no_dice() -> Stakes:
    game = scripted_game(3, deck=["2", "2", "2", "A", "A", "A", "A", "3", "3"], rolls=[3] * 3)
    for seat in (0, 1, 2):
        act(game, seat, "flip")
    for _ in range(3):
        act(game, 0, "twist", die="a")
        act(game, 1, "flip")
        act(game, 2, "flip")
    return game


def _duel_banked() -> Stakes:
    game = scripted_game(2, deck=["10", "10", "5", "2"])
    for seat in (0, 1):
        act(game, seat, "flip")
    act(game, 0, "bank")
    act(game, 1, "flip")
    return game  # seat 0 banked, on its cold-twisting turn


def _over() -> Stakes:
    game = scripted_game(2, deck=["5", "10", "10", "9", "5", "9", "8", "5", "10", "9", "5", "9"], rolls=[3, 4] * 3)
    first_round = [(0, "flip"), (1, "flip"), (0, "bank"), (1, "flip")]
    moves = first_round + [(1, "flip"), (0, "flip"), (1, "flip"), (0, "bank")] * 3
    for seat, kind in moves:
        act(game, seat, kind)
    assert game.is_over
    return game


CASES = [
    ("game_over", _over, 0, {"type": "flip"}),
    ("game_over", _over, 1, {"type": "pass"}),
    ("not_your_turn", _start, 1, {"type": "flip"}),
    ("not_your_turn", _start, None, {"type": "flip"}),
    ("not_your_turn", _peek_pending, 1, {"type": "put_back", "cards": ["9C", "2C"]}),
    ("bad_action", _start, 0, "flip"),
    ("bad_action", _start, 0, {}),
    ("bad_action", _start, 0, {"type": 3}),
    ("bad_action", _start, 0, {"type": "hit"}),
    ("bad_action", _start, 0, {"type": "flip", "card": "QC"}),
    ("bad_action", _second_turn, 0, {"type": "twist"}),
    ("bad_action", _second_turn, 0, {"type": "twist", "die": "c"}),
    ("bad_action", _nudge_pending, 0, {"type": "nudge", "die": "a", "direction": "left"}),
    ("bad_action", _nudge_pending, 0, {"type": "nudge", "die": "a"}),
    ("bad_action", _nudge_pending, 0, {"type": "nudge", "die": "a", "direction": ["up"]}),
    ("bad_action", _second_turn, 0, {"type": "twist", "die": None}),
    ("bad_action", _peek_pending, 0, {"type": "put_back", "cards": "9C"}),
    ("bad_action", _peek_pending, 0, {"type": "put_back", "cards": ["9C"]}),
    ("first_turn_must_flip", _start, 0, {"type": "bank"}),
    ("first_turn_must_flip", _start, 0, {"type": "twist", "die": "b"}),
    ("cannot_bank_at_zero", _second_turn, 0, {"type": "bank"}),
    ("cannot_pass", _second_turn, 0, {"type": "pass"}),
    ("no_leverage_dice", _no_dice, 0, {"type": "twist", "die": "b"}),
    ("must_put_back", _peek_pending, 0, {"type": "flip"}),
    ("must_put_back", _peek_pending, 0, {"type": "nudge", "die": "a", "direction": "up"}),
    ("not_the_peeked_cards", _peek_pending, 0, {"type": "put_back", "cards": ["9C", "KC"]}),
    ("not_the_peeked_cards", _peek_pending, 0, {"type": "put_back", "cards": ["9C", "9C"]}),
    ("must_nudge", _nudge_pending, 0, {"type": "bank"}),
    ("die_out_of_range", _nudge_pending, 0, {"type": "nudge", "die": "a", "direction": "down"}),
    ("die_out_of_range", _nudge_pending, 0, {"type": "nudge", "die": "b", "direction": "up"}),
    ("no_peek", _second_turn, 0, {"type": "put_back", "cards": ["9C", "2C"]}),
    ("no_nudge", _second_turn, 0, {"type": "nudge", "die": "a", "direction": "up"}),
    ("not_live", _duel_banked, 0, {"type": "flip"}),
    ("not_live", _duel_banked, 0, {"type": "bank"}),
]


@pytest.mark.parametrize(("code", "setup", "seat", "action"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_illegal_action_is_refused_with_a_reason_and_changes_nothing(code, setup, seat, action):
    game = setup()
    before = game.to_state()
    views = [game.view(s) for s in range(game.seat_count)]
    with pytest.raises(IllegalAction) as refused:
        game.apply(seat, action)
    assert refused.value.code == code
    assert len(refused.value.message) > 10 and refused.value.as_dict()["code"] == code
    assert game.to_state() == before
    assert [game.view(s) for s in range(game.seat_count)] == views
    assert action not in (game.legal_actions(seat) if seat is not None else [])
