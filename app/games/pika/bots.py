"""Pika bots. Each sees only its own seat's view and its legal actions, and remembers nothing between calls.

- easy: a random legal play (a Joker or +4 comes with each colour, so black cards come up often); it draws only
  when it has no card to play, plays a drawn card it may play, and chains on a stack whenever it can. It forgets
  to call Pika 30% of the time: it then plays its second-to-last card without the call and never calls during the
  alert (it calls with the play or not at all).
- medium: heuristics: always calls Pika; plays coloured cards before black ones; keeps its colour flexible; picks
  the colour it holds most; stacks back on a +2/+4 with the cheapest card it may; attacks a player close to going out.
- hard: determinized Monte Carlo. For a fixed number of samples it deals the cards it cannot see (every card not
  in its hand or on the discard pile) at random into the other hands and the draw pile, tries every candidate move
  on that sample and plays the round on with a quick policy for a fixed number of turns, scoring the end by the
  cards left. The move with the best total wins. Fixed budget: SAMPLES deals per decision, each candidate played
  on for PLAYOUT_ROUNDS turns per seat. The deals respect what everyone saw (view "passed": a player who drew or
  took a stack instead of playing is dealt cards that would not have gone then), and every candidate meets the same
  deal and the same later luck (common random numbers), so the comparison is between moves, not between deals.
"""

from __future__ import annotations

from itertools import cycle
from math import exp

from app.games.base import Action, Bot, View
from app.games.pika.cards import (
    CHAINS_ON_DRAW_TWO,
    CHAINS_ON_WILD_FOUR,
    CODE,
    COLOUR_INDEX,
    COLOUR_OF,
    COLOURS,
    DECK_COUNTS,
    FIRST_BLACK,
    IS_DRAW_TWO,
    KINDS,
    MATCHING,
    RANK_OF,
    REVERSE,
    SKIP,
    WILD_FOUR,
)

FORGET_PIKA = 0.3  # how often the easy bot forgets to call Pika

# ---------------------------------------------------------------------------------------------------- easy


class EasyBot(Bot):
    """Random plays; draws only when it cannot play; forgets Pika 30% of the time. Needs no view (fast)."""

    level = "easy"
    needs_view = False

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        # The engine lists the seat's plays (each flagged twin right after its play), then draw/keep/take, then
        # the Pika call when an alert is open.
        count = len(legal)
        if count and legal[-1]["type"] == "pika":
            count -= 1  # it never calls during the alert
        if count <= 1:
            return legal[0] if count else None
        count -= 1  # draw / keep / take only when there is nothing to play
        random = self.rng.random
        index = int(random() * count)
        action = legal[index]
        if action.get("pika"):
            index -= 1
            action = legal[index]
        if legal[index + 1].get("pika") and random() >= FORGET_PIKA:
            return legal[index + 1]
        return action


# ---------------------------------------------------------------------------------------------------- shared


