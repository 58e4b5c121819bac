"""Bot-against-bot play in-process: `tablestakes simulate GAME ...` and the driver the engine tests share.

Time is virtual: each decision takes one second, so a game's deadlines (Pika's 3-second alert) run out after a few
decisions, as they would at a real table. A bot in a deadline's seat is asked once, when the deadline opens.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Bot, Game, IllegalAction
from app.games.registry import get_game, game_names
from app.games.rng import HashRandom

SECONDS_PER_DECISION = 1.0
DEFAULT_DECISION_LIMIT = 20_000


class GameDidNotEnd(RuntimeError):
    pass


@dataclass
class PlayedGame:
    game: Game
    decisions: int
    violations: list[str] = field(default_factory=list)


def _check_after_action(game: Game, actions_so_far: int) -> list[str]:
    problems = list(game.check_invariants())
    for seat in [*range(game.seat_count), None]:
        try:
            json.dumps(game.view(seat))
        except (TypeError, ValueError) as error:
            problems.append(f"view of seat {seat} is not JSON: {error}")
    if actions_so_far % 10 == 0:
        state = json.loads(json.dumps(game.to_state()))
        if type(game).from_state(state).to_state() != state:
            problems.append("to_state/from_state round trip changed the state")
    return problems


def play_game(
    game: Game,
    bots: Sequence[Bot],
    *,
    check: bool = False,
    decision_limit: int = DEFAULT_DECISION_LIMIT,
) -> PlayedGame:
    """Play `game` to its end with one bot per seat. Raises GameDidNotEnd past `decision_limit` decisions."""
    clock = 0.0
    expiries: dict[str, float] = {}
    offered: set[str] = set()
    decisions = 0
    applied = 0
    violations: list[str] = []

    def decide(seat: int) -> dict | None:
        nonlocal decisions, clock
        bot = bots[seat]
        legal = game.legal_actions(seat)
        view = game.view(seat) if bot.needs_view else None
        decisions += 1
        clock += SECONDS_PER_DECISION
        return bot.choose(view, legal)

    def apply(seat: int | None, action: dict) -> bool:
        nonlocal applied
        try:
            game.apply(seat, action)
        except IllegalAction as error:
            who = "the table" if seat is None else f"bot {bots[seat].level} in seat {seat}"
            violations.append(f"{who} chose an illegal action {action!r}: {error}")
            return False
        applied += 1
        if check:
            violations.extend(_check_after_action(game, applied))
        return True

    # The hot path (no deadline open) inlines decide() and apply() with the game's methods bound once: the same
    # steps in the same order, fewer lookups per decision.
    outcome = game.outcome
    deadlines_of = game.deadlines
    acting_seats = game.acting_seats
    legal_actions = game.legal_actions
    view_of = game.view
    apply_action = game.apply
    chooses = [bot.choose for bot in bots]
    needs_view = [bot.needs_view for bot in bots]
    while outcome() is None:
        if decisions > decision_limit:
            raise GameDidNotEnd(f"{type(game).name} did not end within {decision_limit} decisions")
        deadlines = deadlines_of()
        if deadlines or expiries:
            keys = {d.key for d in deadlines}
            for key in [k for k in expiries if k not in keys]:
                del expiries[key]
            acted = False
            for deadline in deadlines:
                expiries.setdefault(deadline.key, clock + deadline.seconds)
                if deadline.seat is not None and deadline.key not in offered:
                    offered.add(deadline.key)
                    action = decide(deadline.seat)
                    if action is not None:
                        if not apply(deadline.seat, action):
                            return PlayedGame(game, decisions, violations)
                        acted = True
                        break
            if acted:
                continue
            due = [d for d in deadlines if expiries[d.key] <= clock]
            if due:
                if not apply(None, due[0].action):
                    return PlayedGame(game, decisions, violations)
                continue
        seats = acting_seats()
        if not seats:
            if not deadlines:
                violations.append("nobody can act but the game is not over")
                return PlayedGame(game, decisions, violations)
            clock = min(expiries[d.key] for d in deadlines)  # wait for the next deadline
            continue
        seat = seats[0]
        legal = legal_actions(seat)
        view = view_of(seat) if needs_view[seat] else None
        decisions += 1
        clock += SECONDS_PER_DECISION
        action = chooses[seat](view, legal)
        if action is None:
            violations.append(f"bot {bots[seat].level} in seat {seat} passed although it must act")
            return PlayedGame(game, decisions, violations)
        try:
            apply_action(seat, action)
        except IllegalAction as error:
            violations.append(f"bot {bots[seat].level} in seat {seat} chose an illegal action {action!r}: {error}")
            return PlayedGame(game, decisions, violations)
        applied += 1
        if check:
            violations.extend(_check_after_action(game, applied))
    return PlayedGame(game, decisions, violations)


def make_bots(
    game_cls: type[Game], levels: Sequence[str], seed: Any, rngs: Sequence[random.Random] | None = None
) -> list[Bot]:
    """One bot per seat. Each gets `rngs[seat]` when given (a long run keeps one stream per seat, because seeding
    a fresh generator costs more than a short game's moves), else a generator seeded from `seed` and the seat."""
    bots = []
    for seat, level in enumerate(levels):
        try:
            bot_cls = game_cls.bots[level]
        except KeyError:
            known = ", ".join(game_cls.bots) or "none yet"
            raise ValueError(f"{game_cls.title} has no bot level {level!r} (levels: {known})") from None
        bots.append(bot_cls(seat, rngs[seat] if rngs is not None else random.Random(f"{seed}:{seat}")))
    return bots


def lineup(levels: Sequence[str], players: int, game_index: int) -> list[str]:
    """Seats filled round-robin from `levels`, starting one level further each game, so no level keeps the first
    seat and every listed level gets played even when it is longer than the table."""
    return [levels[(seat + game_index) % len(levels)] for seat in range(players)]


@dataclass
class LevelStats:
    seat_games: int = 0
    wins: int = 0
    placing_total: int = 0


@dataclass
class SimulationReport:
    game: str
    players: int
    games: int
    bots: list[str]
    seed: str
    options: dict[str, Any]
    seconds: float
    decisions: int
    levels: dict[str, LevelStats]
    violations: list[str]
    unfinished: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "bots": self.bots,
            "seed": self.seed,
            "options": self.options,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "decisions": self.decisions,
            "decisions_per_second": round(self.decisions / self.seconds, 1) if self.seconds else None,
            "mean_decisions_per_game": round(self.decisions / self.games, 2) if self.games else None,
            "levels": {
                level: {
                    "seat_games": stats.seat_games,
                    "wins": stats.wins,
                    "win_rate": round(stats.wins / stats.seat_games, 4) if stats.seat_games else None,
                    "mean_placing": round(stats.placing_total / stats.seat_games, 3) if stats.seat_games else None,
                }
                for level, stats in self.levels.items()
            },
            "unfinished": self.unfinished,
            "violations": self.violations,
        }

    def as_text(self) -> str:
        data = self.as_dict()
        lines = [
            f"{self.game}: {self.games} games, {self.players} players, bots {','.join(self.bots)}, seed {self.seed}",
            f"  {self.seconds:.2f} s, {data['games_per_second']} games/s, {data['decisions_per_second']} decisions/s, "
            f"{data['mean_decisions_per_game']} decisions per game",
            f"  {'level':<8}{'seat-games':>11}{'wins':>7}{'win rate':>10}{'mean placing':>14}",
        ]
        for level, stats in data["levels"].items():
            rate = f"{stats['win_rate'] * 100:.1f}%" if stats["win_rate"] is not None else "-"
            lines.append(
                f"  {level:<8}{stats['seat_games']:>11}{stats['wins']:>7}{rate:>10}{stats['mean_placing'] or '-':>14}"
            )
        lines.append(f"  games that did not end: {self.unfinished}")
        lines.append(f"  invariant violations: {len(self.violations)}")
        lines.extend(f"    {violation}" for violation in self.violations[:20])
        return "\n".join(lines)


