"""Piraten Kapern, the pirate dice game (../shared/rules/kapern.md)."""

from app.games.kapern.game import Kapern

__all__ = ["Kapern"]
