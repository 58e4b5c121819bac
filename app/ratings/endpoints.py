"""/api/users/{username}: a player's public profile (level, rating and record per game, recent rated games), and
/u/{username}, the address to share, which opens the profile in the client. Nothing private: no balance, no
friends, no boosts, and only online and staked games (the matchmade ones a league table shows anyway)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse
from sqlalchemy import case, func, select

from app.accounts.levels import level_for_xp
from app.accounts.repository import user_by_key
from app.accounts.schemas import username_key
from app.core.errors import NotFound
from app.core.openapi import errors
from app.core.params import Username
from app.deps import CurrentUser, DbSession, RuntimeDep
from app.games.registry import game_names, get_game
from app.ratings.rating import NEW_PLAYER, RATED_MODES
from app.ratings.schemas import ProfileOut
from app.ratings.service import RatingService
from app.tables.models import GameRecord, GameRecordPlayer

router = APIRouter(tags=["ratings"])


class NoSuchUser(NotFound):
    code = "no_such_user"
    message = "Nobody plays under that name."


def ratings(request: Request) -> RatingService:
    return request.app.state.online.ratings


@router.get("/api/users/{username}", response_model=ProfileOut, responses=errors(NoSuchUser))
async def profile(username: Username, request: Request, auth: CurrentUser, session: DbSession, runtime: RuntimeDep,
                  recent: int = Query(default=10, ge=0, le=50, description="how many recent rated games")
                  ) -> dict[str, Any]:
    """A player's profile: level, and per game their rating (with its uncertainty, provisional or not) and record
    in rated games (online and staked), then their most recent rated games with each one's rating change."""
    user = await user_by_key(session, username_key(username))
    if user is None or user.guest:
        raise NoSuchUser()
    service = ratings(request)
    skills = await service.games_of(session, user.id)
    counts = {row.game: row for row in (await session.execute(
        select(GameRecord.game, func.count().label("played"),
               func.sum(case((GameRecordPlayer.placing == 1, 1), else_=0)).label("won"),
               func.sum(case((GameRecordPlayer.left, 1), else_=0)).label("left"))
        .join(GameRecord, GameRecord.id == GameRecordPlayer.record_id)
        .where(GameRecordPlayer.user_id == user.id, GameRecord.mode.in_(RATED_MODES))
        .group_by(GameRecord.game))).all()}
    games = []
    for name in game_names():
        played = counts.get(name)
        games.append({"game": name, "title": get_game(name).title, **skills.get(name, NEW_PLAYER).shown(),
                      "played": int(played.played) if played else 0, "won": int(played.won or 0) if played else 0,
                      "left": int(played.left or 0) if played else 0})
    rows = (await session.execute(
        select(GameRecordPlayer, GameRecord).join(GameRecord, GameRecord.id == GameRecordPlayer.record_id)
        .where(GameRecordPlayer.user_id == user.id, GameRecord.mode.in_(RATED_MODES))
        .order_by(GameRecordPlayer.finished_at.desc(), GameRecordPlayer.record_id.desc()).limit(recent))).all()
    changes = await service.changes_of(session, user.id, [record.id for _, record in rows])
    return {
        "username": user.username,
        "level": level_for_xp(user.xp, runtime.settings.level_xp_step),
        "member_since": user.created_at.isoformat(),
        "me": user.id == auth.user.id,
        "games": games,
        "recent": [{
            "id": record.id,
            "game": record.game,
            "title": get_game(record.game).title,
            "mode": record.mode,
            "seats": len(record.seats),
            "placing": player.placing,
            "left": player.left,
            "finished_at": record.finished_at.isoformat(),
            "players": [seat["name"] for seat in record.seats],
            "rating": changes.get(record.id),  # null: this game did not move their rating
        } for player, record in rows],
    }


@router.get("/u/{username}", include_in_schema=False)
async def profile_page(username: str) -> RedirectResponse:
    """The profile's address to share: the client shows it at #/u/NAME."""
    return RedirectResponse(f"/#/u/{quote(username, safe='')}", status_code=307)
