"""Stakes bots: easy, medium and hard, each choosing from the legal actions with only its own seat's view.

- Easy: random legal play (an action kind at random, then a variant), never banking below a low threshold.
- Medium: banks by the chance that the next flip busts, counting the cards seen since the last shuffle (the deck
  holds exactly the cards not in `seen_since_shuffle`), and its own peeked card when it knows it; in the Duel it
  banks as soon as that wins the round and cold-twists when its bank is losing.
- Hard: for every legal action, the mean result of playing the rest of the round out from that action, over a FIXED
  number of sampled deals consistent with its view (the unseen cards shuffled, its own peeked cards on top in the
  order it knows), everyone then playing the medium policy. The same sampled deal and dice serve every candidate
  (common random numbers), so the comparison is fair with few samples. The result counted is the round score
  against the others' average (plus the value of leverage dice) in the standard game, the round won or lost (plus
  the dice balance after pressure) in the Duel. That captures twisting to bust live opponents, devaluing a Duel
  bank, exact hits and shields without special cases.

The bots work on `Table`, a compact copy of one round (card codes, value counts), not on the engine: cheap to copy
thousands of times per decision. It follows the same rules as the engine (stakes.md); the tests check that a
`Table` played with the engine's deck and dice agrees with the engine.
"""

from __future__ import annotations

import random

from app.games.base import Action, Bot, View
from app.games.stakes.cards import EFFECT, FULL_DECK, VALUE
from app.games.stakes.rules import EXACT_BONUS, TARGET_BASE

LIVE, BANKED, BUSTED = 0, 1, 2
JACK, QUEEN, KING = 11, 12, 13
VALUE_OF_CODE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0]
CODE: dict[str, int] = {
    card: {"peek": JACK, "shield": QUEEN, "nudge": KING}[EFFECT[card]] if EFFECT[card] else VALUE[card]
    for card in FULL_DECK
}
_STATUS = {"live": LIVE, "banked": BANKED, "busted": BUSTED}

EASY_BANK_MIN = 10  # easy never banks below this total
MEDIUM_BUST_RISK = 0.5  # medium banks once the next flip busts at least this often
HARD_SAMPLES = 40  # hard: sampled deals per decision, each playing out every candidate action
STANDARD_DIE_VALUE = 2.0  # hard, standard game: a leverage die counts as this many round points
DUEL_DIE_VALUE = 0.15  # hard, Duel: a leverage die counts as this fraction of a round win


