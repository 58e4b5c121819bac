"""Pika against RLCard's UNO: games per second with random agents, two players, in the same run on this machine.

    .venv/bin/python bench/rlcard_uno.py                      # three interleaved rounds
    .venv/bin/python bench/rlcard_uno.py --games 4000 --rounds 5

RLCard (the reinforcement-learning toolkit for card games, on PyPI) is installed the first time into a scratch
venv of its own, bench/.rlcard-venv (ignored by git; never a dependency of the project or its tests). Its UNO runs
there in a subprocess: `--games` games of two `RandomAgent`s through `env.run(is_training=True)` (each decision is the
agent's `step`, one uniform choice among the legal actions; RLCard builds the acting player's state, its
observation, for every decision). Pika runs here, through the simulate driver (`app.games.simulate.play_game`,
deadlines included), with the random agents of bench/random_agents.py:

- uniform: a uniform choice among Pika's legal actions, as asked. Pika lets a player draw while holding a playable
  card (pika.md), which UNO as RLCard lists it does not, so this agent draws often and a round lasts about 900
  decisions where an RLCard UNO game lasts about 50: it compares two different games.
- plays first: a uniform choice among the plays (passing only when there is none): RLCard's RandomAgent under
  RLCard's UNO legality, where "draw" is legal only when nothing can be played. Its rounds last about 60 decisions.

Each Pika agent runs without a view, then with the deciding seat's view built for every decision (as RLCard builds
its state). Every round runs all of them one after the other; the table shows each round and the medians, and the
ratios are the medians of each round's ratio. Decisions per second are printed too: a game is not a fixed amount of
work. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import venv
from pathlib import Path
from statistics import median

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from engines import play_random  # noqa: E402
from random_agents import PlaysFirstAgent, RandomAgent, with_view  # noqa: E402

RLCARD_VENV = BENCH / ".rlcard-venv"
RLCARD_VERSION = "1.2.0"

# Runs inside RLCard's venv: warm up, then time `games` games; prints one JSON line.
RLCARD_RUNNER = """
import json, sys, time
import numpy as np
import rlcard
from rlcard.agents import RandomAgent

games, seed = int(sys.argv[1]), int(sys.argv[2])
np.random.seed(seed)
env = rlcard.make("uno", config={"seed": seed})
env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
for _ in range(50):
    env.run(is_training=True)
decisions = 0
started = time.perf_counter()
for _ in range(games):
    trajectories, payoffs = env.run(is_training=True)
    # each player's trajectory is state, action, state, action, ..., state
    decisions += sum((len(trajectory) - 1) // 2 for trajectory in trajectories)
seconds = time.perf_counter() - started
print(json.dumps({"games": games, "seconds": seconds, "decisions": decisions, "players": env.num_players,
                  "rlcard": rlcard.__version__, "numpy": np.__version__}))
"""


def rlcard_python() -> Path:
    """RLCard's scratch venv, created and filled from PyPI the first time."""
    python = RLCARD_VENV / "bin" / "python"
    check = [str(python), "-c", f"import rlcard; assert rlcard.__version__ == {RLCARD_VERSION!r}"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    print(f"installing rlcard=={RLCARD_VERSION} into {RLCARD_VENV} (once) ...", flush=True)
    venv.create(RLCARD_VENV, with_pip=True, clear=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", f"rlcard=={RLCARD_VERSION}"], check=True)
    return python


def run_rlcard(python: Path, games: int, seed: int) -> dict:
    done = subprocess.run(
        [str(python), "-c", RLCARD_RUNNER, str(games), str(seed)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


PIKA_AGENTS = (
    ("uniform", RandomAgent),
    ("uniform + view", with_view(RandomAgent)),
    ("plays first", PlaysFirstAgent),
    ("plays first + view", with_view(PlaysFirstAgent)),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per round (RLCard, Pika plays first)")
    parser.add_argument("--uniform-games", type=int, default=200, help="games per round of Pika's uniform agent")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    python = rlcard_python()
    print(f"python {platform.python_version()}, {args.rounds} interleaved rounds, two players")
    rates: dict[str, list[float]] = {"rlcard": []}
    per_decision: dict[str, list[float]] = {"rlcard": []}
    lengths: dict[str, list[float]] = {"rlcard": []}
    ratios: dict[str, list[float]] = {}
    for name, _ in PIKA_AGENTS:
        rates[name], per_decision[name], lengths[name], ratios[name] = [], [], [], []
    for round_number in range(args.rounds):
        uno = run_rlcard(python, args.games, round_number)
        if round_number == 0:
            print(f"RLCard {uno['rlcard']} (numpy {uno['numpy']}), UNO with {uno['players']} RandomAgents")
        rates["rlcard"].append(uno["games"] / uno["seconds"])
        per_decision["rlcard"].append(uno["decisions"] / uno["seconds"])
        lengths["rlcard"].append(uno["decisions"] / uno["games"])
        shown = [f"RLCard UNO {rates['rlcard'][-1]:7,.0f}"]
        for name, agent in PIKA_AGENTS:
            games = args.uniform_games if name.startswith("uniform") else args.games
            seconds, decisions = play_random("pika", 2, games, f"rlcard-round:{round_number}", agent)
            rates[name].append(games / seconds)
            per_decision[name].append(decisions / seconds)
            lengths[name].append(decisions / games)
            ratios[name].append(rates[name][-1] / rates["rlcard"][-1])
            shown.append(f"{name} {rates[name][-1]:7,.0f}")
        print(f"round {round_number + 1}: games/s " + " | ".join(shown), flush=True)
    print()
    print(f"{'medians':<22}{'games/s':>10}{'decisions/game':>16}{'decisions/s':>13}{'games/s vs RLCard':>19}")
    for name in ["rlcard", *(name for name, _ in PIKA_AGENTS)]:
        label = "RLCard UNO" if name == "rlcard" else f"Pika {name}"
        ratio = "" if name == "rlcard" else f"{median(ratios[name]):18.1f}x"
        print(
            f"{label:<22}{median(rates[name]):10,.0f}{median(lengths[name]):16.0f}"
            f"{median(per_decision[name]):13,.0f}{ratio}"
        )


if __name__ == "__main__":
    main()
