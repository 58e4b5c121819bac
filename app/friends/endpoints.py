"""/api/friends: requests, friends, blocks."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from app.accounts.service import UnknownUser
from app.core.openapi import errors
from app.core.params import Username
from app.friends.service import (AlreadyFriends, Blocked, CannotBefriendYourself, CannotBlockYourself, NoSuchRequest,
                                 NotBlocked, NotFriends, RequestAlreadySent, YouBlockedThem)

from app.deps import CurrentUser, DbSession, RuntimeDep
from app.friends.schemas import FriendListsOut, PersonOut, RequestSentOut, UsernameIn
from app.friends.service import Person

router = APIRouter(prefix="/api/friends", tags=["friends"])

NO_CONTENT = status.HTTP_204_NO_CONTENT


@router.get("", response_model=FriendListsOut)
async def lists(request: Request, auth: CurrentUser, session: DbSession, runtime: RuntimeDep) -> FriendListsOut:
    found = await runtime.friends.lists(session, auth.user)
    online = await request.app.state.realtime.hub.online(p.id for p in found.friends)

    def out(people: list[Person]) -> list[PersonOut]:
        return [PersonOut(username=p.username, since=p.since) for p in people]

    friends = [PersonOut(username=p.username, since=p.since, online=p.id in online) for p in found.friends]
    return FriendListsOut(friends=friends, incoming=out(found.incoming), outgoing=out(found.outgoing),
                          blocked=out(found.blocked))


@router.post("/requests", response_model=RequestSentOut, status_code=status.HTTP_201_CREATED,
             responses=errors(UnknownUser, CannotBefriendYourself, Blocked, YouBlockedThem, AlreadyFriends,
                              RequestAlreadySent))
async def send_request(body: UsernameIn, auth: CurrentUser, session: DbSession, runtime: RuntimeDep
                       ) -> RequestSentOut:
    return RequestSentOut(status=await runtime.friends.send_request(session, auth.user, body.username))


@router.post("/requests/{username}/accept", status_code=NO_CONTENT, responses=errors(UnknownUser, NoSuchRequest))
async def accept(auth: CurrentUser, session: DbSession, runtime: RuntimeDep, username: Username) -> Response:
    await runtime.friends.accept(session, auth.user, username)
    return Response(status_code=NO_CONTENT)


@router.post("/requests/{username}/decline", status_code=NO_CONTENT, responses=errors(UnknownUser, NoSuchRequest))
async def decline(auth: CurrentUser, session: DbSession, runtime: RuntimeDep, username: Username) -> Response:
    await runtime.friends.decline(session, auth.user, username)
    return Response(status_code=NO_CONTENT)


@router.delete("/requests/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, NoSuchRequest))
async def cancel(auth: CurrentUser, session: DbSession, runtime: RuntimeDep, username: Username) -> Response:
    await runtime.friends.cancel(session, auth.user, username)
    return Response(status_code=NO_CONTENT)


@router.delete("/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, NotFriends))
async def remove(auth: CurrentUser, session: DbSession, runtime: RuntimeDep, username: Username) -> Response:
    await runtime.friends.remove(session, auth.user, username)
    return Response(status_code=NO_CONTENT)


@router.put("/blocks/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, CannotBlockYourself))
async def block(auth: CurrentUser, session: DbSession, runtime: RuntimeDep, username: Username) -> Response:
    await runtime.friends.block(session, auth.user, username)
    return Response(status_code=NO_CONTENT)


@router.delete("/blocks/{username}", status_code=NO_CONTENT, responses=errors(UnknownUser, NotBlocked))
async def unblock(auth: CurrentUser, session: DbSession, runtime: RuntimeDep, username: Username) -> Response:
    await runtime.friends.unblock(session, auth.user, username)
    return Response(status_code=NO_CONTENT)
