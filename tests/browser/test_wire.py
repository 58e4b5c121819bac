"""The browser's table state (static/js/wire.js with static/js/patch.js) is the Python client's (app/client.py with
app/games/wire.py and app/tables/patch.py) after every message of whole games of every engine, for each player and
a spectator, turn timers included. tests/tables/test_deltas.py checks the Python client against the server, so the
browser shows exactly what the server means; a guess from events that differed between the two would show here."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Playwright, Route

from app.client import TableState
from app.config import REPO_ROOT
from app.core import strict_json
from app.games.registry import game_names, get_game
from app.tables.actor import TableTiming
from tests.browser.helpers import CHROMIUM_ARGS, require_chromium
from tests.support.tables import started_friends_table

TIMING = TableTiming(turn_seconds=30, grace_seconds=600, bot_delay_seconds=(0, 0), snapshot_seconds=600)
ORIGIN = "http://wire.test"

REPLAY = """async (streams) => {
  const { nextTableState, shownTable } = await import('/js/wire.js');
  return streams.map((texts) => {
    let state = null;
    return texts.map((text) => {
      state = nextTableState(state, JSON.parse(text));
      return shownTable(state);
    });
  });
}"""


class Listener:
    def __init__(self, table_id: str):
        self.state = TableState(table_id)
        self.texts: list[str] = []
        self.shown: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    def send_text(self, text: str) -> None:
        self.texts.append(text)
        self.state.apply(strict_json.loads(text))
        self.shown.append({"view": self.state.view, "legal": self.state.legal, "table_info": self.state.info})
        self.arrived.set()


async def play(name: str, seed: int) -> list[Listener]:
    """A whole game of easy bots playing from what their clients rebuilt; every socket's messages."""
    cls = get_game(name)
    table, chooser = started_friends_table(name, f"wire:{name}:{seed}", f"{name}{seed}", TIMING)
    seats = len(table.seats)
    players = [Listener(table.id) for _ in range(seats)]
    spectator = Listener(table.id)
    for seat, listener in enumerate(players):
        await table.connect(listener, 100 + seat, None)
    await table.connect(spectator, None, None)
    bots = [cls.bots["easy"](seat, random.Random(chooser.random())) for seat in range(seats)]
    while table.status == "playing":
        movers = [s for s in range(seats) if players[s].state.legal]
        chooser.shuffle(movers)
        for seat in movers:
            state = players[seat].state
            action = bots[seat].choose(state.view if bots[seat].needs_view else None, state.legal)
            if action is not None:
                await table.act(100 + seat, action)
                break
        else:  # waiting on a deadline (a Pika alert nobody calls)
            spectator.arrived.clear()
            await asyncio.wait_for(spectator.arrived.wait(), 10)
    await table.stop()
    return [*players, spectator]


async def serve_static(route: Route) -> None:
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/":
        await route.fulfill(body="<!doctype html><title>wire</title>", content_type="text/html")
        return
    file = (REPO_ROOT / "static" / path.lstrip("/")).resolve()
    assert file.is_relative_to(REPO_ROOT / "static") and file.is_file(), path
    await route.fulfill(body=Path(file).read_text(), content_type="text/javascript")


@pytest.mark.parametrize("name", game_names())
async def test_the_browser_rebuilds_what_the_python_client_does(playwright: Playwright, name: str) -> None:
    listeners = [listener for seed in range(2) for listener in await play(name, seed)]
    assert any('"turns"' in text for listener in listeners for text in listener.texts[1:])
    browser = await playwright.chromium.launch(executable_path=str(require_chromium(playwright)), args=CHROMIUM_ARGS)
    try:
        page = await browser.new_page()
        await page.route(f"{ORIGIN}/**", serve_static)
        await page.goto(f"{ORIGIN}/")
        shown = await page.evaluate(REPLAY, [listener.texts for listener in listeners])
    finally:
        await browser.close()
    for listener, in_browser in zip(listeners, shown, strict=True):
        assert len(in_browser) == len(listener.shown)
        for step, (python, javascript) in enumerate(zip(listener.shown, in_browser)):
            assert javascript == python, (name, listener.state.seat, step, listener.texts[step])
