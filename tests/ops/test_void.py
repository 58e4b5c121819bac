"""`tablestakes void GAME_ID --reason` and `tablestakes tables`: a live staked table is ended by its owner node when
asked through Redis (its players told, every stake refunded with the reason in the ledger); a table whose owner is
gone is ended by the command itself, fenced; the refunds equal the stakes and the audit stays clean."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, update

from app import moderation
from app.ledger.models import LedgerEntry, LedgerTransaction
from app.tables.models import LiveTable, TableSeat
from tests.online.online_support import TableRecorder, balance_of, pot_of
from tests.ops.ops_support import live_settings, open_site, staked_table, tablestakes
from tests.ops.test_audit import audit
from tests.support.harness import reach_staked_level

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def refund_reasons(runtime, table_id: str) -> list[str]:
    async with runtime.reader() as session:
        rows = await session.execute(select(LedgerTransaction.reason).where(
            LedgerTransaction.key.like(f"refund:{table_id}:%")))
        return sorted(rows.scalars())


async def test_a_live_staked_table_is_voided_by_its_owner_with_every_stake_back(settings, backend, tmp_path):
    async with open_site(live_settings(settings), backend) as site:
        ada, bob = await site.player("ada"), await site.player("bob")
        table_id, seats = await staked_table(ada, bob, stake=250)
        runtime = site.server.runtime
        assert [await balance_of(runtime, c.user["id"]) for c in (ada, bob)] == [750, 750]

        if backend == "services":
            listed = await asyncio.to_thread(tablestakes, tmp_path, site.settings, "tables")
            assert listed.returncode == 0, listed.stderr
            (line,) = [line for line in listed.stdout.splitlines() if line.startswith(table_id)]
            assert "pika" in line and "staked" in line and "(alive)" in line and "250/500" in line
            assert ("ada" in line and "bob" in line) and line.index("ada") != line.index("bob")
            done = await asyncio.to_thread(tablestakes, tmp_path, site.settings, "void", table_id, "--reason",
                                           "a scoring bug")
            assert done.returncode == 0, done.stderr
            assert f"table {table_id} voided by its owner node; 2 stakes refunded" in done.stdout
        else:
            (line,) = await moderation.live_tables(runtime)
            assert (line.id, line.game, line.mode, line.stake, line.pot, line.owner_alive) == (
                table_id, "pika", "staked", 250, 500, True)
            assert sorted(seat["name"] for seat in line.seats) == ["ada", "bob"]
            # A command in another process cannot reach an embedded server (its Redis is in that process).
            refused = await asyncio.to_thread(tablestakes, tmp_path, site.settings, "void", table_id, "--reason",
                                              "a scoring bug")
            assert refused.returncode == 1 and "cannot be reached from here" in refused.stderr
            result = await moderation.void(runtime, table_id, "a scoring bug")
            assert result.how == "owner" and sorted(result.refunded) == sorted(
                (c.user["id"], 250) for c in (ada, bob)) and result.pot_left == 0

        for client in (ada, bob):
            await client.wait_for(lambda c=client: c.tables[table_id].info.get("status") == "cancelled")
            (cancelled,) = [e for e in client.tables[table_id].events if e["type"] == "table_cancelled"]
            assert cancelled["code"] == "voided" and "a scoring bug" in cancelled["reason"]
        assert [await balance_of(runtime, c.user["id"]) for c in (ada, bob)] == [1000, 1000]
        assert await pot_of(runtime, table_id) == 0
        assert await refund_reasons(runtime, table_id) == [
            "Pika staked table: stake refunded (voided by an operator: a scoring bug)"] * 2
        assert (await audit_of(runtime)).clean
        assert await moderation.live_tables(runtime) == []
        for client in (ada, bob):  # free to queue again
            assert (await client.get("/api/matchmaking"))["status"] == "idle"


async def audit_of(runtime):
    from app.ledger.audit import audit_ledger

    async with runtime.reader() as session:
        return await audit_ledger(session, runtime.clock.now())


async def test_a_table_whose_owner_is_gone_is_voided_here_fenced_and_refunded(quiet):
    matchmaking = quiet.app.state.online.matchmaking
    recorder = TableRecorder(quiet.app)
    matchmaking.create_table = recorder
    users = [await quiet.create_user(name) for name in ("ada", "bob", "cy")]
    for user in users:
        await reach_staked_level(quiet.runtime, user.id)
        await matchmaking.queue(user.id, matchmaking.queue_for("kapern", 3, "staked", 500))
    (table,) = recorder.tables
    runtime = quiet.runtime
    async with runtime.transaction() as session:  # its node died: nobody plays it
        await session.execute(update(LiveTable).where(LiveTable.id == table.id).values(owner="crashed-node-1"))
        # Who sits there, as TableManager.create records it (the recorder makes only the live row).
        session.add_all([TableSeat(table_id=table.id, user_id=seat.user_id, seat=index)
                         for index, seat in enumerate(table.seats)])
    del quiet.app.state.realtime.tables.tables[table.id]  # (the recorder's stand-in is not played here either)
    assert [await balance_of(runtime, user.id) for user in users] == [500, 500, 500]
    assert (await matchmaking.status(users[0].id))["status"] == "playing"

    result = await moderation.void(runtime, table.id, "stuck after a crash")
    assert result.how == "here" and result.pot_left == 0
    assert sorted(result.refunded) == sorted((user.id, 500) for user in users)
    assert [await balance_of(runtime, user.id) for user in users] == [1000, 1000, 1000]
    async with runtime.reader() as session:
        row = await session.get(LiveTable, table.id)
        assert (row.status, row.owner_epoch) == ("cancelled", table.epoch + 1)  # an old owner can write nothing
        moved = await session.scalar(select(LedgerEntry.id).join(LedgerTransaction).where(
            LedgerTransaction.key.like(f"refund:{table.id}:%")).limit(1))
        assert moved is not None
    assert (await audit(quiet)).clean
    assert (await matchmaking.status(users[0].id))["status"] == "idle"  # free to queue again

    with pytest.raises(moderation.OperatorError, match="no live table"):
        await moderation.void(runtime, "no-such-table", "x")
    with pytest.raises(moderation.OperatorError, match="--reason"):
        await moderation.void(runtime, table.id, " ")
    again = await moderation.void(runtime, table.id, "twice")  # a cancelled table: nothing left to give back
    assert again.refunded == [] and again.pot_left == 0
