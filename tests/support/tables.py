"""A live table of people for protocol tests that drive it in-process (no server, no database)."""

from __future__ import annotations

import random

from app.games.registry import get_game
from app.games.rng import HashRandom
from app.tables.actor import Seat, TableActor, TableTiming


def started_friends_table(name: str, key: str, table_id: str, timing: TableTiming) -> tuple[TableActor, random.Random]:
    """A started friends table of the game `name`, its seat count drawn from `key`, every seat a person (user ids
    100, 101, ...), and the random generator the draw came from (for the rest of the test's choices)."""
    cls = get_game(name)
    chooser = random.Random(key)
    seats = chooser.randint(cls.min_seats, cls.max_seats)
    options = cls.check_options(seats, {"alert_seconds": 1.0} if name == "pika" else {})
    game = cls.create(seats, options, HashRandom(key.encode()))
    table = TableActor(table_id=table_id, game=game, mode="friends", timing=timing,
                       seats=[Seat("human", f"p{s}", user_id=100 + s) for s in range(seats)])
    table.start()
    return table, chooser
