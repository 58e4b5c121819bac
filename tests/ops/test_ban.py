"""`tablestakes ban USERNAME --reason` / `unban`: from a process beside the running server (through Redis) on the
services backend, in-process on the embedded one. The banned player's sockets close, their sessions are revoked,
login is refused with a clear error, a bot covers their live seat at once (platform.md, "Leaving": the leaver rule
then applies; their stake stays in the pot, shared by placing) and a queued seat is given up with its stake."""

from __future__ import annotations

import asyncio

import pytest

from app import moderation
from app.client import ClientError, TablestakesClient
from app.realtime.protocol import CLOSE_UNAUTHORIZED
from tests.online.online_support import balance_of
from tests.ops.ops_support import easy_bot, live_settings, open_site, queue, staked_table, tablestakes
from tests.support.harness import PASSWORD
from tests.support.waiting import eventually

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def ban(site, backend: str, tmp_path, username: str, reason: str) -> None:
    if backend == "services":
        done = await asyncio.to_thread(tablestakes, tmp_path, site.settings, "ban", username, "--reason", reason)
        assert done.returncode == 0, done.stderr
        assert f"banned {username}:" in done.stdout and "1 running node told" in done.stdout
    else:
        result = await moderation.ban(site.server.runtime, username, reason)
        assert result.username == username and result.nodes_told == 1


async def test_a_banned_player_is_logged_out_refused_at_login_and_their_seat_played_by_a_bot(settings, backend,
                                                                                            tmp_path):
    async with open_site(live_settings(settings), backend) as site:
        ada, bob, carol = await site.player("ada"), await site.player("bob"), await site.player("carol")
        table_id, seats = await staked_table(ada, bob)
        assert (await queue(carol, "kapern", 2, "staked", 250))["event"] == "waiting"
        runtime = site.server.runtime
        assert await balance_of(runtime, carol.user["id"]) == 750

        await ban(site, backend, tmp_path, "ada", "colluding at staked tables")
        assert await ada.wait_closed() == CLOSE_UNAUTHORIZED
        table = site.server.realtime.tables.get(table_id)
        ada_seat = seats[ada.user["id"]]
        await eventually(lambda: table.seats[ada_seat].away)  # covered now, not after the grace time
        with pytest.raises(ClientError) as revoked:
            await ada.get("/api/me")
        assert revoked.value.code == "session_revoked"
        async with TablestakesClient(site.server.url) as again:
            with pytest.raises(ClientError) as refused:
                await again.login("ada", PASSWORD)
            assert refused.value.status == 403 and refused.value.code == "account_banned"
            assert "This account is banned: colluding at staked tables." == refused.value.message
            with pytest.raises(ClientError) as wrong:
                await again.login("ada", "not her password")
            assert wrong.value.code == "invalid_credentials"  # the ban is told only to whoever knows the password

        # The game goes on to its end, a bot playing Ada's seat; her stake stays in the pot, shared by placing.
        state = await bob.play(table_id, easy_bot("pika", seats[bob.user["id"]], 2))
        assert any(entry.seat == ada_seat and entry.source == "away" for entry in table.entries)
        assert table.seats[ada_seat].left()  # the leaver rule: a bot made more than half of her decisions
        rewards = state.info["rewards"]
        assert sum(reward["pot"] for reward in rewards.values()) == 200
        assert rewards[str(ada_seat)]["xp"] == 0
        winners = [seat for seat, place in enumerate(state.info["outcome"]["placings"]) if place == 1]
        assert await balance_of(runtime, ada.user["id"]) == 900 + (200 // len(winners) if ada_seat in winners else 0)

        # A queued player banned: the seat is given up and the stake comes back.
        await ban(site, backend, tmp_path, "carol", "spam")
        assert await carol.wait_closed() == CLOSE_UNAUTHORIZED

        async def refunded() -> bool:
            return await balance_of(runtime, carol.user["id"]) == 1000

        await eventually(refunded)
        assert (await site.server.app.state.online.matchmaking.status(carol.user["id"]))["status"] == "idle"

        # Lifted: Ada logs in again (her old sessions stay revoked).
        if backend == "services":
            done = await asyncio.to_thread(tablestakes, tmp_path, site.settings, "unban", "ada")
            assert done.returncode == 0 and "ada may log in again" in done.stdout, done.stderr
        else:
            assert await moderation.unban(runtime, "ada") is True
            assert await moderation.unban(runtime, "ada") is False
        async with TablestakesClient(site.server.url) as back:
            assert (await back.login("ada", PASSWORD))["username"] == "ada"
        with pytest.raises(ClientError):
            await ada.get("/api/me")


async def test_banning_someone_unknown_or_without_a_reason_is_refused(quiet):
    with pytest.raises(moderation.OperatorError, match="no user called 'nobody'"):
        await moderation.ban(quiet.runtime, "nobody", "x")
    await quiet.create_user("ada")
    with pytest.raises(moderation.OperatorError, match="--reason"):
        await moderation.ban(quiet.runtime, "ada", "  ")
