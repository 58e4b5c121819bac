"""A tiny game used to test the contract's machinery (driver, tables) without a real game's rules.

Race: seats take turns adding 1 or 2 to a running total; whoever makes it reach `target` wins, the others share
second place. Each time the total lands on a multiple of 5 the mover has a "bell" deadline: they may ring it within
`bell_seconds`, or pay 1 point (the total goes back by one) when it runs out. A hidden "secret" per seat (rolled at
the start) is shown only to that seat, so leak checks have something to catch.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.base import END_EVENT, Bot, Deadline, Event, Game, IllegalAction, Outcome
from app.games.rng import random_from_state


class Race(Game):
    name = "race"
    title = "Race"
    min_seats = 2
    max_seats = 4
    default_options = {"target": 12, "bell_seconds": 2.0}

    def __init__(self, state: dict[str, Any], rng):
        self.state = state
        self.rng = rng
        self.seat_count = state["seats"]

    @classmethod
    def create(cls, seats, options, rng):
        options = cls.check_options(seats, options)
        state = {
            "seats": seats,
            "options": options,
            "total": 0,
            "turn": rng.randbelow(seats),
            "secrets": [rng.roll(6) for _ in range(seats)],
            "bell": None,  # [seat, number] while a bell is open
            "bells": 0,
            "winner": None,
        }
        return cls(state, rng)

    def acting_seats(self):
        return [] if self.state["winner"] is not None else [self.state["turn"]]

    def legal_actions(self, seat):
        if self.state["winner"] is not None:
            return []
        actions = []
        if seat == self.state["turn"]:
            actions += [{"type": "add", "amount": 1}, {"type": "add", "amount": 2}]
        if self.state["bell"] and self.state["bell"][0] == seat:
            actions.append({"type": "ring"})
        return actions

    system_actions = frozenset({"bell_expired"})
    out_of_turn_actions = frozenset({"ring"})  # the bell's owner rings it after their turn has passed

    def apply_rules(self, seat, action):
        s = self.state
        kind = action["type"]
        if seat is None:
            if not s["bell"] or action.get("number") != s["bell"][1]:
                raise IllegalAction("no_such_bell", "no such bell")
            owner = s["bell"][0]
            s["bell"] = None
            s["total"] = max(0, s["total"] - 1)
            return [Event("bell_missed", {"seat": owner, "total": s["total"]})]
        if kind == "ring":
            if not s["bell"] or s["bell"][0] != seat:
                raise IllegalAction("no_bell", "you have no bell to ring")
            s["bell"] = None
            return [Event("rang", {"seat": seat})]
        if kind != "add":
            raise IllegalAction("bad_action", "unknown action")
        amount = action.get("amount")
        if amount not in (1, 2):
            raise IllegalAction("bad_amount", "add 1 or 2")
        s["total"] = min(s["options"]["target"], s["total"] + amount)
        events = [Event("added", {"seat": seat, "amount": amount, "total": s["total"]}, {seat: {"secret": s["secrets"][seat]}})]
        if s["total"] >= s["options"]["target"]:
            s["winner"] = seat
            s["bell"] = None
            events.append(Event(END_EVENT, {"seat": seat}))
            return events
        if s["total"] % 5 == 0:
            s["bells"] += 1
            s["bell"] = [seat, s["bells"]]
        s["turn"] = (s["turn"] + 1) % s["seats"]
        return events

    def view(self, seat):
        s = self.state
        view = {
            "total": s["total"],
            "target": s["options"]["target"],
            "to_act": self.acting_seats(),
            "bell": s["bell"][0] if s["bell"] else None,
            "winner": s["winner"],
        }
        if seat is not None:
            view["my_secret"] = s["secrets"][seat]
        return view

    def outcome(self):
        winner = self.state["winner"]
        if winner is None:
            return None
        return Outcome([1 if seat == winner else 2 for seat in range(self.seat_count)])

    def deadlines(self):
        bell = self.state["bell"]
        if not bell:
            return []
        return [
            Deadline(
                f"bell:{bell[1]}",
                self.state["options"]["bell_seconds"],
                {"type": "bell_expired", "number": bell[1]},
                seat=bell[0],
            )
        ]

    def to_state(self):
        return {**self.state, "rng": self.rng.to_state()}

    @classmethod
    def from_state(cls, state):
        state = dict(state)
        rng = random_from_state(state.pop("rng"))
        return cls(state, rng)


class RaceBot(Bot):
    level = "easy"

    def choose(self, view, legal):
        rings = [a for a in legal if a["type"] == "ring"]
        if rings:
            return rings[0] if self.rng.random() < 0.5 else None
        adds = [a for a in legal if a["type"] == "add"]
        return self.rng.choice(adds) if adds else None


class GreedyRaceBot(RaceBot):
    level = "hard"

    def choose(self, view, legal):
        rings = [a for a in legal if a["type"] == "ring"]
        if rings:
            return rings[0]
        adds = [a for a in legal if a["type"] == "add"]
        if not adds:
            return None
        # Win at once when possible, else leave the next player short of the target.
        needed = view["target"] - view["total"]
        for action in adds:
            if action["amount"] >= needed:
                return action
        return max(adds, key=lambda a: a["amount"] if (needed - a["amount"]) % 3 else -1)


Race.bots = {"easy": RaceBot, "hard": GreedyRaceBot}


def seeded_bots(levels, seed=0):
    return [Race.bots[level](seat, random.Random(f"{seed}:{seat}")) for seat, level in enumerate(levels)]
