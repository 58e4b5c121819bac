"""Tables in the database: live table snapshots (to resume after a restart) and the records of finished games."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, UTCDateTime


class LiveTable(Base):
    """The latest snapshot of a table: its game state and the table around it (seats, version, action log)."""

    __tablename__ = "live_tables"
    __table_args__ = (Index("ix_live_tables_status", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))  # "playing" or "finished"
    version: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)  # the engine's to_state(), random source included
    table: Mapped[dict[str, Any]] = mapped_column(JSON)  # TableActor.snapshot_data()
    seed: Mapped[str] = mapped_column(String(128))  # hex; never sent to a client
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class GameRecord(Base):
    """A finished game, enough to replay it exactly: seed, options, seats and the full action log."""

    __tablename__ = "game_records"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # the table id
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)  # per seat: kind, name, user_id, bot level, left
    seed: Mapped[str] = mapped_column(String(128))
    action_log: Mapped[list[Any]] = mapped_column(JSON)  # [[seat or null, action], ...]
    placings: Mapped[list[int]] = mapped_column(JSON)
    scores: Mapped[list[Any] | None] = mapped_column(JSON)
    rewards: Mapped[dict[str, Any]] = mapped_column(JSON)  # per seat: coins, xp, ...
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime())


class GameRecordPlayer(Base):
    """One person's part in a finished game, for "my past games"."""

    __tablename__ = "game_record_players"
    __table_args__ = (Index("ix_game_record_players_user_id_finished_at", "user_id", "finished_at"),)

    record_id: Mapped[str] = mapped_column(ForeignKey("game_records.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    placing: Mapped[int] = mapped_column(Integer)
    left: Mapped[bool] = mapped_column(Boolean)
    coins: Mapped[int] = mapped_column(Integer)
    xp: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime())
