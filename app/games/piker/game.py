"""The Piker: an investment card and dice auction game for 2 to 4 players (../shared/rules/piker.md).

Six rounds of six steps: every player rolls their dice in secret (Generate Income), places them one at a time on
face-down market cards or After Market spots (Invest), wins the cards with the most pips (Collect Investments),
secures won cards with their After Market dice (The After Market, simultaneous and secret until revealed), gets a
new market (Refill the Market) and, but after round 6, the player with the fewest victory points on the table
becomes the Piker (The Piker).

Decisions (the `step` in the view, and who acts):
- `extra_capital`: the holder of Extra Capital plays it or keeps it, before the dice are rolled.
- `insider_tip`: the holder of Insider Tip looks at two face-down market cards or keeps it, before the first die.
- `invest`: the seat whose turn it is places one die (`place_die`).
- `bull_run`: the winner of Bull Run picks which unsecured card it secures (only asked when there is a choice).
- `hostile_takeover`: the holder of Hostile Takeover takes an opponent's unsecured card or keeps it.
- `after_market`: every seat that can secure something chooses at once (`secure` one card at a time, then
  `finish_securing`); choices stay secret until all are in. A seat with no way to secure anything is not asked.
- `extra_card`: the Piker adds one face-down card to the market just dealt, or not.

Actions:
    {"type": "place_die", "pips": 5, "on": "card", "slot": 2}
    {"type": "place_die", "pips": 5, "on": "after_market"}
    {"type": "secure", "card": "tech-4", "dice": [4, 2], "leveraged_buyouts": 0}
    {"type": "finish_securing"}
    {"type": "bull_run", "card": "tech-4"}
    {"type": "play_extra_capital"}
    {"type": "play_insider_tip", "slots": [0, 3]}
    {"type": "play_hostile_takeover", "card": "energy-6"}
    {"type": "keep_card"}  (do not play the held Extra Capital / Insider Tip / Hostile Takeover now)
    {"type": "extra_card", "add": true}

The view (`view(seat)`): round/rounds, step (+ step_number, step_name), to_act, turn (Invest), first_player, piker;
`market` (per slot: tier, face once won or seen through your Insider Tip, every placed die, pips per seat, won_by,
discarded); `after_market` (spots, open, dice); `players` (dice this round and why, unplaced dice count, extra dice
next round and why, unsecured/secured/dividends, kept cards with when they are played and playable_now, victory points
on the table, secured score, is_piker, securing status); deck count; face-up discards and the count of face-down ones;
`history` (per round: first player, Piker, who won a card, points on the table, secured score). For a seat also `my_dice`,
`my_securing` in the After Market and, when it must act, `decision` (for securing: the dice left, the Leveraged
Buyouts free, the choices so far and the engine's `suggested` allocation). `final` once over.

Order of random calls (scripting.py builds a ScriptedRandom in this order):
1. create: one `shuffle` of the 48 card ids (cards.DECK order); the deck is drawn from index 0, the first market
   first (market slot 0 = deck[0]). Then one `randbelow(seats)`: the first player of round 1.
2. Generate Income, every round: seat 0, 1, ... in turn roll all their dice for the round (`roll(6)` each).
3. Collect Investments, card by card in market order: on a tie, each tied seat in ascending seat order rolls as many
   dice as it had on the card; repeated among those still tied.
4. The Piker, after rounds 1 to 5: on a tie for the fewest points, each tied seat in ascending order rolls one die;
   repeated among those tied for the lowest roll. The new market (step 5) and the extra card are drawn from the deck
   before and after it, without random calls.
5. End of the game: on a tie for first, each tied seat in ascending order rolls two dice; repeated among those tied
   for the highest total.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations
from typing import Any

from app.games.base import END_EVENT, Action, Event, Game, IllegalAction, Outcome, View, competition_ranking
from app.games.piker.actions import PIKER_ACTIONS
from app.games.piker.bots import EasyBot, HardBot, MediumBot
from app.games.piker.cards import (
    AT_AFTER_MARKET,
    AT_END_OF_COLLECT,
    AT_GENERATE_INCOME,
    AT_START_OF_INVEST,
    BULL_RUN,
    CARDS,
    DECK,
    DIVIDEND,
    DIVIDEND_POINTS,
    EXTRA_CAPITAL,
    HOSTILE_TAKEOVER,
    INSIDER_TIP,
    INSIDER_TIP_LOOKS,
    LEVERAGED_BUYOUT,
    LEVERAGED_BUYOUT_PIPS,
    MARGIN_CALL,
    WHEN_NAMES,
    face,
    final_score,
    is_investment,
    secure_value,
    tier_of,
    victory_points,
    volatility_kind,
)
from app.games.piker.securing import best_allocation, is_minimal_way, minimal_ways
from app.games.rng import RandomSource, random_from_state

ROUNDS = 6  # piker.md: the game lasts 6 rounds
# Proposed rule changes, measured by bench/piker_balance.py only (docs/piker-balance.md); not the rules.
PIKER_BY_SECURED_SCORE = "piker-by-secured-score"  # the Piker is the player with the fewest points that would score
FIRST_PLAYER_EXTRA_DIE = "first-player-extra-die"  # the first player of round 1 rolls one extra die that round
BENCH_VARIANTS = (PIKER_BY_SECURED_SCORE, FIRST_PLAYER_EXTRA_DIE)
VICTORY_POINTS = {card: victory_points(card) for card in DECK}  # per card id, what it is worth on the table
STARTING_DICE = 5  # piker.md: each has 5 dice of their colour


def market_size(seats: int) -> int:
    return 4 if seats == 2 else 5  # piker.md: 4 cards for 2 players, 5 for 3 or 4 players


def after_market_spots(seats: int) -> int:
    return seats + 2  # piker.md: players + 2 spots


# The rule step each decision belongs to (piker.md, "A round").
STEP_NUMBERS = {
    "extra_capital": 1,
    "insider_tip": 2,
    "invest": 2,
    "bull_run": 3,
    "hostile_takeover": 3,
    "after_market": 4,
    "extra_card": 6,
    "over": None,
}
STEP_NAMES = {
    "extra_capital": "Generate Income",
    "insider_tip": "Invest",
    "invest": "Invest",
    "bull_run": "Collect Investments",
    "hostile_takeover": "Collect Investments",
    "after_market": "The After Market",
    "extra_card": "The Piker",
    "over": "End of the game",
}
# When each kept Market Volatility card may be played: the step where its holder is asked.
PLAYED_AT_STEP = {
    AT_GENERATE_INCOME: "extra_capital",
    AT_START_OF_INVEST: "insider_tip",
    AT_END_OF_COLLECT: "hostile_takeover",
    AT_AFTER_MARKET: "after_market",
}
KEPT_KINDS = (LEVERAGED_BUYOUT, HOSTILE_TAKEOVER, EXTRA_CAPITAL, INSIDER_TIP)


@lru_cache(maxsize=1024)
def _best_allocation(
    open_cards: tuple[str, ...], dice: tuple[int, ...], buyouts: int, secured: tuple[str, ...]
) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """securing.best_allocation, once per situation: every view of a seat deciding in the After Market shows it."""
    return tuple(
        (choice["card"], tuple(choice["dice"]), choice["leveraged_buyouts"])
        for choice in best_allocation(open_cards, dice, buyouts, secured)
    )


@lru_cache(maxsize=4096)
def _secured_score(secured: tuple[str, ...], dividends: int) -> int:
    """The final score of these secured cards and Dividends (cards.final_score), for every player of every view."""
    return final_score(secured, [DIVIDEND] * dividends)["total"]


def _copy_round_record(entry: dict[str, Any]) -> dict[str, Any]:
    """A round of the history (see _end_round), copied for a view: numbers and flat lists of numbers."""
    return {
        **entry,
        "won_a_card": list(entry["won_a_card"]),
        "victory_points_on_table": list(entry["victory_points_on_table"]),
        "secured_score": list(entry["secured_score"]),
    }


def _copy_choices(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """After Market choices ({"card", "dice", "leveraged_buyouts"}), copied for a view."""
    return [{**choice, "dice": list(choice["dice"])} for choice in choices]


class Piker(Game):
    name = "piker"
    title = "The Piker"
    min_seats = 2
    max_seats = 4
    default_options: dict[str, Any] = {}
    action_schema = PIKER_ACTIONS
    bots = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}

    def __init__(self, state: dict[str, Any], rng: RandomSource):
        """`state` is to_state's dict without the rng; the engine keeps its own copy of every part."""
        state = copy.deepcopy(state)
        self.rng = rng
        self.seat_count: int = state["seats"]
        self.options: dict[str, Any] = state["options"]
        self.variant: str | None = state.get("variant")  # a bench rule variant; absent from live tables' state
        self.round: int = state["round"]
        self.step: str = state["step"]
        self.first_player: int = state["first_player"]
        self.first_player_of_game: int = state["first_player_of_game"]
        self.turn: int | None = state["turn"]
        self.deck: list[str] = state["deck"]
        self.market: list[dict[str, Any]] = state["market"]
        self.after_market: list[list[int]] = state["after_market"]
        self.hands: list[list[int]] = state["hands"]
        self.dice_this_round: list[int] = state["dice_this_round"]
        self.dice_reasons: list[list[str]] = state["dice_reasons"]
        self.extra_next: list[list[str]] = state["extra_next"]
        self.players: list[dict[str, list[str]]] = state["players"]
        self.discard: list[dict[str, Any]] = state["discard"]
        self.piker: int | None = state["piker"]
        self.won_this_round: list[bool] = state["won_this_round"]
        self.collect_next: int = state["collect_next"]
        self.bull_run: int | None = state["bull_run"]
        self.insider_tip: dict[str, Any] | None = state["insider_tip"]
        self.securing: dict[str, Any] | None = state["securing"]
        self.log: list[dict[str, Any]] = state["log"]
        self.result: dict[str, Any] | None = state["result"]

    # ------------------------------------------------------------------ setup

    @classmethod
    def create(
        cls, seats: int, options: Mapping[str, Any] | None, rng: RandomSource, *, variant: str | None = None
    ) -> Piker:
        """`variant` is a proposed rule change measured by bench/piker_balance.py (BENCH_VARIANTS,
        docs/piker-balance.md); tables never pass one, so the live game plays the rules as written."""
        options = cls.check_options(seats, options)
        if variant is not None and variant not in BENCH_VARIANTS:
            raise ValueError(f"no rule variant {variant!r}; the variants are {', '.join(BENCH_VARIANTS)}")
        deck = list(DECK)
        rng.shuffle(deck)
        first = rng.randbelow(seats)  # piker.md: first player is drawn at random
        state: dict[str, Any] = {
            "seats": seats,
            "options": dict(options),
            "round": 1,
            "step": "invest",
            "first_player": first,
            "first_player_of_game": first,
            "turn": None,
            "deck": deck,
            "market": [],
            "after_market": [],
            "hands": [[] for _ in range(seats)],
            "dice_this_round": [0] * seats,
            "dice_reasons": [[] for _ in range(seats)],
            "extra_next": [[] for _ in range(seats)],
            "players": [{"unsecured": [], "secured": [], "dividends": [], "kept": []} for _ in range(seats)],
            "discard": [],
            "piker": None,
            "won_this_round": [False] * seats,
            "collect_next": 0,
            "bull_run": None,
            "insider_tip": None,
            "securing": None,
            "log": [],
            "result": None,
        }
        if variant is not None:
            state["variant"] = variant
        game = cls(state, rng)
        game._deal_market()
        game._begin_round([])
        return game

    # ------------------------------------------------------------------ contract

    def acting_seats(self) -> list[int]:
        step = self.step
        if step == "invest":
            return [self.turn]
        if step in ("extra_capital", "insider_tip", "hostile_takeover"):
            return [self._holder(self._kind_for_step(step))]
        if step == "bull_run":
            return [self.bull_run]
        if step == "after_market":
            sec = self.securing
            return [seat for seat in sec["deciding"] if seat not in sec["done"]]
        if step == "extra_card":
            return [self.piker]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.acting_seats():
            return []
        step = self.step
        if step == "invest":
            return self._legal_placements(seat)
        if step == "extra_capital":
            return [{"type": "play_extra_capital"}, {"type": "keep_card"}]
        if step == "insider_tip":
            slots = [i for i, slot in enumerate(self.market) if slot["outcome"] is None]
            pairs = [{"type": "play_insider_tip", "slots": list(p)} for p in combinations(slots, INSIDER_TIP_LOOKS)]
            return [*pairs, {"type": "keep_card"}]
        if step == "hostile_takeover":
            targets = [
                {"type": "play_hostile_takeover", "card": card}
                for other in range(self.seat_count)
                if other != seat
                for card in self.players[other]["unsecured"]
            ]
            return [*targets, {"type": "keep_card"}]
        if step == "bull_run":
            return [{"type": "bull_run", "card": card} for card in self.players[seat]["unsecured"]]
        if step == "after_market":
            return [*self._legal_secures(seat), {"type": "finish_securing"}]
        if step == "extra_card":
            return [{"type": "extra_card", "add": True}, {"type": "extra_card", "add": False}]
        return []

    def apply_rules(self, seat: int | None, action: Action) -> list[Event]:
        kind = action["type"]
        if self.step not in self._STEPS_FOR_ACTION[kind]:
            raise IllegalAction("wrong_step", f"you cannot {kind.replace('_', ' ')} now: {self.waiting_for()}")
        assert seat is not None  # The Piker has no system actions
        events: list[Event] = []
        if kind == "place_die":
            self._place_die(seat, action, events)
        elif kind == "secure":
            self._secure(seat, action, events)
        elif kind == "finish_securing":
            self._finish_securing(seat, action, events)
        elif kind == "bull_run":
            self._choose_bull_run(seat, action, events)
        elif kind == "play_extra_capital":
            self._play_extra_capital(seat, action, events)
        elif kind == "play_insider_tip":
            self._play_insider_tip(seat, action, events)
        elif kind == "play_hostile_takeover":
            self._play_hostile_takeover(seat, action, events)
        elif kind == "keep_card":
            self._keep_card(seat, action, events)
        elif kind == "extra_card":
            self._extra_card(seat, action, events)
        else:
            raise AssertionError(f"{kind!r} passed the shape check but has no rule here")
        return events

    def outcome(self) -> Outcome | None:
        result = self.result
        if result is None:
            return None
        return Outcome(
            placings=list(result["placings"]),
            scores=[b["total"] for b in result["scores"]],
            summary={"scores": copy.deepcopy(result["scores"]), "roll_off": copy.deepcopy(result["roll_off"])},
        )

    def to_state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "seats": self.seat_count,
            "options": self.options,
            "round": self.round,
            "step": self.step,
            "first_player": self.first_player,
            "first_player_of_game": self.first_player_of_game,
            "turn": self.turn,
            "deck": self.deck,
            "market": self.market,
            "after_market": self.after_market,
            "hands": self.hands,
            "dice_this_round": self.dice_this_round,
            "dice_reasons": self.dice_reasons,
            "extra_next": self.extra_next,
            "players": self.players,
            "discard": self.discard,
            "piker": self.piker,
            "won_this_round": self.won_this_round,
            "collect_next": self.collect_next,
            "bull_run": self.bull_run,
            "insider_tip": self.insider_tip,
            "securing": self.securing,
            "log": self.log,
            "result": self.result,
        }
        if self.variant is not None:
            state["variant"] = self.variant
        state = copy.deepcopy(state)
        state["rng"] = self.rng.to_state()
        return state

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Piker:
        state = dict(state)
        rng = random_from_state(state.pop("rng"))
        return cls(state, rng)

    # ------------------------------------------------------------------ helpers

    def _holder(self, kind: str) -> int | None:
        for seat, player in enumerate(self.players):
            if any(volatility_kind(c) == kind for c in player["kept"]):
                return seat
        return None

    @staticmethod
    def _kind_for_step(step: str) -> str:
        return {"extra_capital": EXTRA_CAPITAL, "insider_tip": INSIDER_TIP, "hostile_takeover": HOSTILE_TAKEOVER}[step]

    def waiting_for(self) -> str:
        seats = self.acting_seats()
        step = self.step
        who = " and ".join(f"seat {seat}" for seat in seats)
        return f"it is {STEP_NAMES[step]} and the game waits for {who}"

    def _buyouts_held(self, seat: int) -> list[str]:
        return [c for c in self.players[seat]["kept"] if volatility_kind(c) == LEVERAGED_BUYOUT]

    def victory_points_on_table(self, seat: int) -> int:
        """piker.md step 6: secured and unsecured investment cards together, plus Dividends."""
        player = self.players[seat]
        points = DIVIDEND_POINTS * len(player["dividends"])
        # Plain loops: map() over a dict's __getitem__ costs more per card than they do (CPython 3.11).
        for card in player["secured"]:
            points += VICTORY_POINTS[card]
        for card in player["unsecured"]:
            points += VICTORY_POINTS[card]
        return points

    def _discard(self, card: str, face_up: bool) -> None:
        self.discard.append({"card": card, "face_up": face_up})

    def _deal_market(self) -> None:
        count = min(market_size(self.seat_count), len(self.deck))
        self.market = [{"card": self.deck.pop(0), "bids": [], "outcome": None} for _ in range(count)]

    # ------------------------------------------------------------------ step 1: Generate Income

    def _begin_round(self, events: list[Event]) -> None:
        self.won_this_round = [False] * self.seat_count
        self.insider_tip = None
        self.securing = None
        self.collect_next = 0
        # piker.md step 6: extra dice earned last round last this round only.
        self.dice_reasons = [list(reasons) for reasons in self.extra_next]
        if self.round == 1 and self.variant == FIRST_PLAYER_EXTRA_DIE:
            self.dice_reasons[self.first_player].append("first_player")  # bench variant: a die for moving first
        self.extra_next = [[] for _ in range(self.seat_count)]
        if self._holder(EXTRA_CAPITAL) is not None:
            self.step = "extra_capital"  # piker.md: Extra Capital is played at Generate Income
            return
        self._generate_income(events)

    def _play_extra_capital(self, seat: int, action: Action, events: list[Event]) -> None:
        card = next(c for c in self.players[seat]["kept"] if volatility_kind(c) == EXTRA_CAPITAL)
        self.players[seat]["kept"].remove(card)
        self._discard(card, face_up=True)
        self.dice_reasons[seat].append("extra_capital")
        events.append(
            Event("volatility_played", {"seat": seat, "card": face(card), "effect": "rolls one extra die this round"})
        )
        self._generate_income(events)

    def _generate_income(self, events: list[Event]) -> None:
        private = {}
        counts = []
        for seat in range(self.seat_count):
            count = STARTING_DICE + len(self.dice_reasons[seat])
            hand = [self.rng.roll(6) for _ in range(count)]
            self.hands[seat] = sorted(hand, reverse=True)
            self.dice_this_round[seat] = count
            counts.append(count)
            private[seat] = {"your_dice": list(self.hands[seat])}
        # piker.md step 1: only the roller sees the values.
        events.append(Event("dice_rolled", {"round": self.round, "dice": counts}, private))
        if self._holder(INSIDER_TIP) is not None:
            self.step = "insider_tip"  # piker.md: Insider Tip is played at the start of an Invest step
            return
        self._open_invest(events)

    # ------------------------------------------------------------------ step 2: Invest

    def _play_insider_tip(self, seat: int, action: Action, events: list[Event]) -> None:
        slots = action.get("slots")
        if len(slots) != INSIDER_TIP_LOOKS or len(set(slots)) != INSIDER_TIP_LOOKS:
            raise IllegalAction("bad_slots", "Insider Tip looks at two different market cards: give two slots")
        if not all(0 <= i < len(self.market) and self.market[i]["outcome"] is None for i in slots):
            raise IllegalAction("bad_slots", "Insider Tip looks at face-down cards of this market")
        card = next(c for c in self.players[seat]["kept"] if volatility_kind(c) == INSIDER_TIP)
        self.players[seat]["kept"].remove(card)
        self._discard(card, face_up=True)
        slots = sorted(slots)
        self.insider_tip = {"seat": seat, "slots": slots}
        seen = [{"slot": i, "card": face(self.market[i]["card"])} for i in slots]
        # piker.md: only the Insider Tip's player sees the two cards.
        events.append(
            Event("volatility_played", {"seat": seat, "card": face(card), "slots": slots}, {seat: {"seen": seen}})
        )
        self._open_invest(events)

    def _keep_card(self, seat: int, action: Action, events: list[Event]) -> None:
        step = self.step
        kind = self._kind_for_step(step)
        events.append(Event("card_kept", {"seat": seat, "card": CARDS[kind]["name"] if kind in CARDS else kind}))
        if step == "extra_capital":
            self._generate_income(events)
        elif step == "insider_tip":
            self._open_invest(events)
        else:
            self._open_after_market(events)

    def _open_invest(self, events: list[Event]) -> None:
        self.step = "invest"
        self.turn = self.first_player
        events.append(Event("invest_started", {"round": self.round, "first_player": self.first_player}))

    def _after_market_open(self) -> int:
        return after_market_spots(self.seat_count) - len(self.after_market)

    def _legal_placements(self, seat: int) -> list[Action]:
        actions = []
        am_open = self._after_market_open() > 0
        slots = range(len(self.market))
        for pips in sorted(set(self.hands[seat]), reverse=True):
            actions += [{"type": "place_die", "pips": pips, "on": "card", "slot": slot} for slot in slots]
            if am_open:
                actions.append({"type": "place_die", "pips": pips, "on": "after_market"})
        return actions

    def _place_die(self, seat: int, action: Action, events: list[Event]) -> None:
        pips = action["pips"]
        on = action["on"]
        if pips not in self.hands[seat]:
            raise IllegalAction("die_not_held", f"you have no unplaced die showing {pips}")
        if on == "card":
            slot = action.get("slot")
            if slot is None:
                raise IllegalAction("bad_action", 'placing on a card needs its market "slot"')
            if not 0 <= slot < len(self.market):
                raise IllegalAction("no_such_card", f"the market has no card in slot {slot}")
        elif self._after_market_open() <= 0:
            # piker.md step 2: when the After Market is full, dice must go on market cards.
            raise IllegalAction("after_market_full", "the After Market is full: place your die on a market card")
        self.hands[seat].remove(pips)
        if on == "card":
            self.market[slot]["bids"].append([seat, pips])
            events.append(Event("die_placed", {"seat": seat, "pips": pips, "on": "card", "slot": slot}))
        else:
            self.after_market.append([seat, pips])
            events.append(Event("die_placed", {"seat": seat, "pips": pips, "on": "after_market"}))
        # piker.md step 2: clockwise; a player with no dice left is skipped.
        for step in range(1, self.seat_count + 1):
            nxt = (seat + step) % self.seat_count
            if self.hands[nxt]:
                self.turn = nxt
                return
        self.turn = None
        self._collect(events)

    # ------------------------------------------------------------------ step 3: Collect Investments

    def _collect(self, events: list[Event]) -> None:
        self.step = "collect"
        while self.collect_next < len(self.market):
            index = self.collect_next
            self.collect_next += 1
            if self._resolve_card(index, events):
                return  # a decision (Bull Run) interrupts the step
        self._end_of_collect(events)

    def _resolve_card(self, index: int, events: list[Event]) -> bool:
        """Resolve one market card; True if its winner must now decide something."""
        slot = self.market[index]
        card = slot["card"]
        if not slot["bids"]:
            # piker.md: cards nobody bid on are discarded (decided), face down.
            slot["outcome"] = {"discarded": True}
            self._discard(card, face_up=False)
            events.append(Event("card_discarded", {"slot": index, "tier": tier_of(card)}))
            return False
        totals = [0] * self.seat_count
        dice_on_card = [0] * self.seat_count
        for bidder, pips in slot["bids"]:
            totals[bidder] += pips
            dice_on_card[bidder] += 1
        best = max(totals)
        tied = [seat for seat in range(self.seat_count) if dice_on_card[seat] and totals[seat] == best]
        rerolls = []
        # piker.md step 3: the tied players reroll the dice they had on that card; repeat while tied.
        while len(tied) > 1:
            this_roll = []
            for seat in tied:
                dice = [self.rng.roll(6) for _ in range(dice_on_card[seat])]
                this_roll.append({"seat": seat, "dice": dice, "total": sum(dice)})
            rerolls.append(this_roll)
            high = max(r["total"] for r in this_roll)
            tied = [r["seat"] for r in this_roll if r["total"] == high]
        winner = tied[0]
        slot["outcome"] = {"won_by": winner}
        self.won_this_round[winner] = True
        events.append(
            Event(
                "card_won",
                {"slot": index, "seat": winner, "card": face(card), "pips": totals, "tie_rerolls": rerolls},
            )
        )
        if is_investment(card):
            self.players[winner]["unsecured"].append(card)  # piker.md: face up and unsecured
            return False
        return self._volatility_won(winner, card, events)

    def _volatility_won(self, seat: int, card: str, events: list[Event]) -> bool:
        kind = volatility_kind(card)
        player = self.players[seat]
        if kind == BULL_RUN:
            if len(player["unsecured"]) >= 2:
                self.step = "bull_run"
                self.bull_run = seat
                return True
            secured = player["unsecured"][:1]
            self._bull_run_secures(seat, secured[0] if secured else None, events)
            return False
        if kind == MARGIN_CALL:
            discarded = []
            for step in range(1, self.seat_count):
                other = (seat + step) % self.seat_count
                held = self.players[other]["unsecured"]
                if len(held) >= 2:
                    # piker.md: their lowest-VP unsecured card, the oldest among equals (held lists are oldest first).
                    lowest = min(held, key=lambda c: (victory_points(c), held.index(c)))
                    held.remove(lowest)
                    self._discard(lowest, face_up=True)
                    discarded.append({"seat": other, "card": face(lowest)})
            self._discard(card, face_up=True)
            events.append(Event("volatility_played", {"seat": seat, "card": face(card), "discarded": discarded}))
            return False
        if kind == DIVIDEND:
            player["dividends"].append(card)
            events.append(
                Event("volatility_played", {"seat": seat, "card": face(card), "victory_points": DIVIDEND_POINTS})
            )
            return False
        player["kept"].append(card)
        when = CARDS[card]["when"]
        events.append(Event("volatility_kept", {"seat": seat, "card": face(card), "when": WHEN_NAMES[when]}))
        return False

    def _bull_run_secures(self, seat: int, target: str | None, events: list[Event]) -> None:
        player = self.players[seat]
        card = BULL_RUN  # the one Bull Run card's id
        if target is not None:
            player["unsecured"].remove(target)
            player["secured"].append(target)
        self._discard(card, face_up=True)
        events.append(
            Event(
                "volatility_played",
                {"seat": seat, "card": face(card), "secured": face(target) if target else None},
            )
        )

    def _choose_bull_run(self, seat: int, action: Action, events: list[Event]) -> None:
        target = action["card"]
        if target not in self.players[seat]["unsecured"]:
            raise IllegalAction("card_not_unsecured", "Bull Run secures one of your own unsecured cards")
        self.bull_run = None
        self._bull_run_secures(seat, target, events)
        self._collect(events)

    def _end_of_collect(self, events: list[Event]) -> None:
        holder = self._holder(HOSTILE_TAKEOVER)
        if holder is not None and any(
            self.players[other]["unsecured"] for other in range(self.seat_count) if other != holder
        ):
            self.step = "hostile_takeover"  # piker.md: played at the end of a Collect Investments step
            return
        self._open_after_market(events)

    def _play_hostile_takeover(self, seat: int, action: Action, events: list[Event]) -> None:
        target = action["card"]
        owner = next(
            (o for o in range(self.seat_count) if o != seat and target in self.players[o]["unsecured"]), None
        )
        if owner is None:
            raise IllegalAction("card_not_unsecured", "Hostile Takeover takes an unsecured card from an opponent")
        card = next(c for c in self.players[seat]["kept"] if volatility_kind(c) == HOSTILE_TAKEOVER)
        self.players[seat]["kept"].remove(card)
        self._discard(card, face_up=True)
        self.players[owner]["unsecured"].remove(target)
        self.players[seat]["unsecured"].append(target)
        events.append(
            Event("volatility_played", {"seat": seat, "card": face(card), "taken": face(target), "from": owner})
        )
        self._open_after_market(events)

    # ------------------------------------------------------------------ step 4: The After Market

    def _open_after_market(self, events: list[Event]) -> None:
        self.step = "after_market"
        dice = [[pips for owner, pips in self.after_market if owner == seat] for seat in range(self.seat_count)]
        self.securing = {
            "dice": [sorted(d, reverse=True) for d in dice],
            "pending": [[] for _ in range(self.seat_count)],
            "deciding": [],
            "done": [],
        }
        deciding = [seat for seat in range(self.seat_count) if self._legal_secures(seat)]
        self.securing["deciding"] = deciding
        events.append(Event("after_market_opened", {"deciding": deciding, "dice": [len(d) for d in dice]}))
        if not deciding:
            self._reveal_securing(events)

    def _buyouts_free(self, seat: int) -> int:
        pending = self.securing["pending"][seat]
        return len(self._buyouts_held(seat)) - sum(p["leveraged_buyouts"] for p in pending)

    def _legal_secures(self, seat: int) -> list[Action]:
        sec = self.securing
        dice = sec["dice"][seat]
        if not dice:
            return []
        chosen = {p["card"] for p in sec["pending"][seat]}
        buyouts = self._buyouts_free(seat)
        actions = []
        for card in self.players[seat]["unsecured"]:
            if card in chosen:
                continue
            for way, used in minimal_ways(dice, secure_value(card), buyouts):
                actions.append({"type": "secure", "card": card, "dice": list(way), "leveraged_buyouts": used})
        return actions

    def _secure(self, seat: int, action: Action, events: list[Event]) -> None:
        sec = self.securing
        card = action["card"]
        dice = action["dice"]
        used = action.get("leveraged_buyouts", 0)
        if card not in self.players[seat]["unsecured"]:
            raise IllegalAction("card_not_unsecured", "you can only secure your own unsecured cards")
        if any(p["card"] == card for p in sec["pending"][seat]):
            raise IllegalAction("card_already_chosen", "you already chose dice for that card")
        if not dice:
            raise IllegalAction("no_dice", "securing a card takes at least one After Market die")
        if Counter(dice) - Counter(sec["dice"][seat]):
            raise IllegalAction("dice_not_in_after_market", "use only your After Market dice not yet used")
        if used > self._buyouts_free(seat):
            raise IllegalAction("no_leveraged_buyout", "you do not hold that many unused Leveraged Buyouts")
        need = secure_value(card)
        if sum(dice) + LEVERAGED_BUYOUT_PIPS * used < need:
            raise IllegalAction("not_enough_pips", f"that card needs {need} pips to be secured")
        if not is_minimal_way(dice, used, need):
            raise IllegalAction(
                "more_than_needed", "use only the dice and Leveraged Buyouts the card needs (spare dice are lost)"
            )
        for die in dice:
            sec["dice"][seat].remove(die)
        choice = {"card": card, "dice": sorted(dice, reverse=True), "leveraged_buyouts": used}
        sec["pending"][seat].append(choice)
        # piker.md step 4: choices stay secret until all are revealed together.
        events.append(Event("securing_chosen", {"seat": seat}, {seat: {"choice": choice}}))
        if not self._legal_secures(seat):
            self._finish_securing(seat, {"type": "finish_securing"}, events)

    def _finish_securing(self, seat: int, action: Action, events: list[Event]) -> None:
        sec = self.securing
        sec["done"].append(seat)
        events.append(Event("securing_finished", {"seat": seat}))
        if all(other in sec["done"] for other in sec["deciding"]):
            self._reveal_securing(events)

    def _reveal_securing(self, events: list[Event]) -> None:
        sec = self.securing
        revealed = []
        for seat in range(self.seat_count):
            player = self.players[seat]
            buyouts = self._buyouts_held(seat)
            secured = []
            for choice in sec["pending"][seat]:
                player["unsecured"].remove(choice["card"])
                player["secured"].append(choice["card"])  # piker.md: a secured card turns horizontal
                for _ in range(choice["leveraged_buyouts"]):
                    used = buyouts.pop(0)
                    player["kept"].remove(used)
                    self._discard(used, face_up=True)
                secured.append({**choice, "card": face(choice["card"])})
            revealed.append({"seat": seat, "secured": secured, "dice_lost": len(sec["dice"][seat])})
        events.append(Event("securing_revealed", {"round": self.round, "players": revealed}))
        self._end_round(events)

    # ------------------------------------------------------------------ steps 5 and 6

    def _end_round(self, events: list[Event]) -> None:
        self.log.append(
            {
                "round": self.round,
                "first_player": self.first_player,
                "piker": self.piker,
                "won_a_card": list(self.won_this_round),
                "victory_points_on_table": [self.victory_points_on_table(p) for p in range(self.seat_count)],
                "secured_score": [final_score(p["secured"], p["dividends"])["total"] for p in self.players],
            }
        )
        if self.round >= ROUNDS:
            self._end_game(events)
            return
        # piker.md step 5: every die goes back to its owner; a new market is dealt face down.
        for slot in self.market:
            slot["bids"] = []
        self.after_market = []
        self.hands = [[] for _ in range(self.seat_count)]
        self.dice_this_round = [0] * self.seat_count
        self.securing = None
        self.insider_tip = None
        self._deal_market()
        events.append(
            Event("market_refilled", {"tiers": [tier_of(slot["card"]) for slot in self.market], "deck": len(self.deck)})
        )
        self._choose_piker(events)

    def _choose_piker(self, events: list[Event]) -> None:
        if self.variant == PIKER_BY_SECURED_SCORE:
            # bench variant: the fewest points that would score now (secured cards, Dividends, sets)
            points = [_secured_score(tuple(p["secured"]), len(p["dividends"])) for p in self.players]
        else:
            points = [self.victory_points_on_table(p) for p in range(self.seat_count)]
        low = min(points)
        tied = [p for p in range(self.seat_count) if points[p] == low]
        roll_off = []
        # piker.md step 6: the tied players each roll a die, lowest takes it, repeat while tied.
        while len(tied) > 1:
            rolls = [{"seat": p, "roll": self.rng.roll(6)} for p in tied]
            roll_off.append(rolls)
            lowest = min(r["roll"] for r in rolls)
            tied = [r["seat"] for r in rolls if r["roll"] == lowest]
        piker = tied[0]
        self.piker = piker
        self.extra_next[piker].append("piker")
        for p in range(self.seat_count):
            if not self.won_this_round[p]:
                self.extra_next[p].append("won_nothing")  # piker.md: one extra die for a player who won no card
        events.append(
            Event(
                "piker_taken",
                {
                    "seat": piker,
                    "victory_points_on_table": points,
                    "roll_off": roll_off,
                    "extra_dice_next_round": [len(e) for e in self.extra_next],
                },
            )
        )
        if self.deck:
            self.step = "extra_card"
        else:
            self._next_round(events)

    def _extra_card(self, seat: int, action: Action, events: list[Event]) -> None:
        add = action["add"]
        if add:
            card = self.deck.pop(0)
            self.market.append({"card": card, "bids": [], "outcome": None})
            events.append(
                Event("extra_card", {"seat": seat, "added": True, "slot": len(self.market) - 1, "tier": tier_of(card)})
            )
        else:
            events.append(Event("extra_card", {"seat": seat, "added": False}))
        self._next_round(events)

    def _next_round(self, events: list[Event]) -> None:
        self.round += 1
        self.first_player = self.piker  # piker.md: the Piker is first player next round
        events.append(Event("round_started", {"round": self.round, "first_player": self.first_player}))
        self._begin_round(events)

    def _end_game(self, events: list[Event]) -> None:
        scores = [final_score(p["secured"], p["dividends"]) for p in self.players]
        totals = [b["total"] for b in scores]
        high = max(totals)
        tied = [p for p in range(self.seat_count) if totals[p] == high]
        roll_off = []
        # piker.md: a tie for first is settled by two dice each, highest total wins, repeat while tied.
        while len(tied) > 1:
            rolls = []
            for p in tied:
                dice = [self.rng.roll(6), self.rng.roll(6)]
                rolls.append({"seat": p, "dice": dice, "total": sum(dice)})
            roll_off.append(rolls)
            best = max(r["total"] for r in rolls)
            tied = [r["seat"] for r in rolls if r["total"] == best]
        winner = tied[0]
        # piker.md: the rest of the ranking keeps ties.
        placings = competition_ranking([(totals[p], p == winner) for p in range(self.seat_count)], higher_is_better=True)
        for p, breakdown in enumerate(scores):
            breakdown["unsecured_cards"] = len(self.players[p]["unsecured"])
        self.result = {"scores": scores, "placings": placings, "roll_off": roll_off, "winner": winner}
        self.step = "over"
        self.turn = None
        events.append(
            Event(END_EVENT, {"scores": copy.deepcopy(scores), "placings": placings, "roll_off": roll_off})
        )

    # ------------------------------------------------------------------ view

    def view(self, seat: int | None) -> View:
        view = self.public_view()
        if seat is not None:
            final = view.pop("final", None)
            view.update(self.private_view(seat))
            if final is not None:
                view["final"] = final  # the last key, as it always was
        return view

    def private_view(self, seat: int) -> View:
        """What only `seat` sees: its dice, the market cards its Insider Tip showed, its own After Market choices
        (secret until the reveal) and the decision it must make."""
        private: View = {"you": seat}
        tip = self.insider_tip
        if tip is not None and tip["seat"] == seat and any(
            self.market[index]["outcome"] is None for index in tip["slots"]
        ):
            # piker.md: Insider Tip, seen by its player only (while the cards are still face down)
            private["market"] = self._market_view(seat)
        private["my_dice"] = list(self.hands[seat])
        if self.step == "after_market":
            sec = self.securing
            # My own choices so far (secret from the others until the reveal).
            private["my_securing"] = {
                "after_market_dice": list(sec["dice"][seat]),
                "chosen": _copy_choices(sec["pending"][seat]),
            }
        if seat in self.acting_seats():
            private["decision"] = self._decision_view(seat)
        return private

    def _market_view(self, seat: int | None) -> list[dict[str, Any]]:
        tip = self.insider_tip
        market = []
        for index, slot in enumerate(self.market):
            outcome = slot["outcome"]
            won = outcome is not None and "won_by" in outcome
            pips = [0] * self.seat_count
            for bidder, value in slot["bids"]:
                pips[bidder] += value
            entry = {
                "slot": index,
                "tier": tier_of(slot["card"]),
                "face": face(slot["card"]) if won else None,
                "dice": [{"seat": bidder, "pips": value} for bidder, value in slot["bids"]],
                "pips": pips,
                "won_by": outcome["won_by"] if won else None,
                "discarded": bool(outcome and outcome.get("discarded")),
            }
            if not won and tip is not None and tip["seat"] == seat and index in tip["slots"] and not entry["discarded"]:
                entry["face"] = face(slot["card"])  # piker.md: Insider Tip, seen by its player only
                entry["seen_by_insider_tip"] = True
            market.append(entry)
        return market

    def public_view(self) -> View:
        """The spectator's view, which is every seat's view but for `private_view`."""
        step = self.step
        players = []
        for p in range(self.seat_count):
            player = self.players[p]
            status = None
            if self.securing is not None and step == "after_market":
                sec = self.securing
                status = "done" if p in sec["done"] else "deciding" if p in sec["deciding"] else "nothing_to_secure"
            players.append(
                {
                    "seat": p,
                    "dice_this_round": self.dice_this_round[p],
                    "extra_dice_this_round": list(self.dice_reasons[p]),
                    "unplaced_dice": len(self.hands[p]),
                    "extra_dice_next_round": len(self.extra_next[p]),
                    "extra_dice_next_round_reasons": list(self.extra_next[p]),
                    "unsecured": [face(c) for c in player["unsecured"]],
                    "secured": [face(c) for c in player["secured"]],
                    "dividends": [face(c) for c in player["dividends"]],
                    "kept_cards": [self._kept_view(c) for c in player["kept"]],
                    "victory_points_on_table": self.victory_points_on_table(p),
                    "secured_score": _secured_score(tuple(player["secured"]), len(player["dividends"])),
                    "is_piker": self.piker == p,
                    "won_a_card_this_round": self.won_this_round[p],
                    "securing": status,
                }
            )
        face_down_discards = sum(1 for d in self.discard if not d["face_up"])
        view: dict[str, Any] = {
            "game": self.name,
            "seats": self.seat_count,
            "you": None,
            "round": self.round,
            "rounds": ROUNDS,
            "step": step,
            "step_number": STEP_NUMBERS.get(step),
            "step_name": STEP_NAMES.get(step),
            "to_act": self.acting_seats(),
            "turn": self.turn if step == "invest" else None,
            "first_player": self.first_player,
            "piker": self.piker,
            "market": self._market_view(None),
            "after_market": {
                "spots": after_market_spots(self.seat_count),
                "open": self._after_market_open(),
                "dice": [{"seat": owner, "pips": value} for owner, value in self.after_market],
            },
            "players": players,
            "deck": len(self.deck),
            "discard": {
                "face_up": [face(d["card"]) for d in self.discard if d["face_up"]],
                "face_down": face_down_discards,
            },
            "history": [_copy_round_record(entry) for entry in self.log],
        }
        if self.result is not None:
            view["final"] = copy.deepcopy(self.result)
        return view

    def _kept_view(self, card: str) -> dict[str, Any]:
        when = CARDS[card]["when"]
        step = self.step
        return {
            "card": face(card),
            "when": when,
            "when_text": WHEN_NAMES[when],
            "playable_now": PLAYED_AT_STEP[when] == step,
        }

    def _decision_view(self, seat: int) -> dict[str, Any]:
        step = self.step
        if step == "after_market":
            sec = self.securing
            buyouts = self._buyouts_free(seat)
            chosen = {p["card"] for p in sec["pending"][seat]}
            open_cards = [c for c in self.players[seat]["unsecured"] if c not in chosen]
            return {
                "kind": "secure",
                "after_market_dice": list(sec["dice"][seat]),
                "leveraged_buyouts": buyouts,
                "chosen": _copy_choices(sec["pending"][seat]),
                # The engine's best allocation of what is left; a timed-out seat plays it (bots use it too).
                "suggested": self.suggested_allocation(seat),
            }
        if step == "invest":
            return {"kind": "place_die", "after_market_open": self._after_market_open()}
        if step in ("extra_capital", "insider_tip", "hostile_takeover"):
            return {"kind": step, "card": CARDS[self._kind_for_step(step)]["name"], "may_keep": True}
        if step == "bull_run":
            return {"kind": "bull_run", "choose_from": list(self.players[seat]["unsecured"])}
        if step == "extra_card":
            return {"kind": "extra_card", "deck": len(self.deck)}
        return {"kind": step}

    def suggested_allocation(self, seat: int) -> list[dict[str, Any]]:
        """The best allocation of the seat's After Market dice left (securing.best_allocation), [] outside it."""
        if self.step != "after_market" or seat not in self.securing["deciding"] or seat in self.securing["done"]:
            return []
        sec = self.securing
        chosen = [p["card"] for p in sec["pending"][seat]]
        open_cards = [c for c in self.players[seat]["unsecured"] if c not in chosen]
        secured = self.players[seat]["secured"] + chosen  # chosen cards will be secured at the reveal
        best = _best_allocation(tuple(open_cards), tuple(sec["dice"][seat]), self._buyouts_free(seat), tuple(secured))
        return [{"card": card, "dice": list(dice), "leveraged_buyouts": used} for card, dice, used in best]

    # ------------------------------------------------------------------ invariants

    def check_invariants(self) -> list[str]:
        problems = []
        places: list[str] = list(self.deck)
        places += [slot["card"] for slot in self.market if slot["outcome"] is None]
        if self.bull_run is not None:
            places.append(BULL_RUN)  # won, waiting for its winner to pick the card it secures
        places += [d["card"] for d in self.discard]
        for player in self.players:
            places += player["unsecured"] + player["secured"] + player["dividends"] + player["kept"]
        counts = Counter(places)
        if len(places) != len(DECK) or set(counts) != set(DECK):
            missing = sorted(set(DECK) - set(counts))
            extra = sorted(c for c, n in counts.items() if n > 1)
            problems.append(f"the 48 cards are not conserved: {len(places)} held, missing {missing}, twice {extra}")
        for index, slot in enumerate(self.market):
            if slot["outcome"] is None and slot["card"] in self.deck:
                problems.append(f"market slot {index} holds a card still in the deck")
        for seat, player in enumerate(self.players):
            if not all(is_investment(c) for c in player["unsecured"] + player["secured"]):
                problems.append(f"seat {seat} holds a Market Volatility card among its investment cards")
            if not all(volatility_kind(c) == DIVIDEND for c in player["dividends"]):
                problems.append(f"seat {seat} has a non-Dividend card among its Dividends")
            if not all(volatility_kind(c) in KEPT_KINDS for c in player["kept"]):
                problems.append(f"seat {seat} keeps a card that acts at once")
            placed = sum(1 for slot in self.market for owner, _ in slot["bids"] if owner == seat)
            placed += sum(1 for owner, _ in self.after_market if owner == seat)
            if len(self.hands[seat]) + placed != self.dice_this_round[seat]:
                problems.append(
                    f"seat {seat}'s dice are not accounted for: {len(self.hands[seat])} unplaced + {placed} placed "
                    f"!= {self.dice_this_round[seat]} rolled"
                )
            if any(not 1 <= d <= 6 for d in self.hands[seat]):
                problems.append(f"seat {seat} has a die that is not 1-6")
            if self.securing is not None:
                sec = self.securing
                spent = [d for p in sec["pending"][seat] for d in p["dice"]]
                am = [pips for owner, pips in self.after_market if owner == seat]
                if Counter(spent + sec["dice"][seat]) != Counter(am):
                    problems.append(f"seat {seat}'s After Market dice are not accounted for")
        if len(self.after_market) > after_market_spots(self.seat_count):
            problems.append("the After Market holds more dice than it has spots")
        if not 1 <= self.round <= ROUNDS:
            problems.append(f"round {self.round} is outside 1..{ROUNDS}")
        if self.step == "invest" and (self.turn is None or not self.hands[self.turn]):
            problems.append("it is a seat's turn to invest but it has no die")
        if self.step != "over" and not self.acting_seats():
            problems.append("the game waits for nobody but is not over")
        if self.step == "over" and self.result is None:
            problems.append("the game is over without a result")
        return problems

    # the steps in which each action may be sent (piker.md's six steps and the decisions inside them)
    _STEPS_FOR_ACTION = {
        "place_die": ("invest",),
        "secure": ("after_market",),
        "finish_securing": ("after_market",),
        "bull_run": ("bull_run",),
        "play_extra_capital": ("extra_capital",),
        "play_insider_tip": ("insider_tip",),
        "play_hostile_takeover": ("hostile_takeover",),
        "keep_card": ("extra_capital", "insider_tip", "hostile_takeover"),
        "extra_card": ("extra_card",),
    }


