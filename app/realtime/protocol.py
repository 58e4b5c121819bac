"""The WebSocket protocol: every message either way, as pydantic models (docs/protocol.md is generated from them).

One socket per player carries every table they sit at. A request may carry an `id`; its reply (`ack` or `error`)
echoes it, except that an accepted `act` is usually answered by the `update` of the move itself, carrying the `id`. Table traffic arrives as `sync` (the whole state, on join), `catch_up` (on join: what a reconnecting
client missed since the version it named, then the whole state) and `update` (new events and patches of what
changed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

MAX_SAFE_INTEGER = 2**53 - 1  # the largest integer a browser's JSON keeps exactly
MAX_REQUEST_ID_LENGTH = 64
RequestId = Annotated[
    Annotated[str, Field(max_length=MAX_REQUEST_ID_LENGTH)]
    | Annotated[int, Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)] | None,
    Field(default=None, description="echoed in the reply"),
]
TableId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Version = Annotated[int, Field(ge=0, le=MAX_SAFE_INTEGER)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _ClientMessage(_Message):
    # Strict: what a client sends is taken as written, so `true` or `1.0` is not seat 1 nor `"5"` version 5.
    model_config = ConfigDict(extra="forbid", strict=True)


# --------------------------------------------------------------------------------------------- client -> server


class Join(_ClientMessage):
    """Start receiving a table you sit at, or watch one you may (docs/protocol.md, "Spectators": then `seat` is null
    and you get the spectator view only); `since` is the last version you saw (null: send a full view). Refused for
    a spectator with `not_watchable`, `too_many_spectators`, `too_many_watched`."""

    type: Literal["join"]
    id: RequestId = None
    table: TableId
    since: Version | None = None
    history: bool = Field(default=False, description="when the server answers with a `sync` (no `since`, or one "
                                                     "too old for a `catch_up`), put every event so far in it, as "
                                                     "your seat may see them: the game's whole log")
    token: Annotated[str, Field(max_length=1024)] | None = Field(
        default=None, description="the seat token of your last full message for this table: it names the server "
                                  "playing it, so any server can relay you there at once")


class Leave(_ClientMessage):
    """Stop receiving (or watching) a table (your seat stays yours)."""

    type: Literal["leave"]
    id: RequestId = None
    table: TableId


class Resign(_ClientMessage):
    """Leave a game you sit at for good (platform.md, leaving). A practice (vs bots) game ends at once and leaves
    your games in progress; elsewhere a bot plays your seat to the end and the game counts as left for you (no
    prize, XP or league points; a staked stake stays in the pot, which is shared by placing). Join the table first.
    Refused with `already_resigned`, `game_over` (nothing left to play), `not_seated`."""

    type: Literal["resign"]
    id: RequestId = None
    table: TableId


class Act(_ClientMessage):
    """A move at a table, in the shape the table's `legal` list gives; `seat`, if given, must be yours. A spectator's
    is refused with `spectators_cannot_act`."""

    type: Literal["act"]
    id: RequestId = None
    table: TableId
    action: dict[str, Any] = Field(description="checked against the game's action shapes (docs/engines.md)")
    seat: Annotated[int, Field(ge=0, le=64)] | None = None


class Ping(_ClientMessage):
    type: Literal["ping"]
    id: RequestId = None


class Queue(_ClientMessage):
    """Look for a table: sit down at the forming table of this game, seat count and mode. Online tables fill with
    simulated players after the fill time; staked ones (`stake` one of the offered amounts) take the stake from your
    wallet now and are cancelled, your stake returned, if not full in time. Queueing again for the queue you wait in
    (after a reload, from another tab) keeps your seat and moves it to this socket. When the socket holding the seat
    closes, the seat waits QUEUE_GRACE_SECONDS (10 s) for you to come back, then is given up (the stake returned)."""

    type: Literal["queue"]
    id: RequestId = None
    game: str = Field(min_length=1, max_length=32, description="pika, stakes, kapern or piker")
    seats: int = Field(ge=2, le=6, description="the table size, yours included")
    mode: Literal["online", "staked"] = "online"
    stake: int | None = Field(default=None, le=MAX_SAFE_INTEGER, description="staked mode only: one of the STAKES amounts (100, 250, 500, 1000)")
    rejoin: bool = Field(default=False, description="only take back the seat you wait at in this queue; if it was "
                                                    "given up meanwhile, answer `idle` instead of sitting down anew")


class Unqueue(_ClientMessage):
    """Leave the queue (a staked seat's stake comes back). Answered even when you were not queued."""

    type: Literal["unqueue"]
    id: RequestId = None


class History(_ClientMessage):
    """Every event of a table you joined so far, as your seat may see them (the game's whole log, after a reload or
    on another device; `join` with `history` gets the same in its `sync`). Answered with an `ack` carrying `events`:
    the versions `version` - len(events) + 1 .. `version`, from 1 unless the game had more than HISTORY_EVENTS
    (5000), then the newest."""

    type: Literal["history"]
    id: RequestId = None
    table: TableId


class Rematch(_ClientMessage):
    """Ask for the same table again from its results (issue 19): same game, options and seats; bots agree at once.
    It starts when every person who sat there has answered (at least one yes) or REMATCH_WAIT_SECONDS (30) run out.
    Who did not agree is handled by the mode's rules: practice and friends drop their seat (a friends table with too
    few seats left is not played), online fills it with a simulated player, a staked table is played by those who
    agreed (your stake is taken again as you agree, and refunded if the rematch does not start). `agree`: false
    declines (for good: a staked stake comes back); null only asks where the rematch stands. Answered with an `ack`
    carrying `rematch`; everyone who sat at the table is sent a `rematch` notice. Refused with `not_finished`,
    `not_seated`, `rematch_declined`, `rematch_closed`, `insufficient_funds`, and at an online or staked table
    `already_queued` or `already_seated` (one queue or matchmade table at a time)."""

    type: Literal["rematch"]
    id: RequestId = None
    table: TableId = Field(description="the finished table")
    agree: bool | None = True


ClientMessage = Annotated[Union[Join, Leave, Resign, Act, Ping, Queue, Unqueue, History, Rematch],
                          Field(discriminator="type")]
client_message_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

# --------------------------------------------------------------------------------------------- server -> client


class QueueData(_Message):
    game: str
    seats: int
    mode: Literal["online", "staked"]
    stake: int | None = Field(description="staked tables only")


class MatchmakingData(_Message):
    """Where you are in matchmaking. Which fields come depends on `event`."""

    event: Literal["waiting", "matched", "cancelled", "left", "idle"] = Field(
        description="waiting: at a forming table; matched: your table formed; cancelled: it will not be played; "
                    "left: you left the queue; idle: (unqueue, or queue with rejoin) you were not queued")
    queue: QueueData | None = None
    players: int | list[str] | None = Field(
        default=None, description="waiting: how many sit at the forming table; matched: every seat's name")
    seats: int | None = Field(default=None, description="waiting: the table size")
    fill_ends_at: float | None = Field(
        default=None, description="waiting: when the fill time runs out (seconds since the epoch, server clock): "
                                  "then simulated players fill an online table, a staked one is cancelled")
    now: float | None = Field(default=None, description="waiting: the server clock now (to correct skew)")
    table_id: str | None = Field(default=None, description="matched: the table to `join`")
    seat: int | None = Field(default=None, description="matched: your seat")
    bot_filled: bool | None = Field(default=None, description="matched: simulated players sit at the table "
                                                               "(league points are halved)")
    reason: Literal["fill_time", "cancelled", "stakes_missing", "error"] | None = Field(
        default=None, description="cancelled: the fill time ran out, your seat was given up while your stake "
                                  "moved, or the table could not be created")
    refunded: int | None = Field(default=None, description="cancelled / left: coins returned to your wallet")


class RematchData(_Message):
    """Where a rematch of a finished table stands."""

    table: str = Field(description="the finished table")
    event: Literal["none", "waiting", "started", "cancelled"] = Field(
        description="none: nobody asked yet; waiting: for answers until `ends_at`; started: join `table_id`; "
                    "cancelled: it will not be played (`reason`)")
    agreed: list[str] = Field(description="the people who agreed")
    declined: list[str] = Field(description="the people who declined")
    waiting_for: list[str] = Field(description="the people who have not answered")
    ends_at: float | None = Field(description="when the wait ends (seconds since the epoch, server clock)")
    now: float = Field(description="the server clock now (to correct skew)")
    table_id: str | None = Field(description="started: the new table")
    reason: str | None = Field(description="cancelled: nobody_agreed, not_enough_players, insufficient_funds, "
                                           "error")


class Hello(_Message):
    """First message after the socket opens."""

    type: Literal["hello"]
    user: dict[str, Any]
    server_time: float
    max_frame_bytes: int
    node: str | None = Field(default=None, description="the name of the server this socket reached")


class Ack(_Message):
    type: Literal["ack"]
    id: RequestId = None
    table: str | None = None
    version: int | None = None
    seat: int | None = None
    matchmaking: MatchmakingData | None = Field(default=None, description="`queue` and `unqueue` only")
    rematch: RematchData | None = Field(default=None, description="`rematch` only")
    events: list[dict[str, Any]] | None = Field(default=None, description="`history` only: the table's events up "
                                                                          "to `version` (from version 1, or the "
                                                                          "newest 5000), as your seat may see them")


class Error(_Message):
    """A refused request (it changed nothing). `code` is stable; `message` is for the player."""

    type: Literal["error"]
    id: RequestId = None
    code: str
    message: str
    table: str | None = None


class Pong(_Message):
    type: Literal["pong"]
    id: RequestId = None
    server_time: float


class TableMessage(_Message):
    """A table's news for one seat (docs/protocol.md, "Table messages"). `sync` and `catch_up` carry the whole state
    (`public`, `private`, `legal`, `info`); an `update` carries only what changed, as patches
    (docs/protocol.md, "Patches"), applied after what the update's events tell: `public` and `info` the same for
    every seat, `private` this seat's own part, `legal` and `turns` whole but only when they changed. A seat's view
    is `public` with `private` on top (expanded from the game's wire form, app/games/wire.py)."""

    type: Literal["update", "catch_up", "sync"]
    id: RequestId = Field(default=None, description="update only: the `id` of your `act` this update answers; it "
                                                    "stands for that request's `ack` (the move was accepted, and "
                                                    "`version` is the table's version after it)")
    table: str
    version: int = Field(description="the table's version after these events; one per event, so the events are "
                                     "versions version-len(events)+1 .. version")
    since: int | None = Field(default=None, description="catch_up only: the version the client named")
    seat: int | None = Field(default=None, description="sync and catch_up: the seat this socket follows (null: a "
                                                       "spectator)")
    node: str | None = Field(default=None, description="sync and catch_up: the name of the server playing the table "
                                                       "(reconnect with /ws?node=NAME to reach it directly)")
    seat_token: str | None = Field(default=None, description="sync and catch_up: send it back with your next join "
                                                             "of this table (any server then relays you at once)")
    events: list[dict[str, Any]] | None = Field(
        default=None, description="what happened, as this seat may know it (a `sync` has them only for a `join` "
                                  "with `history`: every event so far); the events of a move no person chose have "
                                  "`auto`: timeout, covering_bot or automatic")
    public: dict[str, Any] | None = Field(default=None, description="the view every seat shares: whole (sync, "
                                                                    "catch_up) or a patch (update)")
    private: dict[str, Any] | None = Field(default=None, description="this seat's own part of its view (hand, ...): "
                                                                     "whole or a patch")
    legal: list[dict[str, Any]] | None = Field(default=None, description="this seat's legal moves, in the shape "
                                                                         "`act` takes; in an update only when changed")
    info: dict[str, Any] | None = Field(default=None, description="seats, mode, status, clocks (wall-clock "
                                                                  "seconds; the turn timers apart, in `turns`), "
                                                                  "stake and pot, resigned seats, outcome, "
                                                                  "rewards: whole or a patch")
    turns: dict[str, int] | None = Field(default=None, description="the turn timers by seat, as tenths of a second "
                                                                   "after `info.clock.base` (wall-clock seconds): "
                                                                   "whole, in an update only when changed")


class Notice(_Message):
    """Something for the player outside a table: an invitation, a room change."""

    type: Literal["invitation", "room"]
    data: dict[str, Any]


class FriendData(_Message):
    """What changed between you and `username` (platform.md, "Players and friends")."""

    event: Literal["request", "accepted", "declined", "cancelled", "removed"] = Field(
        description="request: they asked you to be friends; accepted: they accepted your request (or asked you back), "
                    "you are friends now; declined: they declined your request; cancelled: they withdrew their "
                    "request to you; removed: they ended your friendship")
    username: str = Field(description="the other person")


class Friend(_Message):
    """News from Friends, at once: a request to you, an answer to yours. The count of requests you have not seen
    yet is GET /api/friends/unseen (it survives a reload until you open Friends: POST /api/friends/seen)."""

    type: Literal["friend"]
    data: FriendData


class Matchmaking(_Message):
    """News of your place in the queue: someone sat down or left (`waiting`), your table formed (`matched`: join
    `table_id`), it was cancelled (`cancelled`), you left (`left`)."""

    type: Literal["matchmaking"]
    data: MatchmakingData


class RematchNotice(_Message):
    """News of a rematch of a table you sat at: who agreed, who declined, and when it starts the new table's id."""

    type: Literal["rematch"]
    data: RematchData


ServerMessage = Annotated[Union[Hello, Ack, Error, Pong, TableMessage, Notice, Friend, Matchmaking, RematchNotice],
                          Field(discriminator="type")]
server_message_adapter: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)

