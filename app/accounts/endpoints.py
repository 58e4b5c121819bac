"""/api/auth/* and /api/me."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request, Response, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.levels import xp_for_level
from app.accounts.schemas import LoginIn, LogoutAllOut, MeOut, RegisterIn, SettingsIn
from app.accounts.service import AccountBanned, InvalidCredentials, NotAGuest, Profile, UsernameTaken
from app.core.errors import TooManyRequests
from app.core.openapi import errors
from app.core.security import SESSION_COOKIE
from app.deps import BrieflyAuthenticated, ClientAddress, CurrentUser, DbSession, RuntimeDep
from app.runtime import Runtime

router = APIRouter(prefix="/api", tags=["accounts"])


@router.post("/auth/register", status_code=status.HTTP_201_CREATED, response_model=MeOut,
             responses=errors(UsernameTaken, TooManyRequests))
async def register(body: RegisterIn, request: Request, response: Response, session: DbSession,
                   runtime: RuntimeDep, address: ClientAddress) -> MeOut:
    user, token = await runtime.accounts.register(session, body.username, body.password, address)
    _set_session_cookie(response, request, runtime, token)
    return _me(await runtime.accounts.profile(session, user), runtime)


@router.post("/auth/guest", status_code=status.HTTP_201_CREATED, response_model=MeOut,
             responses=errors(TooManyRequests))
async def play_as_guest(request: Request, response: Response, session: DbSession, runtime: RuntimeDep,
                        address: ClientAddress) -> MeOut:
    """A guest account, logged in: vs-bots play at once, no coins, nothing else until it signs up. Counted
    against the sign-up limits; deleted GUEST_TTL_DAYS later unless it signs up."""
    user, token = await runtime.accounts.create_guest(session, address)
    _set_session_cookie(response, request, runtime, token, days=runtime.settings.guest_ttl_days)
    return _me(await runtime.accounts.profile(session, user), runtime)


@router.post("/auth/upgrade", response_model=MeOut, responses=errors(UsernameTaken, NotAGuest))
async def sign_up_guest(body: RegisterIn, request: Request, response: Response, auth: BrieflyAuthenticated,
                        session: DbSession, runtime: RuntimeDep, address: ClientAddress) -> MeOut:
    """Sign up from a guest session: the same account gets this name and password and the welcome coins, and
    keeps its game history. The session cookie stays and now lasts as long as any account's."""
    user = await runtime.accounts.upgrade(session, auth, body.username, body.password, address)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        _set_session_cookie(response, request, runtime, token)
    return _me(await runtime.accounts.profile(session, user), runtime)


@router.post("/auth/login", response_model=MeOut,
             responses=errors(InvalidCredentials, AccountBanned, TooManyRequests))
async def login(body: LoginIn, request: Request, response: Response, session: DbSession,
                runtime: RuntimeDep, address: ClientAddress) -> MeOut:
    user, token = await runtime.accounts.login(session, body.username, body.password, address)
    _set_session_cookie(response, request, runtime, token)
    return _me(await runtime.accounts.profile(session, user), runtime,
               await _running_items(request, session, user.id))


@router.post("/auth/logout", status_code=status.HTTP_204_NO_CONTENT)
async def logout(auth: CurrentUser, request: Request, session: DbSession, runtime: RuntimeDep) -> Response:
    await runtime.accounts.logout(session, auth)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    _clear_session_cookie(response, request)
    return response


@router.post("/auth/logout-all", response_model=LogoutAllOut)
async def logout_all(auth: CurrentUser, request: Request, response: Response, session: DbSession,
                     runtime: RuntimeDep) -> LogoutAllOut:
    revoked = await runtime.accounts.logout_everywhere(session, auth.user.id)
    _clear_session_cookie(response, request)
    return LogoutAllOut(sessions_revoked=revoked)


@router.get("/me", response_model=MeOut)
async def me(auth: CurrentUser, request: Request, session: DbSession, runtime: RuntimeDep) -> MeOut:
    return _me(await runtime.accounts.profile(session, auth.user), runtime,
               await _running_items(request, session, auth.user.id))


@router.put("/me/settings", response_model=MeOut)
async def change_settings(body: SettingsIn, auth: CurrentUser, request: Request, background: BackgroundTasks,
                          session: DbSession, runtime: RuntimeDep) -> MeOut:
    """Change my settings (the fields sent): `allow_watching`, "let others watch my online games"."""
    user = await session.merge(auth.user)
    if body.allow_watching is not None:
        user.allow_watching = body.allow_watching
        if not body.allow_watching:
            # Once committed: the strangers watching my online and staked games are sent off.
            background.add_task(request.app.state.realtime.watchers_changed, auth.user.id)
    await session.flush()
    return _me(await runtime.accounts.profile(session, user), runtime,
               await _running_items(request, session, auth.user.id))


async def _running_items(request: Request, session: AsyncSession, user_id: int) -> list[dict[str, Any]]:
    # The shop belongs to online play, which the app sets up next to the tables; without it nothing can run.
    online = getattr(request.app.state, "online", None)
    return await online.shop.running_until(session, user_id) if online is not None else []


def _me(profile: Profile, runtime: Runtime, active: list[dict[str, Any]] | None = None) -> MeOut:
    step = runtime.settings.level_xp_step
    return MeOut(id=profile.id, username=profile.username, coins=profile.coins, xp=profile.xp, level=profile.level,
                 level_xp=xp_for_level(profile.level, step), next_level_xp=xp_for_level(profile.level + 1, step),
                 active=active or [], guest=profile.guest, allow_watching=profile.allow_watching)


def _set_session_cookie(response: Response, request: Request, runtime: Runtime, token: str,
                        days: int | None = None) -> None:
    days = runtime.settings.session_days if days is None else days
    response.set_cookie(SESSION_COOKIE, token, max_age=days * 86400, path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")


def _clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
