"""Bots for The Piker. They see only their own seat's view and the legal actions, and remember nothing.

- easy: a random legal action.
- medium: values a face-down card by its tier alone, takes the lead on the best card it can with the smallest die
  that does it, and keeps dice in the After Market for the cards it must secure.
- hard: first claims its After Market spots: while the After Market is open and it has fewer than
  AFTER_MARKET_CLAIM dice there (two of the four spots with 2 players, three with more), its highest die goes there
  (spots are first come, first served, and only After Market dice secure: a bot that waited lost the spots to a plan
  that did not, docs/bots.md). Then it values each card from the faces its tier may still hide (victory points, the
  sets it would grow, the chance to secure it) and, for each candidate die, samples the opponents' hidden dice a fixed
  number of times (HARD_SAMPLES by seat count, not a time budget) to see which placement wins the most worth, bidding
  just enough over the dice already placed and planning how many more dice the After Market needs; in those samples
  an opponent's die goes to the After Market at least half the time while it is open (OPPONENT_AFTER_MARKET_CHANCE),
  so a spot is not counted on as if nobody else wanted it.

All levels but easy secure with the engine's suggested allocation (the view's `decision.suggested`, computed by
securing.best_allocation), so a table that hands a timed-out seat to a bot secures exactly what the view suggested.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.base import Action, Bot, View
from app.games.piker.cards import (
    BLUE_CHIP,
    BULL_RUN,
    CARDS,
    DIVIDEND,
    DIVIDEND_POINTS,
    EXTRA_CAPITAL,
    GROWTH,
    HOSTILE_TAKEOVER,
    INSIDER_TIP,
    LEVERAGED_BUYOUT,
    MARGIN_CALL,
    SECTORS,
    SPECULATIVE,
    TIERS,
    bonus_for_counts,
)
from app.games.piker.securing import allocation_points

# Determinisations of the opponents' hidden dice per invest decision, by seat count (fixed, not timed). With one
# opponent a sample is the cheapest and the head-to-head game the closest: twice the samples (docs/bots.md).
HARD_SAMPLES = {2: 32, 3: 16, 4: 16}
# The hard bot's highest dice go to the After Market first, until it has this many there. With 2 players the four
# spots alternate, so a racer gets two whatever I claim; a third die there is a die less on the cards (docs/bots.md).
AFTER_MARKET_CLAIM = {2: 2, 3: 3, 4: 3}
OPPONENT_AFTER_MARKET_CHANCE = 0.5  # the least chance the hard bot gives an opponent's next die of taking a spot
TIER_CARDS = {tier: [c for c, card in CARDS.items() if card["tier"] == tier] for tier in TIERS}


# ---------------------------------------------------------------------------------------------- shared decisions


def secure_as_suggested(view: View) -> Action:
    """The engine's suggested allocation, one card at a time, then finish (what a timed-out seat plays)."""
    suggested = view["decision"]["suggested"]
    if suggested:
        first = suggested[0]
        return {
            "type": "secure",
            "card": first["card"],
            "dice": list(first["dice"]),
            "leveraged_buyouts": first["leveraged_buyouts"],
        }
    return {"type": "finish_securing"}


def _me(view: View) -> dict[str, Any]:
    return view["players"][view["you"]]


def _ids(cards: Sequence[dict]) -> list[str]:
    return [c["id"] for c in cards]


def best_bull_run(view: View, legal: list[Action]) -> Action:
    secured = _ids(_me(view)["secured"])
    return max(
        legal,
        key=lambda a: (allocation_points([a["card"]], secured), CARDS[a["card"]]["secure_value"]),
    )


def common_choice(view: View, legal: list[Action]) -> Action | None:
    """Decisions medium and hard bots take alike; None for the Invest and Hostile Takeover steps."""
    step = view["step"]
    if step == "after_market":
        return secure_as_suggested(view)
    if step == "bull_run":
        return best_bull_run(view, legal)
    if step == "extra_capital":
        return {"type": "play_extra_capital"}  # a die now is worth as much as a die later
    if step == "insider_tip":
        # Look where the face is most uncertain: speculative backs first, then growth.
        order = {SPECULATIVE: 0, GROWTH: 1, BLUE_CHIP: 2}
        slots = sorted(range(len(view["market"])), key=lambda i: (order[view["market"][i]["tier"]], i))[:2]
        wanted = {"type": "play_insider_tip", "slots": sorted(slots)}
        return wanted if wanted in legal else legal[0]
    if step == "extra_card":
        return {"type": "extra_card", "add": True}  # the Piker has the most dice and moves first
    return None


