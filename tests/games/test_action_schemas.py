"""Every game's action schema (app/games/actions.py): it accepts every legal action the engine lists, and refuses
the shapes an attacker sends (unknown fields, wrong types, non-finite numbers) with `bad_action`."""

from __future__ import annotations

import math
import random

import pytest

from app.games.base import IllegalAction
from app.games.registry import game_names, get_game
from app.games.rng import HashRandom


@pytest.mark.parametrize("name", game_names())
def test_every_legal_action_has_the_schemas_shape(name: str) -> None:
    cls = get_game(name)
    chooser = random.Random(name)
    for game_number in range(6):
        seats = chooser.randint(cls.min_seats, cls.max_seats)
        game = cls.create(seats, cls.check_options(seats, {}), HashRandom(f"schema:{name}:{game_number}".encode()))
        for _ in range(1500):  # random play: enough moves to reach every kind of decision
            if game.is_over:
                break
            acting = game.acting_seats()
            for seat in range(seats):
                for action in game.legal_actions(seat):
                    cls.check_action(action)  # raises if a legal move had no shape in the schema
            seat = chooser.choice(acting)
            game.apply(seat, chooser.choice(game.legal_actions(seat)))


HOSTILE = [
    None,
    "play",
    [],
    {},
    {"type": None},
    {"type": ["roll"]},
    {"type": {"roll": 1}},
    {"type": 3},
    {"type": "nonsense"},
    {"type": "x" * 10_000},
]


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("action", HOSTILE, ids=repr)
def test_malformed_actions_are_bad_action_in_every_game(name: str, action: object) -> None:
    with pytest.raises(IllegalAction) as refused:
        get_game(name).check_action(action)
    assert refused.value.code == "bad_action"


# One well-formed action per game, and what an attacker adds to it.
WELL_FORMED = {
    "pika": {"type": "play", "card": "red-7"},
    "stakes": {"type": "twist", "die": "a"},
    "kapern": {"type": "roll", "dice": [0, 1, 2, 3, 4, 5, 6, 7]},
    "piker": {"type": "place_die", "pips": 5, "on": "card", "slot": 2},
}
FIRST_FIELD = {"pika": "card", "stakes": "die", "kapern": "dice", "piker": "pips"}


@pytest.mark.parametrize("name", game_names())
def test_the_well_formed_example_passes(name: str) -> None:
    get_game(name).check_action(WELL_FORMED[name])


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("junk", [math.nan, math.inf, -math.inf, 1e308, "x", [], {}, None, True],
                         ids=repr)
def test_unknown_fields_are_refused_whatever_they_hold(name: str, junk: object) -> None:
    with pytest.raises(IllegalAction) as refused:
        get_game(name).check_action({**WELL_FORMED[name], "junk": junk})
    assert refused.value.code == "bad_action"
    assert "junk" in refused.value.message


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("value", [math.nan, math.inf, 2**70, -1, "5", True, [[0]], {"a": 1}, None], ids=repr)
def test_wrong_types_and_ranges_in_a_field_are_refused(name: str, value: object) -> None:
    action = {**WELL_FORMED[name], FIRST_FIELD[name]: value}
    with pytest.raises(IllegalAction) as refused:
        get_game(name).check_action(action)
    assert refused.value.code == "bad_action"


def test_no_coercion_of_numbers_or_booleans() -> None:
    kapern, piker, pika = get_game("kapern"), get_game("piker"), get_game("pika")
    for dice in ([0, 1, 2, 3, 4, 5, 6, 7.0], [0, True], ["0"]):
        with pytest.raises(IllegalAction):
            kapern.check_action({"type": "roll", "dice": dice})
    with pytest.raises(IllegalAction):
        piker.check_action({"type": "extra_card", "add": 1})
    with pytest.raises(IllegalAction):
        pika.check_action({"type": "play", "card": "red-7", "pika": "yes"})


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("value", [math.nan, math.inf, 0.0, -1.0, 1e9, "3", None], ids=repr)
def test_number_options_must_be_finite_and_in_range(name: str, value: object) -> None:
    cls = get_game(name)
    for key, default in cls.default_options.items():
        if isinstance(default, float):
            with pytest.raises(IllegalAction) as refused:
                cls.check_options(cls.min_seats, {key: value})
            assert refused.value.code == "bad_option"


def test_every_number_option_has_a_range() -> None:
    for name in game_names():
        cls = get_game(name)
        for key, default in cls.default_options.items():
            if isinstance(default, (int, float)) and not isinstance(default, bool):
                assert key in cls.option_ranges, f"{name} option {key} has no range"
                low, high = cls.option_ranges[key]
                assert low <= default <= high


@pytest.mark.parametrize("name", game_names())
def test_the_exact_shape_shortcut_accepts_only_what_pydantic_accepts(name: str) -> None:
    # ActionSchema skips pydantic for an action of plain, exact types that passes its own field checks: that
    # shortcut must never let through an action pydantic would refuse, and every listed legal action takes it.
    from pydantic import ValidationError

    cls = get_game(name)
    schema = cls.action_schema
    if schema is None:
        return
    chooser = random.Random(f"exact:{name}")
    game = cls.create(cls.min_seats, cls.check_options(cls.min_seats, {}), HashRandom(f"exact:{name}".encode()))
    examples: list[dict] = []
    for _ in range(400):
        if game.is_over:
            break
        for seat in range(game.seat_count):
            examples.extend(game.legal_actions(seat))
        seat = chooser.choice(game.acting_seats())
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    for action in examples:
        assert schema._exactly_shaped(action, action["type"]) or action["type"] not in schema._exact, action
    odd_values = [None, True, False, 0, 1, -1, 6, 7, 64, 65, 1001, 2**70, 1.0, math.nan, math.inf, "", "x", "red",
                  [], [1], [1, 2], [True], ["a"], {}, "card", "after_market"]
    for action in examples:
        for _ in range(30):
            twisted = dict(action)
            key = chooser.choice([*twisted, "extra"])
            twisted[key] = chooser.choice(odd_values + [value for value in action.values() if value != action["type"]])
            kind = twisted.get("type")
            if not isinstance(kind, str) or not schema._exactly_shaped(twisted, kind):
                continue
            try:
                schema._adapter.validate_python(twisted)
            except ValidationError as error:  # pragma: no cover - the failure this test exists for
                raise AssertionError(f"the shortcut accepted {twisted!r}, which pydantic refuses: {error}") from None
