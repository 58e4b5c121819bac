"""Online play in the database: boosts (gold boosters and VIP passes), weekly league standings and closed weeks.

Matchmaking queues live in Redis (app/online/queues.py), stakes and prizes in the ledger: neither has a table here.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, Date, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, BigId, UTCDateTime

BOOST_KINDS = ("booster", "vip")


class Boost(Base):
    """One period during which a player's prizes are multiplied (platform.md, "Boosters"), bought or granted.

    A VIP pass bought while one runs starts where the running one ends, so a player's periods of one kind never
    overlap; `key` is the purchase's ledger idempotency key (or the grant's own), so a retried purchase adds nothing.
    """

    __tablename__ = "boosts"
    __table_args__ = (
        CheckConstraint("kind IN ('booster', 'vip')", name="kind_known"),
        CheckConstraint("source IN ('shop', 'grant')", name="source_known"),
        Index("ix_boosts_user_id_ends_at", "user_id", "ends_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime())
    source: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(200), unique=True)
    reason: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class LeagueStanding(Base):
    """A player's league points in one game's week (Monday 00:00 UTC), added to as each table settles."""

    __tablename__ = "league_standings"
    __table_args__ = (Index("ix_league_standings_game_week_points", "game", "week", "points"),)

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    week: Mapped[date] = mapped_column(Date, primary_key=True)  # the Monday the week starts on
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class LeagueWeek(Base):
    """A closed week of one game's league. The row is the closing's lock: inserted once, whoever closes first."""

    __tablename__ = "league_weeks"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    week: Mapped[date] = mapped_column(Date, primary_key=True)
    closed_at: Mapped[datetime] = mapped_column(UTCDateTime())
    prizes: Mapped[list[Any]] = mapped_column(JSON)  # [{"user_id", "username", "place", "points", "coins"}, ...]
