"""/api/wallet: the balance and a paginated history, as the ledger records it."""

from __future__ import annotations

from tests.support.harness import Harness


async def test_wallet_history_pages_through_every_entry_newest_first(harness: Harness):
    ada = await harness.user("ada")
    async with harness.runtime.transaction() as session:
        user = await harness.runtime.accounts.user_by_username(session, "ada")
        wallet = await harness.runtime.ledger.wallet_id(session, user.id)
        pot = await harness.runtime.ledger.pot_id(session, "table-1")
        for n in range(5):
            await harness.runtime.ledger.transfer(session, wallet, pot, 10, key=f"stake:{n}", reason=f"stake {n}")
    assert (await ada.get("/api/wallet")).json() == {"balance": 950}

    seen, cursor = [], None
    while True:
        params = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = (await ada.get("/api/wallet/history", params=params)).json()
        seen.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
        assert isinstance(cursor, str)
    assert [item["reason"] for item in seen] == ["stake 4", "stake 3", "stake 2", "stake 1", "stake 0", "welcome"]
    assert [item["balance_after"] for item in seen] == [950, 960, 970, 980, 990, 1000]
    assert all(item["delta"] == -10 for item in seen[:5])


async def test_each_user_sees_only_their_own_wallet(harness: Harness):
    ada, bob = await harness.user("ada"), await harness.user("bob")
    async with harness.runtime.transaction() as session:
        user = await harness.runtime.accounts.user_by_username(session, "bob")
        wallet = await harness.runtime.ledger.wallet_id(session, user.id)
        await harness.runtime.ledger.credit(session, wallet, 55, key="prize:1", reason="prize")
    assert (await ada.get("/api/wallet")).json() == {"balance": 1000}
    assert (await bob.get("/api/wallet")).json() == {"balance": 1055}
    assert len((await ada.get("/api/wallet/history")).json()["items"]) == 1
