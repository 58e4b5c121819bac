"""Ratings per game (docs/ratings.md): a result moves ratings the right way for 2, 3 and 5 seats, games decided by
covering bots and unrated modes move none, each settlement stores its change with the game, and recomputing from
the game records gives back the stored ratings exactly."""

from __future__ import annotations

import asyncio
import random

from sqlalchemy import select, update

from app.ratings.models import Rating, RatingHistory
from app.ratings.rating import (BOT_DECIDED, NEW_PLAYER, ONE_PERSON, PROVISIONAL_GAMES, UNRATED_MODE, RatedSeat, Skill,
                                rate_game)
from app.tables.models import GameRecord
from tests.online.online_support import PlayedTable, finish, human, new_id, simulated
from tests.support.server import run_cli


def person(user_id: int, placing: int, *, left: bool = False) -> RatedSeat:
    return RatedSeat("human", user_id, None, left, placing)


def bot(placing: int, level: str = "medium") -> RatedSeat:
    return RatedSeat("bot", None, level, False, placing)


def test_the_winner_goes_up_and_the_loser_down_at_two_seats():
    moved = rate_game("online", [person(1, 2), person(2, 1)], {}).changes
    assert moved[2].after.mu > NEW_PLAYER.mu > moved[1].after.mu
    assert moved[1].after.sigma < NEW_PLAYER.sigma and moved[2].after.games == 1
    assert moved[2].shown()["change"] > 0 > moved[1].shown()["change"]


def test_places_order_the_changes_at_three_and_five_seats():
    for seats in (3, 5):
        placings = list(range(1, seats + 1))
        random.Random(seats).shuffle(placings)
        moved = rate_game("staked", [person(user, place) for user, place in enumerate(placings, 1)], {}).changes
        by_place = [moved[user].after.mu for user, _ in sorted(enumerate(placings, 1), key=lambda pair: pair[1])]
        assert by_place == sorted(by_place, reverse=True) and by_place[0] > NEW_PLAYER.mu > by_place[-1]


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    strong, weak = Skill(35.0, 4.0, 30), Skill(15.0, 4.0, 30)
    upset = rate_game("online", [person(1, 1), person(2, 2)], {1: weak, 2: strong}).changes[1]
    expected = rate_game("online", [person(1, 1), person(2, 2)], {1: strong, 2: weak}).changes[1]
    assert upset.after.mu - upset.before.mu > expected.after.mu - expected.before.mu > 0


def test_ties_share_and_simulated_players_count_with_a_fixed_rating_but_never_move():
    game = rate_game("online", [person(1, 1), person(2, 1), bot(3, "hard")], {})
    assert set(game.changes) == {1, 2}
    assert game.changes[1].after == game.changes[2].after and game.changes[1].after.mu > NEW_PLAYER.mu
    # Finishing behind an easy simulated player costs more than finishing behind a hard one.
    behind_easy = rate_game("online", [person(1, 2), person(2, 3), bot(1, "easy")], {}).changes[1]
    behind_hard = rate_game("online", [person(1, 2), person(2, 3), bot(1, "hard")], {}).changes[1]
    assert behind_easy.after.mu < behind_hard.after.mu


def test_games_decided_mostly_by_covering_bots_and_unrated_modes_move_nobody():
    # one of two people left: only one person played their own seat
    assert rate_game("online", [person(1, 1), person(2, 2, left=True)], {}).unrated == BOT_DECIDED
    # half of the people left
    four = [person(1, 1), person(2, 2), person(3, 3, left=True), person(4, 4, left=True)]
    assert rate_game("online", four, {}).unrated == BOT_DECIDED
    assert rate_game("online", [person(1, 1), bot(2), bot(3)], {}).unrated == ONE_PERSON  # not between people
    for mode in ("friends", "bots"):
        assert rate_game(mode, [person(1, 1), person(2, 2)], {}).unrated == UNRATED_MODE
    # Fewer than half left: the leaver is out of the rating, the others are rated among themselves.
    three = rate_game("online", [person(1, 3), person(2, 1), person(3, 2, left=True)], {})
    assert three.unrated is None and set(three.changes) == {1, 2}
    assert three.changes[2].after.mu > NEW_PLAYER.mu > three.changes[1].after.mu


