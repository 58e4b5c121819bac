"""Every friends query."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.friends.models import Block, FriendRequest, Friendship


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


async def request_between(session: AsyncSession, sender_id: int, recipient_id: int) -> FriendRequest | None:
    result = await session.execute(select(FriendRequest).where(FriendRequest.sender_id == sender_id,
                                                               FriendRequest.recipient_id == recipient_id))
    return result.scalar_one_or_none()


async def add_request(session: AsyncSession, sender_id: int, recipient_id: int, now: datetime) -> None:
    session.add(FriendRequest(sender_id=sender_id, recipient_id=recipient_id, created_at=now))
    await session.flush()


async def delete_request(session: AsyncSession, sender_id: int, recipient_id: int) -> int:
    result = await session.execute(delete(FriendRequest).where(FriendRequest.sender_id == sender_id,
                                                               FriendRequest.recipient_id == recipient_id))
    return int(result.rowcount or 0)


async def delete_requests_between(session: AsyncSession, a: int, b: int) -> None:
    await session.execute(delete(FriendRequest).where(or_(
        and_(FriendRequest.sender_id == a, FriendRequest.recipient_id == b),
        and_(FriendRequest.sender_id == b, FriendRequest.recipient_id == a))))


async def are_friends(session: AsyncSession, a: int, b: int) -> bool:
    low, high = _pair(a, b)
    result = await session.execute(select(Friendship.id).where(Friendship.user_low_id == low,
                                                               Friendship.user_high_id == high))
    return result.first() is not None


async def add_friendship(session: AsyncSession, a: int, b: int, now: datetime) -> None:
    low, high = _pair(a, b)
    session.add(Friendship(user_low_id=low, user_high_id=high, created_at=now))
    await session.flush()


async def delete_friendship(session: AsyncSession, a: int, b: int) -> int:
    low, high = _pair(a, b)
    result = await session.execute(delete(Friendship).where(Friendship.user_low_id == low,
                                                            Friendship.user_high_id == high))
    return int(result.rowcount or 0)


async def has_blocked(session: AsyncSession, blocker_id: int, blocked_id: int) -> bool:
    result = await session.execute(select(Block.id).where(Block.blocker_id == blocker_id,
                                                          Block.blocked_id == blocked_id))
    return result.first() is not None


async def add_block(session: AsyncSession, blocker_id: int, blocked_id: int, now: datetime) -> None:
    session.add(Block(blocker_id=blocker_id, blocked_id=blocked_id, created_at=now))
    await session.flush()


async def delete_block(session: AsyncSession, blocker_id: int, blocked_id: int) -> int:
    result = await session.execute(delete(Block).where(Block.blocker_id == blocker_id,
                                                       Block.blocked_id == blocked_id))
    return int(result.rowcount or 0)


async def friends_of(session: AsyncSession, user_id: int) -> list[tuple[User, datetime]]:
    other = User.id
    result = await session.execute(
        select(User, Friendship.created_at)
        .join(Friendship, or_(and_(Friendship.user_low_id == user_id, Friendship.user_high_id == other),
                              and_(Friendship.user_high_id == user_id, Friendship.user_low_id == other)))
        .order_by(User.username_key))
    return [(row[0], row[1]) for row in result.all()]


async def incoming_requests(session: AsyncSession, user_id: int) -> list[tuple[User, datetime]]:
    result = await session.execute(select(User, FriendRequest.created_at)
                                   .join(FriendRequest, FriendRequest.sender_id == User.id)
                                   .where(FriendRequest.recipient_id == user_id)
                                   .order_by(FriendRequest.created_at, FriendRequest.id))
    return [(row[0], row[1]) for row in result.all()]


async def outgoing_requests(session: AsyncSession, user_id: int) -> list[tuple[User, datetime]]:
    result = await session.execute(select(User, FriendRequest.created_at)
                                   .join(FriendRequest, FriendRequest.recipient_id == User.id)
                                   .where(FriendRequest.sender_id == user_id)
                                   .order_by(FriendRequest.created_at, FriendRequest.id))
    return [(row[0], row[1]) for row in result.all()]


async def blocked_by(session: AsyncSession, user_id: int) -> list[tuple[User, datetime]]:
    result = await session.execute(select(User, Block.created_at)
                                   .join(Block, Block.blocked_id == User.id)
                                   .where(Block.blocker_id == user_id)
                                   .order_by(User.username_key))
    return [(row[0], row[1]) for row in result.all()]


async def friend_ids(session: AsyncSession, user_id: int) -> list[int]:
    low = select(Friendship.user_high_id).where(Friendship.user_low_id == user_id)
    high = select(Friendship.user_low_id).where(Friendship.user_high_id == user_id)
    return [int(v) for v in (await session.execute(low.union_all(high))).scalars()]


async def unseen_requests(session: AsyncSession, user_id: int) -> int:
    result = await session.execute(select(func.count(FriendRequest.id))
                                   .where(FriendRequest.recipient_id == user_id, FriendRequest.seen_at.is_(None)))
    return int(result.scalar_one())


async def mark_requests_seen(session: AsyncSession, user_id: int, now: datetime) -> int:
    result = await session.execute(update(FriendRequest)
                                   .where(FriendRequest.recipient_id == user_id, FriendRequest.seen_at.is_(None))
                                   .values(seen_at=now))
    return int(result.rowcount or 0)
