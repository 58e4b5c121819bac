"""The rematch board's steps (app/tables/rematch_board.py) give the same answers wherever the board lives: in this
process's memory (the embedded set-up), as Lua scripts on the in-process Redis stand-in, and as Lua scripts on a
real Redis (when the services are set)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from app.config import Settings
from app.core.redis import close_redis, create_redis
from app.tables.rematch_board import ANSWER_FIELD, LocalRematchBoard, RedisRematchBoard, rematch_board
from tests.support import backends

DEADLINE = 1_000_000  # ms on the boards' clock; the tests' "now" is before or after it
TTL = 3600


class Clock:
    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return self.ms


BOARDS = ["memory", "script-on-stand-in"] + (["script-on-redis"] if backends.SERVICES else [])


@pytest.fixture(params=BOARDS)
async def board(request: pytest.FixtureRequest) -> AsyncIterator[object]:
    if request.param == "memory":
        yield LocalRematchBoard(Clock())
        return
    url = "memory://" if request.param == "script-on-stand-in" else request.getfixturevalue("redis_database")
    redis = create_redis(url)
    await redis.flushdb()
    try:
        yield RedisRematchBoard(redis)
    finally:
        await close_redis(redis)


async def answer(board, user: int, agree: bool = True, humans: int = 3, old: str = "old", new_table: str = "new"):
    return await board.answer(old, user, agree, humans, DEADLINE, new_table, TTL)


async def test_the_first_answer_opens_the_rematch_and_the_last_one_decides_it(board):
    first = await answer(board, 1)
    assert (first.outcome, first.status, first.decided) == ("agreed", "pending", False)
    assert first.fields == {"status": "pending", "deadline": str(DEADLINE), "humans": "3", "new_table": "new",
                            ANSWER_FIELD + "1": "yes"}
    second = await answer(board, 2, agree=False, new_table="ignored")
    assert (second.outcome, second.status, second.decided) == ("declined", "pending", False)
    assert second.fields["new_table"] == "new"  # the first id given stays
    last = await answer(board, 3, agree=False)
    assert (last.outcome, last.status, last.decided) == ("declined", "starting", True)  # one yes is enough
    assert await board.fields("old") == last.fields


async def test_nobody_agreeing_cancels_it_and_an_answer_after_that_changes_nothing(board):
    await answer(board, 1, agree=False, humans=2)
    last = await answer(board, 2, agree=False, humans=2)
    assert (last.status, last.decided) == ("cancelled", True)
    late = await answer(board, 1, agree=True, humans=2)
    assert (late.outcome, late.status, late.decided) == ("closed", "cancelled", False)
    assert late.fields[ANSWER_FIELD + "1"] == "no"


async def test_who_agreed_may_withdraw_and_who_declined_may_not_agree_again(board):
    await answer(board, 1)
    assert (await answer(board, 1, agree=False)).outcome == "withdrew"
    again = await answer(board, 1)
    assert (again.outcome, again.status) == ("declined_before", "pending")
    assert again.fields[ANSWER_FIELD + "1"] == "no"
    assert (await answer(board, 1)).outcome == "declined_before"


async def test_answers_at_the_same_moment_are_decided_by_exactly_one_of_them(board):
    results = await asyncio.gather(*(answer(board, user, humans=4) for user in range(1, 5)))
    assert sum(result.decided for result in results) == 1
    assert {result.outcome for result in results} == {"agreed"}
    assert (await board.fields("old"))["status"] == "starting"


async def test_the_new_tables_id_is_fixed_by_the_first_one_given(board):
    assert await board.fix_new_table("old", "first", TTL) == ("first", None)
    assert await board.fix_new_table("old", "second", TTL) == ("first", None)
    opened = await answer(board, 1, new_table="third")
    assert opened.fields["new_table"] == "first"
    assert await board.fix_new_table("old", "fourth", TTL) == ("first", "pending")


async def test_a_wait_that_runs_out_is_closed_once_and_a_decided_one_is_not_due(board):
    await answer(board, 1, old="agreed-one")
    await answer(board, 1, agree=False, old="declined-one")
    await answer(board, 1, humans=1, old="decided-one")  # decided by its only person: never due
    assert not await board.any_due(DEADLINE - 1)
    assert await board.take_due(DEADLINE - 1) == []
    assert await board.any_due(DEADLINE)
    assert sorted(await board.take_due(DEADLINE)) == ["agreed-one", "declined-one"]
    assert not await board.any_due(DEADLINE + 1)
    assert await board.take_due(DEADLINE + 1) == []
    assert (await board.fields("agreed-one"))["status"] == "starting"
    assert (await board.fields("declined-one"))["status"] == "cancelled"
    assert (await board.fields("decided-one"))["status"] == "starting"
    late = await answer(board, 2, old="agreed-one")
    assert (late.outcome, late.decided) == ("closed", False)


async def test_how_it_ended_is_written_over_its_status(board):
    await answer(board, 1, humans=1)
    await board.end("old", {"status": "started", "new_table": "made", "reason": ""})
    assert await board.fields("old") == {"status": "started", "deadline": str(DEADLINE), "humans": "1",
                                         "new_table": "made", "reason": "", ANSWER_FIELD + "1": "yes"}
    assert await board.fields("never") == {}


async def test_in_memory_a_rematch_past_its_time_to_live_is_forgotten_as_redis_would_expire_it():
    clock = Clock()
    board = LocalRematchBoard(clock)
    await board.answer("old", 1, True, 2, DEADLINE, "new", TTL)
    clock.ms = TTL * 1000 - 1
    assert (await board.fields("old"))["status"] == "pending"
    clock.ms = TTL * 1000
    assert await board.fields("old") == {}
    await board.end("old", {"status": "cancelled"})  # nothing to end: it stays gone
    assert await board.fields("old") == {}
    reopened = await board.answer("old", 2, True, 2, clock.ms + DEADLINE, "another", TTL)
    assert (reopened.status, reopened.fields["new_table"]) == ("pending", "another")
    assert board._hashes.keys() == {"old"} and len(board._expires) == 1


def test_the_embedded_set_up_keeps_its_rematches_in_memory_and_a_redis_server_in_redis():
    redis = create_redis("memory://")
    embedded = Settings(redis_url="memory://", database_url="sqlite+aiosqlite://")
    served = Settings(redis_url="redis://127.0.0.1:6379/0", database_url="sqlite+aiosqlite://")
    assert isinstance(rematch_board(redis, embedded.redis_in_process, Clock()), LocalRematchBoard)
    assert isinstance(rematch_board(redis, served.redis_in_process, Clock()), RedisRematchBoard)
