"""Ratings per game (docs/ratings.md): moved as each rated game settles, read for profiles, seats and matchmaking,
and recomputed from the game records.

- `record` is a settled listener of TableStore.finish: the rating rows and history are written in the settlement's
  transaction, exactly once (a retried settlement finds the record and calls no listener). Each seat's change goes
  into its rewards (`rating`), so the results screen shows it.
- The rows of a game's players are locked in user id order (PostgreSQL; SQLite's write lock serialises anyway), so
  two games sharing a player apply one after the other.
- `recompute` replays every rated game record in (finished_at, id) order through the same `rate_game`. A player sits
  at one matchmade table at a time (app/online/matchmaking.py), so each player's games settle in that order and the
  replay gives back the stored ratings exactly, float for float.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import insert_ignoring_conflicts
from app.ratings.models import Rating, RatingHistory
from app.ratings.rating import (NEW_PLAYER, RATED_MODES, GameRating, RatedSeat, RatingChange, Skill, people,
                                rate_game, unrated_reason)
from app.tables.models import GameRecord

LEFT = "left"  # this seat counts as having left: its rating did not move (the others' may have)


def seats_of_table(table: Any) -> list[RatedSeat]:
    """A finished live table's seats, as rating reads them."""
    placings = table.game.outcome().placings
    return [RatedSeat(seat.kind, seat.user_id, seat.bot_level if seat.is_bot else None, seat.left(), placings[index])
            for index, seat in enumerate(table.seats)]


def seats_of_record(record: GameRecord) -> list[RatedSeat]:
    """A game record's seats, as rating reads them: the same facts the live table had when it settled."""
    return [RatedSeat(seat["kind"], seat.get("user_id"), seat.get("bot_level"), bool(seat.get("left")),
                      record.placings[index])
            for index, seat in enumerate(record.seats)]


def seat_ratings(seats: Sequence[RatedSeat], changes: GameRating) -> list[dict[str, Any] | None]:
    """What each seat's rewards say of its rating: the change, or why it did not move (None: not a person)."""
    out: list[dict[str, Any] | None] = []
    for seat in seats:
        if seat.kind != "human" or seat.user_id is None:
            out.append(None)
        elif seat.user_id in changes.changes:
            out.append(changes.changes[seat.user_id].shown())
        else:
            out.append({"unrated": changes.unrated or LEFT})
    return out


_ratings = Rating.__table__
# Built once: building a statement costs several times what executing it does (a settlement runs it per player).
_MOVE_RATING = (update(_ratings)
                .where(_ratings.c.user_id == bindparam("user"), _ratings.c.game == bindparam("rated_game"))
                .values(mu=bindparam("new_mu"), sigma=bindparam("new_sigma"), games=bindparam("new_games"),
                        updated_at=bindparam("at")))


