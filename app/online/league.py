"""The weekly league, one per game (platform.md, "The weekly league").

- Points come with each settled online or staked table (`record`, a settled listener of TableStore.finish, so they
  are written in the same transaction as the prizes, exactly once): by place, ties as for coins, halved when a
  simulated player sat at the table (rewards.py computes them).
- A week runs Monday 00:00 UTC to the next Monday; a table counts in the week it finished.
- Standings are public for the current week and kept for every past week.
- Closing a week pays the top three (500, 300, 150 by default) once: the `league_weeks` row is inserted first (the
  second closer, on this node or another, finds it and pays nothing) and every prize has its own ledger key.
  Players sharing a place split the prizes of the places they cover, as for coins (the rule platform.md gives for
  ties); nobody with 0 points wins anything.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, exists, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.core.clock import Clock
from app.core.db import insert_ignoring_conflicts
from app.core.errors import Conflict
from app.games.registry import get_game
from app.ledger.service import LedgerService
from app.online.models import LeagueStanding, LeagueWeek
from app.ratings.models import Rating
from app.ratings.rating import NEW_PLAYER, Skill
from app.tables.rewards import Reward, split_places

if TYPE_CHECKING:
    from app.config import Settings
    from app.tables.actor import TableActor

LEAGUE_MODES = ("online", "staked")  # platform.md: the only modes that count for the league
CLOSE_GRACE = timedelta(seconds=60)  # the scheduler lets tables settling at midnight land before it closes

standings_table = LeagueStanding.__table__
weeks_table = LeagueWeek.__table__


@functools.lru_cache(maxsize=4)
def _add_points_statement(dialect_name: str) -> Any:
    """A week's points added to a player's standing (the row made at the first game), in the dialect's upsert;
    built once: building a statement costs several times what executing it does."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    statement = dialect.insert(standings_table)
    return statement.on_conflict_do_update(
        index_elements=["game", "week", "user_id"],
        set_={"points": standings_table.c.points + statement.excluded.points,
              "games": standings_table.c.games + 1, "updated_at": statement.excluded.updated_at})


class WeekNotOver(Conflict):
    code = "week_not_over"
    message = "That week is not over yet."


def week_of(moment: datetime) -> date:
    """The Monday (UTC) of the week `moment` falls in."""
    day = moment.astimezone(UTC).date()
    return day - timedelta(days=day.weekday())


def week_bounds(week: date) -> tuple[datetime, datetime]:
    start = datetime.combine(week, time(0, 0), tzinfo=UTC)
    return start, start + timedelta(days=7)


@dataclass(frozen=True)
class ClosedWeek:
    game: str
    week: date
    closed_at: datetime
    prizes: list[dict[str, Any]]
    already_closed: bool  # True: closed before (by a previous run or another node); nothing was paid now


