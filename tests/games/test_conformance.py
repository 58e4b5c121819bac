"""What every engine promises from outside (app/games/base.py, docs/engines.md), checked the same way for each game:
the four registered games and Race, a toy fifth game that lives only in the tests (tests/support/toy_game.py), so
the suite is known to hold for a game written against nothing but the contract.

- The same mistake gets the same refusal code in every game (the base `Game.apply` makes the opening checks, in the
  order its docstring gives), and a refusal changes nothing.
- Same seed and same choices: identical events, views and states, over whole games.
- `to_state`/`from_state` at every step: the same state, views, legal actions, and the same next step.
- Every legal action of every seat is accepted; every refusal leaves `to_state()` as it was.
- A seat's view does not change when everything it may not see is dealt again (for the engines that can redeal).
- The game ends, with placings for every seat (standard competition ranking) and nobody left to act.
- `simulate`'s driver plays every bot level to the end with the invariants checked.

Rule scenarios stay in each game's folder; this file holds what would otherwise be written four times.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.base import Event, Game, IllegalAction
from app.games.registry import game_names, get_game
from app.games.rng import HashRandom
from app.games.simulate import make_bots, play_game
from tests.games.kapern.kapern_support import dealt_again
from tests.games.stakes import stakes_support
from tests.games.piker.piker_support import counterfactual
from tests.support.refusals import refused
from tests.support.toy_game import Race

ALL_GAMES = [*game_names(), "race"]
STEP_LIMIT = 3000  # far above any game's length under the chooser below


def game_class(name: str) -> type[Game]:
    return Race if name == "race" else get_game(name)


def new_game(name: str, seed: str = "conformance", seats: int | None = None) -> Game:
    cls = game_class(name)
    seats = cls.min_seats if seats is None else seats
    return cls.create(seats, cls.check_options(seats, {}), HashRandom(seed.encode()))


def finished_game(name: str) -> Game:
    cls = game_class(name)
    game = new_game(name, "conformance-finished")
    played = play_game(game, make_bots(cls, ["easy"] * game.seat_count, "conformance"))
    assert played.violations == [] and game.is_over
    return game


def idle_seat(game: Game) -> int:
    """A seat that is not among the acting seats."""
    return next(seat for seat in range(game.seat_count) if seat not in game.acting_seats())


def fields_missing(cls: type[Game]) -> list[dict]:
    """For every action type with a required field: that type with no fields at all."""
    assert cls.action_schema is not None
    return [
        {"type": shape.model_fields["type"].annotation.__args__[0]}
        for shape in cls.action_schema.shapes
        if any(field.is_required() for key, field in shape.model_fields.items() if key != "type")
    ]


@pytest.mark.parametrize("name", game_names())
def test_the_same_mistake_gets_the_same_code_in_every_game(name: str) -> None:
    cls = get_game(name)
    game = new_game(name)
    acting, idle = game.acting_seats()[0], idle_seat(game)
    turn_action = next(a for a in game.legal_actions(acting) if a["type"] not in cls.out_of_turn_actions)

    # the shape comes before whose turn it is: nonsense is nonsense from any seat
    for seat in (acting, idle):
        refused(game, seat, {"type": "nonsense"}, "bad_action")
        for junk in (None, "roll", ["type"], {}, {"type": 3}):
            refused(game, seat, junk, "bad_action")
        for action in fields_missing(cls):
            refused(game, seat, action, "bad_action")
        refused(game, seat, {**turn_action, "junk": 1}, "bad_action")
    assert fields_missing(cls), f"{name} has no action with a field to leave out"

    refused(game, idle, turn_action, "not_your_turn")  # a well-formed move from a seat not to act
    refused(game, None, turn_action, "not_your_turn")  # the table sends only its system actions
    refused(game, None, "nonsense", "bad_action")
    for seat in (game.seat_count, -1, "0"):
        refused(game, seat, turn_action, "bad_seat")

    over = finished_game(name)
    for seat in (0, None, over.seat_count):
        for action in ({"type": "nonsense"}, "nonsense", turn_action):
            refused(over, seat, action, "game_over")


@pytest.mark.parametrize("name", game_names())
def test_a_system_action_from_a_seat_is_no_action_of_a_seats(name: str) -> None:
    cls = get_game(name)
    game = new_game(name)
    for kind in cls.system_actions:
        for seat in range(game.seat_count):
            refused(game, seat, {"type": kind}, "bad_action")
    assert not cls.system_actions & set(cls.action_schema.types)
    # "resign" is the table's (app/tables/actor.py logs a resignation under that type): no game's move may use it.
    assert "resign" not in cls.action_schema.types


def test_the_opening_order_is_documented_where_it_is_made() -> None:
    doc = Game.apply.__doc__ or ""
    order = [doc.index(code) for code in ("game_over", "bad_action", "bad_seat", "not_your_turn")]
    assert order == sorted(order)


def test_an_illegal_move_by_the_right_seat_is_the_rules_refusal_not_an_opening_one() -> None:
    # Stakes: the first turn of a round must be a Flip (stakes.md); the opening checks all pass
    game = new_game("stakes")
    seat = game.acting_seats()[0]
    error = refused(game, seat, {"type": "bank"}, "first_turn_must_flip")
    assert isinstance(error, IllegalAction) and "Flip" in error.message


# ------------------------------------------------------------------------------------------ random legal play


def choose(game: Game, chooser: random.Random) -> tuple[int | None, dict]:
    """A random legal step: a deadline run out now and then, else a random legal action of a seat that may act
    (an acting seat, or a deadline's seat: Pika's call, Race's bell)."""
    deadlines = game.deadlines()
    if deadlines and chooser.random() < 0.3:
        return None, dict(chooser.choice(deadlines).action)
    seats = sorted({*game.acting_seats(), *(d.seat for d in deadlines if d.seat is not None)})
    seat = chooser.choice(seats)
    legal = game.legal_actions(seat)
    if not legal:  # a deadline's seat whose call was answered by another action
        seat = chooser.choice(game.acting_seats())
        legal = game.legal_actions(seat)
    if {"type": "stop"} in legal and chooser.random() < 0.5:
        return seat, {"type": "stop"}  # Kapern: a player who never stops plays for ever (and long games are slow)
    # Pika lets a player draw while holding a playable card; drawing every time makes very long rounds
    moves = [a for a in legal if a["type"] not in ("draw", "keep", "take_stack")]
    return seat, chooser.choice(moves if moves and chooser.random() < 0.8 else legal)


def seen(game: Game, events: list[Event]) -> dict:
    """Everything anyone is told after a step: events and views for every seat and a spectator."""
    viewers = [*range(game.seat_count), None]
    return {
        "events": [[event.for_seat(viewer) for viewer in viewers] for event in events],
        "views": [game.view(viewer) for viewer in viewers],
        "acting": game.acting_seats(),
        "legal": [game.legal_actions(seat) for seat in range(game.seat_count)],
        "deadlines": game.deadlines(),
    }


def play_out(game: Game, chooser: random.Random, each_step: Callable[[Game, int | None, dict], None] | None = None,
             ) -> list[dict]:
    """Random legal play to the end; `each_step(game, seat, action)` runs before each action. Returns what was seen."""
    record = [seen(game, [])]
    for _ in range(STEP_LIMIT):
        if game.is_over:
            return record
        seat, action = choose(game, chooser)
        if each_step is not None:
            each_step(game, seat, action)
        record.append(seen(game, game.apply(seat, action)))
        if game.is_over or len(record) % 10 == 0:
            record[-1]["state"] = game.to_state()  # not every step: Kapern's state holds every turn so far
    raise AssertionError(f"{game.name} did not end within {STEP_LIMIT} steps")


games = st.tuples(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=10))
suite = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seats_for(name: str, pick: int) -> int:
    cls = game_class(name)
    return cls.min_seats + pick % (cls.max_seats - cls.min_seats + 1)


