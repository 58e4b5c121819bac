"""Scoring a turn of Piraten Kapern: one pure function, used by the engine, the view and the bots alike.

`score_turn(card, dice, ending, on_chest=..., opponents=...)` takes the final dice, the Treasure Island chest, the
turned card and how the turn ended, and returns a `TurnScore`: the points for the player, the points for every
opponent (Skull Island penalties, a shared Zombie prize), and a breakdown a player can read (kapern.md, "Scoring a
turn", "Skull Island", "The special cards in detail").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.games.kapern.cards import (
    ANIMALS,
    CARDS,
    COIN,
    DIAMOND,
    DICE,
    FACES,
    MONKEY,
    PARROT,
    PEACE,
    PIRATE,
    PLURAL,
    SABER,
    SHIPWRECK,
    SKULL,
    TREASURE_ISLAND,
    ZOMBIE_ATTACK,
)

# How a turn ended.
STOPPED = "stopped"  # the player stopped, or the card's rolling is over (Zombie attack, Shipwreck)
DISQUALIFIED = "disqualified"  # three skulls
SKULL_ISLAND = "skull_island"  # the turn was spent on Skull Island
ENDINGS = (STOPPED, DISQUALIFIED, SKULL_ISLAND)

# kapern.md: sets of identical faces: 3 = 100, 4 = 200, 5 = 500, 6 = 1000, 7 = 2000, 8 or more = 4000.
_SET_POINTS = (0, 0, 0, 100, 200, 500, 1000, 2000)
FULL_CHEST = 500
ZOMBIE_PRIZE = 1200
ZOMBIE_SABERS = 5
PEACE_PENALTY = 500
SHIPWRECK_VALUE = 200
SKULL_ISLAND_LOSS = 100
_KIND_ORDER = (DIAMOND, COIN, MONKEY, PARROT, SABER)


def skull_island_loss(card: str) -> int:
    """What every opponent loses per skull when a turn is spent on Skull Island under `card`."""
    # kapern.md: every opponent loses 100 per skull (dice and card), 200 with the Pirate.
    return 2 * SKULL_ISLAND_LOSS if card == PIRATE else SKULL_ISLAND_LOSS


def set_points(size: int) -> int:
    return 4000 if size >= 8 else _SET_POINTS[size]


@dataclass(frozen=True)
class ScoreLine:
    label: str
    points: int


@dataclass(frozen=True)
class TurnScore:
    points: int  # added to the player's total (may be negative)
    opponents_each: int  # added to every other player's total (Skull Island: negative; lost Zombie attack: positive)
    lines: tuple[ScoreLine, ...]
    summary: str
    scoring_dice: tuple[bool, ...]  # which of the dice count towards the score
    full_chest: bool = False
    pirate_magic: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "opponents_each": self.opponents_each,
            "lines": [{"label": line.label, "points": line.points} for line in self.lines],
            "summary": self.summary,
            "scoring_dice": list(self.scoring_dice),
            "full_chest": self.full_chest,
            "pirate_magic": self.pirate_magic,
        }


def _kind(face: str, animals: bool) -> str:
    # kapern.md: with the Animals card monkeys and parrots count together as one kind.
    return "animals" if animals and face in (MONKEY, PARROT) else face


def _kind_name(kind: str, count: int = 2) -> str:
    if kind == "animals":
        return "monkeys and parrots"
    return PLURAL[kind] if count != 1 else PLURAL[kind].removesuffix("s")


def _dice_points(
    card_id: str, dice: Sequence[str], *, sabers_count: bool, full_chest_possible: bool
) -> tuple[int, list[ScoreLine], list[bool], bool, bool]:
    """Sets, diamonds and coins (with the card's coin or diamond), full chest; before any doubling.

    Returns (points, lines, scoring dice, full chest, pirate magic).
    """
    card = CARDS[card_id]
    animals = card_id == ANIMALS
    counts: dict[str, int] = {}
    for face in dice:
        if face != SKULL:
            kind = _kind(face, animals)
            counts[kind] = counts.get(kind, 0) + 1
    extra = card.extra_face
    if extra is not None:
        # kapern.md: the card's coin or diamond counts for its 100 and for its set, but it is not a die.
        counts[extra] = counts.get(extra, 0) + 1
    points = 0
    lines: list[ScoreLine] = []
    kinds = [k for k in ("animals", *_KIND_ORDER) if counts.get(k)]
    for kind in kinds:
        size = counts[kind]
        with_card = " (with the card's)" if kind == extra else ""
        if size >= 3:
            value = set_points(size)
            points += value
            lines.append(ScoreLine(f"set of {size} {_kind_name(kind)}{with_card}", value))
        if kind in (COIN, DIAMOND):
            # kapern.md: each diamond and each gold coin also scores 100 on its own.
            value = 100 * size
            points += value
            lines.append(ScoreLine(f"{size} {_kind_name(kind, size)}{with_card} x 100", value))
    scoring = []
    for face in dice:
        if face == SKULL:
            scoring.append(False)
            continue
        kind = _kind(face, animals)
        scoring.append(counts[kind] >= 3 or face in (COIN, DIAMOND) or (face == SABER and sabers_count))
    # kapern.md: full chest only if every one of the eight DICE scores; a skull die rules it out, a skull card not.
    full_chest = full_chest_possible and len(dice) == DICE and all(scoring)
    if full_chest:
        points += FULL_CHEST
        lines.append(ScoreLine("full chest: all eight dice score", FULL_CHEST))
    # kapern.md: pirate magic is a set of nine, eight coins or diamonds plus the matching card.
    magic = extra is not None and counts.get(extra, 0) >= DICE + 1
    return points, lines, scoring, full_chest, magic


def score_turn(
    card: str,
    dice: Sequence[str],
    ending: str,
    *,
    on_chest: Sequence[bool] | None = None,
    opponents: int = 1,
) -> TurnScore:
    """The result of a turn that ended as `ending` with these final `dice` under `card` (kapern.md).

    `on_chest[i]` says die i lies on Treasure Island; `opponents` is the number of other players (a lost Zombie
    attack shares its prize among them).
    """
    if card not in CARDS:
        raise ValueError(f"unknown card {card!r}")
    if ending not in ENDINGS:
        raise ValueError(f"unknown ending {ending!r}")
    for face in dice:
        if face not in FACES:
            raise ValueError(f"unknown face {face!r}")
    info = CARDS[card]
    no_dice = tuple(False for _ in dice)
    sabers = sum(1 for face in dice if face == SABER)
    skulls = sum(1 for face in dice if face == SKULL) + info.skulls

    if ending == SKULL_ISLAND:
        per_skull = skull_island_loss(card)
        loss = per_skull * skulls
        lines = [ScoreLine(f"Skull Island: {skulls} skulls x {per_skull} lost by every opponent", 0)]
        points = 0
        summary = f"Skull Island: every opponent loses {loss}"
        if card == PEACE and sabers:
            # kapern.md: Peace broken however the turn ends, Skull Island included.
            points = -PEACE_PENALTY * sabers
            lines.append(ScoreLine(f"Peace broken: {sabers} sabers showing x -{PEACE_PENALTY}", points))
            summary += f"; Peace broken, {points}"
        return TurnScore(0 + points, -loss, tuple(lines), summary, no_dice)

    if card == ZOMBIE_ATTACK:
        # kapern.md: 5 or more sabers win 1200; otherwise the 1200 is shared equally among all other players.
        if sabers >= ZOMBIE_SABERS:
            line = ScoreLine(f"Zombie attack beaten with {sabers} sabers", ZOMBIE_PRIZE)
            scoring = tuple(face == SABER for face in dice)
            return TurnScore(ZOMBIE_PRIZE, 0, (line,), f"Zombie attack beaten: {ZOMBIE_PRIZE}", scoring)
        share = ZOMBIE_PRIZE // opponents if opponents else 0
        line = ScoreLine(f"Zombie attack lost with {sabers} sabers: every opponent gains {share}", 0)
        return TurnScore(0, share, (line,), f"Zombie attack lost: every opponent gains {share}", no_dice)

    if card == SHIPWRECK:
        # kapern.md: only diamonds and coins score, 200 each, whatever the skulls; no sets, no full chest.
        treasure = sum(1 for face in dice if face in (DIAMOND, COIN))
        points = SHIPWRECK_VALUE * treasure
        line = ScoreLine(f"Shipwreck: {treasure} diamonds and gold coins x {SHIPWRECK_VALUE}", points)
        scoring = tuple(face in (DIAMOND, COIN) for face in dice)
        return TurnScore(points, 0, (line,), f"Shipwreck salvaged: {points}", scoring)

    if card == PEACE and sabers:
        # kapern.md: any saber showing when the turn ends costs 500, however it ends.
        points = -PEACE_PENALTY * sabers
        line = ScoreLine(f"Peace broken: {sabers} sabers showing x -{PEACE_PENALTY}", points)
        how = "disqualified, " if ending == DISQUALIFIED else ""
        return TurnScore(points, 0, (line,), f"Peace broken: {how}{points}", no_dice)

    if info.sea_battle and (ending == DISQUALIFIED or sabers < info.sabers_needed):
        # kapern.md: stopping short or being disqualified in a sea battle scores 0 and loses the bonus.
        why = "disqualified" if ending == DISQUALIFIED else f"{sabers} of {info.sabers_needed} sabers"
        line = ScoreLine(f"sea battle lost ({why})", -info.bonus)
        return TurnScore(-info.bonus, 0, (line,), f"Sea battle lost: -{info.bonus}", no_dice)

    if ending == DISQUALIFIED:
        if card == TREASURE_ISLAND and on_chest and any(on_chest):
            # kapern.md: the dice on Treasure Island still score (sets and values, never the full chest).
            kept = [face for face, chest in zip(dice, on_chest, strict=True) if chest]
            points, lines, kept_scoring, _, _ = _dice_points(card, kept, sabers_count=False, full_chest_possible=False)
            flags = iter(kept_scoring)
            scoring = tuple(next(flags) if chest else False for chest in on_chest)
            lines.insert(0, ScoreLine(f"disqualified by {skulls} skulls; the {len(kept)} dice on Treasure Island "
                                      "still score", 0))
            return TurnScore(points, 0, tuple(lines), f"Disqualified; Treasure Island keeps {points}", scoring)
        line = ScoreLine(f"disqualified by {skulls} skulls", 0)
        return TurnScore(0, 0, (line,), "Disqualified: 0", no_dice)

    points, lines, scoring, full_chest, magic = _dice_points(
        card, dice, sabers_count=info.sea_battle, full_chest_possible=True
    )
    if info.sea_battle:
        lines.append(ScoreLine(f"sea battle won ({sabers} of {info.sabers_needed} sabers)", info.bonus))
        points += info.bonus
    if card == PIRATE:
        # kapern.md: the Pirate doubles the whole turn score, full chest included.
        lines.append(ScoreLine("Pirate: score doubled", points))
        points *= 2
    if card == PEACE:
        # kapern.md: Peace kept (no saber showing) doubles the turn score.
        lines.append(ScoreLine("Peace kept: score doubled", points))
        points *= 2
    summary = f"Scored {points}"
    if magic:
        summary = f"Pirate magic! A set of nine wins the game: {points}"
    if not lines:
        lines.append(ScoreLine("nothing scores", 0))
    return TurnScore(points, 0, tuple(lines), summary, tuple(scoring), full_chest, magic)
