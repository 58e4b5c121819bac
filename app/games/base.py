"""The engine contract: how every game looks from outside (docs/engines.md).

A game is a value. It is created from a number of seats, options and a random source; it says which seats must act,
what each seat may do, applies one action at a time (refusing an illegal one with a reason and changing nothing),
shows each seat its own view, and once over gives the placings. It has no I/O, no asyncio and no clock: time
enters only as system actions that the table sends when a deadline the game asked for runs out.

Actions, events and views are plain JSON-able dicts with names a person understands, because the same shapes go
over the wire. Seats are numbered 0..seats-1 in clockwise order.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from app.games.rng import RandomSource

if TYPE_CHECKING:
    from app.games.actions import ActionSchema

Action = dict[str, Any]
View = dict[str, Any]


class Refusal(Exception):
    """A request refused, changing nothing: `code` is stable and machine-readable, `message` is for the player. The
    one shape of the engines' refusals (IllegalAction), the tables' and the relay's."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class IllegalAction(Refusal):
    """An action the rules refuse."""


class Event:
    """Something that happened, as each seat may learn it.

    `public` is what everyone (spectators included) sees; `private[seat]` is merged on top for that seat only
    (e.g. the card a Pika player drew, the cards a Stakes Peek showed). Never put hidden facts in `public`.

    A plain slotted class rather than a frozen dataclass: engines make one or two per action, and a frozen
    dataclass's constructor costs about four times as much (bench: `tablestakes simulate`).
    """

    __slots__ = ("type", "public", "private")

    def __init__(
        self, type: str, public: dict[str, Any] | None = None, private: dict[int, dict[str, Any]] | None = None
    ) -> None:
        self.type = type
        self.public = {} if public is None else public
        self.private = {} if private is None else private

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.type, self.public, self.private) == (other.type, other.public, other.private)

    __hash__ = None  # type: ignore[assignment]  # it holds dicts

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.public!r}, {self.private!r})"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        shown = {"type": self.type, **self.public}
        if seat is not None and seat in self.private:
            shown.update(self.private[seat])
        return shown


@dataclass(frozen=True)
class Deadline:
    """A real-time limit the game wants (Pika's alert), not the table's turn timer.

    The table schedules `action` as a system action (`apply(None, action)`) `seconds` after the deadline with this
    `key` first appears in `deadlines()`, and cancels it when the key disappears. `seat`, if set, is the seat that
    may still act before it runs out (a bot in that seat is asked once when it opens).
    """

    key: str
    seconds: float
    action: Action
    seat: int | None = None


@dataclass(frozen=True)
class Outcome:
    """The end of a game. `placings[seat]` is 1-based, standard competition ranking (1, 2, 2, 4)."""

    placings: list[int]
    scores: list[int] | None = None
    summary: dict[str, Any] = field(default_factory=dict)

    def winners(self) -> list[int]:
        return [seat for seat, place in enumerate(self.placings) if place == 1]

    def as_dict(self) -> dict[str, Any]:
        return {"placings": list(self.placings), "scores": self.scores, "summary": self.summary}


def competition_ranking(keys: Sequence[Any], *, higher_is_better: bool) -> list[int]:
    """Placings for each seat from a comparable key: 1, 2, 2, 4 for equal keys."""
    placings = []
    for key in keys:
        better = sum(1 for other in keys if (other > key if higher_is_better else other < key))
        placings.append(better + 1)
    return placings


# The event every engine's last move ends with, one name for all games (docs/engines.md). The table adds its own
# `game_over` after it, once the game is recorded and paid, with the rewards.
END_EVENT = "game_end"


