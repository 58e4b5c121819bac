"""What the web table draws (the view) and what it shows as "the last action" (the events)."""

import json

from app.games.kapern.scripting import dice, put, roll, scripted_game, stop, take


def new_game(cards, rolls, seats=2):
    return scripted_game(seats, cards=cards, rolls=[dice(r) for r in rolls])


def test_view_before_the_first_roll():
    game = new_game(["sea_battle_3"], [])
    view = game.view(1)
    assert view["seat"] == 1 and view["to_act"] == [0] and view["players"] == 2
    turn = view["turn"]
    assert turn["card"]["id"] == "sea_battle_3" and turn["card"]["name"] == "Pirate vessel, 3 sabers"
    assert turn["card"]["effect"]
    assert turn["phase"] == "first_roll" and turn["rolls"] == 0
    assert [d["state"] for d in turn["dice"]] == ["not_rolled"] * 8
    assert turn["sea_battle"] == {"sabers_needed": 3, "sabers": 0, "bonus": 500}
    assert turn["stop_now"] is None and turn["may_stop"] is False
    assert view["scoreboard"] == [{"seat": 0, "score": 0, "turns": 0}, {"seat": 1, "score": 0, "turns": 0}]
    assert view["deck"]["size"] == 40
    assert view["last_turn"] is None and view["recent_turns"] == []
    assert view["end"] == {"final_round": False, "leader": None, "reached_8000": [], "last_turns": [],
                           "leader_extra_turn": False, "overtime": False, "reason": None, "winner": None}
    json.dumps(view)


def test_view_dice_states_skulls_and_the_score_for_stopping_now():
    game = new_game(["skull_1"], ["1 skull, 3 coins, 2 monkeys, 2 sabers"])
    game.apply(0, roll())
    turn = game.view(0)["turn"]
    assert [(d["face"], d["state"]) for d in turn["dice"]][:2] == [("skull", "skull"), ("coin", "free")]
    assert turn["skulls"] == {"dice": 1, "card": 1, "total": 2}
    assert turn["phase"] == "rolling" and turn["may_stop"]
    stop_now = turn["stop_now"]
    assert stop_now["points"] == 400
    assert stop_now["lines"] == [{"label": "set of 3 gold coins", "points": 100},
                                 {"label": "3 gold coins x 100", "points": 300}]
    assert stop_now["scoring_dice"] == [False, True, True, True, False, False, False, False]


def test_view_guardian_skull_island_and_treasure_island_state():
    game = new_game(["guardian", "animals", "treasure_island"],
                    ["1 skull, 7 monkeys", "coin", "4 skulls, 4 parrots", "2 coins, 6 parrots"])
    game.apply(0, roll())
    assert game.view(0)["turn"]["guardian"] == {"available": True, "used": False, "die": None}
    game.apply(0, roll(0))
    assert game.view(0)["turn"]["guardian"] == {"available": False, "used": True, "die": 0}
    game.apply(0, stop())
    game.apply(1, roll())
    turn = game.view(0)["turn"]
    assert turn["skull_island"] and turn["phase"] == "skull_island"
    assert turn["stop_now"]["opponents_each"] == -400
    game.apply(1, stop())
    game.apply(0, roll())
    game.apply(0, put(0))
    assert game.view(1)["turn"]["treasure_island"] == {"dice": [0]}
    assert game.view(1)["turn"]["dice"][0]["state"] == "chest"


def test_view_zombie_and_shipwreck_and_peace():
    game = new_game(["zombie_attack", "shipwreck", "peace"], ["3 sabers, 5 monkeys", "5 sabers", "8 coins",
                                                              "saber, 7 coins"])
    game.apply(0, roll())
    turn = game.view(0)["turn"]
    assert turn["zombie_attack"] == {"sabers": 3, "sabers_needed": 5}
    assert turn["dice"][0]["state"] == "kept_saber"
    assert turn["may_stop"] is False and turn["stop_now"] is None
    game.apply(0, roll(3, 4, 5, 6, 7))
    game.apply(1, roll())
    assert game.view(1)["turn"]["shipwreck"] == {"rolls_left": 1}
    game.apply(1, stop())
    game.apply(0, roll())
    assert game.view(0)["turn"]["peace"] == {"sabers": 1}
    assert game.view(0)["turn"]["stop_now"]["points"] == -500


