"""A seat's game log (issue 18): the history a seat is sent on joining (or asks for) is exactly the events it was
sent live, its own hidden parts and nobody else's, also after the table resumed from its snapshot and log; moves no
person chose say why (`auto`: timeout, covering_bot, automatic)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.core import strict_json
from app.games.pika.game import Pika
from app.games.pika.scripting import position
from app.games.rng import HashRandom, ScriptedRandom
from app.realtime import protocol
from app.tables import actor as actor_module
from app.tables.actor import HISTORY_EVENTS, LogEntry, Seat, TableActor, TableTiming
from tests.support.toy_game import Race
from tests.support.waiting import eventually

# Parts of an event that only its seat may see (pika.md, "What each player may see"): the card drawn, the cards
# of a stack taken or of a penalty, a hand's order.
PIKA_PRIVATE = {"draw": "card", "take_stack": "cards", "penalty": "cards", "hand_reordered": "hand"}


class Listener:
    """Keeps what a socket would be sent, with each event numbered by the message's version (protocol.md)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.messages.append(strict_json.loads(text))

    def events(self) -> list[dict[str, Any]]:
        """Every numbered event received, as a client's log holds them (a sync's history first)."""
        numbered: list[dict[str, Any]] = []
        for message in self.messages:
            events = message.get("events") or []
            first = message["version"] - len(events) + 1
            numbered += [{**event, "version": first + index} for index, event in enumerate(events)]
        return numbered


