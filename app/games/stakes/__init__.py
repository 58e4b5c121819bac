"""Stakes: the standard game (3-6 players) and the Duel (2 players). See game.py and ../shared/rules/stakes.md."""

from app.games.stakes.game import Stakes

__all__ = ["Stakes"]