def test_a_rating_is_provisional_for_its_first_games_and_shown_as_one_number_with_its_uncertainty():
    assert NEW_PLAYER.shown() == {"rating": 1000, "deviation": 333, "games": 0, "provisional": True}
    assert Skill(26.0, 4.0, PROVISIONAL_GAMES - 1).shown()["provisional"]
    assert Skill(26.0, 4.0, PROVISIONAL_GAMES).shown() == {"rating": 1040, "deviation": 160,
                                                            "games": PROVISIONAL_GAMES, "provisional": False}
    assert Skill(26.0, 8.0, 50).shown()["provisional"]  # still too uncertain


# --- settled with the game ------------------------------------------------------------------------------------


async def settle(quiet, seats, placings, mode: str = "online", game: str = "pika", **meta):
    store = quiet.app.state.realtime.tables.store
    return await finish(store, PlayedTable(new_id(), seats, mode, placings, meta=meta, game_name=game))


async def stored_rating(quiet, user_id: int, game: str = "pika") -> Rating | None:
    async with quiet.runtime.reader() as session:
        return await session.get(Rating, (user_id, game))


async def test_a_settled_online_game_moves_its_players_and_says_so_in_the_rewards_and_the_record(quiet):
    ada, bob = await quiet.create_user("ada"), await quiet.create_user("bob")
    rewards = await settle(quiet, [human(ada), human(bob), simulated()], [3, 1, 2], bot_filled=True)
    assert rewards[1]["rating"]["change"] > 0 > rewards[0]["rating"]["change"]
    assert rewards[1]["rating"]["before"] == 1000 and rewards[1]["rating"]["provisional"]
    assert rewards[2]["rating"] is None  # a simulated player has no rating of its own
    bob_now = await stored_rating(quiet, bob.id)
    assert bob_now is not None and bob_now.games == 1 and round(bob_now.mu * 40) == rewards[1]["rating"]["rating"]
    async with quiet.runtime.reader() as session:
        ids = [row.record_id for row in await session.scalars(select(RatingHistory))]
        record = await session.get(GameRecord, ids[0])
    assert len(ids) == 2 and record.rewards["1"]["rating"] == rewards[1]["rating"]  # the results screen reads it


async def test_friends_games_and_bot_decided_games_leave_ratings_alone(quiet):
    ada, bob, cy = [await quiet.create_user(name) for name in ("ada", "bob", "cy")]
    friends = await settle(quiet, [human(ada), human(bob)], [1, 2], mode="friends")
    assert friends[0]["rating"] is None
    decided = await settle(quiet, [human(ada), human(bob, left=True)], [2, 1])
    assert decided[0]["rating"] == {"unrated": BOT_DECIDED} and decided[1]["rating"] == {"unrated": BOT_DECIDED}
    partly = await settle(quiet, [human(ada), human(bob, left=True), human(cy)], [1, 2, 3], mode="staked", stake=0)
    assert partly[1]["rating"] == {"unrated": "left"} and partly[0]["rating"]["change"] > 0
    assert await stored_rating(quiet, bob.id) is not None  # locked with the others, never moved
    assert (await stored_rating(quiet, bob.id)).games == 0


async def test_recomputing_from_the_game_records_gives_back_the_stored_ratings_exactly(quiet, tmp_path):
    users = [await quiet.create_user(f"player{n}") for n in range(7)]
    rng = random.Random(2024)
    for _ in range(40):
        size = rng.randint(2, 5)
        picked = rng.sample(users, rng.randint(1, size))
        seats = [human(user, left=rng.random() < 0.15) for user in picked]
        seats += [simulated(n) for n in range(size - len(seats))]
        rng.shuffle(seats)
        placings = [rng.randint(1, size) for _ in seats]
        mode = rng.choice(["online", "online", "staked", "friends"])
        await settle(quiet, seats, placings, mode=mode, game=rng.choice(["pika", "kapern"]), stake=0)
        quiet.clock.advance(seconds=rng.choice([0.001, 1, 30]))  # a player's games finish one after another
    ratings = quiet.app.state.online.ratings
    async with quiet.runtime.reader() as session:
        stored, again = await ratings.stored(session), await ratings.recompute(session)
    assert len(stored.history) > 40 and stored.ratings
    assert again.differences(stored) == [] and again.ratings == stored.ratings and again.history == stored.history
    # A stored rating that drifted from the records is found.
    first = sorted(stored.ratings)[0]
    async with quiet.runtime.transaction() as session:
        await session.execute(update(Rating).where(Rating.user_id == first[0], Rating.game == first[1])
                              .values(mu=Rating.mu + 1e-9))
    async with quiet.runtime.reader() as session:
        drifted = await ratings.stored(session)
    assert again.differences(drifted) and again.differences(drifted)[0].startswith(f"rating of user {first[0]}")
    # The operator's command finds it, and repairs it.
    settings = quiet.settings
    env = {"DATABASE_URL": settings.database_url, "DATA_DIR": str(settings.data_dir), "REDIS_URL": settings.redis_url}
    check = await asyncio.to_thread(run_cli, tmp_path, "ratings", "recompute", "--check", env=env)
    assert check.returncode == 1 and f"rating of user {first[0]}" in check.stderr
    repair = await asyncio.to_thread(run_cli, tmp_path, "ratings", "recompute", env=env)
    assert repair.returncode == 0 and "ratings recomputed and stored" in repair.stdout
    again_check = await asyncio.to_thread(run_cli, tmp_path, "ratings", "recompute", "--check", env=env)
    assert again_check.returncode == 0 and "ratings match the game records" in again_check.stdout, again_check.stderr
    async with quiet.runtime.reader() as session:
        assert again.differences(await ratings.stored(session)) == []