# ---------------------------------------------------------------------------------------------- easy


class EasyBot(Bot):
    level = "easy"
    needs_view = False

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        return self.rng.choice(legal) if legal else None


# ---------------------------------------------------------------------------------------------- medium

MEDIUM_TIER_WORTH = {BLUE_CHIP: 2.0, GROWTH: 3.5, SPECULATIVE: 4.0}
MEDIUM_TIER_NEED = {BLUE_CHIP: 4, GROWTH: 7, SPECULATIVE: 7}  # pips to keep in the After Market per card won


def richest_takeover(legal: list[Action]) -> Action:
    """Hostile Takeover: take the offered card worth the most victory points."""
    return max((a for a in legal if a["type"] == "play_hostile_takeover"),
               key=lambda a: CARDS[a["card"]]["victory_points"])


class MediumBot(Bot):
    level = "medium"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        choice = common_choice(view, legal)
        if choice is not None:
            return choice
        if view["step"] == "hostile_takeover":
            return richest_takeover(legal)
        return self.place(view, legal)

    def place(self, view: View, legal: list[Action]) -> Action:
        me = view["you"]
        hand = sorted(view["my_dice"])
        am_open = view["after_market"]["open"]
        my_am = sum(d["pips"] for d in view["after_market"]["dice"] if d["seat"] == me)
        leading = []
        for slot in view["market"]:
            others = max((p for s, p in enumerate(slot["pips"]) if s != me), default=0)
            if slot["pips"][me] > others:
                leading.append(slot)
        need = sum(c["secure_value"] for c in _me(view)["unsecured"]) + sum(
            MEDIUM_TIER_NEED[s["tier"]] for s in leading
        )
        # Keep dice for securing: the After Market fills up, so go there early with a high die.
        if am_open and my_am < need and my_am < 14:
            return {"type": "place_die", "pips": hand[-1], "on": "after_market"}
        best = None
        for slot in view["market"]:
            others = max((p for s, p in enumerate(slot["pips"]) if s != me), default=0)
            mine = slot["pips"][me]
            if mine > others:
                continue
            for die in hand:
                if mine + die > others:
                    score = MEDIUM_TIER_WORTH[slot["tier"]] - 0.35 * die
                    if best is None or score > best[0]:
                        best = (score, die, slot["slot"])
                    break
        if best is not None:
            return {"type": "place_die", "pips": best[1], "on": "card", "slot": best[2]}
        if am_open:
            return {"type": "place_die", "pips": hand[-1], "on": "after_market"}
        # Nothing to lead: strengthen the best card I lead on with my lowest die.
        target = max(view["market"], key=lambda s: (MEDIUM_TIER_WORTH[s["tier"]], s["pips"][me]))
        return {"type": "place_die", "pips": hand[0], "on": "card", "slot": target["slot"]}


# ---------------------------------------------------------------------------------------------- hard

CARRY_OVER = 0.2  # worth kept by a card left unsecured when rounds remain (it may be secured later, or lost)
DIE_WORTH = 0.6  # the least worth a die must win on a card (it could secure something instead)


