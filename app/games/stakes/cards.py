"""The Stakes deck: one 52-card deck, suits never matter (stakes.md, "Table").

A card is named by rank then suit letter: "AC" (ace of clubs), "7H", "10S", "JD", "QC", "KH". Ace counts 1, 2-10
their face value, Jack, Queen and King count 0 and carry an effect (Peek, Shield, Nudge).
"""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")

# stakes.md: Jack Peek, Queen Shield, King Nudge; every other card has no effect.
EFFECT_OF_RANK = {"J": "peek", "Q": "shield", "K": "nudge"}


def rank_of(card: str) -> str:
    return card[:-1]


def _value_of_rank(rank: str) -> int:
    if rank == "A":
        return 1
    if rank in EFFECT_OF_RANK:
        return 0  # stakes.md: Jack/Queen/King 0 plus an effect
    return int(rank)


FULL_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
VALUE: dict[str, int] = {card: _value_of_rank(rank_of(card)) for card in FULL_DECK}
EFFECT: dict[str, str | None] = {card: EFFECT_OF_RANK.get(rank_of(card)) for card in FULL_DECK}
DECK_SIZE = len(FULL_DECK)


def new_deck() -> list[str]:
    """The 52 cards in a fixed order (clubs, diamonds, hearts, spades; ace to king), before any shuffle."""
    return list(FULL_DECK)
