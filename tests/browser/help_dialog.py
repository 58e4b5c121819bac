"""Shared by the How to play and the accessibility tests: starting a practice table of any game, and the How to play
dialog (open it, check it is a real modal dialog, close it)."""

from __future__ import annotations

from playwright.async_api import Locator, Page

from tests.browser.helpers import Player

TITLES = {"pika": "Pika", "stakes": "Stakes", "kapern": "Piraten Kapern", "piker": "The Piker"}
LAPTOP = {"width": 1366, "height": 657}  # the laptop and phone
PHONE = {"width": 390, "height": 844}


async def start_practice(player: Player, game: str, seats: int, *, options: dict[str, str] | None = None) -> str:
    """A vs-bots table from its settings screen (any game; `options` picks the game's options by label). Its id."""
    page = player.page
    await page.goto(f"/#/new/{game}/bots")
    await page.get_by_role("heading", name=f"{TITLES[game]}: practice vs bots", level=1).wait_for()
    await page.locator("label", has=page.locator(f"input[name=seats][value='{seats}']")).click()
    await page.get_by_label("Time per turn").select_option("120")
    for label, value in (options or {}).items():
        await page.get_by_label(label).select_option(label=value)
    await page.get_by_role("button", name="Start game").click()
    await page.locator(".table-shell").wait_for()
    return page.url.rsplit("/", 1)[-1]


def help_dialog(page: Page, game: str) -> Locator:
    return page.get_by_role("dialog", name=f"How to play {TITLES[game]}")


async def focus_inside(dialog: Locator) -> bool:
    return await dialog.evaluate("box => box.contains(document.activeElement) && document.activeElement !== box")


async def open_help(page: Page, opener: Locator, game: str) -> Locator:
    """Click `opener`; the game's dialog opens as a modal with the focus inside. Returns the dialog."""
    await opener.click()
    dialog = help_dialog(page, game)
    await dialog.wait_for()
    assert await dialog.evaluate("box => box.tagName === 'DIALOG' && box.open && box.matches(':modal')")
    assert await focus_inside(dialog), "the focus did not move into the How to play dialog"
    return dialog


async def close_button_in_view(page: Page, dialog: Locator) -> None:
    """The Close button is wholly inside the viewport (the dialog scrolls its text, never its header away)."""
    box = await dialog.get_by_role("button", name="Close How to play").bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= viewport["width"] and box["y"] + box["height"] <= viewport["height"], (box, viewport)
