"""The client under its Content-Security-Policy (issue 14): the page signs up and plays without a single violation,
while the policy does block what it is there to block: an injected inline script does not run, and the page cannot
be framed, not even by itself. (Every browser test watches for violations too: tests/browser/helpers.py.)"""

from __future__ import annotations

import pytest

from tests.browser.dice_tables import start_vs_bots
from tests.browser.helpers import DESKTOP, open_player, sign_up
from tests.support.live import live_server

pytestmark = pytest.mark.browser


async def test_the_client_runs_under_its_policy_and_the_policy_blocks_injected_scripts_and_framing(
        browser_settings, playwright, profiles):
    async with live_server(browser_settings) as server:
        async with open_player(playwright, server.url, "guarded", viewport=DESKTOP, label="csp",
                               profile_root=profiles) as player:
            page = player.page
            response = await page.goto("/")
            assert response is not None
            policy = response.headers["content-security-policy"]
            assert "script-src 'self' 'sha256-" in policy and "unsafe-inline" not in policy
            assert "frame-ancestors 'none'" in policy
            assert response.headers["x-frame-options"] == "DENY"
            assert response.headers["x-content-type-options"] == "nosniff"

            await sign_up(player)
            await start_vs_bots(player, "stakes", "Stakes", 2)
            assert player.csp_violations == []
            player.check()

            # An inline script slipped into the page is refused (and reported), and does not run.
            async with player.expect_console("Content Security Policy"):
                await page.evaluate("""() => {
                    const script = document.createElement('script');
                    script.textContent = 'window.injected = true;';
                    document.body.append(script);
                }""")
            assert await page.evaluate("() => window.injected") is None
            assert any(report.startswith("script-src") for report in player.csp_violations), player.csp_violations

            # The page framed (here by itself): the browser refuses to show it.
            async with player.expect_console("frame-ancestors"):
                await page.evaluate("""() => new Promise((done) => {
                    const frame = document.createElement('iframe');
                    frame.src = '/';
                    frame.onload = () => done();
                    document.body.append(frame);
                })""")
            framed = await page.evaluate("() => { try { return !!document.querySelector('iframe').contentDocument"
                                         "?.querySelector('#app'); } catch (error) { return false; } }")
            assert framed is False
