"""One scenario per rule line of ../shared/rules/pika.md, with the deal or position stated exactly."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games.base import IllegalAction
from app.games.pika import Pika
from app.games.pika.cards import DECK, kinds_of_mask
from app.games.pika.scripting import deal, position
from app.games.rng import HashRandom, ScriptedRandom
from tests.support.refusals import refused

RED7 = ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"]
BLUE7 = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6", "blue-7"]
GREEN7 = ["green-1", "green-2", "green-3", "green-4", "green-5", "green-6", "green-7"]
YELLOW7 = ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5", "yellow-6", "yellow-7"]


def play(game: Pika, seat: int, card: str, colour: str | None = None, pika: bool = False):
    action = {"type": "play", "card": card}
    if colour:
        action["colour"] = colour
    if pika:
        action["pika"] = True
    return game.apply(seat, action)


def act(game: Pika, seat: int, kind: str):
    return game.apply(seat, {"type": kind})


def types(events) -> list[str]:
    return [event.type for event in events]


# ---------------------------------------------------------------------------------------------- cards and setup


def test_the_deck_has_108_cards_four_colours_and_eight_black_cards():
    counts = Counter(DECK)
    assert len(DECK) == 108
    for colour in ("red", "yellow", "green", "blue"):
        assert counts[f"{colour}-0"] == 1
        for rank in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "+2"):
            assert counts[f"{colour}-{rank}"] == 2
    assert counts["joker"] == 4 and counts["+4"] == 4
    game = Pika.create(4, None, deal([RED7, BLUE7, GREEN7, YELLOW7], "red-9"))
    assert game.check_invariants() == []


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_two_to_four_players_get_seven_cards_each(seats):
    hands = [RED7, BLUE7, GREEN7, YELLOW7][:seats]
    game = Pika.create(seats, None, deal(hands, "red-9"))
    assert [game.view(seat)["hand"] for seat in range(seats)] == hands
    assert game.view(None)["hand_counts"] == [7] * seats
    assert game.view(0)["draw_pile"] == 108 - 7 * seats - 1


@pytest.mark.parametrize("seats", [1, 5])
def test_other_player_counts_are_refused(seats):
    with pytest.raises(IllegalAction) as error:
        Pika.create(seats, None, HashRandom("seats"))
    assert error.value.code == "bad_seat_count"


def test_the_cards_are_dealt_one_at_a_time_from_seat_zero():
    rng = deal([RED7, BLUE7], "green-9")
    order = rng.shuffles[0]
    assert order[:4] == ["red-1", "blue-1", "red-2", "blue-2"]


def test_a_first_flip_that_is_not_a_number_goes_back_into_the_pile_until_a_number_starts():
    rng = deal([RED7, BLUE7], "green-9", flipped_back=["red-skip", "+4", "joker"], pile=["yellow-8"])
    game = Pika.create(2, None, rng)
    state = game.to_state()
    assert state["discard"] == ["green-9"]
    assert game.view(0)["colour"] == "green"
    assert state["pile"][0] == "yellow-8"
    assert state["pile"][-3:] == ["red-skip", "+4", "joker"]  # put back under the pile, as scripted
    assert game.check_invariants() == []


def test_the_flipped_back_card_goes_back_at_the_place_the_random_source_picks():
    order = [RED7[i // 2] if i % 2 == 0 else BLUE7[i // 2] for i in range(14)] + ["blue-skip", "red-8", "green-2"]
    game = Pika.create(2, None, ScriptedRandom(shuffles=[order], ints=[1, 0]))  # back under 1 + 1 cards; seat 0 starts
    state = game.to_state()
    assert state["discard"] == ["red-8"]
    assert state["pile"][:2] == ["green-2", "blue-skip"]


def test_the_first_player_is_drawn_at_random_and_play_starts_clockwise():
    game = Pika.create(3, None, deal([RED7, BLUE7, GREEN7], "red-9", first_player=2, pile=["blue-8"]))
    assert game.acting_seats() == [2]
    assert game.view(0)["direction"] == "clockwise"
    act(game, 2, "draw")
    assert game.acting_seats() == [0]
    play(game, 0, "red-1")
    assert game.acting_seats() == [1]


# ---------------------------------------------------------------------------------------------- a turn


def test_a_card_matching_the_colour_may_be_played():
    game = position([["red-3", "blue-4", "blue-5"], ["green-1", "green-2"]], ["red-9"])
    events = play(game, 0, "red-3")
    assert types(events) == ["play"]
    assert events[0].public == {"seat": 0, "card": "red-3", "colour": "red", "cards_left": 2}
    assert game.view(1)["discard_top"] == "red-3"


@pytest.mark.parametrize(
    "top, card",
    [("blue-7", "red-7"), ("blue-skip", "red-skip"), ("blue-reverse", "green-reverse"), ("blue-+2", "red-+2")],
)
def test_a_card_matching_the_number_or_symbol_may_be_played(top, card):
    # A +2 on a +2 by symbol: with no stack pending (the stack below was taken) it is an ordinary match.
    game = position([[card, "yellow-4", "yellow-5"], ["green-1", "green-2"]], [top])
    play(game, 0, card)
    assert game.view(0)["discard_top"] == card
    assert game.view(0)["colour"] == card.split("-")[0]


def test_a_card_that_matches_neither_colour_nor_number_is_refused():
    game = position([["green-3", "blue-4"], ["green-1", "green-2"]], ["red-9"])
    error = refused(game, 0, {"type": "play", "card": "green-3"}, "card_not_playable")
    assert "red-9" in error.message


def test_after_a_black_card_the_colour_to_match_is_the_one_its_player_chose():
    game = position([["joker", "blue-4", "red-4"], ["green-1", "green-9", "red-9"]], ["red-9"])
    play(game, 0, "joker", "green")
    assert game.view(1)["colour"] == "green"
    refused(game, 1, {"type": "play", "card": "red-9"}, "card_not_playable")
    play(game, 1, "green-1")
    assert game.view(0)["colour"] == "green"


@pytest.mark.parametrize("card", ["joker", "+4"])
def test_black_cards_are_always_playable_when_no_stack_is_pending(card):
    game = position([[card, "blue-4", "red-4"], ["green-1", "green-2"]], ["yellow-9"])
    assert {"type": "play", "card": card, "colour": "blue"} in game.legal_actions(0)
    play(game, 0, card, "blue")
    assert game.view(0)["colour"] == "blue"


def test_a_player_may_draw_instead_of_playing_even_holding_a_playable_card():
    game = position([["red-3", "blue-4"], ["green-1", "green-2"]], ["red-9"], pile=["green-8"])
    assert {"type": "draw"} in game.legal_actions(0)
    events = act(game, 0, "draw")
    assert events[0].public == {"seat": 0, "count": 1}
    assert events[0].for_seat(0)["card"] == "green-8"
    assert "card" not in events[0].for_seat(1)
    assert game.view(0)["hand"] == ["red-3", "blue-4", "green-8"]
    assert game.acting_seats() == [1]  # green-8 does not go on red-9: the turn passes


def test_a_playable_drawn_card_may_be_played_at_once_and_only_that_card():
    game = position([["red-3", "blue-4"], ["green-1", "green-2"]], ["red-9"], pile=["red-8"])
    act(game, 0, "draw")
    assert game.acting_seats() == [0]
    assert game.view(0)["drawn_card"] == "red-8"
    assert game.view(1)["drawn_card"] is None and game.view(1)["deciding_drawn_card"] is True
    assert game.legal_actions(0) == [{"type": "play", "card": "red-8"}, {"type": "keep"}]
    refused(game, 0, {"type": "play", "card": "red-3"}, "only_drawn_card")
    refused(game, 0, {"type": "draw"}, "already_drew")
    play(game, 0, "red-8")
    assert game.view(0)["hand"] == ["red-3", "blue-4"]
    assert game.acting_seats() == [1]


def test_a_playable_drawn_card_may_be_kept_and_the_turn_passes():
    game = position([["red-3", "blue-4"], ["green-1", "green-2"]], ["red-9"], pile=["red-8"])
    act(game, 0, "draw")
    events = act(game, 0, "keep")
    assert types(events) == ["keep"]
    assert game.view(0)["hand"] == ["red-3", "blue-4", "red-8"]
    assert game.acting_seats() == [1]
    refused(game, 1, {"type": "keep"}, "nothing_drawn")


def test_an_unplayable_drawn_card_is_kept_and_the_turn_passes():
    game = position([["red-3", "blue-4"], ["green-1", "green-2"]], ["red-9"], pile=["green-8"])
    act(game, 0, "draw")
    assert game.acting_seats() == [1]
    assert game.view(0)["drawn_card"] is None


def test_an_empty_draw_pile_is_refilled_from_the_discard_except_its_top():
    game = position(
        [["red-3", "blue-4"], ["green-1", "green-2"]],
        ["+4", "yellow-7", "red-9"],
        pile=[],
        rest=1,
        reshuffles=[["yellow-7", "+4"]],
    )
    assert game.view(0)["draw_pile"] == 0
    events = act(game, 0, "draw")
    assert types(events) == ["reshuffle", "draw"]
    assert events[0].public == {"cards": 2}
    assert events[1].for_seat(0)["card"] == "yellow-7"
    view = game.view(1)
    assert view["discard_top"] == "red-9" and view["discard_size"] == 1 and view["draw_pile"] == 1
    assert game.check_invariants() == []


def test_with_nothing_to_draw_drawing_passes_the_turn():
    game = position([["red-3", "blue-4"], ["green-1", "green-2"]], ["red-9"], pile=[], rest=1)
    events = act(game, 0, "draw")
    assert types(events) == ["draw"]
    assert events[0].public == {"seat": 0, "count": 0}
    assert game.acting_seats() == [1]
    assert game.view(0)["hand"] == ["red-3", "blue-4"]
    assert game.view(0)["idle_turns"] == 1


def test_a_whole_table_of_turns_with_nothing_to_draw_and_no_play_ends_the_round_fewest_cards_first():
    game = position(
        [["red-3", "blue-4"], ["green-1"], ["yellow-1", "yellow-2", "yellow-3"]],
        ["blue-9"],
        pile=[],
        rest=2,
        called=[1],
    )
    act(game, 0, "draw")  # holds blue-4 but may draw: nothing there
    act(game, 1, "draw")
    assert game.outcome() is None
    events = act(game, 2, "draw")
    assert types(events) == ["draw", "game_end"]
    outcome = game.outcome()
    assert outcome.summary["reason"] == "stalemate"
    assert outcome.placings == [2, 1, 3]
    assert events[-1].public["placings"] == [2, 1, 3]


def test_a_played_card_breaks_the_run_of_empty_turns():
    game = position([["blue-3", "blue-4"], ["green-1", "green-2"]], ["blue-9"], pile=[], rest=1, turn=1)
    act(game, 1, "draw")
    assert game.view(0)["idle_turns"] == 1
    play(game, 0, "blue-3")
    assert game.view(0)["idle_turns"] == 0
    act(game, 1, "draw")
    assert game.outcome() is None  # one empty turn since the play, not a whole table


# ---------------------------------------------------------------------------------------------- action cards


def test_skip_makes_the_next_player_lose_their_turn():
    game = position([["red-skip", "red-4"], ["green-1", "green-2"], ["blue-1", "blue-2"]], ["red-9"])
    events = play(game, 0, "red-skip")
    assert events[0].public["skipped"] == 1
    assert game.acting_seats() == [2]


def test_reverse_flips_the_direction_of_play():
    game = position(
        [["red-reverse", "red-4"], ["green-1", "green-2"], ["blue-1", "blue-2"]], ["red-9"], pile=["yellow-8"]
    )
    events = play(game, 0, "red-reverse")
    assert events[0].public["direction"] == "counterclockwise"
    assert game.view(1)["direction"] == "counterclockwise"
    assert game.acting_seats() == [2]
    act(game, 2, "draw")
    assert game.acting_seats() == [1]


def test_with_two_players_reverse_acts_as_a_skip_and_the_player_plays_again():
    game = position([["red-reverse", "red-4"], ["green-1", "green-2"]], ["red-9"])
    events = play(game, 0, "red-reverse")
    assert events[0].public["skipped"] == 1
    assert game.acting_seats() == [0]
    assert game.view(0)["direction"] == "clockwise"


def test_with_two_players_skip_keeps_the_turn_too():
    game = position([["red-skip", "red-4"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "red-skip")
    assert game.acting_seats() == [0]


def test_a_joker_chooses_the_colour_and_nobody_draws():
    game = position([["joker", "red-4"], ["green-1", "green-2"]], ["red-9"])
    events = play(game, 0, "joker", "yellow")
    assert events[0].public["colour"] == "yellow"
    view = game.view(1)
    assert view["colour"] == "yellow" and view["stack"] is None
    assert game.acting_seats() == [1]
    assert {"type": "draw"} in game.legal_actions(1)


def test_a_plus_two_makes_the_next_player_draw_two_unless_they_chain():
    game = position([["red-+2", "red-4"], ["green-1", "green-2"]], ["red-9"], pile=["blue-8", "blue-9"])
    events = play(game, 0, "red-+2")
    assert events[0].public["stack"] == 2
    assert game.legal_actions(1) == [{"type": "take_stack"}]
    events = act(game, 1, "take_stack")
    assert events[-1].public == {"seat": 1, "stack": 2, "count": 2}
    assert events[-1].for_seat(1)["cards"] == ["blue-8", "blue-9"]
    assert "cards" not in events[-1].for_seat(0)
    assert game.view(1)["hand"] == ["green-1", "green-2", "blue-8", "blue-9"]


def test_a_plus_four_makes_the_next_player_draw_four_and_its_player_chooses_the_colour():
    game = position([["+4", "red-4"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "+4", "blue")
    view = game.view(1)
    assert view["stack"]["amount"] == 4 and view["colour"] == "blue"
    act(game, 1, "take_stack")
    assert game.view(1)["hand_counts"] == [1, 6]


# ---------------------------------------------------------------------------------------------- stacking


def test_while_a_stack_is_pending_only_a_chain_or_taking_it_is_allowed():
    game = position([["red-+2", "red-4"], ["green-1", "red-2", "red-skip", "green-+2"]], ["red-9"])
    play(game, 0, "red-+2")
    assert game.legal_actions(1) == [{"type": "play", "card": "green-+2"}, {"type": "take_stack"}]
    refused(game, 1, {"type": "play", "card": "red-2"}, "card_not_playable")
    refused(game, 1, {"type": "play", "card": "red-skip"}, "card_not_playable")
    refused(game, 1, {"type": "draw"}, "stack_pending")


def test_on_a_pending_plus_two_any_plus_two_of_any_colour_chains():
    game = position([["red-+2", "red-4"], ["green-+2", "green-2"]], ["red-9"])
    play(game, 0, "red-+2")
    play(game, 1, "green-+2")
    assert game.view(0)["stack"]["amount"] == 4
    assert game.acting_seats() == [0]


def test_a_plus_four_is_accepted_on_a_pending_plus_two():
    game = position([["red-+2", "red-4"], ["+4", "green-2"]], ["red-9"])
    play(game, 0, "red-+2")
    play(game, 1, "+4", "yellow")
    view = game.view(0)
    assert view["stack"]["amount"] == 6 and view["colour"] == "yellow"
    assert view["stack"]["may_chain"] == "a +2 of yellow or a +4"


def test_a_plus_two_of_the_wrong_colour_is_refused_on_a_pending_plus_four():
    game = position([["+4", "red-4"], ["green-+2", "blue-+2", "+4"]], ["red-9"])
    play(game, 0, "+4", "blue")
    error = refused(game, 1, {"type": "play", "card": "green-+2"}, "card_not_playable")
    assert "a +2 of blue or a +4" in error.message


def test_on_a_pending_plus_four_a_plus_two_of_the_chosen_colour_chains():
    game = position([["+4", "red-4"], ["green-+2", "blue-+2", "+4"]], ["red-9"])
    play(game, 0, "+4", "blue")
    assert {"type": "play", "card": "blue-+2"} in game.legal_actions(1)
    play(game, 1, "blue-+2")
    assert game.view(0)["stack"]["amount"] == 6


def test_on_a_pending_plus_four_another_plus_four_chains_and_chooses_a_new_colour():
    game = position([["+4", "red-4"], ["green-+2", "+4", "blue-1"]], ["red-9"])
    play(game, 0, "+4", "blue")
    play(game, 1, "+4", "green")
    view = game.view(0)
    assert view["stack"]["amount"] == 8 and view["colour"] == "green"


@pytest.mark.parametrize("card", ["joker", "red-5", "red-skip", "red-reverse"])
def test_jokers_numbers_skips_and_reverses_cannot_be_played_on_a_pending_stack(card):
    game = position([["red-+2", "red-4"], [card, "green-2"]], ["red-9"])
    play(game, 0, "red-+2")
    action = {"type": "play", "card": card, "colour": "red"} if card == "joker" else {"type": "play", "card": card}
    refused(game, 1, action, "card_not_playable")


def test_taking_the_stack_draws_it_all_at_once_ends_the_turn_and_the_plus_two_no_longer_forces():
    game = position([["red-+2", "red-4"], ["green-+2", "green-2"], ["blue-3", "+4"]], ["red-9"], turn=2)
    play(game, 2, "+4", "red")
    play(game, 0, "red-+2")
    events = act(game, 1, "take_stack")
    assert events[-1].public["count"] == 6
    assert game.view(1)["hand_counts"][1] == 8
    assert game.acting_seats() == [2]
    view = game.view(2)
    assert view["stack"] is None and view["discard_top"] == "red-+2"
    assert {"type": "draw"} in game.legal_actions(2)


def test_a_stack_bigger_than_the_draw_pile_reshuffles_then_draws_what_there_is():
    game = position(
        [["+4", "red-4"], ["green-1", "green-2"]],
        ["yellow-3", "yellow-4", "red-9"],
        pile=["blue-1"],
        rest=0,
        reshuffles=[["yellow-4", "yellow-3"]],
    )
    play(game, 0, "+4", "green")
    events = act(game, 1, "take_stack")
    assert types(events) == ["reshuffle", "take_stack"]
    assert events[-1].public == {"seat": 1, "stack": 4, "count": 4}
    assert events[-1].for_seat(1)["cards"] == ["blue-1", "yellow-4", "yellow-3", "red-9"]
    assert game.check_invariants() == []
    # Nothing left anywhere: the next stack is drawn as far as it goes.
    game = position(
        [["+4", "red-4"], ["green-1", "green-2"]], ["yellow-3", "red-9"], pile=["blue-1"], rest=0
    )
    play(game, 0, "+4", "green")
    events = act(game, 1, "take_stack")
    assert events[-1].public == {"seat": 1, "stack": 4, "count": 3}
    assert sorted(events[-1].for_seat(1)["cards"]) == ["blue-1", "red-9", "yellow-3"]
    assert game.view(0)["discard_size"] == 1 and game.view(0)["draw_pile"] == 0


# ---------------------------------------------------------------------------------------------- Pika


def test_down_to_one_card_an_alert_opens_for_that_player():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"], alert_seconds=4.5)
    events = play(game, 0, "red-3")
    assert types(events) == ["play", "pika_alert"]
    (deadline,) = game.deadlines()
    assert deadline.seat == 0 and deadline.seconds == 4.5
    assert deadline.action == {"type": "alert_expired", "seat": 0, "alert": 1}
    assert game.view(0)["alerts"] == [{"seat": 0, "may_call": True}]
    assert game.view(1)["alerts"] == [{"seat": 0, "may_call": False}]
    assert game.legal_actions(0) == [{"type": "pika"}]


def test_the_alert_length_is_a_table_option_of_three_seconds_by_default():
    assert Pika.default_options == {"alert_seconds": 3.0}
    game = Pika.create(2, {"alert_seconds": 5}, deal([RED7, BLUE7], "red-9"))
    assert game.view(0)["alert_seconds"] == 5.0
    with pytest.raises(IllegalAction) as error:
        Pika.create(2, {"alert_seconds": 0}, deal([RED7, BLUE7], "red-9"))
    assert error.value.code == "bad_option"


def test_pika_called_during_the_alert_even_when_it_is_not_your_turn():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "red-3")
    assert game.acting_seats() == [1]
    events = act(game, 0, "pika")
    assert types(events) == ["pika"] and events[0].public == {"seat": 0}
    assert game.deadlines() == []
    assert game.view(1)["called_pika"] == [0]
    assert game.view(0)["hand"] == ["red-4"]


def test_an_alert_that_closes_without_a_call_costs_two_penalty_cards():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"], pile=["blue-7", "blue-8"])
    play(game, 0, "red-3")
    (deadline,) = game.deadlines()
    events = game.apply(None, deadline.action)
    assert types(events) == ["penalty"]
    assert events[0].public == {"seat": 0, "count": 2}
    assert events[0].for_seat(0)["cards"] == ["blue-7", "blue-8"]
    assert "cards" not in events[0].for_seat(1)
    assert game.view(0)["hand"] == ["red-4", "blue-7", "blue-8"]
    assert game.deadlines() == [] and game.acting_seats() == [1]


def test_pika_called_with_the_play_opens_no_alert():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"])
    assert {"type": "play", "card": "red-3", "pika": True} in game.legal_actions(0)
    events = play(game, 0, "red-3", pika=True)
    assert types(events) == ["play"] and events[0].public["pika"] is True
    assert game.deadlines() == []
    assert game.view(1)["called_pika"] == [0]


def test_pika_with_a_play_that_does_not_leave_one_card_is_refused():
    game = position([["red-3", "red-4", "red-5"], ["green-1", "green-2"]], ["red-9"])
    refused(game, 0, {"type": "play", "card": "red-3", "pika": True}, "no_pika_to_call")


def test_pika_called_too_late_is_refused_and_the_penalty_stands():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "red-3")
    game.apply(None, game.deadlines()[0].action)
    refused(game, 0, {"type": "pika"}, "no_pika_to_call")
    assert game.view(0)["hand_counts"][0] == 3


def test_pika_never_called_costs_the_penalty_once():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "red-3")
    action = game.deadlines()[0].action
    game.apply(None, action)
    refused(game, None, action, "alert_closed")  # the same expiry twice changes nothing


def test_the_alert_runs_beside_the_game_and_play_does_not_wait_for_it():
    game = position([["red-3", "red-4"], ["red-1", "green-2", "green-3"]], ["red-9"])
    play(game, 0, "red-3")
    play(game, 1, "red-1")  # seat 1 plays while seat 0's alert is open
    assert [d.seat for d in game.deadlines()] == [0]
    act(game, 0, "pika")
    assert game.deadlines() == []


def test_the_alert_is_cancelled_when_the_hand_stops_being_one_card():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"], pile=["blue-8"])
    play(game, 0, "red-3")
    act(game, 1, "draw")  # blue-8 does not go on red-3
    assert game.acting_seats() == [0]
    act(game, 0, "draw")  # seat 0 now holds two cards: no alert, no penalty
    assert game.deadlines() == []
    refused(game, 0, {"type": "pika"}, "no_pika_to_call")


def test_the_alert_is_cancelled_by_playing_the_last_card():
    game = position([["red-3", "red-+2"], ["green-1", "green-2"]], ["red-9"], pile=["blue-8"])
    play(game, 0, "red-3")
    # seat 1 passes the turn back by drawing; then seat 0 plays a last +2 and the round goes on
    act(game, 1, "draw")
    play(game, 0, "red-+2")
    assert game.deadlines() == [] and game.outcome() is None


def test_the_alert_is_cancelled_when_the_round_ends():
    game = position([["red-3", "red-4"], ["green-1", "green-5"], ["red-7"]], ["red-9"], pile=["blue-8"], called=[2])
    play(game, 0, "red-3")
    assert len(game.deadlines()) == 1
    act(game, 1, "draw")
    play(game, 2, "red-7")
    assert game.outcome() is not None and game.deadlines() == []


def test_nobody_else_can_call_pika_for_or_against_you():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "red-3")
    assert {"type": "pika"} not in game.legal_actions(1)
    error = refused(game, 1, {"type": "pika"}, "not_your_pika")
    assert "themselves" in error.message
    refused(game, None, {"type": "pika"}, "not_your_turn")


def test_a_seat_may_not_send_the_tables_alert_expiry():
    game = position([["red-3", "red-4"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "red-3")
    refused(game, 1, dict(game.deadlines()[0].action), "bad_action")  # no action of a seat's


def test_two_alerts_may_be_open_at_once():
    game = position([["red-3", "red-4"], ["red-5", "red-6"], ["blue-1", "blue-2"]], ["red-9"])
    play(game, 0, "red-3")
    play(game, 1, "red-5")
    assert [d.seat for d in game.deadlines()] == [0, 1]
    assert len({d.key for d in game.deadlines()}) == 2


# ---------------------------------------------------------------------------------------------- end of the round


def test_a_player_who_plays_their_last_card_wins_and_the_round_ends_at_once():
    game = position([["red-3"], ["green-1", "green-2"], ["blue-1"] * 2 + ["blue-2"]], ["red-9"], called=[0])
    events = play(game, 0, "red-3")
    assert types(events) == ["play", "game_end"]
    outcome = game.outcome()
    assert outcome.placings == [1, 2, 3] and outcome.scores == [0, 2, 3]
    assert outcome.summary["reason"] == "went_out"
    assert game.acting_seats() == [] and game.legal_actions(1) == []


@pytest.mark.parametrize("card", ["red-skip", "red-reverse", "joker"])
def test_a_last_action_card_that_is_not_a_plus_two_or_four_also_ends_the_round(card):
    game = position([[card], ["green-1", "green-2"]], ["red-9"], called=[0])
    play(game, 0, card, "red" if card == "joker" else None)
    assert game.outcome().placings == [1, 2]


def test_a_last_plus_two_keeps_the_round_going_until_someone_takes_the_stack():
    game = position([["red-+2"], ["green-1", "green-2"]], ["red-9"], called=[0])
    play(game, 0, "red-+2")
    assert game.outcome() is None
    assert game.view(1)["hand_counts"] == [0, 2]
    events = act(game, 1, "take_stack")  # the taker takes it even though the round then ends
    assert types(events) == ["take_stack", "game_end"]
    assert game.outcome().placings == [1, 2]
    assert game.outcome().scores == [0, 4]
    assert game.outcome().summary["reason"] == "stack_taken"


def test_a_last_plus_four_keeps_the_round_going_too():
    game = position([["+4"], ["green-+2", "green-2"]], ["red-9"], called=[0])
    play(game, 0, "+4", "green")
    assert game.outcome() is None
    play(game, 1, "green-+2")
    assert game.outcome() is None


def test_a_last_plus_two_that_travels_round_the_table_comes_back_to_the_empty_handed_player_who_must_take_it():
    game = position(
        [["red-+2"], ["green-+2", "green-2", "green-3"], ["blue-+2", "blue-2", "blue-3"]],
        ["red-9"],
        pile=["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5", "yellow-6"],
        called=[0],
    )
    play(game, 0, "red-+2")
    play(game, 1, "green-+2")
    play(game, 2, "blue-+2")
    assert game.acting_seats() == [0]
    assert game.legal_actions(0) == [{"type": "take_stack"}]  # no cards, so no chain
    events = act(game, 0, "take_stack")
    assert events[-1].public["count"] == 6
    # Nobody holds zero cards now: the round simply goes on, from the next player.
    assert game.outcome() is None
    assert game.view(1)["hand_counts"] == [6, 2, 2]
    assert game.acting_seats() == [1]


def test_two_players_reaching_zero_cards_through_one_stack_are_first_equal():
    game = position(
        [["red-+2"], ["green-+2"], ["blue-1", "blue-2", "blue-3"]], ["red-9"], called=[0, 1]
    )
    play(game, 0, "red-+2")
    play(game, 1, "green-+2")
    assert game.outcome() is None
    events = act(game, 2, "take_stack")
    assert events[-1].type == "game_end"
    outcome = game.outcome()
    assert outcome.placings == [1, 1, 3]
    assert outcome.winners() == [0, 1]


def test_the_others_are_ranked_by_cards_left_with_equal_places_for_equal_counts():
    game = position(
        [["red-3"], ["green-1", "green-2"], ["blue-1", "blue-2"], ["yellow-1", "yellow-2", "yellow-3"]],
        ["red-9"],
        called=[0],
    )
    play(game, 0, "red-3")
    assert game.outcome().placings == [1, 2, 2, 4]


def test_one_game_of_pika_is_one_round_and_nothing_is_accepted_after_it():
    game = position([["red-3"], ["green-1", "green-2"]], ["red-9"], called=[0])
    play(game, 0, "red-3")
    for seat, action in [
        (1, {"type": "draw"}),
        (1, {"type": "play", "card": "green-1"}),
        (0, {"type": "pika"}),
        (1, {"type": "reorder", "hand": ["green-2", "green-1"]}),
        (None, {"type": "alert_expired", "seat": 0, "alert": 1}),
    ]:
        refused(game, seat, action, "game_over")


# ---------------------------------------------------------------------------------------------- the hand


def test_a_player_may_reorder_their_own_hand_and_new_cards_go_to_the_right_end():
    game = position([["red-3", "blue-4", "green-5"], ["green-1", "green-2"]], ["yellow-9"], pile=["blue-7"], turn=1)
    events = game.apply(0, {"type": "reorder", "hand": ["green-5", "red-3", "blue-4"]})
    assert types(events) == ["hand_reordered"]
    assert events[0].for_seat(0)["hand"] == ["green-5", "red-3", "blue-4"]
    assert "hand" not in events[0].for_seat(1)
    assert game.acting_seats() == [1]  # it never changes whose turn it is
    act(game, 1, "draw")
    assert game.view(0)["hand"] == ["green-5", "red-3", "blue-4"]
    game.apply(1, {"type": "reorder", "hand": ["blue-7", "green-2", "green-1"]})
    assert game.view(1)["hand"] == ["blue-7", "green-2", "green-1"]
    act(game, 0, "draw")
    assert game.view(0)["hand"][-1] == game.to_state()["hands"][0][-1]
    assert game.view(0)["hand"][:3] == ["green-5", "red-3", "blue-4"]


def test_the_hand_order_survives_serialisation_like_a_reload():
    game = position([["red-3", "blue-4", "green-5"], ["green-1", "green-2"]], ["yellow-9"])
    game.apply(0, {"type": "reorder", "hand": ["blue-4", "green-5", "red-3"]})
    import json

    again = Pika.from_state(json.loads(json.dumps(game.to_state())))
    assert again.view(0)["hand"] == ["blue-4", "green-5", "red-3"]


@pytest.mark.parametrize(
    "order",
    [["red-3", "blue-4"], ["red-3", "blue-4", "green-5", "green-5"], ["red-3", "blue-4", "green-6"], "red-3", [3]],
)
def test_a_reorder_must_hold_exactly_the_cards_in_hand(order):
    game = position([["red-3", "blue-4", "green-5"], ["green-1", "green-2"]], ["yellow-9"])
    well_formed = isinstance(order, list) and all(isinstance(card, str) for card in order)
    code = "bad_hand_order" if well_formed else "bad_action"
    refused(game, 0, {"type": "reorder", "hand": order}, code)


def test_playing_one_of_two_identical_cards_keeps_the_rest_of_the_order():
    game = position([["red-3", "blue-4", "red-3", "green-5"], ["green-1", "green-2"]], ["red-9"])
    play(game, 0, "red-3")
    assert game.view(0)["hand"] == ["blue-4", "red-3", "green-5"]


# ------------------------------------------------------------------------------------ what each player may see


def test_a_player_sees_their_hand_in_their_order_and_only_the_counts_of_the_others():
    game = position([["red-3", "blue-4"], ["green-1", "green-2", "green-3"]], ["red-9"])
    view = game.view(0)
    assert view["hand"] == ["red-3", "blue-4"]
    assert view["hand_counts"] == [2, 3]
    assert "green-1" not in str(view)
    spectator = game.view(None)
    assert "hand" not in spectator and spectator["hand_counts"] == [2, 3]


def test_a_player_sees_the_discard_top_colour_stack_direction_turn_and_pile_size():
    game = position([["+4", "blue-4"], ["green-1", "green-2", "green-3"], ["red-1"] * 2], ["red-9"], turn=0)
    play(game, 0, "+4", "green")
    view = game.view(2)
    assert view["discard_top"] == "+4"
    assert view["colour"] == "green"
    assert view["stack"] == {
        "amount": 4,
        "may_chain": "a +2 of green or a +4",
        "chain_cards": ["green-+2", "+4"],
    }
    assert view["direction"] == "clockwise"
    assert view["turn"] == 1 and view["to_act"] == [1]
    assert view["draw_pile"] == game.to_state()["pile"].__len__()
    assert view["over"] is False and view["placings"] is None


def test_the_view_never_shows_the_draw_pile_order():
    game = position([["red-3", "blue-4"], ["green-1", "green-2"]], ["red-9"], pile=["yellow-5", "yellow-6"])
    for seat in (0, 1, None):
        text = str(game.view(seat))
        assert "yellow-5" not in text and "yellow-6" not in text



def test_the_view_keeps_what_everyone_saw_a_player_pass_on():
    # Bots remember nothing: the public deduction "it drew instead of playing on a red-9" is in every view.
    game = position([["blue-3", "blue-4"], ["green-1", "green-2", "green-3"]], ["red-9"], pile=["yellow-5"])
    act(game, 0, "draw")
    (note,) = game.view(1)["passed"][0]
    assert note["cards"] == 3  # its two cards, and the yellow-5 that was shown not to go when the turn passed
    kinds = kinds_of_mask(note["kinds"])
    assert {"red-1", "blue-9", "joker", "+4"} <= set(kinds) and "blue-3" not in kinds
    assert game.view(None)["passed"] == game.view(1)["passed"] == game.view(0)["passed"]


def test_pass_notes_nest_shrink_with_plays_and_are_dropped_when_a_pass_was_voluntary():
    game = position(
        [["blue-3", "blue-4", "blue-5"], ["green-1", "green-2", "green-3"]],
        ["red-9"],
        pile=["yellow-5", "green-6", "red-8"],
    )
    act(game, 0, "draw")  # passes on red-9 with 3 cards; draws yellow-5, which does not go
    act(game, 1, "draw")  # seat 1 passes on red-9 too: it draws green-6
    act(game, 0, "draw")  # and again: seat 0 now draws red-8, which goes on red-9
    groups = game.view(1)["passed"][0]
    assert [group["cards"] for group in groups] == [4]  # the same four cards passed twice: one group
    play(game, 0, "red-8")  # a card seat 0 was shown not to hold before: it must be the one it drew
    assert [group["cards"] for group in game.view(1)["passed"][0]] == [4]
    game2 = position(
        [["blue-3", "blue-4", "red-5"], ["green-1", "green-2"]], ["red-9"], pile=["yellow-5", "green-6"]
    )
    act(game2, 0, "draw")  # passes on red-9 although it holds red-5 (allowed)
    act(game2, 1, "draw")
    play(game2, 0, "red-5")  # now everyone sees the pass was voluntary: the deduction is dropped
    assert game2.view(1)["passed"][0] == []
