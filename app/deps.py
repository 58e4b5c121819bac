"""FastAPI dependencies shared by every router: the runtime, the request's unit of work, the current user.

The request boundary commits (style.md, after polar): services never do. `DbSession` commits when the endpoint
returns and before the response is sent (`scope="function"`), so a failed commit is the client's error response,
not a 200 followed by a lost write.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.service import Authenticated, GuestAccount
from app.core.security import SESSION_COOKIE
from app.runtime import Runtime


def get_runtime(request: Request) -> Runtime:
    return request.app.state.runtime


READ_METHODS = {"GET", "HEAD"}


async def get_db_session(request: Request) -> AsyncIterator[AsyncSession]:
    runtime: Runtime = request.app.state.runtime
    # A GET only reads: on SQLite its transaction then takes no write lock and never queues behind writers.
    sessions = runtime.reader if request.method in READ_METHODS else runtime.sessionmaker
    async with sessions() as session:
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        else:
            await session.commit()


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
DbSession = Annotated[AsyncSession, Depends(get_db_session, scope="function")]


async def get_current_user(request: Request, session: DbSession, runtime: RuntimeDep) -> Authenticated:
    return await runtime.accounts.authenticate(session, request.cookies.get(SESSION_COOKIE))


CurrentUser = Annotated[Authenticated, Depends(get_current_user)]


async def get_current_user_briefly(request: Request, runtime: RuntimeDep) -> Authenticated:
    """The current user, looked up in a session of its own that is closed before the endpoint runs.

    For endpoints that open their own transactions (creating a table snapshots it): on SQLite every transaction
    takes the write lock at its start, so holding the request's session open meanwhile would block them.
    """
    async with runtime.reader() as session:
        return await runtime.accounts.authenticate(session, request.cookies.get(SESSION_COOKIE))


BrieflyAuthenticated = Annotated[Authenticated, Depends(get_current_user_briefly)]


def full_account(auth: Authenticated) -> Authenticated:
    """The current user, unless it is a guest: guests play vs bots only (403 guest_account)."""
    if auth.user.guest:
        raise GuestAccount()
    return auth


async def get_full_account(auth: CurrentUser) -> Authenticated:
    return full_account(auth)


async def get_full_account_briefly(auth: BrieflyAuthenticated) -> Authenticated:
    return full_account(auth)


# For everything but vs-bots play: friends, rooms and invitations, matchmaking (online and staked), the shop.
FullAccount = Annotated[Authenticated, Depends(get_full_account)]
BrieflyFullAccount = Annotated[Authenticated, Depends(get_full_account_briefly)]


def get_client_address(request: Request) -> str | None:
    """The client's address (uvicorn resolves X-Forwarded-For from the proxies in FORWARDED_ALLOW_IPS)."""
    return request.client.host if request.client else None


ClientAddress = Annotated[str | None, Depends(get_client_address)]
