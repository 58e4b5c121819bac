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

from collections.abc import Callable
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from app.games.base import IllegalAction

SmallInt = Annotated[int, Field(ge=0, le=1000)]  # a count that no game comes near


def _bounds(metadata: list[Any]) -> tuple[int | None, int | None, int | None, int | None] | None:
    """(ge, le, min_length, max_length) from a field's constraints; None for any other constraint."""
    ge = le = shortest = longest = None
    for item in metadata:
        if isinstance(item, annotated_types.Ge):
            ge = item.ge
        elif isinstance(item, annotated_types.Le):
            le = item.le
        elif isinstance(item, annotated_types.MinLen):
            shortest = item.min_length
        elif isinstance(item, annotated_types.MaxLen):
            longest = item.max_length
        else:
            return None
    return ge, le, shortest, longest


def _exact_check(annotation: Any, metadata: list[Any]) -> Callable[[Any], bool] | None:
    """A predicate that is true only for values the strict schema surely accepts, of exactly the plain types
    (str, bool, int, list, None); None when the field has any other kind of type or constraint."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        inner = [m for arg in args[1:] for m in (arg.metadata if isinstance(arg, FieldInfo) else [arg])]
        return _exact_check(args[0], [*metadata, *inner])
    bounds = _bounds(metadata)
    if bounds is None:
        return None
    ge, le, shortest, longest = bounds
    if origin is Literal and all(type(arg) is str for arg in args) and bounds == (None, None, None, None):
        allowed = frozenset(args)
        return lambda value: type(value) is str and value in allowed
    if annotation is bool and bounds == (None, None, None, None):
        return lambda value: type(value) is bool
    if annotation is int and shortest is None and longest is None:
        low = -(2**63) if ge is None else ge
        high = 2**63 - 1 if le is None else le
        return lambda value: type(value) is int and low <= value <= high
    if origin is Union and type(None) in args and len(args) == 2 and bounds == (None, None, None, None):
        check = _exact_check(next(arg for arg in args if arg is not type(None)), [])
        if check is None:
            return None
        return lambda value: value is None or check(value)
    if origin is list and ge is None and le is None:
        each = _exact_check(args[0], [])
        if each is None:
            return None
        fewest = shortest or 0
        most = 2**63 if longest is None else longest
        return lambda value: type(value) is list and fewest <= len(value) <= most and all(map(each, value))
    return None


def _exact_fields(shape: type[BaseModel]) -> tuple[dict[str, tuple[Callable[[Any], bool], bool]], int] | None:
    """Per field of `shape`: (its exact check, whether it is required), and the number of required fields; None
    when a field has no exact check (that shape is always left to pydantic)."""
    fields = {}
    for name, field in shape.model_fields.items():
        check = _exact_check(field.annotation, list(field.metadata))
        if check is None:
            return None
        fields[name] = (check, field.is_required())
    return fields, sum(required for _, required in fields.values())


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
        # type -> its fields' exact checks: an action that passes them is one pydantic accepts, without the call
        self._exact = {
            kind: exact for kind, shape in zip(self.types, shapes) if (exact := _exact_fields(shape)) is not None
        }
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
        if self._exactly_shaped(action, kind):
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

    def _exactly_shaped(self, action: dict[str, Any], kind: str) -> bool:
        """True only for an action of plain, exact types that the schema accepts (any doubt: False, and pydantic
        decides, with its message)."""
        exact = self._exact.get(kind)
        if exact is None:
            return False
        fields, required = exact
        present = 0
        for key, value in action.items():
            spec = fields.get(key)
            if spec is None or not spec[0](value):
                return False
            present += spec[1]
        return present == required

    def json_schema(self) -> dict[str, Any]:
        return self._adapter.json_schema()
