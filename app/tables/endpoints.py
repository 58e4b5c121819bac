"""/api/tables (vs-bots tables, my live tables) and /api/games (my past games, one game's record)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Query, Request, status
from sqlalchemy import select

from app.core.errors import AppError, Conflict, NotFound
from app.core.openapi import errors
from app.core.params import BOT_LEVELS, MAX_OFFSET, GameId
from app.deps import BrieflyAuthenticated, CurrentUser, DbSession, RuntimeDep
from app.games.base import IllegalAction
from app.games.registry import UnknownGame, game_names, get_game
from app.tables.actor import Seat, TableError, TableTiming
from app.tables.models import GameRecord, GameRecordPlayer
from app.tables.schemas import (GameOut, GameRecordOut, GamesOut, MyTablesOut, PastGameOut, PastGamesOut,
                                RecordSeatOut, ReplayOut, TableOut, VsBotsIn)
from app.tables.replay import MAX_REPLAY_FRAMES, replay_frames
from app.tables.spectators import check_watcher

if TYPE_CHECKING:
    from app.realtime.service import Realtime

router = APIRouter(prefix="/api", tags=["tables"])


# What check_game refuses: the game's name, then its own option checks (app/games/base.py, each game's options).
GAME_SETUP_ERRORS = ((422, "unknown_game"), (422, "bad_seat_count"), (422, "unknown_option"), (422, "bad_option"))


def realtime(request: Request) -> Realtime:
    return request.app.state.realtime


def check_game(name: str, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    try:
        return get_game(name).check_options(seats, options)
    except UnknownGame:
        raise AppError(f"There is no game called {name!r}; the games are {', '.join(game_names())}.",
                       code="unknown_game", status=422) from None
    except IllegalAction as refused:
        raise AppError(refused.message, code=refused.code, status=422) from None


def check_bot_level(level: str) -> str:
    if level not in BOT_LEVELS:
        raise AppError(f"Bot levels are {', '.join(BOT_LEVELS)}.", code="unknown_bot_level", status=422)
    return level


def bot_seat(level: str, number: int) -> Seat:
    return Seat("bot", f"Bot {number} ({level})", bot_level=level)


@router.get("/games", response_model=GamesOut)
async def list_games() -> GamesOut:
    """The games on offer, with their seat ranges, options and bot levels (the settings screens use this)."""
    games = []
    for name in game_names():
        cls = get_game(name)
        games.append(GameOut(name=name, title=cls.title, min_seats=cls.min_seats, max_seats=cls.max_seats,
                             options=cls.default_options, bot_levels=list(cls.bots)))
    return GamesOut(games=games)


@router.post("/tables", status_code=status.HTTP_201_CREATED, response_model=TableOut,
             responses=errors(*GAME_SETUP_ERRORS, (422, "unknown_bot_level"), (409, "too_many_tables")))
async def create_vs_bots_table(body: VsBotsIn, request: Request, auth: BrieflyAuthenticated) -> TableOut:
    """A practice table: you and bots, created at once; nothing is paid."""
    options = check_game(body.game, body.seats, body.options)
    level = check_bot_level(body.bot_level)
    seats = [Seat("human", auth.user.username, user_id=auth.user.id, bot_level="medium")]
    seats += [bot_seat(level, n) for n in range(1, body.seats)]
    manager = realtime(request).tables
    most = manager.runtime.settings.practice_tables_per_user
    going = [row for row, _ in await manager.store.tables_of(auth.user.id) if row.mode == "bots"]
    if len(going) >= most:
        raise Conflict(f"You have {len(going)} practice games going; finish or end one (Games in progress) before "
                       "starting another.", code="too_many_tables", details={"most": most})
    timing = TableTiming(**{**manager.timing.__dict__, "turn_seconds": body.turn_seconds})
    table = await manager.create(game=body.game, seats=seats, mode="bots", options=options, timing=timing)
    return TableOut(id=table.id, game=table.game_name, mode=table.mode, status=table.status, seat=0,
                    version=table.version)


@router.get("/tables/mine", response_model=MyTablesOut)
async def my_tables(request: Request, auth: BrieflyAuthenticated) -> MyTablesOut:
    """Tables I sit at that are still being played (to come back to after a reload or from another device), on
    whichever server plays them; not those I resigned."""
    manager = realtime(request).tables
    found = []
    for row, seat in await manager.store.tables_of(auth.user.id):
        here = manager.get(row.id)  # played on this node: its version now, not its last snapshot's
        # A seat its person resigned is not theirs to come back to (elsewhere: the snapshot taken at the resign).
        seats = [s.resigned for s in here.seats] if here is not None else [
            bool(s.get("resigned")) for s in row.table.get("seats", [])]
        if seat < len(seats) and seats[seat] or (here is not None and here.status != "playing"):
            continue
        found.append(TableOut(id=row.id, game=row.game, mode=row.mode, status=row.status, seat=seat,
                              version=here.version if here is not None else row.version))
    return MyTablesOut(tables=found)


@router.get("/games/history", response_model=PastGamesOut, responses=errors((422, "bad_cursor")))
async def my_past_games(auth: CurrentUser, session: DbSession,
                        before: GameId | None = Query(default=None, description="cursor from the previous page"),
                        limit: int = Query(default=20, ge=1, le=100)) -> PastGamesOut:
    """My finished games, newest first."""
    query = (
        select(GameRecordPlayer, GameRecord)
        .join(GameRecord, GameRecord.id == GameRecordPlayer.record_id)
        .where(GameRecordPlayer.user_id == auth.user.id)
        .order_by(GameRecordPlayer.finished_at.desc(), GameRecordPlayer.record_id.desc())
    )
    if before:
        cursor = await session.get(GameRecordPlayer, (before, auth.user.id))
        if cursor is None:
            raise AppError("That cursor is not one of your games.", code="bad_cursor", status=422)
        query = query.where(
            (GameRecordPlayer.finished_at < cursor.finished_at)
            | ((GameRecordPlayer.finished_at == cursor.finished_at) & (GameRecordPlayer.record_id < cursor.record_id))
        )
    rows = (await session.execute(query.limit(limit + 1))).all()
    items = [
        PastGameOut(
            id=record.id,
            game=record.game,
            title=get_game(record.game).title,
            mode=record.mode,
            seats=len(record.seats),
            placing=player.placing,
            left=player.left,
            coins=player.coins,
            # the change of the balance (a staked game: pot share less the stake), as the ledger has it
            net=(record.rewards.get(str(player.seat)) or {}).get("net", player.coins),
            xp=player.xp,
            finished_at=record.finished_at.isoformat(),
            players=[seat["name"] for seat in record.seats],
        )
        for player, record in rows[:limit]
    ]
    return PastGamesOut(games=items, next_cursor=items[-1].id if len(rows) > limit else None)


@router.get("/games/{game_id}", response_model=GameRecordOut, responses=errors((404, "no_such_game")))
async def game_record(game_id: GameId, auth: CurrentUser, session: DbSession) -> GameRecordOut:
    """One finished game I played: seats, placings, scores and rewards (the results screen)."""
    record = await session.get(GameRecord, game_id)
    if record is None or await session.get(GameRecordPlayer, (game_id, auth.user.id)) is None:
        raise NotFound("No finished game of yours has that id.", code="no_such_game")
    return GameRecordOut(
        id=record.id,
        game=record.game,
        title=get_game(record.game).title,
        mode=record.mode,
        seats=[RecordSeatOut.model_validate(seat) for seat in record.seats],  # not the user ids
        placings=record.placings,
        scores=record.scores,
        rewards=record.rewards,
        moves=len(record.action_log),
        started_at=record.started_at.isoformat(),
        finished_at=record.finished_at.isoformat(),
    )


@router.get("/games/{game_id}/replay", response_model=ReplayOut, responses=errors((404, "no_such_game"), (403, "not_watchable")))
async def game_replay(game_id: GameId, auth: CurrentUser, session: DbSession, runtime: RuntimeDep,
                      start: int = Query(default=0, ge=0, le=MAX_OFFSET, description="the first step (0: the deal)"),
                      limit: int = Query(default=50, ge=1, le=MAX_REPLAY_FRAMES,
                                         description=f"steps in this page (at most {MAX_REPLAY_FRAMES})"),
                      reveal: bool = Query(default=False, description="every seat's view at once (and each move)")
                      ) -> dict[str, Any]:
    """A finished game step by step, rebuilt from its seed and log by the engine (the replay viewer): a game I
    played as my seat saw it, or a game I may watch (app/tables/spectators.py: a friend's, or a public online or
    staked one) as a spectator saw it; with `reveal`, every hand shown. Paged: `next` is the next page's `start`."""
    record = await session.get(GameRecord, game_id)
    if record is None:
        raise NotFound("No finished game has that id.", code="no_such_game")
    player = await session.get(GameRecordPlayer, (game_id, auth.user.id))
    if player is None:
        try:
            await check_watcher(session, runtime.friends, auth.user.id, record.mode,
                                [seat.get("user_id") for seat in record.seats])
        except TableError as refused:
            raise AppError(refused.message, code=refused.code, status=403) from None
    seat = player.seat if player is not None else None
    try:
        page = replay_frames(record, seat=seat, reveal=reveal, start=start, limit=limit)
    except ValueError as broken:
        raise AppError(f"This game cannot be replayed: {broken}", code="replay_failed", status=500) from None
    return {
        "id": record.id,
        "game": record.game,
        "title": get_game(record.game).title,
        "mode": record.mode,
        "seats": [RecordSeatOut.model_validate(s) for s in record.seats],  # not the user ids
        "seat": seat,
        "reveal": reveal,
        "placings": record.placings,
        "finished_at": record.finished_at.isoformat(),
        **page,
    }
