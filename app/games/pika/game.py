"""Pika, one round, as ../shared/rules/pika.md says (the specification; the seed text is its origin).

Actions (`legal_actions` lists them in exactly this shape):
- `{"type": "play", "card": "red-7"}`; a black card also names the colour in play: `{"type": "play", "card": "+4",
  "colour": "blue"}`. Calling Pika with the play that leaves one card: add `"pika": true`.
- `{"type": "draw"}`: draw one card instead of playing (allowed even with a playable card).
- `{"type": "keep"}`: after drawing a playable card, keep it and end the turn (playing it is a "play" of that card).
- `{"type": "take_stack"}`: take the whole pending +2/+4 stack.
- `{"type": "pika"}`: call Pika during your own alert (any time, also when it is not your turn).
- Housekeeping, never listed as legal and never changing whose turn it is: `{"type": "reorder", "hand": [names]}`,
  your whole hand in the order you want it (the same cards); any seat, any time while the round runs.
- System action (seat None), sent by the table when an alert's deadline runs out:
  `{"type": "alert_expired", "seat": 2, "alert": 7}` (the seat draws 2 penalty cards).

Events: "play" (seat, card, colour in play, cards_left, and pika/stack/skipped/direction when they apply),
"pika_alert", "pika", "penalty" (the cards only for that seat), "draw" (count; the card and whether it goes only
for the drawer), "keep", "take_stack" (stack, count; the cards only for the taker), "reshuffle", "hand_reordered"
(the order only for that seat), "game_end" (reason, placings, cards_left).

View (`view(seat)`; a spectator's has no "hand" and no "drawn_card"): to_act, turn, direction, hand (in the seat's
own order), hand_counts, discard_top, colour, stack (amount, may_chain in words, chain_cards) or null, draw_pile
(its size), discard_size, discard_cards (the discard pile as counts by name: every one of them was played face up),
drawn_card (mine, waiting for "play it or keep it") and deciding_drawn_card (someone is), alerts (seat and whether
I may call), alert_seconds, called_pika, idle_turns (towards the stalemate end), passed, over, end, placings.
"passed" is public memory for players who remember nothing (bots): per seat, groups {cards, kinds}, oldest first,
meaning "at least `cards` of this seat's cards are none of `kinds`" (`kinds` a hexadecimal mask of card kinds, bit
`code` for cards.NAMES[code], as sent on every pass: cards.kinds_of_mask names them), deduced from its drawing or taking a stack
instead of playing (true unless it passed holding a playable card, which pika.md allows; a later play showing that
drops the groups).

Randomness, in the order the engine asks for it (app/games/pika/scripting.py builds a ScriptedRandom from a deal):
1. `shuffle` of the 108 card names (cards.DECK order); items[0] is drawn first.
2. Deal: seven rounds, one card at a time to each seat from seat 0 (items[0] to seat 0, items[1] to seat 1, ...).
3. First discard: the next card is flipped; while it is not a number card, one `randbelow(n)` (n = cards left in the
   pile) puts it back with `1 + that` cards above it (anywhere but the very top), and the next card is flipped.
4. First player: `randbelow(seats)`.
5. During play, each time a card must be drawn from an empty pile: one `shuffle` of the discard pile except its top
   card, as names from the bottom of the discard up; items[0] is drawn first.

Internally a card is a small int (cards.py) and a play an int (card + 64 * colour + 256 if it calls Pika), so that
legal-move generation stays cheap; dicts exist only at the boundary. legal_actions lists the plays in hand order
(a black card once per colour, and a play that leaves one card followed by its twin calling Pika), then draw, keep
or take_stack, then the Pika call during an alert.
The draw pile is kept with its next card at the end of the list (`pop()`); `to_state` writes it next-card-first.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from typing import Any

from app.games.base import END_EVENT, Action, Deadline, Event, Game, IllegalAction, Outcome, View, competition_ranking
from app.games.pika.actions import PIKA_ACTIONS
from app.games.pika.bots import EasyBot, HardBot, MediumBot
from app.games.pika.cards import (
    CHAINS_ON_DRAW_TWO,
    CHAINS_ON_WILD_FOUR,
    CHAINS_ON_DRAW_TWO_MASK,
    CHAINS_ON_WILD_FOUR_MASK,
    CODE,
    COLOUR_INDEX,
    COLOUR_OF,
    COLOURS,
    DECK,
    DECK_COUNTS,
    FIRST_BLACK,
    IS_NUMBER,
    KINDS,
    MATCHING,
    MATCHING_MASK,
    NAMES,
    RANK_OF,
    REVERSE,
    SKIP,
    STACK_VALUE,
    WILD_FOUR,
    describe_chain,
)
from app.games.rng import HashRandom, RandomSource, random_from_state

HAND_SIZE = 7
DECK_CODES = tuple(CODE[name] for name in DECK)
PENALTY = 2  # pika.md: 2 penalty cards when the alert closes without a call
NOTE_GROUPS = 4  # public pass deductions kept per seat (the newest)

# A play as an int: card + 64 * colour (black cards only) + 256 if Pika is called with it.
COLOUR_STEP = 64
CARD_MASK = COLOUR_STEP - 1  # the card's code in a play int
PIKA_FLAG = 256


# The moves that are not plays, as negative move ints next to the play ints.
DRAW_MOVE, KEEP_MOVE, TAKE_STACK_MOVE, CALL_MOVE = -1, -2, -3, -4


class _Listed(dict):
    """A legal action as listed (legal_actions hands out plain-dict copies), with the move it stands for."""

    __slots__ = ("move",)

    def __init__(self, move: int, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.move = move


def _play_action(move: int) -> _Listed:
    card = move & CARD_MASK
    action: dict[str, Any] = {"type": "play", "card": NAMES[card]}
    if card >= FIRST_BLACK:
        action["colour"] = COLOURS[(move >> 6) & 3]
    if move & PIKA_FLAG:
        action["pika"] = True
    return _Listed(move, action)


def _plays_of(card: int, with_call: bool) -> tuple[dict[str, Any], ...]:
    colours = range(4) if card >= FIRST_BLACK else (0,)
    flags = (0, PIKA_FLAG) if with_call else (0,)
    return tuple(_play_action(card + COLOUR_STEP * colour + flag) for colour in colours for flag in flags)


# The names of the cards that may chain on a pending stack (views list them): on a +2, and on a +4 per colour.
CHAIN_NAMES_ON_DRAW_TWO = tuple(NAMES[card] for card in range(KINDS) if CHAINS_ON_DRAW_TWO[card])
CHAIN_NAMES_ON_WILD_FOUR = tuple(
    tuple(NAMES[card] for card in range(KINDS) if chains[card]) for chains in CHAINS_ON_WILD_FOUR
)




# Per card kind, its play actions in the order legal_actions lists them (a black card once per colour), without
# and with the twin that calls Pika right after each play. Built once; legal_actions hands out copies.
PLAYS = tuple(_plays_of(card, False) for card in range(KINDS))
PLAYS_WITH_CALL = tuple(_plays_of(card, True) for card in range(KINDS))


def _play_facts(move: int) -> tuple[int, str, int, str, int, int] | None:
    card = move & CARD_MASK
    if card >= KINDS:
        return None
    colour = (move >> 6) & 3 if card >= FIRST_BLACK else COLOUR_OF[card]  # a black card's player chose it
    return card, NAMES[card], colour, COLOURS[colour], STACK_VALUE[card], RANK_OF[card]


# PLAY_FACTS[move]: (card, its name, the colour in play after it, that colour's name, what it adds to a stack, its
# rank) for every play int, so that a play looks them up once.
PLAY_FACTS = tuple(_play_facts(move) for move in range(2 * PIKA_FLAG))
# IS_PLAYABLE[top * 4 + colour][card]: MATCHING's entries as bools (a drawn card's event says whether it may go).
IS_PLAYABLE = tuple(tuple(map(bool, table)) for table in MATCHING)

# The tables of playable kinds legal_actions looks up, by number: MATCHING's (top * 4 + colour) with no stack
# pending, then on a pending +2, then on a pending +4 (+ the colour chosen with it).
ON_DRAW_TWO = len(MATCHING)
ON_WILD_FOUR = ON_DRAW_TWO + 1
PLAYABLE_TABLES = (*MATCHING, CHAINS_ON_DRAW_TWO, *CHAINS_ON_WILD_FOUR)


def _playable_plays(plays: tuple[tuple[_Listed, ...], ...]) -> tuple[tuple[tuple[_Listed, ...], ...], ...]:
    return tuple(tuple(plays[card] if table[card] else () for card in range(KINDS)) for table in PLAYABLE_TABLES)


# PLAYABLE_PLAYS[table][card]: the plays of `card` where that table of playable kinds applies, () if it may not be
# played there: one lookup per card in hand, instead of a playability check and then its plays.
PLAYABLE_PLAYS = _playable_plays(PLAYS)
PLAYABLE_PLAYS_WITH_CALL = _playable_plays(PLAYS_WITH_CALL)
DRAW = _Listed(DRAW_MOVE, {"type": "draw"})
KEEP = _Listed(KEEP_MOVE, {"type": "keep"})
TAKE_STACK = _Listed(TAKE_STACK_MOVE, {"type": "take_stack"})
CALL = _Listed(CALL_MOVE, {"type": "pika"})
_copy = dict.copy  # a plain dict with the template's very keys and values


# Kinds masks in hexadecimal, as the view sends them, memoised: formatting costs more than building the note, and a
# game's masks are few (the playable kinds of each discard state, and their unions). A plain dict, emptied when it
# grows large: its lookup costs a third of an lru_cache call.
_KINDS_HEX: dict[int, str] = {}


def _kinds_hex(kinds: int) -> str:
    shown = _KINDS_HEX.get(kinds)
    if shown is None:
        if len(_KINDS_HEX) >= 4096:
            _KINDS_HEX.clear()
        shown = _KINDS_HEX[kinds] = f"{kinds:x}"
    return shown


def _discard_cards(counts: list[int]) -> dict[str, int]:
    """The discard pile by name, in card order: the view's "discard_cards", from the counts per card kind."""
    return dict(zip(compress(NAMES, counts), filter(None, counts)))


