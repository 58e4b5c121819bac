"""Script a Stakes deal for tests: the deck's top cards, the first player and the dice, in the engine's order.

The engine asks its random source for (see game.py): one shuffle of the 52 cards, `randbelow(seats)` for the first
player, die A and die B; then, as play goes, one roll per Twist, one shuffle of the discard pile per reshuffle, and
dice A and B at the start of every later round.

    cards = name_cards("5", "K", "10", "Q")   # ['5C', 'KC', '10C', 'QC']: a suit is picked for bare ranks
    rng = stakes_random(deck=cards, first_player=0, rolls=[4, 5, 3])   # target 19; the first Twist rolls a 3
    game = Stakes.create(3, None, rng)

Suits never matter in Stakes, so tests may name ranks only; `name_cards` gives each bare rank the next unused suit
(clubs, diamonds, hearts, spades) and keeps full names as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from app.games.rng import ScriptedRandom
from app.games.stakes.cards import RANKS, SUITS, VALUE

if TYPE_CHECKING:
    from app.games.stakes.game import Stakes


def name_cards(*ranks: str, taken: Iterable[str] = ()) -> list[str]:
    """Distinct card names for the ranks given ("7", "K", "AH", ...), skipping the names in `taken`."""
    used = set(taken)
    names = []
    for item in ranks:
        if item in VALUE:
            name = item
        elif item in RANKS:
            name = next((item + suit for suit in SUITS if item + suit not in used), "")
            if not name:
                raise ValueError(f"all four cards of rank {item!r} are already named")
        else:
            raise ValueError(f"{item!r} is neither a rank nor a card")
        if name in used:
            raise ValueError(f"card {name!r} is named twice")
        used.add(name)
        names.append(name)
    return names


def stakes_random(
    *,
    deck: Iterable[str] = (),
    first_player: int = 0,
    rolls: Iterable[int] = (),
    reshuffles: Iterable[Iterable[str]] = (),
    strict: bool = False,
) -> ScriptedRandom:
    """A ScriptedRandom for Stakes.create: `deck` are the top cards (first flipped first), the rest follow in the
    fresh deck's order; `rolls` are dice A and B of round one, then every later roll in order (Twists, new rounds);
    `reshuffles` name the first cards of each reshuffled discard pile."""
    return ScriptedRandom(
        shuffles=[list(deck), *[list(r) for r in reshuffles]],
        ints=[first_player],
        rolls=list(rolls),
        strict=strict,
    )


def scripted_game(
    seats: int,
    *,
    deck: Iterable[str] = (),
    first_player: int = 0,
    dice: tuple[int, int] = (3, 4),
    rolls: Iterable[int] = (),
    reshuffles: Iterable[Iterable[str]] = (),
    strict: bool = True,
) -> Stakes:
    """A new Stakes game whose deck starts with `deck` (card names or bare ranks), whose first round opens with center
    dice `dice` and `first_player`, and whose later rolls (Twists, new rounds) are `rolls`, in order.

    `strict` (the default) makes any unscripted random call fail, proving a scenario used exactly what it states.
    """
    from app.games.stakes.game import Stakes

    return Stakes.create(
        seats,
        None,
        stakes_random(
            deck=name_cards(*deck),
            first_player=first_player,
            rolls=[*dice, *rolls],
            reshuffles=reshuffles,
            strict=strict,
        ),
    )