class _Context:
    """What the hard bot reads off its view once per decision."""

    def __init__(self, view: View):
        self.view = view
        self.me = view["you"]
        self.round = view["round"]
        self.last_round = view["round"] >= view["rounds"]
        me = view["players"][self.me]
        self.secured = _ids(me["secured"])
        self.unsecured = _ids(me["unsecured"])
        index = {s: i for i, s in enumerate(SECTORS)}
        counts = [0] * len(SECTORS)
        for card in self.secured:
            counts[index[CARDS[card]["sector"]]] += 1
        self.secured_counts = counts
        likely = list(counts)
        for card in self.unsecured:
            likely[index[CARDS[card]["sector"]]] += 1
        self.likely_counts = likely
        self.sector_index = index
        self.opponent_unsecured = [
            c["id"] for p in view["players"] if p["seat"] != self.me for c in p["unsecured"]
        ]
        self.opponents_exposed = sum(
            1 for p in view["players"] if p["seat"] != self.me and len(p["unsecured"]) >= 2
        )

    def set_gain(self, card: str) -> int:
        counts = list(self.likely_counts)
        before = bonus_for_counts(counts)
        counts[self.sector_index[CARDS[card]["sector"]]] += 1
        return bonus_for_counts(counts) - before

    def secured_worth(self, card: str) -> float:
        """Points a card adds once secured: victory points and the sets it grows."""
        return CARDS[card]["victory_points"] + self.set_gain(card)

    def volatility_worth(self, card: str) -> float:
        kind = CARDS[card]["volatility"]
        rounds_left = self.view["rounds"] - self.round
        if kind == DIVIDEND:
            return float(DIVIDEND_POINTS)
        if kind == BULL_RUN:
            return max((self.secured_worth(c) for c in self.unsecured), default=1.5)
        if kind == MARGIN_CALL:
            return 0.8 * self.opponents_exposed + 0.3
        if kind == LEVERAGED_BUYOUT:
            return 1.6
        if kind == HOSTILE_TAKEOVER:
            return 2.0 if self.opponent_unsecured or rounds_left else 0.5
        if kind == EXTRA_CAPITAL:
            return 1.0 if rounds_left else 0.0
        if kind == INSIDER_TIP:
            return 0.4 if rounds_left else 0.0
        return 0.0


class _Item:
    """A card the bot might win: what it is worth won, and what securing it needs (0: nothing to secure)."""

    __slots__ = ("need", "secured_value", "flat_value")

    def __init__(self, need: float, secured_value: float, flat_value: float):
        self.need = need
        self.secured_value = secured_value
        self.flat_value = flat_value


def _tier_item(ctx: _Context, tier: str, unseen: list[str]) -> _Item:
    """The average card a face-down card of this tier may hide, from the faces not yet seen."""
    pool = unseen or TIER_CARDS[tier]
    investments = [c for c in pool if CARDS[c]["kind"] == "investment"]
    share = len(investments) / len(pool)
    flat = sum(ctx.volatility_worth(c) for c in pool if CARDS[c]["kind"] != "investment") / len(pool)
    if not investments:
        return _Item(0, 0.0, flat)
    need = sum(CARDS[c]["secure_value"] for c in investments) / len(investments)
    value = sum(ctx.secured_worth(c) for c in investments) / len(investments)
    return _Item(need, share * value, flat)


def _face_item(ctx: _Context, card: str) -> _Item:
    if CARDS[card]["kind"] == "investment":
        return _Item(CARDS[card]["secure_value"], ctx.secured_worth(card), 0.0)
    return _Item(0, 0.0, ctx.volatility_worth(card))


def _cover(dice: list[int], need: float) -> list[int] | None:
    """Few dice (from `dice`, sorted ascending) reaching `need`: the smallest single die, else the largest first."""
    for die in dice:
        if die >= need:
            return [die]
    if sum(dice) < need or len(dice) < 2:
        return None
    largest = dice[-1]
    rest = _cover(dice[:-1], need - largest)
    return None if rest is None else [largest, *rest]


def _securing_worth(dice: list[int], items: list[_Item], last_round: bool) -> float:
    """Greedy worth of securing `items` with After Market `dice` (best value per pip first)."""
    pool = sorted(dice)
    worth = 0.0
    for item in sorted(items, key=lambda i: -i.secured_value / max(i.need, 1)):
        used = _cover(pool, item.need) if pool else None
        if used is None:
            if not last_round:
                worth += CARRY_OVER * item.secured_value
            continue
        for die in used:
            pool.remove(die)
        worth += item.secured_value
    return worth


