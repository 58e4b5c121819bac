"""`tablestakes audit`: clean on a ledger the app kept (welcome coins, a staked game paid, a forming table's stake, a
refunded one), and each kind of damage is found and named: a balance that does not match its entries, coins left in
a settled pot, a staked game never paid. The command exits 0 when clean and 1 with the differences printed."""

from __future__ import annotations

from sqlalchemy import delete, update

from app.ledger.audit import audit_ledger
from app.ledger.models import LedgerAccount, LedgerEntry, LedgerTransaction
from tests.online.online_support import TableRecorder, finish
from tests.ops.ops_support import tablestakes
from tests.support.harness import reach_staked_level


async def audit(quiet, forming=None):
    async with quiet.runtime.reader() as session:
        return await audit_ledger(session, quiet.clock.now(), forming)


async def staked_game(quiet, names: list[str], placings: list[int], stake: int = 100):
    """Players stake at a staked table through matchmaking; the table is settled with these placings."""
    matchmaking = quiet.app.state.online.matchmaking
    recorder = TableRecorder(quiet.app)
    matchmaking.create_table = recorder
    users = [await quiet.create_user(name) for name in names]
    for user in users:
        await reach_staked_level(quiet.runtime, user.id)
        await matchmaking.queue(user.id, matchmaking.queue_for("stakes", len(users), "staked", stake))
    (table,) = recorder.tables
    table.placings = placings
    await finish(quiet.app.state.realtime.tables.store, table)
    return table, users


async def test_a_kept_ledger_is_clean_and_every_kind_of_damage_is_found(quiet):
    table, (ada, bob) = await staked_game(quiet, ["ada", "bob"], [1, 2])
    matchmaking = quiet.app.state.online.matchmaking
    carol = await quiet.create_user("carol")
    await reach_staked_level(quiet.runtime, carol.id)
    waiting = await matchmaking.queue(carol.id, matchmaking.queue_for("pika", 3, "staked", 250))  # a forming table
    assert waiting["event"] == "waiting"
    dave = await quiet.create_user("dave")
    await reach_staked_level(quiet.runtime, dave.id)
    await matchmaking.queue(dave.id, matchmaking.queue_for("kapern", 2, "staked", 500))
    await matchmaking.unqueue(dave.id)  # staked and refunded

    clean = await audit(quiet)
    assert clean.clean, clean.differences
    assert clean.staked_games == 1 and clean.pots_holding_coins == 1  # carol's forming table
    assert clean.balances_total == clean.entries_total == 4 * 1000

    # A forming table known to Redis is fine however old its pot; a pot with no table long after is not.
    later = quiet.clock.now().replace(year=quiet.clock.now().year + 1)
    async with quiet.runtime.reader() as session:
        stale = await audit_ledger(session, later, forming=set())
        still_forming = await audit_ledger(session, later, forming=await forming_ids(quiet))
    assert [d.check for d in stale.differences] == ["pot"] and "none is forming" in stale.differences[0].what
    assert still_forming.clean

    # A balance nudged past its entries.
    runtime = quiet.runtime
    async with runtime.transaction() as session:
        await session.execute(update(LedgerAccount).where(LedgerAccount.name == f"user:{ada.id}")
                              .values(balance=LedgerAccount.balance + 7))
    nudged = await audit(quiet)
    assert sorted(d.check for d in nudged.differences) == ["account", "totals"]
    assert any(f"user:{ada.id} has a balance of" in d.what and "entries add up to" in d.what
               for d in nudged.differences)
    assert "difference 7" in next(d.what for d in nudged.differences if d.check == "totals")
    async with runtime.transaction() as session:
        await session.execute(update(LedgerAccount).where(LedgerAccount.name == f"user:{ada.id}")
                              .values(balance=LedgerAccount.balance - 7))
    assert (await audit(quiet)).clean

    # Coins posted into a settled pot (the ledger adds up, the pot does not).
    async with runtime.transaction() as session:
        pot = await runtime.ledger.pot_id(session, table.id)
        await runtime.ledger.credit(session, pot, 5, key="test:stray", reason="a stray credit")
    stray = await audit(quiet)
    assert {d.check for d in stray.differences} == {"pot", "payout"}
    assert any(f"pot:{table.id} holds 5 coins but its table is finished" in d.what for d in stray.differences)

    # A staked game whose payout is gone.
    async with runtime.transaction() as session:
        await session.execute(delete(LedgerEntry).where(LedgerEntry.transaction_id.in_(
            LedgerTransaction.__table__.select().with_only_columns(LedgerTransaction.id)
            .where(LedgerTransaction.key.in_([f"pot:{table.id}:payout", "test:stray"])))))
        await session.execute(delete(LedgerTransaction).where(
            LedgerTransaction.key.in_([f"pot:{table.id}:payout", "test:stray"])))
    unpaid = await audit(quiet)
    assert any(d.check == "payout" and f"staked game {table.id} finished but its pot was never paid out" in d.what
               for d in unpaid.differences)


async def forming_ids(quiet) -> set[str]:
    from app.online.queues import PREFIX

    return {key.removeprefix(f"{PREFIX}table:")
            async for key in quiet.runtime.redis.scan_iter(match=f"{PREFIX}table:*")}


async def test_the_command_exits_0_when_clean_and_1_naming_what_differs(quiet, tmp_path):
    table, (ada, bob) = await staked_game(quiet, ["ada", "bob"], [2, 1])
    done = tablestakes(tmp_path, quiet.settings, "audit")
    assert done.returncode == 0, done.stderr
    assert "ledger audit: no difference" in done.stdout and "1 finished staked games" in done.stdout
    async with quiet.runtime.transaction() as session:
        await session.execute(update(LedgerAccount).where(LedgerAccount.name == f"user:{bob.id}")
                              .values(balance=LedgerAccount.balance - 50))
    broken = tablestakes(tmp_path, quiet.settings, "audit")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert f"account: user:{bob.id} has a balance of" in broken.stdout
    assert "totals: the balances add up to" in broken.stdout
    assert "ledger audit: 2 differences" in broken.stdout
