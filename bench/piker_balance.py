"""The Piker balance numbers (shared/rules/piker.md, "Balance"), from bot-against-bot games.

    .venv/bin/python bench/piker_balance.py --players 2 3 4 --games 1000 --bots hard [--processes 2] [--json out.json]
    .venv/bin/python bench/piker_balance.py ... --variant piker-by-secured-score   (a proposed rule change)
    .venv/bin/python bench/piker_balance.py ... --variant first-player-extra-die

For each player count it plays `--games` games (seeds `balance:<players>:<i>`, line-up rotated one seat per game as
`tablestakes simulate` does) and prints:
- the mean winning score (and the runner-up's, the margin, the score breakdown of winners);
- the share of won investment cards that end secured (per tier too), and where the others end;
- how often the Piker catches up: after the round they held the Piker card, are they still the player with the fewest
  points on the table, and how far behind the leader are they before and after that round? Plus the win rate of
  players who held the Piker card at least once;
- the first-player win rate (the first player of round 1) with its 95% interval, against the 1/players of a fair
  game, and the win rate of every place in round 1's turn order;
- how often ties are settled by a roll-off (the Piker's, first place).
Reads the finished games' states (its own engine), prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import mean, pstdev

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.panel import wilson  # noqa: E402
from app.games.piker import Piker  # noqa: E402
from app.games.piker.game import BENCH_VARIANTS  # noqa: E402
from app.games.piker.cards import CARDS, TIERS  # noqa: E402
from app.games.rng import HashRandom  # noqa: E402
from app.games.simulate import lineup, make_bots, play_game  # noqa: E402


VARIANTS = ("rules", *BENCH_VARIANTS)


def play_one(players: int, index: int, levels: list[str], variant: str = "rules") -> dict:
    """One game; a variant is a proposed rule change the engine plays only when the bench asks (Piker.create)."""
    seats = lineup(levels, players, index)
    game = Piker.create(
        players, None, HashRandom(f"balance:{players}:{index}"), variant=None if variant == "rules" else variant
    )
    play_game(game, make_bots(Piker, seats, f"balance:{players}:{index}"))
    return summarise(game, seats)


def summarise(game: Piker, seats: list[str]) -> dict:
    result = game.result
    totals = [b["total"] for b in result["scores"]]
    winner = result["winner"]
    log = game.log
    secured = Counter()
    unsecured = Counter()
    for player in game.players:
        secured.update(CARDS[c]["tier"] for c in player["secured"])
        unsecured.update(CARDS[c]["tier"] for c in player["unsecured"])
    margin_called = Counter(
        CARDS[d["card"]]["tier"] for d in game.discard if d["face_up"] and CARDS[d["card"]]["kind"] == "investment"
    )
    unbid = sum(1 for d in game.discard if not d["face_up"])
    # The Piker chosen after round r holds the card during round r + 1 (log[r]["piker"]).
    pikers = []
    for r in range(1, len(log)):
        piker = log[r]["piker"]
        before = log[r - 1]["victory_points_on_table"]
        after = log[r]["victory_points_on_table"]
        others_after = [v for seat, v in enumerate(after) if seat != piker]
        pikers.append(
            {
                "round": r + 1,
                "seat": piker,
                "escaped": after[piker] > min(others_after),  # no longer the one with the fewest points
                "gap_to_leader_before": max(before) - before[piker],
                "gap_to_leader_after": max(after) - after[piker],
                "tie_roll_off": before.count(min(before)) > 1,
                # Where the Piker stood on what will score (secured cards, Dividends, sets) when it got the card.
                "secured_rank": 1 + sum(1 for v in log[r - 1]["secured_score"] if v > log[r - 1]["secured_score"][piker]),
                "final_placing": result["placings"][piker],
                "won_game": piker == winner,
            }
        )
    ever_piker = {p["seat"] for p in pikers}
    ranked = sorted(totals, reverse=True)
    return {
        "levels": seats,
        "totals": totals,
        "winner": winner,
        "winner_score": totals[winner],
        "runner_up_score": ranked[1],
        "winner_breakdown": result["scores"][winner],
        "first_player": game.first_player_of_game,
        "first_player_won": game.first_player_of_game == winner,
        "final_roll_off": bool(result["roll_off"]),
        "secured": dict(secured),
        "unsecured": dict(unsecured),
        "margin_called": dict(margin_called),
        "unbid_discards": unbid,
        "pikers": pikers,
        "ever_piker": sorted(ever_piker),
        "ever_piker_won": winner in ever_piker,
        "never_piker_count": game.seat_count - len(ever_piker),
        "kept_unplayed": sum(len(p["kept"]) for p in game.players),
    }


def report(players: int, games: list[dict]) -> dict:
    n = len(games)
    winners = [g["winner_score"] for g in games]
    won_cards = Counter()
    secured = Counter()
    margin = Counter()
    for g in games:
        for tier in TIERS:
            got = g["secured"].get(tier, 0) + g["unsecured"].get(tier, 0) + g["margin_called"].get(tier, 0)
            won_cards[tier] += got
            secured[tier] += g["secured"].get(tier, 0)
            margin[tier] += g["margin_called"].get(tier, 0)
    all_won = sum(won_cards.values())
    pikers = [p for g in games for p in g["pikers"]]
    ever = [g for g in games]
    piker_seat_games = sum(len(g["ever_piker"]) for g in games)
    never_seat_games = sum(g["never_piker_count"] for g in games)
    never_wins = sum(1 for g in games if not g["ever_piker_won"])
    breakdown_keys = ("secured_cards", "dividends", "portfolio_points")
    return {
        "players": players,
        "games": n,
        "mean_winning_score": round(mean(winners), 2),
        "winning_score_sd": round(pstdev(winners), 2),
        "mean_runner_up_score": round(mean(g["runner_up_score"] for g in games), 2),
        "mean_margin": round(mean(g["winner_score"] - g["runner_up_score"] for g in games), 2),
        "mean_score_all_players": round(mean(t for g in games for t in g["totals"]), 2),
        "winner_breakdown": {
            **{k: round(mean(g["winner_breakdown"][k] for g in games), 2) for k in breakdown_keys},
            "sector_sets": round(mean(sum(g["winner_breakdown"]["sector_sets"].values()) for g in games), 2),
        },
        "won_investment_cards_per_game": round(all_won / n, 2),
        "share_of_won_cards_secured": round(sum(secured.values()) / all_won, 3) if all_won else None,
        "share_secured_by_tier": {t: round(secured[t] / won_cards[t], 3) for t in TIERS if won_cards[t]},
        "share_lost_to_margin_call": round(sum(margin.values()) / all_won, 3) if all_won else None,
        "unbid_cards_discarded_per_game": round(mean(g["unbid_discards"] for g in games), 2),
        "piker_assignments": len(pikers),
        "piker_escapes_next_round": round(mean(p["escaped"] for p in pikers), 3),
        "piker_gap_to_leader_before": round(mean(p["gap_to_leader_before"] for p in pikers), 2),
        "piker_gap_to_leader_after": round(mean(p["gap_to_leader_after"] for p in pikers), 2),
        "piker_by_tie_roll_off": round(mean(p["tie_roll_off"] for p in pikers), 3),
        "piker_leads_on_secured_score": round(mean(p["secured_rank"] == 1 for p in pikers), 3),
        "round_6_piker_wins_game": round(mean(p["won_game"] for p in pikers if p["round"] == 6), 3),
        "round_6_piker_mean_placing": round(mean(p["final_placing"] for p in pikers if p["round"] == 6), 3),
        "win_rate_held_piker_at_least_once": round(
            sum(1 for g in ever if g["ever_piker_won"]) / piker_seat_games, 3
        ),
        "win_rate_never_piker": round(never_wins / never_seat_games, 3) if never_seat_games else None,
        "first_player_win_rate": round(mean(g["first_player_won"] for g in games), 3),
        "first_player_win_rate_95": [round(x, 3) for x in wilson(sum(g["first_player_won"] for g in games), n)],
        # Win rate by place in round 1's turn order (0: the first player), each with its 95% interval.
        "win_rate_by_round_1_position": [
            [round(x, 3) for x in (rate, *wilson(rate * n, n))]
            for rate in (mean((g["winner"] - g["first_player"]) % players == k for g in games) for k in range(players))
        ],
        "round_6_piker_wins_game_95": [
            round(x, 3)
            for x in wilson(sum(p["won_game"] for p in pikers if p["round"] == 6), sum(p["round"] == 6 for p in pikers))
        ],
        "fair_win_rate": round(1 / players, 3),
        "first_place_roll_offs": round(mean(g["final_roll_off"] for g in games), 3),
        "kept_cards_unplayed_at_end": round(mean(g["kept_unplayed"] for g in games), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bots", default="hard", help="bot levels, comma-separated, seats filled round-robin")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    parser.add_argument("--variant", choices=VARIANTS, default="rules", help="a proposed rule change to measure")
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.bots.split(",") if level.strip()]
    results = {}
    for players in args.players:
        started = time.perf_counter()
        jobs = [(players, index, levels, args.variant) for index in range(args.games)]
        if args.processes > 1:
            with ProcessPoolExecutor(args.processes) as pool:
                games = list(pool.map(_play_job, jobs, chunksize=20))
        else:
            games = [_play_job(job) for job in jobs]
        numbers = report(players, games)
        numbers["bots"] = levels
        numbers["variant"] = args.variant
        numbers["seconds"] = round(time.perf_counter() - started, 1)
        results[players] = numbers
        print(json.dumps(numbers, indent=2), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


def _play_job(job: tuple[int, int, list[str], str]) -> dict:
    players, index, levels, variant = job
    return play_one(players, index, levels, variant)


if __name__ == "__main__":
    sys.exit(main())