class Hooks:
    """Storage that keeps the log entries and the newest snapshot, as the database would."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self.newest = None  # the newest snapshot

    async def append(self, table, entries, first_seq):
        assert first_seq == len(self.entries) + 1
        self.entries += [LogEntry(e.seat, e.action, e.source, e.version) for e in entries]

    async def snapshot(self, table, snapshot):
        self.newest = snapshot

    async def finish(self, table):
        return {}

    async def abandon(self, table, reason):
        return 0


def numbered(version: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    first = version - len(events) + 1
    return [{**event, "version": first + index} for index, event in enumerate(events)]


def hidden_parts_of_others(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] in PIKA_PRIVATE and e.get("seat") != seat and PIKA_PRIVATE[e["type"]] in e]


SEED = b"the game log"
SEATS = lambda: [Seat("human", "ada", user_id=100), Seat("human", "bob", user_id=101),  # noqa: E731
                 Seat("bot", "Bot 1 (easy)", bot_level="easy")]
# Ada never acts (every move of hers is her timer running out); Bob never comes (a bot covers him after the grace).
TIMING = TableTiming(turn_seconds=0.02, grace_seconds=0.01, bot_delay_seconds=(0, 0), snapshot_seconds=0)


async def test_the_history_is_what_each_seat_was_sent_and_a_resumed_table_rebuilds_it_from_its_log():
    options = Pika.check_options(3, {"alert_seconds": 1.0})
    hooks = Hooks()
    # Ada's turns are slower here, so that the table is surely stopped mid-game (a game is a few dozen turns).
    slower = TableTiming(**{**TIMING.__dict__, "turn_seconds": 0.2})
    table = TableActor(table_id="log1", game=Pika.create(3, options, HashRandom(SEED)), seats=SEATS(), mode="friends",
                       timing=slower, hooks=hooks, seed_hex=SEED.hex(), options=options)
    table.start()
    ada = Listener()
    await table.connect(ada, 100, None, history=True)
    assert ada.messages[0]["type"] == "sync" and ada.messages[0]["events"] == []  # nothing happened yet
    await eventually(lambda: table.version >= 12, timeout=20)
    await table.stop()  # as a crash would: another server resumes it from its snapshot and log
    assert not table.game.is_over
    seen = ada.events()
    assert [e["version"] for e in seen] == list(range(1, table.version + 1))  # every version, once, in order

    # The history of each seat: the same events, each seat's own copy.
    resumed = resume(table, hooks)
    assert resumed.version == table.version and not resumed._events  # its recent events are gone: it replays
    resumed.start()
    version, mine = await resumed.history(100)
    assert numbered(version, mine) == seen[: len(mine)] and version == len(mine) == table.version
    _, bobs = await resumed.history(101)
    assert [e["type"] for e in bobs] == [e["type"] for e in mine]
    assert not hidden_parts_of_others(mine, 0) and not hidden_parts_of_others(bobs, 1)
    own_draws = [e for e in mine if e["type"] == "draw" and e["seat"] == 0 and e["count"]]
    assert all("card" in e for e in own_draws)
    _, spectated = await resumed.history(None)
    assert all(PIKA_PRIVATE.get(e["type"]) not in e for e in spectated)

    # A reload: Ada joins again with no version and asks for the history: the sync carries all of it.
    again = Listener()
    await resumed.connect(again, 100, None, history=True)
    sync = again.messages[0]
    # The resumed table plays on meanwhile (Ada's seat goes away, her timer moves), so the sync may hold newer events
    # after the ones seen before the stop: all of it, from the first version.
    synced = numbered(sync["version"], sync["events"])
    assert sync["type"] == "sync" and len(synced) == sync["version"] >= len(seen) and synced[: len(seen)] == seen
    # A join that does not ask gets no events in its sync (bots and scripts pay nothing for it).
    plain = Listener()
    await resumed.connect(plain, 101, None)
    assert "events" not in plain.messages[0]

    await asyncio.wait_for(resumed.finished.wait(), 30)
    version, mine = await resumed.history(100)
    assert numbered(version, mine) == again.events() and mine[-1]["type"] == "game_over"
    # Over the whole game: each hidden part is in its own seat's copy only (there are some: cards are drawn).
    copies = {seat: (await resumed.history(user))[1] for seat, user in ((0, 100), (1, 101), (None, None))}
    hidden = [(index, e["seat"]) for index, e in enumerate(mine) if PIKA_PRIVATE.get(e["type"]) in e
              or PIKA_PRIVATE.get(e["type"]) in copies[1][index]]
    assert hidden
    for index, owner in hidden:
        key = PIKA_PRIVATE[mine[index]["type"]]
        assert [key in copies[seat][index] for seat in (0, 1, None)] == [owner == 0, owner == 1, False]
    # Moves nobody at the seat chose say why; the bot's own seat and Ada's table notices do not.
    everything = numbered(version, mine)
    ada_moves = [e for e in everything if e.get("seat") == 0 and e["type"] in ("play", "draw", "keep", "take_stack")]
    # (after the resume Ada is away until she joins again: past the 0.01 s grace, a covering bot plays for her)
    ada_reasons = {e.get("auto") for e in ada_moves}
    assert ada_moves and "timeout" in ada_reasons and ada_reasons <= {"timeout", "covering_bot"}
    bob_moves = [e for e in everything if e.get("seat") == 1 and e["type"] in ("play", "draw", "keep", "take_stack")]
    assert bob_moves and all(e.get("auto") in ("covering_bot", "timeout") for e in bob_moves)
    assert any(e.get("auto") == "covering_bot" for e in bob_moves)
    assert not any("auto" in e for e in everything if e.get("seat") == 2 or e["type"].startswith("seat_"))
    await resumed.stop()


def resume(table: TableActor, hooks: Hooks) -> TableActor:
    """The table as another server adopts it (manager._resume): its newest snapshot, then the log after it."""
    snapshot = hooks.newest
    data = snapshot.data
    resumed = TableActor(table_id=table.id, game=Pika.from_state(snapshot.state),
                         seats=[Seat(**s) for s in data["seats"]], mode=data["mode"], timing=TIMING, hooks=hooks,
                         seed_hex=table.seed_hex, options=data["options"], version=data["version"])
    resumed.replay([LogEntry(e.seat, e.action, e.source, e.version) for e in hooks.entries], applied=snapshot.seq)
    return resumed


async def test_a_missed_pika_call_is_an_automatic_penalty_whose_cards_only_its_seat_sees():
    game = position([["red-3", "red-5"], ["blue-1", "blue-2", "green-4", "yellow-9"]], ["red-7"], turn=0,
                    alert_seconds=0.05)
    table = TableActor(table_id="log2", game=game, seats=SEATS()[:2], mode="friends", hooks=Hooks(),
                       timing=TableTiming(turn_seconds=0, grace_seconds=60, bot_delay_seconds=(0, 0)))
    table.start()
    ada, bob = Listener(), Listener()
    await table.connect(ada, 100, None, history=True)
    await table.connect(bob, 101, None, history=True)
    await table.act(100, {"type": "play", "card": "red-3"})  # one card left, and no Pika called
    await eventually(lambda: any(e["type"] == "penalty" for e in bob.events()))
    penalty = next(e for e in ada.events() if e["type"] == "penalty")
    assert penalty["auto"] == "automatic" and penalty["seat"] == 0 and len(penalty["cards"]) == 2
    seen_by_bob = next(e for e in bob.events() if e["type"] == "penalty")
    assert seen_by_bob == {k: v for k, v in penalty.items() if k != "cards"}
    played = next(e for e in ada.events() if e["type"] == "play")
    assert "auto" not in played  # Ada chose it herself
    for user, listener in ((100, ada), (101, bob)):
        version, history = await table.history(user)
        assert numbered(version, history) == listener.events()
    await table.stop()


async def test_the_history_is_bounded_to_the_newest_events_and_numbered_so_that_the_cut_shows(monkeypatch):
    monkeypatch.setattr(actor_module, "HISTORY_EVENTS", 10)
    table = TableActor(table_id="log3", game=Race.create(2, {"target": 400, "bell_seconds": 60.0}, ScriptedRandom()),
                       seats=SEATS()[:2], mode="friends", hooks=Hooks(),
                       timing=TableTiming(turn_seconds=0, grace_seconds=60, bot_delay_seconds=(0, 0)))
    table.start()
    ada = Listener()
    await table.connect(ada, 100, None)
    for _ in range(15):
        seat = table.game.acting_seats()[0]
        await table.act(100 + seat, {"type": "add", "amount": 1})
    version, history = await table.history(100)
    assert len(history) == 10 and version == table.version > 10
    assert numbered(version, history) == ada.events()[-10:]  # the newest; the first version shows the cut
    await table.stop()


def test_the_protocol_states_the_history_bound():
    assert f"({HISTORY_EVENTS})" in protocol.History.__doc__
    assert str(HISTORY_EVENTS) in protocol.Ack.model_fields["events"].description
