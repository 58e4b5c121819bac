"""Engine speed: games per second of each engine and the cost of each hot call, in this process (one core).

    .venv/bin/python bench/engines.py                        # every part, every game, three runs each
    .venv/bin/python bench/engines.py --only pika --runs 5
    .venv/bin/python bench/engines.py --part calls           # games | random | calls
    .venv/bin/python bench/engines.py --instructions         # per-call instruction counts under valgrind

Parts:
- games: easy bots against each other, one `simulate` run without --check per line (the same as `tablestakes
  simulate GAME --players N --games K --bots easy`), a different seed per run; the last column is the median.
- random: random agents (bench/random_agents.py: a uniform choice among the legal actions) through the same driver,
  first with no view built, then with the deciding seat's view built for every decision (as the table does and as
  RLCard does for its agents).
- calls: the hot calls one at a time, in microseconds per call, at every position of games the easy bots played
  (recorded first, then replayed): `apply`, `legal_actions` (the seat to act), `view(seat)` (every seat),
  `view(None)`, `public_view()`, `private_view(seat)` (every seat); "per update" is what one change costs the table
  for every seat and a spectator: the old way (a whole view per seat and the spectator's) and the split way (one
  public view plus a private part per seat).
- --instructions: the same replay under `valgrind --tool=cachegrind`, once per call kind and once calling nothing
  but `legal_actions` and `apply` (as the driver does), so the difference divided by the calls is instructions per
  call (`apply`: what the base replay costs beyond creating the games and listing): deterministic, unlike times on a
  shared machine.

Times are noisy on a shared two-core machine: each line is several runs and their median. Prints numbers; asserts
nothing. bench/rlcard_uno.py compares Pika with RLCard's UNO.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from app.games.base import Game  # noqa: E402
from app.games.registry import get_game  # noqa: E402
from app.games.rng import HashRandom  # noqa: E402
from app.games.simulate import make_bots, play_game, simulate  # noqa: E402
from random_agents import RandomAgent, with_view  # noqa: E402

# (game, players, games per run) for the easy bots: sized so that each run takes a few seconds.
WORKLOADS = (
    ("pika", 2, 20_000),
    ("pika", 4, 5_000),
    ("stakes", 2, 5_000),
    ("stakes", 4, 2_000),
    ("kapern", 2, 500),
    ("piker", 3, 2_000),
)
# The same tables for random agents (Pika's uniform random rounds are long: about 900 decisions with two players).
RANDOM_WORKLOADS = (
    ("pika", 2, 300),
    ("pika", 4, 150),
    ("stakes", 2, 3_000),
    ("stakes", 4, 1_000),
    ("kapern", 2, 1_000),
    ("piker", 3, 1_000),
)
# (game, players, games recorded) for the per-call costs.
CALL_WORKLOADS = (
    ("pika", 2, 300),
    ("pika", 4, 100),
    ("stakes", 2, 100),
    ("stakes", 4, 50),
    ("kapern", 2, 20),
    ("piker", 3, 40),
)
CALL_KINDS = ("apply", "legal_actions", "view", "view_none", "public_view", "private_view")


def _selected(workloads, only: str | None):
    return [w for w in workloads if not only or w[0] == only]


# ---------------------------------------------------------------------------------------------- games/s


def play_random(
    game_name: str, players: int, games: int, seed: Any, agent_cls: type = RandomAgent
) -> tuple[float, int]:
    """(seconds, decisions) for `games` games of random agents through the simulate driver."""
    cls = get_game(game_name)
    options = cls.check_options(players, None)
    rngs = [random.Random(f"random-agents:{seed}:{seat}") for seat in range(players)]
    decisions = 0
    started = time.perf_counter()
    for index in range(games):
        game = cls.create(players, options, HashRandom(f"random:{seed}:{index}"))
        decisions += play_game(game, [agent_cls(seat, rngs[seat]) for seat in range(players)]).decisions
    return time.perf_counter() - started, decisions


def run_games(args) -> None:
    print(f"\neasy bots, no --check ({args.runs} runs per line): games/s")
    for game, players, games in _selected(WORKLOADS, args.only):
        rates = []
        for run in range(args.runs):
            report = simulate(game, players=players, games=games, bots=["easy"], seed=f"bench:{run}")
            if report.unfinished or report.violations:
                print(f"  {game} run {run}: {report.unfinished} unfinished, {len(report.violations)} violations")
            rates.append(report.games / report.seconds)
        shown = " ".join(f"{rate:9,.0f}" for rate in rates)
        print(f"{game:<7}{players} players {games:>7,} games: {shown} games/s   median {median(rates):,.0f}")


def run_random(args) -> None:
    print(f"\nrandom agents ({args.runs} runs per line): games/s without a view | with the deciding seat's view")
    for game, players, games in _selected(RANDOM_WORKLOADS, args.only):
        bare, viewed, per_game = [], [], []
        for run in range(args.runs):  # interleaved, so both see the same machine
            seconds, decisions = play_random(game, players, games, f"bench:{run}")
            bare.append(games / seconds)
            per_game.append(decisions / games)
            seconds, decisions = play_random(game, players, games, f"bench:{run}", with_view(RandomAgent))
            viewed.append(games / seconds)
        print(
            f"{game:<7}{players} players {games:>6,} games, {median(per_game):5.0f} decisions/game: "
            f"{' '.join(f'{r:7,.0f}' for r in bare)}  median {median(bare):7,.0f} games/s | "
            f"{' '.join(f'{r:7,.0f}' for r in viewed)}  median {median(viewed):7,.0f} games/s"
        )


# ------------------------------------------------------------------------------------------- per call


def record_games(game_name: str, players: int, games: int) -> list[list[tuple[int | None, dict]]]:
    """The action logs (seat, action) of `games` games the easy bots play, deadlines' system actions included."""
    cls = get_game(game_name)
    options = cls.check_options(players, None)
    logs = []
    for index in range(games):
        game = cls.create(players, options, HashRandom(f"calls:{index}"))
        log: list[tuple[int | None, dict]] = []
        apply = game.apply

        def recording_apply(seat, action, apply=apply, log=log):
            log.append((seat, action))
            return apply(seat, action)

        game.apply = recording_apply  # type: ignore[method-assign]  # play_game binds game.apply once
        levels = ["easy"] * players
        play_game(game, make_bots(cls, levels, f"calls:{index}"))
        logs.append(log)
    return logs