class HardBot(Bot):
    level = "hard"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        choice = common_choice(view, legal)
        if choice is not None:
            return choice
        if view["step"] == "hostile_takeover":
            return self.hostile_takeover(view, legal)
        return self.place(view, legal)

    def hostile_takeover(self, view: View, legal: list[Action]) -> Action:
        ctx = _Context(view)
        my_am = sorted(d["pips"] for d in view["after_market"]["dice"] if d["seat"] == ctx.me)
        best, best_worth = None, 0.0
        for action in legal:
            if action["type"] != "play_hostile_takeover":
                continue
            card = action["card"]
            # Taking it now pays if the After Market dice can secure it this round (or later rounds remain).
            securable = _cover(my_am, CARDS[card]["secure_value"]) is not None
            worth = ctx.secured_worth(card) * (1.0 if securable else (0.0 if ctx.last_round else CARRY_OVER))
            worth += 0.5 * CARDS[card]["victory_points"]  # the opponent loses it
            if worth > best_worth:
                best, best_worth = action, worth
        if best is not None and (best_worth >= 3.0 or ctx.last_round):
            return best
        return {"type": "keep_card"}

    # -------------------------------------------------------------- Invest

    def place(self, view: View, legal: list[Action]) -> Action:
        claimed = sum(1 for d in view["after_market"]["dice"] if d["seat"] == view["you"])
        if view["after_market"]["open"] and claimed < AFTER_MARKET_CLAIM[view["seats"]]:
            return {"type": "place_die", "pips": max(view["my_dice"]), "on": "after_market"}
        ctx = _Context(view)
        me = ctx.me
        seats = view["seats"]
        hand = sorted(view["my_dice"])
        market = view["market"]
        seen = set()
        for p in view["players"]:
            for key in ("unsecured", "secured", "dividends"):
                seen.update(_ids(p[key]))
            seen.update(k["card"]["id"] for k in p["kept_cards"])
        seen.update(c["id"] for c in view["discard"]["face_up"])
        seen.update(slot["face"]["id"] for slot in market if slot["face"])
        unseen = {tier: [c for c in TIER_CARDS[tier] if c not in seen] for tier in TIERS}
        tier_items = {tier: _tier_item(ctx, tier, unseen[tier]) for tier in TIERS}
        items = [
            _face_item(ctx, slot["face"]["id"]) if slot["face"] else tier_items[slot["tier"]] for slot in market
        ]
        held = [_face_item(ctx, c) for c in ctx.unsecured]
        mine = [slot["pips"][me] for slot in market]
        opponents = [s for s in range(seats) if s != me]
        remaining = {s: view["players"][s]["unplaced_dice"] for s in opponents}
        am_open = view["after_market"]["open"]
        my_am = [d["pips"] for d in view["after_market"]["dice"] if d["seat"] == me]

        # Determinise the opponents' hidden dice and where they will go (a fixed number of samples).
        weights = [1.0 + (items[i].secured_value + items[i].flat_value) for i in range(len(market))]
        am_chance = {s: self._after_market_chance(view, s, remaining[s]) for s in opponents}
        worlds = []
        for _ in range(HARD_SAMPLES[seats]):
            totals = [[slot["pips"][s] for s in range(seats)] for slot in market]
            am_taken = 0
            for s in opponents:
                for _ in range(remaining[s]):
                    die = self.rng.randint(1, 6)
                    if am_taken < am_open and self.rng.random() < am_chance[s]:
                        am_taken += 1
                        continue
                    w = [weights[i] * (2.0 if totals[i][s] else 1.0) for i in range(len(market))]
                    i = self.rng.choices(range(len(market)), weights=w)[0]
                    totals[i][s] += die
            worlds.append(([max(t[s] for s in opponents) for t in totals], am_taken))

        candidates = self._candidates(legal, hand, market, me)
        best, best_score = None, None
        for action in candidates:
            score = 0.0
            for opp_best, am_taken in worlds:
                score += self._plan_worth(action, hand, mine, opp_best, am_open, am_taken, my_am, items, held, ctx)
            if best_score is None or score > best_score + 1e-9:
                best, best_score = action, score
        return best

    @staticmethod
    def _after_market_chance(view: View, seat: int, remaining: int) -> float:
        """How likely an opponent's next die goes to the After Market: by the pips its cards still need there, and
        never less than OPPONENT_AFTER_MARKET_CHANCE (a plan may fill the spots whatever it needs)."""
        if not remaining:
            return 0.0
        player = view["players"][seat]
        need = sum(c["secure_value"] for c in player["unsecured"])
        for slot in view["market"]:
            others = max((p for s, p in enumerate(slot["pips"]) if s != seat), default=0)
            if slot["pips"][seat] > others:
                need += 5
        have = sum(d["pips"] for d in view["after_market"]["dice"] if d["seat"] == seat)
        wanted = max(0.0, need - have) / 4.5
        return max(OPPONENT_AFTER_MARKET_CHANCE, min(0.8, 0.08 + wanted / remaining))

    @staticmethod
    def _candidates(legal: list[Action], hand: list[int], market: list[dict], me: int) -> list[Action]:
        """Placements worth weighing: per card the smallest die that leads, the lowest and the highest die."""
        keep = []
        distinct = sorted(set(hand))
        low, high = distinct[0], distinct[-1]
        for action in legal:
            if action["on"] == "after_market":
                if action["pips"] in (low, high):
                    keep.append(action)
                continue
            slot = market[action["slot"]]
            others = max((p for s, p in enumerate(slot["pips"]) if s != me), default=0)
            lead = next((d for d in distinct if slot["pips"][me] + d > others), None)
            if action["pips"] in (low, high, lead):
                keep.append(action)
        return keep or legal

    @staticmethod
    def _plan_worth(
        action: Action,
        hand: list[int],
        mine: list[int],
        opp_best: list[int],
        am_open: int,
        am_taken: int,
        my_am: list[int],
        items: list[_Item],
        held: list[_Item],
        ctx: _Context,
    ) -> float:
        """Worth of the round if I play `action` now and then place my other dice as well as I can in this world."""
        die = action["pips"]
        rest = list(hand)
        rest.remove(die)
        totals = list(mine)
        am = list(my_am)
        spots = am_open
        if action["on"] == "after_market":
            am.append(die)
            spots -= 1
        else:
            totals[action["slot"]] += die
        # Opponents may fill the After Market before my later dice get there.
        later_spots = max(0, spots - am_taken)
        best = None
        for k in range(min(later_spots, len(rest), 3) + 1):
            to_am = rest[len(rest) - k :] if k else []
            left = rest[: len(rest) - k]
            worth = _cards_and_securing(left, totals, opp_best, am + to_am, later_spots - k, items, held, ctx)
            if best is None or worth > best:
                best = worth
        return best


