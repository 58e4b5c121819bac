"""Build a ScriptedRandom (and a game) from the cards and dice a test states.

    game = scripted_game(cards=["gold_coin"], rolls=[dice("3 monkeys, 3 sabers, 2 parrots")])
    game.apply(0, roll())   # the first roll shows exactly those faces on dice 0..7
    game.apply(0, stop())

The order of random calls is the one documented in `game.py`: the first player (`randbelow`), the deck shuffle
(the named cards come first, in order; the rest follow in the deck's fixed order), then one `roll(6)` per rolled die
in ascending die index. `rolls` is a list of rolls; each roll lists the faces of the dice it rolls, in die order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.kapern.cards import FACES, PLURAL
from app.games.rng import ScriptedRandom

_FACE_NAMES = {face: face for face in FACES} | {plural: face for face, plural in PLURAL.items()}
_FACE_NAMES |= {"coin": "coin", "coins": "coin", "gold coin": "coin", "gold_coin": "coin"}


def face(name: str) -> str:
    try:
        return _FACE_NAMES[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown face {name!r}; faces are {', '.join(FACES)}") from None


def dice(spec: str) -> list[str]:
    """Faces from readable text, in order: "3 monkeys, 3 sabers, 2 parrots" or "skull, coin, monkey"."""
    faces: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        count, _, name = part.partition(" ")
        if count.isdigit():
            faces.extend([face(name)] * int(count))
        else:
            faces.append(face(part))
    return faces


def die_value(name: str) -> int:
    """The roll(6) result that shows this face."""
    return FACES.index(face(name)) + 1


def scripted_random(
    *,
    cards: Sequence[str] = (),
    rolls: Sequence[Sequence[str]] = (),
    first_seat: int = 0,
    reshuffles: Sequence[Sequence[str]] = (),
    strict: bool = False,
) -> ScriptedRandom:
    """A random source that turns `cards` first (then the deck's fixed order) and rolls the stated faces."""
    return ScriptedRandom(
        ints=[first_seat],
        shuffles=[list(cards), *(list(r) for r in reshuffles)],
        rolls=[die_value(f) for one_roll in rolls for f in one_roll],
        strict=strict,
    )


def scripted_game(
    seats: int = 2,
    *,
    cards: Sequence[str] = (),
    rolls: Sequence[Sequence[str]] = (),
    first_seat: int = 0,
    reshuffles: Sequence[Sequence[str]] = (),
    options: dict[str, Any] | None = None,
    strict: bool = False,
):
    from app.games.kapern.game import Kapern

    rng = scripted_random(cards=cards, rolls=rolls, first_seat=first_seat, reshuffles=reshuffles, strict=strict)
    return Kapern.create(seats, options, rng)


def roll(*dice_indices: int) -> dict[str, Any]:
    """The roll action: no indices means all eight dice (the first roll)."""
    return {"type": "roll", "dice": sorted(dice_indices) if dice_indices else list(range(8))}


def stop() -> dict[str, Any]:
    return {"type": "stop"}


def put(die: int) -> dict[str, Any]:
    return {"type": "put_on_chest", "die": die}


def take(die: int) -> dict[str, Any]:
    return {"type": "take_from_chest", "die": die}