# ----------------------------------------------------------------------------------------------- the checks


@pytest.mark.parametrize("name", ALL_GAMES)
@suite
@given(params=games)
def test_same_seed_and_same_choices_give_identical_games(name: str, params) -> None:
    seed, pick = params
    seats = seats_for(name, pick)
    first = play_out(new_game(name, f"same:{seed}", seats), random.Random(seed))
    again = play_out(new_game(name, f"same:{seed}", seats), random.Random(seed))
    assert first == again


@pytest.mark.parametrize("name", ALL_GAMES)
@suite
@given(params=games)
def test_state_round_trip_at_every_step_keeps_the_game_and_its_future(name: str, params) -> None:
    seed, pick = params
    cls = game_class(name)

    def round_trip(game: Game, seat: int | None, action: dict) -> None:
        state = game.to_state()
        copy = cls.from_state(json.loads(json.dumps(state)))
        assert copy.to_state() == state
        assert seen(copy, []) == seen(game, [])
        assert copy.outcome() == game.outcome()
        # the copy's next step is the game's: the same events, the same state after (random draws included)
        twin = cls.from_state(state)
        events = twin.apply(seat, action)
        assert seen(copy, copy.apply(seat, action)) == seen(twin, events)
        assert copy.to_state() == twin.to_state()

    play_out(new_game(name, f"trip:{seed}", seats_for(name, pick)), random.Random(seed), round_trip)