class RatingService:
    def __init__(self, clock: Any):
        self.clock = clock

    # --- moving ratings ------------------------------------------------------------------------------------

    async def record(self, session: AsyncSession, table: Any, rewards: list[Any], title: str) -> None:
        """TableStore's settled listener: move the ratings of a finished online or staked game's players."""
        if table.mode not in RATED_MODES:
            return
        seats = seats_of_table(table)
        record = await session.get(GameRecord, table.id)
        finished_at = record.finished_at if record is not None else self.clock.now()
        result = await self.apply(session, table.game_name, table.mode, seats, table.id, finished_at)
        for reward, shown in zip(rewards, seat_ratings(seats, result)):
            reward.rating = shown

    async def apply(self, session: AsyncSession, game: str, mode: str, seats: Sequence[RatedSeat], record_id: str,
                    finished_at: datetime) -> GameRating:
        """Rate one finished game: lock its players' rows, move them, write a history row per player moved."""
        if unrated_reason(mode, seats) is not None:
            return rate_game(mode, seats, {})
        current = await self._lock(session, game, sorted({seat.user_id for seat in people(seats)}), finished_at)
        result = rate_game(mode, seats, current)
        for user_id, change in sorted(result.changes.items()):
            await session.execute(_MOVE_RATING, {"user": user_id, "rated_game": game, "new_mu": change.after.mu,
                                                 "new_sigma": change.after.sigma, "new_games": change.after.games,
                                                 "at": finished_at})
            session.add(RatingHistory(record_id=record_id, user_id=user_id, game=game, mu_before=change.before.mu,
                                      sigma_before=change.before.sigma, mu_after=change.after.mu,
                                      sigma_after=change.after.sigma, games=change.after.games,
                                      finished_at=finished_at))
        return result

    async def _lock(self, session: AsyncSession, game: str, user_ids: list[int], now: datetime) -> dict[int, Skill]:
        for user_id in user_ids:
            await session.execute(insert_ignoring_conflicts(session, Rating.__table__),
                                  {"user_id": user_id, "game": game, "mu": NEW_PLAYER.mu, "sigma": NEW_PLAYER.sigma,
                                   "games": 0, "updated_at": now})
        rows = await session.scalars(select(Rating).where(Rating.game == game, Rating.user_id.in_(user_ids))
                                     .order_by(Rating.user_id).with_for_update())
        return {row.user_id: Skill(row.mu, row.sigma, row.games) for row in rows}

    # --- reading -------------------------------------------------------------------------------------------

    async def ratings_of(self, session: AsyncSession, game: str, user_ids: Iterable[int]) -> dict[int, Skill]:
        """Each person's rating in `game` (a person who never played it rated: a new player's)."""
        ids = sorted(set(user_ids))
        found = {row.user_id: Skill(row.mu, row.sigma, row.games) for row in await session.scalars(
            select(Rating).where(Rating.game == game, Rating.user_id.in_(ids)))} if ids else {}
        return {user_id: found.get(user_id, NEW_PLAYER) for user_id in ids}

    async def games_of(self, session: AsyncSession, user_id: int) -> dict[str, Skill]:
        """A person's rating in every game they have one in."""
        rows = await session.scalars(select(Rating).where(Rating.user_id == user_id))
        return {row.game: Skill(row.mu, row.sigma, row.games) for row in rows}

    async def changes_of(self, session: AsyncSession, user_id: int, record_ids: Sequence[str]
                         ) -> dict[str, dict[str, Any]]:
        """How each of these games moved this person's rating (games that moved it only)."""
        if not record_ids:
            return {}
        rows = await session.scalars(select(RatingHistory).where(RatingHistory.user_id == user_id,
                                                                 RatingHistory.record_id.in_(record_ids)))
        return {row.record_id: _history_change(row) for row in rows}

    # --- recomputing ---------------------------------------------------------------------------------------

    async def recompute(self, session: AsyncSession) -> Recomputed:
        """Every rating and history row again, from the game records alone (nothing is written)."""
        recomputed = Recomputed()
        current: dict[tuple[int, str], Skill] = {}
        query = (select(GameRecord).where(GameRecord.mode.in_(RATED_MODES))
                 .order_by(GameRecord.finished_at, GameRecord.id).execution_options(yield_per=500))
        async for record in await session.stream_scalars(query):
            seats = seats_of_record(record)
            mine = {seat.user_id: current.get((seat.user_id, record.game), NEW_PLAYER) for seat in people(seats)}
            result = rate_game(record.mode, seats, mine)
            for user_id, change in sorted(result.changes.items()):
                current[(user_id, record.game)] = change.after
                recomputed.history.append((record.id, user_id, record.game, change.before.mu, change.before.sigma,
                                           change.after.mu, change.after.sigma, change.after.games,
                                           record.finished_at))
        recomputed.ratings = current
        return recomputed

    async def stored(self, session: AsyncSession) -> Recomputed:
        """The ratings and history rows as stored, in the shape `recompute` gives."""
        stored = Recomputed()
        for row in await session.scalars(select(Rating).where(Rating.games > 0)):
            stored.ratings[(row.user_id, row.game)] = Skill(row.mu, row.sigma, row.games)
        query = (select(RatingHistory, GameRecord.finished_at, GameRecord.id)
                 .join(GameRecord, GameRecord.id == RatingHistory.record_id)
                 .order_by(GameRecord.finished_at, GameRecord.id, RatingHistory.user_id))
        for row, _, _ in (await session.execute(query)).all():
            stored.history.append((row.record_id, row.user_id, row.game, row.mu_before, row.sigma_before,
                                   row.mu_after, row.sigma_after, row.games, row.finished_at))
        return stored

    async def replace(self, session: AsyncSession, recomputed: Recomputed) -> None:
        """Store recomputed ratings in place of the stored ones (the operator's repair)."""
        await session.execute(delete(RatingHistory))
        await session.execute(delete(Rating))
        last_game = {(row[1], row[2]): row[8] for row in recomputed.history}  # in order: the last one stays
        for (user_id, game), skill in sorted(recomputed.ratings.items()):
            session.add(Rating(user_id=user_id, game=game, mu=skill.mu, sigma=skill.sigma, games=skill.games,
                               updated_at=last_game[(user_id, game)]))
        for row in recomputed.history:
            session.add(RatingHistory(record_id=row[0], user_id=row[1], game=row[2], mu_before=row[3],
                                      sigma_before=row[4], mu_after=row[5], sigma_after=row[6], games=row[7],
                                      finished_at=row[8]))


@dataclass
class Recomputed:
    ratings: dict[tuple[int, str], Skill] = field(default_factory=dict)  # (user id, game) -> rating
    # (record id, user id, game, mu before, sigma before, mu after, sigma after, games, finished at), in order
    history: list[tuple[Any, ...]] = field(default_factory=list)

    def differences(self, other: Recomputed, limit: int = 20) -> list[str]:
        """What differs from `other` (exact float comparison), at most `limit` lines."""
        found: list[str] = []
        for key in sorted(set(self.ratings) | set(other.ratings)):
            if self.ratings.get(key) != other.ratings.get(key):
                found.append(f"rating of user {key[0]} in {key[1]}: "
                             f"{self.ratings.get(key)} != {other.ratings.get(key)}")
        mine, theirs = {row[:2]: row for row in self.history}, {row[:2]: row for row in other.history}
        for key in sorted(set(mine) | set(theirs)):
            if mine.get(key) != theirs.get(key):
                found.append(f"history of game {key[0]}, user {key[1]}: {mine.get(key)} != {theirs.get(key)}")
        return found[:limit]


def _history_change(row: RatingHistory) -> dict[str, Any]:
    return RatingChange(Skill(row.mu_before, row.sigma_before, row.games - 1),
                        Skill(row.mu_after, row.sigma_after, row.games)).shown()
