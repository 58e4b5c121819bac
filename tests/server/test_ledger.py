"""The coin ledger (design.md, "Money"), on every backend: one posting function, idempotent, never below zero,
sum(balances) == sum(entries) always."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import func, select

from app.ledger.models import LedgerEntry, LedgerTransaction
from app.ledger.service import IdempotencyKeyReused, InsufficientFunds, InvalidPostings, UnknownAccount
from app.runtime import Runtime


async def pots(runtime: Runtime, *balances: int) -> list[int]:
    """Pot accounts funded with `balances` (each funding an entry, as every balance change must be)."""
    ids = []
    async with runtime.transaction() as session:
        for index, amount in enumerate(balances):
            account_id = await runtime.ledger.pot_id(session, f"test-{index}")
            if amount:
                await runtime.ledger.credit(session, account_id, amount, key=f"fund:{index}", reason="funding")
            ids.append(account_id)
    return ids


async def balances(runtime: Runtime, ids: list[int]) -> list[int]:
    async with runtime.transaction() as session:
        return [await runtime.ledger.balance(session, account_id) for account_id in ids]


async def counts(runtime: Runtime) -> tuple[int, int]:
    async with runtime.transaction() as session:
        transactions = (await session.execute(select(func.count()).select_from(LedgerTransaction))).scalar_one()
        entries = (await session.execute(select(func.count()).select_from(LedgerEntry))).scalar_one()
        return transactions, entries


async def assert_consistent(runtime: Runtime) -> None:
    async with runtime.transaction() as session:
        totals = await runtime.ledger.totals(session)
    assert totals.balances == totals.entries
    assert totals.lowest_balance >= 0


async def test_transfer_moves_coins_as_one_transaction_with_one_entry_per_posting(runtime: Runtime):
    a, b = await pots(runtime, 500, 0)
    async with runtime.transaction() as session:
        posted = await runtime.ledger.transfer(session, a, b, 120, key="t1", reason="stake")
    assert not posted.replayed
    assert sorted((e.account_id, e.delta, e.balance_after) for e in posted.entries) == sorted(
        [(a, -120, 380), (b, 120, 120)])
    assert await balances(runtime, [a, b]) == [380, 120]
    assert await counts(runtime) == (2, 3)  # funding + transfer; 1 + 2 entries
    await assert_consistent(runtime)


async def test_a_repeated_key_returns_the_first_result_and_changes_nothing(runtime: Runtime):
    a, b = await pots(runtime, 500, 0)
    async with runtime.transaction() as session:
        first = await runtime.ledger.transfer(session, a, b, 100, key="stake:t:1", reason="stake")
    before = await counts(runtime)
    async with runtime.transaction() as session:
        again = await runtime.ledger.transfer(session, a, b, 100, key="stake:t:1", reason="stake")
    assert again.replayed
    assert again.transaction_id == first.transaction_id
    assert set(again.entries) == set(first.entries)
    assert await balances(runtime, [a, b]) == [400, 100]
    assert await counts(runtime) == before


async def test_a_repeated_key_with_other_postings_is_refused(runtime: Runtime):
    a, b = await pots(runtime, 500, 0)
    async with runtime.transaction() as session:
        await runtime.ledger.transfer(session, a, b, 100, key="k", reason="stake")
    with pytest.raises(IdempotencyKeyReused):
        async with runtime.transaction() as session:
            await runtime.ledger.transfer(session, a, b, 101, key="k", reason="stake")
    assert await balances(runtime, [a, b]) == [400, 100]


async def test_an_overdraft_is_refused_with_a_clear_error_and_writes_nothing(runtime: Runtime):
    a, b, c = await pots(runtime, 500, 0, 50)
    before = await counts(runtime)
    payout = [(a, -40), (b, 100), (c, -60)]  # applied in ascending id order: a and b succeed, then c is short
    async with runtime.transaction() as session:
        with pytest.raises(InsufficientFunds) as refused:
            await runtime.ledger.settle(session, "pay", "payout", payout)
        assert refused.value.code == "insufficient_funds"
        assert refused.value.details == {"account_id": c, "needed": 60, "available": 50}
        # The caller's transaction is still usable: the refused post was rolled back to its savepoint.
        await runtime.ledger.transfer(session, a, b, 10, key="after", reason="test")
    assert await balances(runtime, [a, b, c]) == [490, 10, 50]
    assert await counts(runtime) == (before[0] + 1, before[1] + 2)
    async with runtime.transaction() as session:
        # The refused key was not used up: it can be posted once funds allow.
        await runtime.ledger.credit(session, c, 10, key="topup", reason="test")
        posted = await runtime.ledger.settle(session, "pay", "payout", payout)
        assert not posted.replayed
    assert await balances(runtime, [a, b, c]) == [450, 110, 0]
    await assert_consistent(runtime)


async def test_a_debit_with_no_counterpart_and_a_credit_with_none_are_entries(runtime: Runtime):
    (a,) = await pots(runtime, 0)
    async with runtime.transaction() as session:
        await runtime.ledger.credit(session, a, 300, key="prize", reason="league prize")
        await runtime.ledger.debit(session, a, 300, key="shop", reason="gold booster")
        with pytest.raises(InsufficientFunds):
            await runtime.ledger.debit(session, a, 1, key="shop2", reason="gold booster")
    assert await balances(runtime, [a]) == [0]
    assert await counts(runtime) == (2, 2)
    await assert_consistent(runtime)


@pytest.mark.parametrize("postings, message", [
    ([], "at least one posting"),
    ([(1, 0)], "at least one coin"),
    ([(1, 5), (1, -5)], "at most once"),
    ([(1, 2.5)], "whole number"),
])
async def test_malformed_postings_are_refused(runtime: Runtime, postings, message):
    with pytest.raises(InvalidPostings, match=message):
        async with runtime.transaction() as session:
            await runtime.ledger.post(session, "bad", "test", postings)


async def test_settle_must_balance_and_transfer_needs_two_accounts_and_a_positive_amount(runtime: Runtime):
    a, b = await pots(runtime, 100, 0)
    async with runtime.transaction() as session:
        with pytest.raises(InvalidPostings, match="balance"):
            await runtime.ledger.settle(session, "s", "payout", [(a, -10), (b, 9)])
        with pytest.raises(InvalidPostings, match="two different"):
            await runtime.ledger.transfer(session, a, a, 10, key="x", reason="x")
        with pytest.raises(InvalidPostings, match="above zero"):
            await runtime.ledger.transfer(session, a, b, -10, key="x", reason="x")
        with pytest.raises(UnknownAccount):
            await runtime.ledger.transfer(session, a, 10**9, 10, key="x", reason="x")
    assert await balances(runtime, [a, b]) == [100, 0]
    assert await counts(runtime) == (1, 1)


async def test_a_pot_is_created_once_per_table(runtime: Runtime):
    async with runtime.transaction() as session:
        first = await runtime.ledger.pot_id(session, "table-9")
        again = await runtime.ledger.pot_id(session, "table-9")
        other = await runtime.ledger.pot_id(session, "table-10")
        assert first == again != other
        assert await runtime.ledger.balance(session, first) == 0


async def test_transfers_are_found_by_key_and_by_account_with_a_literal_key_prefix(runtime: Runtime):
    a, b, c = await pots(runtime, 500, 0, 300)
    async with runtime.transaction() as session:
        await runtime.ledger.transfer(session, a, b, 40, key="stake:t_1:7:1", reason="stake")
        await runtime.ledger.transfer(session, c, b, 60, key="stake:tx1:8:1", reason="stake")  # `_` is no wildcard
        await runtime.ledger.transfer(session, b, a, 40, key="refund:t_1:7:1", reason="refund")
        await runtime.ledger.credit(session, b, 5, key="stake:t_1:bonus", reason="no counterpart: no transfer")
    async with runtime.reader() as session:
        found = await runtime.ledger.transfer_by_key(session, "stake:t_1:7:1")
        assert (found.source_id, found.target_id, found.amount) == (a, b, 40)
        assert await runtime.ledger.transfer_by_key(session, "stake:nowhere") is None
        assert await runtime.ledger.transfer_by_key(session, "stake:t_1:bonus") is None
        into_b = await runtime.ledger.transfers_of(session, b, key_prefix="stake:t_1:")
        assert [(t.key, t.source_id, t.amount) for t in into_b] == [("stake:t_1:7:1", a, 40)]
        assert [t.key for t in await runtime.ledger.transfers_of(session, b)] == [
            "stake:t_1:7:1", "stake:tx1:8:1", "refund:t_1:7:1"]
        assert [t.key for t in await runtime.ledger.transfers_of(session, c)] == ["stake:tx1:8:1"]


async def test_pots_holding_coins_say_their_table_balance_and_last_move(runtime: Runtime):
    async with runtime.transaction() as session:
        full = await runtime.ledger.pot_id(session, "full-table")
        await runtime.ledger.pot_id(session, "empty-table")
        await runtime.ledger.credit(session, full, 30, key="fund:full", reason="funding")
    async with runtime.reader() as session:
        (pot,) = await runtime.ledger.pots_holding_coins(session)
        assert (pot.table_id, pot.balance, pot.last_moved_at) == ("full-table", 30, runtime.clock.now())
        assert await runtime.ledger.pot_balance(session, "full-table") == 30
        assert await runtime.ledger.pot_balance(session, "empty-table") == 0
        assert await runtime.ledger.pot_balance(session, "no-such-table") == 0


async def test_history_is_newest_first_and_paginates_without_gaps(runtime: Runtime):
    a, b = await pots(runtime, 1000, 0)
    async with runtime.transaction() as session:
        for n in range(7):
            await runtime.ledger.transfer(session, a, b, n + 1, key=f"h{n}", reason=f"move {n}")
    seen = []
    cursor = None
    async with runtime.transaction() as session:
        while True:
            page = await runtime.ledger.history(session, a, before=cursor, limit=3)
            seen.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                break
    assert [item.reason for item in seen] == [f"move {n}" for n in reversed(range(7))] + ["funding"]
    assert [item.delta for item in seen[:2]] == [-7, -6]
    assert seen[0].balance_after == 1000 - sum(range(1, 8))
    assert seen[0].created_at.tzinfo is not None


async def test_two_hundred_concurrent_transfers_among_ten_accounts(runtime: Runtime):
    """issue 2: 200 concurrent transfers among 10 accounts leave every balance right, sum(balances) ==
    sum(entries); a repeated key changes nothing; an overdraft is refused and writes nothing."""
    start = [300] * 10
    ids = await pots(runtime, *start)
    funding = await counts(runtime)
    rng = random.Random(2)
    transfers = []
    for n in range(170):
        source, target = rng.sample(range(10), 2)
        transfers.append((f"transfer:{n}", ids[source], ids[target], rng.randint(1, 120)))
    # 30 resends of earlier keys, racing their originals; and a sure overdraft among them.
    sends = transfers + [rng.choice(transfers) for _ in range(29)] + [("overdraft", ids[0], ids[1], 10**6)]
    rng.shuffle(sends)

    async def send(key: str, source: int, target: int, amount: int):
        try:
            async with runtime.transaction() as session:
                return await runtime.ledger.transfer(session, source, target, amount, key=key, reason="test")
        except InsufficientFunds as refused:
            return refused

    results = await asyncio.gather(*(send(*transfer) for transfer in sends))
    assert len(results) == 200

    applied: dict[str, int] = {}  # key -> transaction id of the one time it was applied
    for (key, *_), result in zip(sends, results, strict=True):
        if isinstance(result, InsufficientFunds):
            continue
        assert applied.setdefault(key, result.transaction_id) == result.transaction_id  # one application per key
    assert "overdraft" not in applied
    assert any(isinstance(result, InsufficientFunds) for result in results)

    expected = dict(zip(ids, start, strict=True))
    for key, source, target, amount in transfers:
        if key in applied:
            expected[source] -= amount
            expected[target] += amount
    assert await balances(runtime, ids) == [expected[i] for i in ids]
    assert await counts(runtime) == (funding[0] + len(applied), funding[1] + 2 * len(applied))
    await assert_consistent(runtime)

    # Resending every key afterwards changes nothing at all.
    again = await asyncio.gather(*(send(*transfer) for transfer in transfers if transfer[0] in applied))
    assert all(result.replayed for result in again)
    assert await balances(runtime, ids) == [expected[i] for i in ids]
    assert await counts(runtime) == (funding[0] + len(applied), funding[1] + 2 * len(applied))
