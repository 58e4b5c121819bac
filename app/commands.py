"""What `tablestakes serve`, `migrate`, `grant`, `grant-item`, `league close-week`, `ratings recompute`, `replay` and
the operators' `audit`, `ban`, `unban`, `void`, `tables`, `backup` and `restore` do (app/cli.py parses the arguments)."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import sys
import uuid
from datetime import date
from typing import Any

from app.config import Settings

log = logging.getLogger("tablestakes")


DRAIN_SECONDS = 30.0  # a drain that takes longer is cut short: the lease then moves the tables


def uvicorn_options() -> dict[str, Any]:
    """How every node (and the bench's bare relay, to compare like with like) runs its WebSockets."""
    from app.core.slow_clients import HeaderDeadlineProtocol
    from app.realtime.gateway import MAX_FRAME_BYTES

    # No per-message deflate: our table messages are small patches, a compressor and a decompressor per socket cost
    # about 100 KiB of memory each way and CPU for every message on every socket (one encoded message for many
    # sockets would have to be compressed once per socket again).
    # Each request's headers must arrive within HEADER_SECONDS (app/core/slow_clients.py: no slowloris).
    return {"ws_max_size": MAX_FRAME_BYTES, "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0,
            "ws_per_message_deflate": False, "http": HeaderDeadlineProtocol}


def tune_gc() -> None:
    """How every node (and the bench's bare relay) runs Python's cycle collector, once started: what exists then
    (modules, the app, its routes and models) is frozen out of the collections, and the youngest generation is
    collected every 10,000 new objects instead of 700. Idle sockets churn a few short-lived objects per keep-alive
    ping; at 700 that churn ran young collections several times a second and a full one, over every socket's
    objects (about 2 s of CPU at 20,000 sockets), every minute or so. Cycles are still collected, in larger batches."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def serve(host: str | None, port: int | None) -> int:
    """Migrate the database, then serve until interrupted. Prints the URL once the server accepts connections."""
    import uvicorn

    from app.core.logging import configure_logging
    from app.main import create_app

    settings = Settings()
    configure_logging(settings.log_level)
    host = host or settings.host
    port = settings.port if port is None else port
    asyncio.run(_migrate(settings))

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        print(f"tablestakes: cannot listen on {host}:{port}: {error.strerror}", file=sys.stderr)
        return 1
    bound_port = sock.getsockname()[1]  # port 0 asks the system for a free one
    shown_host = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown_host}:{bound_port}"

    app = create_app(settings)

    class Server(uvicorn.Server):
        draining: asyncio.Task | None = None
        loop: asyncio.AbstractEventLoop | None = None

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            self.loop = asyncio.get_running_loop()
            await super().startup(sockets=sockets)
            if not self.should_exit:
                tune_gc()
                print(f"Tablestakes is serving on {url}", flush=True)

        def handle_exit(self, sig: int, frame: Any) -> None:
            # SIGTERM drains first (docs/cluster.md): tables handed off, sockets closed with 1012, before uvicorn
            # closes the WebSockets on its own. A second signal, or SIGINT, stops at once.
            realtime = getattr(app.state, "realtime", None)
            if (sig != signal.SIGTERM or self.draining is not None or realtime is None or self.should_exit
                    or self.loop is None):
                super().handle_exit(sig, frame)
                return
            self.loop.call_soon_threadsafe(self._begin_drain, realtime, sig, frame)  # wakes the loop from a signal

        def _begin_drain(self, realtime: Any, sig: int, frame: Any) -> None:
            if self.draining is None:
                self.draining = asyncio.get_running_loop().create_task(self._drain_then_exit(realtime, sig, frame))

        async def _drain_then_exit(self, realtime: Any, sig: int, frame: Any) -> None:
            try:
                await asyncio.wait_for(realtime.drain(), DRAIN_SECONDS)
            except Exception:
                log.exception("draining did not finish; stopping anyway (the lease hands the tables over)")
            super().handle_exit(sig, frame)

    # One process per node, no --workers (design.md); proxy headers are trusted from loopback only (uvicorn default).
    config = uvicorn.Config(app, log_config=None, access_log=False, proxy_headers=True, lifespan="on",
                            **uvicorn_options())
    # uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal: end quietly with status 0.
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        Server(config).run(sockets=[sock])
    except (KeyboardInterrupt, _Stop):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    print("Tablestakes stopped", flush=True)
    return 0


class _Stop(Exception):
    pass


def _stopped(_signum: int, _frame: object) -> None:
    raise _Stop()


def migrate() -> int:
    from app.core.logging import configure_logging

    settings = Settings()
    configure_logging(settings.log_level)
    revision = asyncio.run(_migrate(settings))
    print(f"database at revision {revision}")
    return 0


async def _migrate(settings: Settings) -> str | None:
    from app.core import migrations
    from app.core.db import create_engine

    engine = create_engine(settings.database_url, pool_size=1, max_overflow=0,
                           busy_timeout_ms=settings.sqlite_busy_timeout_ms)
    try:
        await migrations.upgrade(engine)
        return await migrations.current_revision(engine)
    finally:
        await engine.dispose()


def grant(username: str, coins: int, reason: str) -> int:
    """Credit a user's wallet through the ledger (an operator grant: coins with no counterpart, still an entry)."""
    if coins <= 0:
        print("tablestakes grant: COINS must be a whole number above zero", file=sys.stderr)
        return 2
    if not reason.strip():
        print("tablestakes grant: --reason must say why", file=sys.stderr)
        return 2
    try:
        balance = asyncio.run(_grant(Settings(), username, coins, reason.strip()))
    except LookupError as error:
        print(f"tablestakes grant: {error}", file=sys.stderr)
        return 1
    print(f"granted {coins} coins to {username}; balance now {balance}")
    return 0


async def _user_named(runtime: object, session: object, username: str) -> object:
    """The user an operator command names; LookupError (printed by the command) if there is none."""
    from app.accounts.service import UnknownUser

    try:
        return await runtime.accounts.user_by_username(session, username)  # type: ignore[attr-defined]
    except UnknownUser:
        raise LookupError(f"no user called {username!r}") from None


async def _grant(settings: Settings, username: str, coins: int, reason: str) -> int:
    from app.runtime import open_runtime

    await _migrate(settings)
    async with open_runtime(settings) as runtime, runtime.transaction() as session:
        user = await _user_named(runtime, session, username)
        wallet = await runtime.ledger.wallet_id(session, user.id)
        # Each run of the command is one grant: a fresh key, so running it twice grants twice, on purpose.
        posted = await runtime.ledger.credit(session, wallet, coins, key=f"grant:{uuid.uuid4().hex}",
                                             reason=f"grant: {reason}"[:200])
        return posted.entries[0].balance_after


def replay(game_id: str) -> int:
    """Re-run a finished game from its stored seed and action log; exit 0 when it reaches the stored result."""
    return asyncio.run(_replay(Settings(), game_id))


async def _replay(settings: Settings, game_id: str) -> int:
    from app.runtime import open_runtime
    from app.tables.replay import replay_game

    async with open_runtime(settings) as runtime:
        result = await replay_game(runtime, game_id)
    if result is None:
        print(f"tablestakes: no finished game {game_id!r}", file=sys.stderr)
        return 1
    print(f"game {result.game_id}: replayed {result.actions} actions")
    print(f"  recorded placings: {result.recorded_placings}")
    print(f"  replayed placings: {result.placings}")
    if result.error:
        print(f"  {result.error}")
    print("  result matches" if result.matches else "  RESULT DIFFERS")
    return 0 if result.matches else 1


def grant_item(username: str, item: str, reason: str) -> int:
    """Give a user the gold booster or the VIP pass (an operator's gift: no coins move; a running one is extended)."""
    if not reason.strip():
        print("tablestakes grant-item: --reason must say why", file=sys.stderr)
        return 2
    try:
        ends_at = asyncio.run(_grant_item(Settings(), username, item, reason.strip()))
    except LookupError as error:
        print(f"tablestakes grant-item: {error}", file=sys.stderr)
        return 1
    print(f"granted the {item} to {username}; it runs until {ends_at}")
    return 0


async def _grant_item(settings: Settings, username: str, item: str, reason: str) -> str:
    from app.online.shop import ShopService
    from app.runtime import open_runtime

    await _migrate(settings)
    async with open_runtime(settings) as runtime, runtime.transaction() as session:
        user = await _user_named(runtime, session, username)
        boost = await ShopService(settings, runtime.clock, runtime.ledger).grant(session, user.id, item, reason)
        return boost.ends_at.isoformat()


def league_close_week(games: list[str] | None, week: str | None) -> int:
    """Close one week of the leagues (default: every game, the last week that has ended), paying each top three
    once. Safe to run again, or while a node's scheduler closes the same week: the second closer pays nothing."""
    from app.games.registry import game_names

    unknown = [game for game in games or [] if game not in game_names()]
    if unknown:
        print(f"tablestakes league close-week: no game called {unknown[0]!r}; the games are "
              f"{', '.join(game_names())}", file=sys.stderr)
        return 2
    try:
        day = date.fromisoformat(week) if week else None
    except ValueError:
        print("tablestakes league close-week: --week is a date, YYYY-MM-DD", file=sys.stderr)
        return 2
    return asyncio.run(_league_close_week(Settings(), games or game_names(), day))


async def _league_close_week(settings: Settings, games: list[str], day: date | None) -> int:
    from datetime import timedelta

    from app.online.league import LeagueService, WeekNotOver, week_of
    from app.runtime import open_runtime

    await _migrate(settings)
    async with open_runtime(settings) as runtime:
        league = LeagueService(settings, runtime.clock, runtime.ledger)
        if day is None:
            monday = week_of(runtime.clock.now()) - timedelta(days=7)  # the last week that has ended
        else:
            monday = day - timedelta(days=day.weekday())
        for game in games:
            try:
                async with runtime.transaction() as session:
                    result = await league.close_week(session, game, monday)
            except WeekNotOver as error:
                print(f"tablestakes league close-week: {error.message}", file=sys.stderr)
                return 1
            where = f"{game}, week of {result.week.isoformat()}"
            if result.already_closed:
                print(f"{where}: already closed at {result.closed_at.isoformat()}; nothing paid now")
            elif not result.prizes:
                print(f"{where}: closed; nobody scored, nothing to pay")
            else:
                paid = ", ".join(f"{p['coins']} to {p['username']} (place {p['place']}, {p['points']} points)"
                                 for p in result.prizes)
                print(f"{where}: closed; paid {paid}")
    return 0


def remove_stale_guests() -> int:
    """Delete guests older than GUEST_TTL_DAYS that never signed up (the online housekeeping does it every
    LEAGUE_CHECK_SECONDS too; this is for an operator, or a cron job on a node that does not serve)."""
    removed = asyncio.run(_remove_stale_guests(Settings()))
    print(f"removed {removed} guest accounts")
    return 0


async def _remove_stale_guests(settings: Settings) -> int:
    from app.runtime import open_runtime

    await _migrate(settings)
    removed = 0
    async with open_runtime(settings) as runtime:
        while True:  # in batches, each its own transaction
            async with runtime.transaction() as session:
                batch = await runtime.accounts.remove_stale_guests(session)
            removed += batch
            if batch == 0:
                return removed


# ------------------------------------------------------------------------------------------------ operators

def audit() -> int:
    """Check the ledger (app/ledger/audit.py): exit 0 when it holds, 1 with every difference printed."""
    report = asyncio.run(_audit(Settings()))
    for difference in report.differences:
        print(difference)
    for check, more in sorted(report.more.items()):
        print(f"{check}: ... and {more} more")
    if report.clean:
        print(f"ledger audit: no difference ({report.summary()}; {report.balances_total} coins in all)")
        return 0
    shown = len(report.differences) + sum(report.more.values())
    print(f"ledger audit: {shown} difference{'s' if shown != 1 else ''} ({report.summary()})")
    return 1


async def _audit(settings: Settings) -> Any:
    from app.ledger.audit import audit_ledger
    from app.runtime import open_runtime

    async with open_runtime(settings) as runtime:
        forming = await _forming_tables(runtime)
        async with runtime.reader() as session:
            return await audit_ledger(session, runtime.clock.now(), forming)


async def _forming_tables(runtime: Any) -> set[str] | None:
    """Forming matchmade tables in Redis (their pots hold stakes and have no table yet); None if Redis is down."""
    from app.online.queues import PREFIX

    try:
        return {key.removeprefix(f"{PREFIX}table:")
                async for key in runtime.redis.scan_iter(match=f"{PREFIX}table:*", count=500)}
    except Exception:
        log.warning("Redis does not answer: forming tables are judged by their pots' age alone", exc_info=True)
        return None


def _operator(command: str, action: Any) -> int:
    """Run an operator action; its OperatorError is the operator's message (exit 1)."""
    from app.moderation import OperatorError

    try:
        return asyncio.run(action)
    except OperatorError as error:
        print(f"tablestakes {command}: {error}", file=sys.stderr)
        return 1


def ban(username: str, reason: str) -> int:
    return _operator("ban", _ban(Settings(), username, reason))


async def _ban(settings: Settings, username: str, reason: str) -> int:
    from app import moderation
    from app.runtime import open_runtime

    await _migrate(settings)
    async with open_runtime(settings) as runtime:
        result = await moderation.ban(runtime, username, reason)
    print(f"banned {result.username}: {result.sessions_revoked} sessions revoked")
    if result.nodes_told:
        print(f"  {result.nodes_told} running node{'s' if result.nodes_told != 1 else ''} told: sockets closed, "
              "seats covered by a bot, queued seat given up")
    else:
        print("  no running node heard it on this Redis: a server re-checks its sockets' sessions every 20 s, then "
              "covers the seat after DISCONNECT_GRACE_SECONDS and gives a queued seat up after QUEUE_GRACE_SECONDS")
    return 0


def unban(username: str) -> int:
    return _operator("unban", _unban(Settings(), username))


async def _unban(settings: Settings, username: str) -> int:
    from app import moderation
    from app.runtime import open_runtime

    await _migrate(settings)
    async with open_runtime(settings) as runtime:
        lifted = await moderation.unban(runtime, username)
    print(f"{username} may log in again" if lifted else f"{username} was not banned; nothing changed")
    return 0


def void(game_id: str, reason: str) -> int:
    return _operator("void", _void(Settings(), game_id, reason))


async def _void(settings: Settings, game_id: str, reason: str) -> int:
    from app import moderation
    from app.runtime import open_runtime

    await _migrate(settings)
    async with open_runtime(settings) as runtime:
        result = await moderation.void(runtime, game_id, reason)
    by = "by its owner node" if result.how == "owner" else "here (its owner is gone)"
    print(f"table {result.table_id} voided {by}; {len(result.refunded)} stakes refunded"
          + "".join(f"\n  {coins} coins back to user {user}" for user, coins in result.refunded))
    if result.pot_left:
        print(f"  its pot still holds {result.pot_left} coins: run tablestakes audit", file=sys.stderr)
        return 1
    return 0


def tables() -> int:
    return asyncio.run(_tables(Settings()))


async def _tables(settings: Settings) -> int:
    from app import moderation
    from app.runtime import open_runtime

    async with open_runtime(settings) as runtime:
        lines = await moderation.live_tables(runtime)
        now = runtime.clock.now()
    if not lines:
        print("no table is being played")
        return 0
    rows = [("GAME_ID", "GAME", "MODE", "SEATS", "VERSION", "OWNER", "AGE", "STAKE/POT")]
    for line in lines:
        seats = ", ".join(seat.get("name", "?") + (" (bot)" if seat.get("kind") == "bot" else "")
                          + (" (away)" if seat.get("away") and seat.get("kind") != "bot" else "")
                          for seat in line.seats)
        owner = f"{line.owner or '-'} ({'alive' if line.owner_alive else 'gone'})"
        money = f"{line.stake}/{line.pot}" if line.stake else "-"
        rows.append((line.id, line.game, line.mode, seats, str(line.version), owner,
                     _age((now - line.created_at).total_seconds()), money))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        print("  ".join(value.ljust(width) for value, width in zip(row, widths)).rstrip())
    return 0


def _age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def backup(path: str) -> int:
    from pathlib import Path

    from app.backup import BackupError, backup as write_backup

    try:
        print(write_backup(Settings().database_url, Path(path)))
    except BackupError as error:
        print(f"tablestakes backup: {error}", file=sys.stderr)
        return 1
    return 0


def restore(path: str, replace: bool) -> int:
    from pathlib import Path

    from app.backup import BackupError, restore as read_backup

    try:
        print(read_backup(Settings().database_url, Path(path), replace=replace))
    except BackupError as error:
        print(f"tablestakes restore: {error}", file=sys.stderr)
        return 1
    print("run `tablestakes audit` to check its ledger; `tablestakes serve` migrates it to this version's schema")
    return 0


def ratings_recompute(check: bool) -> int:
    """Recompute every rating from the game records (docs/ratings.md). With `check`: compare with the stored ratings
    and history, change nothing, exit 1 if they differ. Without: store the recomputed ones in their place (one
    transaction; run it while no rated game is settling, e.g. with the nodes stopped)."""
    return asyncio.run(_ratings_recompute(Settings(), check))


async def _ratings_recompute(settings: Settings, check: bool) -> int:
    from app.ratings.service import RatingService
    from app.runtime import open_runtime

    await _migrate(settings)
    async with open_runtime(settings) as runtime:
        ratings = RatingService(runtime.clock)
        async with runtime.reader() as session:
            again = await ratings.recompute(session)
            stored = await ratings.stored(session)
        differences = again.differences(stored)
        summary = f"{len(again.ratings)} ratings from {len({row[0] for row in again.history})} rated games"
        if check:
            if differences:
                print(f"ratings differ from the game records ({summary}):", file=sys.stderr)
                for line in differences:
                    print(f"  {line}", file=sys.stderr)
                return 1
            print(f"ratings match the game records: {summary}")
            return 0
        async with runtime.transaction() as session:
            await ratings.replace(session, again)
        print(f"ratings recomputed and stored: {summary}"
              + (f" ({len(differences)}{'+' if len(differences) >= 20 else ''} differed)" if differences else ""))
    return 0
