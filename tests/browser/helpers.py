"""Driving the browser client with Playwright (async API) and Chromium (Debian's in CI; see require_chromium).

Every page is watched: a page error, a console error or a Content-Security-Policy violation (the page's
`securitypolicyviolation` events, reported to the test) fails the test, unless the test said beforehand that it
expects one (an HTTP refusal the browser logs, such as a taken username), with `player.expect_console(...)`.
Screenshots go to one temporary folder per run, outside the repository; their paths are printed.
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import BrowserContext, ConsoleMessage, Error as PlaywrightError, Locator, Page, Playwright

from tests.support.waiting import eventually

CHROMIUM_SETTING = "TABLESTAKES_CHROMIUM"  # a Chrome or Chromium binary chosen by hand: looked at first
# Then the system's own, in this order: Debian's package (what CI installs), other Linux names, macOS applications.
SYSTEM_CHROMIUMS = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
PASSWORD = "correct horse battery"

_shots_dir: Path | None = None

CSP_WATCH = """document.addEventListener('securitypolicyviolation', (event) => {
  window.reportCspViolation(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
});"""


def shots_dir() -> Path:
    """One folder per test run for every screenshot, outside the repository."""
    global _shots_dir
    if _shots_dir is None:
        _shots_dir = Path(tempfile.mkdtemp(prefix="tablestakes-screens-"))
    return _shots_dir


def shots_taken() -> Path | None:
    return _shots_dir


def chromium_candidates(environ: dict[str, str] | os._Environ[str], playwright_own: str | None
                        ) -> list[tuple[str, Path]]:
    """Where the browser tests look for Chromium, in order: the setting, the system's, Playwright's own browsers."""
    if environ.get(CHROMIUM_SETTING):
        return [(CHROMIUM_SETTING, Path(environ[CHROMIUM_SETTING]))]  # chosen by hand: nothing else is tried
    found = [("system", Path(path)) for path in SYSTEM_CHROMIUMS]
    if playwright_own:
        found.append(("Playwright's own", Path(playwright_own)))
    return found


def require_chromium(playwright: Playwright | None = None) -> Path:
    """The first Chromium of `chromium_candidates` that exists, or a failure that says how to get one."""
    try:
        playwright_own = playwright.chromium.executable_path if playwright is not None else None
    except PlaywrightError:
        playwright_own = None
    candidates = chromium_candidates(os.environ, playwright_own)
    for _, path in candidates:
        if path.is_file():
            return path
    tried = "; ".join(f"{source}: {path}" for source, path in candidates)
    pytest.fail(
        f"No Chromium found for the browser tests (tried {tried}). Get one of: Debian's package "
        "(`apt-get install -y chromium`, what .ci/run installs), a Chrome or Chromium you have, named by "
        f"{CHROMIUM_SETTING}=/path/to/binary, or Playwright's own (`python -m playwright install chromium`). "
        "The tests never download a browser themselves.",
        pytrace=False,
    )


@dataclass
class Player:
    """One person at one browser: a fresh profile, one page, its console watched."""

    name: str
    context: BrowserContext
    page: Page
    base_url: str
    label: str
    problems: list[str] = field(default_factory=list)
    expected: list[re.Pattern[str]] = field(default_factory=list)
    sent_frames: list[str] = field(default_factory=list)
    shots: list[Path] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)

    def watch(self) -> None:
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", self._console)
        self.page.on("websocket", lambda ws: ws.on("framesent", self._frame_sent))

    def csp_violation(self, report: str) -> None:
        self.csp_violations.append(report)
        self.problems.append(f"Content-Security-Policy violation: {report}")

    def _frame_sent(self, payload: Any) -> None:
        self.sent_frames.append(payload if isinstance(payload, str) else str(payload))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type not in ("error", "assert"):
            return
        text = message.text
        for pattern in self.expected:
            if pattern.search(text):
                self.expected.remove(pattern)
                return
        self.problems.append(f"console {message.type}: {text} ({message.location.get('url', '')})")

    @asynccontextmanager
    async def expect_console(self, pattern: str) -> AsyncIterator[None]:
        """The block is expected to make the browser log one console error matching `pattern` (e.g. a 409)."""
        compiled = re.compile(pattern)
        self.expected.append(compiled)
        yield
        for _ in range(50):
            if compiled not in self.expected:
                break
            await asyncio.sleep(0.05)
        if compiled in self.expected:
            self.expected.remove(compiled)
            self.problems.append(f"expected a console error matching {pattern!r}, none came")

    async def shot(self, name: str, *, full_page: bool = True) -> Path:
        path = shots_dir() / f"{self.label}-{len(self.shots) + 1:02d}-{name}.png"
        await self.page.screenshot(path=str(path), full_page=full_page)
        self.shots.append(path)
        print(f"screenshot: {path}")
        return path

    def check(self) -> None:
        assert not self.problems, f"{self.name}'s browser reported problems:\n" + "\n".join(self.problems)


async def call(player: Player, method: str, path: str, body: Any = None) -> Any:
    """The API from inside the page (same origin, the page's session cookie)."""
    return await player.page.evaluate(
        """async ([method, path, body]) => {
            const response = await fetch(path, {method, headers: {'Content-Type': 'application/json'},
                                                body: body === null ? undefined : JSON.stringify(body)});
            if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
            return response.status === 204 ? null : response.json();
        }""", [method, path, body])


@asynccontextmanager
async def open_player(playwright: Playwright, base_url: str, name: str, *, viewport: dict[str, int], label: str,
                      profile_root: Path, reduced_motion: str = "reduce", has_touch: bool = False
                      ) -> AsyncIterator[Player]:
    """A person at a fresh browser. Motion is reduced unless a test looks at the motion itself."""
    chromium = require_chromium(playwright)
    profile = profile_root / f"profile-{label}"
    profile.mkdir(parents=True, exist_ok=True)
    context = await playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=str(chromium),
        args=CHROMIUM_ARGS,
        headless=True,
        viewport=viewport,
        base_url=base_url,
        reduced_motion=reduced_motion,
        has_touch=has_touch,
    )
    context.set_default_timeout(15_000)
    page = context.pages[0] if context.pages else await context.new_page()
    player = Player(name=name, context=context, page=page, base_url=base_url, label=label)
    player.watch()
    # Every page reports what the server's Content-Security-Policy blocked (the script is injected by the driver, not
    # by the page, so the policy does not apply to it).
    await context.expose_function("reportCspViolation", player.csp_violation)
    await context.add_init_script(CSP_WATCH)
    try:
        yield player
    finally:
        await context.close()


# ---------------------------------------------------------------------------------------------------- flows


async def sign_up(player: Player) -> None:
    page = player.page
    await page.goto("/#/signup")
    await page.get_by_role("heading", name="Create your account").wait_for()
    await page.get_by_label("Username").fill(player.name)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Create account").click()
    await page.get_by_role("heading", name=f"Hello, {player.name}").wait_for()


async def click_card(card: Locator) -> None:
    """Click a card of the Pika hand where a player does: near its left edge, the part that shows when a long hand
    overlaps (the next card covers the rest, so a click at the middle would land on that one)."""
    box = await card.bounding_box()
    await card.click(position={"x": 6, "y": box["height"] / 2 if box else 20})


async def table_version(page: Page) -> int:
    value = await page.locator(".table-shell").get_attribute("data-version")
    return int(value) if value is not None else -1


async def wait_for_table_change(page: Page, before: int, refusals: list[str], *, refusal: str,
                                timeout: float = 8.0) -> None:
    """After a move: wait until it is acknowledged and the table shows a newer version, or it is refused (the
    refusal's words, found at the `refusal` selector, are added to `refusals`)."""
    async def moved_or_refused() -> bool:
        if not await page.locator('.table-shell[data-busy="false"]').count():
            return False
        if await table_version(page) > before:
            return True
        note = page.locator(refusal)
        if await note.count():
            refusals.append(await note.inner_text())
            return True
        return False

    try:
        await eventually(moved_or_refused, timeout)
    except AssertionError:
        raise AssertionError(f"the table did not move on from version {before}") from None


async def _wait_for_change(page: Page, before: int, stats: PlayStats, timeout: float = 8.0) -> None:
    await wait_for_table_change(page, before, stats.refusals, refusal=".pika .error-note:not(.empty)", timeout=timeout)


@dataclass
class PlayStats:
    turns: int = 0
    plays: int = 0
    draws: int = 0
    keeps: int = 0
    stacks_taken: int = 0
    colours_chosen: int = 0
    pika_calls: int = 0
    pika_with_play: int = 0
    legal_checks: int = 0
    refusals: list[str] = field(default_factory=list)  # the server refused a move the page offered
    seen: set[str] = field(default_factory=set)


async def play_pika(player: Player, *, server: Any = None, table_id: str | None = None, seat: int | None = None,
                    timeout: float = 150.0, shoot: bool = True) -> PlayStats:
    """Play the whole game through the page, clicking only what it offers, until the game-over panel shows.

    With `server`, every turn also checks that the clickable cards are exactly the engine's legal plays.
    """
    page = player.page
    stats = PlayStats()
    end = time.monotonic() + timeout

    async def first_time(kind: str) -> None:
        if shoot and kind not in stats.seen:
            stats.seen.add(kind)
            await player.shot(f"pika-{kind}")

    while True:
        if time.monotonic() > end:
            await player.shot("pika-timeout")
            raise AssertionError(f"{player.name}'s game did not finish within {timeout} s")
        if await page.locator(".game-over").count():
            # Only a Pika call racing its own deadline may be refused; any other refusal means the page offered a
            # move that was not legal.
            assert all("Pika" in text or "alert" in text for text in stats.refusals), stats.refusals
            return stats
        version = await table_version(page)
        # The alert can end between looking and clicking (it expires, or the other player calls first), so look for
        # an enabled button in one query and give the click a short leash instead of the default 30 s.
        pika = page.get_by_role("button", name="Pika!", exact=True, disabled=False)
        if await pika.count():
            await first_time("alert")
            try:
                await pika.click(timeout=1000)
            except PlaywrightError:
                continue
            stats.pika_calls += 1
            await _wait_for_change(page, version, stats)
            continue
        if not await page.locator(".turn-bar.turn-mine").count():
            await asyncio.sleep(0.04)
            continue
        stats.turns += 1
        if server is not None and table_id is not None and seat is not None:
            await _check_only_legal_cards_clickable(page, server, table_id, seat, stats)
        keep = page.get_by_role("button", name="Keep it", exact=True)
        if await keep.count():
            await first_time("drawn")
            # Keep the first drawn card, play the later ones: both paths get exercised.
            if stats.keeps == 0:
                await keep.click()
                stats.keeps += 1
            else:
                await page.get_by_role("button", name="Play it", exact=True).click()
                if await _choose_colour_if_asked(player, stats):
                    pass
                stats.plays += 1
            await _wait_for_change(page, version, stats)
            continue
        toggle = page.get_by_label(re.compile("Call “Pika!” with my play"))
        if await toggle.count() and stats.pika_with_play == 0 and stats.pika_calls > 0:
            await toggle.check()
            stats.pika_with_play += 1
        cards = page.locator(".hand .card-button")
        take = page.get_by_role("button", name=re.compile(r"^Take \d+ cards?$"))
        draw = page.locator(".pile-button:not([disabled])")
        if await cards.count():
            if await take.count():
                await first_time("stack")
            await click_card(cards.first)
            await _choose_colour_if_asked(player, stats)
            stats.plays += 1
        elif await take.count():
            await first_time("stack")
            await take.click()
            stats.stacks_taken += 1
        elif await draw.count():
            await draw.click()
            stats.draws += 1
        else:
            await asyncio.sleep(0.04)
            continue
        await _wait_for_change(page, version, stats)


async def _choose_colour_if_asked(player: Player, stats: PlayStats) -> bool:
    page = player.page
    picker = page.get_by_role("dialog", name="Choose the colour")
    try:
        await picker.wait_for(timeout=400)
    except PlaywrightError:
        return False
    if "picker" not in stats.seen:
        stats.seen.add("picker")
        await player.shot("pika-colour-picker")
    # Keyboard: the first colour has the focus; Enter picks it.
    focused = await page.evaluate("document.activeElement && document.activeElement.textContent.trim()")
    assert focused in ("Red", "Yellow", "Green", "Blue"), focused
    await page.keyboard.press("Enter")
    stats.colours_chosen += 1
    return True


async def _check_only_legal_cards_clickable(page: Page, server: Any, table_id: str, seat: int,
                                            stats: PlayStats) -> None:
    table = server.realtime.tables.get(table_id)
    if table is None or table.status != "playing" or await table_version(page) != table.version:
        return
    legal = table.game.legal_actions(seat)
    expected = {action["card"] for action in legal if action["type"] == "play"}
    shown = set(await page.locator(".hand .card-button").evaluate_all(
        "buttons => buttons.map(b => b.closest('[data-card]').dataset.card)"))
    if await table_version(page) != table.version:
        return  # the table moved while we looked
    assert shown == expected, f"clickable cards {sorted(shown)} but the legal plays are {sorted(expected)}"
    can_draw = any(action["type"] == "draw" for action in legal)
    assert bool(await page.locator(".pile-button").count()) == can_draw
    stats.legal_checks += 1