END_WENT_OUT = "went_out"  # a player played their last card
END_STACK_TAKEN = "stack_taken"  # a stack was taken while someone held no cards
END_STALEMATE = "stalemate"  # a whole table of turns with nothing to draw and no card played


def _shuffled(rng: RandomSource, cards: list[int]) -> list[int]:
    """`cards` shuffled as their names would be (the scripting of a ScriptedRandom names cards)."""
    if type(rng) is HashRandom:
        rng.shuffle(cards)  # its permutation depends on the count only, so codes shuffle as names do
        return cards
    names = [NAMES[card] for card in cards]
    rng.shuffle(names)
    return [CODE[name] for name in names]


class Pika(Game):
    """One round of Pika for 2-4 players (pika.md)."""

    name = "pika"
    title = "Pika"
    min_seats = 2
    max_seats = 4
    default_options = {"alert_seconds": 3.0}
    option_ranges = {"alert_seconds": (1.0, 30.0)}  # a call needs a moment; a longer alert stalls the table
    action_schema = PIKA_ACTIONS
    system_actions = frozenset({"alert_expired"})
    out_of_turn_actions = frozenset({"pika", "reorder"})  # pika.md: a call and your own hand's order wait for no turn
    bots = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}

    def __init__(self, seat_count: int, options: dict[str, Any], rng: RandomSource):
        self.seat_count = seat_count
        self.options = options
        self.rng = rng
        self.alert_seconds = float(options["alert_seconds"])
        self.hands: list[list[int]] = [[] for _ in range(seat_count)]
        self.pile: list[int] = []  # next card at the end
        self.discard: list[int] = []  # top at the end
        self.discard_counts = [0] * KINDS  # per card kind, how many the discard pile holds (views show them)
        # The view's "discard_cards" (name -> count, in card order), kept up to date by plays; None: build it anew
        # at the next view. Not part of the state.
        self._discard_cards: dict[str, int] | None = None
        self.colour = 0
        self.direction = 1  # +1 clockwise, -1 counterclockwise (to_state's "direction")
        self.turn = 0
        self.stack = 0  # cards the pending +2/+4 stack makes the next player draw; 0: none pending
        self.drawn = -1  # the drawn card waiting for "play it or keep it"
        self.idle_turns = 0  # turns in a row with nothing to draw and no card played
        self.alerts: dict[int, int] = {}  # seat -> alert number, in opening order
        self.called = [False] * seat_count  # called Pika and still on one card
        # Public deductions from passing (see _note_pass): per seat, a list of [cards, kinds bitmask], oldest first:
        # at least `cards` of the seat's cards are none of `kinds` (the older the group, the more kinds it avoids).
        self.passed: list[list[list[int]]] = [[] for _ in range(seat_count)]
        self.alert_serial = 0
        self.over = False
        self.end_reason: str | None = None
        self._outcome: Outcome | None = None
        self._deadlines: dict[int, Deadline] = {}  # alert number -> Deadline, derived from `alerts`
        # The last legal_actions listing (its seat, and the templates of the actions it handed out), until the next
        # apply (see `apply`).
        self._listed_seat: int | None = None
        self._listed_from: list[_Listed] = []

    # ------------------------------------------------------------------ setup

    @classmethod
    def create(cls, seats: int, options: Mapping[str, Any] | None, rng: RandomSource) -> Pika:
        options = cls.check_options(seats, options)
        if not options["alert_seconds"] > 0:
            raise IllegalAction("bad_option", "the Pika alert must last more than 0 seconds")
        game = cls(seats, options, rng)
        deck = _shuffled(rng, list(DECK_CODES))  # deck[0] is drawn first
        dealt = HAND_SIZE * seats
        # pika.md: seven cards each, dealt one at a time (deck[0] to seat 0, deck[1] to seat 1, ...).
        game.hands = [deck[seat:dealt:seats] for seat in range(seats)]
        rest = deck[dealt:]
        while True:
            flipped = rest.pop(0)
            if IS_NUMBER[flipped]:
                break
            # pika.md: a first flip that is not a number card goes back into the pile at a random place.
            rest.insert(1 + rng.randbelow(len(rest)), flipped)
        game.discard.append(flipped)
        game.discard_counts[flipped] += 1
        game.colour = COLOUR_OF[flipped]
        game.pile = rest[::-1]
        # pika.md: the first player is drawn at random; play starts clockwise.
        game.turn = rng.randbelow(seats)
        return game

    # ------------------------------------------------------------------ the contract

    def acting_seats(self) -> list[int]:
        return [] if self.over else [self.turn]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def deadlines(self) -> list[Deadline]:
        if not self.alerts or self.over:
            return []
        made = self._deadlines
        out = []
        for seat, number in self.alerts.items():
            deadline = made.get(number)
            if deadline is None:
                deadline = made[number] = Deadline(
                    key=f"pika-alert-{number}",
                    seconds=self.alert_seconds,
                    action={"type": "alert_expired", "seat": seat, "alert": number},
                    seat=seat,
                )
            out.append(deadline)
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        if self.over:
            return []
        listed: list[_Listed] = []
        if seat == self.turn:
            hand = self.hands[seat]
            # pika.md: Pika may be called with the play that leaves one card: such plays come with a flagged twin.
            with_call = len(hand) == 2
            if self.drawn >= 0:
                listed += (PLAYS_WITH_CALL if with_call else PLAYS)[self.drawn]
                listed.append(KEEP)
            else:
                if self.stack:
                    table = ON_WILD_FOUR + self.colour if self.discard[-1] == WILD_FOUR else ON_DRAW_TWO
                else:
                    table = self.discard[-1] * 4 + self.colour
                playable = (PLAYABLE_PLAYS_WITH_CALL if with_call else PLAYABLE_PLAYS)[table]
                seen = set()  # a kind held twice is listed once, where it first comes in the hand
                for card in hand:
                    plays = playable[card]
                    if plays and card not in seen:
                        seen.add(card)
                        listed += plays
                listed.append(TAKE_STACK if self.stack else DRAW)
        if seat in self.alerts:
            listed.append(CALL)
        # Plain-dict copies (a caller may change what it got); a lone pass is the most common listing.
        out = [_copy(listed[0])] if len(listed) == 1 else [*map(_copy, listed)]
        self._listed_seat = seat if type(seat) is int else None  # a bool seat is Game.apply's to refuse
        self._listed_from = listed
        return out

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        # The fast path: an action equal to one that the last legal_actions(seat) listed, with nothing applied
        # since, is that legal move: it needs neither the shape check nor the rules' check. Equal is exact here but
        # for the Pika flag, which the shape check takes only as the bool true (1 == True). Anything else takes
        # Game.apply's opening checks and the rules' checks.
        if seat is self._listed_seat and seat is not None and type(action) is dict:
            listed = self._listed_from
            try:
                move = listed[listed.index(action)].move
            except ValueError:
                move = None
            # (a flagged play's "pika" must be the bool true, as the shape check wants; every other listed
            # action has no "pika")
            if move is not None and (move < PIKA_FLAG or action["pika"] is True):
                self._listed_seat = None
                if move >= 0:
                    return self._play(seat, move)
                if move == DRAW_MOVE:
                    return self._draw(seat)
                if move == KEEP_MOVE:
                    return self._keep(seat)
                if move == TAKE_STACK_MOVE:
                    return self._take_stack(seat)
                return self._call_pika(seat)
        return Game.apply(self, seat, action)

    def apply_rules(self, seat: int | None, action: Action) -> list[Event]:
        self._listed_seat = None  # the listing may be stale from here on
        kind = action["type"]
        if kind == "alert_expired":  # the one system action, sent with seat None
            return self._expire_alert(action)
        assert seat is not None  # Game.apply lets only system actions through without a seat
        if kind == "play":
            return self._play(seat, self._parse_play(seat, action))
        if kind == "pika":
            return self._call_pika(seat)
        if kind == "reorder":
            return self._reorder(seat, action)
        if kind == "draw":
            if self.drawn >= 0:
                raise IllegalAction("already_drew", "you drew already: play the card you drew or keep it")
            if self.stack:
                raise IllegalAction(
                    "stack_pending", f"a stack of {self.stack} is pending: chain a stacking card or take the stack"
                )
            return self._draw(seat)
        if kind == "keep":
            if self.drawn < 0:
                raise IllegalAction("nothing_drawn", "keeping is only for a card you just drew")
            return self._keep(seat)
        if kind == "take_stack":
            if not self.stack:
                raise IllegalAction("no_stack", "there is no +2/+4 stack to take")
            return self._take_stack(seat)
        raise AssertionError(f"{kind!r} passed the shape check but has no rule here")

    # ------------------------------------------------------------------ validation

    def _parse_play(self, seat: int, action: Action) -> int:
        """The move int for a play action of the right shape by the seat to play, checked against the rules (nothing
        is changed)."""
        name = action["card"]
        card = CODE[name]
        colour_name = action.get("colour")
        flag = action.get("pika", False)
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction("card_not_held", f"you do not hold a {name}")
        move = card
        if card >= FIRST_BLACK:
            if colour_name is None:
                # pika.md: the player of a Joker or +4 chooses the colour in play.
                raise IllegalAction("colour_needed", f"a {name} needs a colour: red, yellow, green or blue")
            move += COLOUR_STEP * COLOUR_INDEX[colour_name]
        elif colour_name is not None:
            raise IllegalAction("colour_not_allowed", f"only a Joker or a +4 chooses the colour, not a {name}")
        drawn = self.drawn
        if drawn >= 0 and card != drawn:
            # pika.md: a drawn playable card may be played at once (that card only).
            raise IllegalAction("only_drawn_card", f"after drawing you may only play the {NAMES[drawn]} or keep it")
        top = self.discard[-1]
        if self.stack:
            table = CHAINS_ON_WILD_FOUR[self.colour] if top == WILD_FOUR else CHAINS_ON_DRAW_TWO
            if not table[card]:
                raise IllegalAction(
                    "card_not_playable",
                    f"a stack of {self.stack} is pending: only {describe_chain(top, self.colour)} may chain, "
                    "or take the stack",
                )
        elif not MATCHING[top * 4 + self.colour][card]:
            raise IllegalAction(
                "card_not_playable", f"a {name} does not match the {NAMES[top]} in {COLOURS[self.colour]}"
            )
        if flag:
            if len(hand) != 2:
                raise IllegalAction("no_pika_to_call", "Pika is called with the play that leaves you one card")
            move += PIKA_FLAG
        return move

    # ------------------------------------------------------------------ moves

    def _draw_from_pile(self, count: int, events: list[Event]) -> list[int]:
        """Up to `count` cards from the pile, reshuffling the discard (top kept) when it runs out."""
        pile = self.pile
        if len(pile) >= count:
            if count == 1:
                return [pile.pop()]
            taken = pile[-count:]
            del pile[-count:]
            taken.reverse()
            return taken
        taken = []
        while len(taken) < count:
            if not pile:
                # pika.md: draw pile empty: the discard pile except its top card is shuffled into a new pile.
                if not self._reshuffle(events):
                    break  # pika.md: if cards are still missing, the player draws what there is
                pile = self.pile
            taken.append(pile.pop())
        return taken

    def _reshuffle(self, events: list[Event]) -> bool:
        discard = self.discard
        if len(discard) < 2:
            return False
        cards = _shuffled(self.rng, discard[:-1])
        cards.reverse()
        self.pile = cards
        top = discard[-1]
        self.discard = [top]
        self.discard_counts = [0] * KINDS
        self.discard_counts[top] = 1
        self._discard_cards = None
        events.append(Event("reshuffle", {"cards": len(cards)}))
        return True

    def _hand_changed(self, seat: int) -> None:
        # pika.md: the alert is cancelled if the hand stops being exactly one card.
        if len(self.hands[seat]) != 1:
            if seat in self.alerts:
                del self.alerts[seat]
            self.called[seat] = False

    def _next_seat(self, skip: int = 1) -> int:
        return (self.turn + skip * self.direction) % self.seat_count

    def _play(self, seat: int, move: int) -> list[Event]:
        card, name, colour, colour_name, value, rank = PLAY_FACTS[move]
        hand = self.hands[seat]
        if self.drawn >= 0:
            # The drawn card went to the right end; take the rightmost copy (identical cards are interchangeable).
            del hand[len(hand) - 1 - hand[::-1].index(card)]
            self.drawn = -1
        else:
            hand.remove(card)
        self.discard.append(card)
        self.discard_counts[card] += 1
        shown = self._discard_cards
        if shown is not None:
            if name in shown:
                shown[name] += 1  # in place: the names keep their card order
            else:
                self._discard_cards = None  # a new name goes in its card order: build it anew
        self.idle_turns = 0
        groups = self.passed[seat]
        if groups:
            if len(groups) == 1:  # the common case of _note_play, inline
                group = groups[0]
                if (group[1] >> card) & 1:
                    if group[0] > len(hand):
                        groups.clear()
                else:
                    group[0] -= 1
                    if not group[0]:
                        groups.clear()
            else:
                self._note_play(seat, card)
        self.colour = colour
        left = len(hand)
        public: dict[str, Any] = {"seat": seat, "card": name, "colour": colour_name, "cards_left": left}
        events = [Event("play", public)]
        if left == 1:
            if move & PIKA_FLAG:
                public["pika"] = True
                self.called[seat] = True
            else:
                # pika.md: down to exactly one card, an alert opens for that player.
                self.alert_serial += 1
                self.alerts[seat] = self.alert_serial
                events.append(
                    Event("pika_alert", {"seat": seat, "alert": self.alert_serial, "seconds": self.alert_seconds})
                )
        elif left == 0:
            self._hand_changed(seat)
            if not value:
                # pika.md: a player who plays their last card wins, and the round ends at once.
                self._end(END_WENT_OUT, events)
                return events
        if value:
            self.stack += value
            public["stack"] = self.stack
            self.turn = (self.turn + self.direction) % self.seat_count
        elif rank == SKIP or (rank == REVERSE and self.seat_count == 2):
            # pika.md: Skip: the next player loses their turn; with 2 players a Reverse acts as a Skip.
            public["skipped"] = self._next_seat()
            self.turn = self._next_seat(2)
        elif rank == REVERSE:
            self.direction = -self.direction
            public["direction"] = "clockwise" if self.direction == 1 else "counterclockwise"
            self.turn = self._next_seat()
        else:
            self.turn = (self.turn + self.direction) % self.seat_count
        return events

    def _note_pass(self, seat: int, kinds: int) -> None:
        # Public deduction: a player who draws or takes a stack instead of playing most likely holds none of the
        # playable `kinds` (pika.md allows passing with a playable card; then a later play shows it and the notes
        # are dropped). Bots may use it (they remember nothing themselves); it reveals nothing hidden.
        groups = self.passed[seat]
        held = len(self.hands[seat])
        if not groups:
            if held:
                groups.append([held, kinds])
            return
        if len(groups) == 1:  # the common case of the loop and _prune_notes below, inline
            group = groups[0]
            group[1] |= kinds
            if group[0] <= 0:
                groups.clear()
                if held > 0:
                    groups.append([held, kinds])
            elif held > group[0]:
                groups.append([held, kinds])
            return
        for group in groups:
            group[1] |= kinds  # cards that avoided older kinds avoid these too
        groups.append([held, kinds])
        self._prune_notes(groups)

    def _note_play(self, seat: int, card: int) -> None:
        groups = self.passed[seat]
        left = len(self.hands[seat])
        redundant = False
        previous = 0
        for group in groups:
            if (group[1] >> card) & 1:
                if group[0] > left:
                    groups.clear()  # it passed holding a playable card (allowed): the deductions were wrong
                    return
            else:
                group[0] -= 1  # the card may have been one of these
            redundant = redundant or group[0] <= previous
            previous = group[0]
        if redundant:
            self._prune_notes(groups)

    @staticmethod
    def _prune_notes(groups: list[list[int]]) -> None:
        # Groups are nested (older ones avoid more kinds); a group no bigger than an older one says nothing new.
        kept: list[list[int]] = []
        for group in groups:
            if group[0] > 0 and (not kept or group[0] > kept[-1][0]):
                kept.append(group)
        del kept[:-NOTE_GROUPS]
        groups[:] = kept

    def _draw(self, seat: int) -> list[Event]:
        table = self.discard[-1] * 4 + self.colour  # a reshuffle keeps the top card, and so the colour
        kinds = MATCHING_MASK[table]
        groups = self.passed[seat]
        hand = self.hands[seat]
        if groups:
            self._note_pass(seat, kinds)
        elif hand:
            groups.append([len(hand), kinds])  # _note_pass's first note, inline
        events: list[Event] = []
        pile = self.pile
        if pile:
            card = pile.pop()
        else:
            drawn = self._draw_from_pile(1, events)
            if not drawn:
                # pika.md: if there is still nothing to draw, drawing passes the turn.
                events.append(Event("draw", {"seat": seat, "count": 0}))
                self.idle_turns += 1
                if not self._stalemate(events):
                    self.turn = self._next_seat()
                return events
            card = drawn[0]
        hand.append(card)  # pika.md: new cards go to the right end
        if len(hand) != 1:  # _hand_changed, inline
            if seat in self.alerts:
                del self.alerts[seat]
            self.called[seat] = False
        self.idle_turns = 0
        playable = IS_PLAYABLE[table][card]
        # pika.md: a playable drawn card may be played at once; otherwise the turn passes.
        events.append(Event("draw", {"seat": seat, "count": 1}, {seat: {"card": NAMES[card], "playable": playable}}))
        if playable:
            self.drawn = card
        else:
            if groups and groups[-1][1] == kinds:
                groups[-1][0] += 1  # the turn passing shows everyone the drawn card could not be played
            self.turn = (self.turn + self.direction) % self.seat_count
        return events

    def _keep(self, seat: int) -> list[Event]:
        self.drawn = -1
        self.turn = (self.turn + self.direction) % self.seat_count
        return [Event("keep", {"seat": seat})]

    def _take_stack(self, seat: int) -> list[Event]:
        top = self.discard[-1]
        self._note_pass(seat, CHAINS_ON_WILD_FOUR_MASK[self.colour] if top == WILD_FOUR else CHAINS_ON_DRAW_TWO_MASK)
        events: list[Event] = []
        amount = self.stack
        taken = self._draw_from_pile(amount, events)
        self.stack = 0
        self.hands[seat].extend(taken)
        self._hand_changed(seat)
        events.append(
            Event(
                "take_stack",
                {"seat": seat, "stack": amount, "count": len(taken)},
                {seat: {"cards": [NAMES[card] for card in taken]}},
            )
        )
        # pika.md: the round ends when a stack is taken while someone holds no cards (the taker takes it anyway).
        if not all(self.hands):
            self._end(END_STACK_TAKEN, events)
            return events
        if taken:
            self.idle_turns = 0
        else:
            self.idle_turns += 1
            if self._stalemate(events):
                return events
        self.turn = self._next_seat()
        return events

    def _stalemate(self, events: list[Event]) -> bool:
        # pika.md: a whole table of turns in a row with nothing to draw and no card played ends the round.
        if self.idle_turns >= self.seat_count:
            self._end(END_STALEMATE, events)
            return True
        return False

    def _call_pika(self, seat: int) -> list[Event]:
        if seat not in self.alerts:
            if self.alerts:
                # pika.md: nobody else can call Pika for or against you.
                raise IllegalAction("not_your_pika", "only the player on one card calls Pika, for themselves")
            raise IllegalAction("no_pika_to_call", "you have no Pika alert open")
        del self.alerts[seat]
        self.called[seat] = True
        return [Event("pika", {"seat": seat})]

    def _expire_alert(self, action: Action) -> list[Event]:
        seat = action.get("seat")
        number = action.get("alert")
        if type(seat) is not int or type(number) is not int:
            raise IllegalAction("bad_action", "alert_expired needs a seat and an alert number")
        if self.alerts.get(seat) != number:
            raise IllegalAction("alert_closed", f"alert {number} of seat {seat} is not open")
        del self.alerts[seat]
        events: list[Event] = []
        # pika.md: no call before the alert closes: 2 penalty cards.
        taken = self._draw_from_pile(PENALTY, events)
        self.hands[seat].extend(taken)
        self._hand_changed(seat)
        events.append(
            Event("penalty", {"seat": seat, "count": len(taken)}, {seat: {"cards": [NAMES[card] for card in taken]}})
        )
        return events

    def _reorder(self, seat: int, action: Action) -> list[Event]:
        order = action["hand"]
        codes = [CODE[name] for name in order]
        if sorted(codes) != sorted(self.hands[seat]):
            raise IllegalAction("bad_hand_order", "a new order must hold exactly the cards in your hand")
        # pika.md: each player's own order is kept; it never changes whose turn it is.
        self.hands[seat] = codes
        return [Event("hand_reordered", {"seat": seat}, {seat: {"hand": list(order)}})]

    def _end(self, reason: str, events: list[Event]) -> None:
        self.over = True
        self.end_reason = reason
        self.drawn = -1
        self.alerts.clear()  # pika.md: alerts are cancelled when the round ends
        self._outcome = self._make_outcome()
        events.append(
            Event(
                END_EVENT,
                {"reason": reason, "placings": list(self._outcome.placings), "cards_left": list(self._outcome.scores)},
            )
        )

    def _make_outcome(self) -> Outcome:
        left = [len(hand) for hand in self.hands]
        # pika.md: ranked by cards left, fewest first; equal count, equal place (1, 2, 2, 4).
        placings = competition_ranking(left, higher_is_better=False)
        return Outcome(placings=placings, scores=left, summary={"reason": self.end_reason, "cards_left": left})

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> View:
        view = self.public_view()
        if seat is not None:
            self._add_private(view, seat)  # into the public view itself: no second dict to merge
        return view

    def public_view(self) -> View:
        """The spectator's view, which is every seat's view but for `private_view`."""
        top = self.discard[-1]
        colour = self.colour
        stack = None
        if self.stack:
            stack = {
                "amount": self.stack,
                "may_chain": describe_chain(top, colour),
                "chain_cards": list(CHAIN_NAMES_ON_WILD_FOUR[colour] if top == WILD_FOUR else CHAIN_NAMES_ON_DRAW_TWO),
            }
        # Per seat: at least `cards` of its cards were held when it last drew or took a stack instead of playing
        # one of `kinds` (public: deduced from what everyone saw; a player may pass holding one). Plain loops: for
        # a few short lists they cost less than map() or comprehensions (CPython 3.11).
        passed = []
        for groups in self.passed:
            notes = []
            for cards, kinds in groups:
                notes.append({"cards": cards, "kinds": _KINDS_HEX.get(kinds) or _kinds_hex(kinds)})
            passed.append(notes)
        shown_discard = self._discard_cards
        called = self.called
        return {
            "game": "pika",
            "seat": None,
            "seats": self.seat_count,
            "to_act": [] if self.over else [self.turn],
            "turn": None if self.over else self.turn,
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "hand_counts": [len(hand) for hand in self.hands],
            "discard_top": NAMES[top],
            "colour": COLOURS[colour],
            "stack": stack,
            "draw_pile": len(self.pile),
            "discard_size": len(self.discard),
            # every card in the discard pile was played face up; by name, in card order
            "discard_cards": (shown_discard or self._build_discard_cards()).copy(),
            "deciding_drawn_card": self.drawn >= 0,  # the player to act drew a playable card
            "alerts": [{"seat": alerted, "may_call": False} for alerted in self.alerts] if self.alerts else [],
            "alert_seconds": self.alert_seconds,
            "called_pika": list(compress(range(self.seat_count), called)) if True in called else [],
            "idle_turns": self.idle_turns,
            "passed": passed,
            "over": self.over,
            "end": self.end_reason,
            "placings": list(self._outcome.placings) if self._outcome else None,
        }

    def _build_discard_cards(self) -> dict[str, int]:
        shown = self._discard_cards = _discard_cards(self.discard_counts)
        return shown

    def private_view(self, seat: int) -> View:
        """What only `seat` sees: its hand (in its own order), the card it drew, and that it may call its alert."""
        private: View = {}
        self._add_private(private, seat)
        return private

    def _add_private(self, view: View, seat: int) -> None:
        # The one builder of a seat's own keys, for private_view and view alike (the same keys in the same order).
        view["seat"] = seat
        if seat in self.alerts:
            view["alerts"] = [{"seat": alerted, "may_call": alerted == seat} for alerted in self.alerts]
        view["hand"] = [NAMES[card] for card in self.hands[seat]]
        view["drawn_card"] = NAMES[self.drawn] if self.drawn >= 0 and seat == self.turn else None

    # ------------------------------------------------------------------ serialisation

    def to_state(self) -> dict[str, Any]:
        return {
            "game": "pika",
            "seats": self.seat_count,
            "options": dict(self.options),
            "hands": [[NAMES[card] for card in hand] for hand in self.hands],
            "pile": [NAMES[card] for card in reversed(self.pile)],  # next card first
            "discard": [NAMES[card] for card in self.discard],  # top last
            "colour": COLOURS[self.colour],
            "direction": self.direction,
            "turn": self.turn,
            "stack": self.stack,
            "drawn": NAMES[self.drawn] if self.drawn >= 0 else None,
            "idle_turns": self.idle_turns,
            "alerts": [[seat, number] for seat, number in self.alerts.items()],
            "called": list(self.called),
            "alert_serial": self.alert_serial,
            "passed": [
                [[cards, [NAMES[card] for card in range(KINDS) if (kinds >> card) & 1]] for cards, kinds in groups]
                for groups in self.passed
            ],
            "over": self.over,
            "end": self.end_reason,
            "rng": self.rng.to_state(),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Pika:
        game = cls(state["seats"], dict(state["options"]), random_from_state(state["rng"]))
        game.hands = [[CODE[name] for name in hand] for hand in state["hands"]]
        game.pile = [CODE[name] for name in reversed(state["pile"])]
        game.discard = [CODE[name] for name in state["discard"]]
        for card in game.discard:
            game.discard_counts[card] += 1
        game.colour = COLOUR_INDEX[state["colour"]]
        game.direction = state["direction"]
        game.turn = state["turn"]
        game.stack = state["stack"]
        game.drawn = CODE[state["drawn"]] if state["drawn"] is not None else -1
        game.idle_turns = state["idle_turns"]
        game.alerts = {seat: number for seat, number in state["alerts"]}
        game.called = list(state["called"])
        game.alert_serial = state["alert_serial"]
        game.passed = [
            [[cards, sum(1 << CODE[name] for name in set(kinds))] for cards, kinds in groups]
            for groups in state["passed"]
        ]
        game.over = state["over"]
        game.end_reason = state["end"]
        if game.over:
            game._outcome = game._make_outcome()
        return game

    # ------------------------------------------------------------------ invariants

    def check_invariants(self) -> list[str]:
        problems: list[str] = []
        counts = [0] * KINDS
        for part in (*self.hands, self.pile, self.discard):
            for card in part:
                counts[card] += 1
        total = sum(counts)
        if total != len(DECK):
            problems.append(f"{total} cards are accounted for instead of {len(DECK)}")
        elif tuple(counts) != DECK_COUNTS:
            wrong = [NAMES[c] for c in range(KINDS) if counts[c] != DECK_COUNTS[c]]
            problems.append(f"the cards are not the deck's: wrong counts of {', '.join(wrong)}")
        if self.discard_counts != [self.discard.count(card) for card in range(KINDS)]:
            problems.append("the discard pile's counts per card are not its cards")
        shown = self._discard_cards
        if shown is not None and list(shown.items()) != list(_discard_cards(self.discard_counts).items()):
            problems.append("the view's discard cards are not the discard pile's counts")
        if not self.discard:
            problems.append("the discard pile is empty")
            return problems
        top = self.discard[-1]
        if top < FIRST_BLACK and COLOUR_OF[top] != self.colour:
            problems.append(f"the colour in play is {COLOURS[self.colour]} on a {NAMES[top]}")
        if self.stack and not STACK_VALUE[top]:
            problems.append(f"a stack of {self.stack} is pending on a {NAMES[top]}")
        if not 0 <= self.turn < self.seat_count:
            problems.append(f"the turn is seat {self.turn}")
        if self.drawn >= 0 and (self.drawn not in self.hands[self.turn] or self.stack):
            problems.append("a drawn card is pending that the player does not hold, or during a stack")
        for seat in self.alerts:
            if len(self.hands[seat]) != 1:
                problems.append(f"seat {seat} has an alert open with {len(self.hands[seat])} cards")
        if self.over:
            if self._outcome is None or self.alerts:
                problems.append("the round is over without an outcome, or with an alert open")
        else:
            if any(not hand for hand in self.hands) and not self.stack:
                problems.append("a player holds no cards but the round goes on without a stack pending")
            if self.idle_turns >= self.seat_count:
                problems.append("a whole table of idle turns passed but the round goes on")
            if not self.legal_actions(self.turn):
                problems.append(f"seat {self.turn} must act but has no legal action")
        for seat in range(self.seat_count):
            view = self.view(seat)
            if sorted(view["hand"]) != sorted(NAMES[card] for card in self.hands[seat]):
                problems.append(f"seat {seat}'s view does not show its hand")
            if view["hand_counts"] != [len(hand) for hand in self.hands] or view["draw_pile"] != len(self.pile):
                problems.append(f"seat {seat}'s view miscounts the cards")
        if "hand" in self.view(None):
            problems.append("the spectator's view shows a hand")
        return problems