def test_scoreboard_counts_turns():
    game = new_game(["animals", "animals", "animals"], ["3 skulls, 5 monkeys"] * 3, seats=3)
    for seat in (0, 1, 2):
        game.apply(seat, roll())
    assert [row["turns"] for row in game.view(0)["scoreboard"]] == [1, 1, 1]
    game = new_game(["animals"], ["3 skulls, 5 monkeys"], seats=3)
    game.apply(0, roll())
    assert [row["turns"] for row in game.view(0)["scoreboard"]] == [1, 0, 0]


def test_events_card_turned_roll_and_turn_scored():
    game = new_game(["animals", "pirate"], ["3 monkeys, 3 sabers, 2 coins", "parrot, monkey"])
    events = game.apply(0, roll())
    assert [e.type for e in events] == ["rolled"]
    rolled = events[0].for_seat(1)
    assert rolled["seat"] == 0 and rolled["dice"] == list(range(8))
    assert rolled["faces"] == dice("3 monkeys, 3 sabers, 2 coins") and rolled["skulls"] == 0
    events = game.apply(0, roll(6, 7))
    assert events[0].for_seat(None)["faces"] == ["parrot", "monkey"]
    events = game.apply(0, stop())
    assert [e.type for e in events] == ["turn_scored", "card_turned"]
    scored = events[0].for_seat(0)
    # Animals: 5 monkeys and parrots (500) + 3 sabers (100), every die scores: full chest 500.
    assert scored["points"] == 1100 and scored["changes"] == [1100, 0] and scored["summary"] == "Scored 1100"
    assert [line["label"] for line in scored["lines"]] == ["set of 5 monkeys and parrots", "set of 3 sabers",
                                                           "full chest: all eight dice score"]
    turned = events[1].for_seat(None)
    assert turned == {"type": "card_turned", "seat": 1, "turn": 2, "card": "pirate", "name": "Pirate",
                      "deck_size": 39}


def test_events_chest_guardian_disqualified_and_skull_island_penalties():
    game = new_game(["treasure_island", "guardian", "pirate"],
                    ["1 skull, 7 coins", "3 skulls, 5 coins", "skull", "4 skulls, 4 coins", "4 coins"], seats=3)
    game.apply(0, roll())
    assert game.apply(0, put(1))[0].for_seat(2) == {"type": "put_on_chest", "seat": 0, "die": 1, "face": "coin"}
    assert game.apply(0, take(1))[0].for_seat(2) == {"type": "take_from_chest", "seat": 0, "die": 1,
                                                     "face": "coin"}
    game.apply(0, stop())
    events = game.apply(1, roll())
    assert [e.type for e in events] == ["rolled", "guardian_rescue"]
    events = game.apply(1, roll(0))
    assert [e.type for e in events][:3] == ["guardian_reroll", "rolled", "disqualified"]
    assert events[0].for_seat(None) == {"type": "guardian_reroll", "seat": 1, "die": 0}
    assert events[2].for_seat(None)["skulls"] == 3
    game.apply(2, roll())
    events = game.apply(2, roll(4, 5, 6, 7))
    penalty = next(e for e in events if e.type == "skull_island_penalty").for_seat(0)
    assert penalty["per_opponent"] == -800 and penalty["changes"] == [-800, -800, 0]
    scored = next(e for e in events if e.type == "turn_scored").for_seat(0)
    assert scored["ending"] == "skull_island" and scored["summary"] == "Skull Island: every opponent loses 800"


def test_views_and_events_do_not_share_state():
    game = new_game(["animals"], ["3 monkeys, 3 sabers, 2 coins"])
    game.apply(0, roll())
    events = game.apply(0, stop())
    before = game.to_state()
    view = game.view(0)
    view["last_turn"]["dice"].append("saber")
    view["last_turn"]["lines"][0]["points"] = 10**6
    view["recent_turns"][0]["changes"][0] = 5
    view["scores"][0] = 5
    events[0].public["dice"].append("saber")
    assert game.to_state() == before
