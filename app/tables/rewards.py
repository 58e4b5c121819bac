"""What a finished table pays: coins, pot shares, XP and league points (platform.md), as pure functions.

One place computes every mode's rewards, so the friends' half-rate prize, online prizes by place and staked pots
all follow the same tie and leaver rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
import copy
from dataclasses import dataclass, field, fields
from math import floor
from typing import Any


@dataclass
class Reward:
    coins: int = 0  # prize coins (boosters and VIP included)
    pot: int = 0  # share of a staked pot
    xp: int = 0
    league_points: int = 0
    league_halved: bool = False  # league points halved: a simulated player sat at the table, or a seat left
    left: bool = False  # counted as having left: no prize, XP or league points
    # A friends table of one person and bots pays as practice does (nothing to win or lose): otherwise a room of
    # the host and easy bots would be a coin and XP farm, and a way around the staked tables' level. Seats that
    # left (a bot played most of their turns) are bots here.
    one_person: bool = False
    # What made the coins, as the ledger has them: the prize before boosters, the multiplier it was paid at, the
    # stake this seat put into the pot; `net` is the change of the player's balance: coins + pot - stake.
    prize: int = 0
    multiplier: float = 1.0
    stake: int = 0
    net: int = 0
    level_up: int | None = None  # the level this game's XP took the player to, when it crossed one (platform.md)
    rating: dict[str, Any] | None = None  # a rated game: the rating's change, or why it did not move (ratings/)

    def as_dict(self) -> dict[str, Any]:
        # Not dataclasses.asdict, which copies every value recursively (a third of a settlement's Python): only
        # `rating` holds a container.
        shown = {name: getattr(self, name) for name in _REWARD_FIELDS}
        if self.rating is not None:
            shown["rating"] = copy.deepcopy(self.rating)
        return shown


_REWARD_FIELDS = tuple(field.name for field in fields(Reward))


@dataclass(frozen=True)
class RewardRules:
    payouts: dict[int, list[int]]
    friends_prize_ratio: float
    xp_by_place: list[int]
    xp_for_finishing: int
    league_points: list[int]


@dataclass(frozen=True)
class Table:
    mode: str  # "bots", "friends", "online", "staked"
    placings: Sequence[int]
    humans: Sequence[bool]  # False: a bot or simulated player
    left: Sequence[bool]
    multipliers: Sequence[float] = field(default_factory=tuple)  # per seat, boosters and VIP (1.0 without)
    bot_filled: bool = False  # a simulated player sat at an online table
    stake: int = 0


def split_places(placings: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """platform.md: players sharing a place split the prizes of the places they cover, equally, rounded down."""
    sharing = Counter(placings)
    shares = []
    for place in placings:
        count = sharing[place]
        covered = [prizes[i] if i < len(prizes) else 0 for i in range(place - 1, place - 1 + count)]
        shares.append(sum(covered) // count)
    return shares


def split_pot(pot: int, placings: Sequence[int]) -> list[int]:
    """platform.md: the pot is split equally among first places; what cannot be divided goes one coin each to the
    winners in seat order, so the whole pot is always paid out."""
    winners = [seat for seat, place in enumerate(placings) if place == 1]
    shares = [0] * len(placings)
    if not winners:
        return shares
    base, remainder = divmod(pot, len(winners))
    for index, seat in enumerate(winners):
        shares[seat] = base + (1 if index < remainder else 0)
    return shares


def prizes_for(seats: int, payouts: dict[int, list[int]]) -> list[int]:
    """The prize row for a table size. platform.md stops at 5 seats; a 6-seat Stakes table uses the 5-seat row
    (the sixth place is unpaid) until the rules say otherwise."""
    if seats in payouts:
        return payouts[seats]
    return payouts[max(size for size in payouts if size <= seats)]


def table_rewards(table: Table, rules: RewardRules) -> list[Reward]:
    seats = len(table.placings)
    multipliers = list(table.multipliers) or [1.0] * seats
    rewards = [Reward(left=table.humans[s] and table.left[s]) for s in range(seats)]
    if table.mode == "bots":
        return rewards  # practice: nothing to win or lose
    # A seat a bot played for most of its turns (`left`) was not a person playing: a second account that resigns
    # or never joins must not turn a game against bots into a paid one, nor give full league points.
    leavers = sum(reward.left for reward in rewards)
    if table.mode == "friends" and sum(table.humans) - leavers < 2:
        for seat, reward in enumerate(rewards):
            reward.one_person = table.humans[seat]
        return rewards
    if table.mode == "friends":
        prizes = split_places(table.placings, [floor(prizes_for(seats, rules.payouts)[0] * rules.friends_prize_ratio)])
    elif table.mode == "online":
        prizes = split_places(table.placings, prizes_for(seats, rules.payouts))
    elif table.mode == "staked":
        prizes = [0] * seats
        # The pot goes by placing, leavers included: that stake was theirs (platform.md, leaving).
        for seat, share in enumerate(split_pot(table.stake * seats, table.placings)):
            rewards[seat].pot = share
            if table.humans[seat]:
                rewards[seat].stake = table.stake  # staked on sitting down (a staked table seats only people)
    else:
        raise ValueError(f"unknown table mode {table.mode!r}")
    league = split_places(table.placings, rules.league_points) if table.mode in ("online", "staked") else [0] * seats
    # platform.md, weekly league: "Half, rounded down, when a simulated player sat at the table." A leaver's seat was
    # played by a bot: it counts as one.
    league_halved = table.mode in ("online", "staked") and (table.bot_filled or leavers > 0)
    for seat, reward in enumerate(rewards):
        reward.net = reward.pot - reward.stake
        if not table.humans[seat] or reward.left:
            continue  # simulated players take places but are paid nothing; leavers get nothing
        reward.prize = prizes[seat]
        if prizes[seat]:
            reward.multiplier = multipliers[seat]  # boosters and VIP multiply prizes, never a pot (platform.md)
        reward.coins = floor(prizes[seat] * multipliers[seat])
        reward.net += reward.coins
        reward.xp = rules.xp_by_place[min(table.placings[seat], len(rules.xp_by_place)) - 1] + rules.xp_for_finishing
        points = league[seat]
        if league_halved:
            reward.league_points, reward.league_halved = points // 2, True
        else:
            reward.league_points = points
    return rewards