class LeagueService:
    def __init__(self, settings: Settings, clock: Clock, ledger: LedgerService):
        self.settings = settings
        self.clock = clock
        self.ledger = ledger

    # --- points -------------------------------------------------------------------------------------------

    async def record(self, session: AsyncSession, table: TableActor, rewards: list[Reward], title: str) -> None:
        """TableStore's settled listener: add each person's league points to this week's standings."""
        if table.mode not in LEAGUE_MODES:
            return
        week = week_of(self.clock.now())
        for player, reward in zip(table.seats, rewards):
            if player.user_id is None or player.is_bot or reward.left:
                continue  # leavers get no league points (platform.md, leaving)
            await self._add(session, table.game_name, week, player.user_id, reward.league_points)

    async def _add(self, session: AsyncSession, game: str, week: date, user_id: int, points: int) -> None:
        await session.execute(_add_points_statement(session.get_bind().dialect.name),
                              {"game": game, "week": week, "user_id": user_id, "points": points, "games": 1,
                               "updated_at": self.clock.now()})

    # --- reading ------------------------------------------------------------------------------------------

    async def standings(self, session: AsyncSession, game: str, week: date, *, limit: int = 50, offset: int = 0,
                        user_id: int | None = None) -> dict[str, Any]:
        """One game's standings for one week, best first, with places (1, 2, 2, 4) and, if given, my row."""
        starts_at, ends_at = week_bounds(week)
        place = func.rank().over(order_by=standings_table.c.points.desc()).label("place")
        ranked = (select(place, User.username, standings_table.c.points, standings_table.c.games, Rating.mu,
                         Rating.sigma, Rating.games.label("rated_games"))
                  .join(User, User.id == standings_table.c.user_id)
                  .outerjoin(Rating, (Rating.user_id == standings_table.c.user_id) & (Rating.game == game))
                  .where(standings_table.c.game == game, standings_table.c.week == week)
                  .order_by(standings_table.c.points.desc(), User.username_key)
                  .limit(limit).offset(offset))
        # Each player's rating in this game beside their points (a player whose games never moved it: a new one's).
        rows = [{"place": int(r.place), "username": r.username, "points": r.points, "games": r.games,
                 "rating": (Skill(r.mu, r.sigma, r.rated_games) if r.mu is not None else NEW_PLAYER).shown()}
                for r in (await session.execute(ranked)).all()]
        total = (await session.execute(select(func.count()).select_from(standings_table).where(
            standings_table.c.game == game, standings_table.c.week == week))).scalar_one()
        closed = await session.get(LeagueWeek, (game, week))
        me = None
        if user_id is not None:
            mine = (await session.execute(select(standings_table.c.points, standings_table.c.games).where(
                standings_table.c.game == game, standings_table.c.week == week,
                standings_table.c.user_id == user_id))).first()
            if mine is not None:
                better = (await session.execute(select(func.count()).select_from(standings_table).where(
                    standings_table.c.game == game, standings_table.c.week == week,
                    standings_table.c.points > mine.points))).scalar_one()
                me = {"place": better + 1, "points": mine.points, "games": mine.games}
        now = self.clock.now()
        return {
            "game": game,
            "title": get_game(game).title,
            "week": week.isoformat(),
            "starts_at": starts_at.isoformat(),
            "ends_at": ends_at.isoformat(),
            "current": starts_at <= now < ends_at,
            "closed": closed is not None,
            "closed_at": closed.closed_at.isoformat() if closed else None,
            "prizes": list(self.settings.league_prizes),
            "paid": [{k: v for k, v in prize.items() if k != "user_id"} for prize in closed.prizes] if closed else [],
            "total": int(total),
            "standings": rows,
            "me": me,
        }

    async def weeks(self, session: AsyncSession, game: str, limit: int = 52) -> list[dict[str, Any]]:
        """The weeks this game's league has standings for, newest first."""
        rows = (await session.execute(
            select(standings_table.c.week, func.count().label("players"))
            .where(standings_table.c.game == game)
            .group_by(standings_table.c.week).order_by(standings_table.c.week.desc()).limit(limit))).all()
        closed = {row.week for row in (await session.execute(
            select(weeks_table.c.week).where(weeks_table.c.game == game))).all()}
        return [{"week": row.week.isoformat(), "players": int(row.players), "closed": row.week in closed}
                for row in rows]

    # --- closing ------------------------------------------------------------------------------------------

    async def close_week(self, session: AsyncSession, game: str, week: date) -> ClosedWeek:
        """Pay the week's top three, once. Safe to run again, or on two nodes at once: the second finds the row."""
        get_game(game)  # an unknown game raises
        week = week_of(datetime.combine(week, time(12), tzinfo=UTC))
        now = self.clock.now()
        if week_bounds(week)[1] > now:
            raise WeekNotOver(f"The week of {week.isoformat()} ends at {week_bounds(week)[1].isoformat()}.")
        inserted = await session.execute(insert_ignoring_conflicts(session, weeks_table),
                                         {"game": game, "week": week, "closed_at": now, "prizes": []})
        if inserted.rowcount == 0:
            row = await session.get(LeagueWeek, (game, week))
            assert row is not None
            return ClosedWeek(game, week, row.closed_at, list(row.prizes), already_closed=True)
        prizes = await self._prizes(session, game, week)
        title = get_game(game).title
        for prize in prizes:
            wallet = await self.ledger.wallet_id(session, prize["user_id"])
            await self.ledger.credit(session, wallet, prize["coins"],
                                     key=f"league:{game}:{week.isoformat()}:{prize['user_id']}",
                                     reason=f"{title} league, week of {week.isoformat()}: place {prize['place']}")
        await session.execute(update(weeks_table).where(weeks_table.c.game == game, weeks_table.c.week == week)
                              .values(prizes=prizes))
        return ClosedWeek(game, week, now, prizes, already_closed=False)

    async def _prizes(self, session: AsyncSession, game: str, week: date) -> list[dict[str, Any]]:
        paid = list(self.settings.league_prizes)
        if not paid:
            return []
        scoring = (standings_table.c.game == game, standings_table.c.week == week, standings_table.c.points > 0)
        # Everyone level with the last paid place is in the running (they split what their places cover).
        cutoff = (await session.execute(select(standings_table.c.points).where(*scoring)
                                        .order_by(standings_table.c.points.desc())
                                        .offset(len(paid) - 1).limit(1))).scalar_one_or_none()
        query = (select(standings_table.c.user_id, User.username, standings_table.c.points)
                 .join(User, User.id == standings_table.c.user_id).where(*scoring)
                 .order_by(standings_table.c.points.desc(), standings_table.c.user_id))
        if cutoff is not None:
            query = query.where(standings_table.c.points >= cutoff)
        rows = (await session.execute(query)).all()
        points = [row.points for row in rows]
        places = [1 + sum(1 for other in points if other > mine) for mine in points]
        coins = split_places(places, paid)
        return [{"user_id": row.user_id, "username": row.username, "place": place, "points": row.points,
                 "coins": amount}
                for row, place, amount in zip(rows, places, coins) if amount > 0]

    async def weeks_to_close(self, session: AsyncSession) -> list[tuple[str, date]]:
        """Every (game, week) with standings whose week ended (plus a grace minute) and is not closed yet."""
        last = week_of(self.clock.now() - CLOSE_GRACE) - timedelta(days=7)
        closed = exists().where(and_(weeks_table.c.game == standings_table.c.game,
                                     weeks_table.c.week == standings_table.c.week))
        rows = await session.execute(select(standings_table.c.game, standings_table.c.week).distinct()
                                     .where(standings_table.c.week <= last, ~closed)
                                     .order_by(standings_table.c.week, standings_table.c.game))
        return [(row.game, row.week) for row in rows.all()]
