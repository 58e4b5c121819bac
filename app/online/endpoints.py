"""/api/matchmaking, /api/shop and /api/league. Queueing itself is on the socket (`queue` / `unqueue`), so that
closing it leaves the queue and the match arrives as a notice; HTTP shows where you are and lets you leave."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, status

from app.accounts.service import Authenticated
from app.core.errors import AppError, NotFound
from app.core.openapi import errors
from app.core.params import GameName, LeagueDay, PageOffset
from app.core.security import SESSION_COOKIE
from app.deps import BrieflyFullAccount, DbSession, FullAccount, RuntimeDep
from app.games.registry import UnknownGame, game_names, get_game
from app.online.league import week_bounds, week_of
from app.online.schemas import (LeagueOut, LeagueWeeksOut, LeftQueueOut, MatchmakingOut, PurchaseIn, PurchaseOut,
                                ShopOut, StandingsOut)
from app.online.service import OnlinePlay
from app.ledger.service import IdempotencyKeyReused, InsufficientFunds
from app.online.shop import BoosterActive, UnknownItem, boost_out

router = APIRouter(prefix="/api", tags=["online"])


def online(request: Request) -> OnlinePlay:
    return request.app.state.online


async def optional_user(request: Request, runtime: RuntimeDep) -> Authenticated | None:
    """The logged-in user if the cookie is valid, else None (for public pages that also show "me")."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    async with runtime.reader() as session:
        try:
            return await runtime.accounts.authenticate(session, token)
        except AppError:
            return None


MaybeUser = Annotated[Authenticated | None, Depends(optional_user)]


def check_league_game(game: str) -> str:
    try:
        get_game(game)
    except UnknownGame:
        raise NotFound(f"There is no game called {game!r}; the games are {', '.join(game_names())}.",
                       code="unknown_game") from None
    return game


# --- matchmaking -----------------------------------------------------------------------------------------


# Only the fields of the status at hand are sent (waiting: the queue and fill time; playing: the table).
@router.get("/matchmaking", response_model=MatchmakingOut, response_model_exclude_unset=True,
            responses=errors((404, "unknown_game")))
async def matchmaking_status(request: Request, auth: BrieflyFullAccount, runtime: RuntimeDep,
                             game: GameName | None = Query(default=None, description="also say how many people "
                                                           "wait at this game's staked tables")) -> MatchmakingOut:
    """Where I am (idle, waiting at a forming table, playing at a matchmade table) and what I can queue for; with
    `game`, how many wait at each of its staked tables (`staked_waiting`: seats, stake, players)."""
    settings = runtime.settings
    matchmaking = online(request).matchmaking
    here = await matchmaking.status(auth.user.id)
    if game is not None:
        here["staked_waiting"] = await matchmaking.staked_waiting(check_league_game(game))
    return MatchmakingOut.model_validate({
        **here,
        "options": {
            "modes": ["online", "staked"],
            "stakes": list(settings.stakes),
            "staked_min_level": settings.staked_min_level,
            "online_fill_seconds": settings.online_fill_seconds,
            "staked_fill_seconds": settings.staked_fill_seconds,
            "queue_grace_seconds": settings.queue_grace_seconds,
            "games": [{"name": name, "title": get_game(name).title, "min_seats": get_game(name).min_seats,
                       "max_seats": get_game(name).max_seats} for name in game_names()],
        },
    })


@router.delete("/matchmaking", response_model=LeftQueueOut, response_model_exclude_unset=True)
async def leave_matchmaking(request: Request, auth: BrieflyFullAccount) -> LeftQueueOut:
    """Leave the queue, whichever socket queued (a staked seat's stake comes back)."""
    return LeftQueueOut.model_validate(await online(request).matchmaking.unqueue(auth.user.id))


# --- shop ------------------------------------------------------------------------------------------------


@router.get("/shop", response_model=ShopOut)
async def shop(request: Request, auth: FullAccount, session: DbSession, runtime: RuntimeDep) -> ShopOut:
    """What the shop sells, what I have running and my balance."""
    service = online(request).shop
    wallet = await runtime.ledger.wallet_id(session, auth.user.id)
    return ShopOut.model_validate({
        "items": [item.as_dict() for item in service.items.values()],
        "active": await service.running_until(session, auth.user.id),
        "balance": await runtime.ledger.balance(session, wallet),
    })


@router.post("/shop/purchases", status_code=status.HTTP_201_CREATED, response_model=PurchaseOut,
             responses=errors(UnknownItem, InsufficientFunds, BoosterActive, IdempotencyKeyReused))
async def buy(body: PurchaseIn, request: Request, auth: FullAccount, session: DbSession,
              runtime: RuntimeDep) -> PurchaseOut:
    """Buy the gold booster (starts now, one hour) or the VIP pass (30 days, extended if bought again)."""
    service = online(request).shop
    boost = await service.buy(session, auth.user.id, body.item, body.request_id)
    wallet = await runtime.ledger.wallet_id(session, auth.user.id)
    return PurchaseOut.model_validate({
        **boost_out(boost, service.item(boost.kind)),
        "balance": await runtime.ledger.balance(session, wallet),
        "active": await service.running_until(session, auth.user.id),
    })


# --- league ----------------------------------------------------------------------------------------------


@router.get("/league", response_model=LeagueOut)
async def leagues(runtime: RuntimeDep) -> LeagueOut:
    """The leagues (one per game) and the current week."""
    week = week_of(runtime.clock.now())
    starts_at, ends_at = week_bounds(week)
    return LeagueOut.model_validate({
        "week": week.isoformat(), "starts_at": starts_at.isoformat(), "ends_at": ends_at.isoformat(),
        "points": list(runtime.settings.league_points), "prizes": list(runtime.settings.league_prizes),
        "games": [{"name": name, "title": get_game(name).title} for name in game_names()],
    })


@router.get("/league/{game}", response_model=StandingsOut, responses=errors((404, "unknown_game")))
async def league_standings(game: GameName, request: Request, me: MaybeUser, session: DbSession, runtime: RuntimeDep,
                           week: LeagueDay | None = Query(default=None, description="any day of it; default now"),
                           limit: int = Query(default=50, ge=1, le=200),
                           offset: PageOffset = 0) -> StandingsOut:
    """One game's standings for a week (public), best first; `me` is my place when logged in."""
    game = check_league_game(game)
    monday = week_of(runtime.clock.now()) if week is None else week - timedelta(days=week.weekday())
    return StandingsOut.model_validate(await online(request).league.standings(
        session, game, monday, limit=limit, offset=offset, user_id=me.user.id if me else None))


@router.get("/league/{game}/weeks", response_model=LeagueWeeksOut, responses=errors((404, "unknown_game")))
async def league_weeks(game: GameName, request: Request, session: DbSession) -> LeagueWeeksOut:
    """The weeks this game's league has standings for, newest first, and whether each is closed (paid)."""
    game = check_league_game(game)
    return LeagueWeeksOut.model_validate({"game": game, "weeks": await online(request).league.weeks(session, game)})
