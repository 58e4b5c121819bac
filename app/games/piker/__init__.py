"""The Piker, the investment card and dice auction game (../shared/rules/piker.md)."""

from app.games.piker.game import Piker

__all__ = ["Piker"]
