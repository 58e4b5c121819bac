"""The panel: each game's fixed plans (app/games/<game>/plans.py, PLANS) played against its hard bot.

A cell is one plan at one seat count: the plan takes one seat, hard bots the others, and the plan's seat moves one
place each game (game i: seat i mod players), so it is first player as often as anyone. The number reported is the
plan's win share: 1 for a win, 1/k for a first place shared by k, 0 otherwise; fair is 1/players. A hard bot holds
against a plan when the share stays below fair + 5 points. The bots' own lower levels (medium, easy) are rows too:
a hard bot must beat them clearly.

Every game's deal and every seat's random generator come from the seed, so a cell reproduces exactly.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from app.games.base import Bot, Game
from app.games.registry import get_game
from app.games.rng import HashRandom
from app.games.simulate import play_game

HOLD_MARGIN = 0.05  # a plan may win at most its fair share plus this against the hard bot
LEVEL_ROWS = ("medium", "easy")  # the bots' own lower levels, as rows of the panel


def plans_of(game_name: str) -> dict[str, type[Bot]]:
    """The game's fixed plans by name (app/games/<game>/plans.py)."""
    return dict(import_module(f"app.games.{game_name}.plans").PLANS)


def player_class(game_name: str, name: str) -> type[Bot]:
    """A plan by name, or one of the game's bot levels."""
    game_cls = get_game(game_name)
    plans = plans_of(game_name)
    if name in plans:
        return plans[name]
    if name in game_cls.bots:
        return game_cls.bots[name]
    raise ValueError(f"{game_cls.title} has no plan or bot level {name!r} (plans: {', '.join(plans)})")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_panel_game(
    game_name: str, plan: str, players: int, index: int, *, against: str = "hard", seed: str = "0"
) -> float:
    """One game of a cell: the plan's win share (1, 1/k for a shared first place, or 0)."""
    game_cls: type[Game] = get_game(game_name)
    plan_seat = index % players
    key = f"panel:{seed}:{game_name}:{plan}:{players}:{index}"
    bots = []
    for seat in range(players):
        cls = player_class(game_name, plan) if seat == plan_seat else game_cls.bots[against]
        bots.append(cls(seat, random.Random(f"{key}:{seat}")))
    game = game_cls.create(players, None, HashRandom(key))
    played = play_game(game, bots)
    if played.violations:
        raise RuntimeError(f"{key}: {played.violations[0]}")
    winners = game.outcome().winners()
    return 1.0 / len(winners) if plan_seat in winners else 0.0


def _play_chunk(job: tuple[str, str, int, list[int], str, str]) -> list[float]:
    game_name, plan, players, indices, against, seed = job
    return [play_panel_game(game_name, plan, players, i, against=against, seed=seed) for i in indices]


@dataclass
class Cell:
    game: str
    plan: str
    players: int
    games: int
    share: float
    low: float
    high: float
    seconds: float

    @property
    def fair(self) -> float:
        return 1 / self.players

    @property
    def holds(self) -> bool:
        """The hard bot holds: the plan's share is not above fair + 5 points."""
        return self.share <= self.fair + HOLD_MARGIN

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "plan": self.plan,
            "players": self.players,
            "games": self.games,
            "share": round(self.share, 4),
            "interval": [round(self.low, 4), round(self.high, 4)],
            "fair": round(self.fair, 4),
            "holds": self.holds,
            "seconds": round(self.seconds, 1),
        }


def run_cell(
    game_name: str,
    plan: str,
    players: int,
    games: int,
    *,
    against: str = "hard",
    seed: str = "0",
    pool: ProcessPoolExecutor | None = None,
) -> Cell:
    started = time.perf_counter()
    if pool is None:
        shares = _play_chunk((game_name, plan, players, list(range(games)), against, seed))
    else:
        size = max(1, math.ceil(games / 40))
        jobs = [
            (game_name, plan, players, list(range(start, min(games, start + size))), against, seed)
            for start in range(0, games, size)
        ]
        shares = [share for chunk in pool.map(_play_chunk, jobs) for share in chunk]
    total = sum(shares)
    low, high = wilson(total, games)
    return Cell(game_name, plan, players, games, total / games, low, high, time.perf_counter() - started)


def seat_counts(game_name: str) -> list[int]:
    game_cls = get_game(game_name)
    return list(range(game_cls.min_seats, game_cls.max_seats + 1))


def panel_rows(game_name: str, levels: Sequence[str] = LEVEL_ROWS) -> list[str]:
    return [*plans_of(game_name), *levels]


def table(cells: list[Cell]) -> str:
    """Markdown: one row per plan, one column per seat count: share [interval] (fair), a mark where it beats
    fair + 5 points."""
    counts = sorted({c.players for c in cells})
    plans = list(dict.fromkeys(c.plan for c in cells))
    by = {(c.plan, c.players): c for c in cells}
    header = "| plan | " + " | ".join(f"{n} players (fair {100 / n:.0f}%)" for n in counts) + " |"
    lines = [header, "|---|" + "---|" * len(counts)]
    for plan in plans:
        row = []
        for n in counts:
            cell = by.get((plan, n))
            if cell is None:
                row.append("-")
                continue
            mark = "" if cell.holds else " **beats hard**"
            row.append(
                f"{100 * cell.share:.1f}% [{100 * cell.low:.1f}-{100 * cell.high:.1f}] n={cell.games}{mark}"
            )
        lines.append(f"| {plan} | " + " | ".join(row) + " |")
    return "\n".join(lines)
