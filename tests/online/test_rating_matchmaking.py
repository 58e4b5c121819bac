"""Matchmaking by rating (docs/ratings.md): people of close ratings sit together when the queue allows, a forming
table's window widens while it waits and tables of far ratings are pulled together (stakes and all) before anyone
waits out the fill time; each seat shows its rating."""

from __future__ import annotations

import random
import statistics

import pytest

from app.online.queues import Matchmaker, Queue, RatingWindow
from app.ratings.models import Rating
from tests.online.online_support import Inbox, assert_ledger_consistent, balance_of, pot_of
from tests.support.harness import reach_staked_level

FILL = 20_000
T0 = 1_000_000
WINDOW = RatingWindow(base=100, per_second=25, open_ms=FILL // 2)
DUO = Queue("pika", 2, "online")


async def join(mm: Matchmaker, queue: Queue, user: int, rating: int | None, *, now: int = T0,
               window: RatingWindow | None = WINDOW, fill: int = FILL):
    return await mm.join(queue, user, connection=f"socket-{user}", candidate=f"table-{user}-{now}", now_ms=now,
                         fill_ms=fill, staking=queue.mode == "staked", rating=rating, window=window)


async def test_players_sit_with_the_closest_ratings_the_queue_offers(quiet):
    mm = Matchmaker(quiet.runtime.redis)
    low = await join(mm, DUO, 1, 1000)
    high = await join(mm, DUO, 2, 1500, now=T0 + 1)
    assert high.status == "waiting" and high.table != low.table  # too far for the first table's window
    three = Queue("kapern", 3, "online")
    await join(mm, three, 10, 1200)
    await join(mm, three, 11, 1210, now=T0 + 1)
    assert (await join(mm, three, 12, 1215, now=T0 + 2)).status == "formed"
    near_high = await join(mm, DUO, 3, 1460, now=T0 + 2)
    assert near_high.status == "formed" and near_high.user_ids == [2, 3]
    near_low = await join(mm, DUO, 4, 1090, now=T0 + 3)
    assert near_low.status == "formed" and near_low.user_ids == [1, 4]
    # Without a rating, a player takes the oldest forming table, as before ratings.
    await join(mm, DUO, 5, 900, now=T0 + 4)
    await join(mm, DUO, 6, 1900, now=T0 + 5)
    assert (await join(mm, DUO, 7, None, now=T0 + 6)).user_ids == [5, 7]


async def test_the_window_widens_while_a_table_waits_and_far_tables_are_merged_before_the_fill_time(quiet):
    mm = Matchmaker(quiet.runtime.redis)
    first = await join(mm, DUO, 1, 1000)
    second = await join(mm, DUO, 2, 1300, now=T0 + 1)
    assert second.table != first.table
    assert await mm.merge(T0 + 7_000) == []  # the first table takes 100 + 25 x 7 = 275 points: not yet 300
    steps = await mm.merge(T0 + 8_000)  # 300: the second table's player moves to the first, which is full now
    assert [step.status for step in steps] == ["moved", "formed"]
    assert steps[0].source == second.table and steps[0].moves == [(2, 1, 2)] and steps[0].left_behind == []
    assert steps[1].table == first.table and steps[1].user_ids == [1, 2]
    assert await mm.forming(second.table) is None and await mm.due(T0 + 10 * FILL) == []
    # However far apart, tables are together once the older one has waited half its fill time.
    await join(mm, DUO, 3, 200, now=T0 + 100)
    await join(mm, DUO, 4, 2800, now=T0 + 101)
    assert await mm.merge(T0 + 100 + FILL // 2 - 1) == []
    assert [step.status for step in await mm.merge(T0 + 100 + FILL // 2)] == ["moved", "formed"]


async def simulate(mm: Matchmaker, prefix: str, rated: bool, first_user: int, seed: int = 5
                   ) -> tuple[list[float], list[int]]:
    """Players arriving over two minutes with ratings 600-1400, ticks every 500 ms (merge, then the fill time).
    Returns each table's rating spread (people only) and each player's wait in ms."""
    rng = random.Random(seed)
    queue = Queue(f"{prefix}-pika", 3, "online")
    arrivals = sorted((rng.uniform(0, 120_000), first_user + user, rng.randint(600, 1400)) for user in range(120))
    ratings = {user: rating for _, user, rating in arrivals}
    arrived, formed_at, spreads = {}, {}, []

    def seat(step, now):
        for user in step.user_ids:
            formed_at[user] = now
        people = [ratings[user] for user in step.user_ids]
        spreads.append(max(people) - min(people))

    now, index = T0, 0
    while now <= T0 + 120_000 + 2 * FILL:
        while index < len(arrivals) and T0 + arrivals[index][0] <= now:
            _, user, rating = arrivals[index]
            arrived[user] = now
            step = await join(mm, queue, user, rating if rated else None, now=now, window=WINDOW if rated else None)
            assert step.status in ("formed", "waiting"), step
            if step.status == "formed":
                seat(step, now)
            index += 1
        for step in [*await mm.merge(now), *await mm.due(now)]:
            if step.status == "formed":
                seat(step, now)
        now += 500
    return spreads, [formed_at[user] - arrived[user] for user in arrived]


async def test_ratings_narrow_the_tables_and_nobody_waits_past_the_fill_time(quiet):
    mm = Matchmaker(quiet.runtime.redis)
    plain_spreads, plain_waits = await simulate(mm, "plain", rated=False, first_user=1)
    rated_spreads, rated_waits = await simulate(mm, "rated", rated=True, first_user=1001)
    assert len(rated_waits) == len(plain_waits) == 120  # everyone was seated
    assert max(rated_waits) <= FILL and max(plain_waits) <= FILL
    assert statistics.median(rated_spreads) < statistics.median(plain_spreads)


# --- through the service: stakes move with the players, seats show ratings --------------------------------


async def rated_people(quiet, ratings: dict[str, float], game: str):
    hub = quiet.app.state.realtime.hub
    out = []
    for name, mu in ratings.items():
        user = await quiet.create_user(name)
        await reach_staked_level(quiet.runtime, user.id)
        async with quiet.runtime.transaction() as session:
            session.add(Rating(user_id=user.id, game=game, mu=mu, sigma=3.0, games=30, updated_at=quiet.clock.now()))
        inbox = Inbox(user.id)
        await hub.register(inbox)
        out.append((user, inbox))
    return out


async def test_far_staked_players_meet_before_the_fill_time_with_their_stakes_in_one_pot(quiet, online):
    (ada, a), (bob, b) = await rated_people(quiet, {"ada": 20.0, "bob": 35.0}, "pika")  # 800 and 1400
    mm = online.matchmaking
    queue = mm.queue_for("pika", 2, "staked", 100)
    await mm.queue(ada.id, queue, connection=a.id)
    await mm.queue(bob.id, queue, connection=b.id)
    first, second = (await mm.matchmaker.where(ada.id))[0], (await mm.matchmaker.where(bob.id))[0]
    assert first != second and await pot_of(quiet.runtime, first) == await pot_of(quiet.runtime, second) == 100
    quiet.clock.advance(seconds=10)
    await online.tick()
    assert (await mm.status(bob.id))["status"] == "waiting"  # 100 + 25 x 10 = 350 points: not 600 yet
    quiet.clock.advance(seconds=20)  # half the staked fill time (60 s): any rating
    await online.tick()
    data = b.last("matched")
    assert data is not None and data["table_id"] == a.last("matched")["table_id"]
    table = quiet.app.state.realtime.tables.get(data["table_id"])
    other = second if table.id == first else first  # they sat down at the same instant: either table is older
    assert table.id in (first, second)
    assert await pot_of(quiet.runtime, table.id) == 200 and await pot_of(quiet.runtime, other) == 0
    assert [await balance_of(quiet.runtime, u.id) for u in (ada, bob)] == [900, 900]
    shown = {seat["name"]: seat["rating"] for seat in table.describe()["seats"]}
    assert shown["ada"]["rating"] == 800 and shown["bob"]["rating"] == 1400 and not shown["bob"]["provisional"]
    await assert_ledger_consistent(quiet.runtime)


async def test_an_online_table_shows_each_seat_s_rating_and_the_simulated_players_fixed_one(quiet, online):
    (ada, a), = await rated_people(quiet, {"ada": 27.5}, "kapern")
    mm = online.matchmaking
    await mm.queue(ada.id, mm.queue_for("kapern", 3, "online", None), connection=a.id)
    quiet.clock.advance(seconds=20.1)
    await online.tick()
    table = quiet.app.state.realtime.tables.get(a.last("matched")["table_id"])
    seats = table.describe()["seats"]
    mine = next(seat for seat in seats if seat["name"] == "ada")
    assert mine["rating"] == {"rating": 1100, "deviation": 120, "games": 30, "provisional": False}
    assert all(seat["rating"]["fixed"] and seat["rating"]["rating"] == 1000 for seat in seats if seat["kind"] == "bot")


@pytest.mark.parametrize("game", ["pika"])
async def test_league_standings_show_each_player_s_rating(quiet, online, game):
    from tests.online.online_support import PlayedTable, finish, human, new_id

    ada, bob = await quiet.create_user("ada"), await quiet.create_user("bob")
    store = quiet.app.state.realtime.tables.store
    await finish(store, PlayedTable(new_id(), [human(ada), human(bob)], "online", [1, 2], game_name=game))
    rows = (await quiet.client.get(f"/api/league/{game}")).json()["standings"]
    assert rows[0]["username"] == "ada" and rows[0]["rating"]["rating"] > 1000 > rows[1]["rating"]["rating"]
    assert rows[0]["rating"]["provisional"] and rows[0]["rating"]["games"] == 1
