"""The shop over HTTP (platform.md, "Boosters"): the gold booster and the VIP pass, bought with coins or granted by an
operator, and the prizes they multiply (online and friends prizes, never a pot, never XP)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from tests.online.online_support import finish, PlayedTable, assert_ledger_consistent, balance_of, human, new_id, simulated
from tests.support.harness import PASSWORD
from tests.support.server import run_cli


async def buy(client, item: str, **extra):
    return await client.post("/api/shop/purchases", json={"item": item, **extra})


async def test_the_shop_lists_its_items_with_prices_from_the_settings(quiet):
    ada = await quiet.user("ada")
    shop = (await ada.get("/api/shop")).json()
    assert shop == {
        "items": [
            {"item": "booster", "title": "Gold booster", "price": 300, "multiplier": 2.0, "duration_seconds": 3600},
            {"item": "vip", "title": "VIP pass", "price": 2000, "multiplier": 1.5, "duration_seconds": 30 * 86400},
        ],
        "active": [],
        "balance": 1000,
    }
    assert (await quiet.client.get("/api/shop")).status_code == 401


async def test_a_gold_booster_starts_now_for_one_hour_and_cannot_be_bought_again_while_it_runs(quiet):
    ada = await quiet.user("ada")
    now = quiet.clock.now()
    response = await buy(ada, "booster")
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["balance"] == 700
    assert (body["item"], body["multiplier"]) == ("booster", 2.0)
    assert body["starts_at"] == now.isoformat() and body["ends_at"] == (now + timedelta(hours=1)).isoformat()
    assert [a["item"] for a in body["active"]] == ["booster"]
    # The profile (the header) shows it too, with the same end; a new log-in as well.
    assert (await ada.get("/api/me")).json()["active"] == body["active"]
    login = await quiet.client.post("/api/auth/login", json={"username": "ada", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["active"] == body["active"]
    quiet.clock.advance(seconds=3599)
    again = await buy(ada, "booster")
    assert again.status_code == 409 and again.json()["error"]["code"] == "booster_active"
    assert (await ada.get("/api/wallet")).json()["balance"] == 700
    quiet.clock.advance(seconds=1)
    assert (await ada.get("/api/shop")).json()["active"] == []  # over after exactly one hour
    assert (await ada.get("/api/me")).json()["active"] == []
    assert (await buy(ada, "booster")).status_code == 201
    assert (await ada.get("/api/wallet")).json()["balance"] == 400


async def test_a_vip_pass_lasts_30_days_and_is_extended_when_bought_again(quiet):
    user = await quiet.create_user("rich")
    async with quiet.runtime.transaction() as session:
        wallet = await quiet.runtime.ledger.wallet_id(session, user.id)
        await quiet.runtime.ledger.credit(session, wallet, 4000, key="gift", reason="test coins")
    client = quiet.new_client()
    client.cookies.set("ts_session", await quiet.session_token(user.id))
    now = quiet.clock.now()
    first = (await buy(client, "vip")).json()
    assert first["ends_at"] == (now + timedelta(days=30)).isoformat()
    quiet.clock.advance(timedelta(days=10))
    second = (await buy(client, "vip")).json()
    assert second["starts_at"] == first["ends_at"]
    assert second["ends_at"] == (now + timedelta(days=60)).isoformat()
    assert [(a["item"], a["ends_at"]) for a in second["active"]] == [("vip", second["ends_at"])]
    assert second["balance"] == 1000
    async with quiet.runtime.sessionmaker() as session:
        shop = quiet.app.state.online.shop
        assert await shop.multipliers(session, [user.id, None]) == [1.5, 1.0]
        quiet.clock.advance(timedelta(days=49, hours=23))
        assert await shop.multipliers(session, [user.id]) == [1.5]  # still inside the second month
        quiet.clock.advance(timedelta(hours=1))
        assert await shop.multipliers(session, [user.id]) == [1.0]


async def test_purchases_need_the_coins_name_a_real_item_and_a_retry_buys_once(quiet):
    ada = await quiet.user("ada")
    poor = await buy(ada, "vip")
    assert poor.status_code == 409 and poor.json()["error"]["code"] == "insufficient_funds"
    assert (await buy(ada, "rocket")).json()["error"]["code"] == "unknown_item"
    first = await buy(ada, "booster", request_id="click-1")
    retry = await buy(ada, "booster", request_id="click-1")
    assert first.status_code == retry.status_code == 201
    assert retry.json()["ends_at"] == first.json()["ends_at"]
    assert (await ada.get("/api/wallet")).json()["balance"] == 700
    other = await buy(ada, "vip", request_id="click-1")
    assert other.status_code == 409 and other.json()["error"]["code"] == "idempotency_key_reused"
    history = (await ada.get("/api/wallet/history")).json()["items"]
    assert [(h["delta"], h["reason"]) for h in history[:1]] == [(-300, "shop: Gold booster")]
    await assert_ledger_consistent(quiet.runtime)


async def test_booster_and_vip_together_multiply_online_and_friends_prizes_but_never_a_pot_or_xp(quiet):
    runtime = quiet.runtime
    shop = quiet.app.state.online.shop
    store = quiet.app.state.realtime.tables.store
    ada = await quiet.create_user("ada")
    bob = await quiet.create_user("bob")
    async with runtime.transaction() as session:
        wallet = await runtime.ledger.wallet_id(session, ada.id)
        await runtime.ledger.credit(session, wallet, 2000, key="gift", reason="test coins")
        await shop.buy(session, ada.id, "booster")
        await shop.buy(session, ada.id, "vip")
    assert await balance_of(runtime, ada.id) == 700
    # Online: every place paid, multiplied (x2 x1.5 = x3) for Ada only; XP as usual.
    online = await finish(store, PlayedTable(new_id(), [human(ada), human(bob), simulated()], "online", [2, 1, 3]))
    assert online[0]["coins"] == 40 * 3 and online[1]["coins"] == 80
    assert online[0]["xp"] == 30 and online[1]["xp"] == 40
    # Friends: only the winner, half the online first prize, multiplied.
    friends = await finish(store, PlayedTable(new_id(), [human(ada), human(bob)], "friends", [1, 2]))
    assert friends[0]["coins"] == 30 * 3 and friends[1]["coins"] == 0
    # A staked pot is never multiplied.
    table = PlayedTable(new_id(), [human(ada), human(bob)], "staked", [1, 2], meta={"stake": 100})
    async with runtime.transaction() as session:
        await quiet.app.state.online.stakes.stake(session, table.id, ada.id, 1, 100, "Pika")
        await quiet.app.state.online.stakes.stake(session, table.id, bob.id, 1, 100, "Pika")
    staked = await finish(store, table)
    assert staked[0]["pot"] == 200 and staked[0]["coins"] == 0 and staked[0]["xp"] == 40
    assert await balance_of(runtime, ada.id) == 700 + 120 + 90 - 100 + 200
    await assert_ledger_consistent(runtime)


async def test_an_operator_grants_the_booster_and_the_vip_pass_from_the_command_line(quiet, tmp_path):
    ada = await quiet.user("ada")
    settings = quiet.settings
    env = {"DATABASE_URL": settings.database_url, "DATA_DIR": str(settings.data_dir),
           "REDIS_URL": settings.redis_url}
    done = await asyncio.to_thread(run_cli, tmp_path, "grant-item", "ADA", "vip", "--reason", "apology", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "granted the vip to ADA" in done.stdout
    done = await asyncio.to_thread(run_cli, tmp_path, "grant-item", "ada", "booster", "--reason", "contest", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    # The CLI ran on the real clock; the app's clock is fixed in 2030, so look at what was stored.
    active = await _boosts(quiet, "ada")
    assert sorted(b.kind for b in active) == ["booster", "vip"] and all(b.source == "grant" for b in active)
    assert (await ada.get("/api/wallet")).json()["balance"] == 1000  # a gift: no coins moved
    missing = await asyncio.to_thread(run_cli, tmp_path, "grant-item", "nobody", "vip", "--reason", "x", env=env)
    assert missing.returncode == 1 and "no user called" in missing.stderr


async def _boosts(quiet, username: str):
    from sqlalchemy import select

    from app.online.models import Boost

    async with quiet.runtime.sessionmaker() as session:
        user = await quiet.runtime.accounts.user_by_username(session, username)
        return list(await session.scalars(select(Boost).where(Boost.user_id == user.id)))


@pytest.mark.parametrize("item", ["booster", "vip"])
async def test_a_grant_while_one_runs_extends_it(quiet, item):
    shop = quiet.app.state.online.shop
    ada = await quiet.create_user("ada")
    async with quiet.runtime.transaction() as session:
        first = await shop.grant(session, ada.id, item, "first")
        second = await shop.grant(session, ada.id, item, "second")
    assert second.starts_at == first.ends_at
