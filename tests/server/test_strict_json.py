"""strict_json.dumps: the text json.dumps writes (compact), and never NaN or an infinity."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core import strict_json

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8) | st.integers(), children, max_size=5),
    max_leaves=30,
)


@given(json_values)
def test_dumps_writes_what_json_writes(value):
    assert strict_json.dumps(value) == json.dumps(value, separators=(",", ":"), allow_nan=False)
    assert strict_json.loads(strict_json.dumps(value)) == json.loads(json.dumps(value))


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("wrap", [lambda x: x, lambda x: [1, x], lambda x: {"a": {"b": x}}])
def test_dumps_refuses_non_finite_numbers(bad, wrap):
    with pytest.raises(ValueError):
        strict_json.dumps(wrap(bad))


def test_dumps_refuses_what_json_cannot_write():
    with pytest.raises(TypeError):
        strict_json.dumps({"a": object()})
    with pytest.raises(TypeError):
        strict_json.dumps({(1, 2): "tuple key"})
    looped: list = []
    looped.append(looped)
    with pytest.raises(RecursionError):
        strict_json.dumps(looped)


def test_a_failed_dumps_leaves_the_next_one_whole():
    with pytest.raises(ValueError):
        strict_json.dumps({"a": [1, 2, math.nan]})
    assert strict_json.dumps({"a": [1, 2, 3]}) == '{"a":[1,2,3]}'
