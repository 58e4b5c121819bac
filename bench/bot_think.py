"""How long a bot thinks per move: CPU time of `choose`, p50 / p99 / max per game (docs/bots.md).

    .venv/bin/python bench/bot_think.py [--level hard] [--games 20] [--games-list pika stakes kapern piker]

Plays `--games` games per game and seat count, every seat the same level, and times each call of `choose` with the
process's CPU clock (not the wall clock: other work on the machine does not count). A table gives a bot
`bot_delay_seconds` (0.6-1.4 s by default) before its move shows, and a hard bot thinks in a worker process
(app/tables/thinking.py), so a p99 far below 0.6 s keeps bots from ever making a person wait.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.base import Action, Bot, View  # noqa: E402
from app.games.panel import seat_counts  # noqa: E402
from app.games.registry import game_names, get_game  # noqa: E402
from app.games.rng import HashRandom  # noqa: E402
from app.games.simulate import play_game  # noqa: E402


class Timed(Bot):
    """A bot that records the CPU time of each of its inner bot's decisions (only those with a choice)."""

    def __init__(self, inner: Bot, times: list[float]):
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.level = inner.level
        self.needs_view = inner.needs_view
        self.times = times

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        started = time.process_time()
        action = self.inner.choose(view, legal)
        if len(legal) > 1:
            self.times.append(time.process_time() - started)
        return action


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(game_name: str, level: str, games: int) -> dict:
    game_cls = get_game(game_name)
    times: list[float] = []
    for players in seat_counts(game_name):
        for index in range(games):
            key = f"think:{game_name}:{players}:{index}"
            bot_cls = game_cls.bots[level]
            bots = [Timed(bot_cls(seat, random.Random(f"{key}:{seat}")), times) for seat in range(players)]
            play_game(game_cls.create(players, None, HashRandom(key)), bots)
    return {
        "game": game_name,
        "level": level,
        "moves": len(times),
        "p50_ms": 1000 * percentile(times, 0.50),
        "p99_ms": 1000 * percentile(times, 0.99),
        "max_ms": 1000 * max(times),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=20, help="games per seat count")
    parser.add_argument("--games-list", nargs="+", default=game_names(), choices=game_names())
    args = parser.parse_args(argv)
    print(f"CPU time per move with a choice, {args.level} bots, {args.games} games per seat count (every count)")
    print("| game | moves timed | p50 | p99 | max |")
    print("|---|---|---|---|---|")
    for name in args.games_list:
        row = measure(name, args.level, args.games)
        print(
            f"| {get_game(name).title} | {row['moves']} | {row['p50_ms']:.1f} ms | {row['p99_ms']:.1f} ms "
            f"| {row['max_ms']:.1f} ms |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
