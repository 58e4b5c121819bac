"""Piraten Kapern: the pirate dice game, 2 to 5 players (../shared/rules/kapern.md is the specification).

A turn: the player's card is turned up, they roll all eight dice, then reroll two or more non-skull dice as often as
they dare, and stop to score; three skulls disqualify. The card changes the turn (Treasure Island, Pirate, Guardian,
skull cards, sea battles, Gold coin, Diamond, Animals, Peace, Zombie attack, Shipwreck); four skulls on the first
roll send the player to Skull Island. Scoring lives in `scoring.score_turn`, one pure function.

Actions (all listed by `legal_actions`, in exactly this shape):
- `{"type": "roll", "dice": [0, 3, 5]}`: roll these dice (indices 0..7, ascending). The first roll of a turn names all
  eight; a Guardian reroll names one skull die.
- `{"type": "stop"}`: end the turn and score it (with three skulls and the Guardian unused: decline the Guardian,
  i.e. be disqualified; on Skull Island: leave the island).
- `{"type": "put_on_chest", "die": 2}` / `{"type": "take_from_chest", "die": 2}`: Treasure Island only.

Order of random calls (for ScriptedRandom; `scripting.py` builds the script from cards and faces):
1. create(): `randbelow(seats)` picks the first player, then one `shuffle` of the deck in its fixed order
   (`cards.deck_cards`: the card table's order, copies together); `deck[0]` is turned first.
2. Every roll: one `roll(6)` per rolled die, in ascending die index; 1..6 show skull, diamond, coin, monkey, parrot,
   saber (`cards.FACES`).
3. When a turn starts and the deck is spent, every card is gathered and shuffled once (`shuffle` of the turned cards
   in the order they were turned); then the top card is turned.
Nothing else is random.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations
from typing import Any

from app.games.base import END_EVENT, Action, Event, Game, IllegalAction, Outcome, View, competition_ranking
from app.games.kapern.actions import KAPERN_ACTIONS
from app.games.kapern.bots import EasyBot, HardBot, MediumBot
from app.games.kapern.cards import (
    CARDS,
    DICE,
    DISQUALIFYING_SKULLS,
    FACES,
    GUARDIAN,
    GUARDIAN_SKULLS,
    PEACE,
    SABER,
    SHIPWRECK,
    SHIPWRECK_ROLLS,
    SKULL,
    SKULL_ISLAND_SKULLS,
    SMALLEST_REROLL,
    TREASURE_ISLAND,
    ZOMBIE_ATTACK,
    deck_cards,
)
from app.games.kapern.scoring import (
    DISQUALIFIED,
    PEACE_PENALTY,
    SHIPWRECK_VALUE,
    SKULL_ISLAND,
    STOPPED,
    ZOMBIE_SABERS,
    TurnScore,
    score_turn,
    skull_island_loss,
)
from app.games.rng import RandomSource, random_from_state

TARGET = 8000  # kapern.md: the end of the game starts when a player ends a turn at 8000 or more
RECENT_TURNS = 5  # finished turns a view carries at most (the table's turn log): one round of turns


@lru_cache(maxsize=1024)
def _subsets(free: tuple[int, ...], smallest: int) -> tuple[tuple[int, ...], ...]:
    """Every subset of `free` with at least `smallest` dice, ascending (at most 2**8 of them, asked again and
    again: built once per set of free dice)."""
    return tuple(combo for size in range(smallest, len(free) + 1) for combo in combinations(free, size))


@lru_cache(maxsize=4096)
def _score(card: str, dice: tuple[str, ...], ending: str, on_chest: tuple[bool, ...], opponents: int) -> TurnScore:
    """score_turn for one turn's dice, once: every view shows what stopping now would score, and the easy bot's
    turns revisit the same few dice."""
    return score_turn(card, dice, ending, on_chest=on_chest, opponents=opponents)


def _new_turn(seat: int, number: int, card: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "number": number,
        "card": card,
        "dice": [None] * DICE,  # faces once rolled
        "on_chest": [False] * DICE,
        "rolls": 0,
        "guardian_used": False,
        "guardian_die": None,  # which skull the Guardian rerolled
        "skull_island": False,
        "rescue": False,  # three skulls, the Guardian still unused: reroll a skull or be disqualified
    }


class Kapern(Game):
    name = "kapern"
    title = "Piraten Kapern"
    min_seats = 2
    max_seats = 5
    # kapern.md: a table option offers the published 35-card deck alone.
    default_options = {"published_deck": False}
    action_schema = KAPERN_ACTIONS
    untimed_actions = frozenset({"put_on_chest", "take_from_chest"})  # kapern.md: "and taken back"
    bots = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}

    seat_count: int

    def __init__(self) -> None:
        self.seat_count = 0
        self.options: dict[str, Any] = {}
        self.rng: RandomSource
        self.deck: list[str] = []  # face down, deck[0] is turned next
        self.discards: list[str] = []  # turned since the last shuffle, in the order they were turned
        self.scores: list[int] = []
        self.turn: dict[str, Any] | None = None
        self.turns: list[dict[str, Any]] = []  # every finished turn's result
        self.final_round: dict[str, Any] | None = None  # {"leader", "last_turns", "leader_extra_turn"}
        self.overtime = False  # kapern.md: nobody held 8000 after the last turns, the next to reach it wins
        self.ended: dict[str, Any] | None = None  # {"reason", "winner"} once over

    # ----------------------------------------------------------------------------------------------- setup

    @classmethod
    def create(cls, seats: int, options: Mapping[str, Any] | None, rng: RandomSource) -> Kapern:
        options = cls.check_options(seats, options)
        game = cls()
        game.seat_count = seats
        game.options = options
        game.rng = rng
        game.scores = [0] * seats
        first = rng.randbelow(seats)
        game.deck = deck_cards(options["published_deck"])
        rng.shuffle(game.deck)
        game._start_turn(first, [])
        return game

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        if not self.deck:
            # kapern.md: when the deck is spent, all cards are reshuffled.
            self.deck, self.discards = self.discards, []
            self.rng.shuffle(self.deck)
            events.append(Event("deck_reshuffled", {"deck_size": len(self.deck)}))
        card = self.deck.pop(0)
        number = len(self.turns) + 1
        self.turn = _new_turn(seat, number, card)
        events.append(
            Event("card_turned", {"seat": seat, "turn": number, "card": card, "name": CARDS[card].name,
                                  "deck_size": len(self.deck)})
        )

    # ------------------------------------------------------------------------------------------- queries

    def acting_seats(self) -> list[int]:
        return [] if self.ended or self.turn is None else [self.turn["seat"]]

    def _skull_dice(self) -> list[int]:
        return [i for i, face in enumerate(self.turn["dice"]) if face == SKULL]

    def _skulls(self) -> int:
        return self.turn["dice"].count(SKULL) + CARDS[self.turn["card"]].skulls

    def _free_dice(self) -> tuple[int, ...]:
        """Dice that may be rolled: not a skull, not on Treasure Island."""
        t = self.turn
        on_chest = t["on_chest"]
        return tuple([i for i, face in enumerate(t["dice"]) if face != SKULL and not on_chest[i]])  # no generator

    def _guardian_ready(self) -> bool:
        t = self.turn
        return t["card"] == GUARDIAN and not t["guardian_used"] and not t["skull_island"]

    def _fewest_to_reroll(self) -> int:
        # kapern.md: a single die is never rerolled alone, except on Skull Island (any number, a single die allowed).
        return 1 if self.turn["skull_island"] else SMALLEST_REROLL

    def _skull_limit(self) -> int | None:
        """The skulls that end the turn, or None where skulls never do (Zombie attack, Shipwreck, Skull Island)."""
        t = self.turn
        if t["card"] in (ZOMBIE_ATTACK, SHIPWRECK) or t["skull_island"]:
            return None
        return DISQUALIFYING_SKULLS

    def _may_stop(self) -> bool:
        # kapern.md: under a Zombie attack the player keeps rolling until every die shows skull or saber.
        return self.turn["rolls"] > 0 and self.turn["card"] != ZOMBIE_ATTACK

    def legal_actions(self, seat: int) -> list[Action]:
        if self.ended or self.turn is None or seat != self.turn["seat"]:
            return []
        t = self.turn
        if t["rolls"] == 0:
            return [{"type": "roll", "dice": list(range(DICE))}]
        card = t["card"]
        free = self._free_dice()
        if card == ZOMBIE_ATTACK:
            return [{"type": "roll", "dice": [i for i in free if t["dice"][i] != SABER]}]
        actions: list[Action] = []
        if not t["rescue"]:
            smallest = self._fewest_to_reroll()
            # [*combo]: a fresh list per action without a call to list() (up to 247 of them per listing)
            actions = [{"type": "roll", "dice": [*combo]} for combo in _subsets(free, smallest)]
        if self._guardian_ready():
            for skull in self._skull_dice():
                for combo in _subsets(free, 0):
                    actions.append({"type": "roll", "dice": sorted((skull, *combo))})
        if card == TREASURE_ISLAND:
            for i, face in enumerate(t["dice"]):
                if t["on_chest"][i]:
                    actions.append({"type": "take_from_chest", "die": i})
                elif face != SKULL:
                    actions.append({"type": "put_on_chest", "die": i})
        actions.append({"type": "stop"})
        return actions

    # --------------------------------------------------------------------------------------------- apply

    def apply_rules(self, seat: int | None, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "roll":
            return self._roll(self._check_roll(action))
        if kind == "stop":
            self._check_stop()
            events: list[Event] = []
            self._finish_turn(self._ending_now(), "stopped" if not self.turn["rescue"] else "declined the Guardian",
                              events)
            return events
        if kind in ("put_on_chest", "take_from_chest"):
            die = self._check_chest(kind, action)
            self.turn["on_chest"][die] = kind == "put_on_chest"
            return [Event(kind, {"seat": seat, "die": die, "face": self.turn["dice"][die]})]
        raise AssertionError(f"{kind!r} passed the shape check but has no rule here")

    def _ending_now(self) -> str:
        if self.turn["skull_island"]:
            return SKULL_ISLAND
        if self.turn["rescue"]:
            return DISQUALIFIED
        return STOPPED

    def _check_stop(self) -> None:
        t = self.turn
        if t["rolls"] == 0:
            raise IllegalAction("not_rolled_yet", "roll all eight dice first")
        if not self._may_stop():
            raise IllegalAction("zombie_keep_rolling",
                                "under a Zombie attack you roll until every die shows skull or saber")

    def _check_chest(self, kind: str, action: Action) -> int:
        t = self.turn
        die = action["die"]
        if t["card"] != TREASURE_ISLAND:
            raise IllegalAction("no_treasure_island", "dice go on the chest only under the Treasure Island card")
        if t["rolls"] == 0:
            raise IllegalAction("not_rolled_yet", "roll all eight dice first")
        if kind == "put_on_chest":
            if t["dice"][die] == SKULL:
                raise IllegalAction("skull_on_chest", "a skull is set aside and never goes on the chest")
            if t["on_chest"][die]:
                raise IllegalAction("already_on_chest", "that die is already on the chest")
        elif not t["on_chest"][die]:
            raise IllegalAction("not_on_chest", "that die is not on the chest")
        return die

    def _check_roll(self, action: Action) -> list[int]:
        """Every rule a roll must pass (kapern.md, "A turn"); returns the dice, ascending. Changes nothing."""
        t = self.turn
        dice = sorted(action["dice"])
        if len(set(dice)) != len(dice):
            raise IllegalAction("bad_action", "a die is named twice")
        if t["rolls"] == 0:
            if dice != list(range(DICE)):
                raise IllegalAction("first_roll_all_dice", "the first roll of a turn is made with all eight dice")
            return dice
        card = t["card"]
        on_chest = [i for i in dice if t["on_chest"][i]]
        if on_chest:
            raise IllegalAction("die_on_chest", "dice on Treasure Island are not rolled; take them back first")
        skulls = [i for i in dice if t["dice"][i] == SKULL]
        if card == ZOMBIE_ATTACK:
            needed = [i for i, face in enumerate(t["dice"]) if face not in (SKULL, SABER)]
            if skulls:
                raise IllegalAction("skull_locked", "skulls are set aside and never rerolled")
            if dice != needed:
                raise IllegalAction("zombie_roll_all",
                                    "under a Zombie attack every die showing neither skull nor saber is rolled")
            return dice
        if skulls:
            if card != GUARDIAN or t["skull_island"]:
                raise IllegalAction("skull_locked", "skulls are set aside and may not be rerolled")
            if t["guardian_used"]:
                raise IllegalAction("guardian_used", "the Guardian rerolls one skull once per turn, and it is used")
            if len(skulls) > GUARDIAN_SKULLS:
                raise IllegalAction("one_skull_only", "the Guardian rerolls a single skull")
            return dice  # kapern.md: a Guardian reroll of that single skull alone is allowed
        if t["rescue"]:
            raise IllegalAction("guardian_rescue_needs_skull",
                                "with three skulls only a reroll of one skull by the Guardian keeps you in the turn")
        if len(dice) < SMALLEST_REROLL and not t["skull_island"]:
            raise IllegalAction("single_die", "a single die may never be rerolled alone; roll two or more")
        return dice

    # ------------------------------------------------------------------------------------------ the roll

    def _roll(self, dice: list[int]) -> list[Event]:
        t = self.turn
        seat = t["seat"]
        events: list[Event] = []
        first = t["rolls"] == 0
        skulls_before = t["dice"].count(SKULL)
        guardian_die = next((i for i in dice if t["dice"][i] == SKULL), None)
        if guardian_die is not None:
            t["guardian_used"] = True
            t["guardian_die"] = guardian_die
            t["rescue"] = False
            events.append(Event("guardian_reroll", {"seat": seat, "die": guardian_die}))
        faces = []
        for i in dice:
            face = FACES[self.rng.roll(6) - 1]
            t["dice"][i] = face
            faces.append(face)
        t["rolls"] += 1
        skulls = self._skulls()
        events.append(
            Event("rolled", {"seat": seat, "roll": t["rolls"], "dice": dice, "faces": faces,
                             "all_dice": list(t["dice"]), "skulls": skulls})
        )
        card = CARDS[t["card"]]
        if t["skull_island"]:
            # kapern.md: on Skull Island the turn ends when a roll adds no skull.
            if t["dice"].count(SKULL) == skulls_before:
                self._finish_turn(SKULL_ISLAND, "a roll added no skull on Skull Island", events)
            elif not self._free_dice() and not any(t["on_chest"]):
                self._finish_turn(SKULL_ISLAND, "every die shows a skull", events)
            return events
        if first and card.skull_island and skulls >= SKULL_ISLAND_SKULLS:
            # kapern.md: four or more skulls on the first roll, card skulls included, go to Skull Island.
            t["skull_island"] = True
            events.append(Event("skull_island", {"seat": seat, "skulls": skulls}))
            if not self._free_dice():
                self._finish_turn(SKULL_ISLAND, "every die shows a skull", events)
            return events
        if t["card"] == ZOMBIE_ATTACK:
            if all(face in (SKULL, SABER) for face in t["dice"]):
                self._finish_turn(STOPPED, "every die shows skull or saber", events)
            return events
        if t["card"] == SHIPWRECK:
            # kapern.md: at most two rolls, and skulls never end a Shipwreck turn early.
            if t["rolls"] >= SHIPWRECK_ROLLS:
                self._finish_turn(STOPPED, "both Shipwreck rolls are made", events)
            return events
        if skulls >= DISQUALIFYING_SKULLS:
            if skulls == DISQUALIFYING_SKULLS and self._guardian_ready():
                # kapern.md: a third skull with the Guardian unused is not a disqualification yet.
                t["rescue"] = True
                events.append(Event("guardian_rescue", {"seat": seat, "skulls": skulls}))
            else:
                self._finish_turn(DISQUALIFIED, f"{skulls} skulls", events)
        return events

    # -------------------------------------------------------------------------------------- end of a turn

    def _finish_turn(self, ending: str, reason: str, events: list[Event]) -> None:
        t = self.turn
        seat = t["seat"]
        n = self.seat_count
        result = _score(t["card"], tuple(t["dice"]), ending, tuple(t["on_chest"]), n - 1)
        changes = [result.opponents_each] * n
        changes[seat] = result.points
        for s in range(n):
            self.scores[s] += changes[s]
        record = {
            "turn": t["number"],
            "seat": seat,
            "card": t["card"],
            "dice": list(t["dice"]),
            "on_chest": list(t["on_chest"]),
            "ending": ending,
            "reason": reason,
            "changes": changes,
            "scores": list(self.scores),
            **result.as_dict(),
        }
        self.turns.append(record)
        if ending == DISQUALIFIED:
            events.append(Event("disqualified", {"seat": seat, "skulls": self._skulls(), "reason": reason}))
        if ending == SKULL_ISLAND:
            events.append(
                Event("skull_island_penalty",
                      {"seat": seat, "skulls": self._skulls(), "per_opponent": result.opponents_each,
                       "changes": changes})
            )
        events.append(Event("turn_scored", _copy_record(record)))
        self.discards.append(t["card"])
        self.turn = None
        self._after_turn(seat, result.pirate_magic, events)
        if not self.ended:
            self._start_turn((seat + 1) % n, events)

    def _after_turn(self, seat: int, pirate_magic: bool, events: list[Event]) -> None:
        """The end of the game (kapern.md, "End of the game")."""
        if pirate_magic:
            self._end(seat, "pirate_magic", events)
            return
        if self.overtime:
            # kapern.md: after last turns without anyone at 8000, the next to end a turn at 8000 wins at once.
            if self.scores[seat] >= TARGET:
                self._end(seat, "reached_8000_after_the_last_turns", events)
            return
        final = self.final_round
        if final is None:
            if self.scores[seat] >= TARGET:
                others = [(seat + k) % self.seat_count for k in range(1, self.seat_count)]
                self.final_round = {"leader": seat, "last_turns": others, "leader_extra_turn": False}
                events.append(Event("final_round", {"leader": seat, "score": self.scores[seat],
                                                     "last_turns": list(others)}))
            return
        leader = final["leader"]
        if final["last_turns"] and final["last_turns"][0] == seat:
            final["last_turns"].pop(0)
        if (seat != leader and not final["leader_extra_turn"]
                and any(score > self.scores[leader] for s, score in enumerate(self.scores) if s != leader)):
            # kapern.md: if one of them passes the leader's score, the leader also takes one last turn.
            final["leader_extra_turn"] = True
            final["last_turns"].append(leader)
            events.append(Event("leader_extra_turn", {"leader": leader, "score": self.scores[leader]}))
        if final["last_turns"]:
            return
        if max(self.scores) >= TARGET:
            self._end(None, "final_round", events)
        else:
            # kapern.md: nobody holds 8000 after the last turns: play goes on.
            self.final_round = None
            self.overtime = True
            events.append(Event("play_goes_on", {"scores": list(self.scores), "target": TARGET}))

    def _end(self, winner: int | None, reason: str, events: list[Event]) -> None:
        self.ended = {"reason": reason, "winner": winner}
        self.final_round = None
        outcome = self.outcome()
        events.append(Event(END_EVENT, outcome.as_dict()))

    # ---------------------------------------------------------------------------------------- outcome

    def outcome(self) -> Outcome | None:
        if not self.ended:
            return None
        winner = self.ended["winner"]
        # kapern.md: an at-once winner is first; otherwise (and behind them) the higher score places better.
        keys = [(seat == winner, score) for seat, score in enumerate(self.scores)]
        placings = competition_ranking(keys, higher_is_better=True)
        summary = {"reason": self.ended["reason"], "winner": winner, "turns": len(self.turns)}
        return Outcome(placings, list(self.scores), summary)

    # ------------------------------------------------------------------------------------------- view

    def view(self, seat: int | None) -> View:
        view = self.public_view()
        if seat is not None:
            view.update(self.private_view(seat))
        return view

    def private_view(self, seat: int) -> View:
        # kapern.md: nothing is hidden in Piraten Kapern; a seat's view differs only by saying whose it is.
        return {"seat": seat}

    def public_view(self) -> View:
        """The spectator's view, which is every seat's view but for `private_view`."""
        t = self.turn
        view: View = {
            "game": self.name,
            "seat": None,
            "players": self.seat_count,
            "to_act": self.acting_seats(),
            "scores": list(self.scores),
            "scoreboard": [
                {"seat": s, "score": self.scores[s], "turns": self._turns_taken(s)} for s in range(self.seat_count)
            ],
            "target": TARGET,
            "end": self._end_view(),
            "deck": {"size": len(self.deck), "turned": len(self.discards),
                     "published_deck": self.options["published_deck"]},
            "turn": self._turn_view() if t is not None else None,
            "last_turn": _copy_record(self.turns[-1]) if self.turns else None,
            "recent_turns": [_copy_record(r) for r in self.turns[-min(RECENT_TURNS, self.seat_count):]],
            "over": self.ended is not None,
            "outcome": self.outcome().as_dict() if self.ended else None,
        }
        return view

    def _turns_taken(self, seat: int) -> int:
        # Turns always pass clockwise, one seat at a time, from the first player on.
        first = self.turns[0]["seat"] if self.turns else self.turn["seat"]
        done = len(self.turns)
        return done // self.seat_count + ((seat - first) % self.seat_count < done % self.seat_count)

    def _end_view(self) -> dict[str, Any]:
        final = self.final_round
        return {
            "final_round": final is not None,
            "leader": final["leader"] if final else None,
            "reached_8000": [s for s, score in enumerate(self.scores) if score >= TARGET],
            "last_turns": list(final["last_turns"]) if final else [],
            "leader_extra_turn": final["leader_extra_turn"] if final else False,
            "overtime": self.overtime,
            "reason": self.ended["reason"] if self.ended else None,
            "winner": self.ended["winner"] if self.ended else None,
        }

    def _rules_view(self) -> dict[str, Any]:
        """The rule numbers this turn plays by, so that the client shows them and restates none (kapern.md)."""
        t = self.turn
        return {
            "skull_limit": self._skull_limit(),  # None: skulls do not end this turn
            "fewest_to_reroll": self._fewest_to_reroll(),  # the Guardian's lone skull aside
            "opponents_lose_per_skull": skull_island_loss(t["card"]),  # on Skull Island
            "peace_loss_per_saber": PEACE_PENALTY,
            "shipwreck_points_each": SHIPWRECK_VALUE,
            "guardian_skulls": GUARDIAN_SKULLS,  # how many skulls the Guardian rerolls
        }

    def _turn_view(self) -> dict[str, Any]:
        t = self.turn
        card = CARDS[t["card"]]
        rolled = t["rolls"] > 0
        dice = []
        for i, face in enumerate(t["dice"]):
            if face is None:
                state = "not_rolled"
            elif face == SKULL:
                state = "skull"
            elif t["on_chest"][i]:
                state = "chest"
            elif t["card"] == ZOMBIE_ATTACK and face == SABER:
                state = "kept_saber"
            else:
                state = "free"
            dice.append({"die": i, "face": face, "state": state})
        skull_dice = t["dice"].count(SKULL)
        sabers = t["dice"].count(SABER)
        if not rolled:
            phase = "first_roll"
        elif t["skull_island"]:
            phase = "skull_island"
        elif t["rescue"]:
            phase = "guardian_rescue"
        else:
            phase = "rolling"
        stop_now = None
        if rolled and self._may_stop():
            stop_now = _score(t["card"], tuple(t["dice"]), self._ending_now(), tuple(t["on_chest"]),
                              self.seat_count - 1).as_dict()
        return {
            "seat": t["seat"],
            "number": t["number"],
            "phase": phase,
            "card": {"id": card.id, "name": card.name, "effect": card.effect},
            "rolls": t["rolls"],
            "dice": dice,
            "skulls": {"dice": skull_dice, "card": card.skulls, "total": skull_dice + card.skulls},
            "guardian": (
                {"available": self._guardian_ready(), "used": t["guardian_used"], "die": t["guardian_die"]}
                if t["card"] == GUARDIAN else None
            ),
            "skull_island": t["skull_island"],
            "sea_battle": (
                {"sabers_needed": card.sabers_needed, "sabers": sabers, "bonus": card.bonus}
                if card.sea_battle else None
            ),
            "peace": {"sabers": sabers} if t["card"] == PEACE else None,
            "zombie_attack": {"sabers": sabers, "sabers_needed": ZOMBIE_SABERS} if t["card"] == ZOMBIE_ATTACK else None,
            "shipwreck": {"rolls_left": SHIPWRECK_ROLLS - t["rolls"]} if t["card"] == SHIPWRECK else None,
            "treasure_island": (
                {"dice": [i for i in range(DICE) if t["on_chest"][i]]} if t["card"] == TREASURE_ISLAND else None
            ),
            "rules": self._rules_view(),
            "may_stop": self._may_stop(),
            "stop_now": stop_now,
        }

    # ------------------------------------------------------------------------------------ serialisation

    def to_state(self) -> dict[str, Any]:
        return {
            "seats": self.seat_count,
            "options": dict(self.options),
            "deck": list(self.deck),
            "discards": list(self.discards),
            "scores": list(self.scores),
            "turn": _copy_turn(self.turn),
            "turns": [_copy_record(r) for r in self.turns],
            "final_round": (
                {**self.final_round, "last_turns": list(self.final_round["last_turns"])} if self.final_round else None
            ),
            "overtime": self.overtime,
            "ended": dict(self.ended) if self.ended else None,
            "rng": self.rng.to_state(),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Kapern:
        game = cls()
        game.seat_count = state["seats"]
        game.options = dict(state["options"])
        game.deck = list(state["deck"])
        game.discards = list(state["discards"])
        game.scores = list(state["scores"])
        game.turn = _copy_turn(state["turn"])
        game.turns = [_copy_record(r) for r in state["turns"]]
        final = state["final_round"]
        game.final_round = {**final, "last_turns": list(final["last_turns"])} if final else None
        game.overtime = state["overtime"]
        game.ended = dict(state["ended"]) if state["ended"] else None
        game.rng = random_from_state(state["rng"])
        return game

    # ------------------------------------------------------------------------------------- invariants

    def check_invariants(self) -> list[str]:
        problems: list[str] = []
        n = self.seat_count
        full = Counter(deck_cards(self.options["published_deck"]))
        held = Counter(self.deck) + Counter(self.discards)
        if self.turn is not None:
            held[self.turn["card"]] += 1
        if held != full:
            problems.append(f"the deck is not conserved: {dict(held - full)} extra, {dict(full - held)} missing")
        totals = [0] * n
        for record in self.turns:
            for s in range(n):
                totals[s] += record["changes"][s]
        if totals != self.scores:
            problems.append(f"scores {self.scores} are not the sum of the turn results {totals}")
        if (self.turn is None) != (self.ended is not None):
            problems.append("a turn must be running exactly while the game is not over")
        t = self.turn
        if t is not None:
            problems.extend(self._turn_invariants(t))
        if self.final_round is not None:
            final = self.final_round
            if self.overtime:
                problems.append("the final round and the play after it cannot run together")
            if final["leader"] in final["last_turns"] and not final["leader_extra_turn"]:
                problems.append("the leader has a last turn without having been passed")
            if t is not None and final["last_turns"] and final["last_turns"][0] != t["seat"]:
                problems.append("the seat playing is not the next seat owed a last turn")
        if self.ended is not None:
            outcome = self.outcome()
            if sorted(outcome.placings)[0] != 1 or len(outcome.placings) != n:
                problems.append("the placings are malformed")
            if self.ended["reason"] == "final_round" and max(self.scores) < TARGET:
                problems.append("the game ended after the last turns without anyone at 8000")
        return problems

    def _turn_invariants(self, t: dict[str, Any]) -> list[str]:
        problems = []
        card = CARDS.get(t["card"])
        if card is None:
            return [f"unknown card {t['card']!r}"]
        if len(t["dice"]) != DICE or len(t["on_chest"]) != DICE:
            problems.append("there must always be eight dice")
        rolled = t["rolls"] > 0
        if any((face is None) == rolled for face in t["dice"]):
            problems.append("the dice must be rolled all together on the first roll")
        if any(t["on_chest"]) and t["card"] != TREASURE_ISLAND:
            problems.append("dice lie on the chest without the Treasure Island card")
        if any(chest and face == SKULL for face, chest in zip(t["dice"], t["on_chest"], strict=True)):
            problems.append("a skull lies on the chest")
        skulls = self._skulls() if rolled else card.skulls
        normal = t["card"] not in (ZOMBIE_ATTACK, SHIPWRECK) and not t["skull_island"]
        if normal and rolled:
            if t["rescue"] and (skulls != DISQUALIFYING_SKULLS or t["guardian_used"] or t["card"] != GUARDIAN):
                problems.append("a Guardian rescue needs exactly three skulls and an unused Guardian")
            if not t["rescue"] and skulls >= DISQUALIFYING_SKULLS:
                problems.append(f"a turn goes on with {skulls} skulls")
        if t["card"] == SHIPWRECK and t["rolls"] >= SHIPWRECK_ROLLS:
            problems.append("a Shipwreck turn goes on after two rolls")
        if t["skull_island"] and not card.skull_island:
            problems.append("Skull Island under a card that forbids it")
        if t["card"] == ZOMBIE_ATTACK and rolled and all(face in (SKULL, SABER) for face in t["dice"]):
            problems.append("a Zombie attack goes on with every die on skull or saber")
        return problems


def _copy_turn(turn: dict[str, Any] | None) -> dict[str, Any] | None:
    if turn is None:
        return None
    return {**turn, "dice": list(turn["dice"]), "on_chest": list(turn["on_chest"])}


def _copy_record(record: dict[str, Any]) -> dict[str, Any]:
    """A finished turn's record, copied so that no caller shares a list with the state."""
    return {
        **record,
        "dice": list(record["dice"]),
        "on_chest": list(record["on_chest"]),
        "changes": list(record["changes"]),
        "scores": list(record["scores"]),
        "scoring_dice": list(record["scoring_dice"]),
        "lines": [dict(line) for line in record["lines"]],
    }