# --- profiles -----------------------------------------------------------------------------------------------


async def logged_in(quiet, user):
    client = quiet.new_client()
    client.cookies.set("ts_session", await quiet.session_token(user.id))
    return client


async def test_a_profile_shows_level_rating_record_and_recent_rated_games_and_nothing_private(quiet):
    ada, bob = await quiet.create_user("Ada"), await quiet.create_user("bob")
    await settle(quiet, [human(ada), human(bob)], [1, 2])
    quiet.clock.advance(seconds=1)
    await settle(quiet, [human(ada), human(bob), simulated()], [3, 1, 2], bot_filled=True)
    quiet.clock.advance(seconds=1)
    await settle(quiet, [human(ada), human(bob)], [1, 2], mode="friends")  # private between friends: not shown
    quiet.clock.advance(seconds=1)
    await settle(quiet, [human(ada), human(bob, left=True)], [2, 1], game="kapern")  # bot-decided: moves nothing
    client = await logged_in(quiet, bob)
    answer = await client.get("/api/users/ADA")  # names compare case-insensitively
    assert answer.status_code == 200
    profile = answer.json()
    assert profile["username"] == "Ada" and profile["level"] >= 1 and not profile["me"]
    pika = next(game for game in profile["games"] if game["game"] == "pika")
    assert (pika["played"], pika["won"], pika["left"], pika["games"]) == (2, 1, 0, 2)
    assert pika["provisional"] and isinstance(pika["rating"], int) and pika["deviation"] > 0
    kapern = next(game for game in profile["games"] if game["game"] == "kapern")
    assert (kapern["played"], kapern["games"], kapern["rating"]) == (1, 0, 1000)
    assert [game["mode"] for game in profile["recent"]] == ["online", "online", "online"]  # newest first
    assert profile["recent"][0]["game"] == "kapern" and profile["recent"][0]["rating"] is None
    assert profile["recent"][1]["placing"] == 3 and profile["recent"][1]["rating"]["change"] < 0
    assert profile["recent"][2]["rating"]["change"] > 0 and profile["recent"][2]["rating"]["before"] == 1000
    text = answer.text.lower()
    for private in ("balance", "coins", "email", "password", "user_id", "xp", "boost", "friends"):
        assert f'"{private}' not in text, private
    assert (await client.get("/api/users/bob")).json()["me"]


async def test_an_unknown_player_or_a_guest_has_no_profile_and_strangers_see_nothing(quiet):
    bob = await quiet.create_user("bob")
    client = await logged_in(quiet, bob)
    missing = await client.get("/api/users/nobody-here")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_user"
    guest = (await quiet.new_client().post("/api/auth/guest")).json()
    assert (await client.get(f"/api/users/{guest['username']}")).status_code == 404
    assert (await client.get("/api/users/a")).status_code == 422  # not a username at all
    assert (await quiet.new_client().get("/api/users/bob")).status_code == 401  # players only
    shared = await quiet.new_client().get("/u/bob", follow_redirects=False)
    assert shared.status_code == 307 and shared.headers["location"] == "/#/u/bob"