def _cards_and_securing(
    dice: list[int],
    totals: list[int],
    opp_best: list[int],
    am: list[int],
    spots_left: int,
    items: list[_Item],
    held: list[_Item],
    ctx: _Context,
) -> float:
    """Worth of the round in one sampled world: my dice take the cards they can lead most cheaply (best worth per pip
    of deficit first), spare dice go to the After Market, and the After Market secures what it can."""
    pool = sorted(dice)
    won: list[_Item] = []
    worth = 0.0
    order = []
    for i, item in enumerate(items):
        deficit = opp_best[i] - totals[i] + 1
        value = item.flat_value + item.secured_value
        if deficit <= 0:
            won.append(item)
        elif deficit == 1 and totals[i] > 0:
            worth += 0.5 * item.flat_value  # a tie is a reroll
            won_half = _Item(item.need, 0.5 * item.secured_value, 0.0)
            order.append((value / 2, i, deficit, won_half))
        else:
            order.append((value / deficit, i, deficit, item))
    order.sort(key=lambda o: -o[0])
    for _, i, deficit, item in order:
        if not pool:
            break
        used = _cover(pool, deficit)
        if used is None:
            continue
        if item.flat_value + item.secured_value < DIE_WORTH * len(used):
            continue  # not worth the dice
        for die in used:
            pool.remove(die)
        won.append(item)
    # Dice nobody needs on cards go to the After Market while spots are open.
    spare = sorted(pool, reverse=True)[:spots_left]
    am_dice = am + spare
    worth += sum(item.flat_value for item in won)
    needs = [item for item in won if item.secured_value > 0] + held
    worth += _securing_worth(am_dice, needs, ctx.last_round)
    return worth


