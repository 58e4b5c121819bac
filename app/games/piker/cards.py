"""The 48 cards of The Piker and the end-of-game scoring table (piker.md, "The deck" and "Set bonuses").

Cards are named by short ids (`tech-7`, `bull-run`, `leveraged-buyout-2`). An id names a face, so an id is only
ever shown to a seat that may see that face: face-down market cards are shown by their market slot and tier only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

BLUE_CHIP = "blue_chip"
GROWTH = "growth"
SPECULATIVE = "speculative"
TIERS = (BLUE_CHIP, GROWTH, SPECULATIVE)

SECTORS = ("tech", "energy", "shipping", "real-estate", "mining")
SECTOR_NAMES = {
    "tech": "Tech",
    "energy": "Energy",
    "shipping": "Shipping",
    "real-estate": "Real Estate",
    "mining": "Mining",
}

# piker.md: each sector has these eight cards (tier, victory points, secure value).
SECTOR_ROWS = (
    (BLUE_CHIP, 1, 3),
    (BLUE_CHIP, 1, 4),
    (BLUE_CHIP, 2, 5),
    (GROWTH, 3, 6),
    (GROWTH, 3, 7),
    (GROWTH, 4, 8),
    (SPECULATIVE, 5, 10),
    (SPECULATIVE, 7, 12),
)

# When a Market Volatility card acts (piker.md, the card table).
IMMEDIATE = "immediate"
AT_AFTER_MARKET = "after_market"  # Leveraged Buyout
AT_END_OF_COLLECT = "end_of_collect"  # Hostile Takeover
AT_GENERATE_INCOME = "generate_income"  # Extra Capital
AT_START_OF_INVEST = "start_of_invest"  # Insider Tip

WHEN_NAMES = {
    IMMEDIATE: "at once, when won",
    AT_AFTER_MARKET: "in an After Market step, on the dice you use on one card",
    AT_END_OF_COLLECT: "at the end of a Collect Investments step",
    AT_GENERATE_INCOME: "at Generate Income, before the dice are rolled",
    AT_START_OF_INVEST: "at the start of an Invest step",
}

BULL_RUN = "bull-run"
MARGIN_CALL = "margin-call"
DIVIDEND = "dividend"
LEVERAGED_BUYOUT = "leveraged-buyout"
HOSTILE_TAKEOVER = "hostile-takeover"
EXTRA_CAPITAL = "extra-capital"
INSIDER_TIP = "insider-tip"

DIVIDEND_POINTS = 3  # piker.md: Dividend is worth 3 victory points
LEVERAGED_BUYOUT_PIPS = 3  # piker.md: adds 3 pips to the dice you use on one card
INSIDER_TIP_LOOKS = 2  # piker.md: look at two face-down market cards

# kind -> (name, when, effect, copies)
VOLATILITY = {
    BULL_RUN: ("Bull Run", IMMEDIATE, "secure one of your unsecured cards for free", 1),
    MARGIN_CALL: (
        "Margin Call",
        IMMEDIATE,
        "every opponent holding 2 or more unsecured cards discards their lowest-VP unsecured card "
        "(the oldest among equals)",
        1,
    ),
    DIVIDEND: ("Dividend", IMMEDIATE, "worth 3 victory points, kept face up; counts as secured, belongs to no sector", 1),
    LEVERAGED_BUYOUT: ("Leveraged Buyout", AT_AFTER_MARKET, "adds 3 pips to the dice you use on one card", 2),
    HOSTILE_TAKEOVER: ("Hostile Takeover", AT_END_OF_COLLECT, "take one unsecured card from an opponent", 1),
    EXTRA_CAPITAL: ("Extra Capital", AT_GENERATE_INCOME, "roll one extra die this round", 1),
    INSIDER_TIP: ("Insider Tip", AT_START_OF_INVEST, "look at two face-down market cards; only you see them", 1),
}


def _build() -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    for sector in SECTORS:
        for number, (tier, points, secure) in enumerate(SECTOR_ROWS, start=1):
            card_id = f"{sector}-{number}"
            cards[card_id] = {
                "id": card_id,
                "kind": "investment",
                "name": f"{SECTOR_NAMES[sector]} {points} VP",
                "sector": sector,
                "tier": tier,
                "victory_points": points,
                "secure_value": secure,
            }
    for kind, (name, when, effect, copies) in VOLATILITY.items():
        for copy in range(1, copies + 1):
            card_id = kind if copies == 1 else f"{kind}-{copy}"
            cards[card_id] = {
                "id": card_id,
                "kind": "volatility",
                "volatility": kind,
                "name": name,
                "tier": SPECULATIVE,  # piker.md: Market Volatility cards carry the speculative back
                "when": when,
                "effect": effect,
            }
    return cards


CARDS: dict[str, dict[str, Any]] = _build()
DECK: tuple[str, ...] = tuple(CARDS)  # the unshuffled order the engine shuffles
assert len(DECK) == 48


def face(card_id: str) -> dict[str, Any]:
    """The face of a card, as a view shows it once it may be seen."""
    return CARDS[card_id].copy()  # the same as dict(...), without a call to the type


def tier_of(card_id: str) -> str:
    return CARDS[card_id]["tier"]


def is_investment(card_id: str) -> bool:
    return CARDS[card_id]["kind"] == "investment"


def volatility_kind(card_id: str) -> str | None:
    return CARDS[card_id].get("volatility")


def victory_points(card_id: str) -> int:
    card = CARDS[card_id]
    if card["kind"] == "investment":
        return card["victory_points"]
    return DIVIDEND_POINTS if card["volatility"] == DIVIDEND else 0


def secure_value(card_id: str) -> int:
    return CARDS[card_id]["secure_value"]


def sector_of(card_id: str) -> str:
    return CARDS[card_id]["sector"]


# piker.md, "Set bonuses": secured cards of one sector: 2 cards +2, 3 cards +5, 4 cards +9, 5 or more +14.
SECTOR_SET_BONUS = (0, 0, 2, 5, 9, 14)
PORTFOLIO_BONUS = 8  # piker.md: +8 for every group of five secured cards of five different sectors


def sector_set_bonus(count: int) -> int:
    return SECTOR_SET_BONUS[min(count, 5)]


def sector_counts(secured: Iterable[str]) -> dict[str, int]:
    counts = dict.fromkeys(SECTORS, 0)
    for card_id in secured:
        counts[sector_of(card_id)] += 1
    return counts


def bonus_for_counts(counts: Iterable[int]) -> int:
    """Sector sets plus portfolios for the secured cards counted per sector (all five sectors, in SECTORS order)."""
    counts = list(counts)
    # piker.md: a card may count in its sector set and in one portfolio, so portfolios = the smallest sector count.
    return sum(sector_set_bonus(c) for c in counts) + PORTFOLIO_BONUS * min(counts)


def final_score(secured: Iterable[str], dividends: Iterable[str]) -> dict[str, Any]:
    """The end-of-game score of one player, with its breakdown (piker.md, "End of the game")."""
    secured = list(secured)
    dividends = list(dividends)
    counts = sector_counts(secured)
    cards = sum(victory_points(c) for c in secured)
    sets = {sector: sector_set_bonus(n) for sector, n in counts.items() if sector_set_bonus(n)}
    portfolios = min(counts.values())
    dividend_points = DIVIDEND_POINTS * len(dividends)
    total = cards + dividend_points + sum(sets.values()) + PORTFOLIO_BONUS * portfolios
    return {
        "secured_cards": cards,
        "dividends": dividend_points,
        "sector_sets": sets,
        "portfolios": portfolios,
        "portfolio_points": PORTFOLIO_BONUS * portfolios,
        "total": total,
    }
