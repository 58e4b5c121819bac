"""Pika's cards: names people read, and the compact codes the engine and the bots compute with.

A card kind is a small int (0..53): `colour * 13 + rank` for the coloured cards (ranks 0-9, then Skip, Reverse,
+2), 52 for the Joker and 53 for the +4. Identical cards are interchangeable, so a kind is all a card is; nothing
numbers the physical cards (pika.md: nothing may reveal the draw pile's order, not even through ids).

Names (the only shape that leaves the engine): "red-7", "blue-skip", "green-reverse", "yellow-+2", "joker", "+4".

Which cards may be played is precomputed as `bytes` tables indexed by card kind, so legal-move generation is a
lookup per card in hand.
"""

from __future__ import annotations

COLOURS = ("red", "yellow", "green", "blue")
COLOUR_INDEX = {name: index for index, name in enumerate(COLOURS)}

SKIP, REVERSE, DRAW_TWO = 10, 11, 12
JOKER, WILD_FOUR = 52, 53
FIRST_BLACK = JOKER  # codes below are coloured cards; the Joker and the +4 are black
KINDS = 54
RANK_NAMES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "+2")

NAMES: tuple[str, ...] = tuple(
    [f"{colour}-{rank}" for colour in COLOURS for rank in RANK_NAMES] + ["joker", "+4"]
)
CODE: dict[str, int] = {name: code for code, name in enumerate(NAMES)}


def kinds_of_mask(mask: str) -> tuple[str, ...]:
    """The card names in a hexadecimal mask of kinds (bit `code` set for NAMES[code]), the compact form the view
    uses for sets of kinds (its "passed" notes)."""
    bits = int(mask, 16)
    return tuple(NAMES[code] for code in range(KINDS) if (bits >> code) & 1)


COLOUR_OF: tuple[int, ...] = tuple([code // 13 for code in range(FIRST_BLACK)] + [-1, -1])  # -1: a black card
RANK_OF: tuple[int, ...] = tuple([code % 13 for code in range(FIRST_BLACK)] + [13, 14])  # 13 Joker, 14 +4
IS_NUMBER: bytes = bytes(1 if code < FIRST_BLACK and code % 13 < 10 else 0 for code in range(KINDS))
IS_DRAW_TWO: bytes = bytes(1 if code < FIRST_BLACK and code % 13 == DRAW_TWO else 0 for code in range(KINDS))
STACK_VALUE: bytes = bytes(2 if IS_DRAW_TWO[code] else 4 if code == WILD_FOUR else 0 for code in range(KINDS))


def _deck() -> tuple[str, ...]:
    # pika.md: per colour one 0, two each of 1-9, two Skip, two Reverse, two +2; four Jokers and four +4.
    names: list[str] = []
    for colour in COLOURS:
        names.append(f"{colour}-0")
        for rank in RANK_NAMES[1:]:
            names += [f"{colour}-{rank}"] * 2
    names += ["joker"] * 4 + ["+4"] * 4
    return tuple(names)


DECK: tuple[str, ...] = _deck()  # the 108 cards in a fixed order, before the first shuffle
DECK_COUNTS: tuple[int, ...] = tuple(DECK.count(NAMES[code]) for code in range(KINDS))
assert len(DECK) == 108


def _matching(top: int, colour: int) -> bytes:
    # pika.md: match the discard by colour or by number/symbol; black cards are always playable (no stack pending).
    return bytes(
        1 if code >= FIRST_BLACK or COLOUR_OF[code] == colour or (top < FIRST_BLACK and RANK_OF[code] == RANK_OF[top]) else 0
        for code in range(KINDS)
    )


# MATCHING[top * 4 + colour][card]: may `card` go on `top` when `colour` is the colour in play (no stack pending).
MATCHING: tuple[bytes, ...] = tuple(_matching(top, colour) for top in range(KINDS) for colour in range(4))
# pika.md: on a pending +2, any +2 of any colour or any +4.
CHAINS_ON_DRAW_TWO: bytes = bytes(1 if IS_DRAW_TWO[code] or code == WILD_FOUR else 0 for code in range(KINDS))
# pika.md: on a pending +4, only a +2 of the colour chosen with it, or another +4.
CHAINS_ON_WILD_FOUR: tuple[bytes, ...] = tuple(
    bytes(1 if (IS_DRAW_TWO[code] and COLOUR_OF[code] == colour) or code == WILD_FOUR else 0 for code in range(KINDS))
    for colour in range(4)
)


def _mask(table: bytes) -> int:
    return sum(1 << card for card in range(KINDS) if table[card])


# The same tables as bitmasks of card kinds (bit `card` set: playable).
MATCHING_MASK: tuple[int, ...] = tuple(_mask(table) for table in MATCHING)
CHAINS_ON_DRAW_TWO_MASK: int = _mask(CHAINS_ON_DRAW_TWO)
CHAINS_ON_WILD_FOUR_MASK: tuple[int, ...] = tuple(_mask(table) for table in CHAINS_ON_WILD_FOUR)


def describe_chain(top: int, colour: int) -> str:
    """What may chain on a pending stack, in words (for views and refusals)."""
    if top == WILD_FOUR:
        return f"a +2 of {COLOURS[colour]} or a +4"
    return "any +2 or a +4"
