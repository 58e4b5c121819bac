"""Login throttling that slows an attacker without locking the owner out, and sign-up limits (issue 14), on every
backend. The owner is at 127.0.0.1, attackers elsewhere (the address the app sees is the test client's)."""

from __future__ import annotations

import asyncio

import pytest

from app.config import Settings
from app.core.ratelimit import address_key
from tests.support.harness import PASSWORD, Harness, open_harness

WRONG = "not the password"


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    return body["error"]


async def log_in(client, username: str, password: str):
    return await client.post("/api/auth/login", json={"username": username, "password": password})


def assert_rate_limited(response, window: int) -> None:
    assert response.status_code == 429, response.text
    error = error_of(response)
    assert error["code"] == "rate_limited"
    retry_after = int(response.headers["retry-after"])
    assert 0 < retry_after <= window and error["details"] == {"retry_after": retry_after}


async def test_an_attacker_hammering_wrong_passwords_waits_while_the_owner_logs_in(harness: Harness):
    settings = harness.settings.model_copy(update={"login_failures_per_username_and_address": 3})
    async with open_harness(settings) as limited:
        await limited.create_user("ada")
        attacker, owner = limited.new_client(address="203.0.113.9"), limited.new_client()
        for _ in range(3):
            assert (await log_in(attacker, "ada", WRONG)).status_code == 401
        # The attacker's address now waits, even with the right password (no oracle)...
        assert_rate_limited(await log_in(attacker, "ADA", PASSWORD), settings.login_rate_window_seconds)
        for _ in range(5):
            assert_rate_limited(await log_in(attacker, "ada", WRONG), settings.login_rate_window_seconds)
        # ... while the owner, elsewhere, still gets in, and a typo of theirs is a plain 401.
        assert (await log_in(owner, "ada", WRONG)).status_code == 401
        response = await log_in(owner, "ada", PASSWORD)
        assert response.status_code == 200 and response.json()["username"] == "ada"
        # The attacker's address may still try other names (up to its own limit).
        await limited.create_user("bob")
        assert (await log_in(attacker, "bob", PASSWORD)).status_code == 200


async def test_a_success_clears_the_owner_s_own_failures(harness: Harness):
    settings = harness.settings.model_copy(update={"login_failures_per_username_and_address": 3})
    async with open_harness(settings) as limited:
        await limited.create_user("ada")
        for _ in range(2):
            assert (await log_in(limited.client, "ada", WRONG)).status_code == 401
        assert (await log_in(limited.client, "ada", PASSWORD)).status_code == 200
        for _ in range(3):
            assert (await log_in(limited.client, "ada", WRONG)).status_code == 401  # three more: counted anew
        assert_rate_limited(await log_in(limited.client, "ada", WRONG), settings.login_rate_window_seconds)


async def test_one_address_trying_many_names_is_limited(harness: Harness):
    settings = harness.settings.model_copy(update={"login_failures_per_address": 4})
    async with open_harness(settings) as limited:
        await limited.create_user("ada")
        sprayer = limited.new_client(address="198.51.100.7")
        for n in range(4):
            assert (await log_in(sprayer, f"user{n}", WRONG)).status_code == 401
        assert_rate_limited(await log_in(sprayer, "ada", PASSWORD), settings.login_rate_window_seconds)
        assert (await log_in(limited.client, "ada", PASSWORD)).status_code == 200  # another address: unaffected


async def test_successful_logins_do_not_use_up_an_address_s_allowance(harness: Harness):
    """Many people behind one address (an office, a school) log in all day: only failures count."""
    settings = harness.settings.model_copy(update={"login_failures_per_address": 2})
    async with open_harness(settings) as limited:
        for name in ("ada", "bob", "cyd", "dee", "eve"):
            await limited.create_user(name)
            assert (await log_in(limited.new_client(), name, PASSWORD)).status_code == 200


async def test_a_guess_spread_over_many_addresses_stops_but_the_owner_s_known_address_gets_in(harness: Harness):
    settings = harness.settings.model_copy(update={"login_failures_per_username": 6})
    async with open_harness(settings) as limited:
        await limited.create_user("ada")
        owner = limited.new_client()
        assert (await log_in(owner, "ada", PASSWORD)).status_code == 200  # this address is now known to ada
        botnet = [limited.new_client(address=f"192.0.2.{n}") for n in range(1, 4)]
        for _ in range(2):
            for bot in botnet:
                assert (await log_in(bot, "ada", WRONG)).status_code == 401
        # Six failures from everywhere: an address that never got into the account may no longer try...
        newcomer = limited.new_client(address="192.0.2.200")
        assert_rate_limited(await log_in(newcomer, "ada", PASSWORD), settings.login_rate_window_seconds)
        assert "device you have used before" in error_of(await log_in(botnet[0], "ada", WRONG))["message"]
        # ... but the owner's known address still can, and other accounts are untouched.
        assert (await log_in(owner, "ada", WRONG)).status_code == 401
        assert (await log_in(owner, "ada", PASSWORD)).status_code == 200
        await limited.create_user("bob")
        assert (await log_in(newcomer, "bob", PASSWORD)).status_code == 200