def simulate(
    game_name: str,
    *,
    players: int,
    games: int,
    bots: Sequence[str],
    seed: Any = 0,
    check: bool = False,
    options: dict[str, Any] | None = None,
) -> SimulationReport:
    game_cls = get_game(game_name)
    options = game_cls.check_options(players, options)
    levels: dict[str, LevelStats] = {level: LevelStats() for level in dict.fromkeys(bots)}
    violations: list[str] = []
    decisions = 0
    unfinished = 0
    started = time.perf_counter()
    seat_rngs = [random.Random(f"simulate-bots:{seed}:{seat}") for seat in range(players)]
    for index in range(games):
        seat_levels = lineup(bots, players, index)
        game = game_cls.create(players, options, HashRandom(f"simulate:{seed}:{index}"))
        seat_bots = make_bots(game_cls, seat_levels, seed, seat_rngs)
        try:
            played = play_game(game, seat_bots, check=check)
        except GameDidNotEnd as error:
            unfinished += 1
            violations.append(f"game {index}: {error}")
            continue
        decisions += played.decisions
        violations.extend(f"game {index}: {v}" for v in played.violations)
        result = game.outcome()
        if result is None:
            unfinished += 1
            continue
        for seat, level in enumerate(seat_levels):
            stats = levels[level]
            stats.seat_games += 1
            stats.placing_total += result.placings[seat]
            stats.wins += result.placings[seat] == 1
    seconds = time.perf_counter() - started
    return SimulationReport(
        game=game_name,
        players=players,
        games=games,
        bots=list(bots),
        seed=str(seed),
        options=options,
        seconds=seconds,
        decisions=decisions,
        levels=levels,
        violations=violations,
        unfinished=unfinished,
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bots", default="easy", help="bot levels, comma-separated, assigned to seats round-robin")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--check", action="store_true", help="verify the game's invariants after every action")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option (JSON value)"
    )


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            raise ValueError(f"--option needs NAME=VALUE, not {pair!r}")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    return options


def run(args: argparse.Namespace) -> int:
    levels = [level.strip() for level in args.bots.split(",") if level.strip()]
    try:
        report = simulate(
            args.game,
            players=args.players,
            games=args.games,
            bots=levels,
            seed=args.seed,
            check=args.check,
            options=parse_options(args.option),
        )
    except (ValueError, IllegalAction) as error:
        print(f"simulate: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report.as_dict(), indent=2) if args.json else report.as_text())
    return 1 if report.violations or report.unfinished else 0
