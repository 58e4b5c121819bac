"""Every accounts query."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, case, delete, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.accounts.models import AuthSession, User
from app.ledger.models import LedgerAccount, LedgerEntry
from app.tables.models import TableSeat


async def user_by_id(session: AsyncSession, user_id: int) -> User | None:
    return await session.get(User, user_id)


async def user_by_key(session: AsyncSession, key: str) -> User | None:
    return (await session.execute(select(User).where(User.username_key == key))).scalar_one_or_none()


async def users_by_ids(session: AsyncSession, user_ids: Sequence[int]) -> dict[int, User]:
    if not user_ids:
        return {}
    result = await session.execute(select(User).where(User.id.in_(list(set(user_ids)))))
    return {user.id: user for user in result.scalars()}


async def add_user(session: AsyncSession, *, username: str, key: str, password_hash: str, now: datetime,
                   guest: bool = False) -> User:
    user = User(username=username, username_key=key, password_hash=password_hash, xp=0, created_at=now, guest=guest)
    session.add(user)
    await session.flush()
    return user


async def add_xp(session: AsyncSession, user_id: int, amount: int) -> int:
    """Adds `amount` XP in one statement (no read-modify-write); returns the user's new total."""
    return (await session.execute(update(User).where(User.id == user_id).values(xp=User.xp + amount)
                                  .returning(User.xp))).scalar_one()


async def add_xp_many(session: AsyncSession, amounts: dict[int, int]) -> dict[int, int]:
    """`add_xp` for several users in one statement; returns each one's new total."""
    if len(amounts) <= 1:
        return {user_id: await add_xp(session, user_id, amount) for user_id, amount in amounts.items()}
    params: dict[str, int] = {}
    for index, (user_id, amount) in enumerate(amounts.items()):
        params[f"user{index}"], params[f"xp{index}"] = user_id, amount
    return {user_id: xp for user_id, xp in await session.execute(_add_xp_statement(len(amounts)), params)}


@functools.lru_cache(maxsize=16)
def _add_xp_statement(count: int) -> Any:
    """`add_xp_many`'s statement for `count` users, built once (building it costs more than running it):
    UPDATE users SET xp = xp + CASE id WHEN :user0 THEN :xp0 ... END WHERE id IN (:user0, ...)."""
    users = User.__table__
    ids = [bindparam(f"user{index}") for index in range(count)]
    gains = case(*[(users.c.id == ids[index], bindparam(f"xp{index}")) for index in range(count)], else_=0)
    return update(users).where(users.c.id.in_(ids)).values(xp=users.c.xp + gains).returning(users.c.id, users.c.xp)


async def set_password_hash(session: AsyncSession, user_id: int, password_hash: str) -> None:
    await session.execute(update(User).where(User.id == user_id).values(password_hash=password_hash))


async def sign_up_guest(session: AsyncSession, user_id: int, *, username: str, key: str, password_hash: str) -> bool:
    """The guest becomes a full account; False when it no longer is a guest (another sign-up won)."""
    result = await session.execute(update(User).where(User.id == user_id, User.guest.is_(True))
                                   .values(username=username, username_key=key, password_hash=password_hash,
                                           guest=False))
    return bool(result.rowcount)


async def delete_stale_guests(session: AsyncSession, cutoff: datetime, limit: int) -> int:
    """Deletes up to `limit` guests made before `cutoff`: not seated at a live table, wallet without entries."""
    wallet_used = exists().where(LedgerAccount.user_id == User.id, LedgerEntry.account_id == LedgerAccount.id)
    seated = exists().where(TableSeat.user_id == User.id)
    ids = list(await session.scalars(select(User.id).where(User.guest.is_(True), User.created_at < cutoff,
                                                          ~wallet_used, ~seated).order_by(User.id).limit(limit)))
    if not ids:
        return 0
    await session.execute(delete(LedgerAccount).where(LedgerAccount.user_id.in_(ids), LedgerAccount.balance == 0))
    # Sessions, past-game entries, rooms, boosts and friendships go with the user (ON DELETE CASCADE).
    result = await session.execute(delete(User).where(User.id.in_(ids), User.guest.is_(True)))
    return int(result.rowcount or 0)


async def set_ban(session: AsyncSession, user_id: int, banned_at: datetime | None, reason: str | None) -> bool:
    """Ban (a time and a reason) or unban (None, None); False when nothing changed (unbanning a user not banned)."""
    statement = update(User).where(User.id == user_id)
    if banned_at is None:
        statement = statement.where(User.banned_at.is_not(None))
    result = await session.execute(statement.values(banned_at=banned_at, ban_reason=reason))
    return bool(result.rowcount)


