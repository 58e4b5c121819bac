"""The Piker (../shared/rules/piker.md): the engine, its bots and test scripting helpers."""

from app.games.piker.bots import EasyBot, HardBot, MediumBot
from app.games.piker.game import Piker

Piker.bots = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}

__all__ = ["Piker", "EasyBot", "MediumBot", "HardBot"]