class Table:
    """One round of Stakes in compact form: cards are codes (1-10 number cards, 11 J, 12 Q, 13 K)."""

    __slots__ = (
        "n", "duel", "a", "b", "totals", "status", "shields", "dice", "first", "exact", "pot", "turn",
        "deck", "discard", "counts", "done",
    )

    def copy(self) -> Table:
        t = Table.__new__(Table)
        t.n = self.n
        t.duel = self.duel
        t.a = self.a
        t.b = self.b
        t.totals = self.totals[:]
        t.status = self.status[:]
        t.shields = self.shields[:]
        t.dice = self.dice[:]
        t.first = self.first[:]
        t.exact = self.exact[:]
        t.pot = self.pot
        t.turn = self.turn
        t.deck = self.deck[:]
        t.discard = self.discard[:]
        t.counts = self.counts[:]
        t.done = self.done
        return t

    @property
    def target(self) -> int:
        return self.a + self.b + TARGET_BASE  # stakes.md: target = die A + die B + 10

    def set_deck(self, top_first: list[int]) -> None:
        """The deck, top card first (stored reversed, so the top is popped from the end)."""
        self.deck = top_first[::-1]
        counts = [0] * 11
        for code in top_first:
            counts[VALUE_OF_CODE[code]] += 1
        self.counts = counts

    def bust_chance(self, seat: int) -> float:
        """The chance that the next card busts `seat`, from the deck's value counts."""
        room = self.target - self.totals[seat]
        size = len(self.deck) or 1
        if room >= 10:
            return 0.0
        return sum(self.counts[room + 1 :] if room >= 0 else self.counts) / size

    # ------------------------------------------------------------------------------------------ rules

    def can_take_turn(self, seat: int) -> bool:
        status = self.status[seat]
        if status == LIVE:
            return True
        return self.duel and status == BANKED and self.dice[seat] > 0 and self.status[1 - seat] == LIVE

    def end_turn(self, seat: int) -> None:
        if LIVE not in self.status:
            self.done = True
            return
        n = self.n
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.can_take_turn(candidate):
                self.turn = candidate
                return
        self.done = True

    def bust_over_target(self) -> None:
        target = self.target
        for s in range(self.n):
            if self.status[s] == LIVE and self.totals[s] > target:
                self.status[s] = BUSTED

    def draw(self, rng: random.Random) -> int | None:
        if not self.deck:
            if not self.discard:
                return None
            pile = self.discard
            self.discard = []
            rng.shuffle(pile)
            self.set_deck(pile)
        code = self.deck.pop()
        self.counts[VALUE_OF_CODE[code]] -= 1
        return code

    def flip(self, seat: int, rng: random.Random) -> bool:
        """Flip for `seat`; True when a King's Nudge is now owed."""
        self.first[seat] = False
        code = self.draw(rng)
        if code is None:
            return False
        value = VALUE_OF_CODE[code]
        if self.totals[seat] + value > self.target:
            if self.shields[seat] > 0:
                self.shields[seat] -= 1
                self.discard.append(code)
                return False
            self.totals[seat] += value
            self.status[seat] = BUSTED
            return False
        self.totals[seat] += value
        if code == QUEEN:
            self.shields[seat] += 1
        return code == KING

    def bank(self, seat: int) -> None:
        self.status[seat] = BANKED
        if self.totals[seat] == self.target:
            self.exact[seat] = True
            if self.duel:
                other = 1 - seat
                if self.dice[other] > 0:
                    self.dice[other] -= 1
                    self.dice[seat] += 1
            elif self.pot > 0:
                self.pot -= 1
                self.dice[seat] += 1

    def twist(self, seat: int, die: str, rng: random.Random) -> None:
        self.dice[seat] -= 1
        self.pot += 1
        roll = int(rng.random() * 6) + 1
        if die == "a":
            self.a = roll
        else:
            self.b = roll
        self.bust_over_target()

    def nudge(self, die: str, step: int) -> None:
        if die == "a":
            self.a += step
        else:
            self.b += step
        self.bust_over_target()

    def act(self, seat: int, move: tuple, rng: random.Random) -> None:
        """Apply one move (a tuple) for `seat`, its Nudge if a King came, and pass the turn."""
        kind = move[0]
        if kind == "flip":
            if self.flip(seat, rng):
                die, step = medium_nudge(self, seat)
                self.nudge(die, step)
        elif kind == "bank":
            self.bank(seat)
        elif kind == "twist":
            self.twist(seat, move[1], rng)
        elif kind == "nudge":
            self.nudge(move[1], move[2])
        elif kind == "put_back":
            # the two top cards (popped from the end) in the order chosen
            self.deck[-1], self.deck[-2] = move[1], move[2]
        self.end_turn(seat)

    def play_out(self, rng: random.Random) -> None:
        """Everyone plays the medium policy to the end of the round."""
        guard = 0
        while not self.done and guard < 400:
            seat = self.turn
            self.act(seat, medium_move(self, seat), rng)
            guard += 1

    # ---------------------------------------------------------------------------------------- results

    def round_scores(self) -> list[int]:
        return [
            (self.totals[s] + (EXACT_BONUS if self.exact[s] else 0)) if self.status[s] == BANKED else 0
            for s in range(self.n)
        ]

    def duel_winner(self) -> tuple[str, int | None]:
        target = self.target
        banked = [s for s in (0, 1) if self.status[s] == BANKED]
        if not banked:
            return "dead", None
        if len(banked) == 1:
            return "won", banked[0]
        keys = [(self.totals[s] > target, abs(target - self.totals[s])) for s in (0, 1)]
        if keys[0] == keys[1]:
            return "drawn", None
        return "won", 0 if keys[0] < keys[1] else 1

    def duel_pressure(self, result: str, winner: int | None) -> None:
        owing = [1 - winner] if winner is not None else ([0, 1] if result == "dead" else [])
        for seat in owing:
            if not self.exact[seat] and self.dice[seat] > 0:
                self.dice[seat] -= 1
                self.pot += 1


