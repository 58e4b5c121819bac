"""What clients may send, declared once and reused by every router: ids, usernames, dates, offsets, seat numbers,
timers, and the names of games, shop items and bot levels.

Each type carries its range, so a value outside it is a `422 validation_error` naming the field before any code
(or database) sees it: PostgreSQL refuses a NUL byte in text and an integer past 64 bits with an error of its own,
and a date near the end of the calendar overflows the week arithmetic. The names of games, items and levels are
enums in the OpenAPI document only: the endpoints still check them, so an unknown one keeps its own error code
(`unknown_game`, `unknown_item`, `unknown_bot_level`).
"""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field, WithJsonSchema

from app.accounts.schemas import Username  # noqa: F401 (declared beside the username rule; reused from here)
from app.games.registry import game_names
from app.online.shop import TITLES

INT64_MAX = 2**63 - 1  # BIGINT: every id and number the database is asked about fits in it
MAX_SEATS = 6
BOT_LEVELS = ("easy", "medium", "hard")
SHOP_ITEMS = tuple(TITLES)

# Tables, rooms and game records are named by uuid4().hex (32 hex digits; the columns are String(32)).
RECORD_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"

# Nothing was played before the site existed, and a week past 2999 is a typo (dates near 9999-12-31 overflow).
FIRST_LEAGUE_DAY = date(2000, 1, 1)
LAST_LEAGUE_DAY = date(2999, 12, 31)
MAX_OFFSET = 1_000_000_000


def _one_of(names: tuple[str, ...] | list[str], description: str) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "enum": list(names), "description": description})


RecordId = Annotated[str, Field(pattern=RECORD_ID_PATTERN, description="an id the server gave (32 hex digits)")]
RoomId = RecordId
GameId = RecordId  # a finished game's record has its table's id

DatabaseId = Annotated[int, Field(ge=1, le=INT64_MAX, description="an id the server gave")]
SeatIndex = Annotated[int, Field(ge=0, lt=MAX_SEATS, description="a seat, counted from 0")]
SeatCount = Annotated[int, Field(ge=2, le=MAX_SEATS, description="how many seats, the host's included")]
TurnSeconds = Annotated[float, Field(ge=5, le=600, allow_inf_nan=False,
                                     description="turn timer in seconds; a bot plays when it runs out")]
PageOffset = Annotated[int, Field(ge=0, le=MAX_OFFSET, description="how many rows to skip")]
LeagueDay = Annotated[date, Field(ge=FIRST_LEAGUE_DAY, le=LAST_LEAGUE_DAY,
                                  description="any day of the week (YYYY-MM-DD)")]

GameName = Annotated[str, _one_of(game_names(), "a game: " + ", ".join(game_names()))]
BotLevel = Annotated[str, _one_of(BOT_LEVELS, "a bot level: " + ", ".join(BOT_LEVELS))]
ShopItemName = Annotated[str, _one_of(SHOP_ITEMS, "booster (the gold booster) or vip (the VIP pass)")]