def replay(
    game_name: str, players: int, logs, kinds: tuple[str, ...], list_first: bool = False
) -> dict[str, list[float]]:
    """Replay the logs, calling each of `kinds` at every position; per kind, (total seconds, calls). With
    `list_first`, the acting seat's legal actions are listed (untimed) before each action as the driver does, so that
    `apply` takes the path it takes in play (Pika applies a listed action without re-checking it)."""
    cls = get_game(game_name)
    options = cls.check_options(players, None)
    seats = range(players)
    clock = time.perf_counter
    totals = {kind: [0.0, 0] for kind in kinds}
    for index, log in enumerate(logs):
        game: Game = cls.create(players, options, HashRandom(f"calls:{index}"))
        for seat, action in log:
            if list_first:
                acting = game.acting_seats()
                if acting:
                    game.legal_actions(acting[0])
            if "legal_actions" in kinds:
                acting = game.acting_seats()
                if acting:
                    started = clock()
                    game.legal_actions(acting[0])
                    totals["legal_actions"][0] += clock() - started
                    totals["legal_actions"][1] += 1
            if "view" in kinds:
                for s in seats:
                    started = clock()
                    game.view(s)
                    totals["view"][0] += clock() - started
                totals["view"][1] += players
            if "view_none" in kinds:
                started = clock()
                game.view(None)
                totals["view_none"][0] += clock() - started
                totals["view_none"][1] += 1
            if "public_view" in kinds:
                started = clock()
                game.public_view()
                totals["public_view"][0] += clock() - started
                totals["public_view"][1] += 1
            if "private_view" in kinds:
                for s in seats:
                    started = clock()
                    game.private_view(s)
                    totals["private_view"][0] += clock() - started
                totals["private_view"][1] += players
            started = clock()
            game.apply(seat, action)
            if "apply" in kinds:
                totals["apply"][0] += clock() - started
                totals["apply"][1] += 1
    return totals


def _timer_overhead() -> float:
    clock = time.perf_counter
    samples = []
    for _ in range(5):
        started = clock()
        for _ in range(100_000):
            inner = clock()
            clock() - inner
        samples.append((clock() - started) / 100_000)
    return median(samples)


