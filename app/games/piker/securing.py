"""Securing cards in the After Market (piker.md, step 4): the ways to secure one card and the best allocation.

A way to secure a card is a multiset of After Market dice plus a number of Leveraged Buyouts whose pips reach the
card's secure value. The engine offers only minimal ways (no die and no Leveraged Buyout could be left out): unused
After Market dice are lost for the round anyway, so a bigger way never gains anything. (decided)

`best_allocation` is the engine's suggestion shown in the After Market view; the table's turn timer plays it through
the bots, which call the same function, so a seat that times out secures as well as it can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from app.games.piker.cards import (
    LEVERAGED_BUYOUT_PIPS,
    SECTORS,
    bonus_for_counts,
    secure_value,
    sector_of,
    victory_points,
)


@lru_cache(maxsize=65536)
def _minimal_ways(dice: tuple[int, ...], need: int, buyouts: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    counts = Counter(dice)
    values = sorted(counts, reverse=True)
    ways = []
    for picks in product(*(range(counts[v] + 1) for v in values)):
        chosen = tuple(v for v, n in zip(values, picks) for _ in range(n))
        if not chosen:
            continue  # piker.md: a Leveraged Buyout adds pips to the dice you use, so a card needs at least one die
        pips = sum(chosen)
        for used in range(buyouts + 1):
            total = pips + LEVERAGED_BUYOUT_PIPS * used
            if total < need:
                continue
            if len(chosen) > 1 and total - chosen[-1] >= need:
                continue  # a die could stay out (the smallest one shows it)
            if used and total - LEVERAGED_BUYOUT_PIPS >= need:
                continue  # a Leveraged Buyout would be wasted
            ways.append((chosen, used))
    ways.sort(key=lambda way: (way[1], len(way[0]), way[0]))
    return tuple(ways)


def minimal_ways(dice: Sequence[int], need: int, buyouts: int) -> list[tuple[tuple[int, ...], int]]:
    """Every minimal (dice, leveraged buyouts) reaching `need` pips; dice are listed highest first."""
    return list(_minimal_ways(tuple(sorted(dice, reverse=True)), need, buyouts))


def is_minimal_way(dice: Sequence[int], buyouts: int, need: int) -> bool:
    dice = sorted(dice, reverse=True)
    if not dice or buyouts < 0:
        return False
    total = sum(dice) + LEVERAGED_BUYOUT_PIPS * buyouts
    if total < need:
        return False
    if len(dice) > 1 and total - dice[-1] >= need:
        return False
    return not (buyouts and total - LEVERAGED_BUYOUT_PIPS >= need)


def best_allocation(
    unsecured: Sequence[str],
    dice: Sequence[int],
    buyouts: int,
    secured: Sequence[str],
) -> list[dict]:
    """The allocation of After Market dice (and Leveraged Buyouts) that adds the most to the seat's final score.

    Points are the victory points of the cards secured plus the change of sector-set and portfolio bonuses. Among
    equal points it uses the fewest Leveraged Buyouts (they stay for a later After Market), then the fewest dice.
    Returns a list of {"card", "dice", "leveraged_buyouts"} in the order of `unsecured`.
    """
    cards = [c for c in unsecured]
    base_counts = [0] * len(SECTORS)
    sector_index = {s: i for i, s in enumerate(SECTORS)}
    for card in secured:
        base_counts[sector_index[sector_of(card)]] += 1
    base_bonus = bonus_for_counts(base_counts)
    card_sector = [sector_index[sector_of(c)] for c in cards]
    card_points = [victory_points(c) for c in cards]
    card_need = [secure_value(c) for c in cards]
    memo: dict = {}

    def best(index: int, left: tuple[int, ...], buyouts_left: int, counts: tuple[int, ...]):
        # Returns ((points, -buyouts used, -dice used), choices) for cards[index:].
        if index == len(cards) or not left:
            return (bonus_for_counts(counts) - base_bonus, 0, 0), ()
        key = (index, left, buyouts_left, counts)
        if key in memo:
            return memo[key]
        result = best(index + 1, left, buyouts_left, counts)
        for way, used in _minimal_ways(left, card_need[index], buyouts_left):
            rest = list(left)
            for die in way:
                rest.remove(die)
            new_counts = list(counts)
            new_counts[card_sector[index]] += 1
            (points, neg_buyouts, neg_dice), choices = best(index + 1, tuple(rest), buyouts_left - used, tuple(new_counts))
            candidate = (
                (points + card_points[index], neg_buyouts - used, neg_dice - len(way)),
                ((index, way, used),) + choices,
            )
            if candidate[0] > result[0]:
                result = candidate
        memo[key] = result
        return result

    _, choices = best(0, tuple(sorted(dice, reverse=True)), buyouts, tuple(base_counts))
    return [{"card": cards[i], "dice": list(way), "leveraged_buyouts": used} for i, way, used in choices]


def allocation_points(unsecured_chosen: Sequence[str], secured: Sequence[str]) -> int:
    """Points an allocation adds to the final score (victory points plus bonus change)."""
    sector_index = {s: i for i, s in enumerate(SECTORS)}
    before = [0] * len(SECTORS)
    for card in secured:
        before[sector_index[sector_of(card)]] += 1
    after = list(before)
    for card in unsecured_chosen:
        after[sector_index[sector_of(card)]] += 1
    return sum(victory_points(c) for c in unsecured_chosen) + bonus_for_counts(after) - bonus_for_counts(before)
