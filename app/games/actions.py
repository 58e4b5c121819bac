"""The shape of a player's action, checked before an engine sees it (one strict schema per game).

Each game declares the actions a seat may send as pydantic models (`ActionShape` subclasses, one per action type)
and lists them in one `ActionSchema`, the game's `Game.action_schema`. `ActionSchema` turns that list into one discriminated union and checks an
incoming action against it: unknown types, unknown or missing fields, wrong types (no coercion: `"3"` is not 3,
`true` is not 1), numbers out of range and non-finite numbers are all refused with `bad_action` and a sentence
saying what is wrong. `Game.apply` checks it for every seat's action (bots' included) before whose turn it is; the
engine's `apply_rules` then checks the rules (which card, which step).

Only the shape is checked here, never the game state, so the same malformed action gets the same answer in every
game and from every seat. The table's own system actions (deadlines) are trusted and skip this check.
"""

from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.games.base import IllegalAction

SmallInt = Annotated[int, Field(ge=0, le=1000)]  # a count that no game comes near


class ActionShape(BaseModel):
    """One action type of one game. Subclasses set `type: Literal["..."]` and their fields."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


class ActionSchema:
    """Every action a seat may send in one game, checked in one call."""

    def __init__(self, title: str, shapes: tuple[type[ActionShape], ...]):
        self.title = title
        self.shapes = shapes
        self.types = tuple(shape.model_fields["type"].annotation.__args__[0] for shape in shapes)  # type: ignore[union-attr]
        # types whose fields are all optional: `{"type": ...}` alone is one of them (a fast path, no pydantic call)
        self._bare = frozenset(
            kind for kind, shape in zip(self.types, shapes)
            if not any(field.is_required() for name, field in shape.model_fields.items() if name != "type")
        )
        union = shapes[0] if len(shapes) == 1 else Annotated[Union[shapes], Field(discriminator="type")]
        self._adapter: TypeAdapter[Any] = TypeAdapter(union)

    def check(self, action: Any) -> None:
        """Raise IllegalAction("bad_action", why) unless `action` has the shape of one of this game's actions."""
        if not isinstance(action, dict):
            raise IllegalAction("bad_action", "an action is an object with a type")
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalAction("bad_action", "an action is an object with a \"type\" that is a string")
        if len(action) == 1 and kind in self._bare:
            return
        if kind not in self.types:
            raise IllegalAction("bad_action", f"{self.title} has no action {kind[:40]!r}; the actions are "
                                              f"{', '.join(self.types)}")
        try:
            self._adapter.validate_python(action)
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"][1:]) or "action"
            raise IllegalAction("bad_action", f"{kind}: {where}: {first['msg'][:200]}") from None

    def json_schema(self) -> dict[str, Any]:
        return self._adapter.json_schema()
