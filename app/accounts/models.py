"""Users and their login sessions."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, false, true
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, BigId, UTCDateTime


class User(Base):
    __tablename__ = "users"
    __table_args__ = (Index("ix_users_guest_created_at", "guest", "created_at"),)  # the guest clean-up's lookup

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    username: Mapped[str] = mapped_column(String(20))  # as typed at registration, for display
    username_key: Mapped[str] = mapped_column(String(20), unique=True)  # lowercase: names compare case-insensitively
    password_hash: Mapped[str] = mapped_column(String(255))  # "" for a guest: no password logs in to it
    xp: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # A guest plays vs bots only, with no coins, until it signs up (the same row becomes a full account) or the
    # clean-up removes it GUEST_TTL_DAYS after it was made.
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Set by `tablestakes ban` (cleared by `unban`): the account cannot log in and its sessions were revoked.
    banned_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    ban_reason: Mapped[str | None] = mapped_column(String(200))
    # "Let others watch my online games": people who are not my friends may watch (and replay) my online and staked
    # tables by their link. My friends may always watch me (docs/protocol.md, "Spectators").
    allow_watching: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class AuthSession(Base):
    __tablename__ = "auth_sessions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 of the cookie; the token is not kept
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
