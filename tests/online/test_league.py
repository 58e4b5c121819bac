"""The weekly league (platform.md): points by place per game and week, halved when bot-filled, public standings for
the current and past weeks, and closing a week paying the top three exactly once (twice run, or two nodes at once)."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select

from app.ledger.models import LedgerTransaction
from app.online.league import WeekNotOver, week_of
from app.online.models import LeagueWeek
from app.runtime import open_runtime
from tests.online.online_support import finish, PlayedTable, assert_ledger_consistent, balance_of, human, new_id, simulated
from tests.support.server import run_cli

MONDAY = date(2030, 1, 7)  # the harness clock starts on Monday 2030-01-07 12:00 UTC


async def settle(quiet, seats, placings, mode: str = "online", game: str = "pika", **meta):
    store = quiet.app.state.realtime.tables.store
    return await finish(store, PlayedTable(new_id(), seats, mode, placings, meta=meta, game_name=game))


async def users(quiet, *names):
    return [await quiet.create_user(name) for name in names]


def test_a_week_runs_from_monday_00_00_utc():
    assert week_of(datetime(2030, 1, 7, 0, 0, tzinfo=UTC)) == MONDAY
    assert week_of(datetime(2030, 1, 13, 23, 59, 59, tzinfo=UTC)) == MONDAY
    assert week_of(datetime(2030, 1, 14, 0, 0, tzinfo=UTC)) == date(2030, 1, 14)


async def test_points_by_place_halved_when_bot_filled_only_for_online_and_staked_tables(quiet):
    ada, bob, cy, dee = await users(quiet, "ada", "bob", "cy", "dee")
    await settle(quiet, [human(ada), human(bob), human(cy), human(dee)], [1, 2, 2, 4])  # ties as for coins
    await settle(quiet, [human(ada), simulated(), human(bob)], [2, 1, 3], bot_filled=True)
    await settle(quiet, [human(cy), human(dee)], [1, 2], mode="friends")  # friends tables do not count
    await settle(quiet, [human(ada), human(bob, left=True)], [2, 1], game="kapern")  # a leaver gets none,
    # and counts as a simulated player: the others' points are halved
    table = (await quiet.client.get("/api/league/pika")).json()
    assert [(r["place"], r["username"], r["points"], r["games"]) for r in table["standings"]] == [
        (1, "ada", 12 + 8 // 2, 2), (2, "bob", 6 + 4 // 2, 2), (3, "cy", 6, 1), (4, "dee", 2, 1)]
    assert table["week"] == "2030-01-07" and table["current"] and not table["closed"]
    kapern = (await quiet.client.get("/api/league/kapern")).json()["standings"]
    assert [(r["username"], r["points"]) for r in kapern] == [("ada", 8 // 2)]


async def test_standings_show_my_place_and_every_past_week(quiet):
    ada, bob = await users(quiet, "ada", "bob")
    await settle(quiet, [human(ada), human(bob)], [1, 2])
    quiet.clock.advance(timedelta(days=7))
    await settle(quiet, [human(ada), human(bob)], [2, 1])
    await settle(quiet, [human(ada), human(bob)], [2, 1])
    client = quiet.new_client()
    client.cookies.set("ts_session", await quiet.session_token(ada.id))
    now = (await client.get("/api/league/pika")).json()
    assert now["week"] == "2030-01-14" and now["me"] == {"place": 2, "points": 16, "games": 2}
    past = (await client.get("/api/league/pika", params={"week": "2030-01-09"})).json()  # any day of that week
    assert past["week"] == "2030-01-07" and not past["current"]
    assert [(r["username"], r["points"]) for r in past["standings"]] == [("ada", 12), ("bob", 8)]
    assert past["me"]["place"] == 1
    assert (await quiet.client.get("/api/league/pika")).json()["me"] is None  # public; no "me" when logged out
    weeks = (await client.get("/api/league/pika/weeks")).json()["weeks"]
    assert weeks == [{"week": "2030-01-14", "players": 2, "closed": False},
                     {"week": "2030-01-07", "players": 2, "closed": False}]
    paged = (await client.get("/api/league/pika", params={"limit": 1, "offset": 1})).json()
    assert [(r["place"], r["username"]) for r in paged["standings"]] == [(2, "ada")] and paged["total"] == 2
    assert (await client.get("/api/league/chess")).json()["error"]["code"] == "unknown_game"
    info = (await client.get("/api/league")).json()
    assert info["week"] == "2030-01-14" and info["prizes"] == [500, 300, 150]


async def test_closing_a_week_pays_the_top_three_once_and_a_second_close_changes_nothing(quiet):
    ada, bob, cy, dee = await users(quiet, "ada", "bob", "cy", "dee")
    await settle(quiet, [human(ada), human(bob), human(cy), human(dee)], [1, 2, 3, 4])
    before = {u.id: await balance_of(quiet.runtime, u.id) for u in (ada, bob, cy, dee)}
    league = quiet.app.state.online.league
    async with quiet.runtime.transaction() as session:
        with pytest.raises(WeekNotOver):
            await league.close_week(session, "pika", MONDAY)
    quiet.clock.advance(timedelta(days=7))
    async with quiet.runtime.transaction() as session:
        closed = await league.close_week(session, "pika", MONDAY)
    assert not closed.already_closed
    assert [(p["username"], p["place"], p["coins"]) for p in closed.prizes] == [
        ("ada", 1, 500), ("bob", 2, 300), ("cy", 3, 150)]
    after = {u.id: await balance_of(quiet.runtime, u.id) for u in (ada, bob, cy, dee)}
    assert [after[u.id] - before[u.id] for u in (ada, bob, cy, dee)] == [500, 300, 150, 0]
    async with quiet.runtime.transaction() as session:
        again = await league.close_week(session, "pika", MONDAY)
    assert again.already_closed and again.prizes == closed.prizes
    assert {u.id: await balance_of(quiet.runtime, u.id) for u in (ada, bob, cy, dee)} == after
    past = (await quiet.client.get("/api/league/pika", params={"week": "2030-01-07"})).json()
    assert past["closed"] and [(p["username"], p["coins"]) for p in past["paid"]] == [
        ("ada", 500), ("bob", 300), ("cy", 150)]
    await assert_ledger_consistent(quiet.runtime)


async def test_players_level_on_points_split_the_prizes_of_the_places_they_cover(quiet):
    ada, bob, cy, dee = await users(quiet, "ada", "bob", "cy", "dee")
    await settle(quiet, [human(ada), human(bob), human(cy), human(dee)], [1, 2, 2, 2])
    quiet.clock.advance(timedelta(days=7))
    async with quiet.runtime.transaction() as session:
        closed = await quiet.app.state.online.league.close_week(session, "pika", MONDAY)
    # bob, cy and dee share place 2: they cover places 2, 3 and 4 -> (300 + 150 + 0) // 3 each
    assert sorted((p["username"], p["place"], p["coins"]) for p in closed.prizes) == [
        ("ada", 1, 500), ("bob", 2, 150), ("cy", 2, 150), ("dee", 2, 150)]


async def test_two_nodes_closing_the_same_week_at_once_pay_it_once(quiet):
    ada, bob = await users(quiet, "ada", "bob")
    await settle(quiet, [human(ada), human(bob)], [1, 2])
    quiet.clock.advance(timedelta(days=7))
    async with open_runtime(quiet.settings, quiet.clock) as other_node:
        from app.online.league import LeagueService

        nodes = [quiet.app.state.online.league, LeagueService(quiet.settings, quiet.clock, other_node.ledger)]
        runtimes = [quiet.runtime, other_node]

        async def close(index: int):
            async with runtimes[index].transaction() as session:
                return await nodes[index].close_week(session, "pika", MONDAY)

        results = await asyncio.gather(close(0), close(1), close(0), close(1))
    assert sorted(r.already_closed for r in results) == [False, True, True, True]
    assert await balance_of(quiet.runtime, ada.id) == 1000 + 60 + 500  # the game's prize, then the league's
    assert await balance_of(quiet.runtime, bob.id) == 1000 + 20 + 300
    async with quiet.runtime.sessionmaker() as session:
        prizes = (await session.execute(select(func.count()).select_from(LedgerTransaction)
                                        .where(LedgerTransaction.key.like("league:%")))).scalar_one()
    assert prizes == 2
    await assert_ledger_consistent(quiet.runtime)


async def test_the_scheduler_closes_every_ended_week_once_the_clock_passes_monday(quiet):
    online = quiet.app.state.online
    ada, bob = await users(quiet, "ada", "bob")
    await settle(quiet, [human(ada), human(bob)], [1, 2])
    await settle(quiet, [human(ada), human(bob)], [2, 1], game="stakes")
    quiet.clock.set(datetime(2030, 1, 13, 23, 59, tzinfo=UTC))
    assert await online.housekeeping() == []
    quiet.clock.set(datetime(2030, 1, 14, 0, 0, 30, tzinfo=UTC))
    assert await online.housekeeping() == []  # a grace minute for tables settling at midnight
    quiet.clock.set(datetime(2030, 1, 14, 0, 1, 1, tzinfo=UTC))
    closed = await online.housekeeping()
    assert sorted((c.game, c.week) for c in closed) == [("pika", MONDAY), ("stakes", MONDAY)]
    assert await online.housekeeping() == []
    assert await balance_of(quiet.runtime, ada.id) == 1000 + 60 + 20 + 500 + 300  # prizes, then both leagues
    # Weeks missed while the app was down are closed when it comes back.
    quiet.clock.advance(timedelta(days=1))
    await settle(quiet, [human(ada), human(bob)], [1, 2])
    quiet.clock.advance(timedelta(days=21))
    assert [(c.game, c.week) for c in await online.housekeeping()] == [("pika", date(2030, 1, 14))]


async def test_tablestakes_league_close_week_pays_once_however_often_it_runs(quiet, tmp_path):
    ada, bob = await users(quiet, "ada", "bob")
    # The command runs on the real clock: put the games in last week as it sees it.
    real_last_week = week_of(datetime.now(UTC)) - timedelta(days=7)
    quiet.clock.set(datetime.combine(real_last_week, datetime.min.time(), tzinfo=UTC) + timedelta(days=2))
    await settle(quiet, [human(ada), human(bob)], [1, 2])
    settings = quiet.settings
    env = {"DATABASE_URL": settings.database_url, "DATA_DIR": str(settings.data_dir), "REDIS_URL": settings.redis_url}
    first = await asyncio.to_thread(run_cli, tmp_path, "league", "close-week", "--game", "pika", env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"pika, week of {real_last_week.isoformat()}: closed; paid 500 to ada" in first.stdout
    second = await asyncio.to_thread(run_cli, tmp_path, "league", "close-week", env=env)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "pika" in second.stdout and "already closed" in second.stdout
    assert await balance_of(quiet.runtime, ada.id) == 1000 + 60 + 500
    assert await balance_of(quiet.runtime, bob.id) == 1000 + 20 + 300
    current = await asyncio.to_thread(run_cli, tmp_path, "league", "close-week", "--week",
                                      datetime.now(UTC).date().isoformat(), env=env)
    assert current.returncode == 1 and "ends at" in current.stderr
    async with quiet.runtime.sessionmaker() as session:
        assert (await session.get(LeagueWeek, ("pika", real_last_week))) is not None
