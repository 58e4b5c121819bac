"""Pika: the colour-and-number card game with stacking +2/+4 and the Pika call (../shared/rules/pika.md)."""

from app.games.pika.bots import EasyBot, HardBot, MediumBot
from app.games.pika.game import Pika

Pika.bots = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}

__all__ = ["Pika"]