def table_from_view(view: View) -> tuple[Table, list[int], list[int]]:
    """The round as `view` shows it, plus the unseen cards (codes) and the known top of the deck (codes, top first).

    The deck is exactly the cards not in `seen_since_shuffle`; the view's own Peek, when its order is known, tells
    the top of it.
    """
    t = Table.__new__(Table)
    players = view["players"]
    t.n = len(players)
    t.duel = view["mode"] == "duel"
    t.a = view["center_dice"]["a"]
    t.b = view["center_dice"]["b"]
    t.totals = [p["total"] for p in players]
    t.status = [_STATUS[p["status"]] for p in players]
    t.shields = [p["shields"] for p in players]
    t.dice = [p["dice"] for p in players]
    t.first = [p["first_turn"] for p in players]
    t.exact = [p["banked_exact"] for p in players]
    t.pot = view["pot"]
    t.turn = view["turn"]
    t.done = False
    seen = set(view["seen_since_shuffle"])
    on_table = {card for p in players for card in p["row"]}
    t.discard = [CODE[card] for card in view["seen_since_shuffle"] if card not in on_table]
    known: list[str] = []
    peek = view.get("my_peek")
    pending = view.get("pending")
    if pending and pending.get("cards"):
        known = list(pending["cards"])
    elif peek and peek["order_known"]:
        known = list(peek["cards"])
    unseen = [CODE[card] for card in FULL_DECK if card not in seen and card not in known]
    top = [CODE[card] for card in known]
    t.set_deck(top + unseen)
    return t, unseen, top


# -------------------------------------------------------------------------------------------- medium policy


def medium_move(t: Table, seat: int, top_known: int | None = None) -> tuple:
    """The medium policy's move for `seat` on its turn (no pending decision)."""
    target = t.target
    total = t.totals[seat]
    if t.status[seat] == BANKED:
        return medium_cold_twist(t, seat)
    if t.first[seat]:
        return ("flip",)  # stakes.md: the first turn of a round must be a Flip
    if total == 0:
        return ("flip",)
    if total == target:
        return ("bank",)  # an exact hit: +5 and a die (or a stolen die in the Duel)
    if t.duel:
        other = 1 - seat
        if t.status[other] == BUSTED:
            return ("bank",)  # any bank beats a busted opponent
        if t.status[other] == BANKED:
            theirs = t.totals[other]
            if theirs > target or total > theirs:
                return ("bank",)  # banking now wins the round at this target
            return ("flip",)  # banking would lose or draw: keep going
    if t.shields[seat] > 0:
        return ("flip",)  # a Shield takes the next busting card
    if top_known is not None:
        risk = 1.0 if total + VALUE_OF_CODE[top_known] > target else 0.0
    else:
        risk = t.bust_chance(seat)
    return ("bank",) if risk >= MEDIUM_BUST_RISK else ("flip",)


def _duel_bank_wins(banked: int, live: int, target: int) -> bool:
    """Would `banked` beat a live opponent holding `live` if they banked at `target` (or are they bust)?"""
    if live > target:
        return True
    return banked <= target and banked > live


def medium_cold_twist(t: Table, seat: int) -> tuple:
    """Duel, banked: pass while the bank is winning, else twist the die most likely to make it win."""
    other = 1 - seat
    mine, theirs = t.totals[seat], t.totals[other]
    if t.dice[seat] == 0 or _duel_bank_wins(mine, theirs, t.target):
        return ("pass",)
    best, best_count = None, 0
    for die, keep in (("a", t.b), ("b", t.a)):
        count = sum(1 for roll in range(1, 7) if _duel_bank_wins(mine, theirs, keep + roll + TARGET_BASE))
        if count > best_count:
            best, best_count = die, count
    return ("twist", best) if best else ("pass",)


def nudge_options(t: Table) -> list[tuple[str, int]]:
    return [(die, step) for die in ("a", "b") for step in (1, -1) if 1 <= (t.a if die == "a" else t.b) + step <= 6]


def medium_nudge(t: Table, seat: int) -> tuple[str, int]:
    """Raise the target when that is allowed and safe; bust a live opponent with a lowered one if possible."""
    best, best_score = None, None
    target = t.target
    for die, step in nudge_options(t):
        new_target = target + step
        score = step
        if t.totals[seat] > new_target:
            score -= 100
        for other in range(t.n):
            if other != seat and t.status[other] == LIVE and t.totals[other] > new_target:
                score += 3
        if best_score is None or score > best_score:
            best, best_score = (die, step), score
    assert best is not None
    return best


