"""What each player may see (piker.md, last section) and everything the web table draws from a view."""

from __future__ import annotations

import json

from tests.games.piker.piker_support import AM, FIVE_ONES, give, hands, hidden_ids, invest, new_game, place_rest


def mid_invest_game():
    game = new_game(3, deal=["tech-4", "bull-run", "energy-6", "shipping-1", "mining-7"], first=1,
                    rolls=hands([6, 5, 4, 3, 2], [6, 6, 1, 1, 1], [3, 3, 3, 2, 2]))
    give(game, 0, unsecured=["real-estate-2"], secured=["real-estate-8"], kept=["leveraged-buyout-2"])
    give(game, 2, dividends=["dividend"])
    invest(game, (1, 6, 0), (2, 3, AM), (0, 5, 0), (1, 1, AM))
    return game


def test_the_view_carries_everything_the_table_draws():
    game = mid_invest_game()
    view = game.view(0)
    assert view["game"] == "piker" and view["you"] == 0 and view["seats"] == 3
    assert (view["round"], view["rounds"], view["step"], view["step_number"]) == (1, 6, "invest", 2)
    assert view["first_player"] == 1 and view["turn"] == 2 and view["to_act"] == [2]
    assert view["piker"] is None and view["deck"] == 48 - 5 - 4
    # The market: tier backs, face-down, every placed die and the pips per player.
    assert [slot["tier"] for slot in view["market"]] == ["growth", "speculative", "growth", "blue_chip", "speculative"]
    assert view["market"][0]["dice"] == [{"seat": 1, "pips": 6}, {"seat": 0, "pips": 5}]
    assert view["market"][0]["pips"] == [5, 6, 0] and view["market"][0]["face"] is None
    # The After Market spots.
    assert view["after_market"] == {
        "spots": 5,
        "open": 3,
        "dice": [{"seat": 2, "pips": 3}, {"seat": 1, "pips": 1}],
    }
    # My secret dice, and only the number of the others'.
    assert view["my_dice"] == [6, 4, 3, 2]
    assert [p["unplaced_dice"] for p in view["players"]] == [4, 3, 4]
    # Won cards, held cards, points on the table, extra dice.
    me = view["players"][0]
    assert [c["id"] for c in me["unsecured"]] == ["real-estate-2"]
    assert [c["id"] for c in me["secured"]] == ["real-estate-8"]
    assert me["kept_cards"][0]["card"]["id"] == "leveraged-buyout-2" and me["kept_cards"][0]["when"] == "after_market"
    assert me["kept_cards"][0]["playable_now"] is False and me["kept_cards"][0]["when_text"]
    assert me["victory_points_on_table"] == 1 + 7 and me["secured_score"] == 7
    assert view["players"][2]["victory_points_on_table"] == 3
    assert [p["extra_dice_next_round"] for p in view["players"]] == [0, 0, 0]
    assert [p["is_piker"] for p in view["players"]] == [False, False, False]
    json.dumps(view)


def test_a_seat_sees_its_own_unplaced_dice_and_never_another_seats():
    game = mid_invest_game()
    for seat in range(3):
        view = game.view(seat)
        assert view["my_dice"] == game.hands[seat]
        other = [s for s in range(3) if s != seat]
        for s in other:
            altered = json.loads(json.dumps(game.to_state()))
            altered["hands"][s] = [7 - d for d in altered["hands"][s]]
            assert type(game).from_state(altered).view(seat) == view


def test_a_spectator_sees_only_public_things():
    game = mid_invest_game()
    view = game.view(None)
    assert "my_dice" not in view and "decision" not in view
    text = json.dumps(view)
    assert not any(f'"{card}"' in text for card in hidden_ids(game, None))


def test_no_view_holds_a_face_down_cards_face_or_the_deck_order():
    game = mid_invest_game()
    for seat in (0, 1, 2, None):
        text = json.dumps(game.view(seat))
        assert not any(f'"{card}"' in text for card in hidden_ids(game, seat))
        reordered = json.loads(json.dumps(game.to_state()))
        reordered["deck"].reverse()
        assert type(game).from_state(reordered).view(seat) == game.view(seat)


def test_every_card_won_is_face_up_for_everyone():
    game = mid_invest_game()
    place_rest(game, {0: 0, 1: 0, 2: 3})
    assert game.view(0)["step"] == "after_market"  # seat 2 may secure shipping-1 with its 3
    for seat in (0, 1, 2, None):
        market = game.view(seat)["market"]
        assert market[0]["face"]["id"] == "tech-4" and market[3]["face"]["id"] == "shipping-1"
        assert [slot["won_by"] for slot in market] == [0, None, None, 2, None]
        assert market[1]["face"] is None and market[1]["discarded"]


def test_the_acting_seat_gets_its_decision_others_do_not():
    game = mid_invest_game()
    assert game.view(2)["decision"] == {"kind": "place_die", "after_market_open": 3}
    assert "decision" not in game.view(0)


def test_the_after_market_view_shows_each_seat_only_its_own_choices_and_suggestion():
    game = new_game(2, deal=["tech-4", "energy-1", "shipping-1", "mining-1"],
                    rolls=hands([6, 4, 3, 1, 1], [6, 4, 3, 1, 1]))
    invest(game, (0, 6, 0), (1, 6, 2), (0, 4, AM), (1, 4, AM), (0, 3, AM), (1, 3, AM))
    place_rest(game, {0: 1, 1: 3})
    assert game.acting_seats() == [0, 1]
    view0 = game.view(0)
    assert view0["decision"]["kind"] == "secure" and view0["decision"]["after_market_dice"] == [4, 3]
    assert view0["decision"]["suggested"] == [{"card": "tech-4", "dice": [4, 3], "leveraged_buyouts": 0}]
    game.apply(0, {"type": "secure", "card": "energy-1", "dice": [3], "leveraged_buyouts": 0})
    view0 = game.view(0)  # the 4 left secures nothing more: seat 0 is done
    assert view0["my_securing"] == {
        "after_market_dice": [4],
        "chosen": [{"card": "energy-1", "dice": [3], "leveraged_buyouts": 0}],
    }
    assert "decision" not in view0 and view0["players"][0]["securing"] == "done"
    view1 = game.view(1)
    assert view1["my_securing"]["chosen"] == [] and "energy-1" not in json.dumps(view1["players"][0]["secured"])
    assert '"chosen": [{' not in json.dumps(view1)
