"""Stakes: flip cards toward a target set by two center dice, and reroll the target under everyone (stakes.md).

3 to 6 seats play the standard game (five rounds, scores add up); 2 seats play the Duel (rounds are won, first to
four). The engine follows `../shared/rules/stakes.md` line by line; comments cite it.

Actions (`legal_actions` returns exactly these shapes):
- `{"type": "flip"}`, `{"type": "bank"}`, `{"type": "twist", "die": "a" | "b"}`: a live player's turn;
- `{"type": "pass"}`: a banked Duel player who could cold-twist but does not;
- `{"type": "put_back", "cards": [first, second]}`: after a Jack, the peeker puts the two cards back, `first` on top;
- `{"type": "nudge", "die": "a" | "b", "direction": "up" | "down"}`: after a King, the flipper's mandatory Nudge.
A Peek order or a Nudge is a follow-up decision of the same turn: the game waits on that seat, then play passes on.

Random calls, in the order the engine makes them (`scripting.py` builds a ScriptedRandom from a stated deal):
1. `create()`: one shuffle of the 52 cards (afterwards `deck[0]` is the first card flipped); one `randbelow(seats)`
   for the first player of round one; one roll for center die A, one for center die B.
2. Then, in the order they happen during play:
   - a Twist: one roll, for the die twisted;
   - a reshuffle (the deck is short of what a Flip or a Peek needs): one shuffle of the discard pile, whose
     `items[0]` comes first after what remained of the deck;
   - the start of every round after the first: one roll for die A, then one for die B.
Nothing else draws randomness: a Nudge, a Peek's order, banking and pressure are choices or rules, not chance.

Turn order: seats are numbered clockwise, so "passes to the left" is seat + 1.

What a seat sees (stakes.md, "What each player may see"): the whole table, never the deck order. The view carries
`center_dice`, `target`, `target_base` (the rule's + 10) and `exact_bonus` (so the client restates no rule number), `pot`, `players`
(row, total, status live/banked/busted, leverage dice, shields, first turn, exact bank, and round scores plus game
total, or round wins in the Duel), `turn`, `round`, `first_turn` (this
seat's), `pending` (a Peek order or a Nudge owed; the Peek's cards only for the peeker), `deck_size`,
`discard_size`, `duel` (round wins, the last round and its pressure) and `seen_since_shuffle`: the cards that left the
deck face up since it was last shuffled (at a reshuffle the list restarts with the rows still on the table), so the
deck always holds exactly the other cards, a card counter's public knowledge. A Peek's cards are in the peeker's view
(`my_peek`, with `order_known` false once someone else's Peek may have reordered them) and events only, until drawn.

Events: round_start, flip, shield_used, peek, put_back, nudge, bank, twist, pass, reshuffle, round_end, pressure
(Duel), game_end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import END_EVENT, Action, Event, Game, IllegalAction, Outcome, View, competition_ranking
from app.games.rng import RandomSource, random_from_state
from app.games.stakes.actions import STAKES_ACTIONS
from app.games.stakes.bots import EasyBot, HardBot, MediumBot
from app.games.stakes.cards import DECK_SIZE, EFFECT, FULL_DECK, VALUE, new_deck
from app.games.stakes.rules import DUEL_WINS, EXACT_BONUS, PEEK_DEPTH, STANDARD_ROUNDS, TARGET_BASE

LIVE, BANKED, BUSTED = "live", "banked", "busted"
DICE = ("a", "b")
DIRECTIONS = {"up": 1, "down": -1}


def _copy_pending(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    copied = dict(pending)
    if "cards" in copied:
        copied["cards"] = list(copied["cards"])
    return copied


def _copy_round(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "totals": list(record["totals"]), "status": list(record["status"]),
            "pressure_paid": list(record["pressure_paid"])}


def dice_per_seat(seats: int) -> int:
    # stakes.md: 3 leverage dice each, 4 in the Duel
    return 4 if seats == 2 else 3


class Stakes(Game):
    name = "stakes"
    title = "Stakes"
    min_seats = 2
    max_seats = 6
    default_options: dict[str, Any] = {}
    action_schema = STAKES_ACTIONS
    bots = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}

    def __init__(self, seats: int, rng: RandomSource):
        self.seat_count = seats
        self.duel = seats == 2
        self.rng = rng
        self.deck: list[str] = []  # deck[0] is the top card
        self.discard: list[str] = []
        self.seen: list[str] = []  # cards out of the deck, seen face up since the last shuffle
        self.center = {"a": 1, "b": 1}
        self.dice_dealt = dice_per_seat(seats)
        self.leverage = [self.dice_dealt] * seats
        self.pot = 0
        self.round = 0
        self.first_player = 0
        self.turn: int | None = None
        self.rows: list[list[str]] = [[] for _ in range(seats)]
        self.totals = [0] * seats
        self.status = [LIVE] * seats
        self.shields = [0] * seats
        self.first_turn = [True] * seats
        self.exact = [False] * seats  # banked exactly on the target this round
        self.banked_score: list[int | None] = [None] * seats
        self.round_scores: list[list[int]] = [[] for _ in range(seats)]
        self.pending: dict[str, Any] | None = None  # {"type": "put_back", "seat", "cards"} or {"type": "nudge", "seat"}
        self.peeks: dict[int, dict[str, Any]] = {}  # seat -> {"cards": [...], "order_known": bool}
        self.round_wins = [0] * seats  # Duel only
        self.duel_rounds: list[dict[str, Any]] = []  # Duel only: one record per finished round
        self.over = False

    # ----------------------------------------------------------------------------------------------- set-up

    @classmethod
    def create(cls, seats: int, options: Mapping[str, Any] | None, rng: RandomSource) -> Stakes:
        cls.check_options(seats, options)
        game = cls(seats, rng)
        game.deck = new_deck()
        rng.shuffle(game.deck)
        # stakes.md: first player of the first round is drawn at random
        first = rng.randbelow(seats)
        game._open_round(first, [])
        return game

    @property
    def target(self) -> int:
        # stakes.md: target = center die A + center die B + 10
        return self.center["a"] + self.center["b"] + TARGET_BASE

    def _open_round(self, first: int, events: list[Event]) -> None:
        self.round += 1
        self.center["a"] = self.rng.roll(6)
        self.center["b"] = self.rng.roll(6)
        self.first_player = first
        self.turn = first
        events.append(
            Event(
                "round_start",
                {"round": self.round, "center_dice": dict(self.center), "target": self.target, "first_player": first},
            )
        )

    def _clear_rows(self) -> None:
        # stakes.md: busted and banked rows go to the discard pile; shields expire at the end of the round
        for seat in range(self.seat_count):
            self.discard.extend(self.rows[seat])
            self.rows[seat] = []
            self.totals[seat] = 0
            self.status[seat] = LIVE
            self.shields[seat] = 0
            self.first_turn[seat] = True
            self.exact[seat] = False
            self.banked_score[seat] = None

    # ------------------------------------------------------------------------------------------- who acts

    def acting_seats(self) -> list[int]:
        return [] if self.over or self.turn is None else [self.turn]

    def _can_take_turn(self, seat: int) -> bool:
        if self.status[seat] == LIVE:
            return True
        # stakes.md (Duel): a banked player still takes turns while the opponent is live, if they have a die to twist
        return (
            self.duel
            and self.status[seat] == BANKED
            and self.leverage[seat] > 0
            and self.status[1 - seat] == LIVE
        )

    def legal_actions(self, seat: int) -> list[Action]:
        if self.over or seat != self.turn:
            return []
        pending = self.pending
        if pending is not None:
            if pending["type"] == "put_back":
                first, second = pending["cards"]
                return [{"type": "put_back", "cards": [first, second]}, {"type": "put_back", "cards": [second, first]}]
            return [
                {"type": "nudge", "die": die, "direction": direction}
                for die in DICE
                for direction, step in DIRECTIONS.items()
                if 1 <= self.center[die] + step <= 6
            ]
        if self.status[seat] == BANKED:
            # stakes.md (Duel): cold twisting; a banked player may Twist (with a die) or pass, never Flip
            twists = [{"type": "twist", "die": die} for die in DICE] if self.leverage[seat] > 0 else []
            return twists + [{"type": "pass"}]
        actions: list[Action] = [{"type": "flip"}]
        if self.first_turn[seat]:
            return actions  # stakes.md: your first turn of every round must be a Flip
        if self.totals[seat] > 0:
            actions.append({"type": "bank"})  # stakes.md: not allowed at total 0
        if self.leverage[seat] > 0:
            actions.extend({"type": "twist", "die": die} for die in DICE)
        return actions

    # ------------------------------------------------------------------------------------------ refusals

    def _refuse(self, seat: int, action: Action) -> None:
        """Raise IllegalAction if `action` (of Stakes's shape, by the seat whose turn it is) breaks a rule; change
        nothing."""
        kind = action["type"]
        pending = self.pending
        if pending is not None:
            if pending["type"] == "put_back":
                if kind != "put_back":
                    raise IllegalAction("must_put_back", "first put the two peeked cards back in the order you choose")
                if sorted(action["cards"]) != sorted(pending["cards"]):
                    raise IllegalAction("not_the_peeked_cards", "put back exactly the two cards your Peek showed")
                return
            if kind != "nudge":
                raise IllegalAction("must_nudge", "your King's Nudge comes first: turn one center die up or down by 1")
            value = self.center[action["die"]] + DIRECTIONS[action["direction"]]
            if not 1 <= value <= 6:
                raise IllegalAction("die_out_of_range", "a Nudge keeps the die within 1..6")
            return
        if kind == "put_back":
            raise IllegalAction("no_peek", "there is no Peek to put back")
        if kind == "nudge":
            raise IllegalAction("no_nudge", "there is no King's Nudge to make")

        if kind == "twist" and self.leverage[seat] == 0:
            raise IllegalAction("no_leverage_dice", "a Twist needs a leverage die to pay into the pot")
        if self.status[seat] == BANKED:
            # only a Duel player holds the turn while banked (cold twisting): Twist or pass, never Flip
            if kind in ("flip", "bank"):
                raise IllegalAction("not_live", "you have banked: you may only Twist or pass")
            return
        if kind == "pass":
            raise IllegalAction("cannot_pass", "a live player must Flip, Bank or Twist")
        if kind != "flip" and self.first_turn[seat]:
            raise IllegalAction("first_turn_must_flip", "your first turn of every round must be a Flip")
        if kind == "bank" and self.totals[seat] == 0:
            raise IllegalAction("cannot_bank_at_zero", "you cannot bank at a total of 0")

    # ---------------------------------------------------------------------------------------------- moves

    def apply_rules(self, seat: int | None, action: Action) -> list[Event]:
        assert seat is not None  # Stakes has no system actions
        self._refuse(seat, action)
        events: list[Event] = []
        kind = action["type"]
        if kind == "flip":
            self._flip(seat, events)
        elif kind == "bank":
            self._bank(seat, events)
        elif kind == "twist":
            self._twist(seat, action["die"], events)
        elif kind == "pass":
            events.append(Event("pass", {"seat": seat}))
        elif kind == "put_back":
            self._put_back(seat, list(action["cards"]), events)
        elif kind == "nudge":
            self._nudge(seat, action["die"], action["direction"], events)
        else:
            raise AssertionError(f"{kind!r} passed the shape check but has no rule here")
        if self.pending is None:
            self._end_turn(seat, events)
        return events

    def _draw(self, needed: int, events: list[Event]) -> None:
        # stakes.md: deck empty (or fewer cards than a Flip or Peek needs): shuffle the discard under what remains
        if len(self.deck) < needed and self.discard:
            pile = self.discard
            self.discard = []
            self.rng.shuffle(pile)
            self.deck.extend(pile)
            # the new deck is everything but the rows on the table: those are the cards now out of it
            self.seen = [card for row in self.rows for card in row]
            events.append(Event("reshuffle", {"shuffled": len(pile), "deck_size": len(self.deck)}))

    def _take_top(self) -> str:
        card = self.deck.pop(0)
        self.seen.append(card)
        for seat in list(self.peeks):
            known = self.peeks[seat]["cards"]
            if card in known:
                known.remove(card)
                if not known:
                    del self.peeks[seat]
        return card

    def _flip(self, seat: int, events: list[Event]) -> None:
        self._draw(1, events)
        if not self.deck:
            # unreachable: rows never hold all 52 cards (6 rows of at most 32 points < the deck's 220)
            raise RuntimeError("no card left to flip, even after a reshuffle")
        card = self._take_top()
        self.first_turn[seat] = False
        value = VALUE[card]
        effect = EFFECT[card]
        target = self.target
        public: dict[str, Any] = {"seat": seat, "card": card, "value": value, "effect": effect}
        if self.totals[seat] + value > target and self.shields[seat] > 0:
            # stakes.md: the next card that would bust its holder is discarded instead; the total does not move
            self.shields[seat] -= 1
            self.discard.append(card)
            public.update(total=self.totals[seat], shielded=True, busted=False)
            events.append(Event("flip", public))
            events.append(
                Event("shield_used", {"seat": seat, "card": card, "shields_left": self.shields[seat]})
            )
            return
        self.rows[seat].append(card)
        self.totals[seat] += value
        busted = self.totals[seat] > target
        if busted:
            self._bust(seat)  # stakes.md: above the target, bust at once
        public.update(total=self.totals[seat], shielded=False, busted=busted)
        events.append(Event("flip", public))
        if effect == "shield":
            self.shields[seat] += 1  # stakes.md: shields from several Queens add up
        elif effect == "nudge":
            self.pending = {"type": "nudge", "seat": seat}  # stakes.md: the flipper must turn one center die
        elif effect == "peek":
            self._peek(seat, events)

    def _peek(self, seat: int, events: list[Event]) -> None:
        self._draw(PEEK_DEPTH, events)
        cards = self.deck[:PEEK_DEPTH]
        # stakes.md: only the flipper learns the cards; others only see that a Peek happened
        events.append(Event("peek", {"seat": seat, "cards_seen": len(cards)}, {seat: {"cards": list(cards)}}))
        if not cards:
            return
        self._learn_top(seat, list(cards))
        if len(cards) == PEEK_DEPTH:
            self.pending = {"type": "put_back", "seat": seat, "cards": list(cards)}

    def _learn_top(self, seat: int, cards: list[str]) -> None:
        self.peeks[seat] = {"cards": cards, "order_known": True}
        for other, known in self.peeks.items():
            if other != seat and any(card in cards for card in known["cards"]):
                # another seat's Peek may have reordered what this seat saw: it still knows the cards, not the order
                known["order_known"] = False

    def _put_back(self, seat: int, order: list[str], events: list[Event]) -> None:
        self.pending = None
        self.deck[: len(order)] = order  # stakes.md: puts them back in the order they choose
        self._learn_top(seat, list(order))
        events.append(Event("put_back", {"seat": seat}, {seat: {"cards": list(order)}}))

    def _nudge(self, seat: int, die: str, direction: str, events: list[Event]) -> None:
        self.pending = None
        old = self.center[die]
        # stakes.md: free, no die paid, the pot untouched, not a Twist
        self.center[die] = old + DIRECTIONS[direction]
        busted = self._bust_over_target()
        events.append(
            Event(
                "nudge",
                {
                    "seat": seat,
                    "die": die,
                    "direction": direction,
                    "old": old,
                    "new": self.center[die],
                    "target": self.target,
                    "busted": busted,
                },
            )
        )

    def _bank(self, seat: int, events: list[Event]) -> None:
        total = self.totals[seat]
        exact = total == self.target  # stakes.md: judged at the moment of banking
        score = total
        die_moved = None
        self.status[seat] = BANKED
        self.exact[seat] = exact
        if exact and self.duel:
            # stakes.md (Duel): an exact hit takes one leverage die from the opponent instead of +5 and the pot die
            opponent = 1 - seat
            if self.leverage[opponent] > 0:
                self.leverage[opponent] -= 1
                self.leverage[seat] += 1
                die_moved = "stolen"
        elif exact:
            score += EXACT_BONUS
            if self.pot > 0:
                self.pot -= 1
                self.leverage[seat] += 1
                die_moved = "from_pot"
        self.banked_score[seat] = score
        public = {"seat": seat, "total": total, "exact": exact, "die": die_moved}
        if not self.duel:
            public["score"] = score
        events.append(Event("bank", public))

    def _twist(self, seat: int, die: str, events: list[Event]) -> None:
        # stakes.md: pay one leverage die into the pot, then reroll one center die of your choice
        self.leverage[seat] -= 1
        self.pot += 1
        old = self.center[die]
        self.center[die] = self.rng.roll(6)
        busted = self._bust_over_target()
        events.append(
            Event(
                "twist",
                {
                    "seat": seat,
                    "die": die,
                    "old": old,
                    "new": self.center[die],
                    "target": self.target,
                    "dice_left": self.leverage[seat],
                    "pot": self.pot,
                    "cold": self.status[seat] == BANKED,
                    "busted": busted,
                },
            )
        )

    def _bust(self, seat: int) -> None:
        self.status[seat] = BUSTED
        self.banked_score[seat] = 0

    def _bust_over_target(self) -> list[int]:
        # stakes.md: whenever a live player's total is above the target they bust at once, the mover included;
        # a Shield never protects against a moved target; banked players never bust
        target = self.target
        busted = [s for s in range(self.seat_count) if self.status[s] == LIVE and self.totals[s] > target]
        for seat in busted:
            self._bust(seat)
        return busted

    # ------------------------------------------------------------------------------------- turns and rounds

    def _end_turn(self, seat: int, events: list[Event]) -> None:
        if LIVE not in self.status:
            self._end_round(events)
            return
        # stakes.md: play passes to the left, skipping players out of the round (and in the Duel, a banked
        # player with nothing to do)
        for step in range(1, self.seat_count + 1):
            candidate = (seat + step) % self.seat_count
            if self._can_take_turn(candidate):
                self.turn = candidate
                return
        raise RuntimeError("a live player exists but nobody can take a turn")

    def _end_round(self, events: list[Event]) -> None:
        self.turn = None
        if self.duel:
            next_first = self._end_duel_round(events)
        else:
            next_first = self._end_standard_round(events)
        if next_first is None:
            self.over = True
            result = self.outcome()
            assert result is not None
            events.append(Event(END_EVENT, result.as_dict()))
            return
        self._clear_rows()
        self._open_round(next_first, events)

    def _end_standard_round(self, events: list[Event]) -> int | None:
        results = []
        for seat in range(self.seat_count):
            score = self.banked_score[seat] or 0
            self.round_scores[seat].append(score)
            results.append(
                {
                    "seat": seat,
                    "status": self.status[seat],
                    "total": self.totals[seat],
                    "exact": self.exact[seat],
                    "score": score,
                }
            )
        events.append(
            Event(
                "round_end",
                {
                    "round": self.round,
                    "target": self.target,
                    "results": results,
                    "game_totals": [sum(scores) for scores in self.round_scores],
                },
            )
        )
        if self.round >= STANDARD_ROUNDS:
            return None  # stakes.md: after round five the highest total wins
        # stakes.md: first player passes to the left
        return (self.first_player + 1) % self.seat_count

    def duel_verdict(self) -> tuple[str, int | None]:
        """("won", winner) / ("drawn", None) / ("dead", None), judged at the target as it stands now."""
        target = self.target
        banked = [s for s in (0, 1) if self.status[s] == BANKED]
        if not banked:
            return "dead", None  # stakes.md: both busted, a dead round
        if len(banked) == 1:
            return "won", banked[0]  # stakes.md: a banked player beats a busted one
        # stakes.md: at or under the final target beats over it; inside the same group the closer wins
        keys = [(self.totals[s] > target, abs(target - self.totals[s])) for s in (0, 1)]
        if keys[0] == keys[1]:
            return "drawn", None
        return "won", 0 if keys[0] < keys[1] else 1

    def _end_duel_round(self, events: list[Event]) -> int | None:
        result, winner = self.duel_verdict()
        loser = None if winner is None else 1 - winner
        if winner is not None:
            self.round_wins[winner] += 1
        # stakes.md: pressure: the loser pays one die; in a dead round both pay; an exact banker never pays; a
        # player with no dice pays nothing
        owing = [loser] if loser is not None else ([0, 1] if result == "dead" else [])
        paid, excused = [], []
        for seat in owing:
            if self.exact[seat]:
                excused.append({"seat": seat, "reason": "banked_exact"})
            elif self.leverage[seat] == 0:
                excused.append({"seat": seat, "reason": "no_dice"})
            else:
                self.leverage[seat] -= 1
                self.pot += 1
                paid.append(seat)
        record = {
            "round": self.round,
            "target": self.target,
            "totals": list(self.totals),
            "status": list(self.status),
            "result": result,
            "winner": winner,
            "loser": loser,
            "pressure_paid": paid,
        }
        self.duel_rounds.append(record)
        events.append(Event("round_end", {**record, "round_wins": list(self.round_wins)}))
        if owing:
            events.append(Event("pressure", {"paid": paid, "excused": excused, "pot": self.pot}))
        if winner is not None and self.round_wins[winner] >= DUEL_WINS:
            return None  # stakes.md: first to four round wins takes the match
        if loser is not None:
            return loser  # stakes.md: the loser of a round flips first in the next
        return 1 - self.first_player  # stakes.md: after a dead or drawn round the first player passes to the other

    # ---------------------------------------------------------------------------------------------- views

    def view(self, seat: int | None) -> View:
        view = self.public_view()
        if seat is not None:
            view.update(self.private_view(seat))
        return view

    def public_view(self) -> View:
        """The spectator's view, which is every seat's view but for `private_view`."""
        over = self.over
        duel = self.duel
        players = []
        for s in range(self.seat_count):
            player: dict[str, Any] = {
                "seat": s,
                "row": list(self.rows[s]),
                "total": self.totals[s],
                "status": self.status[s],
                "dice": self.leverage[s],
                "shields": self.shields[s],
                "first_turn": self.first_turn[s] and not over,
                "banked_exact": self.exact[s],
            }
            if duel:
                player["round_wins"] = self.round_wins[s]
            else:
                scores = self.round_scores[s]
                player["round_scores"] = list(scores)
                player["game_total"] = sum(scores)
            players.append(player)
        pending = None
        if self.pending is not None:
            pending = {"type": self.pending["type"], "seat": self.pending["seat"]}
        result = self.outcome() if over else None
        return {
            "game": self.name,
            "mode": "duel" if duel else "standard",
            "seat": None,
            "to_act": self.acting_seats(),
            "round": self.round,
            "rounds": None if duel else STANDARD_ROUNDS,
            "center_dice": dict(self.center),
            "target": self.target,
            "target_base": TARGET_BASE,  # stakes.md: target = die A + die B + this
            "exact_bonus": EXACT_BONUS,  # stakes.md: points added for banking exactly on the target
            "pot": self.pot,
            "dice_dealt": self.dice_dealt,
            "turn": self.turn,
            "first_player": self.first_player,
            "first_turn": False,
            "players": players,
            "pending": pending,
            "my_peek": None,
            "deck_size": len(self.deck),
            "discard_size": len(self.discard),
            "seen_since_shuffle": list(self.seen),
            "duel": self._duel_view() if duel else None,
            "over": over,
            "outcome": result.as_dict() if result is not None else None,
        }

    def private_view(self, seat: int) -> View:
        """What only `seat` sees: that its first turn is now, the cards its Peek showed (stakes.md: only the
        flipper sees them) and what it still knows of the top of the deck."""
        private: View = {"seat": seat}
        if seat == self.turn and self.first_turn[seat] and not self.over:
            private["first_turn"] = True
        pending = self.pending
        if pending is not None and pending["type"] == "put_back" and seat == pending["seat"]:
            private["pending"] = {"type": "put_back", "seat": seat, "cards": list(pending["cards"])}
        known = self.peeks.get(seat)
        if known is not None:
            private["my_peek"] = {"cards": list(known["cards"]), "order_known": known["order_known"]}
        return private

    def _duel_view(self) -> dict[str, Any]:
        last = self.duel_rounds[-1] if self.duel_rounds else None
        return {
            "round_wins": list(self.round_wins),
            "wins_needed": DUEL_WINS,
            "last_round": _copy_round(last) if last else None,
            "last_pressure": list(last["pressure_paid"]) if last else [],
            "rounds": [_copy_round(r) for r in self.duel_rounds],
        }

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        if self.duel:
            scores = list(self.round_wins)
            summary: dict[str, Any] = {"mode": "duel", "round_wins": scores, "rounds_played": len(self.duel_rounds)}
        else:
            scores = [sum(s) for s in self.round_scores]
            summary = {"mode": "standard", "round_scores": [list(s) for s in self.round_scores]}
        # stakes.md: ties share the place (standard competition ranking)
        return Outcome(competition_ranking(scores, higher_is_better=True), scores, summary)

    # -------------------------------------------------------------------------------------- serialisation

    def to_state(self) -> dict[str, Any]:
        return {
            "seats": self.seat_count,
            "rng": self.rng.to_state(),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "seen": list(self.seen),
            "center": dict(self.center),
            "leverage": list(self.leverage),
            "pot": self.pot,
            "round": self.round,
            "first_player": self.first_player,
            "turn": self.turn,
            "rows": [list(r) for r in self.rows],
            "totals": list(self.totals),
            "status": list(self.status),
            "shields": list(self.shields),
            "first_turn": list(self.first_turn),
            "exact": list(self.exact),
            "banked_score": list(self.banked_score),
            "round_scores": [list(r) for r in self.round_scores],
            "pending": _copy_pending(self.pending),
            "peeks": [
                {"seat": seat, "cards": list(k["cards"]), "order_known": k["order_known"]}
                for seat, k in sorted(self.peeks.items())
            ],
            "round_wins": list(self.round_wins),
            "duel_rounds": [_copy_round(r) for r in self.duel_rounds],
            "over": self.over,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Stakes:
        game = cls(state["seats"], random_from_state(state["rng"]))
        game.deck = list(state["deck"])
        game.discard = list(state["discard"])
        game.seen = list(state["seen"])
        game.center = dict(state["center"])
        game.leverage = list(state["leverage"])
        game.pot = state["pot"]
        game.round = state["round"]
        game.first_player = state["first_player"]
        game.turn = state["turn"]
        game.rows = [list(r) for r in state["rows"]]
        game.totals = list(state["totals"])
        game.status = list(state["status"])
        game.shields = list(state["shields"])
        game.first_turn = list(state["first_turn"])
        game.exact = list(state["exact"])
        game.banked_score = list(state["banked_score"])
        game.round_scores = [list(r) for r in state["round_scores"]]
        game.pending = _copy_pending(state["pending"])
        game.peeks = {p["seat"]: {"cards": list(p["cards"]), "order_known": p["order_known"]} for p in state["peeks"]}
        game.round_wins = list(state["round_wins"])
        game.duel_rounds = [_copy_round(r) for r in state["duel_rounds"]]
        game.over = state["over"]
        return game

    # ------------------------------------------------------------------------------------------ invariants

    def check_invariants(self) -> list[str]:
        problems: list[str] = []
        n = self.seat_count
        placed = self.deck + self.discard + [card for row in self.rows for card in row]
        if len(placed) != DECK_SIZE or set(placed) != set(FULL_DECK):
            problems.append(f"the 52 cards are not all accounted for exactly once ({len(placed)} placed)")
        if set(self.seen) & set(self.deck) or len(self.seen) + len(self.deck) != DECK_SIZE:
            problems.append("the cards seen since the last shuffle are not exactly the cards out of the deck")
        if any(d < 0 for d in self.leverage) or self.pot < 0:
            problems.append("a leverage die count or the pot is negative")
        if sum(self.leverage) + self.pot != self.dice_dealt * n:
            problems.append(
                f"leverage dice in hands plus the pot ({sum(self.leverage)} + {self.pot}) differ from the "
                f"{self.dice_dealt * n} dealt"
            )
        if not all(1 <= self.center[d] <= 6 for d in DICE):
            problems.append(f"a center die is off 1..6: {self.center}")
        target = self.target
        for s in range(n):
            if self.totals[s] != sum(VALUE[c] for c in self.rows[s]):
                problems.append(f"seat {s}'s total {self.totals[s]} is not the sum of its row")
            if self.status[s] == LIVE and self.totals[s] > target:
                problems.append(f"seat {s} is live with {self.totals[s]} above the target {target}")
            if self.status[s] not in (LIVE, BANKED, BUSTED):
                problems.append(f"seat {s} has an unknown status {self.status[s]!r}")
            if self.shields[s] < 0:
                problems.append(f"seat {s} has a negative shield count")
            if self.status[s] == BANKED:
                expected = self.totals[s] + (EXACT_BONUS if self.exact[s] and not self.duel else 0)
                if self.banked_score[s] != expected:
                    problems.append(f"seat {s}'s banked score {self.banked_score[s]} is not {expected}")
            if any(not isinstance(x, int) or x < 0 for x in self.round_scores[s]):
                problems.append(f"seat {s} has a malformed round score {self.round_scores[s]}")
        if self.duel:
            if any(rs for rs in self.round_scores):
                problems.append("a Duel keeps round wins, not scores")
            if sum(self.round_wins) != sum(1 for r in self.duel_rounds if r["result"] == "won"):
                problems.append("round wins do not match the rounds won")
            if max(self.round_wins) > DUEL_WINS or (self.over != (max(self.round_wins) == DUEL_WINS)):
                problems.append(f"round wins {self.round_wins} do not fit the match state")
        else:
            finished = self.round if self.over else self.round - 1
            if any(len(rs) != finished for rs in self.round_scores):
                problems.append(f"round scores are not {finished} per player")
            if self.round > STANDARD_ROUNDS or (self.over and self.round != STANDARD_ROUNDS):
                problems.append(f"round {self.round} does not fit a five-round game")
        if self.over:
            if self.turn is not None or self.pending is not None:
                problems.append("the game is over but someone still has to act")
        else:
            if self.turn is None or not self._can_take_turn(self.turn):
                problems.append(f"the turn is with seat {self.turn}, who cannot act")
            if LIVE not in self.status:
                problems.append("the round should have ended: nobody is live")
        if self.pending is not None:
            if self.pending["seat"] != self.turn:
                problems.append("a pending decision belongs to someone other than the player on turn")
            if self.pending["type"] == "put_back" and self.deck[:PEEK_DEPTH] != self.pending["cards"]:
                problems.append("the pending Peek is not the top of the deck")
        for seat, known in self.peeks.items():
            if not known["cards"] or any(card not in self.deck[:PEEK_DEPTH] for card in known["cards"]):
                problems.append(f"seat {seat}'s peeked cards are not on top of the deck")
            elif known["order_known"] and self.deck[: len(known["cards"])] != known["cards"]:
                problems.append(f"seat {seat} believes an order of the top cards that is not true")
        return problems
