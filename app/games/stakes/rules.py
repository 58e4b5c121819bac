"""Stakes' rule numbers, defined once (stakes.md): the engine, its view and the bots read them from here."""

from __future__ import annotations

STANDARD_ROUNDS = 5  # stakes.md: five rounds
DUEL_WINS = 4  # stakes.md: first to four round wins takes the match
EXACT_BONUS = 5  # stakes.md: exact hit scores total + 5
TARGET_BASE = 10  # stakes.md: target = die A + die B + 10
PEEK_DEPTH = 2  # stakes.md: the flipper sees the top two cards
