"""Fixed plans for Pika: the simple strategies a clever person tries first (docs/bots.md, the panel).

Both always call Pika, draw only when they cannot play, play a drawn card that goes, and name the colour they hold
most with a black card. They differ in what they play first. Plans use no randomness (colour ties go to the first
colour).
"""

from __future__ import annotations

from abc import abstractmethod

from app.games.base import Action, Bot, View
from app.games.pika.bots import _find, _pika_call, _plays, _with_colour
from app.games.pika.cards import CODE, DRAW_TWO, FIRST_BLACK, RANK_OF, REVERSE, SKIP, WILD_FOUR


def _colour_held_most(hand: list[int]) -> int:
    counts = [0, 0, 0, 0]
    for card in hand:
        if card < FIRST_BLACK:
            counts[card // 13] += 1
    return counts.index(max(counts))


class PikaPlan(Bot):
    level = "plan"

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        call = _pika_call(legal)
        if call is not None:
            return call
        if not legal:
            return None
        hand = [CODE[name] for name in view["hand"]]
        plays = _plays(legal)
        if not plays:
            return _find(legal, "take_stack") or _find(legal, "keep") or _find(legal, "draw")
        card = max(plays, key=lambda c: (self.preference(c), c))
        if card >= FIRST_BLACK:
            rest = list(hand)
            rest.remove(card)
            return _with_colour(plays[card], _colour_held_most(rest))
        return plays[card][0]

    @abstractmethod
    def preference(self, card: int) -> int:
        """How much this plan wants to play `card` (the highest is played)."""


class AttackFirst(PikaPlan):
    """The greedy plan: the most harmful card first (+4, +2, Skip, Reverse, Joker), then the highest number."""

    level = "attack-first"

    def preference(self, card: int) -> int:
        if card == WILD_FOUR:
            return 50
        if card >= FIRST_BLACK:
            return 20  # a Joker harms nobody: after the coloured attacks
        rank = RANK_OF[card]
        if rank == DRAW_TWO:
            return 40
        if rank == SKIP:
            return 30
        if rank == REVERSE:
            return 25
        return rank


class SaveBlackCards(PikaPlan):
    """The cautious plan: numbers first (highest first), then Skips and Reverses, then +2s; black cards only when
    nothing else goes."""

    level = "save-black-cards"

    def preference(self, card: int) -> int:
        if card >= FIRST_BLACK:
            return -20 if card == WILD_FOUR else -10  # the +4 last of all: the best answer to a stack
        rank = RANK_OF[card]
        if rank == DRAW_TWO:
            return 0
        if rank in (SKIP, REVERSE):
            return 5
        return 10 + rank


PLANS: dict[str, type[Bot]] = {plan.level: plan for plan in (AttackFirst, SaveBlackCards)}
