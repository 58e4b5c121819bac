"""JSON as the standard defines it: NaN and Infinity are not JSON, and a number past a double's range (1e400) has no
value. Python's json module takes all three (as nan and inf), PostgreSQL's JSON columns refuse them and a browser's
JSON.parse fails on them, so whatever comes in from outside is read with `loads_finite`."""

from __future__ import annotations

import json
import math
from typing import Any


class NonFiniteNumber(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise NonFiniteNumber(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteNumber(f"{text} is beyond the range of a number")
    return value


def loads_finite(text: str | bytes) -> Any:
    """json.loads, refusing NaN, Infinity, -Infinity and overflowing numbers with NonFiniteNumber (a ValueError);
    anything else that is not JSON raises json.JSONDecodeError (a ValueError too), as json.loads does."""
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