@pytest.mark.parametrize("name", ALL_GAMES)
@suite
@given(params=games)
def test_every_legal_action_is_accepted_and_every_refusal_changes_nothing(name: str, params) -> None:
    seed, pick = params
    cls = game_class(name)
    chooser = random.Random(seed)
    tried: list[dict] = []  # legal actions of earlier moments: mostly illegal now

    def accept_and_refuse(game: Game, seat: int | None, action: dict) -> None:
        state = game.to_state()
        for each in range(game.seat_count):
            legal = game.legal_actions(each)
            for legal_action in chooser.sample(legal, min(len(legal), 6)):
                trial = cls.from_state(state)
                trial.apply(each, legal_action)  # raises if a listed action is refused
                assert trial.check_invariants() == []
            tried.extend(legal[:3])
        for each in range(game.seat_count):
            for candidate in chooser.sample(tried, min(len(tried), 4)):
                if candidate in game.legal_actions(each):
                    continue
                try:
                    game.apply(each, candidate)
                except IllegalAction as refusal:
                    assert refusal.code and refusal.message
                    assert game.to_state() == state, f"{refusal.code} changed the state"
                else:
                    # accepted although not listed: only housekeeping may be (Pika's reorder is never listed)
                    raise AssertionError(f"{candidate} by seat {each} was accepted but not legal")
        del tried[:-60]

    play_out(new_game(name, f"legal:{seed}", seats_for(name, pick)), chooser, accept_and_refuse)


def _pika_redeal(game: Game, seat: int | None, chooser: random.Random) -> Game:
    from app.games.pika.scripting import redeal_hidden

    return redeal_hidden(game, seat, chooser)


def _kapern_redeal(game: Game, seat: int | None, chooser: random.Random) -> Game:
    return dealt_again(game, chooser)  # nothing in Kapern is one seat's: the deck and the dice are everyone's secret


def _piker_redeal(game: Game, seat: int | None, chooser: random.Random) -> Game:
    return counterfactual(game, seat)


def _stakes_redeal(game: Game, seat: int | None, chooser: random.Random) -> Game:
    return stakes_support.dealt_again(game, chooser)  # the deck below what a Peek showed, and the dice to come


def _race_redeal(game: Game, seat: int | None, chooser: random.Random) -> Game:
    state = json.loads(json.dumps(game.to_state()))
    for other in range(game.seat_count):
        if other != seat:
            state["secrets"][other] = chooser.randint(1, 6)  # another seat's secret: rolled again
    return Race.from_state(state)


# engine -> a function that deals again everything a seat may not see
REDEAL: dict[str, Callable[[Game, int | None, random.Random], Game]] = {
    "pika": _pika_redeal, "kapern": _kapern_redeal, "piker": _piker_redeal, "stakes": _stakes_redeal,
    "race": _race_redeal,
}
# A new game must bring a redeal, or be named here until it does (and say why).
NO_REDEAL_YET: set[str] = set()


def test_every_game_deals_again_in_the_redeal_test_or_is_named_as_not_yet():
    assert set(ALL_GAMES) == set(REDEAL) | NO_REDEAL_YET
    assert not set(REDEAL) & NO_REDEAL_YET


@pytest.mark.parametrize("name", sorted(REDEAL))
@suite
@given(params=games)
def test_a_seats_view_is_unchanged_when_what_it_cannot_see_is_dealt_again(name: str, params) -> None:
    redeal = REDEAL[name]
    seed, pick = params
    chooser = random.Random(seed)
    game = new_game(name, f"redeal:{seed}", seats_for(name, pick))
    step = 0

    def compare(game: Game, seat: int | None, action: dict) -> None:
        nonlocal step
        step += 1
        if step % 5 == 0:
            for viewer in [*range(game.seat_count), None]:
                assert redeal(game, viewer, chooser).view(viewer) == game.view(viewer)

    play_out(game, chooser, compare)


@pytest.mark.parametrize("name", ALL_GAMES)
@suite
@given(params=games)
def test_the_end_has_placings_for_every_seat_and_nobody_left_to_act(name: str, params) -> None:
    seed, pick = params
    game = new_game(name, f"end:{seed}", seats_for(name, pick))
    play_out(game, random.Random(seed))
    outcome = game.outcome()
    assert outcome is not None and game.is_over
    placings = outcome.placings
    assert len(placings) == game.seat_count
    # standard competition ranking: each place is one more than the number of seats placed strictly better
    assert all(place == 1 + sum(other < place for other in placings) for place in placings)
    assert outcome.scores is None or len(outcome.scores) == game.seat_count
    json.dumps(outcome.as_dict())
    assert game.acting_seats() == [] and game.deadlines() == []
    assert all(game.legal_actions(seat) == [] for seat in range(game.seat_count))


@pytest.mark.parametrize("name", ALL_GAMES)
def test_simulate_plays_every_bot_level_to_the_end(name: str) -> None:
    cls = game_class(name)
    levels = list(cls.bots)
    for number, seats in enumerate(sorted({cls.min_seats, cls.max_seats})):
        lineup = [levels[(seat + number) % len(levels)] for seat in range(seats)]
        game = cls.create(seats, cls.check_options(seats, {}), HashRandom(f"simulate:{name}:{seats}".encode()))
        played = play_game(game, make_bots(cls, lineup, number), check=True)
        assert played.violations == []
        assert game.is_over and len(game.outcome().placings) == seats