def run_calls(args) -> None:
    overhead = _timer_overhead()
    print(
        f"\nper call, easy bots' positions ({args.runs} replays, median), microseconds "
        f"(timer overhead {overhead * 1e6:.2f} µs subtracted)"
    )
    header = "".join(f"{kind:>14}" for kind in CALL_KINDS)
    print(f"{'':<22}{'':>8}{header}{'update: views':>15}{'split':>8}")
    for game, players, games in _selected(CALL_WORKLOADS, args.only):
        logs = record_games(game, players, games)
        samples: dict[str, list[float]] = {kind: [] for kind in CALL_KINDS}
        for _ in range(args.runs):
            totals = replay(game, players, logs, CALL_KINDS)
            for kind, (seconds, calls) in totals.items():
                samples[kind].append((seconds / calls - overhead) * 1e6)
        cost = {kind: median(values) for kind, values in samples.items()}
        positions = sum(len(log) for log in logs)
        # One change, told to every seat and a spectator: a whole view each, or one public view and private parts.
        whole = players * cost["view"] + cost["view_none"]
        split = cost["public_view"] + players * cost["private_view"]
        shown = "".join(f"{cost[kind]:14.2f}" for kind in CALL_KINDS)
        print(f"{game:<7}{players} players {positions:>8,} pos{shown}{whole:15.2f}{split:8.2f}")


def run_instructions(args) -> None:
    """Instructions per call: this script replays under cachegrind, calling one kind, and calling nothing."""
    print(
        "\ninstructions per call (valgrind cachegrind, easy bots' positions, replay minus a replay that only lists "
        "and applies)"
    )
    print(f"{'':<22}" + "".join(f"{kind:>14}" for kind in CALL_KINDS))
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    for game, players, games in _selected(CALL_WORKLOADS, args.only):
        games = max(1, games // 10)

        def count(kind: str) -> tuple[int, int]:
            command = [
                "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                sys.executable, __file__, "--replay-only", kind, "--only", game,
                "--players", str(players), "--games", str(games),
            ]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
            instructions = int(re.search(r"I\s+refs:\s+([\d,]+)", done.stderr).group(1).replace(",", ""))
            calls = int(re.search(r"calls=(\d+)", done.stdout).group(1))
            return instructions, calls

        # record, then replay listing the legal actions and applying the chosen one, calling nothing else (as the
        # driver does: Pika's apply of a listed action skips its checks)
        base, applies = count("none")
        created, _ = count("create")  # record, then only create the games
        per_call = {}
        listings = 0
        for kind in CALL_KINDS[1:]:
            instructions, calls = count(kind)  # legal_actions: listed a second time at each position
            per_call[kind] = (instructions - base) / calls
            if kind == "legal_actions":
                listings = calls
        per_call["apply"] = (base - created - listings * per_call["legal_actions"]) / applies
        print(f"{game:<7}{players} players {games:>4} games" + "".join(f"{per_call[k]:14,.0f}" for k in CALL_KINDS))


def replay_only(kind: str, game: str, players: int, games: int) -> None:
    """The workload `run_instructions` counts: record, then replay calling `kind` ("none": only apply; "create":
    only create the games)."""
    logs = record_games(game, players, games)
    if kind == "create":
        cls = get_game(game)
        options = cls.check_options(players, None)
        for index in range(games):
            cls.create(players, options, HashRandom(f"calls:{index}"))
        print(f"calls={sum(len(log) for log in logs)}")
        return
    kinds = () if kind == "none" else (kind,)
    totals = replay(game, players, logs, kinds, list_first=True)
    calls = totals[kind][1] if kind != "none" else sum(len(log) for log in logs)
    print(f"calls={calls}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="one game's workloads only")
    parser.add_argument("--part", choices=("games", "random", "calls"), action="append", help="default: all three")
    parser.add_argument("--instructions", action="store_true", help="count instructions per call (valgrind)")
    parser.add_argument("--replay-only", help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replay_only:
        replay_only(args.replay_only, args.only, args.players, args.games)
        return
    print(f"python {platform.python_version()} ({sys.executable}), {args.runs} runs per line")
    if args.instructions:
        run_instructions(args)
        return
    parts = args.part or ["games", "random", "calls"]
    if "games" in parts:
        run_games(args)
    if "random" in parts:
        run_random(args)
    if "calls" in parts:
        run_calls(args)


if __name__ == "__main__":
    main()
