"""/api/friends: requests, friends, blocks. Each change reaches the other person at once over their socket (a
`friend` notice, docs/protocol.md), after the commit, the way room invitations do (app/rooms/endpoints.py)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, BackgroundTasks, Request, Response, status

from app.accounts.service import UnknownUser
from app.core.openapi import errors
from app.core.params import Username
from app.friends.service import (AlreadyFriends, Blocked, CannotBefriendYourself, CannotBlockYourself, NoSuchRequest,
                                 NotBlocked, NotFriends, RequestAlreadySent, YouBlockedThem)

from app.deps import DbSession, FullAccount, RuntimeDep
from app.friends.schemas import FriendListsOut, LiveTableOut, PersonOut, RequestSentOut, UnseenOut, UsernameIn
from app.friends.service import Person
from app.rooms.endpoints import notify_withdrawn

router = APIRouter(prefix="/api/friends", tags=["friends"])

NO_CONTENT = status.HTTP_204_NO_CONTENT

FriendEvent = Literal["request", "accepted", "declined", "cancelled", "removed"]


async def _tell(request: Request, user_id: int, event: FriendEvent, username: str) -> None:
    """A `friend` notice to every socket of the user, on whichever node holds it (the hub's user broadcast). A
    coroutine, so the background task runs on the event loop (the sockets' queues are not thread-safe)."""
    request.app.state.realtime.hub.send_to_user(user_id, {"type": "friend",
                                                          "data": {"event": event, "username": username}})


@router.get("", response_model=FriendListsOut)
async def lists(request: Request, auth: FullAccount, session: DbSession, runtime: RuntimeDep) -> FriendListsOut:
    """My friends (with presence, and the live table each plays at, which I may watch), requests both ways and the
    people I blocked."""
    found = await runtime.friends.lists(session, auth.user)
    online = await request.app.state.realtime.hub.online(p.id for p in found.friends)

    def out(people: list[Person]) -> list[PersonOut]:
        return [PersonOut(username=p.username, since=p.since) for p in people]

    playing = await request.app.state.realtime.tables.store.tables_of_people([p.id for p in found.friends])
    friends = [PersonOut(username=p.username, since=p.since, online=p.id in online,
                         table=LiveTableOut(id=playing[p.id].id, game=playing[p.id].game, mode=playing[p.id].mode)
                         if p.id in playing else None)
               for p in found.friends]
    return FriendListsOut(friends=friends, incoming=out(found.incoming), outgoing=out(found.outgoing),
                          blocked=out(found.blocked))


@router.get("/unseen", response_model=UnseenOut)
async def unseen(auth: FullAccount, session: DbSession, runtime: RuntimeDep) -> UnseenOut:
    """The Friends badge: requests to me I have not seen yet (until I open Friends)."""
    return UnseenOut(requests=await runtime.friends.unseen_requests(session, auth.user))


@router.post("/seen", status_code=NO_CONTENT)
async def seen(auth: FullAccount, session: DbSession, runtime: RuntimeDep) -> Response:
    """I opened Friends: the requests waiting for me are seen (they still wait for an answer)."""
    await runtime.friends.mark_requests_seen(session, auth.user)
    return Response(status_code=NO_CONTENT)


@router.post("/requests", response_model=RequestSentOut, status_code=status.HTTP_201_CREATED,
             responses=errors(UnknownUser, CannotBefriendYourself, Blocked, YouBlockedThem, AlreadyFriends,
                              RequestAlreadySent))
async def send_request(body: UsernameIn, request: Request, background: BackgroundTasks, auth: FullAccount,
                       session: DbSession, runtime: RuntimeDep) -> RequestSentOut:
    sent, other = await runtime.friends.send_request(session, auth.user, body.username)
    # After the commit (background tasks run once the response is sent), so what they read then agrees.
    background.add_task(_tell, request, other.id, "request" if sent == "requested" else "accepted",
                        auth.user.username)
    return RequestSentOut(status=sent)


@router.post("/requests/{username}/accept", status_code=NO_CONTENT, responses=errors(UnknownUser, NoSuchRequest))
async def accept(request: Request, background: BackgroundTasks, auth: FullAccount, session: DbSession,
                 runtime: RuntimeDep, username: Username) -> Response:
    other = await runtime.friends.accept(session, auth.user, username)
    background.add_task(_tell, request, other.id, "accepted", auth.user.username)
    return Response(status_code=NO_CONTENT)


@router.post("/requests/{username}/decline", status_code=NO_CONTENT, responses=errors(UnknownUser, NoSuchRequest))
async def decline(request: Request, background: BackgroundTasks, auth: FullAccount, session: DbSession,
                  runtime: RuntimeDep, username: Username) -> Response:
    other = await runtime.friends.decline(session, auth.user, username)
    background.add_task(_tell, request, other.id, "declined", auth.user.username)
    return Response(status_code=NO_CONTENT)


@router.delete("/requests/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, NoSuchRequest))
async def cancel(request: Request, background: BackgroundTasks, auth: FullAccount, session: DbSession,
                 runtime: RuntimeDep, username: Username) -> Response:
    other = await runtime.friends.cancel(session, auth.user, username)
    background.add_task(_tell, request, other.id, "cancelled", auth.user.username)
    return Response(status_code=NO_CONTENT)


@router.delete("/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, NotFriends))
async def remove(request: Request, background: BackgroundTasks, auth: FullAccount, session: DbSession,
                 runtime: RuntimeDep, username: Username) -> Response:
    other = await runtime.friends.remove(session, auth.user, username)
    background.add_task(_tell, request, other.id, "removed", auth.user.username)
    # No longer friends: neither may watch the other's friends or practice tables any more.
    background.add_task(request.app.state.realtime.watchers_changed, auth.user.id)
    background.add_task(request.app.state.realtime.watchers_changed, other.id)
    return Response(status_code=NO_CONTENT)


@router.put("/blocks/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, CannotBlockYourself))
async def block(request: Request, background: BackgroundTasks, auth: FullAccount, session: DbSession,
                runtime: RuntimeDep, username: Username) -> Response:
    other = await runtime.friends.block(session, auth.user, username)
    # No invitation stays pending between us, either way (api.md: no invitations pass between them).
    withdrawn = await request.app.state.rooms.withdraw_between(session, auth.user.id, other.id)
    background.add_task(notify_withdrawn, request, withdrawn)
    # The person blocked stops watching the tables where I sit.
    background.add_task(request.app.state.realtime.watchers_changed, auth.user.id)
    return Response(status_code=NO_CONTENT)


@router.delete("/blocks/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, NotBlocked))
async def unblock(auth: FullAccount, session: DbSession, runtime: RuntimeDep, username: Username) -> Response:
    await runtime.friends.unblock(session, auth.user, username)
    return Response(status_code=NO_CONTENT)