async def test_the_address_that_signed_up_is_known_to_the_account(harness: Harness):
    settings = harness.settings.model_copy(update={"login_failures_per_username": 2})
    async with open_harness(settings) as limited:
        signed_up = limited.new_client(address="2001:db8:1:2::10")
        assert (await signed_up.post("/api/auth/register",
                                     json={"username": "ada", "password": PASSWORD})).status_code == 201
        for n in range(2):
            assert (await log_in(limited.new_client(address=f"192.0.2.{n}"), "ada", WRONG)).status_code == 401
        assert (await log_in(limited.new_client(address="192.0.2.9"), "ada", PASSWORD)).status_code == 429
        # Same /64 as the sign-up (a phone's address changes within its network's prefix): known.
        assert (await log_in(limited.new_client(address="2001:db8:1:2::99"), "ada", PASSWORD)).status_code == 200


async def test_a_burst_of_parallel_guesses_cannot_slip_under_the_limit(harness: Harness):
    settings = harness.settings.model_copy(update={"login_failures_per_username_and_address": 3})
    async with open_harness(settings) as limited:
        await limited.create_user("ada")
        attacker = limited.new_client(address="203.0.113.9")
        responses = await asyncio.gather(*(log_in(attacker, "ada", WRONG) for _ in range(12)))
        statuses = sorted(response.status_code for response in responses)
        assert statuses == [401] * 3 + [429] * 9


@pytest.mark.parametrize("host, key", [
    ("203.0.113.9", "203.0.113.9"),
    ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
    ("::ffff:203.0.113.9", "203.0.113.9"),
    (None, "unknown"),
])
def test_addresses_are_counted_by_host_or_ipv6_prefix(host, key):
    assert address_key(host) == key


# --- sign-ups -----------------------------------------------------------------------------------------------


async def sign_up(client, username: str):
    return await client.post("/api/auth/register", json={"username": username, "password": PASSWORD})


async def test_sign_ups_are_limited_per_address_and_a_failed_one_does_not_count(harness: Harness):
    settings = harness.settings.model_copy(update={"signup_rate_per_address": 2})
    async with open_harness(settings) as limited:
        farm = limited.new_client(address="203.0.113.50")
        assert (await sign_up(farm, "farm1")).status_code == 201
        assert (await sign_up(farm, "FARM1")).status_code == 409  # taken: no account made, nothing counted
        assert (await sign_up(farm, "farm2")).status_code == 201
        response = await sign_up(farm, "farm3")
        assert_rate_limited(response, settings.signup_rate_window_seconds)
        assert "from this address" in error_of(response)["message"]
        # Someone else signs up as usual.
        assert (await sign_up(limited.new_client(address="198.51.100.1"), "neighbour")).status_code == 201
        async with limited.runtime.transaction() as session:
            totals = await limited.runtime.ledger.totals(session)
        assert totals.balances == totals.entries == 3 * settings.start_balance  # three accounts, three welcomes


async def test_sign_ups_are_limited_for_the_whole_site(harness: Harness):
    settings = harness.settings.model_copy(update={"signup_rate_overall": 3})
    async with open_harness(settings) as limited:
        for n in range(3):
            assert (await sign_up(limited.new_client(address=f"192.0.2.{n}"), f"user{n}")).status_code == 201
        response = await sign_up(limited.new_client(address="192.0.2.77"), "user3")
        assert_rate_limited(response, settings.signup_rate_window_seconds)
        assert "right now" in error_of(response)["message"]
        # The window passes (Redis expires the counters): sign-ups open again.
        await limited.runtime.redis.flushdb()
        assert (await sign_up(limited.new_client(address="192.0.2.77"), "user3")).status_code == 201


async def test_forty_sign_ups_from_one_address_make_five_accounts_at_the_defaults(harness: Harness):
    """The finding of issue 14 (40 accounts, 40,000 coins from one address in a second), at the default limits."""
    per_address, overall = (Settings.model_fields[name].default
                            for name in ("signup_rate_per_address", "signup_rate_overall"))
    settings = harness.settings.model_copy(update={"signup_rate_per_address": per_address,
                                                   "signup_rate_overall": overall})
    async with open_harness(settings) as limited:
        farm = limited.new_client(address="203.0.113.50")
        responses = await asyncio.gather(*(sign_up(farm, f"throwaway{n}") for n in range(40)))
        created = sum(response.status_code == 201 for response in responses)
        assert created == per_address == 5
        assert {response.status_code for response in responses} == {201, 429}
