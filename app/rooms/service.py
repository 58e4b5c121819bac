"""Friends rooms (platform.md, "Friends"): a host creates a room, invites people by username, adds or removes bots,
and starts the game when the seats they want are taken. Invitations reach the invitee at once over their socket when
connected, and wait in their inbox otherwise.

Services never commit; the request boundary does. Starting a room is the exception, because a table is created
outside the database transaction (see `RoomService.start`).
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.sql import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.core.errors import AppError, Conflict, Forbidden, NotFound
from app.games.base import IllegalAction
from app.games.registry import get_game
from app.rooms.models import Room, RoomInvitation
from app.tables.actor import Seat, TableTiming
from app.tables.manager import TableManager, new_table_id

if TYPE_CHECKING:
    from app.core.clock import Clock
    from app.realtime.hub import Hub
    from app.runtime import Runtime

log = logging.getLogger(__name__)


class RoomNotFound(NotFound):
    code = "no_such_room"
    message = "There is no such room, or you are not part of it."


class InvitationNotFound(NotFound):
    code = "no_such_invitation"
    message = "You have no such invitation."


class NotHost(Forbidden):
    code = "not_host"
    message = "Only the room's host can do that."


class RoomNotOpen(Conflict):
    code = "room_not_open"
    message = "This room has already started or was closed."


class RoomFull(Conflict):
    code = "room_full"
    message = "Every seat in this room is taken."


def tell_room(hub: Hub, room_data: dict[str, Any], event: str, extra_users: tuple[int, ...] = (),
              reason: str | None = None) -> None:
    """Tell everyone in the room (and anyone just removed) what changed, over their sockets."""
    users = {room_data["host_id"], *extra_users}
    users.update(seat["user_id"] for seat in room_data["seats"] if seat and "user_id" in seat)
    data: dict[str, Any] = {"event": event, "room": room_data}
    if reason is not None:
        data["reason"] = reason
    for user_id in users:
        hub.send_to_user(user_id, {"type": "room", "data": data})


def tell_withdrawn(hub: Hub, withdrawn: list[tuple[int, dict[str, Any]]]) -> None:
    """Each invitee whose invitation went away (room closed or started, invitation cancelled, a block) hears it
    with its new status, so their lobby and tray drop it instead of offering an Accept that can only fail."""
    for user_id, invitation in withdrawn:
        hub.send_to_user(user_id, {"type": "invitation", "data": invitation})


def room_out(room: Room, invitations: list[tuple[RoomInvitation, str]] | None = None) -> dict[str, Any]:
    return {
        "id": room.id,
        "game": room.game,
        "title": get_game(room.game).title,
        "host_id": room.host_id,
        "options": room.options,
        "turn_seconds": room.turn_seconds,
        "seats": [
            None if seat is None else {k: v for k, v in seat.items()} for seat in room.seats
        ],
        "status": room.status,
        "table_id": room.table_id,
        "invitations": [
            {"id": inv.id, "username": name, "status": inv.status} for inv, name in (invitations or [])
        ],
        "min_seats": get_game(room.game).min_seats,
    }


class RoomService:
    def __init__(self, runtime: Runtime):
        self.runtime = runtime

    @property
    def clock(self) -> Clock:
        return self.runtime.clock

    async def create(self, session: AsyncSession, host: User, game: str, seats: int, options: dict[str, Any],
                     turn_seconds: float) -> Room:
        most = self.runtime.settings.open_rooms_per_user
        hosting = await session.scalar(select(func.count()).select_from(Room)
                                       .where(Room.host_id == host.id, Room.status == "open"))
        if hosting >= most:
            raise Conflict(f"You have {hosting} open rooms; start or close one before opening another.",
                           code="too_many_rooms", details={"most": most})
        now = self.clock.now()
        room = Room(
            id=uuid.uuid4().hex, host_id=host.id, game=game, options=options, turn_seconds=turn_seconds,
            seats=[{"user_id": host.id, "name": host.username}] + [None] * (seats - 1),
            status="open", table_id=None, created_at=now, updated_at=now,
        )
        session.add(room)
        await session.flush()
        return room

    async def get_for(self, session: AsyncSession, room_id: str, user: User, *, lock: bool = False) -> Room:
        query = select(Room).where(Room.id == room_id)
        if lock:
            query = query.with_for_update()
        room = (await session.scalars(query)).first()
        if room is None or not await self._is_member(session, room, user.id):
            raise RoomNotFound()
        return room

    async def _is_member(self, session: AsyncSession, room: Room, user_id: int) -> bool:
        if user_id == room.host_id or user_id in self.seated_user_ids(room):
            return True
        invitation = await session.scalar(
            select(RoomInvitation.id).where(RoomInvitation.room_id == room.id, RoomInvitation.to_user_id == user_id,
                                            RoomInvitation.status == "pending"))
        return invitation is not None

    @staticmethod
    def seated_user_ids(room: Room) -> list[int]:
        return [seat["user_id"] for seat in room.seats if seat and "user_id" in seat]

    async def invitations_of(self, session: AsyncSession, room: Room) -> list[tuple[RoomInvitation, str]]:
        rows = await session.execute(
            select(RoomInvitation, User.username).join(User, User.id == RoomInvitation.to_user_id)
            .where(RoomInvitation.room_id == room.id).order_by(RoomInvitation.id))
        return [(inv, name) for inv, name in rows.all()]

    async def mine(self, session: AsyncSession, user: User) -> list[Room]:
        # A guest of a room sat down through an accepted invitation: that narrows the rooms in the database, the
        # seats say the rest (they may have left since).
        accepted = select(RoomInvitation.room_id).where(RoomInvitation.to_user_id == user.id,
                                                        RoomInvitation.status == "accepted")
        rooms = await session.scalars(
            select(Room).where(Room.status == "open", or_(Room.host_id == user.id, Room.id.in_(accepted)))
            .order_by(Room.created_at.desc()))
        return [room for room in rooms if room.host_id == user.id or user.id in self.seated_user_ids(room)]

    def _require_host_open(self, room: Room, user: User) -> None:
        if room.host_id != user.id:
            raise NotHost()
        if room.status != "open":
            raise RoomNotOpen()

    def _set_seats(self, room: Room, seats: list[Any]) -> None:
        room.seats = list(seats)  # a new list, so the JSON column is seen as changed
        room.updated_at = self.clock.now()

    async def invite(self, session: AsyncSession, room_id: str, host: User, username: str) -> RoomInvitation:
        room = await self.get_for(session, room_id, host, lock=True)
        self._require_host_open(room, host)
        invitee = await self.runtime.accounts.user_by_username(session, username)
        if invitee.id == host.id:
            raise AppError("You are already in your room.", code="cannot_invite_yourself")
        if invitee.id in self.seated_user_ids(room):
            raise Conflict(f"{invitee.username} already sits in this room.", code="already_seated")
        if None not in room.seats:
            raise RoomFull()  # they could only be refused on accepting
        if await self.runtime.friends.is_blocked(session, host.id, invitee.id):
            # platform.md / the foundation issue: a blocked user cannot send you invitations.
            raise Forbidden(f"You cannot invite {invitee.username}.", code="blocked")
        existing = await session.scalar(select(RoomInvitation).where(
            RoomInvitation.room_id == room.id, RoomInvitation.to_user_id == invitee.id))
        now = self.clock.now()
        room.updated_at = now  # the host is still there: the room is not idle (`close_idle`)
        if existing is not None:
            if existing.status == "pending":
                raise Conflict(f"{invitee.username} is already invited.", code="already_invited")
            existing.status, existing.created_at, existing.responded_at = "pending", now, None
            await session.flush()
            return existing
        invitation = RoomInvitation(room_id=room.id, from_user_id=host.id, to_user_id=invitee.id, status="pending",
                                    created_at=now, responded_at=None)
        session.add(invitation)
        await session.flush()
        return invitation

    async def cancel_invitation(self, session: AsyncSession, room_id: str, host: User, invitation_id: int) -> RoomInvitation:
        room = await self.get_for(session, room_id, host, lock=True)
        self._require_host_open(room, host)
        invitation = await session.get(RoomInvitation, invitation_id)
        if invitation is None or invitation.room_id != room.id or invitation.status != "pending":
            raise InvitationNotFound()
        invitation.status, invitation.responded_at = "cancelled", self.clock.now()
        return invitation

    async def withdraw_pending(self, session: AsyncSession, which: ColumnElement[bool]
                               ) -> list[tuple[int, dict[str, Any]]]:
        """Cancel the pending invitations `which` selects; returns (invitee, the invitation as they see it, now
        cancelled) for each, so the endpoint can tell them and their lobby drops it."""
        rows = (await session.execute(
            select(RoomInvitation, Room, User.username)
            .join(Room, Room.id == RoomInvitation.room_id)
            .join(User, User.id == RoomInvitation.from_user_id)
            .where(RoomInvitation.status == "pending", which))).all()
        now = self.clock.now()
        withdrawn = []
        for invitation, room, host_name in rows:
            invitation.status, invitation.responded_at = "cancelled", now
            withdrawn.append((invitation.to_user_id, invitation_out(invitation, room, host_name)))
        await session.flush()
        return withdrawn

    async def withdraw_between(self, session: AsyncSession, a: int, b: int) -> list[tuple[int, dict[str, Any]]]:
        """Blocking: no invitation stays pending between the two, either way."""
        return await self.withdraw_pending(session, or_(
            and_(RoomInvitation.from_user_id == a, RoomInvitation.to_user_id == b),
            and_(RoomInvitation.from_user_id == b, RoomInvitation.to_user_id == a)))

    async def inbox(self, session: AsyncSession, user: User) -> list[dict[str, Any]]:
        rows = await session.execute(
            select(RoomInvitation, Room, User.username)
            .join(Room, Room.id == RoomInvitation.room_id)
            .join(User, User.id == RoomInvitation.from_user_id)
            .where(RoomInvitation.to_user_id == user.id, RoomInvitation.status == "pending", Room.status == "open")
            .order_by(RoomInvitation.created_at.desc()))
        return [invitation_out(inv, room, host) for inv, room, host in rows.all()]

    async def _my_invitation(self, session: AsyncSession, user: User, invitation_id: int) -> tuple[RoomInvitation, Room]:
        invitation = await session.get(RoomInvitation, invitation_id)
        if invitation is None or invitation.to_user_id != user.id or invitation.status != "pending":
            raise InvitationNotFound()
        room = (await session.scalars(select(Room).where(Room.id == invitation.room_id).with_for_update())).one()
        return invitation, room

    async def accept(self, session: AsyncSession, user: User, invitation_id: int) -> Room:
        invitation, room = await self._my_invitation(session, user, invitation_id)
        if room.status != "open":
            raise RoomNotOpen()
        if await self.runtime.friends.is_blocked(session, invitation.from_user_id, user.id):
            raise InvitationNotFound()  # blocking withdraws invitations both ways; one racing it is gone too
        seats = list(room.seats)
        if user.id not in self.seated_user_ids(room):
            try:
                free = seats.index(None)
            except ValueError:
                raise RoomFull() from None
            seats[free] = {"user_id": user.id, "name": user.username}
            self._set_seats(room, seats)
        invitation.status, invitation.responded_at = "accepted", self.clock.now()
        await session.flush()
        return room

    async def decline(self, session: AsyncSession, user: User, invitation_id: int) -> Room:
        invitation, room = await self._my_invitation(session, user, invitation_id)
        invitation.status, invitation.responded_at = "declined", self.clock.now()
        return room

    async def add_bot(self, session: AsyncSession, room_id: str, host: User, level: str) -> Room:
        room = await self.get_for(session, room_id, host, lock=True)
        self._require_host_open(room, host)
        seats = list(room.seats)
        try:
            free = seats.index(None)
        except ValueError:
            raise RoomFull() from None
        seats[free] = {"bot": level, "name": f"Bot {free} ({level})"}
        self._set_seats(room, seats)
        return room

    async def remove_seat(self, session: AsyncSession, room_id: str, host: User, seat: int) -> tuple[Room, int | None]:
        """The host empties a seat (a bot or a guest). Returns the room and the removed guest's id, if any."""
        room = await self.get_for(session, room_id, host, lock=True)
        self._require_host_open(room, host)
        seats = list(room.seats)
        if not 0 <= seat < len(seats) or seats[seat] is None:
            raise AppError("That seat is empty.", code="seat_empty", status=422)
        removed = seats[seat]
        if removed.get("user_id") == host.id:
            raise AppError("The host cannot leave their own seat; close the room instead.", code="host_seat")
        seats[seat] = None
        self._set_seats(room, seats)
        guest = removed.get("user_id")
        if guest is not None:
            await session.execute(update(RoomInvitation).where(
                RoomInvitation.room_id == room.id, RoomInvitation.to_user_id == guest).values(status="cancelled"))
        return room, guest

    async def leave(self, session: AsyncSession, room_id: str, user: User) -> Room:
        room = await self.get_for(session, room_id, user, lock=True)
        if room.status != "open":
            raise RoomNotOpen()
        if room.host_id == user.id:
            raise AppError("The host cannot leave; close the room instead.", code="host_seat")
        if user.id not in self.seated_user_ids(room):
            raise AppError("You have no seat in this room; decline the invitation instead.", code="not_seated")
        seats = [None if seat and seat.get("user_id") == user.id else seat for seat in room.seats]
        self._set_seats(room, seats)
        await session.execute(update(RoomInvitation).where(  # the host sees who left, and may invite them again
            RoomInvitation.room_id == room.id, RoomInvitation.to_user_id == user.id,
            RoomInvitation.status == "accepted").values(status="left", responded_at=self.clock.now()))
        return room

    async def close(self, session: AsyncSession, room_id: str, host: User
                    ) -> tuple[Room, list[tuple[int, dict[str, Any]]]]:
        """Close the room; returns it and its invitations withdrawn (`withdraw_pending`)."""
        room = await self.get_for(session, room_id, host, lock=True)
        self._require_host_open(room, host)
        room.status, room.updated_at = "closed", self.clock.now()
        return room, await self.withdraw_pending(session, RoomInvitation.room_id == room.id)

    async def close_idle_rooms(self, hub: Hub) -> int:
        """`close_idle` in a transaction of its own, for the online loop's housekeeping: who sits in a closed room
        hears it closed (`reason` `idle`), each invitee hears their invitation withdrawn."""
        async with self.runtime.transaction() as session:
            closed, withdrawn = await self.close_idle(session)
        if closed:
            log.info("closed %s friends rooms idle for %s hours", len(closed), self.runtime.settings.room_idle_hours)
        for room_data in closed:
            tell_room(hub, room_data, "closed", reason="idle")
        tell_withdrawn(hub, withdrawn)
        return len(closed)

    async def close_idle(self, session: AsyncSession, limit: int = 500
                         ) -> tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any]]]]:
        """Closes open rooms that nobody changed for ROOM_IDLE_HOURS (the host closed the tab and never came back),
        with their pending invitations, so those stop waiting in the invitees' lobbies. Returns the closed rooms
        (as `room_out`) and the withdrawn invitations (as `withdraw_pending`). Conditional on the room being open
        and idle still, so a host starting it at that moment wins or loses cleanly (start locks the room and checks
        it is open)."""
        now = self.clock.now()
        cutoff = now - timedelta(hours=self.runtime.settings.room_idle_hours)
        idle = select(Room.id).where(Room.status == "open", Room.updated_at < cutoff).limit(limit)
        ids = list(await session.scalars(idle))
        if not ids:
            return [], []
        closed = list(await session.scalars(
            update(Room).where(Room.id.in_(ids), Room.status == "open", Room.updated_at < cutoff)
            .values(status="closed", updated_at=now).returning(Room.id)))
        if not closed:
            return [], []
        withdrawn = await self.withdraw_pending(session, RoomInvitation.room_id.in_(closed))
        rooms = await session.scalars(select(Room).where(Room.id.in_(closed)).execution_options(populate_existing=True))
        return [room_out(room, await self.invitations_of(session, room)) for room in rooms], withdrawn

    async def start(self, room_id: str, host: User, tables: TableManager, timing: TableTiming, *, table_id: str | None = None
                    ) -> Room:
        """Seat everyone taken and create the friends table. Two short transactions around the table's creation:
        the room is claimed first (so a double click cannot start two tables), and released if creation fails."""
        async with self.runtime.transaction() as session:
            room = await self.get_for(session, room_id, host, lock=True)
            self._require_host_open(room, host)
            taken = [seat for seat in room.seats if seat is not None]
            require_enough_players(room.game, taken)
            room.status, room.table_id, room.updated_at = "started", table_id or new_table_id(), self.clock.now()
            table_id, game, options, turn_seconds = room.table_id, room.game, room.options, room.turn_seconds
        await self.create_table(room_id, table_id, game, options, turn_seconds, taken, tables, timing,
                                on_failure={"status": "open", "table_id": None}, host_id=host.id)
        async with self.runtime.reader() as session:
            return (await session.scalars(select(Room).where(Room.id == room_id))).one()

    async def create_table(self, room_id: str, table_id: str, game: str, options: dict[str, Any],
                           turn_seconds: float, taken: list[dict[str, Any]], tables: TableManager,
                           timing: TableTiming, *, on_failure: dict[str, Any], host_id: int) -> None:
        """The friends table of a room already marked started with `table_id`, its seats as the room holds them.
        If the table cannot be made the room gets `on_failure` (open again for its host, or closed). The table's
        meta keeps the room's host and options as the room has them (a rematch's new room copies them)."""
        seats = [
            Seat("human", seat["name"], user_id=seat["user_id"], bot_level="medium") if "user_id" in seat
            else Seat("bot", seat["name"], bot_level=seat["bot"])
            for seat in taken
        ]
        meta = {"room": room_id, "host": host_id, "room_options": options}
        try:
            options = get_game(game).check_options(len(seats), options)
            await tables.create(game=game, seats=seats, mode="friends", options=options, table_id=table_id,
                                timing=TableTiming(**{**timing.__dict__, "turn_seconds": turn_seconds}), meta=meta)
        except Exception as failure:
            async with self.runtime.transaction() as session:
                await session.execute(update(Room).where(Room.id == room_id).values(**on_failure))
            if isinstance(failure, IllegalAction):  # options the game refuses for the seats taken: the host's to fix
                raise AppError(failure.message, code=failure.code, status=422) from None
            raise


def require_enough_players(game: str, taken: list[dict[str, Any]]) -> None:
    game_cls = get_game(game)
    if len(taken) < game_cls.min_seats:
        raise AppError(f"{game_cls.title} needs at least {game_cls.min_seats} players; invite someone or add "
                       "a bot.", code="not_enough_players")


def invitation_out(invitation: RoomInvitation, room: Room, host_name: str) -> dict[str, Any]:
    return {
        "id": invitation.id,
        "room_id": room.id,
        "game": room.game,
        "title": get_game(room.game).title,
        "from": host_name,
        "seats": len(room.seats),
        "taken": sum(1 for seat in room.seats if seat is not None),
        "status": invitation.status,
        "created_at": invitation.created_at.isoformat(),
    }
