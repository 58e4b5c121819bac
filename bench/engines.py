"""Engine speed: games per second of each engine, easy bots against each other, in this process (one core).

    .venv/bin/python bench/engines.py                      # every game, three runs each
    .venv/bin/python bench/engines.py --only pika --runs 5

Each line is one `simulate` run without --check (the same as `tablestakes simulate GAME --players N --games K --bots
easy`), with a different seed per run; the last column is the median of the runs. Issue 3's bar is Pika with two
players: 2,000 games per second. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.simulate import simulate  # noqa: E402

# (game, players, games per run): sized so that each run takes a few seconds.
WORKLOADS = (
    ("pika", 2, 20_000),
    ("pika", 4, 5_000),
    ("stakes", 2, 5_000),
    ("stakes", 4, 2_000),
    ("kapern", 2, 500),
    ("piker", 3, 2_000),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="one game's workloads only")
    args = parser.parse_args()
    print(f"python {platform.python_version()} ({sys.executable}), {args.runs} runs per line, easy bots, no --check")
    for game, players, games in WORKLOADS:
        if args.only and game != args.only:
            continue
        rates = []
        for run in range(args.runs):
            report = simulate(game, players=players, games=games, bots=["easy"], seed=f"bench:{run}")
            if report.unfinished or report.violations:
                print(f"  {game} run {run}: {report.unfinished} unfinished, {len(report.violations)} violations")
            rates.append(report.games / report.seconds)
        shown = " ".join(f"{rate:9,.0f}" for rate in rates)
        print(f"{game:<7}{players} players {games:>7,} games: {shown} games/s   median {median(rates):,.0f}")


if __name__ == "__main__":
    main()
