"""Ratings in the database: each person's current rating per game, and one history row per rated game."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, UTCDateTime


class Rating(Base):
    """A person's rating in one game now: the last history row's `after`, kept for cheap reading."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)  # rated games played
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RatingHistory(Base):
    """How one rated game moved one person's rating (written with the game's record, in its transaction)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_user_id_game_finished_at", "user_id", "game", "finished_at"),)

    record_id: Mapped[str] = mapped_column(ForeignKey("game_records.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)  # rated games played, this one included
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime())
