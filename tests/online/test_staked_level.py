"""Staked tables open at STAKED_MIN_LEVEL (issue 14): staked tables are the one way coins pass between players, so
an account that never played (a throwaway made for its welcome coins) cannot sit at one to lose them on purpose to a
main account. The level comes from XP, and XP only from games played to the end without a bot playing for you."""

from __future__ import annotations

import pytest

from app.online.matchmaking import StakedLevelRequired
from tests.online.online_support import PlayedTable, assert_ledger_consistent, finish, balance_of, human, new_id, simulated
from tests.support.harness import open_harness


async def test_an_account_that_never_played_cannot_sit_at_a_staked_table(quiet, online):
    mm = online.matchmaking
    fresh = await quiet.create_user("fresh")
    with pytest.raises(StakedLevelRequired) as refused:
        await mm.queue(fresh.id, mm.queue_for("pika", 2, "staked", 100), connection="c1")
    error = refused.value
    assert (error.status, error.code) == (403, "staked_level_required")
    assert error.details == {"level": 1, "xp": 0, "level_needed": 2, "xp_needed": 100}
    assert "level 2" in error.message and "online or friends games" in error.message
    # Nothing moved and no seat was taken; online tables (coins from the house, not from players) stay open.
    assert await balance_of(quiet.runtime, fresh.id) == 1000
    assert await mm.status(fresh.id) == {"status": "idle"}
    waiting = await mm.queue(fresh.id, mm.queue_for("pika", 2, "online", None), connection="c1")
    assert waiting["event"] == "waiting"
    await assert_ledger_consistent(quiet.runtime)


async def test_the_level_is_earned_by_games_played_not_by_games_a_bot_played(quiet, online):
    mm = online.matchmaking
    store = quiet.app.state.realtime.tables.store
    ada, bob = await quiet.create_user("ada"), await quiet.create_user("bob")
    staked = mm.queue_for("pika", 2, "staked", 100)

    # Bob lets a bot play most of his turns at three online tables: counted as having left, he earns no XP.
    for _ in range(3):
        await finish(store, PlayedTable(new_id(), [human(ada), human(bob, left=True), simulated()], "online",
                                       [2, 1, 3]))
    with pytest.raises(StakedLevelRequired) as refused:
        await mm.queue(bob.id, staked, connection="b")
    assert refused.value.details["xp"] == 0
    # Ada played them (2nd of 3 each time: 20 + 10 XP): 90 XP is not yet level 2...
    with pytest.raises(StakedLevelRequired) as refused:
        await mm.queue(ada.id, staked, connection="a")
    assert refused.value.details == {"level": 1, "xp": 90, "level_needed": 2, "xp_needed": 100}
    # ... one more game played to the end (a friends table counts too) and the staked tables open.
    await finish(store, PlayedTable(new_id(), [human(ada), human(bob)], "friends", [2, 1]))
    waiting = await mm.queue(ada.id, staked, connection="a")
    assert waiting["event"] == "waiting" and await balance_of(quiet.runtime, ada.id) == 1000 + 3 * 40 - 100
    await assert_ledger_consistent(quiet.runtime)


async def test_an_operator_may_set_the_level_or_open_staked_tables_to_everyone(quiet_settings, backend):
    settings = quiet_settings.model_copy(update={"staked_min_level": 1})
    async with open_harness(settings, clean=backend == "services") as opened:
        mm = opened.app.state.online.matchmaking
        fresh = await opened.create_user("fresh")
        waiting = await mm.queue(fresh.id, mm.queue_for("pika", 2, "staked", 100), connection="c1")
        assert waiting["event"] == "waiting"
        assert (await (await opened.user("ada")).get("/api/matchmaking")).json()["options"]["staked_min_level"] == 1
