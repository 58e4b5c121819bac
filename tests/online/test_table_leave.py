"""Leaving and money in view, end to end (issue 19): a real uvicorn and WebSocket clients. Resigning a practice game
ends it and takes it off "Games in progress"; resigning a staked game leaves the stake in the pot (platform.md,
"Leaving") with the ledger still balanced; each player's `net` in the results is what the ledger moved."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import or_, select

from app.client import ClientError
from app.ledger.models import LedgerEntry, LedgerTransaction
from tests.online.online_support import assert_ledger_consistent
from tests.online.test_online_live import easy_bot, live_settings, matched, online, queue  # noqa: F401 (fixtures)
from tests.support.waiting import eventually

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def ledger_net(runtime, user_id: int, table_id: str) -> int:
    """What the ledger moved in or out of this player's wallet for this table (stakes, refunds, prizes, pot)."""
    async with runtime.sessionmaker() as session:
        wallet = await runtime.ledger.wallet_id(session, user_id)
        rows = await session.execute(
            select(LedgerEntry.delta).join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
            .where(LedgerEntry.account_id == wallet,
                   or_(LedgerTransaction.key.like(f"%:{table_id}:%"), LedgerTransaction.key == f"pot:{table_id}:payout")))
        return sum(rows.scalars().all())


async def test_resigning_a_vs_bots_game_ends_it_and_takes_it_off_games_in_progress(online):
    ada = await online.player("ada")
    table = await ada.post("/api/tables", {"game": "pika", "seats": 3, "bot_level": "easy"})
    await ada.join(table["id"])
    assert [t["id"] for t in (await ada.get("/api/tables/mine"))["tables"]] == [table["id"]]
    await ada.resign(table["id"])
    assert (await ada.get("/api/tables/mine"))["tables"] == []
    state = ada.tables[table["id"]]
    await ada.wait_for(lambda: state.info.get("status") == "cancelled")
    assert [e["code"] for e in state.events if e["type"] == "table_cancelled"] == ["resigned"]
    with pytest.raises(ClientError) as refused:
        await ada.resign(table["id"])
    assert refused.value.code == "game_over"
    with pytest.raises(ClientError) as refused:
        await ada.act(table["id"], {"type": "draw"})
    assert refused.value.code == "game_over"
    assert (await ada.get("/api/wallet"))["balance"] == 1000  # practice: nothing won or lost


async def test_leaving_a_staked_game_leaves_the_stake_in_the_pot_and_net_coins_equal_the_ledger(online):
    ada, bob = await online.player("ada", played=True), await online.player("bob", played=True)
    # The staked queue says how many wait at each stake.
    await queue(ada, "pika", 2, "staked", 250)
    waiting = (await bob.get("/api/matchmaking?game=pika"))["staked_waiting"]
    counts = {(w["seats"], w["stake"]): w["players"] for w in waiting}
    assert counts[(2, 250)] == 1 and counts[(2, 100)] == 0 and counts[(3, 250)] == 0
    await queue(bob, "pika", 2, "staked", 250)
    table_id = (await matched(ada))["table_id"]
    seats = {c.user["id"]: (await matched(c))["seat"] for c in (ada, bob)}
    for client in (ada, bob):
        await client.join(table_id)
    info = ada.tables[table_id].info
    assert info["stake"] == 250 and info["pot"] == 500  # the table header shows both
    assert (await ada.get("/api/wallet"))["balance"] == 750
    await ada.resign(table_id)
    assert (await ada.get("/api/tables/mine"))["tables"] == []  # left: not a game in progress any more
    assert [t["id"] for t in (await bob.get("/api/tables/mine"))["tables"]] == [table_id]
    with pytest.raises(ClientError) as refused:
        await ada.act(table_id, {"type": "draw"})
    assert refused.value.code == "resigned"
    # A bot plays Ada's seat to the end; Bob plays his.
    state = await bob.play(table_id, easy_bot("pika", seats[bob.user["id"]], 2))
    rewards = state.info["rewards"]
    runtime = online.server.runtime
    a, b = str(seats[ada.user["id"]]), str(seats[bob.user["id"]])
    assert rewards[a]["left"] and rewards[a]["xp"] == 0 and rewards[a]["league_points"] == 0
    assert not rewards[b]["left"]
    placings = state.info["outcome"]["placings"]
    winners = [seat for seat, place in enumerate(placings) if place == 1]
    for client, seat in ((ada, a), (bob, b)):
        reward = rewards[seat]
        # platform.md: the pot is still shared by placing (that stake was theirs), boosters never multiply it.
        assert reward["stake"] == 250 and reward["coins"] == 0
        assert reward["pot"] == (500 // len(winners) if int(seat) in winners else 0)
        assert reward["net"] == reward["pot"] - 250
        assert reward["net"] == await ledger_net(runtime, client.user["id"], table_id)
        assert (await client.get("/api/wallet"))["balance"] == 1000 + reward["net"]
    record = await bob.get(f"/api/games/{table_id}")
    assert record["rewards"] == rewards
    history = (await bob.get("/api/games/history"))["games"]
    assert history[0]["net"] == rewards[b]["net"]
    await assert_ledger_consistent(runtime)  # drift 0


async def test_net_coins_of_a_boosted_online_game_equal_the_ledger(online):
    ada = await online.player("ada")
    assert (await ada.post("/api/shop/purchases", {"item": "booster"}))["balance"] == 700
    await queue(ada, "pika", 2)
    online.clock.advance(seconds=20.5)
    notice = await matched(ada)
    table_id, seat = notice["table_id"], notice["seat"]
    await ada.join(table_id)
    assert ada.tables[table_id].info["pot"] is None
    state = await ada.play(table_id, easy_bot("pika", seat, 3))
    reward = state.info["rewards"][str(seat)]
    assert reward["multiplier"] == 2.0 and reward["coins"] == reward["prize"] * 2 and reward["stake"] == 0
    assert reward["net"] == reward["coins"] == await ledger_net(online.server.runtime, ada.user["id"], table_id)
    await assert_ledger_consistent(online.server.runtime)
