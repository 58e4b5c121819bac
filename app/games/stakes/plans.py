"""Fixed plans for Stakes: the simple strategies a clever person tries first (docs/bots.md, the panel).

A plan reads only its own total, the target and the table; it counts no cards and never searches. It never twists
on its own turn; after a King it turns a die up (a higher target is never a bust for me), down only when up is not
allowed; after a Jack it puts the cards back as they came. Plans use no randomness.
"""

from __future__ import annotations

from app.games.base import Action, Bot, View


def _target(view: View) -> int:
    return view["target"]


class BankAtMargin(Bot):
    """Flip until my total is within `margin` of the target, then bank; an exact hit banks at once."""

    level = "bank-at-margin"
    margin = 4

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        kind = legal[0]["type"]
        if kind in ("put_back", "nudge"):
            return self.fixed(legal)
        types = {a["type"] for a in legal}
        if "flip" not in types:
            return {"type": "pass"} if {"type": "pass"} in legal else legal[0]  # banked in the Duel: never twists
        me = view["players"][view["seat"]]
        if "bank" in types and me["total"] >= _target(view) - self.margin and not me["shields"]:
            return {"type": "bank"}
        return {"type": "flip"}

    @staticmethod
    def fixed(legal: list[Action]) -> Action:
        if legal[0]["type"] == "nudge":
            ups = [a for a in legal if a["direction"] == "up"]
            return ups[0] if ups else legal[0]
        return legal[0]


class PushToTarget(BankAtMargin):
    """The greedy plan: flip until my total is within 2 of the target (a Shield means flip on), then bank."""

    level = "push-to-target"
    margin = 2


PLANS: dict[str, type[Bot]] = {plan.level: plan for plan in (PushToTarget, BankAtMargin)}