class Game(ABC):
    """One game in progress. Subclasses live in app/games/<name>/ and are registered in app/games/registry.py."""

    name: ClassVar[str]  # registry key, e.g. "pika"
    title: ClassVar[str]  # shown to people, e.g. "Pika"
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    default_options: ClassVar[dict[str, Any]] = {}
    # option -> (lowest, highest) for every number option: a table's settings come from players, so each has a range
    option_ranges: ClassVar[dict[str, tuple[float, float]]] = {}
    # the actions a seat may send, checked for shape before `apply` sees them (app/games/actions.py)
    action_schema: ClassVar[ActionSchema | None] = None
    # action types only the table sends (seat None), e.g. a deadline's; players never may, and the table sends nothing else
    system_actions: ClassVar[frozenset[str]] = frozenset()
    # action types a seat may send when it is not among acting_seats() (Pika's reorder and call); the rules decide
    out_of_turn_actions: ClassVar[frozenset[str]] = frozenset()
    # action types that rearrange within a turn and can be undone (Kapern's chest): a table does not count them as a
    # decision, so they neither restart the seat's turn timer nor count as a turn its person played (platform.md:
    # every turn has a time limit; a toggle back and forth must not hold a turn, and a pot, for ever)
    untimed_actions: ClassVar[frozenset[str]] = frozenset()
    bots: ClassVar[dict[str, type[Bot]]] = {}  # level name -> bot class: "easy", "medium", "hard"

    seat_count: int  # set by create()/from_state()

    @classmethod
    def check_options(cls, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate the seat count and fill in default options. Raises IllegalAction on bad input."""
        if not cls.min_seats <= seats <= cls.max_seats:
            raise IllegalAction("bad_seat_count", f"{cls.title} is played by {cls.min_seats} to {cls.max_seats} players")
        merged = dict(cls.default_options)
        for key, value in (options or {}).items():
            if key not in merged:
                raise IllegalAction("unknown_option", f"{cls.title} has no option {key!r}")
            int_for_float = isinstance(merged[key], float) and type(value) is int  # 3 for 3.0; never True for 1.0
            if type(value) is not type(merged[key]) and not int_for_float:
                raise IllegalAction("bad_option", f"option {key!r} must be a {type(merged[key]).__name__}")
            if isinstance(value, float) and not math.isfinite(value):
                raise IllegalAction("bad_option", f"option {key!r} must be a finite number")
            if key in cls.option_ranges:
                low, high = cls.option_ranges[key]
                if not low <= value <= high:
                    raise IllegalAction("bad_option", f"option {key!r} must be between {low:g} and {high:g}")
            merged[key] = float(value) if int_for_float else value
        return merged

    @classmethod
    def check_action(cls, action: Any) -> None:
        """Refuse (IllegalAction "bad_action") an action that has no shape of this game's actions: unknown type or
        fields, wrong types, numbers out of range. Only the shape: the rules are `apply`'s to check."""
        if cls.action_schema is None:
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise IllegalAction("bad_action", "an action is an object with a type")
            if action["type"] in cls.system_actions:
                raise IllegalAction("bad_action", f"only the table sends {action['type']!r}")
            return
        cls.action_schema.check(action)

    @classmethod
    @abstractmethod
    def create(cls, seats: int, options: Mapping[str, Any] | None, rng: RandomSource) -> Game:
        """Set up a new game (deal, first player, ...). The game keeps `rng` and serialises it with itself."""

    @abstractmethod
    def acting_seats(self) -> list[int]:
        """Seats the game is waiting on now (usually one; several for simultaneous choices). Empty when over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every move `seat` may make now, including optional ones (calling Pika). Empty if none."""

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        """Apply one action by `seat` (None: a system action from the table, e.g. a deadline's).

        An illegal action raises IllegalAction and leaves the game exactly as it was. The opening checks are the
        same in every game, in this order, one code per mistake (docs/engines.md, "Refusals"):
        1. `game_over`: the game is over (whatever was sent);
        2. `bad_action`: not an object with a known type and the fields of that type (`check_action`); for the
           table, an object with a string type;
        3. `bad_seat`: no such seat;
        4. `not_your_turn`: the sender may not act now (a seat not in `acting_seats()`, unless the type is one of
           `out_of_turn_actions`; the table with a type not in `system_actions`).
        Then `apply_rules` checks the game's own rules and makes the move.
        """
        if self.outcome() is not None:  # is_over, without the property's extra call
            raise IllegalAction("game_over", f"this game of {self.title} is over")
        if seat is None:
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise IllegalAction("bad_action", "an action is an object with a type")
            if action["type"] not in self.system_actions:
                sends = ", ".join(sorted(self.system_actions)) or "nothing"
                raise IllegalAction("not_your_turn", f"the table has no turn in {self.title}: it sends {sends}")
            return self.apply_rules(None, action)
        type(self).check_action(action)
        if type(seat) is not int or not 0 <= seat < self.seat_count:
            raise IllegalAction("bad_seat", f"there is no seat {seat!r}")
        if action["type"] not in self.out_of_turn_actions and seat not in self.acting_seats():
            raise IllegalAction("not_your_turn", self.waiting_for())
        return self.apply_rules(seat, action)

    @abstractmethod
    def apply_rules(self, seat: int | None, action: Action) -> list[Event]:
        """The rules of one action that passed `apply`'s opening checks: check them (IllegalAction, changing
        nothing) and make the move. `seat` is None only for one of `system_actions`; only those skip the shape
        check, since the table is trusted to send them whole."""

    def waiting_for(self) -> str:
        """Whose move it is, in words, for a `not_your_turn` refusal."""
        acting = self.acting_seats()
        if len(acting) == 1:
            return f"it is seat {acting[0]}'s turn"
        return f"the game is waiting for seats {', '.join(map(str, acting))}"

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What `seat` may see (None: a spectator). Built fresh for that seat, never filtered from a shared view."""

    def public_view(self) -> View:
        """The part of every seat's view that is the same for all of them: exactly the spectator's view.

        The table sends it (and its changes) once per change for everyone; engines may build it faster than this.
        """
        return self.view(None)

    def private_view(self, seat: int) -> View:
        """The keys of `seat`'s view that differ from `public_view()` (its hand, what only it may do).

        `view(seat) == {**public_view(), **private_view(seat)}` always holds (tests check it for every engine);
        engines may build it directly, without building the whole view, as long as that stays true.
        """
        public = self.public_view()
        return {key: value for key, value in self.view(seat).items() if key not in public or public[key] != value}

    def full_view(self) -> View:
        """Every seat's view at once, for replays of finished games only (every hand revealed): the public view and
        each seat's private part, `view(seat) == {**full["public"], **full["seats"][seat]}`. What is no seat's
        (a deck's order, a die not rolled yet) stays hidden, as in every view."""
        return {"public": self.public_view(), "seats": [self.private_view(seat) for seat in range(self.seat_count)]}

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The placings once the game is over, else None."""

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    def deadlines(self) -> list[Deadline]:
        """Real-time limits the game wants now (see Deadline). Most games want none."""
        return []

    @abstractmethod
    def to_state(self) -> dict[str, Any]:
        """The whole state as JSON-able data, random source included; `from_state` gives the identical future."""

    @classmethod
    @abstractmethod
    def from_state(cls, state: dict[str, Any]) -> Game:
        """Rebuild a game from `to_state()`."""

    def check_invariants(self) -> list[str]:
        """Violations of the game's invariants (cards conserved, ...), for `simulate --check` and tests."""
        return []



class Bot(ABC):
    """A player that picks one of the legal actions using only its own seat's view.

    Bots keep no memory between calls beyond their private `rng`: anything public they need to remember (cards seen
    since the last shuffle, ...) must be in their view. That way a bot can take over any seat at any moment, and a
    table restored from a snapshot needs nothing but the game.
    """

    level: ClassVar[str]
    needs_view: ClassVar[bool] = True  # False lets the driver skip building a view (fast easy bots)

    def __init__(self, seat: int, rng: random.Random | None = None):
        self.seat = seat
        self.rng = rng or random.Random()

    @abstractmethod
    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        """One of `legal` (or an equal dict). None only when the seat is not obliged to act (an optional call)."""

