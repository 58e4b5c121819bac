"""Ratings per game (OpenSkill's Plackett-Luce model), as pure functions: which games move ratings, how a result
moves them, and how a rating is shown. No I/O: the live settlement (service.py) and the recomputation from the game
records both call `rate_game`, so they cannot disagree.

- Rated: finished online and staked games between at least two people (platform.md, "The four modes": the
  matchmade modes, where nobody picks their opponents). Friends games are not rated: the players choose each other
  (and the host may add bots of any level), so a rating there could be farmed; vs-bots games are practice.
- Simulated players (and any bot seat) take part with a fixed rating for their level and never move.
- A seat counted as having left (platform.md, leaving: a bot played more than half of that person's turns, or the
  person resigned) was decided by a covering bot: it is left out, and its person's rating does not move.
- A game is *decided mostly by covering bots* when fewer than two people played their own seats, or when at least
  half of its people count as having left. It moves no rating at all.
- A rating is shown as one number, 40 x mu (a new player: 1000), with its uncertainty 40 x sigma (333 at first);
  provisional for the first PROVISIONAL_GAMES rated games, or while the uncertainty is above PROVISIONAL_DEVIATION.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

RATED_MODES = ("online", "staked")
SCALE = 40.0  # shown rating = SCALE x mu: a new player's 25 shows as 1000
PROVISIONAL_GAMES = 10
PROVISIONAL_DEVIATION = 300  # shown uncertainty (SCALE x sigma) above which a rating stays provisional
# Bots' fixed ratings by level (openskill units, sigma small: they do not move and nobody learns them).
BOT_SKILL = {"easy": (20.0, 2.0), "medium": (25.0, 2.0), "hard": (30.0, 2.0)}

# The model's constants are the library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), written out so an
# upgrade of the library that changed them would not change stored ratings silently.
MODEL = PlackettLuce(mu=25.0, sigma=25.0 / 3.0, beta=25.0 / 6.0, kappa=0.0001, tau=25.0 / 300.0)

# Why a game moved no rating.
UNRATED_MODE = "unrated_mode"
ONE_PERSON = "one_person"  # ratings move in games between people: one person and simulated players is not one
BOT_DECIDED = "bot_decided"


@dataclass(frozen=True)
class Skill:
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    games: int = 0  # rated games played

    def shown(self) -> dict[str, Any]:
        """What a player sees: the rating, its uncertainty, games and whether it is still provisional."""
        deviation = round(self.sigma * SCALE)
        return {"rating": round(self.mu * SCALE), "deviation": deviation, "games": self.games,
                "provisional": self.games < PROVISIONAL_GAMES or deviation > PROVISIONAL_DEVIATION}


NEW_PLAYER = Skill()


def bot_skill(level: str | None) -> Skill:
    mu, sigma = BOT_SKILL.get(level or "medium", BOT_SKILL["medium"])
    return Skill(mu, sigma)


def bot_shown(level: str | None) -> dict[str, Any]:
    """A bot's fixed rating as a seat shows it (never provisional: it does not move)."""
    return {**bot_skill(level).shown(), "provisional": False, "fixed": True}


@dataclass(frozen=True)
class RatedSeat:
    """What rating reads of one seat of a finished game (a live table's seat or a game record's)."""

    kind: str  # "human" or "bot"
    user_id: int | None
    bot_level: str | None
    left: bool
    placing: int


@dataclass(frozen=True)
class RatingChange:
    before: Skill
    after: Skill

    def shown(self) -> dict[str, Any]:
        before, after = self.before.shown(), self.after.shown()
        return {**after, "before": before["rating"], "change": after["rating"] - before["rating"]}


@dataclass(frozen=True)
class GameRating:
    """The changes a game makes (user id -> change), or why it makes none (`unrated`)."""

    changes: dict[int, RatingChange]
    unrated: str | None = None


def people(seats: Sequence[RatedSeat]) -> list[RatedSeat]:
    return [seat for seat in seats if seat.kind == "human" and seat.user_id is not None]


def unrated_reason(mode: str, seats: Sequence[RatedSeat]) -> str | None:
    """None when the game moves ratings, else why it does not."""
    if mode not in RATED_MODES:
        return UNRATED_MODE
    humans = people(seats)
    if len(humans) < 2:
        return ONE_PERSON
    leavers = sum(1 for seat in humans if seat.left)
    if len(humans) - leavers < 2 or leavers * 2 >= len(humans):
        return BOT_DECIDED
    return None


def rate_game(mode: str, seats: Sequence[RatedSeat], current: Mapping[int, Skill]) -> GameRating:
    """How a finished game moves its players' ratings. `current`: each person's rating before it (missing: new)."""
    reason = unrated_reason(mode, seats)
    if reason is not None:
        return GameRating({}, reason)
    entrants = [seat for seat in seats if not (seat.kind == "human" and seat.left)]
    before = [current.get(seat.user_id, NEW_PLAYER) if seat.kind == "human" and seat.user_id is not None
              else bot_skill(seat.bot_level) for seat in entrants]
    teams = [[MODEL.create_rating([skill.mu, skill.sigma])] for skill in before]
    rated = MODEL.rate(teams, ranks=[float(seat.placing) for seat in entrants])
    changes: dict[int, RatingChange] = {}
    for seat, old, (new,) in zip(entrants, before, rated):
        if seat.kind == "human" and seat.user_id is not None:
            changes[seat.user_id] = RatingChange(old, Skill(float(new.mu), float(new.sigma), old.games + 1))
    return GameRating(changes)
