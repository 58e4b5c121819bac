"""Hostile socket input (issue 14): non-finite numbers, junk fields and odd types never reach a table's log, a staked
pot is still paid, and one user's many sockets share one message budget and a cap."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from sqlalchemy import select

from app.client import ClientError, TablestakesClient, bot_chooser
from app.games.registry import get_game
from app.ledger.models import LedgerAccount
from app.runtime import open_runtime
from app.tables.models import GameRecord, LiveTable
from tests.support.harness import PASSWORD, reach_staked_level, wipe
from tests.support.live import live_server
from tests.support.waiting import eventually

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def hostile_settings(settings, backend):
    if backend == "services":
        async with open_runtime(settings) as runtime:
            await wipe(runtime)
    return settings.model_copy(update={
        "bot_delay_min_seconds": 0.0, "bot_delay_max_seconds": 0.0, "snapshot_seconds": 0.0,
        "ws_messages_per_second": 1000.0, "matchmaking_tick_seconds": 0.05, "league_check_seconds": 1e9,
    })


async def player(server, name: str) -> TablestakesClient:
    client = TablestakesClient(server.url)
    await client.register(name, PASSWORD)
    await reach_staked_level(server.runtime, client.user["id"])  # staked tables open at STAKED_MIN_LEVEL
    await client.connect()
    return client


async def matched_table(client: TablestakesClient) -> dict:
    def found() -> list[dict]:
        return [n["data"] for n in client.notices if n["type"] == "matchmaking" and n["data"]["event"] == "matched"]

    await client.wait_for(lambda: bool(found()))
    return found()[-1]


async def error_for(client: TablestakesClient, raw: str) -> dict:
    """Send a raw frame with request id 77 and return the error it earns."""
    reply = asyncio.get_running_loop().create_future()

    def listen(message: dict) -> None:
        if message.get("type") == "error" and not reply.done():
            reply.set_result(message)

    client.on_message(listen)
    await client.send_raw(raw)
    return await asyncio.wait_for(reply, 10)


# The attack of issue 14 (a Kapern roll with a NaN beside it), its cousins, and shapes that used to crash.
NON_FINITE = [
    '{{"type":"act","id":77,"table":"{t}","action":{{"junk":NaN,"type":"roll","dice":[0,1,2,3,4,5,6,7]}}}}',
    '{{"type":"act","id":77,"table":"{t}","action":{{"type":"roll","dice":[0,1,2,3,4,5,6,7],"x":Infinity}}}}',
    '{{"type":"act","id":77,"table":"{t}","action":{{"type":"roll","dice":[0,1,2,3,4,5,6,7],"x":-Infinity}}}}',
    '{{"type":"act","id":77,"table":"{t}","action":{{"type":"roll","dice":[0,1,2,3,4,5,6,7],"x":1e400}}}}',
    '{{"type":"act","id":77,"table":"{t}","action":{{"type":"place_die","pips":NaN,"on":"card","slot":0}}}}',
    '{{"type":"join","id":77,"table":"{t}","since":1e999}}',
]
BAD_SHAPES = [
    {"junk": 1, "type": "roll", "dice": [0, 1, 2, 3, 4, 5, 6, 7]},
    {"type": ["roll"]},
    {"type": {"roll": True}},
    {"type": "roll", "dice": [0, 1, 2, 3, 4, 5, 6, 7.0]},
    {"type": "roll", "dice": ["0"]},
    {"type": "place_die", "pips": 5, "on": "card", "slot": 0, "evil": [1e308]},
    {"type": "secure", "card": "tech-1", "dice": [2**80]},
]


@pytest.mark.parametrize("game", ["kapern", "piker"])
async def test_hostile_values_are_refused_and_the_staked_pot_is_still_paid(hostile_settings, game):
    async with live_server(hostile_settings) as server:
        ada, bob = await player(server, "ada"), await player(server, "bob")
        for client in (ada, bob):
            await client.request({"type": "queue", "game": game, "seats": 2, "mode": "staked", "stake": 100})
        table_id = (await matched_table(ada))["table_id"]
        for client in (ada, bob):
            await client.join(table_id)
        table = server.realtime.tables.get(table_id)
        log_before = list(table.action_log)

        for raw in NON_FINITE:
            error = await error_for(ada, raw.format(t=table_id))
            assert error["code"] == "bad_json" and error["id"] is None
        for action in BAD_SHAPES:
            with pytest.raises(ClientError) as refused:
                await ada.act(table_id, action)
            assert refused.value.code == "bad_action", action
        assert table.action_log == log_before  # nothing hostile reached the log

        seats = {c.user["id"]: c.tables[table_id].seat for c in (ada, bob)}
        rng = random.Random(5)
        bots = {c: bot_chooser(get_game(game).bots["easy"](seats[c.user["id"]], random.Random(rng.random())))
                for c in (ada, bob)}
        results = await asyncio.gather(*(c.play(table_id, bots[c]) for c in (ada, bob)))
        placings = results[0].info["outcome"]["placings"]
        winners = [seat for seat, place in enumerate(placings) if place == 1]

        async def settled() -> bool:
            async with server.runtime.sessionmaker() as session:
                row = await session.get(LiveTable, table_id)
                return row is not None and row.status == "finished"

        await eventually(settled)
        async with server.runtime.sessionmaker() as session:
            assert await session.get(GameRecord, table_id) is not None
            pot = await session.scalar(select(LedgerAccount.balance).where(LedgerAccount.name == f"pot:{table_id}"))
        assert pot == 0
        balances = [(await c.get("/api/wallet"))["balance"] for c in (ada, bob)]
        assert sum(balances) == 2000
        for client, balance in zip((ada, bob), balances):
            won = seats[client.user["id"]] in winners
            assert balance == 900 + (200 // len(winners) if won else 0)
        for client in (ada, bob):
            await client.close()


async def test_one_user_gets_a_few_sockets_and_one_message_budget_whatever_they_open(hostile_settings):
    strict = hostile_settings.model_copy(update={"ws_messages_per_second": 5.0, "ws_max_sockets_per_user": 3,
                                                 "ws_refusals_before_close": 10_000})
    async with live_server(strict) as server:
        eve = TablestakesClient(server.url)
        await eve.register("eve", PASSWORD)
        sockets = []
        for _ in range(6):
            extra = TablestakesClient(server.url)
            extra.http.cookies.set("ts_session", eve.session_cookie)
            assert await extra.connect() is not None
            sockets.append(extra)
        # The three oldest were closed, each told why; the three newest stay open.
        for old in sockets[:3]:
            assert await old.wait_closed() == 4409
            assert any(m.get("code") == "too_many_sockets" for m in old.received)
        live = sockets[3:]
        assert all(s.close_code is None for s in live)

        # 3 sockets x 30 pings at once: the user's budget (burst 10, 5/s) answers about a dozen, not 90.
        for _ in range(30):
            await asyncio.gather(*(s.send_raw(json.dumps({"type": "ping"})) for s in live))
        await eventually(lambda: sum(len([m for m in s.received if m["type"] in ("pong", "error")]) for s in live)
                         >= 90)
        pongs = sum(1 for s in live for m in s.received if m["type"] == "pong")
        limited = sum(1 for s in live for m in s.received if m.get("code") == "rate_limited")
        assert pongs + limited == 90
        assert pongs < 30
        for client in (eve, *sockets):
            await client.close()


# A request id holding a lone surrogate: valid JSON (the escape is plain ASCII on the wire), but not text the protocol
# can echo, so it is refused like any bad id (not echoed) and the socket lives on.
NOT_TEXT_IDS = [
    (r'{"type":"ping","id":"\ud800"}', "bad_message"),
    (r'{"type":"ping","id":"ab\udfffcd"}', "bad_message"),
    (r'{"id":"\ud800"}', "bad_message"),
    (r'{"type":"no_such_type","id":"\ud800"}', "unknown_message"),
]


async def test_a_request_id_that_is_not_text_is_refused_without_being_echoed(hostile_settings):
    async with live_server(hostile_settings) as server:
        eve = TablestakesClient(server.url)
        await eve.register("eve", PASSWORD)
        await eve.connect()
        for raw, code in NOT_TEXT_IDS:
            error = await error_for(eve, raw)
            assert (error["code"], error["id"]) == (code, None), raw
        assert (await eve.ping())["type"] == "pong"  # the same socket still answers
        assert eve.close_code is None
        await eve.close()


async def test_a_rate_limited_request_whose_id_is_not_text_is_refused_without_being_echoed(hostile_settings):
    strict = hostile_settings.model_copy(update={"ws_messages_per_second": 1.0, "ws_refusals_before_close": 10_000})
    async with live_server(strict) as server:
        eve = TablestakesClient(server.url)
        await eve.register("eve", PASSWORD)
        await eve.connect()
        for _ in range(12):  # a burst of 2 is answered, the rest are over the budget
            await eve.send_raw(r'{"type":"ping","id":"\ud800"}')
        await eventually(lambda: len([m for m in eve.received if m["type"] == "error"]) == 12)
        errors = [m for m in eve.received if m["type"] == "error"]
        assert {m["code"] for m in errors} == {"bad_message", "rate_limited"}
        assert all(m["id"] is None for m in errors)
        assert (await eve.ping())["type"] == "pong"  # the same socket still answers (once the budget refills)
        assert eve.close_code is None
        await eve.close()


async def test_a_flood_of_binary_frames_spends_the_budget_and_is_closed_like_a_flood_of_text(hostile_settings):
    strict = hostile_settings.model_copy(update={"ws_messages_per_second": 5.0, "ws_refusals_before_close": 5})
    async with live_server(strict) as server:
        mallory = TablestakesClient(server.url)
        await mallory.register("mallory", PASSWORD)
        await mallory.connect()
        for _ in range(300):
            try:
                await mallory.send_raw(b"\x00" * 16)
            except Exception:  # closed by the server mid-flood
                break
        assert await mallory.wait_closed() == 4429
        codes = [m.get("code") for m in mallory.received if m["type"] == "error"]
        assert "text_only" in codes  # the budget's burst is answered as before
        assert "rate_limited" in codes  # then refused, then closed
        await mallory.close()


# Values of another JSON type than the protocol's are refused as written, never coerced: `true` and `1.0` are not
# seat 1, `"3"` is not version 3, `1` is not `true`.
COERCIBLE = [
    ({"type": "act", "table": "t1", "action": {"type": "draw"}, "seat": True}, "seat"),
    ({"type": "act", "table": "t1", "action": {"type": "draw"}, "seat": 1.0}, "seat"),
    ({"type": "join", "table": "t1", "since": "3"}, "since"),
    ({"type": "join", "table": "t1", "history": 1}, "history"),
    ({"type": "queue", "game": "pika", "seats": 2.0, "mode": "online"}, "seats"),
    ({"type": "queue", "game": "pika", "seats": 2, "mode": "staked", "stake": "100"}, "stake"),
    ({"type": "queue", "game": "pika", "seats": 2, "mode": "online", "rejoin": "yes"}, "rejoin"),
    ({"type": "rematch", "table": "t1", "agree": 1}, "agree"),
]


async def test_values_of_another_json_type_are_refused_not_coerced(hostile_settings):
    async with live_server(hostile_settings) as server:
        eve = TablestakesClient(server.url)
        await eve.register("eve", PASSWORD)
        await eve.connect()
        for message, field in COERCIBLE:
            error = await error_for(eve, json.dumps({**message, "id": 77}))
            assert (error["code"], error["id"]) == ("bad_message", 77), message
            assert error["message"].startswith(f"{field}:"), (message, error)
        assert (await eve.get("/api/matchmaking"))["status"] != "waiting"  # no queue was joined on a coerced value
        assert eve.close_code is None
        await eve.close()
