"""Build a ScriptedRandom for The Piker from the deal and dice a test states (order: engine module docstring).

    rng = scripted(deal=["tech-1", "bull-run", ...], first_player=1, rolls=[*hands(...), ...])

- `deal`: the first cards of the deck, drawn in that order: round 1's market first (slot 0 first), then the next
  markets and extra cards as the game draws them. Unnamed cards follow in cards.DECK order.
- `first_player`: the first player of round 1.
- `rolls`: every die roll in the order the engine asks for them. `hands(h0, h1, ...)` flattens one Generate Income
  (seat 0's dice, then seat 1's, ...); tie rerolls, Piker roll-offs and the final roll-off come in between.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.piker.cards import DECK
from app.games.rng import ScriptedRandom


def scripted(
    *,
    deal: Sequence[str] = (),
    first_player: int = 0,
    rolls: Sequence[int] = (),
    strict: bool = False,
) -> ScriptedRandom:
    unknown = [card for card in deal if card not in DECK]
    if unknown:
        raise ValueError(f"no such cards: {unknown}")
    if len(set(deal)) != len(deal):
        raise ValueError("a card is dealt twice")
    return ScriptedRandom(rolls=list(rolls), ints=[first_player], shuffles=[list(deal)], strict=strict)


def hands(*dice_per_seat: Sequence[int]) -> list[int]:
    """The rolls of one Generate Income: seat 0's dice, then seat 1's, and so on."""
    return [die for hand in dice_per_seat for die in hand]
