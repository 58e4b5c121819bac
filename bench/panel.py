"""The panel of fixed plans against the hard bot, per game and seat count (docs/bots.md).

    .venv/bin/python bench/panel.py piker [--players 2 3 4] [--plans after-market-first,...] [--games 1000]
                                          [--levels-games 300] [--processes 2] [--seed 0] [--json out.json]

Each plan (app/games/<game>/plans.py) takes one seat against hard bots in every other seat, the plan's seat rotating
one place per game; the medium and easy bots are rows too (`--levels-games` games each, 0 to leave them out). Prints
one markdown table of win shares with 95% intervals; a cell marked "beats hard" is above fair + 5 points.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.panel import LEVEL_ROWS, plans_of, run_cell, seat_counts, table  # noqa: E402
from app.games.registry import game_names  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--players", type=int, nargs="+", help="seat counts (default: every one the game allows)")
    parser.add_argument("--plans", help="comma-separated plan names (default: all of the game's plans)")
    parser.add_argument("--games", type=int, default=1000, help="games per plan and seat count")
    parser.add_argument("--levels-games", type=int, default=300, help="games per cell for the medium and easy rows")
    parser.add_argument("--against", default="hard", help="the bot level in the other seats")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--json", type=Path, help="also write the cells to this file")
    args = parser.parse_args(argv)
    plans = args.plans.split(",") if args.plans else list(plans_of(args.game))
    rows = [(plan, args.games) for plan in plans]
    if args.levels_games and not args.plans:
        rows += [(level, args.levels_games) for level in LEVEL_ROWS]
    counts = args.players or seat_counts(args.game)
    pool = ProcessPoolExecutor(args.processes) if args.processes > 1 else None
    cells = []
    try:
        for plan, games in rows:
            for players in counts:
                cell = run_cell(args.game, plan, players, games, against=args.against, seed=args.seed, pool=pool)
                cells.append(cell)
                print(json.dumps(cell.as_dict()), file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    print(f"{args.game}: plans against {args.against} bots, win share [95% interval], seed {args.seed}")
    print(table(cells))
    if args.json:
        args.json.write_text(json.dumps([c.as_dict() for c in cells], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
