"""/api/rooms and /api/invitations: friends rooms, invitations by username, bots, starting the game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.params import DatabaseId, RoomId, SeatIndex
from app.accounts.service import UnknownUser
from app.core.openapi import errors
from app.rooms.service import InvitationNotFound, NotHost, RoomFull, RoomNotFound, RoomNotOpen
from app.deps import BrieflyFullAccount, DbSession, FullAccount, RuntimeDep
from app.rooms.models import Room, RoomInvitation
from app.rooms.schemas import (BotIn, DeclinedOut, InboxOut, InvitationOut, InviteIn, LeftRoomOut, RoomIn, RoomOut,
                               RoomsOut)
from app.rooms.service import RoomService, invitation_out, room_out, tell_room, tell_withdrawn
from app.tables.endpoints import GAME_SETUP_ERRORS, check_bot_level, check_game, realtime

router = APIRouter(prefix="/api", tags=["rooms"])
# A room's seats are {"user_id", "name"} or {"bot", "name"}: only the keys a seat has are sent.
ROOM = {"response_model": RoomOut, "response_model_exclude_unset": True}

def rooms(request: Request) -> RoomService:
    return request.app.state.rooms


async def _out(service: RoomService, session: AsyncSession, room: Room) -> dict[str, Any]:
    return room_out(room, await service.invitations_of(session, room))


async def _notify_room(request: Request, room_data: dict[str, Any], event: str, extra_users: tuple[int, ...] = ()
                       ) -> None:
    """`tell_room`, as a coroutine so the background task runs on the event loop (the sockets' queues are not
    thread-safe)."""
    tell_room(realtime(request).hub, room_data, event, extra_users)


async def _notify_user(request: Request, user_id: int, message: dict[str, Any]) -> None:
    realtime(request).hub.send_to_user(user_id, message)


async def notify_withdrawn(request: Request, withdrawn: list[tuple[int, dict[str, Any]]]) -> None:
    tell_withdrawn(realtime(request).hub, withdrawn)


@router.post("/rooms", status_code=status.HTTP_201_CREATED,
             responses=errors(*GAME_SETUP_ERRORS, (409, "too_many_rooms")), **ROOM)
async def create_room(body: RoomIn, request: Request, auth: FullAccount, session: DbSession) -> RoomOut:
    options = check_game(body.game, body.seats, body.options)
    service = rooms(request)
    room = await service.create(session, auth.user, body.game, body.seats, options, body.turn_seconds)
    return RoomOut.model_validate(await _out(service, session, room))


@router.get("/rooms", response_model=RoomsOut, response_model_exclude_unset=True)
async def my_rooms(request: Request, auth: FullAccount, session: DbSession) -> RoomsOut:
    service = rooms(request)
    return RoomsOut.model_validate(
        {"rooms": [await _out(service, session, room) for room in await service.mine(session, auth.user)]})


@router.get("/rooms/{room_id}", responses=errors(RoomNotFound), **ROOM)
async def get_room(room_id: RoomId, request: Request, auth: FullAccount, session: DbSession) -> RoomOut:
    service = rooms(request)
    return RoomOut.model_validate(await _out(service, session, await service.get_for(session, room_id, auth.user)))


@router.post("/rooms/{room_id}/invitations", status_code=status.HTTP_201_CREATED, response_model=InvitationOut,
             responses=errors(RoomNotFound, NotHost, RoomNotOpen, RoomFull, UnknownUser,
                              (400, "cannot_invite_yourself"),
                              (409, "already_seated"), (403, "blocked"), (409, "already_invited")))
async def invite(room_id: RoomId, body: InviteIn, request: Request, background: BackgroundTasks, auth: FullAccount,
                 session: DbSession) -> InvitationOut:
    service = rooms(request)
    invitation = await service.invite(session, room_id, auth.user, body.username)
    room = await service.get_for(session, room_id, auth.user)
    notice = invitation_out(invitation, room, auth.user.username)
    data = await _out(service, session, room)
    # After the commit (background tasks run once the response is sent), so the invitee finds it in the inbox.
    background.add_task(_notify_user, request, invitation.to_user_id, {"type": "invitation", "data": notice})
    background.add_task(_notify_room, request, data, "invited")
    return InvitationOut.model_validate(notice)


@router.delete("/rooms/{room_id}/invitations/{invitation_id}",
               responses=errors(RoomNotFound, NotHost, RoomNotOpen, InvitationNotFound), **ROOM)
async def cancel_invitation(room_id: RoomId, invitation_id: DatabaseId, request: Request,
                            background: BackgroundTasks, auth: FullAccount, session: DbSession) -> RoomOut:
    service = rooms(request)
    invitation = await service.cancel_invitation(session, room_id, auth.user, invitation_id)
    room = await service.get_for(session, room_id, auth.user)
    data = await _out(service, session, room)
    background.add_task(_notify_room, request, data, "invitation_cancelled")
    background.add_task(notify_withdrawn, request,
                        [(invitation.to_user_id, invitation_out(invitation, room, auth.user.username))])
    return RoomOut.model_validate(data)


@router.get("/invitations", response_model=InboxOut)
async def inbox(request: Request, auth: FullAccount, session: DbSession) -> InboxOut:
    """My pending invitations to rooms that are still open."""
    return InboxOut.model_validate({"invitations": await rooms(request).inbox(session, auth.user)})


@router.post("/invitations/{invitation_id}/accept", responses=errors(InvitationNotFound, RoomNotOpen, RoomFull),
             **ROOM)
async def accept(invitation_id: DatabaseId, request: Request, background: BackgroundTasks, auth: FullAccount,
                 session: DbSession) -> RoomOut:
    service = rooms(request)
    room = await service.accept(session, auth.user, invitation_id)
    data = await _out(service, session, room)
    background.add_task(_notify_room, request, data, "joined")
    return RoomOut.model_validate(data)


@router.post("/invitations/{invitation_id}/decline", response_model=DeclinedOut, responses=errors(InvitationNotFound))
async def decline(invitation_id: DatabaseId, request: Request, background: BackgroundTasks, auth: FullAccount,
                  session: DbSession) -> DeclinedOut:
    service = rooms(request)
    room = await service.decline(session, auth.user, invitation_id)
    data = room_out(room, await service.invitations_of(session, room))
    background.add_task(_notify_room, request, data, "declined")
    return DeclinedOut(declined=invitation_id)


@router.post("/rooms/{room_id}/bots",
             responses=errors(RoomNotFound, NotHost, RoomNotOpen, RoomFull, (422, "unknown_bot_level")), **ROOM)
async def add_bot(room_id: RoomId, body: BotIn, request: Request, background: BackgroundTasks, auth: FullAccount,
                  session: DbSession) -> RoomOut:
    service = rooms(request)
    room = await service.add_bot(session, room_id, auth.user, check_bot_level(body.level))
    data = await _out(service, session, room)
    background.add_task(_notify_room, request, data, "bot_added")
    return RoomOut.model_validate(data)


@router.delete("/rooms/{room_id}/seats/{seat}",
               responses=errors(RoomNotFound, NotHost, RoomNotOpen, (422, "seat_empty"), (400, "host_seat")), **ROOM)
async def remove_seat(room_id: RoomId, seat: SeatIndex, request: Request, background: BackgroundTasks,
                      auth: FullAccount, session: DbSession) -> RoomOut:
    service = rooms(request)
    room, guest = await service.remove_seat(session, room_id, auth.user, seat)
    data = await _out(service, session, room)
    background.add_task(_notify_room, request, data, "seat_emptied", (guest,) if guest else ())
    return RoomOut.model_validate(data)


@router.post("/rooms/{room_id}/leave", response_model=LeftRoomOut,
             responses=errors(RoomNotFound, RoomNotOpen, (400, "host_seat"), (400, "not_seated")))
async def leave_room(room_id: RoomId, request: Request, background: BackgroundTasks, auth: FullAccount,
                     session: DbSession) -> LeftRoomOut:
    service = rooms(request)
    room = await service.leave(session, room_id, auth.user)
    data = await _out(service, session, room)
    background.add_task(_notify_room, request, data, "left")
    return LeftRoomOut(left=room_id)


@router.delete("/rooms/{room_id}", responses=errors(RoomNotFound, NotHost, RoomNotOpen), **ROOM)
async def close_room(room_id: RoomId, request: Request, background: BackgroundTasks, auth: FullAccount,
                     session: DbSession) -> RoomOut:
    service = rooms(request)
    room, withdrawn = await service.close(session, room_id, auth.user)
    data = await _out(service, session, room)
    background.add_task(_notify_room, request, data, "closed")
    background.add_task(notify_withdrawn, request, withdrawn)
    return RoomOut.model_validate(data)


@router.post("/rooms/{room_id}/start", responses=errors(RoomNotFound, NotHost, RoomNotOpen,
                                                         (400, "not_enough_players"), *GAME_SETUP_ERRORS), **ROOM)
async def start_room(room_id: RoomId, request: Request, auth: BrieflyFullAccount,
                     runtime: RuntimeDep) -> RoomOut:
    """Start the game with the seats taken (empty seats are dropped). Everyone seated is told the table's id."""
    service = rooms(request)
    manager = realtime(request).tables
    room = await service.start(room_id, auth.user, manager, manager.timing)
    async with runtime.transaction() as session:  # who was invited and did not come will not now
        withdrawn = await service.withdraw_pending(session, RoomInvitation.room_id == room_id)
        data = await _out(service, session, room)
    await _notify_room(request, data, "started")
    await notify_withdrawn(request, withdrawn)
    return RoomOut.model_validate(data)