def _colour_counts(hand: list[int]) -> list[int]:
    counts = [0, 0, 0, 0]
    for card in hand:
        if card < FIRST_BLACK:
            counts[card // 13] += 1
    return counts


def _best_colour(hand: list[int], rng_random) -> int:
    """The colour the hand holds most of (its +2s count double, so a +4 can be answered); ties at random."""
    counts = [0.0, 0.0, 0.0, 0.0]
    for card in hand:
        if card < FIRST_BLACK:
            counts[card // 13] += 2.0 if IS_DRAW_TWO[card] else 1.0
    best = max(counts)
    choices = [colour for colour in range(4) if counts[colour] == best]
    return choices[int(rng_random() * len(choices))] if len(choices) > 1 else choices[0]


def _pika_call(legal: list[Action]) -> Action | None:
    for action in legal:
        if action["type"] == "pika":
            return action
    return None


def _plays(legal: list[Action]) -> dict[int, list[Action]]:
    """card code -> its play actions, preferring the ones that call Pika."""
    plays: dict[int, list[Action]] = {}
    flagged = any(action.get("pika") for action in legal)
    for action in legal:
        if action["type"] != "play":
            continue
        if flagged and not action.get("pika"):
            continue  # always call Pika with the play that leaves one card
        plays.setdefault(CODE[action["card"]], []).append(action)
    return plays


def _with_colour(actions: list[Action], colour: int) -> Action:
    for action in actions:
        if action.get("colour") == COLOURS[colour]:
            return action
    return actions[0]


def _find(legal: list[Action], kind: str) -> Action | None:
    for action in legal:
        if action["type"] == kind:
            return action
    return None


# ---------------------------------------------------------------------------------------------------- medium


class MediumBot(Bot):
    """Sound heuristics, no search."""

    level = "medium"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        call = _pika_call(legal)
        if call is not None:
            return call  # pika.md: call before the alert closes
        if not legal:
            return None
        assert view is not None
        hand = [CODE[name] for name in view["hand"]]
        plays = _plays(legal)
        fallback = _find(legal, "take_stack") or _find(legal, "keep") or _find(legal, "draw")
        if not plays:
            return fallback
        card = medium_card(view, hand, list(plays), self.rng.random)
        actions = plays[card]
        if card >= FIRST_BLACK:
            rest = list(hand)
            rest.remove(card)
            return _with_colour(actions, _best_colour(rest, self.rng.random))
        return actions[0]


def medium_card(view: View, hand: list[int], cards: list[int], rng_random) -> int:
    """The card the medium heuristics play among `cards` (all playable now, at least one)."""
    seats = view["seats"]
    me = view["seat"]
    step = 1 if view["direction"] == "clockwise" else -1
    counts = view["hand_counts"]
    next_seat = (me + step) % seats
    next_count = counts[next_seat]
    if view["stack"]:
        # Stack back with the cheapest card: a +2 before a +4.
        twos = [card for card in cards if card != WILD_FOUR]
        return twos[0] if twos else cards[0]
    colour_counts = _colour_counts(hand)
    best = cards[0]
    best_score = -1e9
    for card in cards:
        score = 0.0
        if card >= FIRST_BLACK:
            # Keep black cards for when nothing else goes, unless the next player is about to go out.
            score -= 6.0
            if card == WILD_FOUR and next_count <= 2:
                score += 9.0
        else:
            colour = COLOUR_OF[card]
            rank = RANK_OF[card]
            # Stay in the colour held most, so the next turn has a card too.
            score += colour_counts[colour]
            if rank == SKIP or (rank == REVERSE and seats == 2):
                score += 3.0 if len(hand) > 1 else 0.0  # plays again (2 players) or stops the next player
            elif rank == REVERSE:
                score += 1.0
            elif rank == 12:
                # A +2 is also a shield against a stack; throw it at a player close to going out.
                score += 4.0 if next_count <= 3 else -1.5
            else:
                score += 0.1 * rank  # rid high numbers first (tie break)
        score += rng_random() * 0.01
        if score > best_score:
            best, best_score = card, score
    return best  # a drawn card that goes is played rather than kept


# ---------------------------------------------------------------------------------------------------- hard

SAMPLES = 96  # determinizations per decision
PLAYOUT_ROUNDS = 7  # a playout plays this many turns per seat, then scores the cards left
SLOPE = 0.45  # the weight of a card more or less than another player at the end of a playout
DRAWS_SHUFFLED = 40  # pile cards shuffled per sample (a playout rarely draws more)

# MATCHING without the black cards: the quick policy plays a coloured card when it has one.
MATCHING_COLOURED = tuple(bytes(table[card] if card < FIRST_BLACK else 0 for card in range(KINDS)) for table in MATCHING)


class HardBot(Bot):
    """Determinized Monte Carlo within a fixed budget: `samples` deals x each candidate move, each played on for
    `playout_rounds` turns per seat."""

    level = "hard"
    samples = SAMPLES
    playout_rounds = PLAYOUT_ROUNDS

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        call = _pika_call(legal)
        if call is not None:
            return call
        if not legal:
            return None
        assert view is not None
        random = self.rng.random
        hand = [CODE[name] for name in view["hand"]]
        plays = _plays(legal)
        other = _find(legal, "take_stack") or _find(legal, "keep") or _find(legal, "draw")
        # Candidates: each distinct card (a black one with the colour the hand holds most) and take/keep; a
        # voluntary draw only when every playable card is black (holding them may be worth a card).
        candidates: list[tuple[int, int, Action]] = []  # (card, colour, action)
        for card, actions in plays.items():
            if card >= FIRST_BLACK:
                rest = list(hand)
                rest.remove(card)
                colour = _best_colour(rest, random)
                candidates.append((card, colour, _with_colour(actions, colour)))
            else:
                candidates.append((card, COLOUR_OF[card], actions[0]))
        if other is not None and (
            other["type"] != "draw" or not candidates or all(card >= FIRST_BLACK for card, _, _ in candidates)
        ):
            candidates.append((-1, -1, other))
        if len(candidates) == 1:
            return candidates[0][2]
        totals = search(
            view,
            hand,
            [(card, colour) for card, colour, _ in candidates],
            self.samples,
            self.playout_rounds * view["seats"],
            random,
        )
        best = max(range(len(candidates)), key=lambda index: totals[index])
        return candidates[best][2]


def search(
    view: View, hand: list[int], candidates: list[tuple[int, int]], samples: int, turns: int, random
) -> list[float]:
    """Total playout value of each candidate (card, colour); card -1 is the non-play (draw, keep or take)."""
    seats = view["seats"]
    me = view["seat"]
    counts = view["hand_counts"]
    step = 1 if view["direction"] == "clockwise" else -1
    colour = COLOUR_INDEX[view["colour"]]
    stack = view["stack"]["amount"] if view["stack"] else 0
    top = CODE[view["discard_top"]]
    drawn = CODE[view["drawn_card"]] if view["drawn_card"] else -1
    # The cards I cannot see: the deck minus my hand minus the discard pile (all played face up).
    missing = list(DECK_COUNTS)
    for card in hand:
        missing[card] -= 1
    discard: list[int] = []
    for name, count in view["discard_cards"].items():
        code = CODE[name]
        missing[code] -= count
        discard += [code] * count
    discard.remove(top)
    discard.append(top)
    unseen: list[int] = []
    for code in range(KINDS):
        unseen += [code] * missing[code]
    size = len(unseen)
    dealt = sum(counts) - counts[me]
    # What the others passed on (view "passed", which a view from the wire leaves out): those cards are dealt
    # from the kinds that could not be played then.
    notes = []  # (seat, cards, forbidden kinds), each seat's oldest (most forbidding) group first
    for seat, groups in enumerate(view.get("passed", ())):
        if seat != me:
            for group in groups:
                mask = int(group["kinds"], 16)
                forbidden = bytearray((mask >> code) & 1 for code in range(KINDS))
                notes.append((seat, min(group["cards"], counts[seat]), forbidden))
    # Only the cards a sample uses need shuffling: the other hands and the next DRAWS_SHUFFLED of the pile.
    shuffled = min(size, dealt + DRAWS_SHUFFLED)
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        for i in range(shuffled):
            j = i + int(random() * (size - i))
            unseen[i], unseen[j] = unseen[j], unseen[i]
        dealt_hands: list[list[int]] = [[] for _ in range(seats)]
        rest = unseen
        if notes:
            for seat, held, forbidden in notes:
                picked = dealt_hands[seat]
                if len(picked) >= held:
                    continue
                kept = []
                for card in rest:
                    if len(picked) < held and not forbidden[card]:
                        picked.append(card)
                    else:
                        kept.append(card)
                rest = kept
            # The picks skipped the forbidden cards: shuffle again what is left, or the pile would be full of them.
            left = len(rest)
            for i in range(min(left, shuffled)):
                j = i + int(random() * (left - i))
                rest[i], rest[j] = rest[j], rest[i]
        at = 0
        for seat in range(seats):
            if seat != me:
                more = counts[seat] - len(dealt_hands[seat])
                dealt_hands[seat] += rest[at : at + more]
                at += more
        pile_order = rest[at:]
        pile_order.reverse()  # drawn from the end
        # Common random numbers: every candidate meets the same deal and the same later luck.
        luck = [random() for _ in range(turns + 1)]
        for index, (card, chosen) in enumerate(candidates):
            hands = [list(hand) if seat == me else list(dealt_hands[seat]) for seat in range(seats)]
            totals[index] += _try(
                hands, list(pile_order), list(discard), top, colour, step, stack, seats, me, card, chosen, drawn,
                turns, luck,
            )
    return totals


def _refill(pile: list[int], discard: list[int], luck) -> bool:
    """A playout's reshuffle: the discard but its top becomes the pile."""
    if len(discard) < 2:
        return False
    pile[:] = discard[:-1]
    del discard[:-1]
    for i in range(len(pile) - 1, 0, -1):
        j = int(luck() * (i + 1))
        pile[i], pile[j] = pile[j], pile[i]
    return True


def _take(hand: list[int], amount: int, pile: list[int], discard: list[int], luck) -> None:
    for _ in range(amount):
        if not pile and not _refill(pile, discard, luck):
            return
        hand.append(pile.pop())


def _try(hands, pile, discard, top, colour, step, stack, seats, me, card, chosen, drawn, turns, luck) -> float:
    """Make my candidate move on a sampled deal, play on, and score the result for me."""
    turn = me
    shuffle_luck = cycle(luck).__next__
    if card >= 0:
        return _playout(hands, pile, discard, top, colour, step, turn, stack, seats, me, turns, luck, card, chosen)
    if drawn >= 0:
        pass  # keep the drawn card
    elif stack:
        _take(hands[me], stack, pile, discard, shuffle_luck)
        stack = 0
        for other in hands:
            if not other:
                return _score(hands, me)
    else:
        # A voluntary draw; the quick policy plays the card at once if it is a coloured card that goes.
        before = len(hands[me])
        _take(hands[me], 1, pile, discard, shuffle_luck)
        if len(hands[me]) > before:
            new = hands[me][-1]
            if MATCHING_COLOURED[top * 4 + colour][new]:
                return _playout(hands, pile, discard, top, colour, step, turn, stack, seats, me, turns, luck, new, -1)
    turn = (turn + step) % seats
    return _playout(hands, pile, discard, top, colour, step, turn, stack, seats, me, turns, luck, -1, -1)


def _score(hands: list[list[int]], me: int) -> float:
    """Value for me: 1 out first (or equal first), 0 when another is out, else a guess at my chance to finish
    first: the product, over the others, of a logistic in how many cards more they hold than I do."""
    mine = len(hands[me])
    if mine == 0:
        return 1.0
    value = 1.0
    for seat, hand in enumerate(hands):
        if seat != me:
            if not hand:
                return 0.0
            value /= 1.0 + exp(SLOPE * (mine - len(hand)))
    return value


def _playout(hands, pile, discard, top, colour, step, turn, stack, seats, me, turns, luck, forced, forced_colour):
    """Play on with a quick policy: chain when possible (a +2 before a +4), a random coloured card before a black
    one, a black card's colour the one held most; draw when nothing goes and play the drawn card if it goes."""
    shuffle_luck = cycle(luck).__next__
    for step_index in range(turns):
        hand = hands[turn]
        if forced >= 0:
            card = forced
            forced = -1
        elif stack:
            table = CHAINS_ON_WILD_FOUR[colour] if top == WILD_FOUR else CHAINS_ON_DRAW_TWO
            card = -1
            for held in hand:
                if table[held]:
                    card = held
                    if held != WILD_FOUR:
                        break
            if card < 0:
                _take(hand, stack, pile, discard, shuffle_luck)
                stack = 0
                for other in hands:
                    if not other:
                        return _score(hands, me)
                turn = (turn + step) % seats
                continue
        else:
            table = MATCHING_COLOURED[top * 4 + colour]
            playable = [held for held in hand if table[held]]
            if playable:
                # The n-th turn of every candidate's playout draws the same number, so their luck stays paired.
                card = playable[int(luck[step_index] * len(playable))] if len(playable) > 1 else playable[0]
            else:
                card = -1
                for held in hand:
                    if held >= FIRST_BLACK:
                        card = held
                        break
                if card < 0:
                    if not pile and not _refill(pile, discard, shuffle_luck):
                        turn = (turn + step) % seats
                        continue
                    new = pile.pop()
                    hand.append(new)
                    if new >= FIRST_BLACK or table[new]:
                        card = new
                    else:
                        turn = (turn + step) % seats
                        continue
        hand.remove(card)
        discard.append(card)
        top = card
        if card >= FIRST_BLACK:
            if forced_colour >= 0:
                colour = forced_colour
                forced_colour = -1
            else:
                held_colours = [0, 0, 0, 0]
                for held in hand:
                    if held < FIRST_BLACK:
                        held_colours[held // 13] += 1
                colour = held_colours.index(max(held_colours))
            if card == WILD_FOUR:
                stack += 4
            elif not hand:
                return _score(hands, me)
            turn = (turn + step) % seats
            continue
        colour = card // 13
        rank = card % 13
        if rank == 12:
            stack += 2
            turn = (turn + step) % seats
            continue
        if not hand:
            return _score(hands, me)
        if rank == SKIP or (rank == REVERSE and seats == 2):
            turn = (turn + 2 * step) % seats
        elif rank == REVERSE:
            step = -step
            turn = (turn + step) % seats
        else:
            turn = (turn + step) % seats
    return _score(hands, me)
