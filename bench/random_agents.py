"""Random agents for the engine benches (bench/engines.py, bench/rlcard_uno.py): the policy RLCard's RandomAgent
plays, as engine-neutral bots. They read no view unless told to build one (`WithView`), like the easy bots.
"""

from __future__ import annotations

from app.games.base import Action, Bot, View

# Pika's optional passes: drawing (allowed even with a playable card, pika.md), keeping a drawn playable card,
# taking a stack that could be chained.
PIKA_PASSES = frozenset({"draw", "keep", "take_stack"})


class RandomAgent(Bot):
    """A uniform choice among the legal actions.

    Kapern is the one exception: a turn offers one "stop" among up to 247 rolls, so a uniform choice almost never
    stops, scores nothing and the game never ends; this agent stops half the time it may, else rolls at random.
    """

    level = "random"
    needs_view = False

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        if legal[-1]["type"] == "stop" and len(legal) > 1 and self.rng.random() < 0.5:
            return legal[-1]  # Kapern lists "stop" last
        return legal[int(self.rng.random() * len(legal))]


class PlaysFirstAgent(RandomAgent):
    """Pika under UNO's legality, as RLCard lists it: a uniform choice among the plays (and the Pika call), passing
    (draw, keep, take the stack) only when there is nothing else.

    RLCard's UNO offers "draw" only when no card can be played, so its RandomAgent (uniform among its legal actions)
    never draws with a playable card. Pika lets a player draw anyway, and a uniform choice among Pika's legal actions
    draws so often that a round lasts about 900 decisions instead of about 50: that compares two different games.
    """

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        # A plain loop: for a few actions it costs less than a list comprehension's call (CPython 3.11).
        choices = []
        for action in legal:
            if action["type"] not in PIKA_PASSES:
                choices.append(action)
        if not choices:
            choices = legal
        return choices[int(self.rng.random() * len(choices))] if choices else None


def with_view(agent_cls: type[RandomAgent]) -> type[RandomAgent]:
    """The same agent, but the driver builds the deciding seat's view before every decision (RLCard builds its
    state for every decision), and the agent ignores it."""
    return type(f"{agent_cls.__name__}WithView", (agent_cls,), {"needs_view": True})
