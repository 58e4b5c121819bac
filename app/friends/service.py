"""Friends (platform.md, "Players and friends"): requests by username, accept, decline, cancel, remove, block and
unblock. A user you blocked cannot send you requests (nor, later, invitations: `is_blocked`). Blocking someone also
ends the friendship and any pending request between you."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.accounts.service import AccountService
from app.core.clock import Clock
from app.core.errors import AppError, Conflict, Forbidden, NotFound
from app.friends import repository as repo


class CannotBefriendYourself(AppError):
    code = "cannot_befriend_yourself"
    message = "You cannot send a friend request to yourself."


class CannotBlockYourself(AppError):
    code = "cannot_block_yourself"
    message = "You cannot block yourself."


class AlreadyFriends(Conflict):
    code = "already_friends"
    message = "You are already friends."


class RequestAlreadySent(Conflict):
    code = "request_already_sent"
    message = "You already sent this person a friend request."


class Blocked(Forbidden):
    code = "blocked"
    message = "This person does not accept friend requests from you."


class YouBlockedThem(Conflict):
    code = "you_blocked_them"
    message = "You blocked this person; unblock them first."


class NoSuchRequest(NotFound):
    code = "no_such_request"
    message = "There is no such friend request."


class NotFriends(NotFound):
    code = "not_friends"
    message = "You are not friends with this person."


class NotBlocked(NotFound):
    code = "not_blocked"
    message = "You have not blocked this person."


@dataclass(frozen=True)
class Person:
    id: int
    username: str
    since: datetime


@dataclass(frozen=True)
class FriendLists:
    friends: list[Person]
    incoming: list[Person]
    outgoing: list[Person]
    blocked: list[Person]


class FriendService:
    def __init__(self, clock: Clock, accounts: AccountService):
        self.clock = clock
        self.accounts = accounts

    async def send_request(self, session: AsyncSession, me: User, username: str) -> tuple[str, User]:
        """Ask `username` to be friends. If they had already asked you, you become friends at once ("friends");
        otherwise the request waits for them ("requested"). Returns that status and the other person (to tell)."""
        other = await self.accounts.user_by_username(session, username)
        if other.id == me.id:
            raise CannotBefriendYourself()
        if await repo.has_blocked(session, other.id, me.id):
            raise Blocked()
        if await repo.has_blocked(session, me.id, other.id):
            raise YouBlockedThem()
        if await repo.are_friends(session, me.id, other.id):
            raise AlreadyFriends()
        if await repo.request_between(session, other.id, me.id) is not None:
            await self._befriend(session, other.id, me.id)
            return "friends", other
        if await repo.request_between(session, me.id, other.id) is not None:
            raise RequestAlreadySent()
        try:
            async with session.begin_nested():
                await repo.add_request(session, me.id, other.id, self.clock.now())
        except IntegrityError:
            raise RequestAlreadySent() from None
        return "requested", other

    async def accept(self, session: AsyncSession, me: User, username: str) -> User:
        other = await self.accounts.user_by_username(session, username)
        if await repo.request_between(session, other.id, me.id) is None:
            raise NoSuchRequest()
        await self._befriend(session, other.id, me.id)
        return other

    async def decline(self, session: AsyncSession, me: User, username: str) -> User:
        other = await self.accounts.user_by_username(session, username)
        if not await repo.delete_request(session, other.id, me.id):
            raise NoSuchRequest()
        return other

    async def cancel(self, session: AsyncSession, me: User, username: str) -> User:
        other = await self.accounts.user_by_username(session, username)
        if not await repo.delete_request(session, me.id, other.id):
            raise NoSuchRequest()
        return other

    async def remove(self, session: AsyncSession, me: User, username: str) -> User:
        other = await self.accounts.user_by_username(session, username)
        if not await repo.delete_friendship(session, me.id, other.id):
            raise NotFriends()
        return other

    async def block(self, session: AsyncSession, me: User, username: str) -> User:
        """Block `username` (idempotent): ends the friendship and pending requests both ways. Returns who."""
        other = await self.accounts.user_by_username(session, username)
        if other.id == me.id:
            raise CannotBlockYourself()
        await repo.delete_friendship(session, me.id, other.id)
        await repo.delete_requests_between(session, me.id, other.id)
        if not await repo.has_blocked(session, me.id, other.id):
            try:
                async with session.begin_nested():
                    await repo.add_block(session, me.id, other.id, self.clock.now())
            except IntegrityError:
                pass  # blocked concurrently by another request of ours: the same outcome
        return other

    async def unblock(self, session: AsyncSession, me: User, username: str) -> None:
        other = await self.accounts.user_by_username(session, username)
        if not await repo.delete_block(session, me.id, other.id):
            raise NotBlocked()

    async def lists(self, session: AsyncSession, me: User) -> FriendLists:
        def people(rows: list[tuple[User, datetime]]) -> list[Person]:
            return [Person(user.id, user.username, since) for user, since in rows]

        return FriendLists(friends=people(await repo.friends_of(session, me.id)),
                           incoming=people(await repo.incoming_requests(session, me.id)),
                           outgoing=people(await repo.outgoing_requests(session, me.id)),
                           blocked=people(await repo.blocked_by(session, me.id)))

    async def unseen_requests(self, session: AsyncSession, me: User) -> int:
        """How many requests to me wait that I have not seen yet (the Friends badge, across reloads)."""
        return await repo.unseen_requests(session, me.id)

    async def mark_requests_seen(self, session: AsyncSession, me: User) -> None:
        """I looked at my requests (opened Friends): the badge goes back to nothing; the requests still wait."""
        await repo.mark_requests_seen(session, me.id, self.clock.now())

    # --- for the other layers (invitations, presence) -----------------------------------------------------------

    async def is_blocked(self, session: AsyncSession, a: int, b: int) -> bool:
        """True if either user blocked the other: no requests or invitations pass between them."""
        return await repo.has_blocked(session, a, b) or await repo.has_blocked(session, b, a)

    async def has_blocked(self, session: AsyncSession, blocker_id: int, blocked_id: int) -> bool:
        return await repo.has_blocked(session, blocker_id, blocked_id)

    async def are_friends(self, session: AsyncSession, a: int, b: int) -> bool:
        return await repo.are_friends(session, a, b)

    async def friend_ids(self, session: AsyncSession, user_id: int) -> list[int]:
        return await repo.friend_ids(session, user_id)

    async def _befriend(self, session: AsyncSession, sender_id: int, recipient_id: int) -> None:
        await repo.delete_requests_between(session, sender_id, recipient_id)
        try:
            async with session.begin_nested():
                await repo.add_friendship(session, sender_id, recipient_id, self.clock.now())
        except IntegrityError:
            raise AlreadyFriends() from None
