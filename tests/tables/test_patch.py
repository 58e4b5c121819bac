"""View patches (app/tables/patch.py): apply(old, diff(old, new)) == new for any JSON-like values, and the patch
survives a JSON round trip (it is what goes over the wire)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tables.patch import apply, diff

# No 0 or 1 beside the booleans: diff compares nested values with ==, for which 0 == False, and a view never turns
# one into the other at the same place (each field keeps its type).
scalars = (st.none() | st.booleans() | st.integers(-5, 5).filter(lambda n: n not in (0, 1))
           | st.sampled_from(["a", "b", "$del", "1"]))
keys = st.sampled_from(["a", "b", "c", "0", "1", "hand"])  # views never use keys starting with "$"
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)
views = st.dictionaries(keys, json_values, max_size=5)


@settings(max_examples=800, deadline=None)
@given(views, views)
def test_applying_the_diff_gives_the_new_view(old, new):
    patch = json.loads(json.dumps(diff(old, new)))
    assert apply(old, patch) == new
    assert json.dumps(apply(old, patch), sort_keys=True) == json.dumps(new, sort_keys=True)


@settings(max_examples=200, deadline=None)
@given(views)
def test_an_unchanged_view_has_an_empty_patch(view):
    assert diff(view, json.loads(json.dumps(view))) == {}


def test_small_changes_make_small_patches():
    old = {"turn": 1, "hand_counts": [7, 7, 7, 7], "discard": {"red-7": 1, "blue-2": 2}, "drawn_card": "red-1",
           "stack": None}
    new = {"turn": 2, "hand_counts": [7, 6, 7, 7], "discard": {"red-7": 2, "blue-2": 2}, "stack": None}
    assert diff(old, new) == {"turn": 2, "hand_counts": {"1": 6}, "discard": {"red-7": 2}, "$del": ["drawn_card"]}
    assert diff({"x": [1, 2]}, {"x": {"a": 1}}) == {"x": {"$value": {"a": 1}}}


def test_a_list_that_grows_or_shrinks_sends_only_the_difference():
    old = {"seen": ["8C", "JC", "7S", "3S"], "row": ["5D", "KC", "2H", "AS"]}
    new = {"seen": ["8C", "JC", "7S", "3S", "QS"], "row": ["5D", "KC"]}
    patch = diff(old, new)
    assert patch == {"seen": {"4": "QS"}, "row": {"$len": 2}}
    assert apply(old, json.loads(json.dumps(patch))) == new
    # A list mostly rewritten goes whole.
    assert diff({"x": [1, 2]}, {"x": [3, 4, 5]}) == {"x": [3, 4, 5]}
