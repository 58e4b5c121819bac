"""Levels from XP (platform.md, "XP and levels"): level L is reached at step x L x (L - 1) XP (step 50 by default:
100 XP for level 2, 300 for 3, 600 for 4)."""

from __future__ import annotations

import math


def xp_for_level(level: int, step: int = 50) -> int:
    return step * level * (level - 1)


def level_for_xp(xp: int, step: int = 50) -> int:
    if xp <= 0:
        return 1
    # Largest L with step*L*(L-1) <= xp; the float guess is corrected exactly with integers.
    level = max(1, int((1 + math.sqrt(1 + 4 * xp / step)) / 2))
    while xp_for_level(level + 1, step) <= xp:
        level += 1
    while level > 1 and xp_for_level(level, step) > xp:
        level -= 1
    return level
