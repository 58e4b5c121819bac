"""Tables in the database: live table snapshots (to resume after a restart) and the records of finished games."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, UTCDateTime


class ClusterNode(Base):
    """One start of one server process (a node incarnation), alive while its heartbeat is recent (design.md,
    "Ownership and fencing"). The heartbeat is the database's clock, so nodes never compare their own clocks."""

    __tablename__ = "cluster_nodes"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # "<node name>-<random>", new at every start
    name: Mapped[str] = mapped_column(String(64))  # NODE_NAME: stable across restarts of the same node
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    heartbeat: Mapped[float] = mapped_column(Float)  # seconds since the epoch, on the database's clock
    stopped: Mapped[bool] = mapped_column(Boolean, default=False)  # shut down cleanly: its tables are free now
    key_fingerprint: Mapped[str] = mapped_column(String(32), default="")  # tokens.key_fingerprint(SECRET_KEY)
    tables: Mapped[int] = mapped_column(Integer, default=0)  # tables it plays, as of its last heartbeat (its load)


class LiveTable(Base):
    """A table being played: its owner, the last snapshot of its game and the table around it (seats, options).

    The truth is the snapshot plus the action log after it (`table_actions` rows past `snapshot_seq`). Every write
    for a table is conditional on `owner_epoch`, which grows by one each time a node adopts the table."""

    __tablename__ = "live_tables"
    __table_args__ = (Index("ix_live_tables_status", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))  # "playing", "finished" or "cancelled"
    version: Mapped[int] = mapped_column(Integer)  # the table's version at its snapshot
    state: Mapped[dict[str, Any]] = mapped_column(JSON)  # the engine's to_state() after `snapshot_seq` entries
    table: Mapped[dict[str, Any]] = mapped_column(JSON)  # TableActor.snapshot_data() at the same point
    seed: Mapped[str] = mapped_column(String(128))  # hex; never sent to a client
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the cluster_nodes id playing it
    owner_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    log_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # entries logged at the snapshot
    snapshot_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # entries `state` includes


class TableSeat(Base):
    """Who sits at a live table, for finding a player's tables whichever node plays them."""

    __tablename__ = "table_seats"
    __table_args__ = (Index("ix_table_seats_user_id", "user_id"),)

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)


class TableAction(Base):
    """One entry of a table's action log, appended before any seat hears of it: a move (by a person, a bot, a
    timer) or a table notice (a seat connected, went away...). Replaying the entries through the engine from the
    seed gives back every event with its version."""

    __tablename__ = "table_actions"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, 3, ... per table
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the table's own (a deadline)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(8))  # app.tables.actor.SOURCES
    version: Mapped[int] = mapped_column(Integer)  # the table's version after this entry's events


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
