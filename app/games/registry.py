"""Every game by name. Adding a game is one folder under app/games/ plus one line here."""

from __future__ import annotations

from importlib import import_module

from app.games.base import Game

# name -> "module:Class"; imported on first use so one game's import cost is not paid by another.
_GAMES: dict[str, str] = {
    "pika": "app.games.pika:Pika",
    "stakes": "app.games.stakes:Stakes",
    "kapern": "app.games.kapern:Kapern",
    "piker": "app.games.piker:Piker",
}


class UnknownGame(KeyError):
    pass


def game_names() -> list[str]:
    return list(_GAMES)


def get_game(name: str) -> type[Game]:
    try:
        target = _GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game called {name!r}; the games are {', '.join(_GAMES)}") from None
    module_name, class_name = target.split(":")
    return getattr(import_module(module_name), class_name)
