"""View patches: how a table sends a change of a view instead of the whole view (docs/protocol.md, "Patches").

A patch is a JSON object applied to the previous value, close to RFC 7396 (JSON Merge Patch) with two differences
that views need:
- a key's value replaces the old value, except that an object applied to an object patches it key by key, and an
  object applied to a list patches it element by element (keys are the indexes as strings, in increasing order; an
  index one past the end appends) and then cuts it to `"$len"` elements when that key is there;
- `null` is a value like any other (views hold nulls); a key that is gone is listed under `"$del"`;
- `{"$value": x}` replaces with `x` outright, for the rare object that replaces a list (which a plain object would
  patch).

View keys never start with `$` (a test checks every engine's views), so the two markers cannot clash.

So `{"turn": 2, "hand_counts": {"1": 5}, "stack": null, "seen": {"9": "5D"}, "$del": ["drawn_card"]}` sets `turn`,
changes the second hand count, sets `stack` to null, appends a tenth card to `seen` and removes `drawn_card`;
`{"row": {"$len": 0}}` empties `row`. `diff(old, new)` makes the smallest such patch that is
cheap to find; `apply(old, patch)` gives `new` back (the Python client and the tests use it; the browser has the
same function in static/js/patch.js).
"""

from __future__ import annotations

from typing import Any

DELETED = "$del"
REPLACED = "$value"
LENGTH = "$len"


def _replacement(before: Any, value: Any) -> Any:
    # A plain object sent for a list would patch the list element by element: mark a real replacement.
    return {REPLACED: value} if type(value) is dict and type(before) is list else value


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch that turns `old` into `new` (both JSON-like dicts); empty when they are equal."""
    patch: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            patch[key] = value
            continue
        before = old[key]
        if before is value or (before == value and type(before) is type(value)):
            continue
        if type(value) is dict and type(before) is dict:
            patch[key] = diff(before, value)
        elif type(value) is list and type(before) is list and len(value) > 1 and before:
            patch[key] = _list_patch(before, value)
        else:
            patch[key] = _replacement(before, value)
    gone = [key for key in old if key not in new]
    if gone:
        patch[DELETED] = gone
    return patch


def _list_patch(before: list[Any], after: list[Any]) -> Any:
    """Element patches (and appended elements, or the new length) when few elements changed; the whole new list when
    most did (it is then shorter). A list that grows by a card costs that card, one that shrinks its new length."""
    changed: dict[str, Any] = {}
    for index, (old, new) in enumerate(zip(before, after)):
        if old is new or (old == new and type(old) is type(new)):
            continue
        if type(new) is dict and type(old) is dict:
            changed[str(index)] = diff(old, new)
        else:
            changed[str(index)] = _replacement(old, new)
        if 2 * len(changed) > len(after):
            return after
    size = len(after)
    if size > len(before):
        if 2 * (len(changed) + size - len(before)) > size:
            return after
        for index in range(len(before), size):
            changed[str(index)] = after[index]
    elif size < len(before):
        changed[LENGTH] = size
    return changed


def apply(value: Any, patch: Any) -> Any:
    """`value` with `patch` applied (a new object; `value` is not changed)."""
    if type(patch) is not dict:
        return patch
    if REPLACED in patch:
        return patch[REPLACED]
    if type(value) is list:
        result = list(value)
        for index, part in patch.items():
            if index == LENGTH:
                continue
            position = int(index)
            if position < len(result):
                result[position] = apply(result[position], part)
            else:
                result.append(apply(None, part))
        if LENGTH in patch:
            del result[patch[LENGTH]:]
        return result
    if type(value) is not dict:
        value = {}
    result = dict(value)
    for key, part in patch.items():
        if key == DELETED:
            for gone in part:
                result.pop(gone, None)
        elif key in result and type(part) is dict and type(result[key]) in (dict, list):
            result[key] = apply(result[key], part)
        else:
            result[key] = part
    return result
