"""The one way engine tests check a refusal: the code, a message for the player, and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import Game, IllegalAction


def refused(game: Game, seat: Any, action: Any, code: str) -> IllegalAction:
    """`game.apply(seat, action)` raises IllegalAction `code` with a message and leaves `to_state()` as it was."""
    before = game.to_state()
    with pytest.raises(IllegalAction) as error:
        game.apply(seat, action)
    assert error.value.code == code, error.value
    assert error.value.message and error.value.as_dict() == {"code": code, "message": error.value.message}
    assert game.to_state() == before
    return error.value
