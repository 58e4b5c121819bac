"""Pika: the colour-and-number card game with stacking +2/+4 and the Pika call (../shared/rules/pika.md)."""

from app.games.pika.game import Pika

__all__ = ["Pika"]
