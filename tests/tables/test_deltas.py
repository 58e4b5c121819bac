"""Deltas (issue 15): a client that applies only patches from its first full message (after what each update's
events tell, app/games/wire.py) ends every game of every engine with exactly the server's view for its seat (but
for bots' memory), its legal moves and the table's info, at every step: for each player and for a spectator, over
many seeds. And the shared part of an update is one string for everyone."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.client import TableState
from app.core import strict_json
from app.games.registry import game_names, get_game
from app.games.rng import HashRandom
from app.games.wire import wire_for
from app.tables.actor import Seat, TableActor, TableTiming
from tests.support.tables import started_friends_table

NO_TIMERS = TableTiming(turn_seconds=0, grace_seconds=600, bot_delay_seconds=(0, 0), snapshot_seconds=600)
SEEDS = 5


class Listener:
    def __init__(self, table_id: str):
        self.state = TableState(table_id)
        self.texts: list[str] = []
        self.arrived = asyncio.Event()

    def send_text(self, text: str) -> None:
        self.texts.append(text)
        self.state.apply(strict_json.loads(text))
        self.arrived.set()


def check(table: TableActor, listener: Listener, seat: int | None) -> None:
    state = listener.state
    assert state.version == table.version
    left_out = wire_for(table.game_name).bot_only
    assert state.view == {key: value for key, value in table.game.view(seat).items() if key not in left_out}
    if seat is not None:
        assert state.legal == (table.game.legal_actions(seat) if table.status == "playing" else [])
    assert state.info == {**table.describe(), "my_seat": seat}


@pytest.mark.parametrize("name", game_names())
async def test_patches_rebuild_every_view_exactly_for_players_and_spectators(name: str) -> None:
    cls = get_game(name)
    for seed in range(SEEDS):
        table, chooser = started_friends_table(name, f"deltas:{name}:{seed}", f"{name}{seed}", NO_TIMERS)
        seats = len(table.seats)
        players = [Listener(table.id) for _ in range(seats)]
        spectator = Listener(table.id)
        for seat, listener in enumerate(players):
            assert await table.connect(listener, 100 + seat, None) == seat
        assert await table.connect(spectator, None, None) is None
        bots = [cls.bots["easy"](seat, random.Random(chooser.random())) for seat in range(seats)]
        for _ in range(5000):
            if table.status != "playing":
                break
            for seat, listener in enumerate(players):
                check(table, listener, seat)
            check(table, spectator, None)
            # Each player plays from what it rebuilt, as a real client does.
            movers = [s for s in range(seats) if players[s].state.legal]
            chooser.shuffle(movers)
            moved = False
            for seat in movers:
                state = players[seat].state
                action = bots[seat].choose(state.view if bots[seat].needs_view else None, state.legal)
                if action is not None:
                    await table.act(100 + seat, action)
                    moved = True
                    break
            if not moved:  # waiting on a deadline (a Pika alert nobody calls): it comes through the table
                spectator.arrived.clear()
                await asyncio.wait_for(spectator.arrived.wait(), 10)
        await asyncio.wait_for(table.finished.wait(), 10)
        for seat, listener in enumerate(players):
            check(table, listener, seat)
        check(table, spectator, None)
        assert any(text.startswith('{"type":"update"') and '"public"' in text for text in spectator.texts)
        await table.stop()


async def test_an_update_is_one_shared_string_unless_a_seat_has_something_of_its_own() -> None:
    cls = get_game("stakes")  # no hidden cards while flipping: most updates are the same for everyone
    game = cls.create(4, {}, HashRandom(b"shared"))
    table = TableActor(table_id="shared", game=game, mode="friends", timing=NO_TIMERS,
                       seats=[Seat("human", f"p{s}", user_id=100 + s) for s in range(4)])
    table.start()
    players = [Listener(table.id) for _ in range(4)]
    for seat, listener in enumerate(players):
        await table.connect(listener, 100 + seat, None)
    turn = game.acting_seats()[0]
    await table.act(100 + turn, {"type": "flip"})
    last = [listener.texts[-1] for listener in players]
    waiting = [text for seat, text in enumerate(last) if seat not in (turn, *table.game.acting_seats())]
    assert waiting and all(text is waiting[0] for text in waiting)  # the very same string object
    await table.stop()