async def extend_session(session: AsyncSession, session_id: int, expires_at: datetime) -> None:
    await session.execute(update(AuthSession).where(AuthSession.id == session_id).values(expires_at=expires_at))


async def add_session(session: AsyncSession, *, user_id: int, token_hash: str, now: datetime,
                      expires_at: datetime) -> AuthSession:
    row = AuthSession(user_id=user_id, token_hash=token_hash, created_at=now, expires_at=expires_at)
    session.add(row)
    await session.flush()
    return row


async def session_and_user(session: AsyncSession, token_hash: str) -> tuple[AuthSession, User] | None:
    """A session by its token's hash, with its user (a session whose user is gone is gone with it)."""
    row = (await session.execute(select(AuthSession, User).join(User, User.id == AuthSession.user_id)
                                 .where(AuthSession.token_hash == token_hash))).first()
    return None if row is None else (row[0], row[1])


class SocketSession(NamedTuple):
    session_id: int
    user_id: int
    username: str
    guest: bool
    revoked: bool
    expires_at: datetime
    banned: bool


_SOCKET_SESSION_SQL = ("SELECT s.id, u.id, u.username, u.guest, s.revoked_at, s.expires_at, u.banned_at "
                       "FROM auth_sessions AS s JOIN users AS u ON u.id = s.user_id WHERE s.token_hash = ?")


async def socket_session(engine: AsyncEngine, token_hash: str) -> SocketSession | None:
    """`session_and_user` for a socket opening (a restarted node's sockets all open again at once): the session by its
    token's hash and the little of its user a socket keeps, in one statement without the ORM. On SQLite through the
    driver, one trip to its thread in autocommit (one statement reads one snapshot); the ORM's lookup costs four or
    five trips and three times the CPU."""
    async with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            raw = await connection.get_raw_connection()
            rows = await raw.driver_connection.execute_fetchall(_SOCKET_SESSION_SQL, (token_hash,))
            if not rows:
                return None
            session_id, user_id, username, guest, revoked_at, expires_at, banned_at = rows[0]
            # SQLite keeps UTCDateTime as naive ISO text (app/core/db.py).
            expires = datetime.fromisoformat(expires_at).replace(tzinfo=UTC)
            return SocketSession(session_id, user_id, username, bool(guest), revoked_at is not None, expires,
                                 banned_at is not None)
        row = (await connection.execute(
            select(AuthSession.id, User.id, User.username, User.guest, AuthSession.revoked_at, AuthSession.expires_at,
                   User.banned_at).join(User, User.id == AuthSession.user_id)
            .where(AuthSession.token_hash == token_hash))).first()
        if row is None:
            return None
        session_id, user_id, username, guest, revoked_at, expires, banned_at = row
        return SocketSession(session_id, user_id, username, bool(guest), revoked_at is not None, expires,
                             banned_at is not None)


async def revoke_session(session: AsyncSession, session_id: int, now: datetime) -> None:
    await session.execute(update(AuthSession).where(AuthSession.id == session_id, AuthSession.revoked_at.is_(None))
                          .values(revoked_at=now))


async def revoke_all_sessions(session: AsyncSession, user_id: int, now: datetime) -> int:
    result = await session.execute(update(AuthSession)
                                   .where(AuthSession.user_id == user_id, AuthSession.revoked_at.is_(None),
                                          AuthSession.expires_at > now)
                                   .values(revoked_at=now))
    return int(result.rowcount or 0)


async def valid_session_ids(engine: AsyncEngine, session_ids: Sequence[int], now: datetime) -> set[int]:
    """Of `session_ids`, those neither revoked nor expired (a deleted user's sessions are deleted with it). For the
    node's periodic re-check of every open socket's session (thousands of ids every 20 s): on SQLite through the
    driver, one trip to its thread and no statement compiled for thousands of bound parameters; on PostgreSQL the
    same Core statement on a bare connection, no ORM session."""
    if not session_ids:
        return set()
    async with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            raw = await connection.get_raw_connection()
            # UTCDateTime on SQLite: naive UTC as ISO text with microseconds (app/core/db.py), which compares as text.
            stamp = now.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")
            rows = await raw.driver_connection.execute_fetchall(
                f"SELECT id FROM auth_sessions WHERE id IN ({','.join('?' * len(session_ids))}) "
                "AND revoked_at IS NULL AND expires_at > ?", (*session_ids, stamp))
            return {row[0] for row in rows}
        rows = await connection.execute(select(AuthSession.id).where(
            AuthSession.id.in_(list(session_ids)), AuthSession.revoked_at.is_(None), AuthSession.expires_at > now))
        return {row[0] for row in rows}


async def count_users(session: AsyncSession) -> int:
    return int((await session.execute(select(func.count()).select_from(User))).scalar_one())