def medium_put_back(t: Table, seat: int, cards: list[int]) -> list[int]:
    """Order the two peeked cards (top first): feed the next flipper a busting card, or keep a good one for me."""
    target = t.target
    nxt = None
    for step in range(1, t.n + 1):
        candidate = (seat + step) % t.n
        if t.status[candidate] == LIVE:
            nxt = candidate
            break
    first, second = cards
    if nxt is None:
        return [first, second]

    def busts(code: int) -> bool:
        return t.totals[nxt] + VALUE_OF_CODE[code] > target

    if nxt == seat:
        # the next flip is mine: a safe card first, the bigger of two safe ones
        if busts(first) != busts(second):
            return [second, first] if busts(first) else [first, second]
        return sorted(cards, key=lambda c: VALUE_OF_CODE[c], reverse=True)
    if busts(first) != busts(second):
        return [first, second] if busts(first) else [second, first]
    return sorted(cards, key=lambda c: VALUE_OF_CODE[c], reverse=True)


# ------------------------------------------------------------------------------------------------ the bots


def _to_move(action: Action) -> tuple:
    kind = action["type"]
    if kind == "twist":
        return ("twist", action["die"])
    if kind == "nudge":
        return ("nudge", action["die"], 1 if action["direction"] == "up" else -1)
    if kind == "put_back":
        return ("put_back", CODE[action["cards"][0]], CODE[action["cards"][1]])
    return (kind,)


def _pick(legal: list[Action], move: tuple) -> Action:
    for action in legal:
        if _to_move(action) == move:
            return action
    return legal[0]


def _me(view: View) -> int:
    return view["seat"]


class EasyBot(Bot):
    """Random legal play: an action kind at random, then a variant; never banks below EASY_BANK_MIN."""

    level = "easy"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        assert view is not None
        me = _me(view)
        if view["players"][me]["total"] < EASY_BANK_MIN:
            allowed = [a for a in legal if a["type"] != "bank"] or legal
        else:
            allowed = legal
        kinds = sorted({a["type"] for a in allowed})
        kind = kinds[self.rng.randrange(len(kinds))]
        variants = [a for a in allowed if a["type"] == kind]
        return variants[self.rng.randrange(len(variants))]


class MediumBot(Bot):
    """Banks by the chance of busting on the next flip, counted from the cards seen since the last shuffle."""

    level = "medium"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        assert view is not None
        me = _me(view)
        t, _unseen, top = table_from_view(view)
        kind = legal[0]["type"]
        if kind == "put_back":
            order = medium_put_back(t, me, [CODE[c] for c in legal[0]["cards"]])
            return _pick(legal, ("put_back", order[0], order[1]))
        if kind == "nudge":
            die, step = medium_nudge(t, me)
            return _pick(legal, ("nudge", die, step))
        return _pick(legal, medium_move(t, me, top[0] if top else None))


class HardBot(Bot):
    """Determinized Monte Carlo over the rest of the round: HARD_SAMPLES sampled deals, every legal action each."""

    level = "hard"
    samples = HARD_SAMPLES

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        assert view is not None
        me = _me(view)
        base, unseen, top = table_from_view(view)
        moves = [_to_move(a) for a in legal]
        scores = [0.0] * len(moves)
        dice_before = base.dice[:]
        for _ in range(self.samples):
            shuffled = unseen[:]
            self.rng.shuffle(shuffled)
            deal = top + shuffled
            seed = self.rng.getrandbits(32)
            for index, move in enumerate(moves):
                table = base.copy()
                table.set_deck(deal)
                rng = random.Random(seed)
                table.act(me, move, rng)
                table.play_out(rng)
                scores[index] += _result_for(table, me, dice_before)
        best = max(range(len(moves)), key=lambda i: scores[i])
        return legal[best]


def _result_for(t: Table, me: int, dice_before: list[int]) -> float:
    """How good the finished round is for `me` (see the module docstring)."""
    if t.duel:
        result, winner = t.duel_winner()
        t.duel_pressure(result, winner)
        other = 1 - me
        won = 0.0 if winner is None else (1.0 if winner == me else -1.0)
        balance = (t.dice[me] - t.dice[other]) - (dice_before[me] - dice_before[other])
        return won + DUEL_DIE_VALUE * balance
    scores = t.round_scores()
    others = (sum(scores) - scores[me]) / (t.n - 1)
    return scores[me] - others + STANDARD_DIE_VALUE * (t.dice[me] - dice_before[me])