# WebSocket close codes we use (4000-4999 are the application's own).
CLOSE_UNAUTHORIZED = 4401  # no session cookie, or a forged, expired or revoked one
CLOSE_FORBIDDEN_ORIGIN = 4403  # Origin not allowed
CLOSE_RATE_LIMITED = 4429  # kept flooding after rate_limited errors
CLOSE_TOO_SLOW = 4408  # the client does not read its messages
CLOSE_TOO_MANY_SOCKETS = 4409  # the user opened more sockets than WS_MAX_SOCKETS_PER_USER: the oldest is closed
CLOSE_MESSAGE_TOO_BIG = 1009
CLOSE_GOING_AWAY = 1001  # the server is shutting down
CLOSE_SERVICE_RESTART = 1012  # this server is leaving (a drain): reconnect now, another one has your tables



def schemas() -> dict[str, Any]:
    from app.games.registry import game_names, get_game

    return {
        "client_to_server": client_message_adapter.json_schema(),
        "server_to_client": server_message_adapter.json_schema(),
        # `act`'s `action`, per game: anything else is refused with bad_action before the game sees it
        "actions": {name: get_game(name).action_schema.json_schema() for name in game_names()},
    }


DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_SCHEMA_MARK = "<!-- schemas: generated by `python -m app.realtime.protocol`; do not edit below -->"


def render_doc(head: str) -> str:
    return f"{head.rstrip()}\n\n{_SCHEMA_MARK}\n\n```json\n{json.dumps(schemas(), indent=2, sort_keys=True)}\n```\n"


def doc_head(text: str) -> str:
    return text.split(_SCHEMA_MARK)[0]


if __name__ == "__main__":
    DOC_PATH.write_text(render_doc(doc_head(DOC_PATH.read_text())))
    print(f"wrote {DOC_PATH}")
